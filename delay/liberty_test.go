package delay_test

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// osu018Path is where Debian's qflow-tech-osu018 puts the library.
const osu018Path = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"

// libertyGate is one cell's measurement: pin capacitances in pF, and the
// intercept (ns) and slope (ns/pF) of its delay against its load.
type libertyGate struct {
	pins             map[string]float64
	intercept, slope float64
}

var (
	pinRE   = regexp.MustCompile(`pin\((\w+)\)\s*\{\s*direction : input;\s*capacitance : ([\d.]+)`)
	tableRE = regexp.MustCompile(`(?s)cell_(?:rise|fall)\(\w+\)\s*\{\s*index_1 \("([^"]*)"\);\s*index_2 \("([^"]*)"\);\s*values \(([^;]*)\);`)
	numRE   = regexp.MustCompile(`[-\d.e]+`)
)

// measure reads a cell of the Liberty text as the package documentation
// says: a least-squares line through each cell_rise and cell_fall table at
// the input transition nearest 0.18 ns, over the loads up to 75 fF (the
// first three when fewer lie there), averaged.
func measure(t *testing.T, lib, cell string) libertyGate {
	t.Helper()
	i := strings.Index(lib, "cell ("+cell+")")
	require.GreaterOrEqual(t, i, 0, cell)
	body := lib[i:]
	if j := strings.Index(body[1:], "\ncell ("); j >= 0 {
		body = body[:j+1]
	}
	g := libertyGate{pins: map[string]float64{}}
	for _, m := range pinRE.FindAllStringSubmatch(body, -1) {
		g.pins[m[1]], _ = strconv.ParseFloat(m[2], 64)
	}
	nums := func(s string) []float64 {
		var out []float64
		for _, f := range numRE.FindAllString(s, -1) {
			v, err := strconv.ParseFloat(f, 64)
			require.NoError(t, err)
			out = append(out, v)
		}
		return out
	}
	tables := tableRE.FindAllStringSubmatch(body, -1)
	require.NotEmpty(t, tables, cell)
	for _, m := range tables {
		loads, slews, values := nums(m[1]), nums(m[2]), nums(m[3])
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
	return g
}

// TestOSU018 derives every constant of delay.OSU018 from the Liberty file
// again and checks them to within 0.5%.
func TestOSU018(t *testing.T) {
	tooltest.File(t, osu018Path, "qflow-tech-osu018")
	data, err := os.ReadFile(osu018Path)
	require.NoError(t, err)
	lib := string(data)
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
		area := regexp.MustCompile(`cell \(` + c.gate.Name + `\) \{[^}]*?area : ([\d.]+)`).FindStringSubmatch(lib)
		require.NotNil(t, area, c.gate.Name)
		a, _ := strconv.ParseFloat(area[1], 64)
		assert.Equal(t, a, c.gate.Area, c.gate.Name+" area")
	}
}
