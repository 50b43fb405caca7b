package toolcheck_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/toolcheck"
	"github.com/prefixgen/prefixgen/topologies"
)

// vhdlOf returns the VHDL adder of arch around Sklansky of width n, with
// its entity named entity.
func vhdlOf(t *testing.T, n int, entity string, arch adder.Architecture) []byte {
	t.Helper()
	net, err := topologies.Build("sklansky", n, nil)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, emit.VHDL(&b, net, emit.VHDLOptions{Entity: entity, Adder: &arch}))
	return b.Bytes()
}

// vhdlCellsOf returns the VHDL adder of arch, of OSU 0.18 µm's cells,
// around Sklansky of width n.
func vhdlCellsOf(t *testing.T, n int, arch adder.Architecture) []byte {
	t.Helper()
	_, cells := osuPGCells(t)
	net, err := topologies.Build("sklansky", n, nil)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, emit.VHDL(&b, net, emit.VHDLOptions{Adder: &arch, Cells: cells}))
	return b.Bytes()
}

// A VHDL file of the library's cells, such as gen -f vhdl --pg-cells
// writes, is checked with the library's Liberty file: GHDL reads models of
// its combinational cells, and every check passes; a bug planted in the
// models the VHDL testbench runs with fails GHDL's row.
func TestVHDLModuleDesignCells(t *testing.T) {
	t.Parallel()
	requireTools(t)
	lib, _ := osuPGCells(t)
	arch := adder.Architecture{Flags: adder.Carry, PGCells: true}
	d, err := toolcheck.NewVHDLModuleDesign(context.Background(), vhdlCellsOf(t, 8, arch), toolcheck.ModuleOptions{Liberty: lib}, toolcheck.Options{Vectors: 100, Seed: 4, Adder: &adder.Standard})
	require.NoError(t, err)
	require.NotNil(t, d.VHDLCells)
	wrong := *d
	wrong.VHDLCells = plant(t, d.VHDLCells, `(?s)(entity NAND2X1 is.*?)Y <= \(not \(A and B\)\);`, "${1}Y <= (A and B);")
	rs := check(t, d, &wrong)
	for _, name := range []string{"testbench", "equivalence", "synthesis", "VHDL"} {
		r := resultOf(t, rs, 0, name)
		assert.Equal(t, toolcheck.Pass, r.Status, "%s: %s", name, r.Detail)
	}
	assert.Equal(t, toolcheck.Fail, resultOf(t, rs, 1, "VHDL").Status, resultOf(t, rs, 1, "VHDL").Detail)
}

// A VHDL entity of the user's own is checked as a Verilog module is, on
// ghdl --synth's netlist, and GHDL runs the VHDL testbench on the file
// itself: every check passes on an adder, a pipelined one and a subtractor
// with flags, and a planted bug fails the testbench, the proof and the
// VHDL testbench alike.
func TestVHDLModuleDesign(t *testing.T) {
	t.Parallel()
	requireTools(t)
	plain := adder.Standard
	piped := adder.Architecture{Flags: adder.Carry, Stages: 2}
	sub := adder.Architecture{Op: adder.Sub, Flags: adder.Carry | adder.Zero}
	bug := bytes.Replace(vhdlOf(t, 8, "Mine", plain), []byte("G_c5_l1 <= g(5) or (p(5) and g(4));"), []byte("G_c5_l1 <= g(4) or (p(4) and g(5));"), 1)
	cases := []struct {
		src  []byte
		arch adder.Architecture
	}{
		{vhdlOf(t, 8, "Mine", plain), plain},
		{vhdlOf(t, 12, "piped", piped), piped},
		{vhdlOf(t, 9, "subtract", sub), sub},
		{bug, plain},
	}
	var designs []*toolcheck.Design
	for _, c := range cases {
		arch := c.arch
		d, err := toolcheck.NewVHDLModuleDesign(context.Background(), c.src, toolcheck.ModuleOptions{}, toolcheck.Options{Vectors: 100, Seed: 2, Adder: &arch})
		require.NoError(t, err)
		designs = append(designs, d)
	}
	assert.Equal(t, "Mine", designs[0].Module, "the module keeps the entity's case")
	rs := check(t, designs...)
	for i := range 3 {
		for _, name := range []string{"testbench", "equivalence", "synthesis", "VHDL"} {
			r := resultOf(t, rs, i, name)
			assert.Equal(t, toolcheck.Pass, r.Status, "%s %s: %s", r.Design, name, r.Detail)
		}
		for _, name := range []string{"$lcu techmap", "layout"} {
			assert.Equal(t, toolcheck.Skipped, resultOf(t, rs, i, name).Status)
		}
	}
	assert.Regexp(t, `^PASS Mine: \d+ vectors, 0 mismatches$`, resultOf(t, rs, 0, "VHDL").Detail)
	for _, name := range []string{"testbench", "equivalence", "VHDL"} {
		r := resultOf(t, rs, 3, name)
		assert.Equal(t, toolcheck.Fail, r.Status, "%s: the planted bug must fail it: %s", name, r.Detail)
	}
}

// A warning of GHDL's on a file of the user's own, with exit status 0, is
// not a verdict: the VHDL row warns, naming it, where it had failed a
// correct adder. prefixgen's own VHDL must still be silent.
func TestVHDLModuleGHDLWarning(t *testing.T) {
	t.Parallel()
	requireTools(t)
	plain := adder.Standard
	src := bytes.Replace(vhdlOf(t, 8, "warned", plain), []byte("architecture prefix of warned is\n"), []byte("architecture prefix of warned is\n    signal warned : std_logic;\n"), 1)
	require.Contains(t, string(src), "signal warned")
	d, err := toolcheck.NewVHDLModuleDesign(context.Background(), src, toolcheck.ModuleOptions{}, toolcheck.Options{Vectors: 100, Seed: 2, Adder: &plain})
	require.NoError(t, err)
	rs := check(t, d)
	r := resultOf(t, rs, 0, "VHDL")
	assert.Equal(t, toolcheck.Warn, r.Status, r.Detail)
	assert.Contains(t, r.Detail, "hides entity")
	for _, name := range []string{"testbench", "equivalence"} {
		assert.Equal(t, toolcheck.Pass, resultOf(t, rs, 0, name).Status, name)
	}
}

// Bad VHDL of the user's own is refused in one line, an *InputError.
func TestVHDLModuleDesignRefused(t *testing.T) {
	t.Parallel()
	requireTools(t)
	good := vhdlOf(t, 4, "mine", adder.Standard)
	pgcells := vhdlCellsOf(t, 4, adder.Architecture{Flags: adder.Carry, PGCells: true})
	seqOnly := filepath.Join(t.TempDir(), "seq.lib")
	require.NoError(t, os.WriteFile(seqOnly, []byte("library (s) {\n  cell (LAT) {\n    latch (IQ, IQN) { enable : \"G\"; data_in : \"D\"; }\n    pin (D) { direction : input; }\n    pin (G) { direction : input; }\n    pin (Q) { direction : output; function : \"IQ\"; }\n  }\n}\n"), 0o644))
	for _, c := range []struct {
		name string
		src  []byte
		mo   toolcheck.ModuleOptions
		want string
	}{
		{"not analysable", []byte("entity y is end;\narchitecture a of y is begin foo; end;\n"), toolcheck.ModuleOptions{},
			`toolcheck: ghdl cannot analyse it: 2:30: no declaration for "foo"`},
		{"a Verilog keyword", bytes.ReplaceAll(good, []byte("mine"), []byte("wire")), toolcheck.ModuleOptions{},
			`toolcheck: entity wire: ghdl --synth writes it as a Verilog module of its name, which is a Verilog or SystemVerilog keyword: allowed another name`},
		{"no architecture", []byte("entity e is\r\nend entity;\r\n"), toolcheck.ModuleOptions{},
			`toolcheck: ghdl cannot synthesize entity e: entity "e" has no architecture in library "work"`},
		{"entity in a block comment", []byte("/* entity old is end entity; */\n" + string(good)), toolcheck.ModuleOptions{Top: "old"},
			"toolcheck: the VHDL declares no entity old: allowed mine"},
		{"an entity of the checks' names", append(append([]byte{}, good...), "entity Prefixgen_Check_TB is\nend entity;\narchitecture a of Prefixgen_Check_TB is\nbegin\nend architecture;\n"...), toolcheck.ModuleOptions{Top: "mine"},
			"toolcheck: entity prefixgen_check_tb: names beginning prefixgen_check_ are the checks' own (VHDL ignores case): allowed any other name"},
		{"two entities", append(append([]byte{}, good...), vhdlOf(t, 4, "other", adder.Standard)...), toolcheck.ModuleOptions{},
			"toolcheck: the VHDL declares 2 entities (mine, other): allowed a top entity named, or a file of one entity"},
		{"no such top", good, toolcheck.ModuleOptions{Top: "theirs"}, "toolcheck: the VHDL declares no entity theirs: allowed mine"},
		{"testbench's name", bytes.ReplaceAll(good, []byte("mine"), []byte("stimulus")), toolcheck.ModuleOptions{},
			`toolcheck: entity name "stimulus" is not a legal VHDL identifier: the testbench declares "stimulus" inside (VHDL ignores case)`},
		{"unbound", pgcells, toolcheck.ModuleOptions{},
			`toolcheck: the VHDL instantiates components nand2x1, oai21x1, which no entity declares: allowed a file that declares them, or the Liberty file of its library (--liberty)`},
		{"one unbound", regexp.MustCompile(`(?m)^    u_p_n_(\d) : OAI21X1 port map \(A => a\(\d\), B => b\(\d\), C => g_n\(\d\), Y => p_n\(\d\)\);$`).
			ReplaceAll(pgcells, []byte("    p_n($1) <= not ((a($1) or b($1)) and g_n($1));")), toolcheck.ModuleOptions{},
			`toolcheck: the VHDL instantiates component nand2x1, which no entity declares: allowed a file that declares it, or the Liberty file of its library (--liberty)`},
		{"no cells", good, toolcheck.ModuleOptions{Liberty: seqOnly},
			"toolcheck: the Liberty file " + seqOnly + " has no combinational cell or flip-flop: allowed a library of cells with functions"},
		{"not an adder", []byte("library ieee; use ieee.std_logic_1164.all;\nentity inv is port (x : in std_logic; y : out std_logic); end;\narchitecture a of inv is begin y <= not x; end;\n"), toolcheck.ModuleOptions{},
			"toolcheck: module inv has no input a (its ports: input x, output y): allowed an adder's ports, inputs a and b and the outputs the adder asked for has"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := toolcheck.NewVHDLModuleDesign(context.Background(), c.src, c.mo, toolcheck.Options{})
			require.Error(t, err)
			var in *toolcheck.InputError
			assert.True(t, errors.As(err, &in), "%T: %v", err, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}

// A user's file may hold an entity named as the adder's with _tb, as its own
// testbench: the check's testbench has a name of the checks' own.
func TestVHDLModuleOwnTestbench(t *testing.T) {
	t.Parallel()
	requireTools(t)
	plain := adder.Standard
	own := "entity mine_tb is\nend entity;\narchitecture own of mine_tb is\nbegin\n    assert false report \"the user's own testbench ran\" severity failure;\nend architecture;\n"
	src := append(vhdlOf(t, 8, "mine", plain), own...)
	d, err := toolcheck.NewVHDLModuleDesign(context.Background(), src, toolcheck.ModuleOptions{Top: "mine"}, toolcheck.Options{Vectors: 100, Seed: 2, Adder: &plain})
	require.NoError(t, err)
	rs := check(t, d)
	for _, name := range []string{"VHDL", "testbench", "equivalence"} {
		r := resultOf(t, rs, 0, name)
		assert.Equal(t, toolcheck.Pass, r.Status, "%s: %s", name, r.Detail)
	}
}
