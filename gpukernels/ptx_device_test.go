package gpukernels_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
)

// deviceCase is one header whose device-wide scans are compiled at -O3.
type deviceCase struct {
	net *network.Network
	opt gpukernels.Options
}

// deviceDriver instantiates the single-pass and three-pass device scans of
// the header of namespace ns, and nothing else.
func deviceDriver(file, ns string) string {
	return fmt.Sprintf(`#include %[1]q
namespace check_%[2]s {
using namespace prefixgen::%[2]s;
cudaError_t Device(const value_type* in, value_type* out, long long n, void* temp, size_t& bytes) {
  cudaError_t e = DeviceInclusiveScan(temp, bytes, in, out, n, ScanOp());
  if (e != cudaSuccess) return e;
  return DeviceInclusiveScanThreePass(temp, bytes, in, out, n, ScanOp());
}
}  // namespace check_%[2]s
`, file, ns)
}

// ptxKernel is one kernel of a compiled header: its mangled name and its
// PTX, from its .entry line to the next.
type ptxKernel struct {
	name, body string
}

// reValueBytes reads the size of a header's value_type.
var reValueBytes = regexp.MustCompile(`// value_type is the type the scans of ScanOp run over \((\d+) bytes\)\.`)

// compiledHeader is one header compiled to PTX.
type compiledHeader struct {
	ns         string
	valueBytes int
	kernels    []ptxKernel
}

// compileDevice renders each case, compiles the headers at -O3 for sm_80 in
// translation units of at most per headers, one clang-14 per CPU, and
// returns each header's device kernels. edit, when not nil, rewrites each
// header before it is compiled.
func compileDevice(t *testing.T, cases []deviceCase, per int, edit func(string) string) []compiledHeader {
	t.Helper()
	clang := tooltest.Path(t, "clang-14")
	prelude, err := filepath.Abs(filepath.Join("testdata", "prelude.cuh"))
	require.NoError(t, err)
	dir := t.TempDir()
	headers := make([]compiledHeader, len(cases))
	var srcs []string
	for i, c := range cases {
		text := render(t, c.net, c.opt)
		if edit != nil {
			text = edit(text)
		}
		ns := reNamespace.FindStringSubmatch(text)[1]
		m := reValueBytes.FindStringSubmatch(text)
		require.NotNil(t, m, "%s: no value_type size", ns)
		headers[i].ns = ns
		headers[i].valueBytes, _ = strconv.Atoi(m[1])
		require.NoError(t, os.WriteFile(filepath.Join(dir, ns+".cuh"), []byte(text), 0o644))
		if i%per == 0 {
			srcs = append(srcs, "")
		}
		srcs[len(srcs)-1] += deviceDriver(ns+".cuh", ns)
	}
	ptx := make([]string, len(srcs))
	errs := make([]error, len(srcs))
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			for i := range work {
				src := filepath.Join(dir, fmt.Sprintf("unit%d.cu", i))
				out := filepath.Join(dir, fmt.Sprintf("unit%d.ptx", i))
				if errs[i] = os.WriteFile(src, []byte(srcs[i]), 0o644); errs[i] != nil {
					continue
				}
				msg, err := exec.Command(clang, append([]string{"-O3"}, clangArgs(prelude, src, out)...)...).CombinedOutput()
				if err != nil || len(strings.TrimSpace(string(msg))) > 0 {
					errs[i] = fmt.Errorf("clang-14 (%v) said:\n%s", err, msg)
					continue
				}
				b, err := os.ReadFile(out)
				ptx[i], errs[i] = string(b), err
			}
		})
	}
	for i := range srcs {
		work <- i
	}
	close(work)
	wg.Wait()
	var kernels []ptxKernel
	for i := range srcs {
		require.NoError(t, errs[i], "unit %d", i)
		kernels = append(kernels, splitKernels(ptx[i])...)
	}
	for i := range headers {
		// Itanium mangling spells the namespace with its length first.
		tag := fmt.Sprintf("%d%s", len(headers[i].ns), headers[i].ns)
		for _, k := range kernels {
			if strings.Contains(k.name, tag) {
				headers[i].kernels = append(headers[i].kernels, k)
			}
		}
	}
	return headers
}

// splitKernels cuts PTX into its kernels.
func splitKernels(ptx string) []ptxKernel {
	var ks []ptxKernel
	for _, part := range strings.Split(ptx, ".visible .entry ")[1:] {
		name := part[:strings.IndexByte(part, '(')]
		ks = append(ks, ptxKernel{name, part})
	}
	return ks
}

// kernel returns the header's kernel of the given unqualified name, as
// mangled (its length, then the name), or fails.
func (h compiledHeader) kernel(t *testing.T, name string) ptxKernel {
	t.Helper()
	tag := fmt.Sprintf("%d%s", len(name), name)
	for _, k := range h.kernels {
		if strings.Contains(k.name, tag) {
			return k
		}
	}
	require.Failf(t, "no kernel", "%s: no %s among %d kernels", h.ns, name, len(h.kernels))
	return ptxKernel{}
}

// deviceKernels are the kernels of the device-wide scans.
var deviceKernels = []string{"ScanKernel", "InitScanKernel", "ReduceTilesKernel", "ScanTotalsKernel", "ScanTilesKernel"}

// reLocal finds local memory: a depot, or a load or store in the local
// state space.
var reLocal = regexp.MustCompile(`\.local\b|ld\.local|st\.local`)

// count returns the number of instructions of PTX body that start with
// prefix (after the tab and an optional predicate).
func count(body, prefix string) int {
	n := 0
	for line := range strings.SplitSeq(body, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "@") {
			if i := strings.IndexAny(line, " \t"); i > 0 {
				line = strings.TrimSpace(line[i:])
			}
		}
		if strings.HasPrefix(line, prefix) {
			n++
		}
	}
	return n
}

// requireDeviceKernels checks the PTX of one header's device scans: no
// local memory in any kernel; a look-back with no membar, a nanosleep
// back-off and, for a value of at most 8 bytes, the status and value in one
// 16-byte relaxed load and store, otherwise an acquire load and a release
// store of the flag; and 16-byte vector loads and stores of full tiles.
func requireDeviceKernels(t *testing.T, h compiledHeader) {
	t.Helper()
	for _, name := range deviceKernels {
		k := h.kernel(t, name)
		assert.Empty(t, reLocal.FindAllString(k.body, -1), "%s %s uses local memory", h.ns, name)
		assert.Zero(t, count(k.body, "membar"), "%s %s has a membar", h.ns, name)
	}
	scan := h.kernel(t, "ScanKernel").body
	assert.Positive(t, count(scan, "nanosleep.u32"), "%s: no back-off", h.ns)
	if h.valueBytes <= 8 {
		assert.Positive(t, count(scan, "ld.relaxed.gpu.v2.u64"), "%s: the look-back reads no 16-byte word", h.ns)
		assert.Positive(t, count(scan, "st.relaxed.gpu.v2.u64"), "%s: no tile publishes a 16-byte word", h.ns)
		assert.Zero(t, count(scan, "ld.acquire"), "%s: a packed status needs no acquire", h.ns)
		assert.Positive(t, count(h.kernel(t, "InitScanKernel").body, "st.relaxed.gpu.v2.u64"), h.ns)
	} else {
		assert.Positive(t, count(scan, "ld.acquire.gpu.u32"), "%s: the flag is not read with acquire", h.ns)
		assert.Positive(t, count(scan, "st.release.gpu.u32"), "%s: the flag is not written with release", h.ns)
		assert.Zero(t, count(scan, "ld.relaxed.gpu.v2"), h.ns)
	}
	for _, name := range []string{"ScanKernel", "ScanTilesKernel"} {
		body := h.kernel(t, name).body
		assert.Positive(t, count(body, "ld.global.v4.u32")+count(body, "ld.v4.u32"), "%s %s: no 16-byte loads", h.ns, name)
		assert.Positive(t, count(body, "st.global.v4.u32")+count(body, "st.v4.u32"), "%s %s: no 16-byte stores", h.ns, name)
	}
	// Pass 1 of the three-pass scan only reduces: it stores no item.
	reduce := h.kernel(t, "ReduceTilesKernel").body
	assert.Zero(t, count(reduce, "st.global.v4")+count(reduce, "st.v4"), "%s: pass 1 stores items", h.ns)
}

// deviceCases lists a header of every valid built-in type and operator,
// affine and carry included, and segmented ones of every width of value,
// on shuffle and shared-memory block scans and narrow logical warps.
func deviceCases(t *testing.T) []deviceCase {
	var cases []deviceCase
	sk := build(t, "sklansky", 32, nil)
	for _, p := range pairs() {
		if strings.HasPrefix(p.Op, gpukernels.FunctorPrefix) {
			continue
		}
		cases = append(cases, deviceCase{sk, p})
	}
	for _, c := range []struct{ typ, op, flag string }{
		{"int32", "add", "uint32"},     // 8 bytes: packed
		{"float", "affine", "int32"},   // 12 bytes
		{"int64", "max", "uint32"},     // 16 bytes
		{"double", "affine", "uint64"}, // 24 bytes
	} {
		cases = append(cases, deviceCase{sk, gpukernels.Options{Type: c.typ, Op: c.op, Segmented: c.flag}})
	}
	cases = append(cases,
		deviceCase{build(t, "kogge-stone", 5, nil), gpukernels.Options{Type: "int32", Op: "add"}},
		deviceCase{build(t, "brent-kung", 1024, nil), gpukernels.Options{Type: "float", Op: "add", Block: gpukernels.BlockShared}},
		deviceCase{build(t, "sklansky", 100, nil), gpukernels.Options{Type: "double", Op: "affine", Block: gpukernels.BlockShared, Segmented: "uint32"}},
	)
	return cases
}

// TestPTXDeviceScans compiles the device-wide scans at -O3 for every type
// and operator and checks their PTX instruction by instruction (see
// requireDeviceKernels).
func TestPTXDeviceScans(t *testing.T) {
	t.Parallel()
	for _, h := range compileDevice(t, deviceCases(t), 6, nil) {
		require.Len(t, h.kernels, len(deviceKernels), "%s", h.ns)
		requireDeviceKernels(t, h)
	}
}

// TestPTXDeviceScansCatch plants the mistakes the PTX checks are there to
// catch and checks that they do: a partial tile loaded by selecting each
// struct item from one of two addresses (which puts the item in local
// memory), and a flag published after a membar instead of by a release
// store.
func TestPTXDeviceScansCatch(t *testing.T) {
	t.Parallel()
	const words = `      const long long item = i < held && offset + i < num_items ? offset + i : tile_offset;
#pragma unroll
      for (int w = 0; w < kWords; ++w) items.word[i * kWords + w] = words[item * kWords + w];`
	const selected = `      items.item[i] = i < held && offset + i < num_items ? d_in[offset + i] : fill;`
	const kwords = `    const int kWords = ThreadItems<T>::kWords;`
	const fill = kwords + "\n    const T fill = d_in[tile_offset];"
	const release = `  asm volatile("st.release.gpu.u32 [%0], %1;" : : "l"(p), "r"(value) : "memory");`
	const fenced = `  __threadfence();
  *const_cast<volatile int*>(p) = value;`
	cases := []deviceCase{{build(t, "sklansky", 32, nil), gpukernels.Options{Type: "int64", Op: "add", Segmented: "uint32"}}}
	h := compileDevice(t, cases, 1, func(s string) string {
		require.Contains(t, s, words)
		require.Contains(t, s, release)
		s = strings.Replace(s, kwords, fill, 1)
		return strings.Replace(strings.Replace(s, words, selected, 1), release, fenced, 1)
	})[0]
	assert.NotEmpty(t, reLocal.FindAllString(h.kernel(t, "ScanKernel").body, -1), "the planted select put nothing in local memory")
	assert.Positive(t, count(h.kernel(t, "ScanKernel").body, "membar.gl"), "the planted fence is missing")
	assert.Zero(t, count(h.kernel(t, "ScanKernel").body, "st.release"))
}
