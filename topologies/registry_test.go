package topologies_test

import (
	"fmt"
	"math"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

var wantNames = []string{"ripple", "kogge-stone", "brent-kung", "sklansky", "han-carlson", "ladner-fischer", "knowles", "harris", "zero-deficiency"}

// wantParams are the parameters each topology takes, with default, minimum
// and maximum.
var wantParams = map[string][]topologies.Param{
	"ladner-fischer":  {{Name: "k", Default: 0, Min: 0, Max: 63}},
	"knowles":         {{Name: "s", Default: 0, Min: 0, Max: 1<<29 - 1}},
	"harris":          {{Name: "l", Default: 0, Min: 0, Max: 29}, {Name: "f", Default: 0, Min: 0, Max: 29}},
	"zero-deficiency": {{Name: "d", Default: 0, Min: 0, Max: network.MaxWidth}},
}

func TestRegistry(t *testing.T) {
	assert.Equal(t, wantNames, topologies.Names())
	all := topologies.All()
	require.Len(t, all, len(wantNames))
	for i, top := range all {
		assert.Equal(t, wantNames[i], top.Name)
		assert.NotEmpty(t, top.Summary, top.Name)
		assert.NotContains(t, top.Summary, "\n", top.Name)
		assert.NotEmpty(t, top.Reference, top.Name)
		got, err := topologies.Lookup(top.Name)
		require.NoError(t, err)
		assert.Equal(t, top.Name, got.Name)
		want := wantParams[top.Name]
		require.Len(t, top.Params, len(want), top.Name)
		for j, p := range top.Params {
			assert.NotEmpty(t, p.Doc, top.Name)
			p.Doc = ""
			assert.Equal(t, want[j], p, top.Name)
		}
		if top.Name == "ladner-fischer" {
			assert.Contains(t, top.Reference, "Ladner and M. J. Fischer, Parallel Prefix Computation, JACM 27(4), 1980")
		}
	}
	// All and Lookup hand out copies.
	all[5].Params[0].Default = 7
	all[0].Name = "changed"
	assert.Equal(t, wantNames, topologies.Names())
	lf, err := topologies.Lookup("ladner-fischer")
	require.NoError(t, err)
	assert.Equal(t, 0, lf.Params[0].Default)
}

func TestDefaultsRecorded(t *testing.T) {
	net, err := topologies.Build("ladner-fischer", 16, nil)
	require.NoError(t, err)
	assert.Equal(t, network.Params{"k": 0}, net.Params())
	net, err = topologies.Build("ladner-fischer", 16, network.Params{"k": 2})
	require.NoError(t, err)
	assert.Equal(t, network.Params{"k": 2}, net.Params())
	net, err = topologies.Build("brent-kung", 16, network.Params{})
	require.NoError(t, err)
	assert.Equal(t, "brent-kung", net.Topology())
	assert.Empty(t, net.Params())
}

func TestBuildRefuses(t *testing.T) {
	tests := []struct {
		name   string
		topo   string
		n      int
		params network.Params
		want   string
	}{
		{"unknown topology", "foo", 8, nil,
			`topologies: unknown topology "foo": known are ripple, kogge-stone, brent-kung, sklansky, han-carlson, ladner-fischer, knowles, harris, zero-deficiency, carry-select`},
		{"typo", "kogge-stne", 8, nil,
			`topologies: unknown topology "kogge-stne" (did you mean kogge-stone?): known are ripple, kogge-stone, brent-kung, sklansky, han-carlson, ladner-fischer, knowles, harris, zero-deficiency, carry-select`},
		{"parameter where none is taken", "kogge-stone", 8, network.Params{"k": 1},
			`topologies: kogge-stone has no parameter "k": it takes none`},
		{"unknown parameter", "ladner-fischer", 8, network.Params{"q": 1, "k": 1},
			`topologies: ladner-fischer has no parameter "q": allowed are k`},
		{"k too large", "ladner-fischer", 8, network.Params{"k": 64},
			"topologies: ladner-fischer parameter k=64 out of range: allowed 0…63"},
		{"k negative", "ladner-fischer", 8, network.Params{"k": -1},
			"topologies: ladner-fischer parameter k=-1 out of range: allowed 0…63"},
		{"width zero", "sklansky", 0, nil,
			"topologies: sklansky: width 0 out of range: allowed 1…1073741824"},
		{"width negative", "han-carlson", -3, nil,
			"topologies: han-carlson: width -3 out of range: allowed 1…1073741824"},
		{"width beyond MaxWidth", "ripple", network.MaxWidth + 1, nil,
			"topologies: ripple: width 1073741825 out of range: allowed 1…1073741824"},
		{"too many cells", "kogge-stone", 10_000_000, nil,
			"topologies: kogge-stone at width 10000000 needs about 230000000 cells, more than the 67108864 allowed: allowed widths up to 3195660"},
		{"too many cells at MaxWidth", "ripple", network.MaxWidth, nil,
			"topologies: ripple at width 1073741824 needs about 1100000000 cells, more than the 67108864 allowed: allowed widths up to 67108865"},
		{"just too many", "ripple", topologies.MaxCells + 2, nil,
			"topologies: ripple at width 67108866 needs about 67108865 cells, more than the 67108864 allowed: allowed widths up to 67108865"},
		{"too many for ladner-fischer", "ladner-fischer", 20_000_000, network.Params{"k": 0},
			"topologies: ladner-fischer at width 20000000 needs about 79000000 cells, more than the 67108864 allowed: allowed widths up to 16908533"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			net, err := topologies.Build(tt.topo, tt.n, tt.params)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			require.EqualError(t, err, tt.want)
			require.True(t, net == nil, "no network with the error")
			// Refused before anything of the network's size was allocated.
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated")
			assert.Less(t, elapsed, time.Second)
		})
	}
}

func TestConstructorsRefuse(t *testing.T) {
	_, err := topologies.LadnerFischer(8, 64)
	assert.EqualError(t, err, "topologies: ladner-fischer parameter k=64 out of range: allowed 0…63")
	_, err = topologies.KoggeStone(0)
	assert.EqualError(t, err, "topologies: kogge-stone: width 0 out of range: allowed 1…1073741824")
	_, err = topologies.BrentKung(-1)
	assert.EqualError(t, err, "topologies: brent-kung: width -1 out of range: allowed 1…1073741824")
	_, err = topologies.Ripple(network.MaxWidth)
	assert.ErrorContains(t, err, "more than the 67108864 allowed")
	_, err = topologies.Sklansky(network.MaxWidth)
	assert.ErrorContains(t, err, "more than the 67108864 allowed")
	_, err = topologies.HanCarlson(network.MaxWidth)
	assert.ErrorContains(t, err, "more than the 67108864 allowed")
	_, err = topologies.Topology{Name: "mine"}.Build(8, nil)
	assert.EqualError(t, err, `topologies: topology "mine" cannot be built: take topologies from All or Lookup`)
}

func TestEstimateCells(t *testing.T) {
	for _, top := range topologies.All() {
		assert.Equal(t, 0, top.EstimateCells(0, nil), top.Name)
		assert.Equal(t, 0, top.EstimateCells(-5, nil), top.Name)
		assert.Equal(t, 0, top.EstimateCells(1, nil), top.Name)
		assert.Equal(t, math.MaxInt, top.EstimateCells(network.MaxWidth+1, nil), top.Name)
		// No overflow at the largest width: between n − 1 and n·⌈log2 n⌉.
		big := top.EstimateCells(network.MaxWidth, nil)
		assert.GreaterOrEqual(t, big, network.MaxWidth-1, top.Name)
		assert.LessOrEqual(t, int64(big), int64(network.MaxWidth)*30, top.Name)
	}
	ks, err := topologies.Lookup("kogge-stone")
	require.NoError(t, err)
	assert.Equal(t, int(min(30<<30-1<<30+1, int64(math.MaxInt))), ks.EstimateCells(network.MaxWidth, nil), "saturated where an int has 32 bits")
	assert.Equal(t, 2*64-2-6, must(topologies.Lookup("brent-kung")).EstimateCells(64, nil))
	lf := must(topologies.Lookup("ladner-fischer"))
	assert.Equal(t, 168, lf.EstimateCells(64, nil))
	assert.Equal(t, 137, lf.EstimateCells(64, network.Params{"k": 1}))
	// Out-of-range values are clamped: k = 99 is k = 63, which is P_5(64).
	assert.Equal(t, 120, lf.EstimateCells(64, network.Params{"k": 99}))
	assert.Equal(t, 168, lf.EstimateCells(64, network.Params{"k": -4}))
	assert.Equal(t, 0, topologies.Topology{}.EstimateCells(64, nil))
	// Harris with 1 ≤ l < L: two sweeps of fewer than N cells and a Knowles
	// network of L − l levels on N/2^l columns: 14 + 4·2 and 14 + 2·1 at
	// width 8; l = 0 is the Knowles bound, N·L − N + 1 = 17.
	harris := must(topologies.Lookup("harris"))
	assert.Equal(t, 17, harris.EstimateCells(8, network.Params{"l": 0}))
	assert.Equal(t, 22, harris.EstimateCells(8, network.Params{"l": 1}))
	assert.Equal(t, 16, harris.EstimateCells(8, network.Params{"l": 2}))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestParseParams(t *testing.T) {
	p, err := topologies.ParseParams(nil)
	require.NoError(t, err)
	assert.Equal(t, network.Params{}, p)
	p, err = topologies.ParseParams([]string{"k=3", "x = -2"})
	require.NoError(t, err)
	assert.Equal(t, network.Params{"k": 3, "x": -2}, p)
	tests := []struct {
		items []string
		want  string
	}{
		{[]string{"k"}, `topologies: parameter "k" is not name=value: write it as, e.g., k=1`},
		{[]string{"=3"}, `topologies: parameter "=3" is not name=value: write it as, e.g., k=1`},
		{[]string{"k=one"}, `topologies: parameter "k": the value "one" is not an integer: write it as, e.g., k=1`},
		{[]string{"k=99999999999999999999"}, fmt.Sprintf(`topologies: parameter "k": the value "99999999999999999999" is out of range: allowed an integer from %d to %d, e.g., k=1`, math.MinInt, math.MaxInt)},
		{[]string{"k=1", "k=2"}, `topologies: parameter "k" given twice: give each at most once`},
	}
	for _, tt := range tests {
		_, err := topologies.ParseParams(tt.items)
		assert.EqualError(t, err, tt.want, "%q", tt.items)
	}
}

func TestSelect(t *testing.T) {
	nets, err := topologies.Select("sklansky", 16, nil)
	require.NoError(t, err)
	require.Len(t, nets, 1)
	assert.Equal(t, "sklansky", nets[0].Topology())

	nets, err = topologies.Select("all", 16, network.Params{"k": 2})
	require.NoError(t, err)
	require.Len(t, nets, len(wantNames))
	for i, net := range nets {
		assert.Equal(t, wantNames[i], net.Topology())
	}
	assert.Equal(t, network.Params{"k": 2}, nets[5].Params())

	_, err = topologies.Select("all", 16, network.Params{"q": 2})
	assert.EqualError(t, err, `topologies: no topology has parameter "q": allowed are k, s, l, f, d`)
	_, err = topologies.Select("all", 16, network.Params{"k": 99})
	assert.EqualError(t, err, "topologies: ladner-fischer parameter k=99 out of range: allowed 0…63")
	_, err = topologies.Select("all", 0, nil)
	assert.EqualError(t, err, "topologies: width 0 out of range: allowed 1…1073741824")
	_, err = topologies.SelectList([]string{"sklansky", "ripple"}, -3, nil)
	assert.EqualError(t, err, "topologies: width -3 out of range: allowed 1…1073741824", "no one topology is the obstacle")
	_, err = topologies.SelectList([]string{"sklansky"}, 0, nil)
	assert.EqualError(t, err, "topologies: sklansky: width 0 out of range: allowed 1…1073741824")
	_, err = topologies.Select("bar", 16, nil)
	assert.ErrorContains(t, err, `topologies: unknown topology "bar"`)
}

// TestSelectList: each listed topology takes the parameters it has, in
// the order given.
func TestSelectList(t *testing.T) {
	nets, err := topologies.SelectList([]string{"sklansky", "ladner-fischer"}, 32, network.Params{"k": 1})
	require.NoError(t, err)
	require.Len(t, nets, 2)
	assert.Equal(t, "sklansky", nets[0].Topology())
	assert.Empty(t, nets[0].Params())
	assert.Equal(t, network.Params{"k": 1}, nets[1].Params())
	for _, c := range []struct {
		names []string
		p     network.Params
		want  string
	}{
		{[]string{"sklansky", "kogge-stone"}, network.Params{"k": 1}, `topologies: no topology given has parameter "k": they take none`},
		{[]string{"sklansky", "knowles"}, network.Params{"k": 1}, `topologies: no topology given has parameter "k": allowed are s`},
		{[]string{"sklansky", "sklansky"}, nil, `topologies: "sklansky" given twice: allowed each topology once`},
		{[]string{"sklansky", "sklanski"}, nil, `topologies: unknown topology "sklanski"`},
	} {
		_, err := topologies.SelectList(c.names, 32, c.p)
		require.Error(t, err, c.names)
		assert.ErrorContains(t, err, c.want, c.names)
	}
}

func TestCompare(t *testing.T) {
	nets, err := topologies.Compare(64)
	require.NoError(t, err)
	type row struct {
		name        string
		k           int
		depth, size int
	}
	var got []row
	for _, net := range nets {
		got = append(got, row{net.Topology(), net.Params()["k"], net.Depth(), net.Size()})
	}
	assert.Equal(t, []row{
		{"ripple", 0, 63, 63},
		{"kogge-stone", 0, 6, 321},
		{"brent-kung", 0, 10, 120},
		{"sklansky", 0, 6, 192},
		{"han-carlson", 0, 7, 192},
		{"ladner-fischer", 0, 6, 168},
		{"ladner-fischer", 1, 7, 137},
		{"ladner-fischer", 2, 8, 125},
		{"ladner-fischer", 3, 9, 121},
		{"knowles", 0, 6, 305},
		{"harris", 0, 7, 143},
		{"zero-deficiency", 0, 8, 118},
	}, got)
	assert.Equal(t, network.Params{"s": 16}, nets[9].Params(), "Knowles [2,1,1,1,1,1]")
	assert.Equal(t, network.Params{"l": 1, "f": 4}, nets[10].Params(), "Harris (1, 4, 0)")
	assert.Equal(t, network.Params{"d": 8}, nets[11].Params(), "the least depth, recorded")
	_, err = topologies.Compare(0)
	assert.EqualError(t, err, "topologies: width 0 out of range: allowed 1…1073741824")
}

// TestWidestNamed: the widest width a refusal names is built, by the
// estimate Build refuses by, and the next one is refused.
func TestWidestNamed(t *testing.T) {
	re := regexp.MustCompile(`allowed widths up to (\d+)$`)
	for _, topo := range topologies.All() {
		_, err := topo.Build(network.MaxWidth, nil)
		require.Error(t, err, topo.Name)
		m := re.FindStringSubmatch(err.Error())
		require.NotNil(t, m, "%s: %v", topo.Name, err)
		widest, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		assert.LessOrEqual(t, topo.EstimateCells(widest, nil), topologies.MaxCells, topo.Name)
		if widest < network.MaxWidth {
			assert.Greater(t, topo.EstimateCells(widest+1, nil), topologies.MaxCells, topo.Name)
		}
	}
}
