package gpukernels_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/network"
)

// hostDriver is a host program that runs the launchers of the device scans
// of the header ns.cuh on the CPU, with the CUDA runtime's launch calls
// replaced by a recorder (clang-14 lowers a launch without the toolkit to
// cudaConfigureCall, cudaSetupArgument and cudaLaunch), and prints FAIL
// lines for every broken promise and PASS at the end.
const hostDriver = `#include "ns.cuh"
#include <cstdio>

namespace {
struct Launch {
  const void* kernel;
  dim3 grid, block;
  unsigned long shared;
};
Launch launches[16];
int count = 0;
dim3 next_grid, next_block;
unsigned long next_shared = 0;
int failures = 0;

void Expect(bool ok, const char* what, long long n) {
  if (!ok) {
    std::printf("FAIL %s (n = %lld)\n", what, n);
    ++failures;
  }
}
}  // namespace

extern "C" cudaError_t cudaConfigureCall(dim3 grid, dim3 block, unsigned long shared, cudaStream_t) {
  next_grid = grid;
  next_block = block;
  next_shared = shared;
  return cudaSuccess;
}
extern "C" cudaError_t cudaSetupArgument(const void*, size_t, size_t) { return cudaSuccess; }
extern "C" cudaError_t cudaLaunch(const void* kernel) {
  if (count < 16) launches[count] = Launch{kernel, next_grid, next_block, next_shared};
  ++count;
  return cudaSuccess;
}
extern "C" cudaError_t cudaPeekAtLastError(void) { return cudaSuccess; }
template <class T>
cudaError_t cudaFuncSetAttribute(T*, enum cudaFuncAttribute, int) {
  return cudaSuccess;
}

using namespace prefixgen::ns;
typedef value_type T;

int main() {
  const long long sizes[] = {0, 1, kTileItems, kTileItems + 1, 3LL * kTileItems + 5, 1LL << 31};
  for (long long n : sizes) {
    const long long tiles = (n + kTileItems - 1) / kTileItems;
    void* temp = reinterpret_cast<void*>(static_cast<unsigned long long>(1) << 20);
    const T* in = reinterpret_cast<const T*>(static_cast<unsigned long long>(1) << 32);
    T* out = reinterpret_cast<T*>(static_cast<unsigned long long>(1) << 33);

    // Single pass: sizing, one byte short, enough.
    size_t bytes = 0;
    count = 0;
    Expect(DeviceInclusiveScan(NULL, bytes, in, out, n, ScanOp()) == cudaSuccess && count == 0, "single-pass sizing", n);
    Expect(bytes >= sizeof(unsigned long long), "single-pass storage holds the tile counter", n);
    size_t less = bytes - 1;
    Expect(DeviceInclusiveScan(temp, less, in, out, n, ScanOp()) == cudaErrorInvalidValue, "single pass refuses storage one byte short", n);
    Expect(count == 0, "a refused single pass launches nothing", n);
    Expect(DeviceInclusiveScan(temp, bytes, in, out, n, ScanOp()) == cudaSuccess, "single pass with enough storage", n);
    if (n == 0) {
      Expect(count == 0, "no items, no launch", n);
    } else {
      Expect(count == 2, "single pass launches two kernels", n);
      Expect(launches[0].kernel == reinterpret_cast<const void*>(InitScanKernel<T>), "InitScanKernel first", n);
      Expect(launches[0].grid.x == (tiles + 255) / 256 && launches[0].block.x == 256, "InitScanKernel covers every tile", n);
      Expect(launches[1].kernel == reinterpret_cast<const void*>(ScanKernel<T, ScanOp>), "ScanKernel second", n);
      Expect(launches[1].grid.x == tiles && launches[1].block.x == kBlockThreads, "ScanKernel: one block per tile", n);
      Expect(launches[1].shared == sizeof(KernelStorage<T, ScanOp>), "ScanKernel's shared memory", n);
    }

    // Three passes.
    bytes = 0;
    count = 0;
    Expect(DeviceExclusiveScanThreePass(NULL, bytes, in, out, n, T(), ScanOp()) == cudaSuccess && count == 0, "three-pass sizing", n);
    Expect(bytes >= static_cast<size_t>(tiles) * sizeof(T), "three-pass storage holds the tile totals", n);
    less = bytes - 1;
    Expect(DeviceExclusiveScanThreePass(temp, less, in, out, n, T(), ScanOp()) == cudaErrorInvalidValue, "three passes refuse storage one byte short", n);
    Expect(count == 0, "refused three passes launch nothing", n);
    Expect(DeviceExclusiveScanThreePass(temp, bytes, in, out, n, T(), ScanOp()) == cudaSuccess, "three passes with enough storage", n);
    if (n == 0) {
      Expect(count == 0, "no items, no launch", n);
    } else if (tiles == 1) {
      Expect(count == 1 && launches[0].kernel == reinterpret_cast<const void*>(ScanTilesKernel<T, ScanOp>), "one tile: pass 3 only", n);
    } else {
      Expect(count == 3, "three passes launch three kernels", n);
      Expect(launches[0].kernel == reinterpret_cast<const void*>(ReduceTilesKernel<T, ScanOp>) && launches[0].grid.x == tiles, "pass 1 reduces every tile", n);
      Expect(launches[1].kernel == reinterpret_cast<const void*>(ScanTotalsKernel<T, ScanOp>) && launches[1].grid.x == 1, "pass 2 is one block", n);
      Expect(launches[2].kernel == reinterpret_cast<const void*>(ScanTilesKernel<T, ScanOp>) && launches[2].grid.x == tiles, "pass 3 scans every tile", n);
    }
  }
  std::printf(failures == 0 ? "PASS\n" : "FAILED\n");
  return failures == 0 ? 0 : 1;
}
`

// runHostDriver compiles hostDriver against header with clang-14 as CUDA
// host code, links it and runs it, returning its output and whether it
// passed.
func runHostDriver(t *testing.T, header string) (string, bool) {
	t.Helper()
	return runHost(t, header, hostDriver)
}

// runHost compiles the host program driver, which includes header as
// "ns.cuh", with clang-14 as CUDA host code, links it and runs it,
// returning its output and whether it ended with PASS.
func runHost(t *testing.T, header, driver string) (string, bool) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ns.cuh"), []byte(header), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "driver.cu"), []byte(driver), 0o644))
	out, err := gputest.Clang(t, dir, "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "--cuda-path="+gputest.NoCUDA, "-std=c++17", "-O1",
		"-include", gputest.Testdata(t, "prelude.cuh"), "-c", "driver.cu", "-o", "driver.o")
	require.NoError(t, err, "clang-14 said:\n%s", out)
	require.Empty(t, strings.TrimSpace(out), "clang-14 warns")
	out, err = gputest.Clang(t, dir, "driver.o", "-o", "driver")
	require.NoError(t, err, "linking:\n%s", out)
	res, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: filepath.Join(dir, "driver"), Dir: dir})
	require.NotNil(t, res, "%v", err)
	out = string(res.Output)
	return out, err == nil && strings.HasSuffix(out, "PASS\n")
}

// TestDeviceScanLaunchers runs the host side of the device scans (the
// launchers DeviceScan and DeviceScanThreePass) on the CPU, kernel launches
// recorded instead of made: the sizing call launches nothing, temporary
// storage one byte short is refused with cudaErrorInvalidValue and
// launches nothing, and enough storage launches the kernels in order with
// one block per tile (a single tile skips passes 1 and 2), at sizes from 0
// to 2^31 items, for packed and wide tile states and both block scans. A
// header whose launcher does not check the storage fails.
func TestDeviceScanLaunchers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		net *network.Network
		opt gpukernels.Options
	}{
		{gputest.Build(t, "sklansky", 32, nil), gpukernels.Options{Type: "int32", Op: "add"}},
		{gputest.Build(t, "kogge-stone", 5, nil), gpukernels.Options{Type: "double", Op: "affine", Segmented: "uint32"}},
		{gputest.Build(t, "brent-kung", 64, nil), gpukernels.Options{Type: "int64", Op: "max", Block: gpukernels.BlockShared}},
	} {
		t.Run(c.opt.Type+"-"+c.opt.Op, func(t *testing.T) {
			t.Parallel()
			c.opt.Namespace = "ns"
			out, ok := runHostDriver(t, render(t, c.net, c.opt))
			assert.True(t, ok, "%s %s: %s", c.opt.Type, c.opt.Op, out)
		})
	}
	t.Run("planted", func(t *testing.T) {
		t.Parallel()
		// A planted bug: the single pass does not check the storage.
		header := render(t, gputest.Build(t, "sklansky", 32, nil), gpukernels.Options{Namespace: "ns"})
		check := "  if (temp_storage_bytes < needed) return cudaErrorInvalidValue;\n  if (num_tiles == 0) return cudaSuccess;\n  if (num_tiles > 0x7fffffffLL) return cudaErrorInvalidValue;\n  ScanState<T> state;"
		require.Contains(t, header, check)
		out, ok := runHostDriver(t, strings.Replace(header, check, strings.SplitN(check, "\n", 2)[1], 1))
		assert.False(t, ok)
		assert.Contains(t, out, "FAIL single pass refuses storage one byte short (n = 1)")
	})
}

// nanDriver checks the header's ScanOp on the CPU over values with NaNs,
// infinities and both zeros: associative on every triple (a network may
// group the operands any way), NaN missing to it on either side, and
// Identity() an identity of every other value.
const nanDriver = `#include "ns.cuh"
#include <cstdio>
#include <cstring>
using namespace prefixgen::ns;
typedef value_type T;
static bool Same(T a, T b) { return (a != a && b != b) || std::memcmp(&a, &b, sizeof(T)) == 0; }
int main() {
  const T zero = 0, nan = zero / zero, inf = T(1) / zero;
  const T values[] = {1, 3, -2, nan, inf, -inf, zero, -zero};
  const int n = sizeof(values) / sizeof(values[0]);
  int failures = 0;
  ScanOp op;
  for (int i = 0; i < n; ++i) {
    const T x = values[i];
    if (x == x && (!Same(op(x, nan), x) || !Same(op(nan, x), x) || !Same(op(Identity(), x), x) || !Same(op(x, Identity()), x))) {
      std::printf("FAIL %g: NaN or the identity is not missing to it\n", double(x));
      ++failures;
    }
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const T a = values[i], b = values[j], c = values[k];
        if (!Same(op(op(a, b), c), op(a, op(b, c)))) {
          std::printf("FAIL (%g %g) %g != %g (%g %g)\n", double(a), double(b), double(c), double(a), double(b), double(c));
          ++failures;
        }
      }
  }
  std::printf(failures == 0 ? "PASS\n" : "FAILED\n");
  return failures == 0 ? 0 : 1;
}
`

// TestMaxMinNaN: float and double max and min treat a NaN as missing
// (IEEE 754 maxNum), so that they are associative with NaNs about and every
// network gives the same prefixes. a < b ? b : a alone gave max(max(1,
// NaN), 3) = 3 but max(1, max(NaN, 3)) = 1: Kogge–Stone and Sklansky
// scanned [1, NaN, 3, 4] differently.
func TestMaxMinNaN(t *testing.T) {
	t.Parallel()
	net := gputest.Build(t, "sklansky", 8, nil)
	for _, typ := range []string{"float", "double"} {
		for _, op := range []string{"max", "min"} {
			t.Run(typ+"-"+op, func(t *testing.T) {
				t.Parallel()
				header := render(t, net, gpukernels.Options{Type: typ, Op: op, Namespace: "ns"})
				out, ok := runHost(t, header, nanDriver)
				assert.True(t, ok, "%s %s: %s", typ, op, out)
			})
		}
	}
	t.Run("comparison", func(t *testing.T) {
		t.Parallel()
		// The comparison alone fails.
		header := render(t, net, gpukernels.Options{Type: "float", Op: "max", Namespace: "ns"})
		old := strings.Replace(header, "(a < b || detail::IsNaN(a)) ? b : a", "a < b ? b : a", 1)
		require.NotEqual(t, header, old)
		out, ok := runHost(t, old, nanDriver)
		assert.False(t, ok, out)
		assert.Contains(t, out, "FAIL")
	})
}

// exchangeDriver checks, on the host, the layout of the scan kernels'
// shared memory: the exchange starts on a 16-byte boundary.
const exchangeDriver = `#include <cstdio>
#include "ns.cuh"
using namespace prefixgen::ns;
int main() {
  const size_t at = __builtin_offsetof(KernelStorage<value_type, ScanOp>, exchange);
  std::printf("exchange at byte %zu\n", at);
  std::printf("%s\n", at % 16 == 0 ? "PASS" : "FAIL");
  return at % 16 == 0 ? 0 : 1;
}
`

// TestExchangeAligned: the exchange of a scan kernel's shared memory
// starts on a 16-byte boundary. ptxas reads the block scan's prefix and
// its flag with one 16-byte load; for an 8-byte struct of 4-byte alignment
// (affine maps, segmented int32 values) the exchange began 4 bytes into
// that load, and compute-sanitizer's racecheck on an H200 reported about
// 500 hazards a kernel against StoreFull's writes there. Without the
// alignment the exchange of the affine scan starts at byte 124.
func TestExchangeAligned(t *testing.T) {
	t.Parallel()
	net := gputest.Build(t, "kogge-stone", 32, nil)
	for _, opt := range []gpukernels.Options{
		{Type: "float", Op: "affine", Namespace: "ns"},
		{Type: "int32", Op: "add", Segmented: "uint32", Namespace: "ns"},
		{Type: "int32", Op: "add", Namespace: "ns"},
		{Type: "double", Op: "add", Segmented: "uint32", Namespace: "ns"},
	} {
		t.Run(opt.Type+"-"+opt.Op+"-"+opt.Segmented, func(t *testing.T) {
			t.Parallel()
			header := render(t, net, opt)
			out, ok := runHost(t, header, exchangeDriver)
			assert.True(t, ok, "%s %s %s: %s", opt.Type, opt.Op, opt.Segmented, out)
		})
	}
	t.Run("unaligned", func(t *testing.T) {
		t.Parallel()
		// Without the alignment the affine scan's exchange is misplaced.
		header := render(t, net, gpukernels.Options{Type: "float", Op: "affine", Namespace: "ns"})
		old := strings.Replace(header, "__align__(16) unsigned exchange[", "unsigned exchange[", 1)
		require.NotEqual(t, header, old)
		out, ok := runHost(t, old, exchangeDriver)
		assert.False(t, ok, out)
		assert.Contains(t, out, "exchange at byte 140")
	})
}
