package gpukernels_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
)

// blockDriver runs BlockScan's inclusive and exclusive scans of one tile on
// the CPU, one std::thread per thread of the block, and prints a FAIL line
// for every item or aggregate that differs from a CPU loop, then PASS. fill
// is the C++ expression of item i.
func blockDriver(fill string) string {
	return `#include <cstdio>
#include <thread>
#include <vector>
#include "shim.h"
#include "ns.cuh"

using namespace prefixgen::ns;
typedef value_type T;

int main() {
  static BlockScan<T, ScanOp>::TempStorage temp;
  Barrier block(kBlockThreads);
  block_barrier = &block;
  std::vector<Warp> ws(kBlockThreads / 32);
  warps = ws.data();
  std::vector<T> in(kTileItems), inclusive(kTileItems), exclusive(kTileItems);
  for (long long i = 0; i < kTileItems; ++i) in[i] = ` + fill + `;
  const T init = in[kTileItems / 2];
  for (long long i = 0; i < kTileItems; ++i) {
    inclusive[i] = i == 0 ? in[0] : ScanOp()(inclusive[i - 1], in[i]);
    exclusive[i] = i == 0 ? init : ScanOp()(exclusive[i - 1], in[i - 1]);
  }
  const T total = inclusive[kTileItems - 1];
  std::vector<int> failures(kBlockThreads);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kBlockThreads; ++t) {
    threads.emplace_back([&, t] {
      threadIdx = dim3_{t, 0, 0};
      const int offset = ThreadItemOffset(), count = ThreadItemCount();
      T items[kItemsPerThread], aggregate;
      for (int k = 0; k < kItemsPerThread; ++k) items[k] = k < count ? in[offset + k] : in[0];
      BlockScan<T, ScanOp>(temp).InclusiveScan(items, ScanOp(), aggregate);
      __syncthreads();
      for (int k = 0; k < count; ++k) failures[t] += !(items[k] == inclusive[offset + k]);
      failures[t] += !(aggregate == total);
      for (int k = 0; k < kItemsPerThread; ++k) items[k] = k < count ? in[offset + k] : in[0];
      BlockScan<T, ScanOp>(temp).ExclusiveScan(items, init, ScanOp(), aggregate);
      __syncthreads();
      for (int k = 0; k < count; ++k) failures[t] += !(items[k] == exclusive[offset + k]);
      failures[t] += !(aggregate == total);
    });
  }
  for (auto& th : threads) th.join();
  int failed = 0;
  for (unsigned t = 0; t < kBlockThreads; ++t) {
    if (failures[t] != 0) {
      std::printf("FAIL thread %u: %d wrong\n", t, failures[t]);
      ++failed;
    }
  }
  if (failed == 0) std::printf("PASS %d items\n", static_cast<int>(kTileItems));
  return failed != 0;
}
`
}

// hostBlockHeader returns the header of net with opt cut before the
// look-back (which needs a GPU), with the lane id read from the shim's
// threadIdx instead of PTX, in namespace prefixgen::ns; edit, when not
// nil, rewrites it.
func hostBlockHeader(t *testing.T, net *network.Network, opt gpukernels.Options, edit func(string) string) string {
	t.Helper()
	opt.Namespace = "ns"
	text := render(t, net, opt)
	const cut = "// Look-back tuning: chosen when the header was generated."
	i := strings.Index(text, cut)
	require.Positive(t, i, "no look-back to cut before")
	text = text[:i] + "}  // namespace ns\n}  // namespace prefixgen\n#endif\n"
	const laneid = `asm("mov.u32 %0, %%laneid;" : "=r"(lane));`
	require.Contains(t, text, laneid)
	text = strings.Replace(text, laneid, "lane = threadIdx.x % 32;", 1)
	if edit != nil {
		text = edit(text)
	}
	return text
}

// runBlockOnCPU builds the block scans of header on the CPU and runs them
// (gputest.HostProgram), returning what the program printed and its
// error.
func runBlockOnCPU(t *testing.T, header, fill string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	shim, err := os.ReadFile(filepath.Join("testdata", "blockhost", "shim.h"))
	require.NoError(t, err)
	for name, text := range map[string]string{"shim.h": string(shim), "ns.cuh": header, "main.cc": blockDriver(fill)} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	return gputest.HostProgram(t, dir)
}

// TestBlockScansOnCPU runs the generated shuffle and raking block scans,
// inclusive and exclusive, on the CPU (shim.h: a thread per CUDA thread, a
// barrier per __syncthreads() and per warp shuffle) and checks every item
// and the block aggregate against a CPU loop: 64-bit and floating-point
// values (the generic shuffle steps), full and narrow logical warps, up to
// 32 warps raked.
func TestBlockScansOnCPU(t *testing.T) {
	t.Parallel()
	tooltest.Path(t, "clang++-14")
	for _, c := range []struct {
		name string
		net  *network.Network
		opt  gpukernels.Options
		fill string
	}{
		{"raking kogge-stone int64 add", gputest.Build(t, "kogge-stone", 32, nil),
			gpukernels.Options{Type: "int64", Op: "add", Block: gpukernels.BlockRaking}, "T(i % 1001) - 500"},
		{"raking 32 warps", gputest.Build(t, "sklansky", 32, nil),
			gpukernels.Options{Type: "uint64", Op: "xor", Block: gpukernels.BlockRaking, BlockThreads: 1024, ItemsPerThread: 2}, "T(i * 0x9e3779b97f4a7c15ull)"},
		{"raking narrow brent-kung double max", gputest.Build(t, "brent-kung", 5, nil),
			gpukernels.Options{Type: "double", Op: "max", Block: gpukernels.BlockRaking}, "T((i * 7919) % 10007)"},
		{"shuffle han-carlson 12 lanes double add", gputest.Build(t, "han-carlson", 12, nil),
			gpukernels.Options{Type: "double", Op: "add"}, "T(i % 3) - 1"},
		{"shuffle sklansky 20 lanes int64 add", gputest.Build(t, "sklansky", 20, nil),
			gpukernels.Options{Type: "int64", Op: "add"}, "T(i * 0x9e3779b97f4a7c15ull)"},
		{"shuffle ladner-fischer int64 min", gputest.Build(t, "ladner-fischer", 32, network.Params{"k": 1}),
			gpukernels.Options{Type: "int64", Op: "min"}, "T((i * 7919) % 10007) - 5000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out, err := runBlockOnCPU(t, hostBlockHeader(t, c.net, c.opt, nil), c.fill)
			require.NoError(t, err, "%s", out)
			r, err := c.opt.Resolve(c.net)
			require.NoError(t, err)
			tile := r.BlockThreads / gpukernels.Segment(c.net.Width()) * c.net.Width() * r.ItemsPerThread
			assert.Equal(t, fmt.Sprintf("PASS %d items\n", tile), out)
		})
	}
	t.Run("a planted mistake fails", func(t *testing.T) {
		t.Parallel()
		// Raking lane r's prefix with its first total taken out of its
		// inclusive scan, not its whole reduction.
		const from = "detail::ExclusiveOf<WarpNetwork::kSegment>(inclusive, partial,"
		header := hostBlockHeader(t, gputest.Build(t, "kogge-stone", 32, nil), gpukernels.Options{Type: "int64", Op: "add", Block: gpukernels.BlockRaking},
			func(s string) string {
				require.Contains(t, s, from)
				return strings.Replace(s, from, strings.Replace(from, "partial,", "cached[0],", 1), 1)
			})
		out, err := runBlockOnCPU(t, header, "T(i % 1001) - 500")
		require.Error(t, err)
		assert.Contains(t, out, "FAIL thread")
	})
}
