package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
)

// needFlow skips the test when the physical flow's tools or library are
// missing (fails under PREFIXGEN_REQUIRE_TOOLS=1).
func needFlow(t *testing.T) {
	t.Helper()
	tooltest.Flow(t, physical.LibertyFile(""))
}

// TestSynthJSON runs two networks and the reference through the flow and
// checks the fields scripts read, and that a second run prints the same
// bytes.
func TestSynthJSON(t *testing.T) {
	needFlow(t)
	args := []string{"synth", "-t", "ladner-fischer", "--param", "k=1", "-n", "8", "-f", "json", "--flow", "abc", "-j", "2"}
	status, out, errOut := prefixgen(args...)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, errOut)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 2)
	for _, key := range []string{"topology", "params", "width", "area_um2", "delay_ns", "std_cells", "liberty", "flow", "critical_from", "critical_to", "yosys_version", "sta_version"} {
		for _, r := range rows {
			assert.Contains(t, r, key)
		}
	}
	assert.Equal(t, "ladner-fischer", rows[0]["topology"])
	assert.Equal(t, map[string]any{"k": 1.0}, rows[0]["params"])
	assert.Equal(t, "yosys", rows[1]["topology"])
	assert.Equal(t, "abc", rows[0]["flow"])
	assert.Equal(t, 8.0, rows[1]["width"])
	_, again, _ := prefixgen(args...)
	assert.Equal(t, out, again, "the same command prints the same bytes")
}

// TestSynthTableAndCSV checks the table and CSV forms of a network read
// from a file, on the 0.35 µm library.
func TestSynthTableAndCSV(t *testing.T) {
	needFlow(t)
	tooltest.File(t, physical.LibertyFile("osu035"), "qflow-tech-osu035")
	file := filepath.Join(t.TempDir(), "net.json")
	status, out, errOut := prefixgen("gen", "-t", "brent-kung", "-n", "6", "-f", "json", "-o", file)
	require.Equal(t, 0, status, errOut+out)
	status, out, errOut = prefixgen("synth", "--from", file, "--liberty", "osu035")
	require.Equal(t, 0, status, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4, out)
	assert.Regexp(t, `^adder\s+width\s+area \(µm²\)\s+delay \(ns\)\s+std cells\s+redundant \(µm²\)\s+critical path$`, lines[0])
	assert.Regexp(t, `^brent-kung\s+6\s+\d+\s+\d+\.\d{3}\s+\d+\s+\d+\s+\S+ → \S+$`, lines[1])
	assert.Regexp(t, `^yosys a\+b\+cin\s+6\s`, lines[2])
	assert.Contains(t, lines[3], "flow keep, liberty osu035, 0.01 pF on every output; Yosys ")
	status, out, errOut = prefixgen("synth", "--from", file, "-f", "csv")
	require.Equal(t, 0, status, errOut)
	assert.True(t, strings.HasPrefix(out, strings.Join(physical.CSVHeader, ",")+"\n"), out)
}

// TestSynthBadInput checks that bad input is one line on standard error
// and exit status 2.
func TestSynthBadInput(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.lib")
	require.NoError(t, os.WriteFile(garbage, []byte("library (x) {\n}\n"), 0o644))
	tests := []struct {
		name  string
		args  []string
		want  string
		tools bool
	}{
		{"flow", []string{"synth", "-t", "sklansky", "-n", "4", "--flow", "fast"}, `--flow "fast" unknown: allowed keep, abc`, false},
		{"format", []string{"synth", "-t", "sklansky", "-n", "4", "-f", "svg"}, `unknown format "svg"`, false},
		{"load", []string{"synth", "-t", "sklansky", "-n", "4", "--load", "0"}, `--load 0 out of range`, false},
		{"jobs", []string{"synth", "-t", "sklansky", "-n", "4", "-j", "-1"}, `--jobs -1 out of range`, false},
		{"no network", []string{"synth"}, `no network given`, false},
		{"missing liberty", []string{"synth", "-t", "sklansky", "-n", "4", "--liberty", filepath.Join(dir, "none.lib")}, `Liberty file .*none.lib cannot be read`, true},
		{"garbage liberty", []string{"synth", "-t", "sklansky", "-n", "4", "--liberty", garbage}, `Liberty file .*garbage.lib holds no cells: allowed a Liberty library of cells`, true},
		{"cache a file", []string{"synth", "-t", "sklansky", "-n", "4", "--cache", garbage}, `cannot use the cache folder .*garbage.lib: .*garbage.lib is not a directory`, false},
		{"cache under a file", []string{"synth", "-t", "sklansky", "-n", "4", "--cache", filepath.Join(garbage, "c")}, `cannot use the cache folder .*garbage.lib/c: .*garbage.lib is not a directory`, false},
		{"cache empty", []string{"synth", "-t", "sklansky", "-n", "4", "--cache", ""}, `--cache is empty`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.tools {
				needFlow(t)
			}
			status, out, errOut := prefixgen(tt.args...)
			assert.Equal(t, 2, status, errOut)
			assert.Empty(t, out)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
			assert.True(t, strings.HasPrefix(errOut, "prefixgen synth: "), errOut)
			assert.Regexp(t, tt.want, errOut)
		})
	}
}

// TestSynthMissingTool runs synth with a PATH that has no yosys.
func TestSynthMissingTool(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	status, out, errOut := prefixgen("synth", "-t", "ripple", "-n", "4")
	assert.Equal(t, 2, status)
	assert.Empty(t, out)
	assert.Equal(t, "prefixgen synth: Yosys (Debian package yosys) is not installed: yosys not found (install it, or put it in PATH)\n", errOut)
}

// TestExploreSynth runs explore --synth at width 4: JSON has every network
// with on_front and its document, the table the front, the plot is drawn.
func TestExploreSynth(t *testing.T) {
	needFlow(t)
	dir := t.TempDir()
	plot := filepath.Join(dir, "ad.svg")
	status, out, errOut := prefixgen("explore", "-n", "4", "--synth", "-f", "json", "--plot", plot)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, errOut)
	var rows []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	status, all, errOut := prefixgen("explore", "-n", "4", "--all", "-f", "json")
	require.Equal(t, 0, status, errOut)
	var plain []map[string]any
	require.NoError(t, json.Unmarshal([]byte(all), &plain))
	require.Len(t, rows, len(plain)+1, "one object per network explore finds, and Yosys's a + b + cin")
	ref := rows[len(rows)-1]
	assert.Equal(t, `"yosys a+b+cin"`, string(ref["network"]), "the reference last")
	assert.Equal(t, "null", string(ref["network_json"]))
	assert.Equal(t, "null", string(ref["on_front"]))
	rows = rows[:len(rows)-1]
	front := 0
	for _, r := range rows {
		for _, key := range []string{"depth", "size", "max_fanout", "wire_tracks", "area_um2", "delay_ns", "on_front", "network_json"} {
			assert.Contains(t, r, key)
		}
		assert.Contains(t, string(r["network_json"]), `"format":"prefixgen.network/v1"`)
		if string(r["on_front"]) == "true" {
			front++
		}
	}
	assert.Positive(t, front)
	svg, err := os.ReadFile(plot)
	require.NoError(t, err)
	assert.Contains(t, string(svg), "area–delay front")

	status, out, errOut = prefixgen("explore", "-n", "4", "--synth", "--flow", "abc", "--no-optimize")
	require.Equal(t, 0, status, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.GreaterOrEqual(t, len(lines), 4, "the header, the front, the reference and the flow: %s", out)
	for _, l := range lines[1 : len(lines)-2] {
		assert.Regexp(t, `\s\*\s+prefixgen gen `, l, "only the front")
	}
	assert.Regexp(t, `^yosys a\+b\+cin: \d+ µm², \d\.\d{3} ns`, lines[len(lines)-2])
	assert.Contains(t, lines[len(lines)-1], "flow abc")
}

// TestExploreSynthCache: a second run with --cache prints what the first
// printed, byte for byte, as a run without it does, and the cache holds an
// entry for every adder measured.
func TestExploreSynthCache(t *testing.T) {
	needFlow(t)
	dir := filepath.Join(t.TempDir(), "cache")
	args := []string{"explore", "-n", "5", "--synth", "--all", "--flow", "abc", "--no-optimize", "-f", "csv"}
	status, first, errOut := prefixgen(append(args, "--cache", dir)...)
	require.Equal(t, 0, status, errOut)
	entries, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	require.NoError(t, err)
	assert.NotEmpty(t, entries)
	status, again, errOut := prefixgen(append(args, "--cache", dir)...)
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, first, again)
	status, without, errOut := prefixgen(args...)
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, first, without)
}

func TestExploreSynthFlagsNeedSynth(t *testing.T) {
	for _, flag := range [][]string{{"--liberty", "osu035"}, {"--flow", "abc"}, {"--jobs", "2"}, {"--load", "0.02"}, {"--workdir", "x"}, {"--cache", "x"}} {
		status, out, errOut := prefixgen(append([]string{"explore", "-n", "4"}, flag...)...)
		assert.Equal(t, 2, status)
		assert.Empty(t, out)
		assert.Equal(t, "prefixgen explore: "+flag[0]+" applies only with --synth\n", errOut)
	}
}

func TestReportSynth(t *testing.T) {
	needFlow(t)
	page := filepath.Join(t.TempDir(), "r.html")
	status, out, errOut := prefixgen("report", "-n", "4", "--synth", "--flow", "abc", "-o", page)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(data), "Made by <code>prefixgen report -n 4 --synth --flow abc -o r.html</code>")
	assert.Contains(t, string(data), "Area against delay after synthesis")
	assert.Contains(t, string(data), "<td>★</td>")

	status, _, errOut = prefixgen("report", "-n", "4", "--flow", "abc", "-o", page)
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen report: --flow applies only with --synth\n", errOut)
}

// TestReportSynthEveryOption: report --synth --every-option names every
// adder of a network, and the page's command gives the flag.
func TestReportSynthEveryOption(t *testing.T) {
	needFlow(t)
	page := filepath.Join(t.TempDir(), "r.html")
	status, out, errOut := prefixgen("report", "-n", "2", "--no-optimize", "--synth", "--every-option", "-o", page)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(data), "Made by <code>prefixgen report -n 2 --no-optimize --synth --every-option -o r.html</code>")
	for _, name := range []string{"sparse=2 ling pgcells", "sparse=2 pgcells", "ling pgcells", "pgcells"} {
		assert.Contains(t, string(data), ">"+name+"<", name)
	}
}

// TestReportSynthAdders: report --synth takes explore's --sparse, --ling
// and --orders: a row per adder, named, the medians, and the command that
// made the page with every flag given.
func TestReportSynthAdders(t *testing.T) {
	needFlow(t)
	page := filepath.Join(t.TempDir(), "r.html")
	status, out, errOut := prefixgen("report", "-n", "4", "--no-optimize", "--synth", "--sparse", "1,2", "--ling", "--orders", "1", "--load", "0.02", "-o", page)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	html := string(data)
	assert.Contains(t, html, "Made by <code>prefixgen report -n 4 --no-optimize --synth --sparse 1,2 --ling --orders 1 --load 0.02 -o r.html</code>")
	assert.Contains(t, html, "medians over the design as written and 1 order of its gates")
	assert.Contains(t, html, "<th>adder</th><th class=\"num\">area, median (µm²)</th>")
	assert.Contains(t, html, "<td>sparse=2 ling</td>")
	assert.Contains(t, html, "<code>prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 2 --ling</code>")
	assert.Equal(t, strings.Count(html, "<tr class=\"adder\">"), strings.Count(html, "<td>ling</td>"), "two adders a network")

	for _, flag := range [][]string{{"--sparse", "2"}, {"--ling"}, {"--orders", "2"}} {
		status, out, errOut := prefixgen(append([]string{"report", "-n", "4", "-o", page}, flag...)...)
		assert.Equal(t, 2, status)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "prefixgen report: "+flag[0]+" applies only with --synth: allowed report --synth "+flag[0])
	}
	status, _, errOut = prefixgen("report", "-n", "4", "--synth", "--sparse", "3", "-o", page)
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen report: --sparse \"3\": sparseness \"3\" not allowed: allowed 1, 2, 4, 8, or a comma-separated list of them\n", errOut)
}

// explore --synth --stages pipelines every adder: the delays are clock
// periods, the table counts the flip-flops and says so, and each command
// writes the pipelined adder; report takes the flags too.
func TestExploreSynthStages(t *testing.T) {
	needFlow(t)
	status, out, errOut := prefixgen("explore", "-n", "4", "--no-optimize", "--synth", "--stages", "2", "--no-reset", "--all")
	require.Equal(t, 0, status, errOut)
	assert.Regexp(t, `(?m)^network .* std cells +registers +redundant`, out)
	assert.Regexp(t, `(?m)^kogge-stone .* prefixgen gen -t kogge-stone -n 4 -f verilog --stages 2 --no-reset$`, out)
	assert.Contains(t, out, "the adders are pipelined (stages=2 noreset; Yosys's a + b + cin is not)")
	status, out, errOut = prefixgen("explore", "-n", "4", "--no-optimize", "--synth", "--stages", "1", "-f", "json")
	require.Equal(t, 0, status, errOut)
	rows := networkRows(t, out)
	for _, r := range rows {
		assert.EqualValues(t, 1, r["stages"], r["network"])
		assert.Equal(t, false, r["no_reset"])
		assert.Positive(t, r["registers"], r["network"])
	}

	page := filepath.Join(t.TempDir(), "r.html")
	status, _, errOut = prefixgen("report", "-n", "4", "--no-optimize", "--synth", "--stages", "1", "-o", page)
	require.Equal(t, 0, status, errOut)
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(data), "Made by <code>prefixgen report -n 4 --no-optimize --synth --stages 1 -o r.html</code>")
	assert.Contains(t, string(data), "<td>stages=1</td>")
	assert.Contains(t, string(data), "every adder pipelined (stages=1; Yosys")
}

// TestExploreSynthSparse: explore --synth --sparse 1,4 prints one row per
// network and sparseness, the CSV header the JSON keys, the sparse adder a
// circuit of its own; bad sparseness exits 2 with one line.
func TestExploreSynthSparse(t *testing.T) {
	needFlow(t)
	status, out, errOut := prefixgen("explore", "-n", "8", "--no-optimize", "--synth", "--sparse", "1,4", "--all", "-f", "json")
	require.Equal(t, 0, status, errOut)
	rows := networkRows(t, out)
	status, csvOut, errOut := prefixgen("explore", "-n", "8", "--no-optimize", "--synth", "--sparse", "1,4", "--all", "-f", "csv")
	require.Equal(t, 0, status, errOut)
	records, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, len(rows)+2, len(records), "the header, the networks and Yosys's a + b + cin")
	for _, key := range records[0] {
		assert.Contains(t, rows[0], key)
	}
	assert.Len(t, rows[0], len(records[0]))
	require.Zero(t, len(rows)%2)
	for i := 0; i < len(rows); i += 2 {
		dense, sparse := rows[i], rows[i+1]
		assert.Equal(t, dense["network"], sparse["network"])
		assert.EqualValues(t, 1, dense["sparse"])
		assert.EqualValues(t, 4, sparse["sparse"])
		assert.Equal(t, dense["command"].(string)+" -f verilog --sparse 4", sparse["command"])
		if dense["network"] == "kogge-stone" {
			assert.NotEqual(t, dense["area_um2"], sparse["area_um2"])
			assert.NotEqual(t, dense["std_cells"], sparse["std_cells"])
		}
	}
}

// TestExploreSynthValency: explore --synth --valency 3,4 measures the
// radix-3 and radix-4 Kogge–Stone and Sklansky alone, each row saying its
// valency, its command giving --valency once and rebuilding the network.
func TestExploreSynthValency(t *testing.T) {
	needFlow(t)
	status, out, errOut := prefixgen("explore", "-n", "8", "--no-optimize", "--synth", "--valency", "3,4", "--sparse", "1,2", "--all", "-f", "json")
	require.Equal(t, 0, status, errOut)
	rows := networkRows(t, out)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s sparse=%v valency=%v", r["network"], r["sparse"], r["valency"]))
		cmd := r["command"].(string)
		assert.Equal(t, 1, strings.Count(cmd, "--valency"), cmd)
		assert.Regexp(t, `^prefixgen gen -t (kogge-stone|sklansky) -n 8 --valency [34]( -f verilog --sparse 2)?$`, cmd)
	}
	assert.Equal(t, []string{
		"kogge-stone v=3 sparse=1 valency=3", "kogge-stone v=3 sparse=2 valency=3",
		"sklansky v=3 sparse=1 valency=3", "sklansky v=3 sparse=2 valency=3",
		"kogge-stone v=4 sparse=1 valency=4", "kogge-stone v=4 sparse=2 valency=4",
		"sklansky v=4 sparse=1 valency=4", "sklansky v=4 sparse=2 valency=4",
	}, got)
	// The command of a row rebuilds its network.
	status, doc, errOut := prefixgen("gen", "-t", "sklansky", "-n", "8", "--valency", "4", "-f", "json")
	require.Equal(t, 0, status, errOut)
	var want map[string]any
	require.NoError(t, json.Unmarshal([]byte(doc), &want))
	assert.Equal(t, want["network"].(map[string]any)["cells"], rows[6]["network_json"].(map[string]any)["cells"])
}

// TestExploreSynthEveryOption: --every-option measures every network at
// every sparseness up to the width, as written, with Ling's carries, with
// library cells and with both, and the dense adder with full adders, the
// sparse ones with full adders four times again; each row's command
// builds its adder.
func TestExploreSynthEveryOption(t *testing.T) {
	needFlow(t)
	status, out, errOut := prefixgen("explore", "-n", "4", "--no-optimize", "--synth", "--every-option", "--all", "-f", "json")
	require.Equal(t, 0, status, errOut)
	rows := networkRows(t, out)
	var got []string
	for _, r := range rows {
		if r["network"] == "kogge-stone" {
			got = append(got, fmt.Sprintf("sparse=%v ling=%v pg_cells=%v fa_cells=%v: %s", r["sparse"], r["ling"], r["pg_cells"], r["fa_cells"], r["command"]))
		}
	}
	assert.Equal(t, []string{
		"sparse=1 ling=false pg_cells=false fa_cells=false: prefixgen gen -t kogge-stone -n 4",
		"sparse=1 ling=true pg_cells=false fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --ling",
		"sparse=1 ling=false pg_cells=true fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --pg-cells",
		"sparse=1 ling=true pg_cells=true fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --ling --pg-cells",
		"sparse=1 ling=false pg_cells=false fa_cells=true: prefixgen gen -t kogge-stone -n 4 -f verilog --fa-cells",
		"sparse=2 ling=false pg_cells=false fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 2",
		"sparse=2 ling=true pg_cells=false fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 2 --ling",
		"sparse=2 ling=false pg_cells=true fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 2 --pg-cells",
		"sparse=2 ling=true pg_cells=true fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 2 --ling --pg-cells",
		"sparse=2 ling=false pg_cells=false fa_cells=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 2 --fa-cells",
		"sparse=2 ling=true pg_cells=false fa_cells=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 2 --ling --fa-cells",
		"sparse=2 ling=false pg_cells=true fa_cells=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 2 --pg-cells --fa-cells",
		"sparse=2 ling=true pg_cells=true fa_cells=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 2 --ling --pg-cells --fa-cells",
		"sparse=4 ling=false pg_cells=false fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4",
		"sparse=4 ling=true pg_cells=false fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --ling",
		"sparse=4 ling=false pg_cells=true fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --pg-cells",
		"sparse=4 ling=true pg_cells=true fa_cells=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --ling --pg-cells",
		"sparse=4 ling=false pg_cells=false fa_cells=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --fa-cells",
		"sparse=4 ling=true pg_cells=false fa_cells=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --ling --fa-cells",
		"sparse=4 ling=false pg_cells=true fa_cells=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --pg-cells --fa-cells",
		"sparse=4 ling=true pg_cells=true fa_cells=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --ling --pg-cells --fa-cells",
	}, got)
	assert.Equal(t, 21*len(slices.Compact(rowNames(rows))), len(rows), "every network five times dense, eight times at each of two sparsenesses")

	// --increment adds each sparse adder of full adders again with
	// carry-increment blocks, right after it.
	status, out, errOut = prefixgen("explore", "-n", "4", "--no-optimize", "--synth", "--every-option", "--increment", "--sparse", "1,4", "--all", "-f", "json")
	require.Equal(t, 0, status, errOut)
	var inc []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &inc))
	got = got[:0]
	for _, r := range inc {
		if r["network"] == "kogge-stone" && r["fa_cells"] == true {
			got = append(got, fmt.Sprintf("sparse=%v ling=%v increment=%v: %s", r["sparse"], r["ling"], r["increment"], r["command"]))
		}
	}
	assert.Equal(t, []string{
		"sparse=1 ling=false increment=false: prefixgen gen -t kogge-stone -n 4 -f verilog --fa-cells",
		"sparse=4 ling=false increment=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --fa-cells",
		"sparse=4 ling=false increment=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --fa-cells --increment",
		"sparse=4 ling=true increment=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --ling --fa-cells",
		"sparse=4 ling=true increment=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --ling --fa-cells --increment",
		"sparse=4 ling=false increment=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --pg-cells --fa-cells",
		"sparse=4 ling=false increment=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --pg-cells --fa-cells --increment",
		"sparse=4 ling=true increment=false: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --ling --pg-cells --fa-cells",
		"sparse=4 ling=true increment=true: prefixgen gen -t kogge-stone -n 4 -f verilog --sparse 4 --ling --pg-cells --fa-cells --increment",
	}, got)

	// --sparse narrows the sparseness, not the options.
	status, out, errOut = prefixgen("explore", "-n", "4", "--no-optimize", "--synth", "--every-option", "--sparse", "2", "--all", "-f", "csv")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, 8*len(slices.Compact(rowNames(rows)))+2, strings.Count(out, "\n"), "the header, the rows and Yosys's a + b + cin")

	// Without a full adder to use, every option of the dense adders is
	// the other four.
	status, out, errOut = prefixgen("explore", "-n", "4", "--no-optimize", "--synth", "--every-option", "--sparse", "1", "--dont-use", "FAX1", "--all", "-f", "csv")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, 4*len(slices.Compact(rowNames(rows)))+2, strings.Count(out, "\n"), "the header, the rows and Yosys's a + b + cin")
	assert.NotContains(t, out, "--fa-cells")
}

// networkRows reads explore --synth -f json's rows of networks: every row
// but the last, which is Yosys's a + b + cin.
func networkRows(t *testing.T, out string) []map[string]any {
	t.Helper()
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.NotEmpty(t, rows)
	require.Equal(t, "yosys", rows[len(rows)-1]["family"], "Yosys's a + b + cin last")
	return rows[:len(rows)-1]
}

// rowNames lists the network of every row, in order.
func rowNames(rows []map[string]any) []string {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = fmt.Sprint(r["network"])
	}
	return names
}

// TestExploreSynthWith: --with measures the adders of files beside the
// named ones, in the same run: an adder document with its own
// architecture, a network document with the run's; each named by its file,
// its command rebuilding it, and on the plot with its name.
func TestExploreSynthWith(t *testing.T) {
	needFlow(t)
	dir := t.TempDir()
	doc := filepath.Join(dir, "mine.json")
	status, _, errOut := prefixgen("gen", "-t", "sklansky", "-n", "8", "--sparse", "2", "--ling", "-f", "json", "-o", doc)
	require.Equal(t, 0, status, errOut)
	net := filepath.Join(dir, "net.json")
	status, _, errOut = prefixgen("gen", "-t", "brent-kung", "-n", "8", "-f", "json", "-o", net)
	require.Equal(t, 0, status, errOut)
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(doc, link))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "b"), 0o755))
	other := filepath.Join(dir, "b", "mine.json")
	status, _, errOut = prefixgen("gen", "-t", "kogge-stone", "-n", "8", "-f", "json", "-o", other)
	require.Equal(t, 0, status, errOut)
	staged := filepath.Join(dir, "staged.json")
	status, _, errOut = prefixgen("gen", "-t", "sklansky", "-n", "8", "--stages", "1", "-f", "json", "-o", staged)
	require.Equal(t, 0, status, errOut)
	plot := filepath.Join(dir, "p.svg")
	status, out, errOut := prefixgen("explore", "-n", "8", "--no-optimize", "--synth", "--sparse", "1,4", "--with", doc+","+net, "--plot", plot, "--all", "-f", "json")
	require.Equal(t, 0, status, errOut)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	var got []string
	byName := map[string]map[string]any{}
	for _, r := range rows {
		if r["family"] == "file" {
			got = append(got, fmt.Sprintf("%s sparse=%v ling=%v: %s", r["network"], r["sparse"], r["ling"], r["command"]))
			byName[fmt.Sprintf("%s %v", r["network"], r["sparse"])] = r
		}
		if r["network"] == "brent-kung" {
			byName[fmt.Sprintf("brent-kung %v", r["sparse"])] = r
		}
	}
	assert.Equal(t, []string{
		"mine sparse=2 ling=true: prefixgen gen --from " + doc + " -f verilog --sparse 2 --ling",
		"net sparse=1 ling=false: prefixgen gen --from " + net,
		"net sparse=4 ling=false: prefixgen gen --from " + net + " -f verilog --sparse 4",
	}, got)
	// The network document's adders are Brent–Kung's, measured alike.
	for _, s := range []string{"1", "4"} {
		assert.Equal(t, byName["brent-kung "+s]["area_um2"], byName["net "+s]["area_um2"], s)
		assert.Equal(t, byName["brent-kung "+s]["delay_ns"], byName["net "+s]["delay_ns"], s)
	}
	// The command of the document's row writes the adder it measured.
	status, v, errOut := prefixgen("gen", "--from", doc, "-f", "verilog", "--sparse", "2", "--ling")
	require.Equal(t, 0, status, errOut)
	status, w, errOut := prefixgen("gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--sparse", "2", "--ling")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, w, v)
	svg, err := os.ReadFile(plot)
	require.NoError(t, err)
	assert.Contains(t, string(svg), ">mine<")
	assert.Contains(t, string(svg), ">net<")
	assert.Contains(t, string(svg), ">file<")

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--with", doc}, "--with applies only with --synth: allowed explore --synth --with FILE"},
		{[]string{"-n", "16", "--synth", "--with", doc}, "--with " + doc + ": width 8 differs from -n 16: allowed adders of width 16"},
		{[]string{"-n", "8", "--synth", "--with", filepath.Join(dir, "none.json")}, "cannot read network file " + filepath.Join(dir, "none.json") + ": no such file or directory: allowed a prefixgen.network/v1 or prefixgen.adder/v1 file"},
		{[]string{"-n", "8", "--synth", "--with", dir}, "cannot read network file " + dir + ": it is a folder"},
		{[]string{"-n", "8", "--synth", "--with", doc + "," + doc}, "--with " + doc + " given twice: allowed each file once"},
		{[]string{"-n", "8", "--synth", "--with", doc, "--with", link}, "--with " + link + " is " + doc + ", given twice: allowed each file once"},
		{[]string{"-n", "8", "--synth", "--with", doc + "," + other}, "--with " + doc + " and " + other + " would both be rows named mine: allowed files of different names"},
		{[]string{"-n", "8", "--synth", "--with", staged}, "--with " + staged + " records an adder of 1 register stage, the run's adders have none: allowed documents pipelined as the run is (--stages), since a clock period and a combinational delay share no front"},
		{[]string{"-n", "8", "--synth", "--stages", "1", "--with", doc}, "--with " + doc + " records a combinational adder, the run's adders have 1 register stage: allowed documents pipelined as the run is (--stages), since a clock period and a combinational delay share no front"},
		{[]string{"-n", "8", "--synth", "--every-option", "--ling"}, "--every-option and --ling: --every-option measures every adder with and without --ling already: allowed one of them"},
		{[]string{"-n", "8", "--every-option"}, "--every-option applies only with --synth: allowed explore --synth --every-option"},
	} {
		status, out, errOut := prefixgen(append([]string{"explore", "--no-optimize"}, tt.args...)...)
		assert.Equal(t, 2, status, tt.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "prefixgen explore: "+tt.want)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	}
}

func TestExploreSparseRefused(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--sparse", "4"}, "--sparse applies only with --synth: allowed explore --synth --sparse S with S among 1, 2, 4, 8 or a list of them"},
		{[]string{"--synth", "--sparse", "3"}, `--sparse "3": sparseness "3" not allowed: allowed 1, 2, 4, 8, or a comma-separated list of them`},
		{[]string{"--synth", "--sparse", "1,,2"}, `--sparse "1,,2": sparseness "" not allowed`},
		{[]string{"--synth", "--sparse", "8"}, `--sparse "8": sparseness 8 exceeds the width 4: allowed at most n`},
		{[]string{"--ling"}, "--ling applies only with --synth: allowed explore --synth --ling"},
		{[]string{"--valency", "3"}, "--valency applies only with --synth: allowed explore --synth --valency K with K among 2, 3, 4 or a list of them"},
		{[]string{"--synth", "--valency", "5"}, `--valency "5": valency "5" not allowed: allowed 2, 3, 4, or a comma-separated list of them`},
		{[]string{"--synth", "--valency", "2,x"}, `--valency "2,x": valency "x" not allowed`},
		{[]string{"--orders", "2"}, "--orders applies only with --synth: allowed explore --synth --orders"},
		{[]string{"--synth", "--orders", "101"}, "--orders 101 out of range: allowed 0 to 100"},
		{[]string{"--stages", "2"}, "--stages applies only with --synth: allowed explore --synth --stages"},
		{[]string{"--synth", "--no-reset"}, "--no-reset applies to a pipelined adder: allowed with --stages"},
		{[]string{"--synth", "--stages", "0"}, "--stages 0 out of range: allowed 1 to the depth of the carry tree + 1"},
		{[]string{"--synth", "--stages", "4"}, "kogge-stone: 4 pipeline stages for a carry tree of depth 2: allowed 1 to 3"},
		// The range is the shallowest tree's, whichever tree fails first.
		{[]string{"--synth", "--stages", "9", "--all"}, "kogge-stone: 9 pipeline stages for a carry tree of depth 2: allowed 1 to 3"},
	} {
		status, out, errOut := prefixgen(append([]string{"explore", "-n", "4", "--no-optimize"}, tt.args...)...)
		assert.Equal(t, 2, status, tt.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "prefixgen explore: "+tt.want)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	}
}

// synth --verilog measures a module of the user's own: prefixgen's own
// adder written to a file measures as synth -t measures it, and what the
// flag cannot take is refused in one line with status 2.
// synth --vhdl measures an entity of the user's own as ghdl --synth writes
// it: gen -f vhdl's adder measures as the same network's built-in one.
func TestSynthVHDL(t *testing.T) {
	needFlow(t)
	tooltest.Path(t, "ghdl")
	path := filepath.Join(t.TempDir(), "adder.vhd")
	mustRun(t, "gen", "-t", "sklansky", "-n", "8", "-f", "vhdl", "-o", path)
	for _, flow := range []string{"keep", "abc"} {
		status, built, errOut := prefixgen("synth", "-t", "sklansky", "-n", "8", "--flow", flow, "-f", "csv")
		require.Equal(t, 0, status, errOut)
		status, mine, errOut := prefixgen("synth", "--vhdl", path, "-n", "8", "--flow", flow, "-f", "csv")
		require.Equal(t, 0, status, errOut)
		b, m := strings.Split(built, "\n"), strings.Split(mine, "\n")
		require.Len(t, m, 4, mine)
		cols := func(row string) []string { return strings.Split(row, ",")[11:14] } // area, delay, cells
		assert.True(t, strings.HasPrefix(m[1], "prefix_adder_sklansky_8,"), m[1])
		assert.Equal(t, cols(b[1]), cols(m[1]), flow)
		assert.Equal(t, b[2], m[2], "the same reference")
	}
	status, _, errOut := prefixgen("synth", "--vhdl", path, "--verilog", path)
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen synth: --verilog and --vhdl: allowed one file of your own\n", errOut)
}

// synth --vhdl measures a VHDL netlist of library cells, as gen -f vhdl
// --pg-cells and --fa-cells write it, as the same adder built: the cells
// stay cells, and no buffer joins GHDL's wires to the ports (the full
// adders' sums reach the ports through GHDL's wires).
func TestSynthVHDLCells(t *testing.T) {
	needFlow(t)
	tooltest.Path(t, "ghdl")
	dir := t.TempDir()
	for _, tc := range []struct{ lib, topology, width, cells string }{
		{"sky130hd", "carry-select", "16", "--fa-cells"},
		{"asap7", "sklansky", "8", "--pg-cells"},
	} {
		path := filepath.Join(dir, tc.lib+".vhd")
		mustRun(t, "gen", "-t", tc.topology, "-n", tc.width, tc.cells, "--liberty", tc.lib, "-f", "vhdl", "-o", path)
		for _, flow := range []string{"keep", "abc"} {
			status, built, errOut := prefixgen("synth", "-t", tc.topology, "-n", tc.width, tc.cells, "--liberty", tc.lib, "--flow", flow, "-f", "csv")
			require.Equal(t, 0, status, errOut)
			status, mine, errOut := prefixgen("synth", "--vhdl", path, "--liberty", tc.lib, "--flow", flow, "-f", "csv")
			require.Equal(t, 0, status, errOut)
			b, m := strings.Split(built, "\n"), strings.Split(mine, "\n")
			require.Len(t, m, 3, mine)
			cols := func(row string) []string { return strings.Split(row, ",")[11:14] } // area, delay, cells
			assert.Equal(t, cols(b[1]), cols(m[1]), "%s %s %s", tc.lib, tc.cells, flow)
		}
	}
	// A component that is no cell of the library is refused.
	path := filepath.Join(dir, "asap7.vhd")
	status, _, errOut := prefixgen("synth", "--vhdl", path, "--liberty", "sky130hd")
	assert.Equal(t, 2, status)
	assert.Regexp(t, `^prefixgen synth: .*asap7\.vhd: the VHDL instantiates components nand2x1_asap7_75t_r, oai21x1_asap7_75t_r, which no entity declares: allowed a file that declares them, or a cell of the library given \(--liberty\)\n$`, errOut)
}

func TestSynthVerilog(t *testing.T) {
	needFlow(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "adder.v")
	status, _, errOut := prefixgen("gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "-o", path)
	require.Equal(t, 0, status, errOut)
	type row struct {
		Topology string  `json:"topology"`
		Width    int     `json:"width"`
		AreaUM2  float64 `json:"area_um2"`
		DelayNS  float64 `json:"delay_ns"`
		Cells    int     `json:"std_cells"`
	}
	measure := func(args ...string) []row {
		t.Helper()
		status, out, errOut := prefixgen(append([]string{"synth", "-f", "json"}, args...)...)
		require.Equal(t, 0, status, errOut)
		var rows []row
		require.NoError(t, json.Unmarshal([]byte(out), &rows))
		return rows
	}
	for _, flow := range []string{"keep", "abc"} {
		built := measure("-t", "sklansky", "-n", "8", "--flow", flow)
		mine := measure("--verilog", path, "-n", "8", "--flow", flow)
		require.Len(t, mine, 2, "the module and yosys a+b+cin")
		assert.Equal(t, "prefix_adder_sklansky_8", mine[0].Topology)
		assert.Equal(t, 8, mine[0].Width)
		assert.Equal(t, []any{built[0].AreaUM2, built[0].DelayNS, built[0].Cells}, []any{mine[0].AreaUM2, mine[0].DelayNS, mine[0].Cells}, flow)
		assert.Equal(t, built[1], mine[1], "the same reference")
	}
	alone := measure("--verilog", path, "--top", "prefix_adder_sklansky_8")
	require.Len(t, alone, 1, "no reference without -n")
	assert.Equal(t, 8, alone[0].Width, "without -n, the width of its input a")

	// synth --stages measures the pipelined adder gen --stages writes.
	for _, reset := range [][]string{nil, {"--no-reset"}} {
		staged := filepath.Join(dir, "staged.v")
		status, _, errOut := prefixgen(append([]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--stages", "2", "-o", staged}, reset...)...)
		require.Equal(t, 0, status, errOut)
		status, out, errOut := prefixgen(append([]string{"synth", "-t", "sklansky", "-n", "8", "--stages", "2", "-f", "json"}, reset...)...)
		require.Equal(t, 0, status, errOut)
		var direct []map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &direct))
		require.Len(t, direct, 2, "the adder and yosys a+b+cin")
		assert.EqualValues(t, 2, direct[0]["stages"])
		assert.Equal(t, reset != nil, direct[0]["no_reset"])
		assert.Nil(t, direct[1]["stages"], "the reference has no architecture")
		assert.EqualValues(t, 0, direct[1]["registers"], "the reference stays combinational")
		status, out, errOut = prefixgen("synth", "--verilog", staged, "-f", "json")
		require.Equal(t, 0, status, errOut)
		var viaFile []map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &viaFile))
		for _, k := range []string{"area_um2", "delay_ns", "std_cells", "registers"} {
			assert.Equal(t, viaFile[0][k], direct[0][k], k)
		}
	}

	// prefixgen's own pipelined adder: its delay is the least clock period.
	piped := filepath.Join(dir, "piped.v")
	status, _, errOut = prefixgen("gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--stages", "2", "-o", piped)
	require.Equal(t, 0, status, errOut)
	status, out, errOut := prefixgen("synth", "--verilog", piped, "-f", "json")
	require.Equal(t, 0, status, errOut)
	var regs []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &regs))
	require.Len(t, regs, 1)
	assert.Positive(t, regs[0]["registers"], "flip-flops counted")
	assert.Positive(t, regs[0]["delay_ns"])
	status, out, errOut = prefixgen("synth", "--verilog", piped)
	require.Equal(t, 0, status, errOut)
	assert.Regexp(t, `(?m)^adder +width +area \(µm²\) +delay \(ns\) +std cells +registers +redundant`, out, "a registers column")
	assert.Regexp(t, fmt.Sprintf(`(?m)^prefix_adder_sklansky_8_pipe2 +8 +\d+ +[0-9.]+ +\d+ +%v +`, regs[0]["registers"]), out)
	assert.Equal(t, 1, strings.Count(out, "its delay is the least clock period"), "one note under the table")

	// A file included from the design's own folder, or from -I, is found
	// as Yosys finds it given the file; -D defines a macro.
	src, hdr := filepath.Join(dir, "src"), filepath.Join(dir, "hdr")
	require.NoError(t, os.MkdirAll(src, 0o755))
	require.NoError(t, os.MkdirAll(hdr, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(src, "width.vh"), []byte("`define W 8\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(hdr, "op.vh"), []byte("`ifdef ADD\n`define OP +\n`else\n`define OP -\n`endif\n"), 0o644))
	included := filepath.Join(src, "inc.v")
	require.NoError(t, os.WriteFile(included, []byte("`include \"width.vh\"\n`include \"op.vh\"\nmodule inc(input [`W-1:0] a, b, input cin, output [`W-1:0] sum, output cout);\n  assign {cout, sum} = a `OP b `OP cin;\nendmodule\n"), 0o644))
	added := measure("--verilog", included, "-I", hdr, "-D", "ADD", "-n", "8")
	require.Len(t, added, 2)
	assert.Equal(t, []any{added[1].AreaUM2, added[1].DelayNS, added[1].Cells}, []any{added[0].AreaUM2, added[0].DelayNS, added[0].Cells}, "with ADD it is a + b + cin")
	subtracted := measure("--verilog", included, "--include", hdr, "-n", "8", "--orders", "1")
	assert.NotEqual(t, added[0].AreaUM2, subtracted[0].AreaUM2, "without ADD, a - b - cin")
	// The design's own folder may be named anything: it is linked under a
	// plain name. One with a quote in its name was refused.
	quoted := filepath.Join(dir, `q"d`)
	require.NoError(t, os.MkdirAll(quoted, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(quoted, "plain.v"), []byte("module plain(input [3:0] a, b, output [4:0] s);\n  assign s = a + b;\nendmodule\n"), 0o644))
	require.Len(t, measure("--verilog", filepath.Join(quoted, "plain.v")), 1)

	broken := filepath.Join(dir, "broken.v")
	require.NoError(t, os.WriteFile(broken, []byte("module broken(input a, output y);\n  assign y = ;\nendmodule\n"), 0o644))
	latch := filepath.Join(dir, "latch.v")
	require.NoError(t, os.WriteFile(latch, []byte("module latch(input en, input d, output reg q);\n  always @* if (en) q = d;\nendmodule\n"), 0o644))
	osu := filepath.Join(dir, "osu.v") // a netlist of OSU's cells
	require.NoError(t, os.WriteFile(osu, []byte("module osu(input [0:0] a, b, input cin, output [0:0] sum, output cout);\n  INVX1 i (.A(a[0]), .Y(sum[0]));\n  INVX1 j (.A(b[0]), .Y(cout));\nendmodule\n"), 0o644))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--verilog", path, "--top", "nope"}, "adder.v: the Verilog declares no module nope: allowed prefix_adder_sklansky_8"},
		{[]string{"--verilog", filepath.Join(dir, "missing.v")}, "cannot read --verilog " + filepath.Join(dir, "missing.v") + ": no such file or directory"},
		{[]string{"--verilog", dir}, "is a directory"},
		{[]string{"--verilog", path, "--ling"}, "--ling does not apply to --verilog: the file fixes the design"},
		{[]string{"--verilog", path, "-t", "ripple"}, "--topology does not apply to --verilog"},
		{[]string{"--verilog", path, "-n", "0"}, "-n 0 out of range: allowed 1 or more"},
		{[]string{"--verilog", path, "-n", "16"}, "module prefix_adder_sklansky_8 has an input a of 8 bits, not the width 16 given: allowed its own width, 8"},
		{[]string{"-t", "ripple", "-n", "4", "--top", "x"}, "--top applies only with --verilog or --vhdl"},
		{[]string{"--verilog", broken}, "yosys cannot synthesize module broken of the Verilog given: line 2: ERROR: syntax error"},
		{[]string{"-t", "sklansky", "-n", "8", "--no-reset"}, "--no-reset applies to a pipelined adder: allowed with --stages"},
		{[]string{"-t", "sklansky", "-n", "8", "--stages", "0"}, "--stages 0 out of range: allowed 1 to the depth of the carry tree + 1"},
		{[]string{"-t", "sklansky", "-n", "8", "--stages", "9"}, "9 pipeline stages for a carry tree of depth 3: allowed 1 to 4"},
		{[]string{"-t", "all", "-n", "8", "--stages", "9"}, "prefixgen synth: kogge-stone: 9 pipeline stages for a carry tree of depth 3: allowed 1 to 4\n"},
		{[]string{"--verilog", path, "--stages", "2"}, "--stages does not apply to --verilog: the file fixes the design"},
		{[]string{"--verilog", osu, "--liberty", "sky130hd"}, "prefixgen synth: module osu instantiates INVX1, which neither the file nor the library sky130hd declares: allowed --liberty naming the library the netlist was mapped to\n"},
		{[]string{"--verilog", latch}, "module latch has 1 latch ($_DLATCH_P_): allowed combinational logic and rising-edge flip-flops clocked from input ports"},
		{[]string{"--verilog", included, "-D", "ADD"}, "ERROR: Can't open include file `op.vh'"},
		{[]string{"--verilog", included, "-I", filepath.Join(dir, "none")}, "include folder \"" + filepath.Join(dir, "none") + "\" cannot be read (no such file or directory): allowed a folder of Verilog headers"},
		{[]string{"--verilog", included, "-I", path}, "is not a folder: allowed a folder of Verilog headers"},
		{[]string{"--verilog", included, "-D", "W=5;"}, `define "W=5;": allowed NAME or NAME=VALUE`},
		{[]string{"-t", "sklansky", "-n", "8", "-D", "ADD"}, "--define does not apply to the adders prefixgen writes: allowed with synth --verilog FILE"},
		{[]string{"--vhdl", path, "-I", hdr}, "--include does not apply to VHDL: allowed with synth --verilog FILE"},
	} {
		status, out, errOut := prefixgen(append([]string{"synth"}, tt.args...)...)
		assert.Equal(t, 2, status, tt.args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "prefixgen synth: ", tt.args)
		assert.Contains(t, errOut, tt.want, tt.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	}
}

// synth --orders adds the spread to every format: the table's two columns
// and its note, and the seven fields of JSON and CSV, after delay_ns.
func TestSynthOrders(t *testing.T) {
	needFlow(t)
	args := []string{"synth", "-t", "brent-kung", "-n", "8", "--flow", "abc", "--orders", "2"}
	status, out, errOut := prefixgen(args...)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "area median (min–max)")
	assert.Contains(t, out, "delay median (min–max)")
	assert.Contains(t, out, "medians and ranges over each design as written and 2 orders of its generic netlist's gates (--orders)")

	status, out, errOut = prefixgen(append(args, "-f", "json")...)
	require.Equal(t, 0, status, errOut)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 2)
	for _, r := range rows {
		assert.EqualValues(t, 2, r["orders"])
		assert.LessOrEqual(t, r["area_um2_min"], r["area_um2"])
		assert.GreaterOrEqual(t, r["area_um2_max"], r["area_um2"])
		assert.LessOrEqual(t, r["delay_ns_min"], r["delay_ns_median"])
		assert.GreaterOrEqual(t, r["delay_ns_max"], r["delay_ns_median"])
	}

	status, out, errOut = prefixgen(append(args, "-f", "csv")...)
	require.Equal(t, 0, status, errOut)
	header := strings.SplitN(out, "\n", 2)[0]
	assert.Contains(t, header, ",delay_ns,orders,area_um2_median,area_um2_min,area_um2_max,delay_ns_median,delay_ns_min,delay_ns_max,")

	status, out, errOut = prefixgen("synth", "-t", "brent-kung", "-n", "8", "-f", "csv")
	require.Equal(t, 0, status, errOut)
	assert.NotContains(t, out, "orders", "without --orders, the columns of before")

	for _, k := range []string{"-1", "101"} {
		status, out, errOut = prefixgen("synth", "-t", "ripple", "-n", "4", "--orders", k)
		assert.Equal(t, 2, status)
		assert.Empty(t, out)
		assert.Equal(t, "prefixgen synth: --orders "+k+" out of range: allowed 0 to 100\n", errOut)
	}
}

// optimize --max-delay-ns --orders judges adders by their medians and
// says so; --orders alone is refused.
func TestOptimizeOrders(t *testing.T) {
	needFlow(t)
	t.Parallel()
	status, out, errOut := prefixgen("optimize", "-n", "4", "--flow-steps", "0", "--max-delay-ns", "10", "--flow", "abc", "--orders", "1")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "area median (µm²)")
	assert.Contains(t, out, "delay median (ns)")
	assert.Contains(t, out, "area and delay are medians over each adder as written and 1 order of its gates (--orders); the adder as written: ")

	status, out, errOut = prefixgen("optimize", "-n", "8", "--max-depth", "4", "--orders", "2")
	assert.Equal(t, 2, status)
	assert.Empty(t, out)
	assert.Equal(t, "prefixgen optimize: --orders applies only with --max-delay-ns or --max-area-um2\n", errOut)
}

// optimize --max-delay-ns writes the adder it measured: a sparse adder as
// a prefixgen.adder/v1 document that records its sparseness, which synth
// and gen --from then build without being told.
func TestOptimizeFlowSparseDocument(t *testing.T) {
	needFlow(t)
	t.Parallel()
	path := filepath.Join(t.TempDir(), "adder.json")
	status, out, errOut := prefixgen("optimize", "-n", "8", "--flow-steps", "4", "--max-delay-ns", "10", "--sparse", "4", "-f", "json", "-o", path)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	assert.Empty(t, errOut)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	net, arch, err := adder.ReadDocument(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, adder.Architecture{Flags: adder.Carry, Sparse: 4, Valency: 2}, arch)
	assert.Equal(t, 8, net.Width())
	status, out, errOut = prefixgen("synth", "--from", path, "-f", "json")
	require.Equal(t, 0, status, errOut)
	var rows []struct {
		Sparse  int     `json:"sparse"`
		DelayNS float64 `json:"delay_ns"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 2, "the adder and yosys a+b+cin")
	assert.Equal(t, 4, rows[0].Sparse)
	assert.LessOrEqual(t, rows[0].DelayNS, 10.0)

	// The table says which adder it measured and what -f json writes.
	status, out, errOut = prefixgen("optimize", "-n", "8", "--flow-steps", "0", "--max-delay-ns", "10", "--sparse", "4")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "the adder measured is sparse=4 (gen -f verilog --sparse 4): -f json writes it as a prefixgen.adder/v1 document\n")
	assert.Empty(t, errOut)

	// The diagram shows only the network, and standard error says so.
	status, out, errOut = prefixgen("optimize", "-n", "8", "--flow-steps", "0", "--max-delay-ns", "10", "--sparse", "4", "-f", "text")
	require.Equal(t, 0, status, errOut)
	assert.NotEmpty(t, out)
	assert.Equal(t, "prefixgen optimize: the adder measured is sparse=4: the diagram shows its network; -f json writes the adder (gen -f verilog --sparse 4)\n", errOut)
}

// optimize --stages measures pipelined adders: the table counts their
// flip-flops and says what a delay is, and -f json writes the adder
// document with its stages, which synth --from measures again as it was
// measured, and which --start continues from. At 4 bits: the plumbing is
// what is tested, and 4 bits have 7 lead candidates where 8 have 23.
func TestOptimizeFlowStages(t *testing.T) {
	needFlow(t)
	t.Parallel()
	status, out, errOut := prefixgen("optimize", "-n", "4", "--flow-steps", "2", "--max-delay-ns", "10", "--stages", "2", "--no-reset")
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, errOut)
	lines := strings.Split(out, "\n")
	require.GreaterOrEqual(t, len(lines), 3, out)
	header := strings.Fields(lines[0])
	assert.Equal(t, "registers", header[len(header)-1])
	regs, err := strconv.Atoi(strings.Fields(lines[1])[len(strings.Fields(lines[1]))-1])
	require.NoError(t, err, out)
	assert.Positive(t, regs)
	assert.Contains(t, out, "the adders are pipelined (stages=2 noreset; gen -f verilog --stages 2 --no-reset): a delay is the least clock period")

	path := filepath.Join(t.TempDir(), "network.json")
	status, out, errOut = prefixgen("optimize", "-n", "4", "--flow-steps", "2", "--max-delay-ns", "10", "--stages", "2", "--no-reset", "-f", "json", "-o", path)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	assert.Empty(t, errOut)
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(doc), "\"stages\": 2,\n  \"no_reset\": true,\n")
	status, out, errOut = prefixgen("synth", "--from", path, "-f", "json")
	require.Equal(t, 0, status, errOut)
	var rows []struct {
		Registers int `json:"registers"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	assert.Equal(t, regs, rows[0].Registers, "synth measures the adder optimize printed")

	// The document's pipeline is the adder's: a flag may repeat it, not
	// change it.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"synth", "--from", path, "--stages", "3"}, "prefixgen synth: --stages 3 contradicts " + path + ", the 2 register stages, no reset pipeline: leave --stages out"},
		{[]string{"gen", "--from", path, "-f", "verilog", "--no-reset=false"}, "prefixgen gen: --no-reset=false contradicts " + path + ", the 2 register stages, no reset pipeline: leave --no-reset out"},
		{[]string{"check", "--from", path, "--pipeline-after", "1"}, "prefixgen check: --pipeline-after contradicts " + path + ", the 2 register stages, no reset pipeline: leave --pipeline-after out"},
		{[]string{"optimize", "-n", "4", "--max-delay-ns", "10", "--start", path, "--stages", "1"}, "prefixgen optimize: --stages 1 contradicts " + path + ", the 2 register stages, no reset pipeline: leave --stages out"},
	} {
		status, out, errOut = prefixgen(tt.args...)
		assert.Equal(t, 2, status, out)
		assert.Equal(t, tt.want+"\n", errOut)
	}
	status, out, errOut = prefixgen("gen", "--from", path, "-f", "verilog", "--stages", "2")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "_pipe2_noreset (", "the pipeline without a reset")
	assert.NotContains(t, out, "rst")
}

// synthArea returns the area synth measures of the named adder of width n
// through the default flow.
func synthArea(t *testing.T, topology string, n int) float64 {
	t.Helper()
	status, out, errOut := prefixgen("synth", "-t", topology, "-n", fmt.Sprint(n), "-f", "json")
	require.Equal(t, 0, status, errOut)
	var rows []struct {
		AreaUM2 float64 `json:"area_um2"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.NotEmpty(t, rows)
	return rows[0].AreaUM2
}

// optimize --max-area-um2 asks for the fastest adder within an area: the
// one it prints is within the bound and no slower than the named network
// beside it; an area no adder fits is a result (exit status 1) naming the
// smallest. At 4 bits, as optimize's own tests search 8.
func TestOptimizeMaxArea(t *testing.T) {
	needFlow(t)
	t.Parallel()
	bkArea := synthArea(t, "brent-kung", 4)
	bound := fmt.Sprint(bkArea)

	status, out, errOut := prefixgen("optimize", "-n", "4", "--flow-steps", "4", "--max-area-um2", bound, "--sparse", "1,2")
	require.Equal(t, 0, status, errOut)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	require.GreaterOrEqual(t, len(rows), 3, out)
	field := func(row string, i int) float64 {
		f := strings.Fields(row)
		v, err := strconv.ParseFloat(f[len(f)-i], 64)
		require.NoError(t, err, row)
		return v
	}
	area, delay := field(rows[1], 2), field(rows[1], 1)
	assert.LessOrEqual(t, area, bkArea, out)
	if named := rows[2]; !strings.HasPrefix(named, "found by") {
		assert.LessOrEqual(t, delay, field(named, 1), "no slower than the fastest named network within the area:\n%s", out)
	}

	path := filepath.Join(t.TempDir(), "fast.json")
	status, _, errOut = prefixgen("optimize", "-n", "4", "--flow-steps", "4", "--max-area-um2", bound, "--sparse", "1,2", "-f", "json", "-o", path)
	require.Equal(t, 0, status, errOut)
	status, out, errOut = prefixgen("synth", "--from", path, "-f", "json")
	require.Equal(t, 0, status, errOut)
	var again []struct {
		AreaUM2 float64 `json:"area_um2"`
		DelayNS float64 `json:"delay_ns"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &again))
	assert.Equal(t, area, again[0].AreaUM2, "the file is the adder measured")

	status, out, errOut = prefixgen("optimize", "-n", "4", "--max-area-um2", "10")
	assert.Equal(t, 1, status)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "none has an area ≤ 10 µm²: the smallest, ")
}

// --start goes on from the adder file an earlier search wrote: without
// --sparse and --ling the file's architecture stands, the start is
// measured, and it is the result when nothing beats it.
func TestOptimizeStart(t *testing.T) {
	needFlow(t)
	t.Parallel()
	path := filepath.Join(t.TempDir(), "adder.json")
	status, out, errOut := prefixgen("optimize", "-n", "8", "--flow-steps", "8", "--max-delay-ns", "10", "--sparse", "2", "--ling", "-f", "json", "-o", path)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	assert.Empty(t, errOut)
	// With --ling every adder measured has Ling's pseudo-carries, and the
	// document records them.
	status, out, errOut = prefixgen("synth", "--from", path, "-f", "csv")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, ",8,2,2,true,", "sparse 2, valency 2, ling")

	status, out, errOut = prefixgen("optimize", "-n", "8", "--flow-steps", "4", "--max-delay-ns", "10", "--start", path)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "the adder measured is sparse=2 ling (gen -f verilog --sparse 2 --ling)")
	assert.Contains(t, out, "found by: the start network 1 (optimizer), measured by the flow\n")
	rows := strings.Split(out, "\n")
	require.GreaterOrEqual(t, len(rows), 2, out)
	assert.Regexp(t, `^optimizer max_depth=6 seed=1\s+8\s+\d+\s+\d+\s+\d+\s+[\d.]+\s+2\s`, rows[1])

	// Several starts: each is measured. A network no candidate is (depth
	// 5, one cell over Snir's bound) adds one to those measured.
	odd := filepath.Join(filepath.Dir(path), "odd.json")
	require.NoError(t, os.WriteFile(odd, []byte(`{"format":"prefixgen.network/v1","width":8,"topology":"odd","params":{},
 "cells":[[0,1],[8,2],[9,3],[4,5],[6,7],[11,12],[10,13],[10,4],[10,11],[16,6]],"outputs":[0,8,9,10,15,16,17,14]}`), 0o644))
	measured := func(starts ...string) int {
		args := []string{"optimize", "-n", "8", "--max-delay-ns", "10"}
		for _, s := range starts {
			args = append(args, "--start", s)
		}
		status, out, errOut := prefixgen(args...)
		require.Equal(t, 0, status, errOut)
		assert.Contains(t, out, "the adder measured is sparse=2 ling (gen -f verilog --sparse 2 --ling)")
		m := regexp.MustCompile(`(?m)^(\d+) networks measured;`).FindStringSubmatch(out)
		require.NotNil(t, m, out)
		n, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		return n
	}
	assert.Equal(t, measured(path)+1, measured(path, odd))
}

// With --fa-cells a search under a delay is bound to depth N − 1 unless
// --max-depth says otherwise: chains of full adders are fast, and the
// carry-select networks they make are deep.
func TestOptimizeFACellsDepth(t *testing.T) {
	needFlow(t)
	t.Parallel()
	status, out, errOut := prefixgen("optimize", "-n", "8", "--max-delay-ns", "100", "--fa-cells", "--flow-steps", "0")
	require.Equal(t, 0, status, errOut)
	assert.Regexp(t, `(?m)^optimizer max_depth=7 seed=1\s`, out)
}

// The delay of the fastest adder a search under too tight a bound
// measured is told to its digits: given as the bound, it is met. Told to
// three, 0.829 ns had been refused as "none has a delay ≤ 0.829 ns: the
// fastest … takes 0.829 ns".
func TestOptimizeNotFoundDelayIsABound(t *testing.T) {
	needFlow(t)
	t.Parallel()
	status, _, errOut := prefixgen("optimize", "-n", "12", "--max-delay-ns", "0.1", "--flow-steps", "0")
	require.Equal(t, 1, status, errOut)
	m := regexp.MustCompile(`takes ([0-9.]+) ns\n$`).FindStringSubmatch(errOut)
	require.NotNil(t, m, errOut)
	status, _, errOut = prefixgen("optimize", "-n", "12", "--max-delay-ns", m[1], "--flow-steps", "0")
	assert.Equal(t, 0, status, errOut)
}

// --increment with a list of sparseness that holds 1 gives carry-increment
// blocks to every sparse adder, whatever the list's order, and none to the
// dense one, as explore does: with 1 first they had been dropped without a
// word, and with 2 first the run was refused as if --sparse 2 were missing.
func TestOptimizeIncrementSparseList(t *testing.T) {
	needFlow(t)
	t.Parallel()
	for _, list := range []string{"1,2", "2,1"} {
		work := filepath.Join(t.TempDir(), "work")
		status, _, errOut := prefixgen("optimize", "-n", "4", "--max-delay-ns", "100", "--fa-cells", "--increment", "--sparse", list, "--flow-steps", "0", "--workdir", work)
		require.Equal(t, 0, status, errOut)
		entries, err := os.ReadDir(work)
		require.NoError(t, err)
		dense, sparse := 0, 0
		for _, e := range entries {
			name := e.Name()
			switch {
			case !e.IsDir():
			case strings.Contains(name, "_sparse_2_"):
				sparse++
				assert.True(t, strings.HasSuffix(name, "_facells_increment"), "--sparse %s: %s", list, name)
			default:
				dense++
				assert.True(t, strings.HasSuffix(name, "_facells"), "--sparse %s: %s", list, name)
			}
		}
		assert.Positive(t, dense, list)
		assert.Positive(t, sparse, list)
	}
}

// --valency K measures every adder with gates of up to K inputs, and the
// file it writes records them; --start of a radix adder, as gen --valency
// writes it, keeps its valency as it keeps its sparseness, and a flag that
// changes it is bad usage. At 4 bits (7 lead candidates, where 8 bits
// have 23).
func TestOptimizeValency(t *testing.T) {
	needFlow(t)
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "sk3.json")
	status, _, errOut := prefixgen("gen", "-t", "sklansky", "-n", "4", "--valency", "3", "--sparse", "2", "-f", "json", "-o", path)
	require.Equal(t, 0, status, errOut)
	out3 := filepath.Join(dir, "out3.json")
	for _, args := range [][]string{{"--valency", "3"}, {"--start", path}} {
		status, out, errOut := prefixgen(append([]string{"optimize", "-n", "4", "--flow-steps", "0", "--max-delay-ns", "10", "-f", "json", "-o", out3}, args...)...)
		require.Equal(t, 0, status, errOut)
		assert.Empty(t, out)
		assert.Empty(t, errOut)
		status, out, errOut = prefixgen("synth", "--from", out3, "-f", "csv")
		require.Equal(t, 0, status, errOut)
		assert.Regexp(t, `\n[^,]*,[^,]*,4,\d,3,`, out, "%v: the adder measured and written has valency 3", args)
	}
	status, out, errOut := prefixgen("optimize", "-n", "4", "--flow-steps", "0", "--max-delay-ns", "10", "--start", path, "--valency", "2")
	assert.Equal(t, 2, status)
	assert.Empty(t, out)
	assert.Equal(t, "prefixgen optimize: --valency 2 contradicts "+path+", the valency-3 adder: leave --valency out\n", errOut)
	for _, args := range [][]string{{"--valency", "5", "--max-delay-ns", "10"}, {"--valency", "3", "--max-depth", "4"}} {
		status, out, errOut := prefixgen(append([]string{"optimize", "-n", "4"}, args...)...)
		assert.Equal(t, 2, status, "%v", args)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	}
}

// A start file that cannot be the search's start is bad usage: one line,
// exit status 2, before any synthesis.
func TestOptimizeStartBadUsage(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, args ...string) string {
		path := filepath.Join(dir, name)
		status, _, errOut := prefixgen(append([]string{"gen", "-f", "json", "-o", path}, args...)...)
		require.Equal(t, 0, status, errOut)
		return path
	}
	ripple := file("ripple.json", "-t", "ripple", "-n", "16")
	ling := file("ling.json", "-t", "brent-kung", "-n", "16", "--sparse", "2", "--ling")
	denseLing := file("dense-ling.json", "-t", "brent-kung", "-n", "16", "--ling")
	sparse2 := file("sparse2.json", "-t", "brent-kung", "-n", "16", "--sparse", "2")
	broken := filepath.Join(dir, "broken.json")
	require.NoError(t, os.WriteFile(broken, []byte(`{"format":"prefixgen.network/v1","width":2}`), 0o644))
	bk := file("bk.json", "-t", "brent-kung", "-n", "16")
	sk := file("sk.json", "-t", "sklansky", "-n", "16")
	// Adders made for two libraries, as optimize -f json records them.
	made := func(name, library string) string {
		var doc map[string]any
		data, err := os.ReadFile(sparse2)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &doc))
		doc["library"], doc["flow"] = library, "keep"
		data, err = json.Marshal(doc)
		require.NoError(t, err)
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		return path
	}
	made18, made35 := made("made18.json", "osu018"), made("made35.json", "osu035")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--max-depth", "5", "--start", ling}, "--start applies only with --max-delay-ns or --max-area-um2"},
		{[]string{"--max-delay-ns", "1", "--start", filepath.Join(dir, "none.json")},
			"cannot read start file " + filepath.Join(dir, "none.json") + ": no such file or directory: allowed a prefixgen.network/v1 or prefixgen.adder/v1 file"},
		{[]string{"--max-delay-ns", "1", "--start", broken}, broken + ": 0 outputs for width 2: want one output per position"},
		{[]string{"--max-delay-ns", "1", "--start", ripple}, "start network 1 (ripple) has depth 15, above the depth bound 8: allowed a start of depth ≤ 8, or --max-depth 15 or more"},
		{[]string{"--max-area-um2", "1", "--start", ripple, "--max-depth", "14"}, "start network 1 (ripple) has depth 15, above the depth bound 14"},
		{[]string{"--max-delay-ns", "1", "--start", ling, "--sparse", "1,4"}, "--sparse 1,4 leaves out " + ling + "'s sparseness 2: add 2 to the list, or leave --sparse out"},
		{[]string{"--max-delay-ns", "1", "--start", ling, "--ling=false"}, "--ling=false contradicts " + ling + ", the Ling adder: leave --ling out"},
		// An adder document records its plain parts too.
		{[]string{"--max-delay-ns", "1", "--start", denseLing, "--sparse", "2"}, "--sparse 2 leaves out " + denseLing + "'s sparseness 1: add 1 to the list, or leave --sparse out"},
		{[]string{"--max-delay-ns", "1", "--start", sparse2, "--ling"}, "--ling contradicts " + sparse2 + ", an adder without Ling's carries: leave --ling out"},
		{[]string{"--max-delay-ns", "1", "--start", sparse2, "--stages", "1"}, "--stages 1 contradicts " + sparse2 + ", the combinational adder: leave --stages out"},
		// Several start files: each is read and checked, and the adder
		// documents among them record one architecture but for
		// sparseness, and one library and flow.
		{[]string{"--max-delay-ns", "1", "--start", bk, "--start", filepath.Join(dir, "none.json")},
			"cannot read start file " + filepath.Join(dir, "none.json") + ": no such file or directory: allowed a prefixgen.network/v1 or prefixgen.adder/v1 file"},
		{[]string{"--max-delay-ns", "1", "--max-fanout", "5", "--start", bk + "," + sk}, "start network 2 (sklansky) has fan-out 9, above the fan-out bound 5"},
		{[]string{"--max-delay-ns", "1", "--start", ling, "--start", sparse2}, "--start " + ling + " records the adder sparse=2 ling, " + sparse2 + " the adder sparse=2: several start files record one architecture but for sparseness"},
		{[]string{"--max-delay-ns", "1", "--start", denseLing, "--start", ling}, "--start " + denseLing + " is a sparse-1 adder, " + ling + " a sparse-2 one: give --sparse with both"},
		{[]string{"--max-delay-ns", "1", "--start", denseLing, "--start", ling, "--sparse", "1,4"}, "--sparse 1,4 leaves out " + ling + "'s sparseness 2: add 2 to the list"},
		{[]string{"--max-delay-ns", "1", "--start", made18, "--start", made35}, "--start " + made18 + " was made for library osu018, " + made35 + " for library osu035: give start files made for one library, or --liberty"},
		// The flow given, the libraries still differ; the library given,
		// they agree on the flow and no more is asked.
		{[]string{"--max-delay-ns", "1", "--start", made18, "--start", made35, "--flow", "abc"}, "--start " + made18 + " was made for library osu018, " + made35 + " for library osu035: give start files made for one library, or --liberty"},
		{[]string{"--max-delay-ns", "1", "--start", made18, "--start", made35, "--liberty", "osu018", "--max-depth", "3"}, "no network of width 16 has depth 3 or less"},
	}
	for _, tt := range tests {
		status, out, errOut := prefixgen(append([]string{"optimize", "-n", "16"}, tt.args...)...)
		assert.Equal(t, 2, status, errOut)
		assert.Empty(t, out)
		assert.True(t, strings.HasPrefix(errOut, "prefixgen optimize: "+tt.want), "%q does not start with %q", errOut, tt.want)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
	}
	status, out, errOut := prefixgen("optimize", "-n", "8", "--flow-steps", "8", "--max-delay-ns", "1", "--start", ripple)
	assert.Equal(t, 2, status)
	assert.Empty(t, out)
	assert.Equal(t, "prefixgen optimize: --start "+ripple+": a network of width 16: allowed only the width searched, -n 8\n", errOut)
}

// optimize --flow-steps under bounds that leave the search nothing new to
// measure says how many of the syntheses it ran, instead of counting them
// silently short.
func TestOptimizeFlowStepsShort(t *testing.T) {
	needFlow(t)
	if testing.Short() {
		t.Skip("a few syntheses")
	}
	status, out, errOut := prefixgen("optimize", "-n", "5", "--max-delay-ns", "3", "--max-depth", "3", "--max-fanout", "3", "--flow-steps", "20")
	require.Equal(t, 0, status, errOut)
	m := regexp.MustCompile(`(?m)^the flow search ran (\d+) of the 20 syntheses asked: within depth 3 and fan-out 3 its chains found no new neighbour to measure$`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	ran, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	assert.Less(t, ran, 20)
	// Eight candidates, one radix network within the bounds (measured
	// whatever the model says), and the search's syntheses.
	assert.Regexp(t, fmt.Sprintf(`(?m)^%d networks measured;`, 9+ran), out, "the candidates and the search's syntheses")
}

// Under --max-area-um2 the depth bound is N − 1 unless given: the
// smallest adders are the deepest networks, and a bound of 2⌈log2 N⌉
// would leave ripple, the smallest of all, out of the search.
func TestOptimizeMaxAreaDeep(t *testing.T) {
	needFlow(t)
	t.Parallel()
	bound := fmt.Sprint(synthArea(t, "ripple", 8))

	status, out, errOut := prefixgen("optimize", "-n", "8", "--max-area-um2", bound)
	require.Equal(t, 0, status, errOut)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	require.GreaterOrEqual(t, len(rows), 3, out)
	f := strings.Fields(rows[1])
	assert.Equal(t, "7", f[4], "the depth of the adder found:\n%s", out)
	assert.Equal(t, bound, f[len(f)-2], "the area of the adder found:\n%s", out)
	status, out, errOut = prefixgen("optimize", "-n", "8", "--max-area-um2", bound, "--max-depth", "6")
	assert.Equal(t, 1, status, out)
	assert.Contains(t, errOut, "none has an area ≤ "+bound+" µm²", "a bound of 6 leaves ripple out")
}

// A flow search of width 1 measures one network, and says so in the
// singular.
func TestOptimizeFlowOneNetwork(t *testing.T) {
	needFlow(t)
	status, out, errOut := prefixgen("optimize", "-n", "1", "--max-delay-ns", "2")
	require.Equal(t, 0, status, errOut)
	assert.Regexp(t, `(?m)^1 network measured;`, out)
}
