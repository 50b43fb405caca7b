package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
)

// gen --pg-cells writes the cells of the library --liberty names (OSU 0.18
// µm by default), its document records them, and every --from builds that
// adder again.
func TestPGCellsGen(t *testing.T) {
	tooltest.File(t, physical.LibertyFile(""), "qflow-tech-osu018")
	status, v, errOut := prefixgen("gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--pg-cells")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, v, "    NAND2X1 u_g_n_7 (.A(a[7]), .B(b[7]), .Y(g_n[7]));\n    OAI21X1 u_p_n_7 (.A(a[7]), .B(b[7]), .C(g_n[7]), .Y(p_n[7]));\n")
	assert.Contains(t, v, "module prefix_adder_sklansky_8_pgcells (")

	path, doc := writeDoc(t, "-t", "sklansky", "-n", "8", "--sparse", "2", "--pg-cells", "-f", "json")
	assert.Contains(t, doc, "  \"ling\": false,\n  \"pg_cells\": true,\n  \"network\": {\n")
	status, want, errOut := prefixgen("gen", "-t", "sklansky", "-n", "8", "--sparse", "2", "--pg-cells", "-f", "verilog")
	require.Equal(t, 0, status, errOut)
	status, got, errOut := prefixgen("gen", "--from", path, "-f", "verilog")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, want, got)

	// The document's cells, from the library --liberty names: OSU 0.18 µm
	// with its NAND2 and OAI21 renamed.
	src, err := os.ReadFile(physical.LibertyFile(""))
	require.NoError(t, err)
	renamed := strings.NewReplacer("cell (NAND2X1)", "cell (MYNAND)", "cell (OAI21X1)", "cell (MYOAI)").Replace(string(src))
	lib := filepath.Join(t.TempDir(), "my.lib")
	require.NoError(t, os.WriteFile(lib, []byte(renamed), 0o644))
	status, got, errOut = prefixgen("gen", "--from", path, "-f", "verilog", "--liberty", lib)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, got, "    MYNAND u_g_n_0 (.A(a[0]), .B(b[0]), .Y(g_n[0]));\n    MYOAI u_p_n_0 (")

	// A format without cells needs no library, and says what refuses it.
	status, _, errOut = prefixgen("gen", "--from", path, "-f", "svg", "--liberty", lib)
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen gen: --liberty applies to -f verilog or vhdl with --pg-cells or --fa-cells only: it names the library of the cells\n", errOut)
	// VHDL instantiates the same cells, each a component.
	status, got, errOut = prefixgen("gen", "--from", path, "-f", "vhdl", "--liberty", lib)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, got, "    component MYNAND\n")
	assert.Contains(t, got, "    u_g_n_0 : MYNAND port map (A => a(0), B => b(0), Y => g_n(0));\n    u_p_n_0 : MYOAI port map (")
	status, _, errOut = prefixgen("gen", "--from", path, "-f", "verilog", "--op", "sub")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen gen: "+path+", an adder of library cells, applies to --op add only: the cells take a and b as they are\n", errOut)

	status, _, errOut = prefixgen("gen", "--from", path, "-f", "verilog", "--pg-cells=false")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen gen: --pg-cells=false contradicts "+path+", the adder whose generate and propagate are library cells: leave --pg-cells out\n", errOut)
}

// Bad uses of --pg-cells are refused in one line, exit status 2, with
// nothing written.
func TestPGCellsRefused(t *testing.T) {
	noCells := filepath.Join(t.TempDir(), "nocells.lib")
	require.NoError(t, os.WriteFile(noCells, []byte("library (x) {\n  cell (INV) {\n    area : 1;\n    pin (A) { direction : input; }\n    pin (Y) { direction : output; function : \"!A\"; }\n  }\n}\n"), 0o644))
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "svg", "--pg-cells"}, "prefixgen gen: --pg-cells applies to -f verilog, vhdl and json (the adder document) only, not \"svg\"\n"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--liberty", "osu035"}, "prefixgen gen: --liberty applies to -f verilog or vhdl with --pg-cells or --fa-cells only: it names the library of the cells\n"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "dot", "--pg-cells", "--liberty", noCells}, "prefixgen gen: --pg-cells applies to -f verilog, vhdl and json (the adder document) only, not \"dot\"\n"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--op", "sub", "--pg-cells"}, "prefixgen gen: --pg-cells applies to --op add only: the cells take a and b as they are\n"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--pg-cells", "--liberty", noCells}, "prefixgen gen: Liberty file " + noCells + " has no cell for a two-input NAND, !(A & B) nor an OAI21, !((A | B) & C): allowed a library with both, or the adder without library cells\n"},
		{[]string{"synth", "--verilog", noCells, "--pg-cells"}, "prefixgen synth: --pg-cells does not apply to --verilog: the file fixes the design\n"},
		{[]string{"check", "-t", "sklansky", "-n", "8", "--liberty", "osu035"}, "prefixgen check: --liberty applies only with --verilog, --vhdl, --pg-cells or --fa-cells: allowed check --verilog FILE --liberty …\n"},
		{[]string{"check", "--verilog", noCells, "--pg-cells"}, "prefixgen check: --pg-cells does not apply to --verilog: the file fixes the design (its latency is --stages K)\n"},
		{[]string{"optimize", "-n", "8", "--max-depth", "4", "--pg-cells"}, ""},
		{[]string{"gen", "-t", "ripple", "-n", "8", "-f", "verilog", "--op", "sub", "--fa-cells"}, "prefixgen gen: --fa-cells applies to --op add only: the cells take a and b as they are; allowed with add\n"},
		{[]string{"gen", "-t", "ripple", "-n", "8", "-f", "verilog", "--fa-cells", "--pg-cells"}, "prefixgen gen: --fa-cells does not apply with library cells for the generate and propagate in a dense adder: allowed one of --fa-cells and --pg-cells, or both with --sparse 2, 4 or 8\n"},
		{[]string{"gen", "-t", "ripple", "-n", "8", "-f", "verilog", "--fa-cells", "--liberty", noCells}, "prefixgen gen: Liberty file " + noCells + " has no full-adder cell, three inputs with their majority and exclusive or as outputs: allowed a library with one, or the adder without --fa-cells\n"},
		{[]string{"synth", "--verilog", noCells, "--fa-cells"}, "prefixgen synth: --fa-cells does not apply to --verilog: the file fixes the design\n"},
		{[]string{"optimize", "-n", "8", "--max-area-um2", "100", "--fa-cells", "--sparse", "1,2", "--ling"}, "prefixgen optimize: --fa-cells does not apply to Ling's carries in a dense adder: allowed one of --fa-cells and --ling, or both with --sparse 2, 4 or 8\n"},
		{[]string{"optimize", "-n", "8", "--max-depth", "4", "--fa-cells"}, ""},
		{[]string{"explore", "-n", "8", "--fa-cells"}, "prefixgen explore: --fa-cells applies only with --synth: allowed explore --synth --fa-cells\n"},
		{[]string{"explore", "-n", "8", "--synth", "--every-option", "--fa-cells"}, "prefixgen explore: --every-option and --fa-cells: --every-option measures every adder with and without --fa-cells already: allowed one of them\n"},
		{[]string{"explore", "-n", "8", "--synth", "--fa-cells", "--ling", "--sparse", "1,2"}, "prefixgen explore: --fa-cells does not apply to Ling's carries in a dense adder: allowed one of --fa-cells and --ling, or both with --sparse 2, 4 or 8\n"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--fa-cells", "--ling", "--sparse", "2", "--stages", "1"}, "prefixgen gen: --fa-cells applies to a combinational adder: allowed without --stages and --pipeline-after\n"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--increment", "--sparse", "4"}, "prefixgen gen: --increment applies to the carry-select blocks of full adders: allowed with --fa-cells and --sparse 2, 4 or 8\n"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--increment", "--fa-cells"}, "prefixgen gen: --increment applies to the carry-select blocks of full adders: allowed with --fa-cells and --sparse 2, 4 or 8\n"},
		{[]string{"explore", "-n", "8", "--increment"}, "prefixgen explore: --increment applies only with --synth: allowed explore --synth --increment\n"},
		{[]string{"explore", "-n", "8", "--synth", "--fa-cells", "--increment", "--sparse", "1"}, "prefixgen explore: --increment applies to the carry-select blocks of full adders: allowed with --fa-cells and --sparse 2, 4 or 8\n"},
		{[]string{"optimize", "-n", "8", "--max-area-um2", "100", "--increment", "--sparse", "2"}, "prefixgen optimize: --increment applies to the carry-select blocks of full adders: allowed with --fa-cells and --sparse 2, 4 or 8\n"},
		{[]string{"optimize", "-n", "8", "--max-depth", "4", "--increment"}, "prefixgen optimize: --increment applies only with --max-delay-ns or --max-area-um2\n"},
		{[]string{"synth", "--verilog", noCells, "--increment"}, "prefixgen synth: --increment does not apply to --verilog: the file fixes the design\n"},
		{[]string{"explore", "-n", "8", "--synth", "--fa-cells", "--valency", "2,3"}, "prefixgen explore: --fa-cells takes binary cells in a dense adder, and --valency 2,3 asks for networks of 3-input cells: allowed --valency 2, or --sparse 2, 4 or 8, whose blocks take the full adders\n"},
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "out.v")
		args := tt.args
		if args[0] != "check" {
			args = append(args, "-o", out)
		}
		status, stdout, errOut := prefixgen(args...)
		assert.Equal(t, 2, status, "%q", tt.args)
		assert.Empty(t, stdout)
		if tt.want != "" {
			assert.Equal(t, tt.want, errOut, "%q", tt.args)
		}
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%q: %s", tt.args, errOut)
		assert.NoFileExists(t, out)
	}
}

// explore and report --synth --pg-cells measure every adder with the cells,
// say so in every row, and give each row the command that writes it.
func TestPGCellsExploreReport(t *testing.T) {
	needFlow(t)
	status, out, errOut := prefixgen("explore", "-n", "4", "--synth", "--pg-cells", "--no-optimize", "-f", "csv")
	require.Equal(t, 0, status, errOut)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	header := strings.Split(rows[0], ",")
	col := func(name string) int {
		for i, h := range header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	pg, cmd := col("pg_cells"), col("command")
	require.Greater(t, len(rows), 2)
	require.True(t, strings.HasPrefix(rows[len(rows)-1], "yosys a+b+cin,"), "Yosys's a + b + cin last")
	for _, r := range rows[1 : len(rows)-1] {
		f := strings.Split(r, ",")
		assert.Equal(t, "true", f[pg], r)
		assert.True(t, strings.HasSuffix(f[cmd], " -f verilog --pg-cells"), r)
	}

	page := filepath.Join(t.TempDir(), "report.html")
	status, _, errOut = prefixgen("report", "-n", "4", "--synth", "--pg-cells", "--no-optimize", "-o", page)
	require.Equal(t, 0, status, errOut)
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(html), ">pgcells<", "every row names its adder, as synth names it")
	assert.Contains(t, string(html), "pgcells adders)", "the plot's title says what was measured")
}
