package gpukernels_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
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

// reValueBytes reads the size of a header's value_type, reStatusBytes
// that of its look-back's status word.
var (
	reValueBytes  = regexp.MustCompile(`// value_type is the type the scans of ScanOp run over \((\d+) bytes\)\.`)
	reStatusBytes = regexp.MustCompile(`kStatusBytes = (\d+),`)
)

// compiledHeader is one header compiled to PTX.
type compiledHeader struct {
	ns                      string
	valueBytes, statusBytes int
	blockOrder              bool // kTileOrderBlock
	kernels                 []ptxFunction
}

// newCompiledHeader returns the compiledHeader of the header text, without
// its kernels.
func newCompiledHeader(t *testing.T, text string) compiledHeader {
	t.Helper()
	h := compiledHeader{ns: reNamespace.FindStringSubmatch(text)[1]}
	m := reValueBytes.FindStringSubmatch(text)
	require.NotNil(t, m, "%s: no value_type size", h.ns)
	h.valueBytes, _ = strconv.Atoi(m[1])
	m = reStatusBytes.FindStringSubmatch(text)
	require.NotNil(t, m, "%s: no status word size", h.ns)
	h.statusBytes, _ = strconv.Atoi(m[1])
	h.blockOrder = strings.Contains(text, "kTileOrderBlock = 1,")
	return h
}

// compileDevice renders each case and compiles the headers (compileUnits)
// in translation units of at most per headers each, and returns each
// header's device kernels. edit, when not nil, rewrites each header before
// it is compiled.
func compileDevice(t *testing.T, cases []deviceCase, per int, edit func(string) string) []compiledHeader {
	t.Helper()
	headers := make([]compiledHeader, len(cases))
	var us []gputest.Unit
	for i, c := range cases {
		text := render(t, c.net, c.opt)
		if edit != nil {
			text = edit(text)
		}
		headers[i] = newCompiledHeader(t, text)
		ns := headers[i].ns
		if i%per == 0 {
			us = append(us, gputest.Unit{Name: fmt.Sprintf("device-%d", len(us)), Headers: map[string]string{}, Lenient: edit != nil})
		}
		u := &us[len(us)-1]
		u.Headers[ns+".cuh"] = text
		u.Source += deviceDriver(ns+".cuh", ns)
		for _, k := range deviceKernels {
			u.Entries = append(u.Entries, []string{ns, k})
		}
	}
	ptxs := gputest.CompileUnits(t, us)
	for i := range headers {
		// Itanium mangling spells a name with its length first.
		tag := fmt.Sprintf("%d%s", len(headers[i].ns), headers[i].ns)
		for _, f := range ptxFunctions(t, ptxs[i/per]) {
			if f.Entry && strings.Contains(f.Name, tag) {
				headers[i].kernels = append(headers[i].kernels, f)
			}
		}
	}
	return headers
}

// kernel returns the instructions and the body of the header's kernel of
// the given unqualified name, or fails.
func (h compiledHeader) kernel(t *testing.T, name string) ([]ptxInstruction, string) {
	t.Helper()
	tag := fmt.Sprintf("%d%s", len(name), name)
	for _, k := range h.kernels {
		if strings.Contains(k.Name, tag) {
			return ptxInstructions(k.Body), k.Body
		}
	}
	require.Failf(t, "no kernel", "%s: no %s among %d kernels", h.ns, name, len(h.kernels))
	return nil, ""
}

// deviceKernels are the kernels of the device-wide scans.
var deviceKernels = []string{"ScanKernel", "InitScanKernel", "ReduceTilesKernel", "ScanTotalsKernel", "ScanTilesKernel"}

// reLocal finds local memory: a depot, or an access in the local state
// space.
var reLocal = regexp.MustCompile(`\.local\b`)

// requireDeviceKernels checks the PTX of one header's device scans: no
// local memory in any kernel; a look-back with no membar, a nanosleep
// back-off and, for a value of at most 8 bytes, the status and value in one
// 8-byte or 16-byte relaxed load and store (the header's kStatusBytes),
// otherwise an acquire load and a release store of the flag; and 16-byte
// vector loads and stores of full tiles.
func requireDeviceKernels(t *testing.T, h compiledHeader) {
	t.Helper()
	for _, name := range deviceKernels {
		is, body := h.kernel(t, name)
		assert.Empty(t, reLocal.FindAllString(body, -1), "%s %s uses local memory", h.ns, name)
		assert.Zero(t, countOps(is, "ld.local", "st.local"), "%s %s uses local memory", h.ns, name)
		assert.Zero(t, countOps(is, "membar", "fence"), "%s %s has a fence", h.ns, name)
	}
	scan, _ := h.kernel(t, "ScanKernel")
	assert.Positive(t, countOps(scan, "nanosleep.u32"), "%s: no back-off", h.ns)
	if h.blockOrder {
		assert.Zero(t, countOps(scan, "atom"), "%s: tile blockIdx.x needs no counter", h.ns)
	} else {
		assert.Equal(t, 1, countOps(scan, "atom"), "%s: a block takes its tile from the counter", h.ns)
	}
	switch h.statusBytes {
	case 8:
		assert.Positive(t, countOps(scan, "ld.relaxed.gpu.u64"), "%s: the look-back reads no 8-byte word", h.ns)
		assert.Positive(t, countOps(scan, "st.relaxed.gpu.u64"), "%s: no tile publishes an 8-byte word", h.ns)
		assert.Zero(t, countOps(scan, "ld.relaxed.gpu.v2", "st.relaxed.gpu.v2"), "%s: a 16-byte status word", h.ns)
		assert.Zero(t, countOps(scan, "ld.acquire", "st.release"), "%s: a packed status needs no acquire or release", h.ns)
		initScan, _ := h.kernel(t, "InitScanKernel")
		assert.Positive(t, countOps(initScan, "st.relaxed.gpu.u64"), h.ns)
	case 16:
		assert.Positive(t, countOps(scan, "ld.relaxed.gpu.v2.u64"), "%s: the look-back reads no 16-byte word", h.ns)
		assert.Positive(t, countOps(scan, "st.relaxed.gpu.v2.u64"), "%s: no tile publishes a 16-byte word", h.ns)
		assert.Zero(t, countOps(scan, "ld.acquire", "st.release"), "%s: a packed status needs no acquire or release", h.ns)
		initScan, _ := h.kernel(t, "InitScanKernel")
		assert.Positive(t, countOps(initScan, "st.relaxed.gpu.v2.u64"), h.ns)
	default:
		assert.Greater(t, h.valueBytes, 8, "%s: a value of %d bytes without a packed status", h.ns, h.valueBytes)
		assert.Positive(t, countOps(scan, "ld.acquire.gpu.u32"), "%s: the flag is not read with acquire", h.ns)
		assert.Positive(t, countOps(scan, "st.release.gpu.u32"), "%s: the flag is not written with release", h.ns)
		assert.Zero(t, countOps(scan, "ld.relaxed.gpu.v2"), h.ns)
	}
	for _, name := range []string{"ScanKernel", "ScanTilesKernel"} {
		is, _ := h.kernel(t, name)
		assert.Positive(t, countOps(is, "ld.global.v4", "ld.v4"), "%s %s: no 16-byte loads", h.ns, name)
		assert.Positive(t, countOps(is, "st.global.v4", "st.v4"), "%s %s: no 16-byte stores", h.ns, name)
	}
	// Pass 1 of the three-pass scan only reduces: it stores its tile's
	// total, a word at a time at most, and no item.
	reduce, _ := h.kernel(t, "ReduceTilesKernel")
	assert.LessOrEqual(t, countOps(reduce, "st.global", "st.v", "st.u", "st.b", "st.f"), h.valueBytes/4, "%s: pass 1 stores items", h.ns)
}

// deviceCases lists the headers whose device scans TestSweepPTX does not
// compile: segmented scans of every width of value, 8 to 24 bytes, on
// shuffle, raking and shared-memory block scans, and narrow logical warps.
func deviceCases(t *testing.T) []deviceCase {
	sk := gputest.Build(t, "sklansky", 32, nil)
	var cases []deviceCase
	for _, c := range []struct{ typ, op, flag string }{
		{"int32", "add", "uint32"},     // 8 bytes: packed
		{"float", "affine", "int32"},   // 12 bytes
		{"int64", "max", "uint32"},     // 16 bytes
		{"double", "affine", "uint64"}, // 24 bytes
	} {
		cases = append(cases, deviceCase{sk, gpukernels.Options{Type: c.typ, Op: c.op, Segmented: c.flag}})
	}
	return append(cases,
		deviceCase{gputest.Build(t, "kogge-stone", 5, nil), gpukernels.Options{Type: "int32", Op: "add", WideStatus: true, TileOrder: gpukernels.TileOrderBlock,
			Delays: &gpukernels.Delays{Partial: 0, Poll: 100, Grid: 1}}},
		// The raking block scan: a plain sum with its 8-byte status words
		// 32 bytes apart, a 24-byte segmented struct, and 28 narrow logical
		// warps to a block with 16-byte status words 128 bytes apart.
		deviceCase{gputest.Build(t, "kogge-stone", 32, nil), gpukernels.Options{Type: "int32", Op: "add", Block: gpukernels.BlockRaking, StatusStride: 32}},
		deviceCase{sk, gpukernels.Options{Type: "double", Op: "affine", Segmented: "uint64", Block: gpukernels.BlockRaking}},
		deviceCase{gputest.Build(t, "brent-kung", 5, nil), gpukernels.Options{Type: "int64", Op: "max", Block: gpukernels.BlockRaking, StatusStride: 128}},
		deviceCase{gputest.Build(t, "brent-kung", 1024, nil), gpukernels.Options{Type: "float", Op: "add", Block: gpukernels.BlockShared}},
		deviceCase{gputest.Build(t, "sklansky", 100, nil), gpukernels.Options{Type: "double", Op: "affine", Block: gpukernels.BlockShared, Segmented: "uint32"}},
	)
}

// requireDeviceCases checks the device scans of TestSweepPTX's cases that
// instantiate the three-pass scans (every type and operator, and the
// tuning extremes), compiled per cases to a unit into ptxs.
func requireDeviceCases(t *testing.T, cases []kernelCase, ptxs []string, per int) {
	t.Helper()
	n := 0
	for i, c := range cases {
		if !c.threePass {
			continue
		}
		text := render(t, c.net, c.opt)
		h := newCompiledHeader(t, text)
		tag := fmt.Sprintf("%d%s", len(h.ns), h.ns)
		for _, f := range ptxFunctions(t, ptxs[i/per]) {
			if f.Entry && strings.Contains(f.Name, tag) {
				h.kernels = append(h.kernels, f)
			}
		}
		requireDeviceKernels(t, h)
		n++
	}
	require.Positive(t, n, "no case instantiates the device scans")
}

// TestPTXDeviceScans compiles the device-wide scans of deviceCases at -O3
// and checks their PTX instruction by instruction (requireDeviceKernels);
// TestSweepPTX checks those of every type and operator the same way.
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
	cases := []deviceCase{{gputest.Build(t, "sklansky", 32, nil), gpukernels.Options{Type: "int64", Op: "add", Segmented: "uint32"}}}
	h := compileDevice(t, cases, 1, func(s string) string {
		require.Contains(t, s, words)
		require.Contains(t, s, release)
		s = strings.Replace(s, kwords, fill, 1)
		return strings.Replace(strings.Replace(s, words, selected, 1), release, fenced, 1)
	})[0]
	is, body := h.kernel(t, "ScanKernel")
	assert.NotEmpty(t, reLocal.FindAllString(body, -1), "the planted select put nothing in local memory")
	assert.Positive(t, countOps(is, "membar.gl"), "the planted fence is missing")
	assert.Zero(t, countOps(is, "st.release"))
}
