package gpukernels_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/block"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
)

// kernelCase is one header to compile.
type kernelCase struct {
	net *network.Network
	opt gpukernels.Options
	// threePass instantiates the three-pass scans too; they depend on the
	// type, operator and block scan, not on the network, so that a few
	// cases of each suffice.
	threePass bool
}

// driver returns the source that exercises every entry point of the header
// file of namespace ns: warp scans, block scans, the device scans through
// the non-template entry points, and BigAddKernel for carry.
func driver(file, ns string, opt gpukernels.Options, threePass bool) string {
	var b strings.Builder
	functor, isFunctor := strings.CutPrefix(opt.Op, gpukernels.FunctorPrefix)
	if isFunctor {
		// A non-commutative functor, in a namespace when its name has one.
		guard := "DEFINED_" + strings.ReplaceAll(functor, "::", "_")
		fmt.Fprintf(&b, "#ifndef %s\n#define %s\n", guard, guard)
		parts := strings.Split(functor, "::")
		for _, p := range parts[:len(parts)-1] {
			fmt.Fprintf(&b, "namespace %s {\n", p)
		}
		fmt.Fprintf(&b, "struct %s {\n  template <typename T>\n  __device__ T operator()(const T& a, const T& b) const { return a * T(3) + b; }\n};\n", parts[len(parts)-1])
		for range parts[:len(parts)-1] {
			b.WriteString("}\n")
		}
		b.WriteString("#endif\n")
	}
	warp := `  x = WarpInclusiveScan(x, ScanOp());
  x = WarpInclusiveScan(x, ScanOp(), aggregate);
  x = WarpExclusiveScan(x, aggregate, ScanOp(), aggregate);
  x = WarpExclusiveScan(x, ScanOp(), aggregate);
  __shared__ BlockScan<value_type, ScanOp>::TempStorage temp;`
	if opt.Block == gpukernels.BlockShared {
		// The shared array may pass 48 KB: dynamic shared memory.
		warp = `  extern __shared__ __align__(16) unsigned char dynamic_shared[];
  BlockScan<value_type, ScanOp>::TempStorage& temp = *reinterpret_cast<BlockScan<value_type, ScanOp>::TempStorage*>(dynamic_shared);`
	}
	fmt.Fprintf(&b, `#include %q
namespace check_%[2]s {
using namespace prefixgen::%[2]s;
__global__ void WarpAndBlock(value_type* d) {
  value_type aggregate;
  value_type x = d[threadIdx.x];
%[3]s
  value_type items[kItemsPerThread];
  for (int i = 0; i < kItemsPerThread; ++i) items[i] = x;
  BlockScan<value_type, ScanOp>(temp).InclusiveScan(items, ScanOp(), aggregate);
  __syncthreads();
  BlockScan<value_type, ScanOp>(temp).ExclusiveScan(items, aggregate, ScanOp(), aggregate);
  d[threadIdx.x] = items[kItemsPerThread - 1];
}
cudaError_t Device(value_type* d, long long n, void* temp, size_t& bytes) {
  cudaError_t e = InclusiveScan(temp, bytes, d, d, n);
  if (e != cudaSuccess) return e;
`, file, ns, warp)
	initial := ""
	if isFunctor {
		initial = ", d[0]"
	}
	if threePass {
		fmt.Fprintf(&b, "  e = InclusiveScanThreePass(temp, bytes, d, d, n);\n  if (e != cudaSuccess) return e;\n")
		fmt.Fprintf(&b, "  e = ExclusiveScanThreePass(temp, bytes, d, d, n%s);\n  if (e != cudaSuccess) return e;\n", initial)
	}
	if isFunctor && opt.Segmented == "" {
		// An initial value of another type converts: it does not take
		// part in deducing the type of the scan.
		b.WriteString("  e = ExclusiveScan(temp, bytes, d, d, n, 0);\n  if (e != cudaSuccess) return e;\n")
	}
	fmt.Fprintf(&b, "  return ExclusiveScan(temp, bytes, d, d, n%s);\n}\n", initial)
	if opt.Op == "carry" && opt.Block != gpukernels.BlockShared {
		b.WriteString(`void BigAdd(const limb_type* a, const limb_type* b, limb_type* s, unsigned* c, long long count) {
  BigAddKernel<<<static_cast<unsigned>((count * WarpNetwork::kSegment + 255) / 256), 256>>>(a, b, s, c, count);
}
`)
	}
	fmt.Fprintf(&b, "}  // namespace check_%s\n", ns)
	return b.String()
}

// units packs the cases into translation units of at most per headers
// each.
func units(t *testing.T, prefix string, cases []kernelCase, per int) []gputest.Unit {
	var us []gputest.Unit
	for i, c := range cases {
		if i%per == 0 {
			us = append(us, gputest.Unit{Name: fmt.Sprintf("%s-%d", prefix, len(us)), Headers: map[string]string{}})
		}
		u := &us[len(us)-1]
		header := render(t, c.net, c.opt)
		ns := reNamespace.FindStringSubmatch(header)[1]
		file := ns + ".cuh"
		_, dup := u.Headers[file]
		require.False(t, dup, "two cases share namespace %s", ns)
		u.Headers[file] = header
		u.Source += driver(file, ns, c.opt, c.threePass)
		u.Entries = append(u.Entries, []string{ns, "ScanKernel"}, []string{ns, "InitScanKernel"}, []string{ns, "WarpAndBlock"})
		if c.threePass {
			u.Entries = append(u.Entries, []string{ns, "ScanTilesKernel"}, []string{ns, "ScanTotalsKernel"}, []string{ns, "ReduceTilesKernel"})
		}
		if c.opt.Op == "carry" && c.opt.Block != gpukernels.BlockShared {
			u.Entries = append(u.Entries, []string{ns, "BigAddKernel"})
		}
	}
	return us
}

// reNamespace finds the namespace of a header inside namespace prefixgen.
var reNamespace = regexp.MustCompile(`(?m)^namespace prefixgen \{\nnamespace (\w+) \{$`)

// pairs lists every valid type and operator, functors included.
func pairs() []gpukernels.Options {
	var ps []gpukernels.Options
	for _, typ := range gpukernels.Types {
		for _, op := range gpukernels.Operators {
			switch {
			case op == "carry" && typ.Name != "uint32" && typ.Name != "uint64":
				continue
			case typ.Float && (op == "and" || op == "or" || op == "xor" || op == "carry"):
				continue
			case !typ.Float && op == "affine":
				continue
			}
			ps = append(ps, gpukernels.Options{Type: typ.Name, Op: op})
		}
		ps = append(ps, gpukernels.Options{Type: typ.Name, Op: "functor:Affine"})
	}
	return ps
}

// TestSweepPTX compiles, with clang-14, the headers of every topology at width 32
// and at narrower widths, of every valid type and operator, of networks
// that need spare registers and tables, and of the tuning extremes, each
// with a driver that instantiates every warp, block and device scan and
// BigAddKernel. go test ./... compiles a sample of the topologies, types
// and operators, and of the narrower widths (tooltest.Sweep).
func TestSweepPTX(t *testing.T) {
	t.Parallel()
	tooltest.Path(t, "clang-14")
	var cases []kernelCase
	ps := pairs()
	// Every topology at width 32, each with a different type and operator.
	var families []kernelCase
	for i, top := range gputest.Families() {
		families = append(families, kernelCase{gputest.Build(t, top.Name, 32, top.Params), ps[i%len(ps)], false})
	}
	cases = append(cases, tooltest.Sweep(t, "topologies at width 32", families, 1, len(families)-1)...)
	// Every type and operator on one topology.
	var typed []kernelCase
	for _, p := range ps {
		typed = append(typed, kernelCase{gputest.Build(t, "brent-kung", 32, nil), p, true})
	}
	// The sample: the carry operator of 64 bits and a functor (the tuning
	// extremes below add floating-point and 64-bit integer scans).
	var sample []int
	for _, is := range []func(gpukernels.Options) bool{
		func(o gpukernels.Options) bool { return o.Op == "carry" && o.Type == "uint64" },
		func(o gpukernels.Options) bool { return strings.HasPrefix(o.Op, gpukernels.FunctorPrefix) },
	} {
		sample = append(sample, slices.IndexFunc(ps, is))
	}
	require.NotContains(t, sample, -1, "a pair of the sample is not among the types and operators")
	cases = append(cases, tooltest.Sweep(t, "types and operators", typed, sample...)...)
	// Narrower logical warps, each width with another family: the block
	// and device scans of a width depend on its segment, not on the
	// family, and TestSweepPTXWarpScans compiles every family's warp scans at
	// every width.
	narrow := []string{"kogge-stone", "sklansky", "brent-kung", "han-carlson", "ladner-fischer"}
	var narrower []kernelCase
	for i, w := range []int{1, 2, 3, 5, 8, 16, 31} {
		narrower = append(narrower, kernelCase{gputest.Build(t, narrow[i%len(narrow)], w, nil), gpukernels.Options{Type: "float", Op: "add"}, false})
	}
	cases = append(cases, tooltest.Sweep(t, "narrower warps", narrower, 0)...)
	// Spare registers, final copies, selects and sources from bit planes.
	cases = append(cases,
		kernelCase{gputest.HiOld(t), gpukernels.Options{Type: "uint64", Op: "functor:ns::Cat"}, false},
		kernelCase{gputest.LoOld(t), gpukernels.Options{Type: "double", Op: "max"}, false},
		kernelCase{tableNetwork(t), gpukernels.Options{Type: "int32", Op: "xor"}, false},
		kernelCase{tableNetwork(t), gpukernels.Options{Type: "uint32", Op: "carry"}, false},
	)
	// Tuning extremes: one item (no vectors), odd items, 1024 threads, a
	// window of one tile, and a ripple totals network.
	ks := gputest.Build(t, "kogge-stone", 32, nil)
	cases = append(cases, tooltest.Sweep(t, "tuning extremes", []kernelCase{
		{ks, gpukernels.Options{Type: "int64", Op: "add", ItemsPerThread: 1, Namespace: "items1"}, true},
		{ks, gpukernels.Options{Type: "double", Op: "min", ItemsPerThread: 3, LookBack: 1, Namespace: "items3"}, true},
		{ks, gpukernels.Options{Type: "float", Op: "max", ItemsPerThread: 32, BlockThreads: 1024, LookBack: 7, Namespace: "threads1024"}, true},
		{ks, gpukernels.Options{Type: "uint32", Op: "or", BlockThreads: 32, Namespace: "threads32"}, true},
		{ks, gpukernels.Options{Op: "add", BlockThreads: 256, Totals: gputest.Build(t, "ripple", 8, nil), Namespace: "ripple_totals"}, false},
	}, 0, 2, 4)...)
	const per = 12
	us := units(t, "kernels", cases, per)
	ptxs := gputest.CompileUnits(t, us)
	for i, ptx := range ptxs {
		requireNoConstTables(t, us[i].Name, ptx)
		for _, f := range ptxFunctions(t, ptx) {
			require.Zero(t, countOps(ptxInstructions(f.Body), "ld.const"), "%s: %s reads the constant bank", us[i].Name, f.Name)
		}
	}
	requireDeviceCases(t, cases, ptxs, per)
}

// tableNetwork returns a random network of width 32 whose warp program
// has a step whose sources follow no closed form and take more lanes than
// selects set, so that they are bit planes of immediates (once a
// __constant__ table).
func tableNetwork(t *testing.T) *network.Network {
	t.Helper()
	for seed := uint64(0); ; seed++ {
		data := make([]byte, 600)
		rng := rand.New(rand.NewPCG(seed, 11))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		data[0] = 31
		net := gputest.RandomNetwork(t, data)
		if rePlanes.MatchString(render(t, net, gpukernels.Options{})) {
			return net
		}
		require.Less(t, seed, uint64(1000), "no random network needs a table")
	}
}

// TestPTXCatchesErrors makes sure the check can fail: a header whose
// shuffle is misspelt does not compile.
func TestPTXCatchesErrors(t *testing.T) {
	t.Parallel()
	net := gputest.Build(t, "sklansky", 8, nil)
	src := strings.Replace(render(t, net, gpukernels.Options{}), "__shfl_up_sync(", "__shfl_upp_sync(", 1)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "h.cuh"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "unit.cu"), []byte(driver("h.cuh", "sklansky_8_int32_add", gpukernels.Options{}, false)), 0o644))
	out, err := gputest.Clang(t, dir, gputest.ClangArgs(gputest.Testdata(t, "prelude.cuh"), "unit.cu", "unit.ptx")...)
	require.Error(t, err)
	require.Contains(t, out, "__shfl_upp_sync")
}

// TestSweepPTXShared compiles, with clang-14, the shared-memory block scans of
// every topology at width 256 (three at 1024 unpadded, five of the widest
// tables at block.MaxWidth) and of a few at odd widths from 2 to 2048,
// padded and not; the affine operator and segmented scans with either
// block scan; and with each the single-pass device scans, and with the odd
// widths, affine and segmented the three-pass ones. go test ./...
// compiles a sample of each (tooltest.Sweep).
func TestSweepPTXShared(t *testing.T) {
	t.Parallel()
	tooltest.Path(t, "clang-14")
	shared := func(o gpukernels.Options) gpukernels.Options {
		o.Block = gpukernels.BlockShared
		return o
	}
	var cases, some []kernelCase
	ps := pairs()
	for i, top := range gputest.Families() {
		some = append(some, kernelCase{gputest.Build(t, top.Name, 256, top.Params), shared(ps[(3*i)%len(ps)]), false})
	}
	cases = append(cases, tooltest.Sweep(t, "topologies at width 256", some, 1, 7, len(some)-1)...)
	some = nil
	for _, name := range []string{"brent-kung", "kogge-stone", "sklansky"} {
		some = append(some, kernelCase{gputest.Build(t, name, 1024, nil), gpukernels.Options{Block: gpukernels.BlockShared, NoPad: true, Type: "float"}, false})
	}
	cases = append(cases, tooltest.Sweep(t, "topologies at width 1024", some, 2)...)
	some = nil
	for _, c := range []struct {
		name string
		w    int
		opt  gpukernels.Options
	}{
		{"kogge-stone", 2, gpukernels.Options{Type: "uint32", Op: "xor"}},
		{"ladner-fischer", 33, gpukernels.Options{Type: "int64", Op: "max"}},
		{"han-carlson", 100, gpukernels.Options{Type: "double", Op: "add"}},
		{"brent-kung", 100, gpukernels.Options{Type: "int32", Op: "add", NoPad: true}},
		{"sklansky", 2048, gpukernels.Options{Type: "float", Op: "min"}},
		{"kogge-stone", 2048, gpukernels.Options{Type: "double", Op: "affine", Segmented: "uint32"}},
		{"brent-kung", 2048, gpukernels.Options{Type: "uint64", Op: "carry", NoPad: true}},
		{"brent-kung", 256, gpukernels.Options{Type: "float", Op: "functor:ns::Cat", BlockThreads: 64, ItemsPerThread: 12}},
		{"sklansky", 512, gpukernels.Options{Type: "int32", Op: "add", Segmented: "int32"}},
	} {
		some = append(some, kernelCase{gputest.Build(t, c.name, c.w, nil), shared(c.opt), true})
	}
	cases = append(cases, tooltest.Sweep(t, "odd widths", some, 1, 5, 6, 7)...)
	some = nil
	// Affine and segmented scans with the shuffle block scan.
	for _, o := range []gpukernels.Options{
		{Type: "float", Op: "affine"},
		{Type: "double", Op: "affine", Segmented: "int64"},
		{Type: "int32", Op: "add", Segmented: "int32"},
		{Type: "uint64", Op: "carry", Segmented: "uint32"},
		{Type: "float", Op: "functor:Cat", Segmented: "uint64"},
	} {
		some = append(some, kernelCase{gputest.Build(t, "han-carlson", 32, nil), o, true}, kernelCase{gputest.Build(t, "ladner-fischer", 7, nil), o, false})
	}
	cases = append(cases, tooltest.Sweep(t, "affine and segmented with shuffles", some, 2, 7, 9)...)
	some = nil
	// The families with the largest cell tables at the widest block (a
	// Kogge–Stone of 2048 columns, in TestPTXSharedTablesGlobal, has
	// 65,728 bytes of them; Knowles and Harris as many, Han–Carlson and
	// Ladner–Fischer about 40,000), with the smallest type.
	wide := len(cases)
	for _, name := range []string{"knowles", "harris", "han-carlson", "ladner-fischer", "zero-deficiency"} {
		some = append(some, kernelCase{gputest.Build(t, name, block.MaxWidth, nil), gpukernels.Options{Block: gpukernels.BlockShared}, false})
	}
	// go test ./... leaves them to TestPTXSharedTablesGlobal's
	// Kogge–Stone of as many columns.
	cases = append(cases, tooltest.Sweep[kernelCase](t, "the widest tables", some)...)
	us := units(t, "shared", cases[:wide], 8)
	us = append(us, units(t, "wide", cases[wide:], 4)...)
	ptxs := gputest.CompileUnits(t, us)
	for i, ptx := range ptxs {
		requireNoConstTables(t, us[i].Name, ptx)
	}
}

// maxConstBytes is the constant bank a kernel's __constant__ data shares:
// 64 KiB, which ptxas refuses to exceed.
const maxConstBytes = 64 << 10

// requireNoConstTables checks that a module puts nothing in .const: tables
// of the warp and shared-memory networks live in immediates, closed forms
// or global memory, so that no network's tables meet the 64 KiB limit,
// whatever the compiler makes of a const array.
func requireNoConstTables(t *testing.T, name, ptx string) {
	t.Helper()
	var consts []string
	for _, v := range ptxVariables(t, ptx) {
		if v.Space == "const" {
			consts = append(consts, v.String())
		}
	}
	require.Empty(t, consts, "%s: tables in the constant bank", name)
}

// TestPTXSharedTablesGlobal holds item 3 of issue 14 for the worst case: a
// Kogge–Stone of 2048 columns in shared memory has 65,728 bytes of cell
// and slot tables, more than the 64 KiB constant bank, and they are in
// global memory; the same header with const tables, which clang puts in
// the constant bank, would put them in .const, past the limit.
func TestPTXSharedTablesGlobal(t *testing.T) {
	t.Parallel()
	tooltest.Path(t, "clang-14")
	net := gputest.Build(t, "kogge-stone", block.MaxWidth, nil)
	opt := gpukernels.Options{Block: gpukernels.BlockShared, Namespace: "ks2048"}
	src := render(t, net, opt)
	drv := driver("ks2048.cuh", "ks2048", opt, false)
	planted := strings.ReplaceAll(src, "static __device__ unsigned short ", "static __device__ const unsigned short ")
	require.NotEqual(t, src, planted)
	ptxs := gputest.CompileUnits(t, []gputest.Unit{
		{Name: "global", Headers: map[string]string{"ks2048.cuh": src}, Source: drv},
		{Name: "const", Headers: map[string]string{"ks2048.cuh": planted}, Source: drv},
	})
	bytes := func(ptx, space string) int {
		n := 0
		for _, v := range ptxVariables(t, ptx) {
			if v.Space == space && (strings.Contains(v.Name, "Cells") || strings.Contains(v.Name, "Slots")) {
				n += v.Bytes
			}
		}
		return n
	}
	require.Greater(t, bytes(ptxs[0], "global"), maxConstBytes, "the tables in global memory")
	requireNoConstTables(t, "global", ptxs[0])
	require.Greater(t, bytes(ptxs[1], "const"), maxConstBytes, "const tables land in the constant bank")
}

// TestPTXTwoNetworksOfNoTopology compiles the headers of two networks
// of one width without a topology, of one type and operator, in one
// translation unit: their default namespaces differ. Both were once
// network_6_double_add, and the second header redefined the first's.
func TestPTXTwoNetworksOfNoTopology(t *testing.T) {
	t.Parallel()
	tooltest.Path(t, "clang-14")
	b, err := network.NewBuilder(6)
	require.NoError(t, err)
	prev := 0
	for i := 1; i < 6; i++ {
		prev = b.Add(prev, i)
	}
	chain, err := b.Build()
	require.NoError(t, err)
	require.Empty(t, chain.Topology())
	opt := gpukernels.Options{Type: "double", Op: "add"}
	u := gputest.Unit{Name: "two", Headers: map[string]string{}}
	for i, net := range []*network.Network{gputest.HiOld(t), chain} {
		ns := gpukernels.DefaultNamespace(net, opt.Type, opt.Op)
		file := fmt.Sprintf("h%d.cuh", i)
		u.Headers[file] = render(t, net, opt)
		u.Source += driver(file, ns, opt, false)
	}
	gputest.CompileUnits(t, []gputest.Unit{u})
}

// TestPTXStructFunctor compiles the README's use of a functor over a
// struct of the caller's (an affine map, as float2 there; the prelude has
// no vector types) in a header emitted for a scalar --type: the warp, block
// and device scans and the shorthands take the struct from their
// arguments. The shorthands were once functions over value_type, which
// such a functor cannot take: the header did not compile.
func TestPTXStructFunctor(t *testing.T) {
	t.Parallel()
	header := render(t, gputest.Build(t, "sklansky", 32, nil), gpukernels.Options{Type: "float", Op: "functor:Affine"})
	ns := reNamespace.FindStringSubmatch(header)[1]
	src := fmt.Sprintf(`struct Map { float m, c; };
struct Affine {
  __device__ Map operator()(const Map& a, const Map& b) const { return Map{a.m * b.m, a.c * b.m + b.c}; }
};
#include "h.cuh"
using namespace prefixgen::%s;
__global__ void WarpAndBlock(Map* d) {
  Map aggregate;
  Map x = WarpInclusiveScan(d[threadIdx.x], ScanOp(), aggregate);
  x = WarpExclusiveScan(x, aggregate, ScanOp(), aggregate);
  __shared__ BlockScan<Map, ScanOp>::TempStorage temp;
  Map items[kItemsPerThread];
  for (int i = 0; i < kItemsPerThread; ++i) items[i] = x;
  BlockScan<Map, ScanOp>(temp).InclusiveScan(items, ScanOp(), aggregate);
  d[threadIdx.x] = items[kItemsPerThread - 1];
}
cudaError_t Device(Map* d, long long n, void* temp, size_t& bytes) {
  const Map start = {1.0f, 0.0f};
  cudaError_t e = InclusiveScan(temp, bytes, d, d, n);
  if (e == cudaSuccess) e = ExclusiveScan(temp, bytes, d, d, n, start);
  if (e == cudaSuccess) e = InclusiveScanThreePass(temp, bytes, d, d, n);
  if (e == cudaSuccess) e = ExclusiveScanThreePass(temp, bytes, d, d, n, start);
  return e;
}
`, ns)
	gputest.CompileUnits(t, []gputest.Unit{{Name: "struct-functor", Headers: map[string]string{"h.cuh": header}, Source: src,
		Entries: [][]string{{"WarpAndBlock"}, {ns, "ScanKernel", "3Map"}, {ns, "ScanTilesKernel", "3Map"}}}})
}
