package designmap

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

func TestWriteReport(t *testing.T) {
	sk, err := topologies.Build("sklansky", 32, nil)
	require.NoError(t, err)
	lf, err := topologies.Build("ladner-fischer", 6, network.Params{"k": 1})
	require.NoError(t, err)
	before := Outcome{YosysChoice, 66287.3248, 12.628075}
	res := &Result{
		Adders: []Adder{
			{Cell: "prefixgen_lcu_0", Width: 32, SpreadNS: 7.2, SlackNS: -1.556, Network: sk},
			{Cell: "prefixgen_lcu_1", Width: 6, SpreadNS: 0.48, SlackNS: 2.5, Network: lf},
			{Cell: "prefixgen_lcu_2", Width: 2, SpreadNS: 0, SlackNS: math.Inf(1)},
		},
		Before:      before,
		After:       Outcome{"prefixgen", 67945.2, 8.377},
		Baselines:   []Outcome{{"ripple", 68237.9, 11.796}, {"kogge-stone", 78738.0, 8.518}, before},
		Proved:      true,
		SumCopies:   4,
		LibraryName: "sky130hd", Record: true, Tools: []string{"Yosys 0.23 (git sha1 7ce5011c24b)", "OpenSTA 2.0.17"},
	}
	tests := []struct {
		name string
		res  *Result
	}{
		{"report.txt", res},
		{"report-yosys.txt", &Result{Adders: res.Adders[2:], Before: before, After: before}},
		{"report-none.txt", &Result{Before: before, After: before, LibraryName: "osu018", Tools: res.Tools}},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		require.NoError(t, WriteReport(&buf, tt.res))
		golden.Check(t, filepath.Join("testdata", tt.name), buf.Bytes())
	}
}

// TestWriteReportSlackZero: OpenSTA writes a slack met to the last digit as
// -0.000; the report writes it 0.000.
func TestWriteReportSlackZero(t *testing.T) {
	before := Outcome{YosysChoice, 100, 1}
	res := &Result{
		Adders: []Adder{{Cell: "prefixgen_lcu_0", Width: 2, SpreadNS: 0, SlackNS: math.Copysign(0, -1)}},
		Before: before, After: before,
	}
	var buf bytes.Buffer
	require.NoError(t, WriteReport(&buf, res))
	require.Contains(t, buf.String(), " 0.000 ")
	require.NotContains(t, buf.String(), "-0.000")
}

// TestWriteReportOneCopy: one adder copied to merge the sums is told in
// the singular, and the proof then names the merge too.
func TestWriteReportOneCopy(t *testing.T) {
	lf, err := topologies.Build("ladner-fischer", 6, network.Params{"k": 1})
	require.NoError(t, err)
	before := Outcome{Choice: YosysChoice, AreaUM2: 100, WorstNS: 2}
	res := &Result{
		Adders:    []Adder{{Cell: "prefixgen_lcu_0", Width: 6, SpreadNS: 0.5, SlackNS: 0.25, Network: lf}},
		Before:    before,
		After:     Outcome{Choice: "prefixgen", AreaUM2: 90, WorstNS: 1.5},
		Proved:    true,
		SumCopies: 1,
	}
	var buf bytes.Buffer
	require.NoError(t, WriteReport(&buf, res))
	assert.Contains(t, buf.String(), "\nchains of sums merged: 1 adder copied, so that each chain is one carry-save tree and one adder\n")
	assert.Contains(t, buf.String(), "\nproved equal to the design with its sums merged and Yosys's own networks, and the merge to the design as written (ABC's dprove)\n")
}

// TestPercent: the report's changes are signed, to a tenth, with a true
// minus sign; against an area or a path of 0 there is no change to give.
func TestPercent(t *testing.T) {
	tests := []struct {
		a, b float64
		want string
	}{
		{a: 90, b: 100, want: "−10.0 %"},
		{a: 110, b: 100, want: "+10.0 %"},
		{a: 100, b: 100, want: "+0.0 %"},
		{a: 5, b: 0, want: "n/a"},
		{a: 0, b: 0, want: "n/a"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, percent(tt.a, tt.b), "%v against %v", tt.a, tt.b)
	}
}
