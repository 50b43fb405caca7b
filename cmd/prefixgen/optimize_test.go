package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
)

// TestOptimize runs optimize in every format: the JSON is a network that gen
// --from reads back with the figures the table printed, within the bounds,
// and the same command prints the same bytes.
func TestOptimize(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "best.json")
	status, out, errOut := prefixgen("optimize", "-n", "32", "--max-depth", "6", "-f", "json", "-o", path)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	assert.Empty(t, errOut)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	net, err := network.Read(f)
	require.NoError(t, err)
	figs := net.Figures()
	assert.LessOrEqual(t, figs.Depth, 6)
	// Zero deficiency exists at depth 6 for 32 inputs: 2·32 − 2 − 6 cells.
	assert.Equal(t, 56, figs.Size)
	assert.Equal(t, "optimizer", net.Topology())
	assert.Equal(t, network.Params{"max_depth": 6, "seed": 1}, net.Params())

	status, stats, errOut := prefixgen("stats", "--from", path)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, stats, "optimizer max_depth=6 seed=1")

	status, table, errOut := prefixgen("optimize", "-n", "32", "--max-depth", "6")
	require.Equal(t, 0, status, errOut)
	lines := strings.Split(table, "\n")
	require.GreaterOrEqual(t, len(lines), 4, table)
	assert.Equal(t, []string{"optimizer", "max_depth=6", "seed=1", "32", "6", "56", "7", "1", "0"}, strings.Fields(lines[1]))
	assert.Contains(t, table, "found by: zero-deficiency d=6")
	assert.Contains(t, table, "Snir's bound at depth ≤ 6: size ≥ 56")
	_, again, _ := prefixgen("optimize", "-n", "32", "--max-depth", "6")
	assert.Equal(t, table, again)

	status, text, errOut := prefixgen("optimize", "-n", "8", "--max-depth", "3", "-f", "text")
	require.Equal(t, 0, status, errOut)
	assert.NotEmpty(t, text)
}

// TestOptimizeBeatsFamilies checks that at 64 inputs and depth 7 the
// optimizer prints a network smaller than every named family, and says which
// named network it beat.
func TestOptimizeBeatsFamilies(t *testing.T) {
	status, out, errOut := prefixgen("optimize", "-n", "64", "--max-depth", "7", "--max-fanout", "40")
	require.Equal(t, 0, status, errOut)
	lines := strings.Split(out, "\n")
	require.GreaterOrEqual(t, len(lines), 3, out)
	opt, named := strings.Fields(lines[1]), strings.Fields(lines[2])
	// name fields, then width, depth, size, fan-out, tracks, deficiency.
	size := func(f []string) string { return f[len(f)-4] }
	assert.Equal(t, "125", size(opt), out)
	assert.Equal(t, "137", size(named), out)
	assert.Contains(t, lines[2], "ladner-fischer k=1")
}

// TestOptimizeDelay runs optimize under a model delay bound: the table adds
// the model's delay and area, and the JSON network's stats meet the bound.
func TestOptimizeDelay(t *testing.T) {
	status, table, errOut := prefixgen("optimize", "-n", "16", "--max-delay", "8.5")
	require.Equal(t, 0, status, errOut)
	lines := strings.Split(table, "\n")
	assert.Equal(t, []string{"network", "width", "depth", "size", "max", "fan-out", "wire", "tracks", "deficiency", "delay", "(FO4)", "area", "(model,", "µm²)"}, strings.Fields(lines[0]))
	fields := strings.Fields(lines[1])
	require.Len(t, fields, 11)
	d, err := strconv.ParseFloat(fields[9], 64)
	require.NoError(t, err)
	assert.LessOrEqual(t, d, 8.5)
	assert.Equal(t, "max_depth=8", fields[1], "the depth bound defaults to 2⌈log2 N⌉")
}

func TestOptimizeBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"depth too small", []string{"-n", "128", "--max-depth", "6"},
			"prefixgen optimize: no network of width 128 has depth 6 or less: the least depth is ⌈log2 128⌉ = 7"},
		{"too wide", []string{"-n", "1025", "--max-depth", "11"},
			"prefixgen optimize: width 1025 out of range: allowed 1…1024"},
		{"fan-out 1", []string{"-n", "16", "--max-depth", "4", "--max-fanout", "1"},
			"prefixgen optimize: no network of width 16 has fan-out 1: input 0 is output 0 and feeds a cell; allowed --max-fanout 3 or more at depth 4"},
		{"fan-out 1 at ripple's depth", []string{"-n", "16", "--max-depth", "15", "--max-fanout", "1"},
			"prefixgen optimize: no network of width 16 has fan-out 1: input 0 is output 0 and feeds a cell; allowed --max-fanout 2 or more at depth 15"},
		{"fan-out 2 below ripple's depth", []string{"-n", "32", "--max-depth", "5", "--max-fanout", "2"},
			"prefixgen optimize: no network of width 32, depth ≤ 5 has fan-out ≤ 2: fan-out 2 forces ripple, of depth 31; allowed --max-fanout 3 or more at depth 5, or --max-depth 31 for ripple"},
		{"fan-out 2 one below ripple", []string{"-n", "32", "--max-depth", "30", "--max-fanout", "2"},
			"prefixgen optimize: no network of width 32, depth ≤ 30 has fan-out ≤ 2: fan-out 2 forces ripple, of depth 31; allowed --max-fanout 3 or more at depth 30, or --max-depth 31 for ripple"},
		{"negative fan-out", []string{"-n", "16", "--max-depth", "4", "--max-fanout", "-1"},
			"prefixgen optimize: max fan-out -1 out of range: allowed 0 (no bound), or 3 or more at width 16 and depth ≤ 4"},
		{"negative fan-out at ripple's depth", []string{"-n", "16", "--max-depth", "15", "--max-fanout", "-2"},
			"prefixgen optimize: max fan-out -2 out of range: allowed 0 (no bound), or 2 or more at width 16 and depth ≤ 15"},
		{"negative fan-out of one input", []string{"-n", "1", "--max-depth", "0", "--max-fanout", "-1"},
			"prefixgen optimize: max fan-out -1 out of range: allowed 0 (no bound), or 1 or more at width 1 and depth ≤ 0"},
		{"negative fan-out, depth too small", []string{"-n", "16", "--max-depth", "3", "--max-fanout", "-1"},
			"prefixgen optimize: no network of width 16 has depth 3 or less: the least depth is ⌈log2 16⌉ = 4"},
		{"delay below the one network of width 1", []string{"-n", "1", "--max-delay", "1"},
			"prefixgen optimize: no network of width 1 has a model delay ≤ 1 FO4: the only one takes 2.214 FO4; allowed a bound of 2.22 FO4 or more"},
		{"delay below the one network of width 2", []string{"-n", "2", "--max-delay", "2.43", "--objective", "delay"},
			"prefixgen optimize: no network of width 2 has a model delay ≤ 2.43 FO4: the only one takes 2.438 FO4; allowed a bound of 2.44 FO4 or more"},
		{"no depth", []string{"-n", "16"}, "prefixgen optimize: --max-depth D is required (or --max-delay, or --objective delay)"},
		{"flow without ns", []string{"-n", "16", "--max-depth", "5", "--flow", "abc"}, "prefixgen optimize: --flow applies only with --max-delay-ns or --max-area-um2"},
		{"ns and objective", []string{"-n", "16", "--max-delay-ns", "1", "--objective", "delay"},
			"prefixgen optimize: --max-delay-ns takes neither --max-delay nor --objective: it minimizes the area measured"},
		{"negative ns", []string{"-n", "16", "--max-delay-ns", "-1"}, "prefixgen optimize: --max-delay-ns -1 out of range: allowed a positive number of ns, up to 1000000"},
		{"huge ns", []string{"-n", "16", "--max-delay-ns", "1e308"}, "prefixgen optimize: --max-delay-ns 1e+308 out of range: allowed a positive number of ns, up to 1000000"},
		{"ns just past the limit", []string{"-n", "16", "--max-delay-ns", "1000001"}, "prefixgen optimize: --max-delay-ns 1.000001e+06 out of range: allowed a positive number of ns, up to 1000000"},
		{"ns and area", []string{"-n", "16", "--max-delay-ns", "1", "--max-area-um2", "3000"},
			"prefixgen optimize: --max-delay-ns and --max-area-um2 both given: use one (the least area within a delay, or the least delay within an area)"},
		{"area and max-delay", []string{"-n", "16", "--max-area-um2", "3000", "--max-delay", "20"},
			"prefixgen optimize: --max-area-um2 takes neither --max-delay nor --objective: it minimizes the delay measured"},
		{"zero area", []string{"-n", "16", "--max-area-um2", "0"}, "prefixgen optimize: --max-area-um2 0 out of range: allowed a positive number of µm², up to 1000000000000"},
		{"huge area", []string{"-n", "16", "--max-area-um2", "1e308"}, "prefixgen optimize: --max-area-um2 1e+308 out of range: allowed a positive number of µm², up to 1000000000000"},
		{"area just past the limit", []string{"-n", "16", "--max-area-um2", "1000000000001"}, "prefixgen optimize: --max-area-um2 1.000000000001e+12 out of range: allowed a positive number of µm², up to 1000000000000"},
		{"NaN area", []string{"-n", "16", "--max-area-um2", "NaN"}, `prefixgen optimize: invalid value "NaN" for flag --max-area-um2: want a number in decimal digits, as 1.5 or 2e-3 (see prefixgen optimize --help)`},
		{"hex float", []string{"-n", "16", "--max-delay", "0x1p-2"}, `prefixgen optimize: invalid value "0x1p-2" for flag --max-delay: want a number in decimal digits, as 1.5 or 2e-3 (see prefixgen optimize --help)`},
		{"sparse without ns", []string{"-n", "16", "--max-depth", "5", "--sparse", "4"}, "prefixgen optimize: --sparse applies only with --max-delay-ns or --max-area-um2"},
		{"bad sparse", []string{"-n", "16", "--max-delay-ns", "1", "--sparse", "1,3"},
			`prefixgen optimize: --sparse "1,3": sparseness "3" not allowed: allowed 1, 2, 4, 8, or a comma-separated list of them`},
		{"sparse over width", []string{"-n", "4", "--max-delay-ns", "1", "--sparse", "8"}, `prefixgen optimize: --sparse "8": sparseness 8 exceeds the width 4: allowed at most n`},
		{"flow-steps without ns", []string{"-n", "16", "--max-depth", "5", "--flow-steps", "10"}, "prefixgen optimize: --flow-steps applies only with --max-delay-ns or --max-area-um2"},
		{"ling without ns", []string{"-n", "16", "--max-depth", "5", "--ling"}, "prefixgen optimize: --ling applies only with --max-delay-ns or --max-area-um2"},
		{"carry-select without ns", []string{"-n", "16", "--max-depth", "5", "--carry-select"}, "prefixgen optimize: --carry-select applies only with --max-delay-ns or --max-area-um2"},
		{"stages without ns", []string{"-n", "16", "--max-depth", "5", "--stages", "2"}, "prefixgen optimize: --stages applies only with --max-delay-ns or --max-area-um2"},
		{"no-reset without ns", []string{"-n", "16", "--max-depth", "5", "--no-reset"}, "prefixgen optimize: --no-reset applies only with --max-delay-ns or --max-area-um2"},
		{"no-reset without stages", []string{"-n", "16", "--max-delay-ns", "1", "--no-reset"}, "prefixgen optimize: --no-reset applies to a pipelined adder: allowed with --stages"},
		{"zero stages", []string{"-n", "16", "--max-delay-ns", "1", "--stages", "0"}, "prefixgen optimize: --stages 0 out of range: allowed 1 to the depth of the carry tree + 1"},
		{"stages beyond depth", []string{"-n", "16", "--max-depth", "5", "--max-delay-ns", "1", "--stages", "7"},
			"prefixgen optimize: no adder of depth 5 or less takes 7 register stages: allowed 1 to 6 (the depth + 1), or a deeper bound"},
		{"negative flow-steps", []string{"-n", "16", "--max-delay-ns", "1", "--flow-steps", "-1"}, "prefixgen optimize: --flow-steps -1 out of range: allowed 0 to 1000000"},
		{"flow-steps too wide", []string{"-n", "257", "--max-delay-ns", "1", "--flow-steps", "10"}, "prefixgen optimize: --flow-steps applies to widths up to 256, not 257: the search's grid holds 256 spans a column"},
		{"too many flow-steps", []string{"-n", "16", "--max-delay-ns", "1", "--flow-steps", "1000001"}, "prefixgen optimize: --flow-steps 1000001 out of range: allowed 0 to 1000000"},
		{"bad flow", []string{"-n", "16", "--max-delay-ns", "1", "--flow", "fast"}, `prefixgen optimize: --flow "fast" unknown: allowed keep, abc`},
		{"bad objective", []string{"-n", "16", "--objective", "speed"}, `prefixgen optimize: unknown objective "speed": allowed area, delay`},
		{"negative delay", []string{"-n", "16", "--max-delay", "-2"}, "prefixgen optimize: --max-delay -2 out of range: allowed a positive number of FO4 delays"},
		{"zero delay", []string{"-n", "16", "--max-delay", "0"}, "prefixgen optimize: --max-delay 0 out of range: allowed a positive number of FO4 delays"},
		{"no width", []string{"--max-depth", "4"}, "prefixgen optimize: -n WIDTH is required"},
		{"bad format", []string{"-n", "16", "--max-depth", "4", "-f", "dot"},
			`prefixgen optimize: unknown format "dot": allowed table, json, text`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out, errOut := prefixgen(append([]string{"optimize"}, tt.args...)...)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Equal(t, tt.want+"\n", errOut)
		})
	}
}

// A delay bound no network found meets is a result, not bad usage: one
// line and exit status 1, as for every "found no network".
func TestOptimizeDelayNotFound(t *testing.T) {
	status, out, errOut := prefixgen("optimize", "-n", "16", "--max-delay", "1")
	assert.Equal(t, 1, status)
	assert.Empty(t, out)
	assert.Equal(t, "prefixgen optimize: found no network of width 16 with depth ≤ 8 and a model delay ≤ 1 FO4: the fastest found takes 7.5733 FO4, and no annealing chain, on area or on delay, met it\n", errOut)
}

// The delay bound a refusal at widths 1 and 2 names is one optimize then
// meets.
func TestOptimizeOnlyNetworkDelayMet(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "1", "--max-delay", "2.22"},
		{"-n", "2", "--max-delay", "2.44"},
	} {
		status, out, errOut := prefixgen(append([]string{"optimize", "-f", "json"}, args...)...)
		require.Equal(t, 0, status, "%v: %s", args, errOut)
		_, err := network.Unmarshal([]byte(out))
		require.NoError(t, err)
	}
}

// Every bound a refusal names is one optimize then meets: the least
// fan-out at the depth, and ripple's depth for fan-out 2.
func TestOptimizeNamedBoundsMet(t *testing.T) {
	for _, args := range [][]string{
		{"-n", "32", "--max-depth", "5", "--max-fanout", "3"},
		{"-n", "32", "--max-depth", "6", "--max-fanout", "3"},
		{"-n", "32", "--max-depth", "31", "--max-fanout", "2"},
		{"-n", "16", "--max-depth", "15", "--max-fanout", "2"},
		{"-n", "1", "--max-depth", "0", "--max-fanout", "1"},
	} {
		status, out, errOut := prefixgen(append([]string{"optimize", "-f", "json"}, args...)...)
		require.Equal(t, 0, status, "%v: %s", args, errOut)
		n, err := network.Unmarshal([]byte(out))
		require.NoError(t, err)
		f := n.Figures()
		bound, err := strconv.Atoi(args[5])
		require.NoError(t, err)
		assert.LessOrEqual(t, f.MaxFanout, bound)
		if bound == 2 {
			assert.Equal(t, n.Width()-1, f.Depth, "fan-out 2 is ripple")
			assert.Equal(t, n.Width()-1, f.Size)
		}
	}
}

// TestOptimizeArrival runs the model's delay search on an adder whose top
// bits arrive late, and refuses, in one line each, a profile that does not
// fit or a search it does not apply to.
func TestOptimizeArrival(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		return path
	}
	ramp := file("ramp.json", `{"arrival_ns": [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.4, 1.5]}`)
	status, out, errOut := prefixgen("optimize", "-n", "16", "--objective", "delay", "--arrival", ramp)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "timed against the profile of "+ramp+": a model delay is the worst output's lateness, its arrival less its required time\n")
	status, plain, errOut := prefixgen("optimize", "-n", "16", "--objective", "delay")
	require.Equal(t, 0, status, errOut)
	assert.NotEqual(t, strings.Split(plain, "\n")[1], strings.Split(out, "\n")[1], "the profile changes the delay")

	// Through the flow, the adders timed with the profile as OpenSTA's
	// input delays: the top bit's 0.7 ns counts in every delay.
	ramp8 := file("ramp8.json", `{"arrival_ns": [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]}`)
	t.Run("flow", func(t *testing.T) {
		needFlow(t)
		status, out, errOut := prefixgen("optimize", "-n", "8", "--max-delay-ns", "10", "--arrival", ramp8)
		require.Equal(t, 0, status, errOut)
		assert.Contains(t, out, "timed against the profile of "+ramp8+" (OpenSTA's input and output delays): a delay is the worst output's lateness, its arrival less its required time\n")
		fields := strings.Fields(strings.Split(out, "\n")[1])
		ns, err := strconv.ParseFloat(fields[len(fields)-1], 64)
		require.NoError(t, err, out)
		assert.Greater(t, ns, 0.7, out)
	})
	short := file("short.json", `{"arrival_ns": [0, 1]}`)
	bad := file("bad.json", `{"arrival": [0, 1]}`)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"short", []string{"-n", "16", "--objective", "delay", "--arrival", short}, "--arrival " + short + ": 2 arrival times for an adder of 16 bits: allowed one per bit"},
		{"bad field", []string{"-n", "16", "--objective", "delay", "--arrival", bad}, "--arrival " + bad + `: unknown field "arrival" (allowed {"arrival_ns": [ns per bit], "required_ns": [ns per output]})`},
		{"missing", []string{"-n", "16", "--objective", "delay", "--arrival", filepath.Join(dir, "none.json")}, "cannot read --arrival " + filepath.Join(dir, "none.json") + ": no such file or directory"},
		{"folder", []string{"-n", "16", "--objective", "delay", "--arrival", dir}, "cannot read --arrival " + dir + `: it is a folder: allowed a file of {"arrival_ns": [ns per bit], "required_ns": [ns per output]}`},
		{"cells", []string{"-n", "16", "--max-depth", "5", "--arrival", ramp}, "--arrival applies only with --max-delay, --objective delay, --max-delay-ns or --max-area-um2"},
		{"flow, short", []string{"-n", "16", "--max-delay-ns", "5", "--arrival", short}, "--arrival " + short + ": 2 arrival times for an adder of 16 bits: allowed one per bit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, out, errOut := prefixgen(append([]string{"optimize"}, c.args...)...)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Equal(t, "prefixgen optimize: "+c.want+"\n", errOut)
		})
	}
}

// TestOptimizeModelLibrary runs the model's search on a library's own
// gates: the area column is then that library's (ASAP7's adders are tens
// of µm², OSU 0.18 µm's thousands), and the model follows the platform's
// cells not to use.
func TestOptimizeModelLibrary(t *testing.T) {
	status, out, errOut := prefixgen("optimize", "-n", "16", "--objective", "delay", "--liberty", "asap7")
	require.Equal(t, 0, status, errOut)
	fields := strings.Fields(strings.Split(out, "\n")[1])
	area, err := strconv.ParseFloat(fields[len(fields)-1], 64)
	require.NoError(t, err)
	assert.Less(t, area, 100.0, "µm² of ASAP7's cells:\n%s", out)
	status, _, errOut = prefixgen("optimize", "-n", "16", "--objective", "delay", "--liberty", "asap7", "--dont-use", "AOI21*")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen optimize: the delay model cannot stand on library asap7: the library has no usable AOI21 cell: the model needs an inverter, NAND2, XOR2 or XNOR2, and AOI21\n", errOut)
	status, _, errOut = prefixgen("optimize", "-n", "16", "--max-depth", "5", "--liberty", "asap7")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen optimize: --liberty applies only with --max-delay, --objective delay (the model stands on the library), --max-delay-ns or --max-area-um2\n", errOut)
}
