package toolcheck_test

import (
	"bytes"
	"context"
	"errors"
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

// Bad VHDL of the user's own is refused in one line, an *InputError.
func TestVHDLModuleDesignRefused(t *testing.T) {
	t.Parallel()
	requireTools(t)
	good := vhdlOf(t, 4, "mine", adder.Standard)
	for _, c := range []struct {
		name string
		src  []byte
		mo   toolcheck.ModuleOptions
		want string
	}{
		{"not analysable", []byte("entity x is end;\narchitecture a of x is begin foo; end;\n"), toolcheck.ModuleOptions{},
			`toolcheck: ghdl cannot analyse it: 2:30: no declaration for "foo"`},
		{"two entities", append(append([]byte{}, good...), vhdlOf(t, 4, "other", adder.Standard)...), toolcheck.ModuleOptions{},
			"toolcheck: the VHDL declares 2 entities (mine, other): allowed a top entity named, or a file of one entity"},
		{"no such top", good, toolcheck.ModuleOptions{Top: "theirs"}, "toolcheck: the VHDL declares no entity theirs: allowed mine"},
		{"testbench's name", bytes.ReplaceAll(good, []byte("mine"), []byte("stimulus")), toolcheck.ModuleOptions{},
			`toolcheck: entity name "stimulus" is not a legal VHDL identifier: the adder declares "stimulus" inside (VHDL ignores case)`},
		{"cells", good, toolcheck.ModuleOptions{Liberty: "x.lib"},
			"toolcheck: a VHDL file is read as logic, not as a netlist of library cells: allowed a Liberty file with a Verilog module"},
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
