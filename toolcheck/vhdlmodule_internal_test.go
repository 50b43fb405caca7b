package toolcheck

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/liberty"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libertyCells reads a file once, and again when it changes: the cells of
// the file as it is now, never of a file since replaced.
func TestLibertyCellsCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.lib")
	write := func(cell string) {
		t.Helper()
		src := "library (l) { cell (" + cell + ") { pin (A) { direction : input; } pin (Y) { direction : output; function : \"!A\"; } } }\n"
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	}
	names := func() []string {
		t.Helper()
		cells, err := libertyCells(path)
		require.NoError(t, err)
		var out []string
		for name := range cells {
			out = append(out, name)
		}
		slices.Sort(out)
		return out
	}
	write("INV")
	assert.Equal(t, []string{"INV"}, names())
	first, err := libertyCells(path)
	require.NoError(t, err)
	again, err := libertyCells(path)
	require.NoError(t, err)
	assert.Equal(t, reflect.ValueOf(first).Pointer(), reflect.ValueOf(again).Pointer(), "read once while the file stays")
	write("INVERTER")
	assert.Equal(t, []string{"INVERTER"}, names(), "a file that changed is read again")
	require.NoError(t, os.Remove(path))
	_, err = libertyCells(path)
	require.Error(t, err)
	assert.Equal(t, "toolcheck: cannot read the Liberty file "+path+": no such file or directory", err.Error())
}

// A GHDL that exits non-zero without saying what is wrong with the file
// (a crash) is a tool failure, not bad input: VHDLToVerilog's error is no
// *InputError.
func TestVHDLToVerilogToolFailure(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "ghdl")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\necho 'raised CONSTRAINT_ERROR' >&2\nexit 1\n"), 0o755))
	t.Setenv("PATH", dir)
	_, _, err := VHDLToVerilog(t.Context(), VHDLSource{Src: []byte("entity e is end;")}, 0)
	require.Error(t, err)
	_, input := errors.AsType[*InputError](err)
	assert.False(t, input, "%v", err)
	assert.Contains(t, err.Error(), "raised CONSTRAINT_ERROR")
}

// cellOf finds the cell a VHDL component names: an extended identifier
// exactly, a basic one in any case.
func TestCellOf(t *testing.T) {
	cells := map[string]liberty.Cell{"NAND2_X1": {}, "nand2_x1": {}, "sky130_fd_sc_hd__fa_1": {}, `odd\name`: {}, "INVx1": {}}
	for _, tc := range []struct{ name, want string }{
		{"NAND2_X1", "NAND2_X1"},
		{"nand2_x1", "nand2_x1"},
		{"Nand2_X1", "NAND2_X1"}, // several differ only in case: the least
		{"invx1", "INVx1"},
		{`\sky130_fd_sc_hd__fa_1\`, "sky130_fd_sc_hd__fa_1"},
		{`\SKY130_fd_sc_hd__fa_1\`, ""}, // extended identifiers keep their case
		{`\odd\\name\`, `odd\name`},
		{"sky130_fd_sc_hd__fa_1", "sky130_fd_sc_hd__fa_1"},
		{"nor2", ""},
		{`\`, ""},
	} {
		assert.Equal(t, tc.want, cellOf(tc.name, cells), tc.name)
	}
	assert.Empty(t, cellOf("nand2_x1", nil))
}

// instantiateCells drops the black boxes GHDL writes for the cells and
// names the cells in their instances; the rest of the netlist is left as
// it is.
func TestInstantiateCells(t *testing.T) {
	netlist := `module \sky130_fd_sc_hd__fa_1\
  (input  A,
   output SUM);
endmodule

module NAND2_X1
  (input  A1,
   output ZN);
endmodule

module top
  (input  a,
   output y,
   output z);
  wire n1_o;
  \sky130_fd_sc_hd__fa_1\ u_fa (
    .A(a),
    .SUM(n1_o));
  NAND2_X1 u_nand (
    .A1(a),
    .ZN(z));
  assign y = n1_o;
endmodule
`
	want := `module top
  (input  a,
   output y,
   output z);
  wire n1_o;
  sky130_fd_sc_hd__fa_1 u_fa (
    .A(a),
    .SUM(n1_o));
  \odd.cell u_nand (
    .A1(a),
    .ZN(z));
  assign y = n1_o;
endmodule
`
	unbound := map[string]string{`\sky130_fd_sc_hd__fa_1\`: "sky130_fd_sc_hd__fa_1", "nand2_x1": "odd.cell"}
	assert.Equal(t, want, string(instantiateCells([]byte(netlist), unbound)))
	assert.Equal(t, netlist, string(instantiateCells([]byte(netlist), nil)), "no cells, no change")
}

// The components ghdl --synth warns of are read from its standard error:
// in its output together, the netlist it writes at the same time can come
// between a warning's halves, as it did once under load.
func TestUnboundComponents(t *testing.T) {
	warn := func(inst, comp string) string {
		return fmt.Sprintf("a7.vhd:59:5:warning: instance %q of component %q is not bound [-Wbinding]\n", inst, comp)
	}
	stderr := warn("u_g_n_0", "nand2x1_asap7_75t_r") + warn("u_p_n_0", "oai21x1_asap7_75t_r")
	netlist := "module OAI21x1_ASAP7_75t_R\n  (input  A1,\n   output Y);\nendmodule\n"
	half := strings.Index(stderr, "oai21x1_asap7_75t_r") + len("oai21x1_asap7_75t_r")
	res := &toolrun.Result{
		Stdout: []byte(netlist),
		Stderr: []byte(stderr),
		Output: []byte(stderr[:half] + netlist + stderr[half:]),
	}
	assert.Equal(t, []string{"nand2x1_asap7_75t_r", "oai21x1_asap7_75t_r"}, unboundComponents(res))
}

// ghdlQuiet passes a file of the user's own on which GHDL only warns with
// exit status 0, naming the first warning (the source line and caret
// under it are no verdict); the same warnings with exit status 1, or on
// prefixgen's own VHDL, fail it.
func TestGHDLQuiet(t *testing.T) {
	first := `design.vhd:3:8:warning: declaration of "x" hides signal "x" [-Whide]`
	out := first + "\n  signal x : bit;\n       ^\ndesign.vhd:9:3:warning: no choice for x [-Wothers]\n"
	res := &toolrun.Result{Output: []byte(out)}
	r, warning, ok := ghdlQuiet(Result{}, &ran{tool: "ghdl", res: res}, true)
	assert.True(t, ok)
	assert.Equal(t, first, warning)
	assert.Equal(t, Result{}, r)

	exit1 := &ran{tool: "ghdl", res: res, err: &toolrun.ExitError{Tool: "ghdl", Code: 1, FirstLine: first}}
	r, warning, ok = ghdlQuiet(Result{}, exit1, true)
	assert.False(t, ok)
	assert.Empty(t, warning)
	assert.Equal(t, Result{Status: Fail, Detail: first}, r)

	r, _, ok = ghdlQuiet(Result{}, &ran{tool: "ghdl", res: res}, false)
	assert.False(t, ok)
	assert.Equal(t, Result{Status: Fail, Detail: first}, r)
}

// ghdlError names where in the user's file GHDL found the fault, without
// the file's name, which is prefixgen's own (design.vhd).
func TestGHDLError(t *testing.T) {
	line, ok := ghdlError("design.vhd:12:5: no declaration for \"x\"\n")
	assert.True(t, ok)
	assert.Equal(t, `12:5: no declaration for "x"`, line)
	_, ok = ghdlError("raised CONSTRAINT_ERROR\n")
	assert.False(t, ok)
}
