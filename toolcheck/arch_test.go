package toolcheck_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/toolcheck"
	"github.com/prefixgen/prefixgen/topologies"
)

// archCases are the adder architectures the real tools check: every
// operation, every flag, sparse trees whose groups divide the width and
// whose last group is shorter, and pipelines, alone and together, at small
// widths. go test ./... checks half of them, every option among them
// (tooltest.Sweep).
var archCases = []struct {
	topo string
	n    int
	opt  adder.Architecture
}{
	{"kogge-stone", 8, adder.Architecture{Op: adder.Sub, Flags: adder.Carry}},
	{"sklansky", 5, adder.Architecture{Op: adder.Sub, NoCarryIn: true, Flags: adder.Carry | adder.Overflow | adder.Zero | adder.Negative}},
	{"han-carlson", 6, adder.Architecture{Op: adder.AddSub, NoCarryIn: true, Flags: adder.Zero | adder.Negative}},
	{"kogge-stone", 1, adder.Architecture{Op: adder.Sub, NoCarryIn: true, Flags: adder.Overflow}},
	{"ladner-fischer", 12, adder.Architecture{Op: adder.Compare}},
	{"kogge-stone", 1, adder.Architecture{Op: adder.Compare}},
	{"sklansky", 16, adder.Architecture{Flags: adder.Carry | adder.Overflow, Sparse: 2}},
	{"brent-kung", 13, adder.Architecture{Flags: adder.Carry | adder.Overflow | adder.Zero, Sparse: 4}},
	{"kogge-stone", 19, adder.Architecture{Op: adder.AddSub, Flags: adder.Carry | adder.Overflow, Sparse: 8}},
	{"sklansky", 4, adder.Architecture{Sparse: 4, Flags: adder.Negative}},
	{"sklansky", 8, adder.Architecture{Flags: adder.Carry, PipelineAfter: []int{0, 2, 3}}},
	{"brent-kung", 16, adder.Architecture{Op: adder.AddSub, Flags: adder.Carry | adder.Overflow | adder.Zero, Stages: 2}},
	{"kogge-stone", 16, adder.Architecture{Op: adder.Compare, PipelineAfter: []int{2}}},
	{"kogge-stone", 16, adder.Architecture{Op: adder.Sub, Flags: adder.Carry | adder.Overflow, Sparse: 4, PipelineAfter: []int{0, 3}}},
	{"kogge-stone/4", 16, adder.Architecture{Flags: adder.Carry, Valency: 4}},
	{"sklansky/3", 11, adder.Architecture{Flags: adder.Carry | adder.Zero, Valency: 3, Sparse: 2}},
	{"kogge-stone/3", 20, adder.Architecture{Op: adder.AddSub, Flags: adder.Carry, Valency: 3, Stages: 2}},
	// A comparator two stages deep: its testbench once kept one cycle of
	// the model's answers.
	{"brent-kung", 12, adder.Architecture{Op: adder.Compare, PipelineAfter: []int{2, 4}}},
	// Ling's pseudo-carries, alone and with the other options.
	{"brent-kung", 16, adder.Architecture{Flags: adder.Carry, Ling: true}},
	{"kogge-stone", 9, adder.Architecture{Op: adder.Compare, Stages: 3, Ling: true}},
	// Registers without a reset.
	{"han-carlson", 16, adder.Architecture{Op: adder.AddSub, Flags: adder.Carry | adder.Overflow, PipelineAfter: []int{0, 3}, NoReset: true}},
	{"sklansky", 9, adder.Architecture{Flags: adder.Carry, Sparse: 2, Stages: 2, Ling: true, NoReset: true}},
	{"sklansky", 9, adder.Architecture{Op: adder.Sub, NoCarryIn: true, Flags: adder.Carry | adder.Overflow, Sparse: 2, Ling: true}},
	{"han-carlson", 10, adder.Architecture{Op: adder.AddSub, NoCarryIn: true, Flags: adder.Zero, Ling: true}},
	{"ripple", 7, adder.Architecture{NoCarryIn: true, Ling: true}},
	{"kogge-stone/4", 16, adder.Architecture{Flags: adder.Carry | adder.Negative, Valency: 4, Sparse: 4, Ling: true}},
	// Ling's t of a sparse tree without a carry-in starts at bit 1 (its
	// lowest block ripples from the carry-in), without a carry out stops
	// below the top block, and is registered so in a pipeline.
	{"kogge-stone", 16, adder.Architecture{NoCarryIn: true, Flags: adder.Zero, Sparse: 4, Ling: true}},
	{"sklansky", 12, adder.Architecture{Op: adder.Sub, Sparse: 2, Ling: true}},
	{"brent-kung", 16, adder.Architecture{NoCarryIn: true, Sparse: 2, Stages: 2, Ling: true}},
}

// buildArch builds "topology" or "topology/valency".
func buildArch(t *testing.T, topo string, n int) *network.Network {
	t.Helper()
	name, v, ok := strings.Cut(topo, "/")
	if !ok {
		net, err := topologies.Build(name, n, nil)
		require.NoError(t, err)
		return net
	}
	k, err := strconv.Atoi(v)
	require.NoError(t, err)
	net, err := topologies.Valency(name, n, k)
	require.NoError(t, err)
	return net
}

func TestSweepArchitectures(t *testing.T) {
	t.Parallel()
	requireTools(t)
	var designs []*toolcheck.Design
	for _, tc := range tooltest.Sweep(t, "architectures", archCases, 0, 1, 4, 7, 8, 11, 14, 15, 18, 19, 21, 24, 25, 26, 28) {
		net := buildArch(t, tc.topo, tc.n)
		opt := tc.opt
		d, err := toolcheck.NewDesign(net, toolcheck.Options{Vectors: 300, Seed: 3, Adder: &opt})
		require.NoError(t, err, "%s %d %+v", tc.topo, tc.n, tc.opt)
		designs = append(designs, d)
	}
	results, err := toolcheck.Check(context.Background(), designs, toolcheck.Options{})
	require.NoError(t, err)
	for _, r := range results {
		if r.Check == "layout" || r.Check == "$lcu techmap" {
			continue
		}
		assert.Equal(t, toolcheck.Pass, r.Status, "%s (%d bits): %s %s: %s", r.Design, r.Width, r.Tool, r.Check, r.Detail)
	}
	if t.Failed() {
		for _, r := range results {
			fmt.Println(r.Design, r.Tool, r.Check, r.Status, r.Detail)
		}
	}
}

// Planted bugs: a carry-select block that selects the wrong conditional sum,
// a pipeline with one path a register short (with a reset and without), and a valency-4 gate missing a
// term. The testbench and the proof both catch the first and the last; the
// proof catches the unbalanced pipeline, which a testbench can miss only if
// its vectors never tell the two cycles apart.
func TestArchitecturesPlantedBugs(t *testing.T) {
	t.Parallel()
	requireTools(t)
	tests := []struct {
		topo     string
		n        int
		opt      adder.Architecture
		old, new string
	}{
		{"kogge-stone", 16, adder.Architecture{Flags: adder.Carry, Sparse: 4},
			"assign sum[6] = G_c3_l2 ? s1_b6 : s0_b6;", "assign sum[6] = G_c3_l2 ? s0_b6 : s1_b6;"},
		{"kogge-stone", 8, adder.Architecture{Flags: adder.Carry, PipelineAfter: []int{0, 2}},
			"assign carry[0] = cin_s2;", "assign carry[0] = cin_s1;"},
		{"kogge-stone", 8, adder.Architecture{Flags: adder.Carry, PipelineAfter: []int{0, 2}, NoReset: true},
			"assign carry[0] = cin_s2;", "assign carry[0] = cin_s1;"},
		{"kogge-stone/4", 16, adder.Architecture{Flags: adder.Carry, Valency: 4},
			"wire G_c15_l1 = g[15] | (p[15] & g[14]) | (p[15] & p[14] & g[13]) | (p[15] & p[14] & p[13] & g[12]);",
			"wire G_c15_l1 = g[15] | (p[15] & g[14]) | (p[15] & p[14] & g[13]);"},
	}
	var designs []*toolcheck.Design
	for _, tc := range tests {
		opt := tc.opt
		d, err := toolcheck.NewDesign(buildArch(t, tc.topo, tc.n), toolcheck.Options{Vectors: 100, Seed: 1, Adder: &opt})
		require.NoError(t, err)
		require.Contains(t, string(d.Verilog), tc.old)
		d.Verilog = []byte(strings.Replace(string(d.Verilog), tc.old, tc.new, 1))
		designs = append(designs, d)
	}
	results, err := toolcheck.Check(context.Background(), designs, toolcheck.Options{})
	require.NoError(t, err)
	for _, r := range results {
		if r.Check == "equivalence" {
			assert.Equal(t, toolcheck.Fail, r.Status, "%s: the proof must fail: %s", r.Design, r.Detail)
		}
		if r.Check == "testbench" {
			assert.Equal(t, toolcheck.Fail, r.Status, "%s: the testbench must fail: %s", r.Design, r.Detail)
		}
	}
}

// osuPGCells returns the OSU 0.18 µm library's file and its NAND2 and
// OAI21 (physical.PGCells).
func osuPGCells(t *testing.T) (string, *adder.Cells) {
	t.Helper()
	lib := physical.LibertyFile("")
	tooltest.File(t, lib, "qflow-tech-osu018")
	cells, err := physical.PGCells(lib)
	require.NoError(t, err)
	return lib, cells
}

// TestPGCells checks adders whose generate and propagate are the OSU 0.18 µm
// library's cells (physical.PGCells) with the library's own models: every
// tool passes, GHDL on the VHDL with the cells' models from the Liberty
// file too. With the OAI21's pins planted in the wrong order, the
// testbenches and the proof fail.
func TestPGCells(t *testing.T) {
	t.Parallel()
	requireTools(t)
	lib, cells := osuPGCells(t)
	wrong := *cells
	wrong.OAI21.Inputs = []string{"A", "C", "B"}
	tests := []struct {
		topo  string
		n     int
		opt   adder.Architecture
		cells *adder.Cells
		bug   bool
	}{
		{"sklansky", 8, adder.Architecture{Flags: adder.Carry, PGCells: true}, cells, false},
		{"kogge-stone", 13, adder.Architecture{NoCarryIn: true, Flags: adder.Carry | adder.Overflow | adder.Zero, Sparse: 4, PGCells: true}, cells, false},
		{"han-carlson", 16, adder.Architecture{Flags: adder.Carry, Ling: true, Stages: 2, PGCells: true}, cells, false},
		{"brent-kung", 9, adder.Architecture{Flags: adder.Carry, Sparse: 2, Stages: 1, NoReset: true, PGCells: true}, cells, false},
		{"sklansky/3", 11, adder.Architecture{Flags: adder.Carry, Valency: 3, PGCells: true}, cells, false},
		{"sklansky", 8, adder.Architecture{Flags: adder.Carry, PGCells: true}, &wrong, true},
	}
	var designs []*toolcheck.Design
	for _, tc := range tests {
		opt := tc.opt
		d, err := toolcheck.NewDesign(buildArch(t, tc.topo, tc.n), toolcheck.Options{Vectors: 200, Seed: 5, Adder: &opt, Cells: tc.cells, Liberty: lib})
		require.NoError(t, err)
		require.Contains(t, string(d.Verilog), "OAI21X1 u_p_n_0 (")
		designs = append(designs, d)
	}
	bugs := make([]bool, len(tests))
	for i, tc := range tests {
		bugs[i] = tc.bug
	}
	requireCellVerdicts(t, designs, bugs)
}

// TestSweepFACells checks adders of ASAP7's full adders (physical.FullAdderCell;
// their outputs are complements) with the library's own models: a ripple
// of them, a Sklansky adder whose odd bits are pairs of them selected by
// the carry below, a carry-select adder, with and without a carry-in, and
// sparse adders whose blocks ripple through them, beside trees of Ling's
// carries, of the library's NAND2 and OAI21 for the generate and
// propagate, and of three-input gates. Every tool passes, GHDL too. With the carry and sum pins planted the
// wrong way round, the testbenches and the proof fail.
func TestSweepFACells(t *testing.T) {
	t.Parallel()
	requireTools(t)
	lib, err := physical.LibertyPath("asap7", nil)
	require.NoError(t, err)
	cells, err := physical.FullAdderCell("asap7")
	require.NoError(t, err)
	wrong := *cells
	wrong.FA.Output, wrong.FA.Sum = cells.FA.Sum, cells.FA.Output
	cs, err := topologies.CarrySelect(12, 7, 5)
	require.NoError(t, err)
	both, err := physical.LibraryCells("asap7", adder.Architecture{PGCells: true, FACells: true})
	require.NoError(t, err)
	radix3, err := topologies.Valency("kogge-stone", 13, 3)
	require.NoError(t, err)
	tests := []struct {
		net   *network.Network
		opt   adder.Architecture
		cells *adder.Cells
		bug   bool
	}{
		{buildArch(t, "ripple", 9), adder.Architecture{Flags: adder.Carry, FACells: true}, cells, false},
		{buildArch(t, "sklansky", 8), adder.Architecture{Flags: adder.Carry | adder.Zero, FACells: true}, cells, false},
		{cs, adder.Architecture{NoCarryIn: true, Flags: adder.Carry | adder.Overflow, FACells: true}, cells, false},
		{buildArch(t, "kogge-stone", 11), adder.Architecture{Flags: adder.Carry | adder.Overflow, Sparse: 4, FACells: true}, cells, false},
		{buildArch(t, "brent-kung", 10), adder.Architecture{NoCarryIn: true, Flags: adder.Carry, Sparse: 8, FACells: true}, cells, false},
		{buildArch(t, "han-carlson", 12), adder.Architecture{Flags: adder.Carry | adder.Overflow, Sparse: 4, Ling: true, FACells: true}, cells, false},
		{buildArch(t, "sklansky", 10), adder.Architecture{Sparse: 2, PGCells: true, FACells: true}, both, false},
		{radix3, adder.Architecture{Flags: adder.Carry, Sparse: 4, Valency: 3, Ling: true, PGCells: true, FACells: true}, both, false},
		{buildArch(t, "ripple", 9), adder.Architecture{Flags: adder.Carry, FACells: true}, &wrong, true},
		{buildArch(t, "sklansky", 8), adder.Architecture{Flags: adder.Carry, Sparse: 2, FACells: true}, &wrong, true},
	}
	// The sample: carry-select without a carry-in, the radix-3 sparse
	// adder of every option, and both planted bugs.
	tests = tooltest.Sweep(t, "adders of full-adder cells", tests, 2, 7, 8, 9)
	var designs []*toolcheck.Design
	for _, tc := range tests {
		opt := tc.opt
		d, err := toolcheck.NewDesign(tc.net, toolcheck.Options{Vectors: 200, Seed: 7, Adder: &opt, Cells: tc.cells, Liberty: lib})
		require.NoError(t, err)
		require.Contains(t, string(d.Verilog), "FAx1_ASAP7_75t_R u_")
		if opt.PGCells {
			require.Contains(t, string(d.Verilog), both.NAND2.Name+" u_")
		}
		designs = append(designs, d)
	}
	bugs := make([]bool, len(tests))
	for i, tc := range tests {
		bugs[i] = tc.bug
	}
	requireCellVerdicts(t, designs, bugs)
}

// requireCellVerdicts checks designs of library cells, bugs[i] saying
// whether the i-th has a planted bug: every tool passes those without a
// bug, and the testbench, the proof and the VHDL testbench fail those with
// one. GHDL runs the VHDL testbench with the cells' VHDL models, and up
// to MaxProofWidth bits proves ghdl --synth of the VHDL, the models' logic
// in it, equal to the Verilog with the cells' Verilog models.
func requireCellVerdicts(t *testing.T, designs []*toolcheck.Design, bugs []bool) {
	t.Helper()
	results, err := toolcheck.Check(context.Background(), designs, toolcheck.Options{})
	require.NoError(t, err)
	require.Zero(t, len(results)%len(designs), "every design has the same checks")
	per := len(results) / len(designs)
	for i, r := range results {
		bug := bugs[i/per]
		switch {
		case bug && r.Tool == "ghdl":
			assert.Equal(t, toolcheck.Fail, r.Status, "%s: the VHDL testbench must fail: %s", r.Design, r.Detail)
		case bug && (r.Check == "testbench" || r.Check == "equivalence"):
			assert.Equal(t, toolcheck.Fail, r.Status, "%s: %s %s must fail: %s", r.Design, r.Tool, r.Check, r.Detail)
		case !bug:
			assert.Equal(t, toolcheck.Pass, r.Status, "%s (%d bits): %s %s: %s", r.Design, r.Width, r.Tool, r.Check, r.Detail)
			if r.Tool == "ghdl" && r.Width <= toolcheck.MaxProofWidth {
				assert.Regexp(t, `^PASS .*; ghdl --synth of the VHDL proven equal to the Verilog`, r.Detail, r.Design)
			}
		}
	}
}

// The VHDL of an adder of library cells runs on the cells' VHDL models, and
// GHDL's row fails where either is wrong: a cell wired wrongly in the
// VHDL of an adder with flags, and a wrong model, which the VHDL
// testbench catches where the Verilog's, on the library's own models,
// passes.
func TestVHDLCells(t *testing.T) {
	t.Parallel()
	requireTools(t)
	lib, cells := osuPGCells(t)
	sk8 := buildArch(t, "sklansky", 8)
	flags := adder.Architecture{Flags: adder.Carry | adder.Zero, PGCells: true}
	std := adder.Architecture{Flags: adder.Carry, PGCells: true}
	design := func(arch *adder.Architecture) *toolcheck.Design {
		d, err := toolcheck.NewDesign(sk8, toolcheck.Options{Vectors: 200, Seed: 3, Adder: arch, Cells: cells, Liberty: lib})
		require.NoError(t, err)
		return d
	}
	good, wired, model := design(&flags), design(&flags), design(&std)
	require.NotNil(t, model.VHDLTestbench)
	wired.VHDL = plant(t, wired.VHDL, `u_p_n_3 : OAI21X1 port map \(A => a\(3\), B => b\(3\)`, "u_p_n_3 : OAI21X1 port map (A => a(3), B => a(3)")
	model.VHDLCells = plant(t, model.VHDLCells, `Y <= \(not \(\(A or B\) and C\)\);`, "Y <= (not ((A and B) or C));")
	rs := check(t, good, wired, model)
	row := func(i int) toolcheck.Result { return resultOf(t, rs, i, "VHDL") }
	assert.Equal(t, toolcheck.Pass, row(0).Status, row(0).Detail)
	assert.Regexp(t, `^PASS prefix_adder_sklansky_8_flags_cz_pgcells: \d+ vectors, 0 mismatches; ghdl --synth of the VHDL proven equal to the Verilog$`, row(0).Detail)
	assert.Equal(t, toolcheck.Fail, row(1).Status, row(1).Detail)
	assert.Regexp(t, `^FAIL prefix_adder_sklansky_8_flags_cz_pgcells: \d+ of \d+ vectors wrong$`, row(1).Detail)
	assert.Equal(t, toolcheck.Fail, row(2).Status, row(2).Detail)
	assert.Equal(t, toolcheck.Pass, resultOf(t, rs, 2, "testbench").Status, "the Verilog's models are the library's")
}

// A design's name says each option once: a valency network's v parameter
// names its valency, as synth's rows do.
func TestDesignNames(t *testing.T) {
	for _, tc := range []struct {
		topo string
		n    int
		opt  adder.Architecture
		want string
	}{
		{"kogge-stone", 8, adder.Standard, "kogge-stone"},
		{"kogge-stone/3", 8, adder.Architecture{Flags: adder.Carry, Valency: 3}, "kogge-stone v=3"},
		{"sklansky/4", 11, adder.Architecture{Flags: adder.Carry, Valency: 4, Sparse: 2, Ling: true}, "sklansky v=4 sparse=2 ling"},
		{"brent-kung", 16, adder.Architecture{Op: adder.Sub, Flags: adder.Carry, Stages: 2}, "brent-kung sub stages=2"},
	} {
		d, err := toolcheck.NewDesign(buildArch(t, tc.topo, tc.n), toolcheck.Options{Vectors: 10, Seed: 1, Adder: &tc.opt})
		require.NoError(t, err, tc.want)
		assert.Equal(t, tc.want, d.Name)
	}
}
