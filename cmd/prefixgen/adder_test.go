package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/golden"
)

// Golden adders of a few architectures, small enough to read.
func TestGenArchitectureGolden(t *testing.T) {
	tests := []struct {
		file string
		args []string
	}{
		{"gen-ks8-sparse4-sub.v", []string{"gen", "-t", "kogge-stone", "-n", "8", "-f", "verilog", "--sparse", "4", "--op", "sub", "--flags", "carry,overflow"}},
		{"gen-sk4-addsub-pipe.v", []string{"gen", "-t", "sklansky", "-n", "4", "-f", "verilog", "--op", "addsub", "--no-cin", "--flags", "zero,negative", "--pipeline-after", "0,2"}},
		{"gen-bk6-compare.v", []string{"gen", "-t", "brent-kung", "-n", "6", "-f", "verilog", "--op", "compare"}},
		{"gen-sk4-addsub-pipe_tb.v", []string{"gen", "-t", "sklansky", "-n", "4", "-f", "verilog", "--testbench", "--op", "addsub", "--no-cin", "--flags", "zero,negative", "--pipeline-after", "0,2"}},
		{"gen-ks4-pipe-noreset.v", []string{"gen", "-t", "kogge-stone", "-n", "4", "-f", "verilog", "--stages", "2", "--no-reset"}},
		{"gen-ks4-pipe-noreset_tb.v", []string{"gen", "-t", "kogge-stone", "-n", "4", "-f", "verilog", "--testbench", "--stages", "2", "--no-reset"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			status, out, errOut := prefixgen(tt.args...)
			require.Equal(t, 0, status, errOut)
			assert.Empty(t, errOut)
			golden.Check(t, filepath.Join("testdata", tt.file), []byte(out))
		})
	}
}

// Architecture options that do not fit: one line naming what is allowed,
// exit status 2, nothing written.
func TestGenArchitectureBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--sparse", "3"}, "sparseness 3 not allowed: allowed 1, 2, 4, 8"},
		{[]string{"-n", "2", "--sparse", "4"}, "sparseness 4 exceeds the width 2"},
		{[]string{"--pipeline-after", "9"}, "pipeline level 9 beyond the carry tree: allowed 0 (after the pre-processing) to 4"},
		{[]string{"--pipeline-after", "2,1"}, "allowed distinct levels from 0 up, smallest first"},
		{[]string{"--pipeline-after", "one"}, "want comma-separated levels"},
		{[]string{"--stages", "6"}, "6 pipeline stages for a carry tree of depth 4: allowed 1 to 5"},
		{[]string{"--stages", "0"}, "--stages 0 out of range"},
		{[]string{"--stages", "1", "--pipeline-after", "1"}, "use one"},
		{[]string{"--no-reset"}, "--no-reset applies to a pipelined adder: allowed with --stages or --pipeline-after"},
		{[]string{"--op", "mul"}, `unknown operation "mul": allowed add, sub, addsub, compare`},
		{[]string{"--flags", "parity"}, `unknown flag "parity"`},
		{[]string{"--op", "compare", "--flags", "zero"}, "--flags applies to --op add, sub and addsub"},
		{[]string{"--op", "compare", "--no-cin"}, "compare has no carry-in"},
		{[]string{"--op", "compare", "--sparse", "2"}, "does not apply to compare"},
		{[]string{"-f", "json", "--op", "sub"}, `--op applies to -f verilog and vhdl only, not "json"`},
		{[]string{"-f", "yosys-lcu", "--sparse", "2"}, `--sparse applies to -f verilog, vhdl and json (the adder document) only, not "yosys-lcu"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.v")
			args := withFlags([]string{"gen", "-t", "kogge-stone", "-n", "16", "-f", "verilog", "-o", path}, tt.args...)
			status, out, errOut := prefixgen(args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tt.want)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
			_, err := os.Stat(path)
			assert.True(t, os.IsNotExist(err), "nothing written")
		})
	}
	status, _, errOut := prefixgen("check", "-t", "sklansky", "-n", "8", "--sparse", "16")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "sparseness 16 not allowed")
}

func TestGenValency(t *testing.T) {
	status, out, errOut := prefixgen("gen", "-t", "kogge-stone", "-n", "9", "--valency", "3", "-f", "verilog")
	require.Equal(t, 0, status, errOut)
	golden.Check(t, filepath.Join("testdata", "gen-ks9-valency3.v"), []byte(out))
	// The JSON of a radix-3 network carries v=3 and its chains: read back
	// and emitted with --valency 3, it gives the same adder.
	dir := t.TempDir()
	path := filepath.Join(dir, "ks9v3.json")
	status, _, errOut = prefixgen("gen", "-t", "kogge-stone", "-n", "9", "--valency", "3", "-f", "json", "-o", path)
	require.Equal(t, 0, status, errOut)
	status, again, errOut := prefixgen("gen", "--from", path, "--valency", "3", "-f", "verilog")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, out, again)

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-t", "brent-kung", "-n", "16", "--valency", "4"}, "--valency 4: brent-kung has no higher-valency form; allowed for kogge-stone, sklansky"},
		{[]string{"-t", "kogge-stone", "-n", "16", "--valency", "5"}, "--valency 5 not allowed: allowed 2, 3, 4"},
		{[]string{"-t", "sklansky", "-n", "16", "--valency", "3", "--param", "k=1"}, "--param does not apply to --valency"},
		{[]string{"-t", "knowles", "-n", "8", "--valency", "3", "--param", "s=1"}, "--valency 3: knowles has no higher-valency form; allowed for kogge-stone, sklansky"},
	} {
		status, out, errOut := prefixgen(append([]string{"gen", "-f", "verilog"}, tt.args...)...)
		assert.Equal(t, 2, status, errOut)
		assert.Empty(t, out)
		assert.Contains(t, errOut, tt.want)
	}
}

// stats --sparse and --valency print the figures of the adder's carry tree.
func TestStatsArchitecture(t *testing.T) {
	for _, tt := range []struct {
		file string
		args []string
	}{
		{"stats-all-64-sparse4.csv", []string{"stats", "-t", "all", "-n", "64", "--sparse", "4", "-f", "csv"}},
		{"stats-sk-64-valency4.json", []string{"stats", "-t", "sklansky", "-n", "64", "--valency", "4", "-f", "json"}},
		{"stats-ks-64-valency4-sparse4.txt", []string{"stats", "-t", "kogge-stone", "-n", "64", "--valency", "4", "--sparse", "4"}},
	} {
		status, out, errOut := prefixgen(tt.args...)
		require.Equal(t, 0, status, errOut)
		golden.Check(t, filepath.Join("testdata", tt.file), []byte(out))
	}
	status, _, errOut := prefixgen("stats", "-t", "all", "-n", "16", "--valency", "3")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "--valency 3 does not apply to -t all: name one of kogge-stone, sklansky")
	status, _, errOut = prefixgen("stats", "-t", "ripple", "-n", "4", "--sparse", "8")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "sparseness 8 exceeds the width 4")
}

// stats --from an adder's document measures the adder the document
// records, as gen --from writes it: with full adders too, whose sum
// multiplexers it had counted as none, measuring the adder without them.
func TestStatsFromAdderDocument(t *testing.T) {
	muxes := regexp.MustCompile(`(?m)^// cells: .*, (\d+) sum multiplexers$`)
	dir := t.TempDir()
	for _, arch := range [][]string{
		{"-t", "carry-select", "-n", "12", "--fa-cells"},
		{"-t", "brent-kung", "-n", "16", "--sparse", "4", "--fa-cells", "--increment"},
	} {
		doc := filepath.Join(dir, "adder.json")
		status, _, errOut := prefixgen(append([]string{"gen", "-f", "json", "-o", doc}, arch...)...)
		require.Equal(t, 0, status, errOut)
		status, out, errOut := prefixgen("stats", "--from", doc, "-f", "json")
		require.Equal(t, 0, status, errOut)
		var stats struct {
			Muxes int `json:"select_muxes"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &stats))
		status, out, errOut = prefixgen("gen", "--from", doc, "-f", "verilog")
		require.Equal(t, 0, status, errOut)
		m := muxes.FindStringSubmatch(out)
		require.NotNil(t, m, "%v: the sum multiplexers in the header", arch)
		assert.Equal(t, m[1], strconv.Itoa(stats.Muxes), arch)
		assert.Positive(t, stats.Muxes, arch)
		status, out, errOut = prefixgen("stats", "--from", doc)
		require.Equal(t, 0, status, errOut)
		assert.Contains(t, out, ", facells", arch)
	}
}

// The header of a sparse or valency-k adder states the figures stats
// prints for that adder (over its gates), not the network's.
func TestAdderHeaderMatchesStats(t *testing.T) {
	fanout := regexp.MustCompile(`(?m)^// max fan-out (\d+) \(logical, over the adder's gates`)
	tracks := regexp.MustCompile(`(?m)^// wire tracks (\d+) \(over the adder's gates\)`)
	for _, arch := range [][]string{{"--sparse", "4"}, {"--valency", "4"}, {"--sparse", "2", "--valency", "3"}} {
		t.Run(strings.Join(arch, " "), func(t *testing.T) {
			base := []string{"-t", "kogge-stone", "-n", "16"}
			status, out, errOut := prefixgen(append(append([]string{"stats", "-f", "json"}, base...), arch...)...)
			require.Equal(t, 0, status, errOut)
			var stats struct {
				MaxFanout  int `json:"max_fanout"`
				WireTracks int `json:"wire_tracks"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &stats))
			status, out, errOut = prefixgen(append(append([]string{"gen", "-f", "verilog"}, base...), arch...)...)
			require.Equal(t, 0, status, errOut)
			f, w := fanout.FindStringSubmatch(out), tracks.FindStringSubmatch(out)
			require.NotNil(t, f, "the adder's fan-out in the header")
			require.NotNil(t, w, "the adder's wire tracks in the header")
			assert.Equal(t, strconv.Itoa(stats.MaxFanout), f[1])
			assert.Equal(t, strconv.Itoa(stats.WireTracks), w[1])
		})
	}
}

// carry-select is built by name, its parameters set by --param, and with
// --fa-cells it is a carry-select adder of the library's full adders: at
// 12 bits the segments 3, 4 and 5 bits long, a full adder for each bit of
// the first and two for each of the others but their lowest, whose carry
// into the segment selects the sums. -t all leaves it out.
func TestCarrySelectByName(t *testing.T) {
	t.Parallel()
	status, out, errOut := prefixgen("gen", "-t", "carry-select", "-n", "16")
	require.Equal(t, 0, status, errOut)
	assert.True(t, strings.HasPrefix(out, "carry-select g=1 l=3, width 16: depth 6, size 25,"), out)

	status, out, errOut = prefixgen("stats", "-t", "carry-select", "-n", "64", "--param", "l=8", "--param", "g=0", "-f", "csv")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "\ncarry-select,g=0;l=8,64,14,112,", "eight segments of 8 bits")

	status, out, errOut = prefixgen("gen", "-t", "carry-select", "-n", "12", "--fa-cells", "--liberty", "asap7", "-f", "verilog")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "module prefix_adder_carry_select_g1_l3_12_facells (")
	assert.Contains(t, out, "// cells:      17 full adders (FAx1_ASAP7_75t_R of a standard-cell library), 7 sum multiplexers")

	status, out, errOut = prefixgen("stats", "-t", "all", "-n", "16")
	require.Equal(t, 0, status, errOut)
	assert.NotContains(t, out, "carry-select")

	status, out, errOut = prefixgen("gen", "-t", "carry-select", "-n", "16", "--param", "k=1")
	assert.Equal(t, 2, status, out)
	assert.Equal(t, "prefixgen gen: carry-select has no parameter \"k\": allowed are l, g\n", errOut)
}
