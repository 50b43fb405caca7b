package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
)

func TestFlagsFirst(t *testing.T) {
	cmd := mapCommand()
	tests := []struct {
		in, want []string
	}{
		{[]string{"a.v", "b.v", "--top", "t", "--check", "-I", "inc", "--clock-period=3"},
			[]string{"--top", "t", "--check", "-I", "inc", "--clock-period=3", "--", "a.v", "b.v"}},
		{[]string{"--top", "t", "a.v"}, []string{"--top", "t", "--", "a.v"}},
		{[]string{"--help"}, []string{"--help"}},
		{[]string{"a.v", "--", "-odd.v"}, []string{"--", "a.v", "-odd.v"}},
		// A last flag without its value stays last, so that it is told
		// so, rather than taking "--" for its value.
		{[]string{"a.v", "--top", "t", "-o"}, []string{"--top", "t", "-o"}},
		{[]string{"a.v", "--top", "--clock-period", "5"}, []string{"--top"}},
		{[]string{"a.v", "--clock-period", "-2", "-o", "-"}, []string{"--clock-period", "-2", "-o", "-", "--", "a.v"}},
		// The shell's completion asks with its flag last.
		{[]string{"a.v", "-", "--generate-bash-completion"}, []string{"a.v", "-", "--generate-bash-completion"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, flagsFirst(cmd, tt.in), "%q", tt.in)
	}
	// Every flag that takes a value is known as one.
	for _, f := range cmd.Flags {
		if _, ok := f.(*cli.BoolFlag); ok {
			continue
		}
		got := flagsFirst(cmd, []string{"x.v", "--" + f.Names()[0], "v"})
		assert.Equal(t, []string{"--" + f.Names()[0], "v", "--", "x.v"}, got)
	}
}

func TestMapCommand(t *testing.T) {
	tooltest.Path(t, "yosys")
	tooltest.Path(t, "sta")
	tooltest.Flow(t, physical.LibertyFile(""))
	t.Parallel()
	dir := t.TempDir()
	design := filepath.Join("..", "..", "designmap", "testdata")
	mac, none := filepath.Join(design, "mac.v"), filepath.Join(design, "noadder.v")
	netlist, generic := filepath.Join(dir, "mac.mapped.v"), filepath.Join(dir, "mac.generic.v")

	status, stdout, stderr := prefixgen("map", mac, "--top", "mac", "--clock-period", "3", "--rounds", "1", "-o", netlist, "--generic-out", generic, "--quiet")
	require.Equal(t, 0, status, stderr)
	assert.Contains(t, stdout, "prefixgen_lcu_0")
	assert.Contains(t, stdout, "worst path (ns)")
	for _, f := range []string{netlist, generic} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.True(t, strings.Contains(string(b), "module mac("), "%s holds no module mac", f)
	}

	status, stdout, stderr = prefixgen("map", none, "--top", "noadder", "--clock-period", "3", "-o", filepath.Join(dir, "none.v"), "--quiet")
	require.Equal(t, 0, status, stderr)
	assert.Contains(t, stderr, "no adders in noadder")
	assert.Contains(t, stdout, "no adders in the design")
	assert.FileExists(t, filepath.Join(dir, "none.v"))

	// Without --clock, a design of no clock and no registers is timed
	// against a virtual clock; with it, the port must be there.
	comb := filepath.Join(design, "comb.v")
	status, stdout, stderr = prefixgen("map", comb, "--top", "comb", "--clock-period", "1", "--rounds", "1", "--quiet")
	require.Equal(t, 0, status, stderr)
	assert.Contains(t, stdout, "against a virtual clock of 1 ns")
	status, _, stderr = prefixgen("map", comb, "--top", "comb", "--clock-period", "1", "--clock", "clk")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen map: clock \"clk\" is not an input of comb: allowed an input port (--clock)\n", stderr)

	// A .sv file is read as SystemVerilog.
	sv := filepath.Join(dir, "acc.sv")
	require.NoError(t, os.WriteFile(sv, []byte("module acc(input logic clk, input logic [7:0] a, b, output logic [7:0] s);\n  always_ff @(posedge clk) s <= a + b;\nendmodule\n"), 0o644))
	status, stdout, stderr = prefixgen("map", sv, "--top", "acc", "--clock-period", "2", "--rounds", "1", "--quiet")
	require.Equal(t, 0, status, stderr)
	assert.Regexp(t, `prefixgen_lcu_0 +8 `, stdout)

	bad := filepath.Join(dir, "bad.v")
	require.NoError(t, os.WriteFile(bad, []byte("module bad(input a, output y);\n  assign y = a +;\nendmodule\n"), 0o644))
	wide := filepath.Join(dir, "wide.v")
	require.NoError(t, os.WriteFile(wide, []byte("module wide(input [1024:0] a, b, output [1024:0] s);\n  assign s = a + b;\nendmodule\n"), 0o644))
	out := filepath.Join(dir, "refused.v")
	macText, err := os.ReadFile(mac)
	require.NoError(t, err)
	own := filepath.Join(dir, "own.v") // a design an output might overwrite
	require.NoError(t, os.WriteFile(own, macText, 0o644))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no design", []string{"--top", "mac", "--clock-period", "3"}, "prefixgen map: no design given"},
		{"no top", []string{mac, "--clock-period", "3"}, "prefixgen map: no top module given"},
		{"no period", []string{mac, "--top", "mac"}, "prefixgen map: no clock period given"},
		{"zero period", []string{mac, "--top", "mac", "--clock-period", "0"}, "prefixgen map: clock period 0 ns: allowed a positive number of ns"},
		{"negative period", []string{mac, "--top", "mac", "--clock-period", "-2"}, "prefixgen map: clock period -2 ns"},
		{"unknown top", []string{mac, "--top", "nosuch", "--clock-period", "3"}, "nosuch"},
		{"no such clock", []string{mac, "--top", "mac", "--clock-period", "3", "--clock", "ck"}, `prefixgen map: clock "ck" is not an input of mac`},
		{"syntax error", []string{bad, "--top", "bad", "--clock-period", "3"}, "syntax error"},
		{"rounds", []string{mac, "--top", "mac", "--clock-period", "3", "--rounds", "0"}, "prefixgen map: --rounds 0: allowed 1 to 1000"},
		{"same outputs", []string{mac, "--top", "mac", "--clock-period", "3", "-o", out, "--generic-out", out}, "name the same file"},
		{"output over the design", []string{own, "--top", "mac", "--clock-period", "3", "-o", out, "--generic-out", own}, "prefixgen map: --generic-out " + own + " is the file map reads: allowed an output apart from the input"},
		{"a top that is no name", []string{mac, "--top", "mac; stat", "--clock-period", "3"}, `prefixgen map: top module "mac; stat": allowed the name of a module, a Verilog identifier`},
		{"an adder too wide", []string{wide, "--top", "wide", "--clock-period", "3"}, "prefixgen map: the design has an adder of 1025 bits: allowed adders of 1 to 1024 bits"},
		{"a define that ends a command", []string{mac, "--top", "mac", "--clock-period", "3", "-D", "W=5;"}, `prefixgen map: define "W=5;": allowed NAME or NAME=VALUE, NAME an identifier, VALUE without spaces, quotes, ; or #`},
		{"a define with a comment", []string{mac, "--top", "mac", "--clock-period", "3", "-D", "W=5#x"}, `prefixgen map: define "W=5#x": allowed`},
		{"rounds past any search", []string{mac, "--top", "mac", "--clock-period", "3", "--rounds", "1001"}, "prefixgen map: --rounds 1001: allowed 1 to 1000"},
		{"a top named as map's own modules", []string{mac, "--top", "prefixgen_net_0", "--clock-period", "3"}, `prefixgen map: top module "prefixgen_net_0": allowed a name that does not begin with prefixgen_, which map's own modules take`},
		{"a period too short", []string{mac, "--top", "mac", "--clock-period", "0.0001"}, "prefixgen map: clock period 0.0001 ns: allowed 0.001 to 100000 ns"},
		{"a period too long", []string{mac, "--top", "mac", "--clock-period", "1e7"}, "prefixgen map: clock period 1e+07 ns: allowed 0.001 to 100000 ns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"map"}, tt.args...)
			if !strings.Contains(strings.Join(tt.args, " "), out) {
				args = append(args, "-o", out)
			}
			status, _, stderr := prefixgen(args...)
			assert.Equal(t, 2, status, stderr)
			assert.Contains(t, stderr, tt.want)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
			assert.NoFileExists(t, out)
			got, err := os.ReadFile(own)
			require.NoError(t, err)
			assert.Equal(t, string(macText), string(got), "the design is as it was")
		})
	}
}

// TestMapStopsAtFirstFailure: a synthesis that fails stops the others of
// the run, as synth's do: a tool hung beside it is killed, not waited for
// until its time limit. With a stand-in Yosys whose first synthesis
// succeeds, second fails and the rest hang, map had waited out the whole
// --tool-timeout.
func TestMapStopsAtFirstFailure(t *testing.T) {
	yosys := tooltest.Path(t, "yosys")
	tooltest.Path(t, "sta")
	tooltest.Flow(t, physical.LibertyFile(""))
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	require.NoError(t, os.Mkdir(bin, 0o755))
	script := "#!/bin/sh\ncase \" $* \" in *\" map.ys \"*)\n" +
		"  if mkdir " + filepath.Join(dir, "first") + " 2>/dev/null; then :\n" +
		"  elif mkdir " + filepath.Join(dir, "second") + " 2>/dev/null; then echo 'ERROR: stand-in failure' >&2; exit 3\n" +
		"  else exec sleep 100; fi;;\nesac\nexec " + yosys + " \"$@\"\n"
	require.NoError(t, os.WriteFile(filepath.Join(bin, "yosys"), []byte(script), 0o755))
	design := filepath.Join("..", "..", "designmap", "testdata", "mac.v")
	cmd := exec.Command(os.Args[0], "map", design, "--top", "mac", "--clock-period", "3", "--rounds", "1", "--tool-timeout", "90s", "--quiet")
	cmd.Env = append(os.Environ(), mainEnv+"=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	exit, ok := errors.AsType[*exec.ExitError](err)
	require.True(t, ok, "exit status: %v\n%s", err, stderr.String())
	assert.Equal(t, 1, exit.ExitCode(), stderr.String())
	assert.Contains(t, stderr.String(), "stand-in failure")
	assert.NotContains(t, stderr.String(), "time limit")
	assert.Less(t, elapsed, 60*time.Second, "the hung synthesis waited for")
}
