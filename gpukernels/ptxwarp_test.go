package gpukernels_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
)

// warpCase is one warp scan whose PTX is counted.
type warpCase struct {
	top   gputest.Topology
	net   *network.Network
	steps int
	opt   gpukernels.Options
	ns    string
}

// warpUnits packs warp cases into translation units of per headers, each
// case with a kernel that runs its WarpNetwork::InclusiveScan once on a
// value from global memory.
func warpUnits(t *testing.T, cases []warpCase, per int) []gputest.Unit {
	var us []gputest.Unit
	for i, c := range cases {
		if i%per == 0 {
			us = append(us, gputest.Unit{Name: fmt.Sprintf("warp-%d", len(us)), Headers: map[string]string{}})
		}
		u := &us[len(us)-1]
		file := c.ns + ".cuh"
		u.Headers[file] = warpOnly(t, render(t, c.net, c.opt), c.ns)
		u.Source += fmt.Sprintf(`#include %q
namespace check_%[2]s {
__global__ void WarpScan(prefixgen::%[2]s::value_type* d) {
  d[threadIdx.x] = prefixgen::%[2]s::WarpNetwork::InclusiveScan(d[threadIdx.x], prefixgen::%[2]s::ScanOp());
}
}  // namespace check_%[2]s
`, file, c.ns)
		u.Entries = append(u.Entries, []string{c.ns, "WarpScan"})
	}
	return us
}

// warpOnly cuts a header after its WarpNetwork, which is all a warp scan
// compiles, so that hundreds of headers compile in seconds rather than
// each compiling its block and device scans too.
func warpOnly(t *testing.T, header, ns string) string {
	t.Helper()
	cut := strings.Index(header, "\n// TotalsNetwork is ")
	require.Positive(t, cut, "%s has a TotalsNetwork after its WarpNetwork", ns)
	return header[:cut] + fmt.Sprintf("\n}  // namespace %s\n}  // namespace prefixgen\n#endif\n", ns)
}

// TestSweepPTXWarpScans holds items 4 and 5 of issue 14 in the PTX clang-14
// writes at -O3, for every topology of the registry at every width from 1
// to 32:
//
//   - no warp scan reads the constant bank (no ld.const, nothing in
//     .const): sources that follow no closed form are bit planes of
//     immediates;
//   - over int32 addition, each step is one shfl.sync whose own predicate
//     guards one add.s32: as many shuffles and guarded adds as the program
//     has steps, nothing else guarded, and no setp or selp at all, so that
//     every network pays its depth in shuffles and adds, and Kogge–Stone at
//     32 lanes is exactly 5 of each and nothing else, as cub::WarpScan;
//   - over uint64 xor (the generic form: a shuffle per 32-bit word and a
//     combine where the step's predicate holds), two shuffles a step.
//
// uint32 min and float add at 32 lanes pay one min.u32 and one add.f32 a
// step likewise.
func TestSweepPTXWarpScans(t *testing.T) {
	t.Parallel()
	tooltest.Path(t, "clang-14")
	type kind struct{ opt gpukernels.Options }
	kinds := []kind{{gpukernels.Options{Type: "int32", Op: "add"}}, {gpukernels.Options{Type: "uint64", Op: "xor"}}}
	var cases []warpCase
	add := func(top gputest.Topology, w int, k kind) {
		net := gputest.Build(t, top.Name, w, top.Params)
		p, err := warp.Lower(net)
		require.NoError(t, err)
		require.Equal(t, 1, p.Registers, "%v at %d: a registry topology needs no spare", top, w)
		ns := gpukernels.DefaultNamespace(net, k.opt.Type, k.opt.Op)
		if top.Params != nil {
			ns += "_p"
		}
		k.opt.Namespace = ns
		cases = append(cases, warpCase{top: top, net: net, steps: len(p.Steps), opt: k.opt, ns: ns})
	}
	families := gputest.Families()
	for _, top := range tooltest.Sweep(t, "topologies", families, 1, 9) {
		for w := 1; w <= warp.Lanes; w++ {
			for _, k := range kinds {
				add(top, w, k)
			}
		}
		add(top, 32, kind{gpukernels.Options{Type: "uint32", Op: "min"}})
		add(top, 32, kind{gpukernels.Options{Type: "float", Op: "add"}})
	}
	instrs := map[string]string{"add": "add.s32", "min": "min.u32"}
	us := warpUnits(t, cases, 64)
	ptxs := gputest.CompileUnits(t, us)
	checked := 0
	for i, ptx := range ptxs {
		requireNoConstTables(t, us[i].Name, ptx)
		for j := i * 64; j < min(len(cases), (i+1)*64); j++ {
			c := cases[j]
			f := ptxFunctionNamed(t, ptx, c.ns, "WarpScan")
			is := ptxInstructions(f.Body)
			what := fmt.Sprintf("%v at %d lanes, %s %s (%d steps)", c.top, c.net.Width(), c.opt.Type, c.opt.Op, c.steps)
			require.Zero(t, countOps(is, "ld.const"), "%s reads the constant bank", what)
			if c.opt.Type == "uint64" {
				require.Equal(t, 2*c.steps, countOps(is, "shfl.sync"), "%s: shuffles", what)
				continue
			}
			instr := instrs[c.opt.Op]
			if c.opt.Type == "float" {
				instr = "add.f32"
			}
			require.Equal(t, c.steps, countOps(is, "shfl.sync"), "%s: shuffles", what)
			require.Zero(t, countOps(is, "setp.", "selp."), "%s: setp or selp", what)
			// Every combine is guarded by its shuffle's predicate (lane
			// arithmetic may add too: clang writes x | 4 as x + 4).
			var guarded []ptxInstruction
			for _, in := range is {
				if in.Guard != "" {
					guarded = append(guarded, in)
				}
			}
			require.Len(t, guarded, c.steps, "%s: guarded instructions", what)
			for _, in := range guarded {
				require.Equal(t, ptxInstruction{Guard: "shfl_p", Op: instr, Args: in.Args}, in, "%s", what)
			}
			if c.top.Name == "kogge-stone" && c.net.Width() == 32 {
				require.Equal(t, 5, countOps(is, "shfl.sync.up.b32"), "%s", what)
				require.Equal(t, 5, countOps(is, instr), "%s", what)
			}
			checked++
		}
	}
	t.Logf("%d warp scans in the predicated form counted, %d in all", checked, len(cases))
}
