package emit_test

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// koggeStone and sklansky build the two networks by hand, for any width, so
// that these tests stand without package topologies.
func koggeStone(t *testing.T, n int) *network.Network {
	b, err := network.NewBuilder(n)
	require.NoError(t, err)
	cur := make([]int, n)
	for i := range cur {
		cur[i] = i
	}
	for d := 1; d < n; d *= 2 {
		for i := n - 1; i >= d; i-- {
			cur[i] = b.Add(cur[i-d], cur[i])
		}
	}
	b.Describe("kogge-stone", nil)
	net, err := b.Build()
	require.NoError(t, err)
	return net
}

func sklansky(t *testing.T, n int) *network.Network {
	b, err := network.NewBuilder(n)
	require.NoError(t, err)
	cur := make([]int, n)
	for i := range cur {
		cur[i] = i
	}
	for d := 1; d < n; d *= 2 {
		for i := range n {
			if i&d != 0 {
				cur[i] = b.Add(cur[i&^(2*d-1)+d-1], cur[i])
			}
		}
	}
	b.Describe("sklansky", nil)
	net, err := b.Build()
	require.NoError(t, err)
	return net
}

func TestTextGolden(t *testing.T) {
	tests := []struct {
		name string
		net  *network.Network
		opt  emit.TextOptions
	}{
		{"ks8.txt", koggeStone(t, 8), emit.TextOptions{}},
		{"sk12.txt", sklansky(t, 12), emit.TextOptions{}},
		{"sk12-bit0-left.txt", sklansky(t, 12), emit.TextOptions{BitZeroLeft: true}},
		{"sk32.txt", sklansky(t, 32), emit.TextOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, emit.Text(&buf, tt.net, tt.opt))
			golden.Check(t, filepath.Join("testdata", tt.name), buf.Bytes())
		})
	}
}

// A cell that reads an older signal than its lines carry (a copy of a
// cell, a higher-valency network's cell that skips a newer signal) is drawn
// ◆, and a line under the diagram says so: the text cannot show which
// signal it reads. Built-in binary networks have none.
func TestTextOlderSignals(t *testing.T) {
	net, err := topologies.Valency("kogge-stone", 5, 3)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, emit.Text(&buf, net, emit.TextOptions{}))
	out := buf.String()
	assert.Equal(t, 3, strings.Count(out, "◆"), out)
	assert.True(t, strings.HasSuffix(out, "\n◆ 2 cells read an older signal than the lines drawn to them carry; -f svg shows which\n"), out)
	for _, top := range topologies.Names() {
		net, err := topologies.Build(top, 17, nil)
		require.NoError(t, err)
		buf.Reset()
		require.NoError(t, emit.Text(&buf, net, emit.TextOptions{}))
		assert.NotContains(t, buf.String(), "◆", top)
	}
}

// A wide diagram is drawn in time linear in its cells: Sklansky's last
// level has one wire with half the columns reading it, whose readers were
// once searched cell by cell, in time quadratic in the width (gen -f text
// took 24 s at 2^18 inputs and minutes at 2^20, now 3 s).
func TestTextWideFast(t *testing.T) {
	// Text once searched a wire's readers cell by cell, quadratic in the
	// width (Sklansky at 2^18 took 11 s). A wall-clock limit fails on a
	// loaded machine, so the test reads how the time grows instead: 16
	// times the width takes about 20 times the time (the rows grow as the
	// depth), where a quadratic search takes 256 times. Each width's time
	// is the least of three runs, which load only ever lengthens.
	least := func(n int) time.Duration {
		net := sklansky(t, n)
		best := time.Duration(1 << 62)
		for range 3 {
			start := time.Now()
			require.NoError(t, emit.Text(io.Discard, net, emit.TextOptions{}))
			best = min(best, time.Since(start))
		}
		return best
	}
	small, wide := least(1<<13), least(1<<17)
	assert.Less(t, float64(wide)/float64(small), 64.0, "2^13 columns in %v, 2^17 in %v", small, wide)
}

// The diagram has one ● per cell and, where wires do not overlap, one row per
// level: the picture cannot hide a cell or a level, nor a copy of a cell
// (the same operands, as the optimizer copies cells to bound the fan-out).
func TestTextCountsCells(t *testing.T) {
	copies, err := network.New(network.Spec{Width: 4, Topology: "copies",
		Cells: []network.Cell{{Lo: 0, Hi: 1}, {Lo: 0, Hi: 1}, {Lo: 4, Hi: 2}, {Lo: 5, Hi: 2}, {Lo: 6, Hi: 3}}, Outputs: []int{0, 4, 7, 8}})
	require.NoError(t, err)
	for _, n := range []int{1, 2, 5, 8, 33, 64} {
		nets := []*network.Network{koggeStone(t, n), sklansky(t, n)}
		if n == 1 {
			nets = append(nets, copies)
		}
		for _, net := range nets {
			var buf bytes.Buffer
			require.NoError(t, emit.Text(&buf, net, emit.TextOptions{}))
			out := buf.String()
			legend := 0
			if strings.Contains(out, "\n◆ ") {
				legend = 1
			}
			assert.Equal(t, net.Size(), strings.Count(out, "●")+strings.Count(out, "◆")-legend, "%s %d", net.Topology(), n)
			for l := 1; l <= net.Depth(); l++ {
				assert.Contains(t, out, "\nL"+itoa(l)+" ")
			}
			assert.NotContains(t, out, "\nL"+itoa(net.Depth()+1)+" ")
			if net.Topology() == "sklansky" {
				assert.Equal(t, net.Depth(), strings.Count(out, "\nL"), "sklansky needs one row per level")
			}
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestStatsFormats(t *testing.T) {
	rows := []emit.Stats{emit.NewStats(koggeStone(t, 8)), emit.NewStats(sklansky(t, 8))}
	rows[1].Params = network.Params{"k": 2}

	var table bytes.Buffer
	require.NoError(t, emit.Table(&table, rows))
	assert.Equal(t, ""+
		"topology      width  depth  size  max fan-out  wire tracks  deficiency  lateral fan-out  delay (FO4)\n"+
		"kogge-stone       8      3    17            4            4           6                2         6.05\n"+
		"sklansky k=2      8      3    12            5            1           1                5         7.01\n", table.String())

	var csv bytes.Buffer
	require.NoError(t, emit.CSV(&csv, rows))
	assert.Equal(t, ""+
		"topology,params,width,depth,size,max_fanout,wire_tracks,deficiency,lateral_fanout,delay_fo4,fanout_histogram,cells_per_level\n"+
		"kogge-stone,,8,3,17,4,4,6,2,6.05,0;11;12;1;1,0;7;6;4\n"+
		"sklansky,k=2,8,3,12,5,1,1,5,7.01,0;13;4;2;0;1,0;4;4;4\n", csv.String())

	var one bytes.Buffer
	require.NoError(t, emit.StatsJSON(&one, rows[1]))
	var obj map[string]any
	require.NoError(t, json.Unmarshal(one.Bytes(), &obj))
	assert.Equal(t, map[string]any{
		"topology": "sklansky", "params": map[string]any{"k": 2.0}, "width": 8.0, "depth": 3.0,
		"size": 12.0, "max_fanout": 5.0, "wire_tracks": 1.0, "deficiency": 1.0,
		"lateral_fanout": 5.0, "delay_fo4": 7.01,
		"fanout_histogram": []any{0.0, 13.0, 4.0, 2.0, 0.0, 1.0},
		"cells_per_level":  []any{0.0, 4.0, 4.0, 4.0},
	}, obj)

	var arr bytes.Buffer
	require.NoError(t, emit.StatsJSONArray(&arr, rows))
	var list []map[string]any
	require.NoError(t, json.Unmarshal(arr.Bytes(), &list))
	require.Len(t, list, 2)
	assert.Equal(t, "kogge-stone", list[0]["topology"])
	assert.Equal(t, map[string]any{}, list[0]["params"])
	golden.Check(t, filepath.Join("testdata", "stats.json"), arr.Bytes())
}

func TestJSONIsNetworkFormat(t *testing.T) {
	net := sklansky(t, 5)
	var buf bytes.Buffer
	require.NoError(t, emit.JSON(&buf, net))
	back, err := network.Unmarshal(buf.Bytes())
	require.NoError(t, err)
	assert.Equal(t, net.Spec(), back.Spec())
}

// WriteTable refuses a row wider than its header instead of panicking.
func TestWriteTableRagged(t *testing.T) {
	var b bytes.Buffer
	err := emit.WriteTable(&b, []string{"a"}, [][]string{{"1"}, {"1", "2"}})
	require.EqualError(t, err, "emit: table row 1 has 2 cells for 1 columns")
	assert.Empty(t, b.String(), "nothing written")
	require.NoError(t, emit.WriteTable(&b, []string{"a", "b"}, [][]string{{"1"}}), "a short row is fine")
}

// WriteTable aligns cells by characters, not bytes: "µs" and "–" are as
// wide as two and one ASCII characters.
func TestWriteTableNonASCII(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, emit.WriteTable(&b, []string{"name", "µs"}, [][]string{{"–", "1"}, {"abcdef", "22"}}))
	assert.Equal(t, ""+
		"name    µs\n"+
		"–        1\n"+
		"abcdef  22\n", b.String())
}

// Absent lists and maps are written as empty ones, never null: an empty
// array of rows, and a record's nil parameters, histogram and levels.
func TestJSONEmptyNotNull(t *testing.T) {
	for name, write := range map[string]func(io.Writer) error{
		"StatsJSONArray":      func(w io.Writer) error { return emit.StatsJSONArray(w, nil) },
		"AdderStatsJSONArray": func(w io.Writer) error { return emit.AdderStatsJSONArray(w, nil) },
		"RecordsJSON":         func(w io.Writer) error { return emit.RecordsJSON(w, nil) },
	} {
		var b bytes.Buffer
		require.NoError(t, write(&b), name)
		assert.Equal(t, "[]\n", b.String(), name)
	}
	var b bytes.Buffer
	require.NoError(t, emit.RecordJSON(&b, emit.Record{
		{Column: "params", Value: network.Params(nil)},
		{Column: "fanout_histogram", Value: map[string]int(nil)},
		{Column: "cells_per_level", Value: []int(nil)},
	}))
	assert.Equal(t, "{\n  \"params\": {},\n  \"fanout_histogram\": {},\n  \"cells_per_level\": []\n}\n", b.String())
}

// RecordsCSV refuses a record whose columns are not the first record's,
// which would put its values under the wrong names.
func TestRecordsCSVColumnsDiffer(t *testing.T) {
	var b bytes.Buffer
	err := emit.RecordsCSV(&b, nil, []emit.Record{
		{{Column: "width", Value: 8}, {Column: "depth", Value: 3}},
		{{Column: "depth", Value: 3}, {Column: "width", Value: 8}},
	})
	require.EqualError(t, err, "emit: a CSV record has columns [depth width], not [width depth]")
}

// TextSize is what Text writes, at most, and within a few hundred bytes:
// for networks of one row a level, of many (Kogge–Stone), of one wire a
// level (ripple), of copies, of many digits' widths, with bit 0 on either
// side.
func TestTextSize(t *testing.T) {
	copies, err := network.New(network.Spec{Width: 4, Topology: "copies",
		Cells: []network.Cell{{Lo: 0, Hi: 1}, {Lo: 0, Hi: 1}, {Lo: 4, Hi: 2}, {Lo: 5, Hi: 2}, {Lo: 6, Hi: 3}}, Outputs: []int{0, 4, 7, 8}})
	require.NoError(t, err)
	nets := []*network.Network{copies}
	for _, n := range []int{1, 2, 5, 16, 33, 200, 1000} {
		ripple, err := topologies.Build("ripple", n, nil)
		require.NoError(t, err)
		nets = append(nets, koggeStone(t, n), sklansky(t, n), ripple)
	}
	for _, net := range nets {
		for _, left := range []bool{false, true} {
			var buf bytes.Buffer
			require.NoError(t, emit.Text(&buf, net, emit.TextOptions{BitZeroLeft: left}))
			size := emit.TextSize(net)
			assert.GreaterOrEqual(t, size, int64(buf.Len()), "%s %d", net.Topology(), net.Width())
			assert.Less(t, size, int64(buf.Len())+int64(300+2*net.Width()), "%s %d: within the header's digits and a few lines", net.Topology(), net.Width())
		}
	}
}
