package physical

import (
	"os"
	"strings"
	"testing"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseStat reads a stat -liberty report Yosys wrote for a 16-bit
// Kogge–Stone adder through the keep flow.
func TestParseStat(t *testing.T) {
	data, err := os.ReadFile("testdata/ks16-keep.stat.txt")
	require.NoError(t, err)
	var r Result
	require.NoError(t, parseStat(string(data), &r))
	assert.Equal(t, 4708.0, r.AreaUM2)
	assert.Equal(t, 148, r.StdCells)
	assert.Equal(t, map[string]int{"AND2X1": 1, "AOI21X1": 23, "INVX1": 11, "NAND2X1": 28, "NAND3X1": 2,
		"NOR2X1": 22, "OAI21X1": 28, "XNOR2X1": 23, "XOR2X1": 10}, r.Cells)

	for _, bad := range []string{"", "Number of cells: 3\n", strings.Replace(string(data), "Chip area", "Chip size", 1)} {
		assert.Error(t, parseStat(bad, &Result{}))
	}
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
}
