package physical_test

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
)

// results are four made-up results, as Run returns them: a plain adder,
// a sparse one, Yosys's and a user's pipelined module.
func results() []*physical.Result {
	common := physical.Result{Width: 64, Adder: adder.Standard, Liberty: "/usr/share/qflow/tech/osu018/osu018_stdcells.lib", Flow: physical.Keep,
		OutputLoadPF: 0.01, YosysVersion: "Yosys 0.23 (git sha1 7ce5011c24b)", STAVersion: "2.0.17"}
	a, b, c := common, common, common
	a.Topology, a.Params = "ladner-fischer", network.Params{"k": 1}
	a.AreaUM2, a.DelayNS, a.StdCells, a.CriticalFrom, a.CriticalTo = 17861, 1.9487, 544, "b[0]", "sum[34]"
	a.Cells, a.RedundantUM2 = map[string]int{"NAND2X1": 500, "INVX1": 44}, 1130
	b.Topology, b.Params = physical.Reference, network.Params{}
	b.AreaUM2, b.DelayNS, b.StdCells, b.CriticalFrom, b.CriticalTo = 13823, 2.3324, 398, "a[0]", "sum[63]"
	b.RedundantUM2 = 679
	c.Topology, c.Params, c.Adder.Sparse = "kogge-stone", network.Params{}, 4
	c.AreaUM2, c.DelayNS, c.StdCells, c.CriticalFrom, c.CriticalTo = 16880, 1.7121, 467, "a[1]", "sum[62]"
	c.Cells, c.RedundantUM2 = map[string]int{"MUX2X1": 48, "NAND2X1": 419}, 902.5
	d := common
	d.Topology, d.Width, d.Registers = "my_adder_pipe2", 0, 88
	d.AreaUM2, d.DelayNS, d.StdCells, d.CriticalFrom, d.CriticalTo = 15773, 1.1552, 325, "rst", "cin_s2"
	d.Cells, d.RedundantUM2 = map[string]int{"DFFPOSX1": 88, "AND2X1": 237}, 272
	return []*physical.Result{&a, &c, &b, &d}
}

func TestWriters(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, []*physical.Result) error
	}{
		{"results.txt", func(w *bytes.Buffer, r []*physical.Result) error { return physical.Table(w, r) }},
		{"results.csv", func(w *bytes.Buffer, r []*physical.Result) error { return physical.CSV(w, r) }},
		{"results.json", func(w *bytes.Buffer, r []*physical.Result) error { return physical.JSON(w, r) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, tc.write(&buf, results()))
			golden.Check(t, filepath.Join("testdata", tc.name), buf.Bytes())
		})
	}
}

// TestDesignName checks that an adder's sparseness and valency follow its
// topology's parameters in its name, and are not among them.
func TestDesignName(t *testing.T) {
	for _, tc := range []struct {
		design physical.Design
		want   string
	}{
		{physical.Design{Topology: "ladner-fischer", Params: network.Params{"k": 1}, Adder: adder.Standard}, "ladner-fischer k=1"},
		{physical.Design{Topology: "kogge-stone", Params: network.Params{}, Adder: arch(func(a *adder.Architecture) { a.Sparse = 4 })}, "kogge-stone sparse=4"},
		{physical.Design{Topology: "kogge-stone", Params: network.Params{}, Adder: adder.Architecture{Flags: adder.Carry}}, "kogge-stone"},
		{physical.Design{Topology: "brent-kung", Params: network.Params{}, Adder: arch(func(a *adder.Architecture) { a.Valency = 3 })}, "brent-kung valency=3"},
		// A valency network's parameter v names the valency already.
		{physical.Design{Topology: "kogge-stone", Params: network.Params{"v": 3}, Adder: arch(func(a *adder.Architecture) { a.Valency = 3 })}, "kogge-stone v=3"},
		{physical.Design{Topology: "sklansky", Params: network.Params{"v": 4}, Adder: arch(func(a *adder.Architecture) { a.Sparse, a.Valency = 2, 4 })}, "sklansky v=4 sparse=2"},
		{physical.Design{Topology: "brent-kung", Params: network.Params{}, Adder: arch(func(a *adder.Architecture) { a.Sparse, a.Ling = 2, true })}, "brent-kung sparse=2 ling"},
		{physical.Design{Topology: "sklansky", Params: network.Params{}, Adder: arch(func(a *adder.Architecture) { a.Stages, a.NoReset, a.PGCells = 2, true, true })}, "sklansky stages=2 noreset pgcells"},
		{physical.Design{Topology: physical.Reference}, physical.ReferenceName},
		// A network of no topology is named as stats names it.
		{physical.Design{Params: network.Params{}, Adder: adder.Standard}, "network"},
		{physical.Design{Params: network.Params{}, Adder: arch(func(a *adder.Architecture) { a.Sparse = 2 })}, "network sparse=2"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			require.Equal(t, tc.want, tc.design.Name())
			r := physical.Result{Topology: tc.design.Topology, Params: tc.design.Params, Adder: tc.design.Adder}
			require.Equal(t, tc.want, r.Name())
		})
	}
}

// arch returns adder.Standard with the changes fn makes.
func arch(fn func(a *adder.Architecture)) adder.Architecture {
	a := adder.Standard
	fn(&a)
	return a
}

// TestRecordRedundantDigits checks that the redundant area, a sum of the
// library's cell areas, is written with the digits of the library's areas
// and not with the rounding errors of its sum.
func TestRecordRedundantDigits(t *testing.T) {
	for _, tc := range []struct {
		sum  float64
		want string
	}{
		{3.7536 + 0.0000000000000005, "3.7536"},
		{221.46240000000023, "221.4624"},
		{33.782399999999996, "33.7824"},
		{0.08748 * 3, "0.26244"},
		{1130, "1130"},
		{0, "0"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			r := results()[0]
			r.RedundantUM2 = tc.sum
			var buf bytes.Buffer
			require.NoError(t, physical.CSV(&buf, []*physical.Result{r}))
			require.Contains(t, buf.String(), ",544,0,"+tc.want+",b[0],")
		})
	}
}

// TestRecordSpread: a result measured in several orders (--orders) has
// the spread's columns right after delay_ns, table cells that read
// "median (least–greatest)", and is compared by its medians.
func TestRecordSpread(t *testing.T) {
	r := results()[0]
	r.Spread = &physical.Spread{Orders: 2, AreaMedian: 17700, AreaMin: 17500, AreaMax: 18000, DelayMedian: 1.95, DelayMin: 1.9, DelayMax: 2.05}
	names := r.Record().Names()
	i := slices.Index(names, "delay_ns")
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, []string{"delay_ns", "orders", "area_um2_median", "area_um2_min", "area_um2_max",
		"delay_ns_median", "delay_ns_min", "delay_ns_max", "std_cells"}, names[i:i+9])
	area, delay := r.Spread.Cells()
	assert.Equal(t, "17700 (17500–18000)", area)
	assert.Equal(t, "1.950 (1.900–2.050)", delay)
	assert.Equal(t, 17700.0, r.MedianAreaUM2())
	assert.Equal(t, 1.95, r.MedianDelayNS())
}

// TestRecordUnknownWidth: a user's module of no width known (Result.Width
// 0, a table's "—") has no width in JSON (null) nor CSV (empty), where it
// had width 0, a width no adder has.
func TestRecordUnknownWidth(t *testing.T) {
	r := &physical.Result{Topology: "mine", Adder: adder.Standard, AreaUM2: 10, StdCells: 1, Cells: map[string]int{"X": 1}, DelayNS: 1, Liberty: "osu018", Flow: physical.Keep}
	var j, c strings.Builder
	require.NoError(t, physical.JSON(&j, []*physical.Result{r}))
	assert.Contains(t, j.String(), `"width": null`)
	require.NoError(t, physical.CSV(&c, []*physical.Result{r}))
	lines := strings.Split(strings.TrimSpace(c.String()), "\n")
	require.Len(t, lines, 2)
	assert.True(t, strings.HasPrefix(lines[1], "mine,,,"), lines[1])
}
