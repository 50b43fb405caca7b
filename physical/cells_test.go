package physical_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
)

// libertyCell is one combinational cell of a test library.
func libertyCell(name, area, pins, out, function, extra string) string {
	s := "  cell (" + name + ") {\n    area : " + area + ";\n" + extra
	for p := range strings.SplitSeq(pins, ",") {
		s += "    pin (" + p + ") { direction : input; }\n"
	}
	return s + "    pin (" + out + ") { direction : output; function : \"" + function + "\"; }\n  }\n"
}

// TestPGCells finds the NAND2 and the OAI21 by their functions, whatever
// their names and pin order, the smallest of several, never one marked
// dont_use or one of more outputs; a library without them is refused in
// one line.
func TestPGCells(t *testing.T) {
	osu := adder.Cells{
		NAND2: adder.Cell{Name: "NAND2X1", Inputs: []string{"A", "B"}, Output: "Y"},
		OAI21: adder.Cell{Name: "OAI21X1", Inputs: []string{"A", "B", "C"}, Output: "Y"},
	}
	for _, lib := range []string{"osu018", "osu035"} {
		tooltest.File(t, physical.LibertyFile(lib), "qflow-tech-"+lib)
		got, err := physical.PGCells(lib)
		require.NoError(t, err, lib)
		assert.Equal(t, osu, *got, lib)
	}
	tests := []struct {
		name  string
		cells string
		want  *adder.Cells
		err   string
	}{
		{"names and pin orders of its own",
			libertyCell("nd2", "4", "x,y", "z", "!(x y)", "") +
				libertyCell("oai", "5", "c,a,b", "o", "!((a+b) c)", ""),
			&adder.Cells{NAND2: adder.Cell{Name: "nd2", Inputs: []string{"x", "y"}, Output: "z"},
				OAI21: adder.Cell{Name: "oai", Inputs: []string{"a", "b", "c"}, Output: "o"}}, ""},
		{"the smallest, not dont_use, not without an area",
			libertyCell("NAND_BIG", "9", "A,B", "Y", "!(A&B)", "") +
				libertyCell("NAND_DONT", "1", "A,B", "Y", "!(A&B)", "    dont_use : true;\n") +
				"  cell (NAND_NOAREA) {\n    pin (A) { direction : input; }\n    pin (B) { direction : input; }\n    pin (Y) { direction : output; function : \"!(A B)\"; }\n  }\n" +
				libertyCell("NAND_SMALL", "3", "A,B", "Y", "(!A)+(!B)", "") +
				libertyCell("OAI", "5", "A,B,C", "Y", "!((A|B)&C)", "") +
				libertyCell("NOR", "2", "A,B", "Y", "!(A+B)", ""),
			&adder.Cells{NAND2: adder.Cell{Name: "NAND_SMALL", Inputs: []string{"A", "B"}, Output: "Y"},
				OAI21: adder.Cell{Name: "OAI", Inputs: []string{"A", "B", "C"}, Output: "Y"}}, ""},
		{"no OAI21",
			libertyCell("NAND", "3", "A,B", "Y", "!(A B)", "") +
				libertyCell("AOI", "5", "A,B,C", "Y", "!((A B)+C)", ""),
			nil, "has no cell for an OAI21, !((A | B) & C): allowed a library with both, or the adder without library cells"},
		{"the only NAND2 not to use",
			libertyCell("NAND_DONT", "1", "A,B", "Y", "!(A&B)", "    dont_use : true;\n") +
				libertyCell("OAI", "5", "A,B,C", "Y", "!((A|B)&C)", ""),
			nil, "has no cell to use for a two-input NAND, !(A & B) (NAND_DONT is marked not to use): allowed a library with both, or the adder without library cells"},
		{"neither",
			libertyCell("INV", "1", "A", "Y", "!A", ""),
			nil, "has no cell for a two-input NAND, !(A & B) nor an OAI21"},
		// Verilog cannot write the name: gen had written invalid Verilog.
		{"a name with a space",
			libertyCell(`"NAND2 X1; $display"`, "3", "A,B", "Y", "!(A&B)", "") +
				libertyCell("OAI", "5", "A,B,C", "Y", "!((A|B)&C)", ""),
			nil, `cell "NAND2 X1; $display" has a name Verilog cannot write, with a space or a character that does not print: allowed a library whose cell and pin names print without spaces`},
		{"a pin with a space",
			libertyCell("NAND", "3", "A,B", "Y", "!(A&B)", "") +
				libertyCell("OAI", "5", "A,B,C", `"Y Z"`, "!((A|B)&C)", ""),
			nil, `cell "OAI" has a pin "Y Z", a name Verilog cannot write`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "test.lib")
			require.NoError(t, os.WriteFile(file, []byte("library (test) {\n"+tt.cells+"}\n"), 0o644))
			got, err := physical.PGCells(file)
			if tt.err != "" {
				require.Error(t, err)
				assert.True(t, physical.IsSetup(err))
				assert.Contains(t, err.Error(), tt.err)
				assert.NotContains(t, err.Error(), "\n")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	_, err := physical.PGCells(filepath.Join(t.TempDir(), "missing.lib"))
	require.Error(t, err)
	assert.True(t, physical.IsSetup(err))
	assert.Contains(t, err.Error(), "cannot be read")
}

// TestPGCellsFlow measures adders whose generate and propagate are the
// library's cells: both flows keep the n NAND2s and n OAI21s, the adder is
// smaller than the same network written as logic (the XNOR2 ABC maps the
// propagate to is 56 µm², the OAI21 23), and the result says what it
// measured.
func TestPGCellsFlow(t *testing.T) {
	t.Parallel()
	needTools(t)
	const n = 16
	cells, err := physical.PGCells("")
	require.NoError(t, err)
	net := build(t, "brent-kung", n, nil)
	plain, err := physical.AdderDesign(net)
	require.NoError(t, err)
	withCells, err := physical.ArchitectureDesign(net, arch(func(a *adder.Architecture) { a.PGCells = true }), cells)
	require.NoError(t, err)
	assert.True(t, withCells.Adder.PGCells)
	assert.Equal(t, "brent-kung pgcells", withCells.Name())
	for _, flow := range physical.Flows {
		t.Run(string(flow), func(t *testing.T) {
			t.Parallel()
			opt := physical.Options{Flow: flow}
			logic, err := physical.Run(context.Background(), []*physical.Design{plain}, opt)
			require.NoError(t, err)
			if flow == physical.Keep {
				// The orders of the gates keep the cells too: Yosys
				// reads the library before the design when it writes
				// the generic netlist.
				opt.Orders = 2
			}
			lib, err := physical.Run(context.Background(), []*physical.Design{withCells}, opt)
			require.NoError(t, err)
			res := append(logic, lib...)
			t.Logf("%s: logic %.0f µm² %.3f ns, cells %.0f µm² %.3f ns", flow, res[0].AreaUM2, res[0].DelayNS, res[1].AreaUM2, res[1].DelayNS)
			assert.False(t, res[0].Adder.PGCells)
			assert.True(t, res[1].Adder.PGCells)
			assert.Equal(t, "brent-kung pgcells", res[1].Name())
			assert.GreaterOrEqual(t, res[1].Cells["NAND2X1"], n)
			assert.GreaterOrEqual(t, res[1].Cells["OAI21X1"], n)
			assert.Less(t, res[1].AreaUM2, 0.95*res[0].AreaUM2, "the cells save the XNOR2s")
			if opt.Orders > 0 {
				require.NotNil(t, res[1].Spread)
				assert.Equal(t, 2, res[1].Spread.Orders)
				assert.Less(t, res[1].Spread.AreaMax, 1.05*res[1].AreaUM2)
			}
		})
	}
}

// TestFullAdderCell finds each library's full adder by its functions: the
// carry pin's majority and the sum pin's exclusive or, both complemented
// on ASAP7, the carry-in last; a library without one is refused in one
// line.
func TestFullAdderCell(t *testing.T) {
	fa := func(name, a, b, ci, co, s string, inv bool) adder.FullAdder {
		return adder.FullAdder{Cell: adder.Cell{Name: name, Inputs: []string{a, b, ci}, Output: co}, Sum: s, Inverted: inv}
	}
	libs := []struct {
		lib  string
		want adder.FullAdder
	}{
		{"sky130hd", fa("sky130_fd_sc_hd__fa_1", "A", "B", "CIN", "COUT", "SUM", false)},
		{"asap7", fa("FAx1_ASAP7_75t_R", "A", "B", "CI", "CON", "SN", true)},
		{"osu018", fa("FAX1", "A", "B", "C", "YC", "YS", false)},
	}
	for _, tt := range libs {
		if tt.lib == "osu018" {
			tooltest.File(t, physical.LibertyFile(tt.lib), "qflow-tech-"+tt.lib)
		}
		got, err := physical.FullAdderCell(tt.lib)
		require.NoError(t, err, tt.lib)
		assert.Equal(t, tt.want, got.FA, tt.lib)
		arch := adder.Architecture{FACells: true}
		viaArch, err := physical.LibraryCells(tt.lib, arch)
		require.NoError(t, err)
		assert.Equal(t, got, viaArch)
	}
	none, err := physical.LibraryCells("asap7", adder.Standard)
	require.NoError(t, err)
	assert.Nil(t, none, "the standard adder needs no cells")

	file := filepath.Join(t.TempDir(), "test.lib")
	two := "  cell (HA) {\n    area : 3;\n    pin (A) { direction : input; }\n    pin (B) { direction : input; }\n    pin (C) { direction : input; }\n" +
		"    pin (X) { direction : output; function : \"A B\"; }\n    pin (Y) { direction : output; function : \"A^B^C\"; }\n  }\n"
	mixed := "  cell (FAMIX) {\n    area : 3;\n    pin (A) { direction : input; }\n    pin (B) { direction : input; }\n    pin (CI) { direction : input; }\n" +
		"    pin (CO) { direction : output; function : \"(A B)+(CI (A+B))\"; }\n    pin (S) { direction : output; function : \"!(A^B^CI)\"; }\n  }\n"
	require.NoError(t, os.WriteFile(file, []byte("library (test) {\n"+two+mixed+"}\n"), 0o644))
	_, err = physical.FullAdderCell(file)
	require.Error(t, err)
	assert.True(t, physical.IsSetup(err))
	assert.Contains(t, err.Error(), "has no full-adder cell")
	assert.NotContains(t, err.Error(), "\n")

	// The library has one, which the user said not to use: the error
	// says so, where it said the library had none.
	tooltest.File(t, physical.LibertyFile("osu018"), "qflow-tech-osu018")
	_, err = physical.FullAdderCell("osu018", "FAX1")
	require.Error(t, err)
	assert.True(t, physical.IsSetup(err))
	assert.Contains(t, err.Error(), "has no full-adder cell to use (FAX1 is marked not to use)")
}
