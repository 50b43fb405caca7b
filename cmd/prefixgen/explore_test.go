package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type explored struct {
	Network    string         `json:"network"`
	Family     string         `json:"family"`
	Params     map[string]int `json:"params"`
	Width      int            `json:"width"`
	Depth      int            `json:"depth"`
	Size       int            `json:"size"`
	MaxFanout  int            `json:"max_fanout"`
	WireTracks int            `json:"wire_tracks"`
	Command    string         `json:"command"`
}

func exploreJSON(t *testing.T, args ...string) []explored {
	t.Helper()
	status, out, errOut := prefixgen(append([]string{"explore", "-f", "json"}, args...)...)
	require.Equal(t, 0, status, errOut)
	var rows []explored
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	return rows
}

// The front is a subset of --all, no front row is dominated by any row, and
// every row's command rebuilds a network with the row's figures.
func TestExplore(t *testing.T) {
	all := exploreJSON(t, "-n", "16", "--all")
	front := exploreJSON(t, "-n", "16")
	require.NotEmpty(t, front)
	require.Less(t, len(front), len(all))
	key := func(r explored) [4]int { return [4]int{r.Depth, r.Size, r.MaxFanout, r.WireTracks} }
	for _, f := range front {
		assert.Contains(t, all, f)
		for _, a := range all {
			ka, kf := key(a), key(f)
			dominated := ka != kf && ka[0] <= kf[0] && ka[1] <= kf[1] && ka[2] <= kf[2] && ka[3] <= kf[3]
			assert.False(t, dominated, "%s dominated by %s", f.Network, a.Network)
		}
	}
	dir := t.TempDir()
	optimized := 0
	for i, r := range all {
		args := strings.Fields(r.Command)
		require.Equal(t, "prefixgen", args[0], r.Command)
		var stats []string
		switch args[1] {
		case "gen":
			stats = append(append([]string{"stats"}, args[2:]...), "-f", "json")
		case "optimize":
			// The optimizer's command writes the network; stats reads it.
			optimized++
			file := filepath.Join(dir, fmt.Sprintf("net%d.json", i))
			status, _, errOut := prefixgen(append(args[1:], "-o", file)...)
			require.Equal(t, 0, status, errOut)
			stats = []string{"stats", "--from", file, "-f", "json"}
		default:
			t.Fatalf("%s: not a gen or optimize command", r.Command)
		}
		status, out, errOut := prefixgen(stats...)
		require.Equal(t, 0, status, errOut)
		var s explored
		require.NoError(t, json.Unmarshal([]byte(out), &s))
		assert.Equal(t, key(r), key(s), r.Command)
	}
	assert.Positive(t, optimized, "the optimizer adds networks no family builds")
	for _, r := range exploreJSON(t, "-n", "16", "--all", "--max-fanout", "5") {
		assert.LessOrEqual(t, r.MaxFanout, 5, r.Network)
	}
	_, again, _ := prefixgen("explore", "-n", "16", "-f", "json")
	_, once, _ := prefixgen("explore", "-n", "16", "-f", "json")
	assert.Equal(t, once, again, "the same command prints the same bytes")
}

func TestExplorePlotAndReport(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"p.svg", "p.png"} {
		status, out, errOut := prefixgen("explore", "-n", "32", "--plot", filepath.Join(dir, name), "-o", filepath.Join(dir, "front.txt"))
		require.Equal(t, 0, status, errOut)
		assert.Empty(t, out)
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.NotEmpty(t, data)
	}
	page := filepath.Join(dir, "report.html")
	status, out, errOut := prefixgen("report", "-n", "12", "-o", page)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	all := exploreJSON(t, "-n", "12", "--all")
	assert.Equal(t, len(all), strings.Count(string(data), `<figure class="diagram">`))
	assert.Contains(t, string(data), "<code>prefixgen report -n 12 -o report.html</code>")
	// The plot is explore's: the optimizer under a fan-out bound is drawn,
	// and left out of the table.
	assert.Contains(t, string(data), "optimizer, fan-out ≤ 4")
	assert.Equal(t, len(all), strings.Count(string(data), `<figure class="diagram">`))
}

// --carry-select adds the carry-select networks, each rebuilt by its
// command, to explore's rows and report's diagrams, and report's page
// names the flag in its command.
func TestExploreCarrySelect(t *testing.T) {
	without := exploreJSON(t, "-n", "12", "--all", "--no-optimize")
	with := exploreJSON(t, "-n", "12", "--all", "--no-optimize", "--carry-select")
	require.Equal(t, without, with[:len(without)], "the families' rows first, unchanged")
	require.Greater(t, len(with), len(without))
	for _, r := range with[len(without):] {
		assert.Equal(t, "carry-select", r.Family, r.Network)
		status, out, errOut := prefixgen(append(append([]string{"stats"}, strings.Fields(r.Command)[2:]...), "-f", "json")...)
		require.Equal(t, 0, status, errOut)
		var s explored
		require.NoError(t, json.Unmarshal([]byte(out), &s))
		assert.Equal(t, [4]int{r.Depth, r.Size, r.MaxFanout, r.WireTracks}, [4]int{s.Depth, s.Size, s.MaxFanout, s.WireTracks}, r.Command)
	}
	page := filepath.Join(t.TempDir(), "report.html")
	status, _, errOut := prefixgen("report", "-n", "12", "--no-optimize", "--carry-select", "-o", page)
	require.Equal(t, 0, status, errOut)
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Equal(t, len(with), strings.Count(string(data), `<figure class="diagram">`))
	assert.Contains(t, string(data), "<code>prefixgen report -n 12 --carry-select --no-optimize -o report.html</code>")
	requireRefused(t, []string{"explore", "-n", "12", "--synth", "--carry-select", "--valency", "3,4"},
		"prefixgen explore: --carry-select adds networks of binary cells, which --valency 3,4 leaves out: allowed --valency with 2 among its valencies")
}

func TestExploreBadInput(t *testing.T) {
	dir := t.TempDir()
	plot := filepath.Join(dir, "p.svg")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"width zero", []string{"explore", "-n", "0", "--plot", plot}, "prefixgen explore: width 0 out of range: allowed 1…1024"},
		{"width too large", []string{"explore", "-n", "5000"}, "prefixgen explore: width 5000 out of range: allowed 1…1024"},
		{"fan-out too small", []string{"explore", "-n", "8", "--max-fanout", "1", "--plot", plot}, "prefixgen explore: no network of width 8 has a fan-out of at most 1: allowed --max-fanout 2 or more"},
		{"fan-out too small without ripple", []string{"explore", "-n", "4", "--synth", "--valency", "3", "--max-fanout", "2", "--plot", plot}, "prefixgen explore: no network of width 4 has a fan-out of at most 2: allowed --max-fanout 3 or more"},
		{"negative fan-out", []string{"explore", "--max-fanout", "-2"}, "prefixgen explore: --max-fanout -2 out of range: allowed 0 (no bound) or more"},
		{"unknown format", []string{"explore", "-f", "xml"}, `prefixgen explore: unknown format "xml": allowed table, json, csv`},
		{"unknown plot type", []string{"explore", "--plot", filepath.Join(dir, "p.pdf")}, "prefixgen explore: --plot " + filepath.Join(dir, "p.pdf") + `: unknown picture type ".pdf": allowed .svg, .png`},
		{"report too wide", []string{"report", "-n", "300", "-o", filepath.Join(dir, "r.html")}, "prefixgen report: width 300 out of range for a report: allowed 1 to 256"},
		{"plot over the table", []string{"explore", "-n", "8", "--plot", plot, "-o", plot}, "prefixgen explore: --plot " + plot + " and -o " + plot + " name the same file: allowed two files, one for the picture and one for the table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, stdout, stderr := prefixgen(tt.args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, stdout)
			assert.Equal(t, tt.want+"\n", stderr)
		})
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "refused input leaves no file")
}
