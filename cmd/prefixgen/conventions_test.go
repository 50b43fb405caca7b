package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/toolcheck"
)

// --version, -v and version print the version, the commit, the Go that
// built prefixgen and every outside tool in a fixed order, with its version
// line or "not found".
func TestVersion(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "yosys")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\necho 'Yosys 9.99 (fake)'\n"), 0o755))
	t.Setenv("PATH", dir)
	var want string
	for _, args := range [][]string{{"--version"}, {"-v"}, {"version"}} {
		status, stdout, stderr := prefixgen(args...)
		require.Equal(t, 0, status, stderr)
		assert.Empty(t, stderr)
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		require.Len(t, lines, 4+len(outsideTools), stdout)
		assert.Equal(t, "prefixgen (devel)", lines[0])
		// A test binary records no commit: the line says why.
		assert.Regexp(t, `^commit (?:[0-9a-f]{40}(?: \(modified\))?|unknown `+regexp.QuoteMeta(noCommit)+`)$`, lines[1])
		assert.True(t, strings.HasPrefix(lines[2], "built with go"), lines[2])
		assert.Equal(t, "outside tools:", lines[3])
		assert.Equal(t, "  yosys      "+fake+": Yosys 9.99 (fake)", lines[4])
		for i, tool := range outsideTools[1:] {
			assert.Equal(t, tool.Program, strings.Fields(lines[5+i])[0], lines[5+i])
			assert.Contains(t, lines[5+i], "not found (needed by ")
		}
		if want == "" {
			want = stdout
		}
		assert.Equal(t, want, stdout, "%s prints what --version prints", args)
	}
	// Every program check runs is listed, as check runs it: Graphviz's
	// neato, not dot (vvp comes with iverilog).
	for _, tool := range toolcheck.Tools {
		if tool.Program != "vvp" {
			assert.True(t, slices.ContainsFunc(outsideTools, func(o outsideTool) bool { return o.Program == tool.Program }), "%s is not listed", tool.Program)
		}
	}
	status, _, stderr := prefixgen("version", "x")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen version: unexpected argument \"x\": this command takes only flags\n", stderr)
	// --version refuses a word after it as version does, and prints
	// nothing else.
	for _, flag := range []string{"--version", "-v"} {
		status, stdout, stderr := prefixgen(flag, "x")
		assert.Equal(t, 2, status, flag)
		assert.Empty(t, stdout, flag)
		assert.Equal(t, "prefixgen: unexpected argument \"x\": --version takes none\n", stderr, flag)
	}
}

// completion prints urfave/cli's scripts for bash and zsh, and the
// completion they ask for lists commands and flags.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh"} {
		status, stdout, stderr := prefixgen("completion", shell)
		require.Equal(t, 0, status, stderr)
		assert.Contains(t, stdout, "--generate-bash-completion")
		assert.Contains(t, stdout, "prefixgen")
	}
	status, _, stderr := prefixgen("completion", "fish")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen completion: unknown shell \"fish\": allowed bash or zsh\n", stderr)
	status, _, stderr = prefixgen("completion")
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, "name one shell")

	// urfave/cli reads the words to complete from os.Args: prefixgen
	// itself runs them.
	complete := func(args ...string) []string {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), mainEnv+"=1")
		out, err := cmd.Output()
		require.NoError(t, err)
		return strings.Fields(string(out))
	}
	assert.Contains(t, complete("--generate-bash-completion"), "synth")
	assert.Contains(t, complete("--generate-bash-completion"), "completion")
	assert.Contains(t, complete("cuda", "--generate-bash-completion"), "emit")
	assert.Contains(t, complete("gen", "--to", "--generate-bash-completion"), "--topology")

	// The scripts pass the word being typed last, empty or not: after a
	// flag that takes a value come its values, never flag names; where
	// the values are files, nothing (the shell lists files); after a
	// command, its own commands or arguments, never help.
	tests := []struct {
		args     []string
		has, not []string
	}{
		{[]string{"stats", "-t", ""}, []string{"sklansky", "kogge-stone", "all"}, []string{"--topology", "help"}},
		{[]string{"stats", "-t", "sk"}, []string{"sklansky"}, []string{"kogge-stone"}},
		{[]string{"gen", "--liberty", ""}, []string{"sky130hd", "asap7", "osu018"}, []string{"--liberty"}},
		{[]string{"stats", "-f", ""}, []string{"table", "json", "csv"}, []string{"--from", "--format"}},
		{[]string{"gen", "-f", ""}, []string{"verilog", "vhdl", "yosys-lcu"}, nil},
		{[]string{"completion", ""}, []string{"bash", "zsh"}, []string{"help", "h"}},
		{[]string{"optimize", "-n", "8", "--max-depth", "3", ""}, nil, []string{"help", "h"}},
		{[]string{"stats", "-o", ""}, nil, []string{"--output", "help"}},
		{[]string{"cuda", ""}, []string{"emit", "bench", "report"}, []string{"help"}},
		{[]string{""}, []string{"synth", "gen"}, nil},
		{[]string{"gen", "--to"}, []string{"--topology"}, nil},
		{[]string{"synth", "--synth", "-"}, []string{"--liberty"}, nil},
		{[]string{"gen", "-t", ""}, []string{"carry-select", "sklansky"}, []string{"all"}},
		{[]string{"cuda", "emit", "-t", ""}, []string{"kogge-stone"}, []string{"all"}},
		{[]string{"stats", "-t", "car"}, []string{"carry-select"}, nil},
		{[]string{"completion", "bash", ""}, nil, []string{"bash", "zsh"}},
		{[]string{"help", "cuda", ""}, []string{"emit", "bench", "report"}, []string{"gen", "synth"}},
		{[]string{"help", ""}, []string{"gen", "cuda"}, nil},
	}
	for _, tt := range tests {
		got := complete(append(tt.args, "--generate-bash-completion")...)
		for _, w := range tt.has {
			assert.Contains(t, got, w, "%q", tt.args)
		}
		for _, w := range tt.not {
			assert.NotContains(t, got, w, "%q", tt.args)
		}
	}
	assert.Empty(t, complete("stats", "-o", "", "--generate-bash-completion"), "files, which the shell lists")
	for _, shell := range []string{"bash", "zsh"} {
		_, script, _ := prefixgen("completion", shell)
		assert.Contains(t, script, `"$typed"`, "%s: the word being typed is passed, empty or not", shell)
	}
}

// A typed name close to a known one gets "did you mean": commands, their
// subcommands, topologies, formats and flags.
func TestDidYouMean(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"synht"}, `prefixgen: unknown command "synht" (did you mean synth?): known are `},
		{[]string{"help", "stast"}, `prefixgen help: unknown command "stast" (did you mean stats?): known are `},
		{[]string{"cuda", "emti"}, `prefixgen cuda: unknown command "emti" (did you mean emit?): known are emit, bench, report`},
		{[]string{"gen", "-t", "kogge-stne", "-n", "8"}, `prefixgen gen: unknown topology "kogge-stne" (did you mean kogge-stone?): known are `},
		{[]string{"stats", "-t", "sklanksy,brent-kung", "-n", "8"}, `prefixgen stats: -t "sklanksy,brent-kung": unknown topology "sklanksy" (did you mean sklansky?): known are `},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilgo"}, `prefixgen gen: unknown format "verilgo" (did you mean verilog?): allowed `},
		{[]string{"stats", "-t", "sklansky", "-n", "8", "-f", "cvs"}, `prefixgen stats: unknown format "cvs" (did you mean csv?): allowed `},
		{[]string{"compare", "-f", "tabel"}, `prefixgen compare: unknown format "tabel" (did you mean table?): allowed `},
		{[]string{"gen", "--widht", "8"}, `prefixgen gen: unknown flag --widht (did you mean --width?)`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			status, stdout, stderr := prefixgen(tt.args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, tt.want), "%q", stderr)
			assert.Equal(t, 1, strings.Count(stderr, "\n"))
		})
	}
	// A name close to none gets no guess.
	_, _, stderr := prefixgen("gen", "-t", "wallace", "-n", "8")
	assert.NotContains(t, stderr, "did you mean")
}

// Every command's help ends with two to four examples, and the cheap ones
// run as written.
func TestHelpExamples(t *testing.T) {
	app := newApp(nil, nil)
	seen := map[string]bool{}
	dir := t.TempDir()
	for _, cmd := range app.Commands {
		if cmd.Name == "help" {
			continue // help --help is prefixgen --help
		}
		names := []string{cmd.Name}
		for _, sub := range cmd.Subcommands {
			names = append(names, cmd.Name+" "+sub.Name)
		}
		for _, name := range names {
			lines := commandExamples[name]
			assert.GreaterOrEqual(t, len(lines), 2, name)
			assert.LessOrEqual(t, len(lines), 4, name)
			status, stdout, stderr := prefixgen(append(strings.Fields(name), "--help")...)
			require.Equal(t, 0, status, stderr)
			_, shown, ok := strings.Cut(stdout, "\nEXAMPLES:\n")
			require.True(t, ok, "%s --help shows examples", name)
			assert.Equal(t, "   "+strings.Join(lines, "\n   ")+"\n", shown, name)
			for _, args := range docCommands("```\n"+strings.Join(lines, "\n")+"\n```\n", seen) {
				if args[0] == "cuda" && args[1] == "report" {
					continue // reads a report only a GPU writes
				}
				wd, err := os.Getwd()
				require.NoError(t, err)
				require.NoError(t, os.Chdir(dir))
				status, _, stderr := prefixgen(args...)
				require.NoError(t, os.Chdir(wd))
				assert.Equal(t, 0, status, "prefixgen %s: %s", strings.Join(args, " "), stderr)
			}
		}
	}
	for name := range commandExamples {
		assert.NotNil(t, app.Command(strings.Fields(name)[0]), name)
	}
}

// -t takes a comma-separated list in every command that takes several
// topologies, and compare -n takes a list of widths.
func TestLists(t *testing.T) {
	one := func(args ...string) string {
		status, stdout, stderr := prefixgen(args...)
		require.Equal(t, 0, status, stderr)
		return stdout
	}
	ks := one("stats", "-t", "kogge-stone", "-n", "16", "-f", "csv")
	bk := one("stats", "-t", "brent-kung", "-n", "16", "-f", "csv")
	_, bkRow, _ := strings.Cut(bk, "\n")
	assert.Equal(t, ks+bkRow, one("stats", "-t", "kogge-stone,brent-kung", "-n", "16", "-f", "csv"))
	assert.True(t, strings.HasPrefix(one("stats", "-t", "kogge-stone,brent-kung", "-n", "16", "-f", "json"), "[\n"))
	assert.True(t, strings.HasPrefix(one("stats", "-t", " all", "-n", "8", "-f", "json"), "[\n"), "-t all with spaces is every topology")
	assert.Equal(t, one("gen", "-f", "yosys-lcu", "-t", "kogge-stone", "--widths", "8"), one("gen", "-f", "yosys-lcu", "-t", " kogge-stone", "--widths", "8"))
	assert.Equal(t, 3, strings.Count(one("verify", "-t", "sklansky, ripple", "-n", "9", "--vectors", "10"), "\n"))
	assert.Equal(t, 3, strings.Count(one("stats", "-t", "sklansky,kogge-stone", "-n", "9", "--valency", "3", "-f", "csv"), "\n"))

	c32 := one("compare", "-n", "32", "-f", "csv")
	c64 := one("compare", "-n", "64", "-f", "csv")
	_, rows64, _ := strings.Cut(c64, "\n")
	assert.Equal(t, c32+rows64, one("compare", "-n", "32,64", "-f", "csv"))

	refused := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "-t", "sklansky,ripple", "-n", "8"}, `prefixgen gen: -t "sklansky,ripple": this command takes one topology: allowed ripple, `},
		{[]string{"gen", "-t", "all", "-n", "8"}, `prefixgen gen: -t "all": this command takes one topology`},
		// Spaces around all, as around any name: still all.
		{[]string{"gen", "-t", " all", "-n", "8"}, `prefixgen gen: -t " all": this command takes one topology`},
		{[]string{"cuda", "emit", "-t", "all ", "-n", "8"}, `prefixgen cuda emit: -t "all ": this command takes one topology`},
		{[]string{"gen", "-t", " all", "-n", "8", "--valency", "3"}, `prefixgen gen: --valency 3 does not apply to -t all`},
		{[]string{"gen", "-f", "yosys-lcu", "-t", "kogge-stone", "--widths", "8", "--valency", "3", "--param", "k=1"}, `prefixgen gen: --param does not apply to --valency`},
		{[]string{"gen", "-f", "yosys-lcu", "-t", "kogge-stone,sklansky", "--widths", "8"}, `prefixgen gen: -t "kogge-stone,sklansky": this command takes one topology`},
		{[]string{"synth", "-t", "sklansky,all", "-n", "8"}, `prefixgen synth: -t "sklansky,all": all cannot be listed with other topologies`},
		{[]string{"check", "-t", "sklansky,sklansky", "-n", "8"}, `prefixgen check: -t "sklansky,sklansky": "sklansky" given twice: allowed each topology once`},
		{[]string{"stats", "-t", "sklansky,ripple", "-n", "8", "--valency", "3"}, `prefixgen stats: --valency 3: ripple has no higher-valency form`},
		{[]string{"compare", "-n", "8,8"}, `prefixgen compare: -n "8,8": width 8 given twice: allowed each width once`},
		{[]string{"optimize", "-n", "40", "--max-depth", "7", "--seed", "9223372036854775808"}, `prefixgen optimize: seed 9223372036854775808 out of range: allowed 0 to 9223372036854775807`},
		{[]string{"explore", "-n", "16", "--seed", "9223372036854775808"}, `prefixgen explore: --seed 9223372036854775808 out of range: allowed 0 to 9223372036854775807`},
		{[]string{"report", "-n", "16", "--seed", "18446744073709551615"}, `prefixgen report: --seed 18446744073709551615 out of range: allowed 0 to 9223372036854775807`},
		{[]string{"explore", "-n", "16", "--no-optimize", "--seed", "5"}, `prefixgen explore: --seed applies to the optimizer's networks: allowed without --no-optimize`},
		{[]string{"explore", "-n", "4", "--synth", "--valency", "3", "--seed", "5"}, `prefixgen explore: --seed applies to the optimizer's networks, of binary cells, which --valency 3 leaves out: allowed --valency with 2 among its valencies`},
		{[]string{"report", "-n", "16", "--no-optimize", "--seed", "9223372036854775808"}, `prefixgen report: --seed applies to the optimizer's networks: allowed without --no-optimize`},
		{[]string{"gen", "-t", " ", "-n", "8"}, `prefixgen gen: -t " " names no topology: allowed one of ripple, `},
		{[]string{"stats", "-t", " ", "-n", "8"}, `prefixgen stats: -t " " names no topology at place 1 of its list: allowed names of ripple, `},
		{[]string{"synth", "-t", "sklansky,,ripple", "-n", "8"}, `prefixgen synth: -t "sklansky,,ripple" names no topology at place 2 of its list: allowed names of ripple, `},
		{[]string{"compare", "-n", "8,0x10"}, `prefixgen compare: -n "8,0x10": "0x10" at place 2 of its list: want a whole number in decimal digits`},
		{[]string{"compare", "-n", "8,,16"}, `prefixgen compare: -n "8,,16" names no width at place 2 of its list: allowed whole numbers separated by commas`},
		{[]string{"compare", "-n", "8,x"}, `prefixgen compare: -n "8,x": "x" at place 2 of its list: want a whole number`},
		// gen --widths takes ranges; compare -n does not, and says so.
		{[]string{"compare", "-n", "1-3"}, `prefixgen compare: -n "1-3" is a range, which -n does not take: allowed widths separated by commas, as 1,2,3`},
		{[]string{"compare", "-n", "8,16-32"}, `prefixgen compare: -n "8,16-32": "16-32" at place 2 of its list is a range, which -n does not take: allowed widths separated by commas`},
		{[]string{"stats", "-t", "ladner-fischer", "-n", "8", "--param", "k=1,,k=2"}, `prefixgen stats: --param names nothing at place 2 of its list: allowed a value between each two commas`},
		{[]string{"optimize", "-n", "8", "--max-delay-ns", "9", "--start", "a.json", "--start", ""}, `prefixgen optimize: --start names nothing at place 2 of its list: allowed a value between each two commas`},
		{[]string{"optimize", "-n", "8", "--max-delay-ns", "9", "--start", ""}, `prefixgen optimize: --start is empty: allowed a value`},
		// "-" is standard input elsewhere; no file of outside input is read from it.
		{[]string{"synth", "--verilog", "-"}, `prefixgen synth: cannot read --verilog -: standard input is not read: allowed a file's path`},
		{[]string{"check", "--vhdl", "-"}, `prefixgen check: cannot read --vhdl -: standard input is not read: allowed a file's path`},
		{[]string{"optimize", "-n", "8", "--max-delay", "20", "--arrival", "-"}, `prefixgen optimize: cannot read --arrival -: standard input is not read: allowed a file's path`},
		{[]string{"cuda", "report", "-"}, `prefixgen cuda report: cannot read report -: standard input is not read: allowed a file's path`},
		// A value left out: the next flag taken for it is named.
		{[]string{"synth", "-t", "sklansky", "-n", "8", "--liberty", "--flow", "abc"}, `prefixgen synth: --liberty took --flow, another flag of prefixgen synth, as its value: allowed --liberty VALUE`},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-o", "-f", "verilog"}, `prefixgen gen: -o/--output took -f, another flag of prefixgen gen, as its value`},
		{[]string{"explore", "-n", "8", "--synth", "--with", "--plot=x.svg"}, `prefixgen explore: --with took --plot=x.svg, another flag of prefixgen explore, as its value`},
		{[]string{"map", "x.v", "./x.v", "--top", "x", "--clock-period", "5"}, `prefixgen map: design file ./x.v given twice (as x.v): allowed each file once`},
		{[]string{"map", "x.v", "--top", "", "--clock-period", "5"}, `prefixgen map: --top is empty: allowed the name of the design's top module, which map needs`},
		{[]string{"compare", "-n", "8,0"}, `prefixgen compare: width 0 out of range: allowed 1…1073741824`},
		{[]string{"stats", "-t", "all", "-n", "0"}, `prefixgen stats: width 0 out of range: allowed 1…1073741824`},
	}
	for _, tt := range refused {
		status, stdout, stderr := prefixgen(tt.args...)
		assert.Equal(t, 2, status, "%v: %s", tt.args, stderr)
		assert.Empty(t, stdout)
		assert.True(t, strings.HasPrefix(stderr, tt.want), "%v: %q", tt.args, stderr)
	}
}

// A flag that takes one value is refused when given twice, under one name
// or two; a flag that takes a list stays repeatable.
func TestRepeatedFlagRefused(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"stats", "-t", "sklansky", "-n", "32", "-n", "64"}, `prefixgen stats: --width given twice ("32", then "64"): it takes one value; give it once`},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "json", "-f=text"}, `prefixgen gen: --format given twice ("json", then "text"): it takes one value; give it once`},
		{[]string{"compare", "--width=8", "--width", "16"}, `prefixgen compare: --width given twice ("8", then "16")`},
		{[]string{"cuda", "emit", "-t", "sklansky", "-t", "ripple"}, `prefixgen cuda emit: --topology given twice ("sklansky", then "ripple")`},
		{[]string{"verify", "-t", "sklansky", "-n", "8", "--seed", "1", "--seed", "2"}, `prefixgen verify: --seed given twice ("1", then "2")`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			status, stdout, stderr := prefixgen(tt.args...)
			assert.Equal(t, 2, status, stderr)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, tt.want), "%q", stderr)
			assert.Equal(t, 1, strings.Count(stderr, "\n"))
		})
	}
	status, _, stderr := prefixgen("stats", "-t", "ladner-fischer,knowles", "-n", "16", "--param", "k=1", "--param", "s=2")
	assert.Equal(t, 0, status, stderr)
	status, _, stderr = prefixgen("stats", "-t", "sklansky", "-n", "16", "--bit0-left", "--bit0-left")
	assert.Equal(t, 2, status, stderr) // stats has no --bit0-left
	status, _, stderr = prefixgen("gen", "-t", "sklansky", "-n", "8", "--bit0-left", "--bit0-left")
	assert.Equal(t, 0, status, stderr)
	status, _, stderr = prefixgen("gen", "-t", "sklansky", "-n", "8", "--", "-n", "9")
	assert.Equal(t, 2, status)
	assert.NotContains(t, stderr, "given twice")
}

// An output that names a file the command reads is refused before the
// file is read, as gcc refuses -o naming its input: written whole, it
// would replace the input.
func TestOutputNamesInput(t *testing.T) {
	dir := t.TempDir()
	net := filepath.Join(dir, "net.json")
	status, _, stderr := prefixgen("gen", "-t", "sklansky", "-n", "8", "-f", "json", "-o", net)
	require.Equal(t, 0, status, stderr)
	orig, err := os.ReadFile(net)
	require.NoError(t, err)
	v := filepath.Join(dir, "add.v")
	require.NoError(t, os.WriteFile(v, []byte("module add(input [3:0] a, b, output [4:0] s);\n  assign s = a + b;\nendmodule\n"), 0o644))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(net, link))
	require.NoError(t, os.Symlink(".", filepath.Join(dir, "here")))
	work := filepath.Join(dir, "work")
	libs := filepath.Join(dir, "libs") // a --liberty folder
	require.NoError(t, os.Mkdir(libs, 0o755))
	libFile := filepath.Join(libs, "cells.lib")
	require.NoError(t, os.WriteFile(libFile, []byte("library (cells) { }\n"), 0o644))
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "--from", net, "-f", "verilog", "-o", net}, `prefixgen gen: -o ` + net + ` is the file --from reads: allowed an output apart from the input`},
		{[]string{"gen", "--from", net, "-f", "verilog", "-o", link}, `prefixgen gen: -o ` + link + ` is the file --from reads`},
		{[]string{"stats", "--from", net, "-f", "json", "-o", net}, `prefixgen stats: -o ` + net + ` is the file --from reads`},
		{[]string{"synth", "--verilog", v, "-o", v}, `prefixgen synth: -o ` + v + ` is the file --verilog reads`},
		{[]string{"synth", "-t", "ripple", "-n", "4", "--liberty", v, "-o", v}, `prefixgen synth: -o ` + v + ` is the file --liberty reads`},
		{[]string{"explore", "-n", "8", "--synth", "--plot", net, "--with", net}, `prefixgen explore: --plot ` + net + ` is the file --with reads`},
		{[]string{"map", v, "--top", "add", "--clock-period", "1", "-o", v}, `prefixgen map: -o ` + v + ` is the file map reads: allowed an output apart from the input`},
		{[]string{"map", v, "--top", "add", "--clock-period", "1", "--generic-out", v}, `prefixgen map: --generic-out ` + v + ` is the file map reads`},
		{[]string{"cuda", "emit", "--from", net, "-o", net}, `prefixgen cuda emit: -o ` + net + ` is the file --from reads`},
		{[]string{"cuda", "report", "--plot", net, net}, `prefixgen cuda report: --plot ` + net + ` is the file cuda report reads`},
		{[]string{"optimize", "-n", "8", "--max-area-um2", "100", "--start", net, "-o", net}, `prefixgen optimize: -o ` + net + ` is the file --start reads`},
		{[]string{"synth", "-t", "ripple", "-n", "4", "--liberty", libs, "-o", libFile}, `prefixgen synth: -o ` + libFile + ` is a Liberty file of the folder --liberty reads: allowed an output apart from the library's files`},
		{[]string{"synth", "-t", "ripple", "-n", "4", "--liberty", libs, "-o", filepath.Join(libs, "new.lib.gz")}, `prefixgen synth: -o ` + filepath.Join(libs, "new.lib.gz") + ` is a Liberty file of the folder --liberty reads`},
		{[]string{"synth", "-t", "ripple", "-n", "4", "--liberty", libs, "--workdir", libs}, `prefixgen synth: --workdir ` + libs + ` is the folder --liberty reads, where the run would write a Liberty file: allowed a work folder apart from the library's`},
		{[]string{"synth", "-t", "ripple", "-n", "4", "-o", work, "--workdir", work}, `prefixgen synth: -o ` + work + ` is in the folder --workdir writes: allowed an output outside it`},
		{[]string{"synth", "-t", "ripple", "-n", "4", "-o", filepath.Join(work, "ripple"), "--workdir", work}, `prefixgen synth: -o ` + filepath.Join(work, "ripple") + ` is in the folder --workdir writes`},
		{[]string{"explore", "-n", "4", "--synth", "--plot", work + ".svg", "--workdir", work + ".svg"}, `prefixgen explore: --plot ` + work + `.svg is in the folder --workdir writes`},
		{[]string{"map", v, "--top", "add", "--clock-period", "1", "-o", filepath.Join(dir, "here", "w", "x.v"), "--workdir", filepath.Join(dir, "w")}, `prefixgen map: -o ` + filepath.Join(dir, "here", "w", "x.v") + ` is in the folder --workdir writes`},
	}
	for _, tt := range tests {
		status, stdout, stderr := prefixgen(tt.args...)
		assert.Equal(t, 2, status, "%v: %s", tt.args, stderr)
		assert.Empty(t, stdout)
		assert.True(t, strings.HasPrefix(stderr, tt.want), "%v: %q", tt.args, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "%v", tt.args)
		now, err := os.ReadFile(net)
		require.NoError(t, err)
		assert.Equal(t, orig, now, "%v: the input as it was", tt.args)
		assert.NoFileExists(t, work)
		assert.NoDirExists(t, work)
		assert.NoDirExists(t, work+".svg")
		lib, err := os.ReadFile(libFile)
		require.NoError(t, err)
		assert.Equal(t, "library (cells) { }\n", string(lib), "%v: the library as it was", tt.args)
		names, err := os.ReadDir(libs)
		require.NoError(t, err)
		assert.Len(t, names, 1, "%v: nothing written beside the library", tt.args)
	}

	// A FIFO is read and written in place, as /dev/stdin and /dev/stdout
	// may both be one terminal: not refused as one file (this run is
	// refused for another reason, before it opens either).
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	status, _, stderr = prefixgen("gen", "-t", "sklansky", "-n", "4", "-f", "json", "--liberty", fifo, "-o", fifo)
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, "--liberty applies to")
}

// An -o that cannot be written is refused before any work: with
// --progress, a run that worked first would have drawn its bar.
func TestOutputRefusedBeforeWork(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"compare", "-n", "256"},
		{"optimize", "-n", "64", "--max-depth", "8"},
	} {
		status, stdout, stderr := prefixgen(append(args, "--progress", "-o", dir)...)
		assert.Equal(t, 2, status, "%v: %s", args, stderr)
		assert.Empty(t, stdout)
		assert.Equal(t, "prefixgen "+args[0]+": cannot write "+dir+": it is a directory: name a file\n", stderr, "%v", args)
	}
}

// No help carries a measured time or memory, which would go stale: those
// are in docs/.
func TestHelpTimeless(t *testing.T) {
	measured := regexp.MustCompile(`\b[0-9]+(\.[0-9]+)? ?(s|ms|µs|minutes|seconds|GB|MB)\b`)
	app := newApp(nil, nil)
	helps := [][]string{{"--help"}}
	for _, cmd := range app.Commands {
		helps = append(helps, []string{cmd.Name, "--help"})
		for _, sub := range cmd.Subcommands {
			helps = append(helps, []string{cmd.Name, sub.Name, "--help"})
		}
	}
	for _, args := range helps {
		status, stdout, stderr := prefixgen(args...)
		require.Equal(t, 0, status, stderr)
		for line := range strings.Lines(stdout) {
			if strings.Contains(line, "--tool-timeout") {
				continue // its examples (90s, 20m) and default are durations, not timings
			}
			assert.NotRegexp(t, measured, line, "%v", args)
		}
	}
}

// withFlags returns base, a command line whose flags all take a value,
// without the flags extra gives, followed by extra: extra overrides base's
// flags, which a command line may give only once.
func withFlags(base []string, extra ...string) []string {
	given := map[string]bool{}
	for _, a := range extra {
		if strings.HasPrefix(a, "-") {
			given[a] = true
		}
	}
	var out []string
	for i := 0; i < len(base); i++ {
		if given[base[i]] && i+1 < len(base) {
			i++
			continue
		}
		out = append(out, base[i])
	}
	return append(out, extra...)
}

// The package's doc names every command: its usage block had fallen six
// commands behind.
func TestDocNamesCommands(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	for _, cmd := range newApp(nil, nil).Commands {
		if cmd.Name != "help" {
			assert.Regexp(t, `\b`+regexp.QuoteMeta(cmd.Name)+`\b`, string(doc), cmd.Name)
		}
	}
}
