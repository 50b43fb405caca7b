package physical

import (
	"os"
	"testing"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseStat reads a stat -liberty report Yosys wrote for a 16-bit
// Kogge–Stone adder through the keep flow, and sums the area of its cells
// from the library as Yosys did (4 708 µm² in the report).
func TestParseStat(t *testing.T) {
	data, err := os.ReadFile("testdata/ks16-keep.stat.txt")
	require.NoError(t, err)
	var r Result
	require.NoError(t, parseStat(string(data), &r))
	assert.Equal(t, 148, r.StdCells)
	assert.Equal(t, map[string]int{"AND2X1": 1, "AOI21X1": 23, "INVX1": 11, "NAND2X1": 28, "NAND3X1": 2,
		"NOR2X1": 22, "OAI21X1": 28, "XNOR2X1": 23, "XOR2X1": 10}, r.Cells)
	assert.Contains(t, string(data), "Chip area for module '\\prefix_adder_kogge_stone_16': 4708.000000")
	lib := map[string]liberty.Cell{"AND2X1": {Area: 32, HasArea: true}, "AOI21X1": {Area: 32, HasArea: true},
		"INVX1": {Area: 16, HasArea: true}, "NAND2X1": {Area: 24, HasArea: true}, "NAND3X1": {Area: 36, HasArea: true},
		"NOR2X1": {Area: 24, HasArea: true}, "OAI21X1": {Area: 23, HasArea: true}, "XNOR2X1": {Area: 56, HasArea: true},
		"XOR2X1": {Area: 56, HasArea: true}}
	area, err := cellArea(r.Cells, lib)
	require.NoError(t, err)
	assert.Equal(t, 4708.0, area)
	delete(lib, "XOR2X1")
	_, err = cellArea(r.Cells, lib)
	assert.EqualError(t, err, "XOR2X1, which is neither a module of the design nor a cell of the library")

	for _, bad := range []string{"", "Number of cell: 3\n"} {
		assert.Error(t, parseStat(bad, &Result{}))
	}
}

// TestCellAreaSixDecimals: the sum is Yosys's, to its six decimals, not
// the float sum's last bits.
func TestCellAreaSixDecimals(t *testing.T) {
	lib := map[string]liberty.Cell{"A": {Area: 0.1, HasArea: true}, "B": {Area: 0.2, HasArea: true}}
	area, err := cellArea(map[string]int{"A": 1, "B": 1}, lib)
	require.NoError(t, err)
	assert.Equal(t, 0.3, area)
}

// TestParseTiming reads the report_checks OpenSTA printed for the same
// adder.
func TestParseTiming(t *testing.T) {
	data, err := os.ReadFile("testdata/ks16-keep.sta.txt")
	require.NoError(t, err)
	var r Result
	require.NoError(t, parseTiming(string(data), &r, registers{}))
	assert.Equal(t, 1.0225, r.DelayNS)
	assert.Equal(t, "b[0]", r.CriticalFrom)
	assert.Equal(t, "sum[8]", r.CriticalTo)

	err = parseTiming("No paths found.\n", &Result{}, registers{})
	assert.ErrorContains(t, err, "no path from an input to an output")
	assert.Error(t, parseTiming("Startpoint: a\nEndpoint: b\n", &Result{}, registers{}))
}

// FuzzParse feeds the parsers of the tools' reports anything: they may
// refuse it, never panic, and never return a negative cell count.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/ks16-keep.stat.txt", "testdata/ks16-keep.sta.txt", "testdata/ks16-pipe2.sta.txt"} {
		data, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, s string) {
		var r Result
		if parseStat(s, &r) == nil {
			require.GreaterOrEqual(t, r.StdCells, 0)
		}
		_ = parseTiming(s, &r, registers{})
		_ = parseTiming(s, &r, registers{flops: 1})
		_ = oneLine(s)
		_ = safeName(s)
	})
}

// FuzzVerilogDesign feeds VerilogDesign any Verilog and top module: it may
// refuse them, never panic, and a design it returns names a plain
// identifier that the file declares.
func FuzzVerilogDesign(f *testing.F) {
	f.Add("module m(input a, output y); assign y = ~a; endmodule", "")
	f.Add("// module x;\nmodule a; endmodule /* module b; */ module c; endmodule", "c")
	f.Add("macromodule q; endmodule", "q")
	f.Fuzz(func(t *testing.T, src, top string) {
		d, err := VerilogDesign([]byte(src), top)
		if err != nil {
			require.True(t, IsSetup(err))
			require.NotContains(t, err.Error(), "\n")
			return
		}
		require.True(t, emit.PlainIdentifier(d.Top), d.Top)
		require.Contains(t, emit.ModuleNames([]byte(src)), d.Top)
	})
}

// TestSafeName checks the folder names of designs.
func TestSafeName(t *testing.T) {
	assert.Equal(t, "ladner-fischer_k_1", safeName("ladner-fischer k=1"))
	assert.Equal(t, "a.b", safeName("a.b"))
	assert.Regexp(t, `^design-[0-9a-f]{8}$`, safeName(".."))
	assert.Regexp(t, `^design-[0-9a-f]{8}$`, safeName(""))
}

// OpenSTA names an escaped port of a netlist without its escape, and a
// constraint on a port it does not find is an error of the flow, not a
// warning to time past.
func TestSTANames(t *testing.T) {
	for in, want := range map[string]string{`clk`: "clk", `ck[1]`: "ck[1]", `\clk$1`: "clk$1", `\ck$b [1]`: "ck$b[1]"} {
		assert.Equal(t, want, staPortName(in), in)
	}
	out := "Warning: timing.tcl, 6 port '\\clk$1' not found.\nStartpoint: _30_ (rising edge-triggered flip-flop)\n"
	assert.True(t, staFailed(out))
	assert.Equal(t, "Warning: timing.tcl, 6 port '\\clk$1' not found.", staError(out))
	assert.False(t, staFailed("Startpoint: a[0] (input port clocked by virtual_clock)\n"))
	assert.False(t, staFailed("Warning: timing.lib line 12, default_max_transition is 0.0.\nStartpoint: a[0] (input port clocked by virtual_clock)\n"), "another warning is no error")
}

// TestYosysError: Yosys's first error, where in design.v first, so that
// a user's module's refusal names the line (the flow writes it "line 3:").
func TestYosysError(t *testing.T) {
	assert.Equal(t, "design.v:3: ERROR: syntax error, unexpected TOK_ENDMODULE", yosysError("Warning: x\ndesign.v:3: ERROR: syntax error, unexpected TOK_ENDMODULE\n"))
	assert.Equal(t, "ERROR: Module `\\top' not found!", yosysError("1. Executing script.\nERROR: Module `\\top' not found!\n"))
	assert.Empty(t, yosysError("Warning: only a warning\n"))
}

// TestCellStubs: the library cells a design names become black boxes of
// their ports, inputs in the file's order and then outputs, once each and
// in name order; the design's other names are not cells.
func TestCellStubs(t *testing.T) {
	lib := map[string]liberty.Cell{
		"NAND2X1": {Inputs: []string{"A", "B"}, Outputs: map[string]*liberty.Function{"Y": nil}},
		"OAI21X1": {Inputs: []string{"A", "B", "C"}, Outputs: map[string]*liberty.Function{"Y": nil}},
		"INVX1":   {Inputs: []string{"A"}, Outputs: map[string]*liberty.Function{"Y": nil}},
	}
	src := "module m(input [1:0] a, output y);\n  wire g;\n  OAI21X1 u1 (.A(a[0]), .B(a[1]), .C(g), .Y(y));\n  NAND2X1 u0 (.A(a[0]), .B(a[1]), .Y(g));\n  NAND2X1 u2 (.A(a[0]), .B(a[1]), .Y());\nendmodule\n"
	assert.Equal(t, "module NAND2X1(A, B, Y);\n  input A;\n  input B;\n  output Y;\nendmodule\n"+
		"module OAI21X1(A, B, C, Y);\n  input A;\n  input B;\n  input C;\n  output Y;\nendmodule\n", cellStubs([]byte(src), lib))
	assert.Empty(t, cellStubs([]byte("module m(input a, output y); assign y = ~a; endmodule\n"), lib))
}
