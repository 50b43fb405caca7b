package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/toolcheck"
)

// The hardware and picture formats of gen, byte for byte.
func TestGenHardwareGolden(t *testing.T) {
	tests := []struct {
		file string
		args []string
	}{
		{"gen-hc-8.v", []string{"gen", "-t", "han-carlson", "-n", "8", "-f", "verilog"}},
		{"gen-hc-8_tb.v", []string{"gen", "-t", "han-carlson", "-n", "8", "-f", "verilog", "--testbench", "--vectors", "50", "--seed", "9"}},
		{"gen-ks-4-lcu.v", []string{"gen", "-t", "kogge-stone", "-n", "4", "-f", "yosys-lcu", "--module", "_70_my_lcu"}},
		{"gen-sk-4.dot", []string{"gen", "-t", "sklansky", "-n", "4", "-f", "dot", "--bit0-left"}},
		{"gen-sk-4.svg", []string{"gen", "-t", "sklansky", "-n", "4", "-f", "svg"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			status, out, errOut := prefixgen(tt.args...)
			require.Equal(t, 0, status, errOut)
			assert.Empty(t, errOut)
			golden.Check(t, filepath.Join("testdata", tt.file), []byte(out))
			_, again, _ := prefixgen(tt.args...)
			assert.Equal(t, out, again, "the same command prints the same bytes")
		})
	}
}

func TestGenHardwareBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "adder.v")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"lcu map Yosys would pass over", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "yosys-lcu", "--module", "my_lcu", "-o", out},
			`prefixgen gen: module name "my_lcu" sorts after _90_lcu, Yosys's own $lcu map, which techmap would take instead: allowed a name that sorts before it, as _80_my_lcu`},
		{"lcu map of widths Yosys would pass over", []string{"gen", "-t", "sklansky", "--widths", "8,16", "-f", "yosys-lcu", "--module", "my_lcu", "-o", out},
			`prefixgen gen: module name "my_lcu" sorts after _90_lcu, Yosys's own $lcu map, which techmap would take instead: allowed a name that sorts before it, as _80_my_lcu`},
		{"keyword module", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--module", "module", "-o", out},
			`prefixgen gen: module name "module" is not a legal Verilog identifier: it is a Verilog or SystemVerilog keyword`},
		{"digit first", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "yosys-lcu", "--module", "9x", "-o", out},
			`prefixgen gen: module name "9x" is not a legal Verilog identifier: allowed: a letter or _ first, then letters, digits, _ or $`},
		{"module named as its cell", []string{"gen", "-t", "ripple", "-n", "4", "-f", "verilog", "--fa-cells", "--module", "FAX1", "-o", out},
			`prefixgen gen: module name "FAX1" is the name of a library cell the adder may instantiate: allowed another name`},
		{"entity named as its cell", []string{"gen", "-t", "ripple", "-n", "4", "-f", "vhdl", "--pg-cells", "--module", "oai21x1", "-o", out},
			`prefixgen gen: module name "oai21x1" is the name of a library cell the adder may instantiate: allowed another name`},
		{"module named as a cell it does not use", []string{"gen", "-t", "sklansky", "-n", "3", "-f", "verilog", "--pg-cells", "--module", "FAX1", "-o", out},
			`prefixgen gen: module name "FAX1" is the name of a cell of the library: read beside the adder (read_liberty -lib), it would be defined twice: allowed another name`},
		{"entity named as a cell it does not use", []string{"gen", "-t", "ripple", "-n", "4", "-f", "vhdl", "--fa-cells", "--module", "dffposx1", "-o", out},
			`prefixgen gen: module name "dffposx1" is the name of a cell of the library: read beside the adder (read_liberty -lib), it would be defined twice: allowed another name`},
		{"module with json", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "json", "--module", "x"},
			`prefixgen gen: --module applies to -f verilog, vhdl and yosys-lcu only, not "json"`},
		{"testbench with dot", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "dot", "--testbench"},
			`prefixgen gen: --testbench applies to -f verilog and vhdl only, not "dot"`},
		{"vectors without testbench", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--vectors", "5"},
			"prefixgen gen: --vectors applies to -f verilog or vhdl --testbench (or --testbench-out) only"},
		{"bit0-left with verilog", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--bit0-left"},
			`prefixgen gen: --bit0-left applies to -f text, dot and svg only, not "verilog"`},
		{"too many vectors", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--testbench", "--vectors", "2000000000", "-o", out},
			"prefixgen gen: --vectors 2000000000 out of range: allowed 0 to 1073741824"},
		{"seed too large", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--testbench", "--seed", "4294967296"},
			"prefixgen gen: --seed 4294967296 out of range for a testbench: allowed 0 to 4294967295"},
		{"unknown format", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "vhd"},
			`prefixgen gen: unknown format "vhd" (did you mean vhdl?): allowed text, json, dot, svg, verilog, vhdl, yosys-lcu`},
		{"check too wide", []string{"check", "-t", "ripple", "-n", "5000"},
			"prefixgen check: width 5000 too wide to check: allowed 1 to 4096"},
		{"check negative jobs", []string{"check", "-t", "ripple", "-n", "8", "--jobs", "-1"},
			"prefixgen check: --jobs -1 out of range: allowed 1 or more (0 for the number of CPUs)"},
		{"check tool timeout", []string{"check", "-t", "ripple", "-n", "8", "--tool-timeout", "5"},
			"prefixgen check: --tool-timeout \"5\": allowed a duration from 1s to 168h, such as 90s, 20m or 2h"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, stdout, stderr := prefixgen(tt.args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, stdout)
			assert.Equal(t, tt.want+"\n", stderr)
		})
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "refused input leaves no file")
}

// check runs the tools and prints a row per check; with every tool
// installed, every row passes, and a network met again under another name
// (knowles s=0 and harris l=0 f=0 are Kogge–Stone) points to its first
// rows instead of a time.
func TestCheckCommand(t *testing.T) {
	t.Parallel()
	needCheckTools(t)
	status, out, errOut := prefixgen("check", "-t", "all", "-n", "13", "--vectors", "100")
	require.Equal(t, 0, status, errOut+out)
	assert.Empty(t, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Greater(t, len(lines), 1)
	assert.Regexp(t, `^network\s+width\s+tool\s+check\s+result\s+detail$`, lines[0])
	row := regexp.MustCompile(`^\S.*\s13\s+(iverilog|verilator|yosys|neato|ghdl)\s.*\spass\s+(the network of \S+, checked above: )?\S`)
	again := 0
	for _, l := range lines[1:] {
		assert.Regexp(t, row, l)
		if strings.Contains(l, "checked above") {
			again++
		}
	}
	assert.GreaterOrEqual(t, again, 14, "knowles s=0 and harris l=0 f=0 are not run again")
	stats := strings.Split(strings.TrimSpace(mustRun(t, "stats", "-t", "all", "-n", "13", "-f", "csv")), "\n")
	assert.Equal(t, 7*(len(stats)-1), len(lines)-1, "seven checks for each network of -t all")
	// The same checks print the same bytes: no row carries a time.
	assert.Equal(t, out, mustRun(t, "check", "-t", "all", "-n", "13", "--vectors", "100"))
}

// Without the tools, check says which are missing, one line each, marks
// their checks missing, and does not fail.
func TestCheckMissingTools(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	status, out, errOut := prefixgen("check", "-t", "sklansky", "-n", "8")
	assert.Equal(t, 0, status)
	for _, tool := range toolcheck.Tools {
		assert.Contains(t, errOut, "prefixgen check: "+tool.Program+" is not installed: its checks are skipped (apt-get install "+tool.Package+")\n")
	}
	assert.Len(t, strings.Split(strings.TrimSpace(errOut), "\n"), len(toolcheck.Tools))
	assert.Equal(t, 7, strings.Count(out, " missing "))
}

// fakeCheckTools puts first on PATH a folder holding an sh script for each
// program scripts names; the other tools are the real ones.
func fakeCheckTools(t *testing.T, scripts map[string]string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range scripts {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	}
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
}

// A tool that fails is no verdict on the adder: check marks its rows
// ERROR, never pass or "not equal", and exits 1 naming the first tool that
// failed. A tool that hangs is stopped at --tool-timeout. The real tools
// run under the same 1 s limit, and on a loaded machine one of them
// (Verilator compiling its model) may be stopped before Yosys is: the
// message names whichever was first, and Yosys's row says it was
// stopped.
func TestCheckToolFailures(t *testing.T) {
	tests := []struct {
		name    string
		yosys   string
		args    []string
		row     string
		message string // a regular expression
	}{
		{name: "yosys hangs", yosys: "exec sleep 30", args: []string{"--tool-timeout", "1s"},
			row:     `^sklansky +4 +yosys +equivalence +ERROR +yosys ran past its time limit of 1s and was stopped \(allowed: a longer --tool-timeout\)$`,
			message: `^prefixgen check: a tool failed, so some checks have no verdict \(see the table\): \S+ ran past its time limit of 1s and was stopped \(allowed: a longer --tool-timeout\)\n$`},
		{name: "yosys exits 1", yosys: "echo 'abc: out of memory' >&2; exit 1",
			row:     `^sklansky +4 +yosys +equivalence +ERROR +yosys failed: abc: out of memory$`,
			message: `^prefixgen check: a tool failed, so some checks have no verdict \(see the table\): yosys failed: abc: out of memory\n$`},
		{name: "yosys prints junk", yosys: "echo 'all is well'",
			row:     `^sklansky +4 +yosys +equivalence +ERROR +yosys gave no proof: all is well$`,
			message: `^prefixgen check: a tool failed, so some checks have no verdict \(see the table\): `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeCheckTools(t, map[string]string{"yosys": tt.yosys})
			start := time.Now()
			status, out, errOut := prefixgen(append([]string{"check", "-t", "sklansky", "-n", "4", "--vectors", "10"}, tt.args...)...)
			assert.Less(t, time.Since(start), 15*time.Second)
			assert.Equal(t, 1, status)
			assert.Regexp(t, tt.message, errOut)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
			assert.NotContains(t, out, "not equal")
			var equivalence string
			for l := range strings.Lines(out) {
				if strings.Contains(l, " equivalence ") {
					equivalence = strings.TrimSuffix(l, "\n")
				}
			}
			assert.Regexp(t, tt.row, equivalence)
		})
	}
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	status, out, errOut := prefixgen(args...)
	require.Equal(t, 0, status, errOut)
	return out
}

// check --verilog proves a module of the user's own: prefixgen's own adder
// handed back passes, with the rows that need a network skipped, even
// named reference, as the checks once named a module of their own; the
// same file with one cell's operands swapped fails (exit 1). A netlist
// after synthesis is read with its library's cells.
func TestCheckVerilog(t *testing.T) {
	t.Parallel()
	needCheckTools(t)
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.v"), filepath.Join(dir, "bad.v")
	mustRun(t, "gen", "-t", "han-carlson", "-n", "8", "-f", "verilog", "--stages", "2", "-o", good)
	src, err := os.ReadFile(good)
	require.NoError(t, err)
	cell := "G_c5_l1 = g[5] | (p[5] & g[4]);"
	require.Contains(t, string(src), cell)
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(string(src), cell, "G_c5_l1 = g[4] | (p[4] & g[5]);", 1)), 0o644))
	named := strings.ReplaceAll(string(src), "prefix_adder_han_carlson_8_pipe2", "reference")
	require.NotEqual(t, string(src), named)
	require.NoError(t, os.WriteFile(good, []byte(named), 0o644))

	status, out, errOut := prefixgen("check", "--verilog", good, "--stages", "2", "--vectors", "50")
	require.Equal(t, 0, status, errOut+out)
	assert.Empty(t, errOut)
	assert.Contains(t, out, "proven equal to a + b + cin delayed 2 cycles; after a cycle of rst, from any state, proven equal at every cycle")
	assert.Equal(t, 4, strings.Count(out, " pass "), out)
	assert.Equal(t, 3, strings.Count(out, " skipped "), out)

	status, out, errOut = prefixgen("check", "--verilog", bad, "--stages", "2", "--vectors", "50")
	assert.Equal(t, 1, status, out)
	assert.Equal(t, "prefixgen check: some checks failed (see the table)\n", errOut)
	assert.Contains(t, out, "not equal to a + b + cin")

	// The netlist the synthesis flow mapped, flip-flops and all.
	tooltest.Path(t, "sta")
	tooltest.File(t, physical.LibertyFile("osu018"), "qflow-tech-osu018")
	work := filepath.Join(dir, "work")
	mustRun(t, "synth", "-t", "sklansky", "-n", "8", "--stages", "2", "--workdir", work)
	mapped := filepath.Join(work, "sklansky_stages_2", "mapped.v")
	status, out, errOut = prefixgen("check", "--verilog", mapped, "--liberty", "osu018", "--stages", "2", "--vectors", "50")
	require.Equal(t, 0, status, errOut+out)
	assert.Contains(t, out, "proven equal to a + b + cin delayed 2 cycles; after a cycle of rst, from any state, proven equal at every cycle")
	assert.Equal(t, 4, strings.Count(out, " pass "), out)
}

// check --vhdl checks an entity of the user's own: the checks of a module
// of one's own on ghdl --synth's netlist, and GHDL's run of the VHDL
// testbench on the file; a planted bug fails them.
func TestCheckVHDL(t *testing.T) {
	t.Parallel()
	needCheckTools(t)
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.vhd"), filepath.Join(dir, "bad.vhd")
	mustRun(t, "gen", "-t", "han-carlson", "-n", "8", "-f", "vhdl", "--op", "sub", "--flags", "carry,overflow", "-o", good)
	src, err := os.ReadFile(good)
	require.NoError(t, err)
	cell := "G_c5_l1 <= g(5) or (p(5) and g(4));"
	require.Contains(t, string(src), cell)
	require.NoError(t, os.WriteFile(bad, []byte(strings.Replace(string(src), cell, "G_c5_l1 <= g(4) or (p(4) and g(5));", 1)), 0o644))

	status, out, errOut := prefixgen("check", "--vhdl", good, "--op", "sub", "--flags", "carry,overflow", "--vectors", "50")
	require.Equal(t, 0, status, errOut+out)
	assert.Empty(t, errOut)
	assert.Contains(t, out, "proven equal to a + ~b + cin with overflow")
	assert.Regexp(t, `ghdl +VHDL +pass .*PASS prefix_adder_han_carlson_8_sub_flags_co: \d+ vectors, 0 mismatches`, out)
	assert.Equal(t, 5, strings.Count(out, " pass "), out)
	assert.Equal(t, 2, strings.Count(out, " skipped "), out)

	requireVHDLCaught(t, "--vhdl", bad, "--op", "sub", "--flags", "carry,overflow", "--vectors", "50")

	// A file of the library's cells, read with the library's models.
	tooltest.File(t, physical.LibertyFile("osu018"), "qflow-tech-osu018")
	cells := filepath.Join(dir, "cells.vhd")
	mustRun(t, "gen", "-t", "sklansky", "-n", "8", "-f", "vhdl", "--pg-cells", "-o", cells)
	status, out, errOut = prefixgen("check", "--vhdl", cells, "--liberty", "osu018", "--vectors", "50")
	require.Equal(t, 0, status, errOut+out)
	assert.Equal(t, 5, strings.Count(out, " pass "), out)
}

// check --vhdl --liberty reads models of the library's flip-flops too: a
// registered adder of SKY130 flip-flops, one with an asynchronous clear,
// passes GHDL's testbench and the proofs of ghdl --synth's netlist; with
// that clear held on, the models hold its bits at 0 and every check fails.
func TestCheckVHDLFlipFlopCells(t *testing.T) {
	t.Parallel()
	needCheckTools(t)
	src, err := os.ReadFile(filepath.Join("testdata", "ff-cells.vhd"))
	require.NoError(t, err)
	dir := t.TempDir()
	good, held := filepath.Join(dir, "good.vhd"), filepath.Join(dir, "held.vhd")
	require.NoError(t, os.WriteFile(good, src, 0o644))
	off := "RESET_B => one"
	require.Contains(t, string(src), off)
	require.NoError(t, os.WriteFile(held, []byte(strings.Replace(string(src), off, "RESET_B => '0'", 1)), 0o644))

	status, out, errOut := prefixgen("check", "--vhdl", good, "--liberty", "sky130hd", "--stages", "1", "--vectors", "50")
	require.Equal(t, 0, status, errOut+out)
	assert.Contains(t, out, "proven equal to a + b + cin delayed 1 cycles; after a cycle of rst, from any state, proven equal at every cycle")
	assert.Regexp(t, `ghdl +VHDL +pass .*PASS radd: \d+ vectors, 0 mismatches`, out)
	assert.Equal(t, 5, strings.Count(out, " pass "), out)

	requireVHDLCaught(t, "--vhdl", held, "--liberty", "sky130hd", "--stages", "1", "--vectors", "50")
}

// requireVHDLCaught runs check with args on an entity with a planted bug:
// the testbench, the equivalence proof and GHDL's run must each fail it.
func requireVHDLCaught(t *testing.T, args ...string) {
	t.Helper()
	status, out, errOut := prefixgen(append([]string{"check"}, args...)...)
	assert.Equal(t, 1, status, out)
	assert.Equal(t, "prefixgen check: some checks failed (see the table)\n", errOut)
	for _, row := range []string{`testbench +FAIL`, `equivalence +FAIL`, `VHDL +FAIL`} {
		assert.Regexp(t, row, out)
	}
}

// refusal is bad input to check: its arguments after the command's name,
// and the one line check must print.
type refusal struct {
	name string
	args []string
	want string
}

// requireChecksRefused runs check with each refusal's arguments
// (requireRefused).
func requireChecksRefused(t *testing.T, cases []refusal) {
	t.Helper()
	for _, tt := range cases {
		requireRefused(t, append([]string{"check"}, tt.args...), tt.want)
	}
}

func TestCheckVHDLBadInput(t *testing.T) {
	tooltest.Path(t, "ghdl")
	tooltest.Path(t, "yosys")
	dir := t.TempDir()
	adder := filepath.Join(dir, "adder.vhd")
	mustRun(t, "gen", "-t", "sklansky", "-n", "4", "-f", "vhdl", "-o", adder)
	broken := filepath.Join(dir, "broken.vhd")
	require.NoError(t, os.WriteFile(broken, []byte("entity y is end;\narchitecture a of y is begin foo; end;\n"), 0o644))
	cells := filepath.Join(dir, "cells.vhd")
	mustRun(t, "gen", "-t", "sklansky", "-n", "4", "-f", "vhdl", "--pg-cells", "-o", cells)
	tests := []refusal{
		{"with -t", []string{"--vhdl", adder, "-t", "sklansky"},
			"prefixgen check: --topology does not apply to --vhdl: the file fixes the design (its latency is --stages K)"},
		{"both files", []string{"--vhdl", adder, "--verilog", adder},
			"prefixgen check: --verilog and --vhdl: allowed one file of your own"},
		{"cells without their library", []string{"--vhdl", cells},
			"prefixgen check: " + cells + `: the VHDL instantiates components nand2x1, oai21x1, which no entity declares: allowed a file that declares them, or the Liberty file of its library (--liberty)`},
		{"no file", []string{"--vhdl", filepath.Join(dir, "none.vhd")},
			"prefixgen check: cannot read --vhdl " + filepath.Join(dir, "none.vhd") + ": no such file or directory"},
		{"not analysable", []string{"--vhdl", broken},
			"prefixgen check: " + broken + `: ghdl cannot analyse it: 2:30: no declaration for "foo"`},
		{"no such entity", []string{"--vhdl", adder, "--top", "other"},
			"prefixgen check: " + adder + ": the VHDL declares no entity other: allowed prefix_adder_sklansky_4"},
	}
	requireChecksRefused(t, tests)
}

func TestCheckVerilogBadInput(t *testing.T) {
	tooltest.Path(t, "yosys")
	dir := t.TempDir()
	adder := filepath.Join(dir, "adder.v")
	mustRun(t, "gen", "-t", "sklansky", "-n", "4", "-f", "verilog", "-o", adder)
	two := filepath.Join(dir, "two.v")
	require.NoError(t, os.WriteFile(two, []byte("module x (input a); endmodule\nmodule y (input a); endmodule\n"), 0o644))
	tests := []refusal{
		{"with -t", []string{"--verilog", adder, "-t", "sklansky"},
			"prefixgen check: --topology does not apply to --verilog: the file fixes the design (its latency is --stages K)"},
		{"with --sparse", []string{"--verilog", adder, "--sparse", "2"},
			"prefixgen check: --sparse does not apply to --verilog: the file fixes the design (its latency is --stages K)"},
		{"top alone", []string{"-t", "sklansky", "-n", "4", "--top", "m"},
			"prefixgen check: --top applies only with --verilog or --vhdl: allowed check --verilog FILE --top …"},
		{"liberty alone", []string{"-t", "sklansky", "-n", "4", "--liberty", "osu018"},
			"prefixgen check: --liberty applies only with --verilog, --vhdl, --pg-cells or --fa-cells: allowed check --verilog FILE --liberty …"},
		{"empty liberty", []string{"--verilog", adder, "--liberty", ""},
			"prefixgen check: --liberty is empty: allowed a value, or leave the flag out for its default (see prefixgen check --help)"},
		{"no file", []string{"--verilog", filepath.Join(dir, "none.v")},
			"prefixgen check: cannot read --verilog " + filepath.Join(dir, "none.v") + ": no such file or directory"},
		{"two modules", []string{"--verilog", two},
			"prefixgen check: " + two + ": the Verilog declares 2 modules (x, y): allowed a top module named, or a file of one module"},
		{"other flags", []string{"--verilog", adder, "--flags", "carry,zero"},
			"prefixgen check: " + adder + ": module prefix_adder_sklansky_4 has ports input a[3:0], input b[3:0], input cin, output cout, output sum[3:0]: allowed the ports of a + b + cin with zero, input a[3:0], input b[3:0], input cin, output cout, output sum[3:0], output zero"},
	}
	requireChecksRefused(t, tests)
}

// A correct hand-written adder that draws Verilator's -Wall WIDTH warning
// passes check: the lint row is WARN, the footer says that warnings leave
// the exit status 0, and the exit status is 0.
func TestCheckVerilogLintWarning(t *testing.T) {
	t.Parallel()
	needCheckTools(t)
	path := filepath.Join(t.TempDir(), "add.v")
	require.NoError(t, os.WriteFile(path, []byte("module add (input [31:0] a, input [31:0] b, input cin, output [31:0] sum, output cout);\n"+
		"    assign {cout, sum} = a + b + cin;\nendmodule\n"), 0o644))
	status, out, errOut := prefixgen("check", "--verilog", path, "--vectors", "50")
	require.Equal(t, 0, status, errOut+out)
	assert.Empty(t, errOut)
	assert.Regexp(t, `(?m)^add +32 +verilator +lint -Wall +WARN +`, out)
	assert.Equal(t, 3, strings.Count(out, " pass  "), out)
	assert.True(t, strings.HasSuffix(out, "\n"+toolcheck.WarnFooter+"\n"), out)
}

// gen --testbench-out writes the adder (-o) and its testbench in one run,
// the same files as two runs write, both whole or neither.
func TestGenTestbenchOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, f := range []string{"verilog", "vhdl"} {
		ext := map[string]string{"verilog": ".v", "vhdl": ".vhd"}[f]
		adderPath, tbPath := filepath.Join(dir, "hc"+ext), filepath.Join(dir, "hc_tb"+ext)
		status, out, errOut := prefixgen("gen", "-t", "han-carlson", "-n", "8", "-f", f, "--vectors", "40", "--seed", "7", "-o", adderPath, "--testbench-out", tbPath)
		require.Equal(t, 0, status, errOut)
		assert.Empty(t, out)
		want := mustRun(t, "gen", "-t", "han-carlson", "-n", "8", "-f", f)
		wantTB := mustRun(t, "gen", "-t", "han-carlson", "-n", "8", "-f", f, "--testbench", "--vectors", "40", "--seed", "7")
		for path, want := range map[string]string{adderPath: want, tbPath: wantTB} {
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, want, string(got), path)
		}
	}

	keep := filepath.Join(dir, "keep.v")
	require.NoError(t, os.WriteFile(keep, []byte("KEEP\n"), 0o644))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no -o", []string{"-f", "verilog", "--testbench-out", filepath.Join(dir, "x_tb.v")},
			"prefixgen gen: --testbench-out needs -o FILE for the adder: allowed -o FILE --testbench-out FILE, both written whole or neither"},
		{"text", []string{"-f", "text", "-o", keep, "--testbench-out", filepath.Join(dir, "x_tb.v")},
			`prefixgen gen: --testbench-out applies to -f verilog and vhdl only, not "text"`},
		{"with --testbench", []string{"-f", "verilog", "--testbench", "-o", keep, "--testbench-out", filepath.Join(dir, "x_tb.v")},
			"prefixgen gen: --testbench and --testbench-out both given: use --testbench-out FILE with -o FILE for both files, or --testbench alone for the testbench"},
		{"the same file", []string{"-f", "verilog", "-o", keep, "--testbench-out", keep},
			"prefixgen gen: -o " + keep + " and --testbench-out " + keep + " name the same file: allowed two files"},
		{"the testbench's folder is missing", []string{"-f", "verilog", "-o", keep, "--testbench-out", filepath.Join(dir, "no", "x_tb.v")},
			"cannot write " + filepath.Join(dir, "no", "x_tb.v") + ": no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out, errOut := prefixgen(append([]string{"gen", "-t", "sklansky", "-n", "4"}, tt.args...)...)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tt.want)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
			got, err := os.ReadFile(keep)
			require.NoError(t, err)
			assert.Equal(t, "KEEP\n", string(got), "the adder's file is untouched")
			assert.NoFileExists(t, filepath.Join(dir, "x_tb.v"))
		})
	}
}

// check --keep DIR keeps each design's sources and the tools' logs in a
// folder named after it; a DIR that cannot be made is refused before any
// work, exit 2, in one line, and nothing is made.
func TestCheckKeep(t *testing.T) {
	t.Parallel()
	needCheckTools(t)
	dir := t.TempDir()
	keep := filepath.Join(dir, "kept")
	status, out, errOut := prefixgen("check", "-t", "brent-kung", "-n", "4", "--vectors", "10", "--keep", keep)
	require.Equal(t, 0, status, errOut+out)
	for _, f := range []string{"prefix_adder_brent_kung_4.v", "prefix_adder_brent_kung_4_tb.v", "testbench.log", "equivalence.log", "vhdl.log"} {
		assert.FileExists(t, filepath.Join(keep, "prefix_adder_brent_kung_4", f))
	}

	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, args := range [][]string{
		{"check", "-t", "brent-kung", "-n", "4", "--keep", filepath.Join(file, "sub")},
		{"check", "--verilog", filepath.Join(dir, "none.v"), "--keep", filepath.Join(file, "sub")},
		{"check", "-t", "brent-kung", "-n", "4", "--keep", ""},
	} {
		status, out, errOut = prefixgen(args...)
		assert.Equal(t, 2, status, errOut)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
		if args[len(args)-1] != "" {
			assert.Equal(t, "prefixgen check: cannot make the folder "+filepath.Join(file, "sub")+" to keep the checks' files in: not a directory: allowed a folder, or a path where one can be made\n", errOut)
		}
	}
	assert.NoFileExists(t, filepath.Join(file, "sub"))
}

// needCheckTools skips t, naming what is missing, unless every tool check
// runs is installed; with PREFIXGEN_REQUIRE_TOOLS=1 a missing one fails it.
func needCheckTools(t *testing.T) {
	t.Helper()
	if missing := toolcheck.MissingTools(); len(missing) > 0 {
		if os.Getenv("PREFIXGEN_REQUIRE_TOOLS") == "1" {
			t.Fatalf("PREFIXGEN_REQUIRE_TOOLS=1 and %s", strings.Join(missing, "; "))
		}
		t.Skip(strings.Join(missing, "; "))
	}
}

// An adder file of library cells made for a library is checked with that
// library's models, as it was measured: a carry-select adder of ASAP7's
// full adders, and a Sklansky adder of SKY130's NAND2 and OAI21, each
// from a file that names its library, pass every tool with no --liberty.
func TestCheckFromLibraryCells(t *testing.T) {
	t.Parallel()
	needCheckTools(t)
	dir := t.TempDir()
	for _, tc := range []struct{ name, doc string }{
		{"fa", `{"format":"prefixgen.adder/v1","sparse":1,"valency":2,"ling":false,"fa_cells":true,"library":"asap7","flow":"abc",` +
			`"network":{"format":"prefixgen.network/v1","width":6,"topology":"carry-select","params":{"l0":4,"l1":2},` +
			`"cells":[[0,1],[6,2],[7,3],[4,5],[8,4],[8,9]],"outputs":[0,6,7,8,10,11]}}`},
		{"pg", `{"format":"prefixgen.adder/v1","sparse":1,"valency":2,"ling":false,"pg_cells":true,"library":"sky130hd","flow":"keep",` +
			`"network":{"format":"prefixgen.network/v1","width":4,"topology":"sklansky","params":{},` +
			`"cells":[[0,1],[2,3],[4,2],[4,5]],"outputs":[0,4,6,7]}}`},
	} {
		file := filepath.Join(dir, tc.name+".json")
		require.NoError(t, os.WriteFile(file, []byte(tc.doc), 0o644))
		status, out, errOut := prefixgen("check", "--from", file, "--vectors", "100")
		require.Equal(t, 0, status, errOut+out)
		for _, l := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			assert.Regexp(t, `\s(pass|skipped)\s`, l, tc.name)
		}
	}
}
