package delay_test

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical/liberty"
)

// osu018Path is where Debian's qflow-tech-osu018 puts the library.
const osu018Path = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"

// libertyGate is one cell's measurement: pin capacitances in pF, the
// intercept (ns) and slope (ns/pF) of its delay against its load, and its
// area.
type libertyGate struct {
	pins             map[string]float64
	intercept, slope float64
	area             float64
	hasArea          bool
}

// measure reads a cell of the Liberty file as the package documentation
// says: a least-squares line through each cell_rise and cell_fall table at
// the input transition nearest 0.18 ns, over the loads up to 75 fF (the
// first three when fewer lie there), averaged.
func measure(t *testing.T, lib *liberty.Group, name string) libertyGate {
	t.Helper()
	var cell *liberty.Group
	for c := range lib.Find("cell") {
		if len(c.Args) == 1 && c.Args[0] == name {
			cell = c
		}
	}
	require.NotNil(t, cell, name)
	g := libertyGate{pins: map[string]float64{}}
	for pin := range cell.Find("pin") {
		if c, ok := pin.Attrs["capacitance"]; ok && pin.Attrs["direction"] == "input" {
			v, err := strconv.ParseFloat(c, 64)
			require.NoError(t, err, "%s pin %v", name, pin.Args)
			for _, p := range pin.Args {
				g.pins[p] = v
			}
		}
	}
	nums := func(values []string) []float64 {
		var out []float64
		for _, s := range values {
			for f := range strings.SplitSeq(s, ",") {
				v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
				require.NoError(t, err)
				out = append(out, v)
			}
		}
		return out
	}
	var tables []*liberty.Group
	for timing := range cell.Find("timing") {
		for _, table := range timing.Groups {
			if table.Kind == "cell_rise" || table.Kind == "cell_fall" {
				tables = append(tables, table)
			}
		}
	}
	require.NotEmpty(t, tables, name)
	for _, table := range tables {
		loads, slews, values := nums(table.Values("index_1")), nums(table.Values("index_2")), nums(table.Values("values"))
		require.Len(t, values, len(loads)*len(slews), "%s %s", name, table.Kind)
		k := 0
		for s := range slews {
			if math.Abs(slews[s]-0.18) < math.Abs(slews[k]-0.18) {
				k = s
			}
		}
		var xs, ys []float64
		for l, load := range loads {
			if load <= 0.08 {
				xs, ys = append(xs, load), append(ys, values[l*len(slews)+k])
			}
		}
		if len(xs) < 3 {
			xs, ys = loads[:3], []float64{values[k], values[len(slews)+k], values[2*len(slews)+k]}
		}
		var sx, sy, sxx, sxy float64
		for i := range xs {
			sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
		}
		n := float64(len(xs))
		b := (n*sxy - sx*sy) / (n*sxx - sx*sx)
		g.slope += b / float64(len(tables))
		g.intercept += (sy - b*sx) / n / float64(len(tables))
	}
	c := cell.Cells()[name]
	g.area, g.hasArea = c.Area, c.HasArea
	return g
}

// TestOSU018 derives every constant of delay.OSU018 from the Liberty file
// again and checks them to within 0.5%.
func TestOSU018(t *testing.T) {
	tooltest.File(t, osu018Path, "qflow-tech-osu018")
	data, err := os.ReadFile(osu018Path)
	require.NoError(t, err)
	lib := liberty.Parse(data)
	inv := measure(t, lib, "INVX1")
	cinv := inv.pins["A"]
	tau := inv.slope * cinv
	lo := delay.OSU018
	near := func(want, got float64, what string) {
		t.Helper()
		assert.InEpsilon(t, want, got, 0.005, what)
	}
	near(tau, lo.TauNS, "τ (ns)")
	near((inv.intercept+inv.slope*4*cinv)/tau, lo.FO4, "FO4 (τ)")
	near(0.010/cinv, lo.OutputLoad, "10 fF output load")
	for _, c := range []struct {
		gate delay.Gate
		pins []string
	}{
		{lo.Generate, []string{"A", "B"}},
		{lo.Propagate, []string{"A", "B"}},
		{lo.Sum, []string{"A", "B"}},
		{lo.CellG, []string{"A", "B", "C"}}, // AOI21: Y = !(A·B + C)
		{lo.CellP, []string{"A", "B"}},
	} {
		m := measure(t, lib, c.gate.Name)
		near(m.intercept/tau, c.gate.Parasitic, c.gate.Name+" parasitic")
		near(m.slope/inv.slope, c.gate.Drive, c.gate.Name+" drive")
		for i, p := range c.pins {
			near(m.pins[p]/cinv, c.gate.Pins[i], c.gate.Name+" pin "+p)
		}
		for i := len(c.pins); i < len(c.gate.Pins); i++ {
			assert.Zero(t, c.gate.Pins[i], "%s has %d pins", c.gate.Name, len(c.pins))
		}
		require.True(t, m.hasArea, c.gate.Name)
		assert.Equal(t, m.area, c.gate.Area, c.gate.Name+" area")
	}
}
