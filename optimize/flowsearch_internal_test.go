package optimize

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// TestBetterFlow orders measured adders as the flow search does: any adder
// within the bound beats any beyond it; within, the smaller area wins, then
// the shorter delay; beyond, the lower energy, which charges 10 % of the
// area for every 1 % of delay over the bound.
func TestBetterFlow(t *testing.T) {
	r := func(area, ns float64) *physical.Result { return &physical.Result{AreaUM2: area, DelayNS: ns} }
	tests := []struct {
		name string
		a, b *physical.Result
		want bool
	}{
		{"within beats beyond, however large", r(9000, 1.0), r(100, 1.01), true},
		{"beyond loses to within", r(100, 1.01), r(9000, 1.0), false},
		{"within: smaller area", r(100, 0.9), r(101, 0.5), true},
		{"within: equal area, shorter delay", r(100, 0.9), r(100, 0.95), true},
		{"within: equal adders", r(100, 0.9), r(100, 0.9), false},
		{"beyond: 1% over at 100 beats 2% over at 105", r(100, 1.01), r(105, 1.02), true},
		{"beyond: 2% over at 100 loses to 1% over at 105", r(100, 1.02), r(105, 1.01), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, betterFlow(tt.a, tt.b, flowGoal{Bound: 1.0}))
		})
	}
	assert.InDelta(t, 110, flowEnergy(r(100, 1.01), flowGoal{Bound: 1.0}), 1e-9)
	assert.InDelta(t, 100, flowEnergy(r(100, 0.5), flowGoal{Bound: 1.0}), 1e-9)
}

// TestBetterFlowArea orders adders under an area bound, the other
// question: within it the shorter delay wins, then the smaller area;
// beyond it the lower energy, which charges 10 % of the delay for every
// 1 % of area over the bound.
func TestBetterFlowArea(t *testing.T) {
	r := func(area, ns float64) *physical.Result { return &physical.Result{AreaUM2: area, DelayNS: ns} }
	goal := flowGoal{Bound: 100, Area: true}
	tests := []struct {
		name string
		a, b *physical.Result
		want bool
	}{
		{"within beats beyond, however slow", r(100, 9), r(101, 0.1), true},
		{"beyond loses to within", r(101, 0.1), r(100, 9), false},
		{"within: shorter delay", r(99, 1.0), r(90, 1.1), true},
		{"within: equal delay, smaller area", r(90, 1.0), r(99, 1.0), true},
		{"within: equal adders", r(90, 1.0), r(90, 1.0), false},
		{"beyond: 1% over at 1.0 ns beats 2% over at 1.05", r(101, 1.0), r(102, 1.05), true},
		{"beyond: 2% over at 1.0 ns loses to 1% over at 1.05", r(102, 1.0), r(101, 1.05), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, betterFlow(tt.a, tt.b, goal))
		})
	}
	assert.InDelta(t, 1.1, flowEnergy(r(101, 1.0), goal), 1e-9)
	assert.InDelta(t, 1.0, flowEnergy(r(50, 1.0), goal), 1e-9)
}

// Under a profile a delay is a lateness, below 0 where every output is
// early: the energy shifts it above 0, so that an adder over the area
// still ranks worse, and the Metropolis rule takes a better trial. At −4
// ns, one 12 % over the area had ranked better than one within it.
func TestFlowEnergyLateness(t *testing.T) {
	r := func(area, delay float64) *physical.Result { return &physical.Result{AreaUM2: area, DelayNS: delay} }
	prof := &delay.Profile{Arrival: []float64{0, -0.5}, Required: []float64{5, 5, 5}}
	assert.Equal(t, 5.5, latenessShift(prof))
	assert.Zero(t, latenessShift(nil))
	goal := flowGoal{Bound: 1700, Area: true, Shift: latenessShift(prof)}
	within, over := flowEnergy(r(1600, -4), goal), flowEnergy(r(1904, -4), goal)
	assert.Positive(t, within)
	assert.Less(t, within, over)
	assert.Less(t, flowEnergy(r(1600, -4.2), goal), within, "less late is better")
	assert.False(t, betterFlow(r(1904, -4.2), r(1600, -4), goal), "within the area wins")
}

// TestBetterFlowMedians judges adders measured in several orders of their
// gates by their medians, not by the draw as written: a lucky draw within
// the bound whose median is beyond it loses, and a small draw with a large
// median loses to a steady adder.
func TestBetterFlowMedians(t *testing.T) {
	spread := func(area, ns, areaMedian, nsMedian float64) *physical.Result {
		return &physical.Result{AreaUM2: area, DelayNS: ns, Spread: &physical.Spread{Orders: 4, AreaMedian: areaMedian, DelayMedian: nsMedian}}
	}
	lucky := spread(90, 0.9, 90, 1.2)      // within as written, beyond at the median
	steady := spread(120, 1.0, 120, 1.0)   // within both ways
	smallDraw := spread(80, 0.9, 130, 0.9) // a small draw of a large adder
	assert.True(t, betterFlow(steady, lucky, flowGoal{Bound: 1.0}))
	assert.False(t, betterFlow(lucky, steady, flowGoal{Bound: 1.0}))
	assert.True(t, betterFlow(steady, smallDraw, flowGoal{Bound: 1.0}))
	assert.InDelta(t, 90*(1+10*0.2), flowEnergy(lucky, flowGoal{Bound: 1.0}), 1e-9)
	assert.Equal(t, 130.0, measuredArea(smallDraw))
	assert.Equal(t, 0.9, measuredDelay(smallDraw))
	plain := &physical.Result{AreaUM2: 80, DelayNS: 0.9}
	assert.Equal(t, 80.0, measuredArea(plain), "without orders, the adder as written")
}

// TestSearchFlowMoves starts the flow search from a planted slow adder,
// ripple at 16 bits, under Kogge–Stone's delay: the search must walk
// towards the bound (its best has less energy than the start and at least
// 10 % less delay; an energy blind to delay fails this), stay within
// the depth bound, spend exactly its syntheses, and report figures that
// the flow gives again for the network it returns.
func TestSearchFlowMoves(t *testing.T) {
	needFlow(t)
	ctx := context.Background()
	ks, err := topologies.Build("kogge-stone", 16, nil)
	require.NoError(t, err)
	bound, err := physical.Synthesize(ctx, ks, physical.Options{})
	require.NoError(t, err)
	ripple, err := topologies.Build("ripple", 16, nil)
	require.NoError(t, err)
	start, err := physical.Synthesize(ctx, ripple, physical.Options{})
	require.NoError(t, err)
	require.Greater(t, start.DelayNS, bound.DelayNS)

	opt := Options{Width: 16, MaxDepth: 15, Seed: 3}
	starts := []flowPoint{{g: fromNetwork(ripple), sparse: 1, res: start, source: "ripple"}}
	dir := t.TempDir()
	best, _, tried, err := searchFlow(ctx, opt, flowGoal{Bound: bound.DelayNS}, physical.Options{Workdir: dir}, starts, 24, nil)
	require.NoError(t, err)
	require.NotNil(t, best)
	assert.Equal(t, 24, tried)
	// The work folder keeps every trial: one folder a step, so that no
	// step's designs replace an earlier one's of the same name.
	kept, err := filepath.Glob(filepath.Join(dir, "search-*", "*", "mapped.v"))
	require.NoError(t, err)
	assert.Len(t, kept, tried)
	assert.Less(t, flowEnergy(best.res, flowGoal{Bound: bound.DelayNS}), flowEnergy(start, flowGoal{Bound: bound.DelayNS}))
	assert.Less(t, best.res.DelayNS, 0.9*start.DelayNS, "the search walks towards the delay bound")
	t.Logf("ripple %.4f ns, best %.4f ns, bound %.4f ns", start.DelayNS, best.res.DelayNS, bound.DelayNS)
	net, err := best.g.network()
	require.NoError(t, err)
	assert.LessOrEqual(t, net.Figures().Depth, opt.MaxDepth)
	again, err := physical.Synthesize(ctx, net, physical.Options{})
	require.NoError(t, err)
	assert.Equal(t, best.res.AreaUM2, again.AreaUM2)
	assert.Equal(t, best.res.DelayNS, again.DelayNS)

	// Under a tight depth bound every trial keeps it.
	opt.MaxDepth = 5
	ks4 := fromNetwork(ks)
	best, _, _, err = searchFlow(ctx, opt, flowGoal{Bound: bound.DelayNS}, physical.Options{}, []flowPoint{{g: ks4, sparse: 1, source: "kogge-stone"}}, 8, nil)
	require.NoError(t, err)
	require.NotNil(t, best)
	d, _, ok := best.g.eval(opt.MaxDepth, 0)
	assert.True(t, ok, "depth %d", d)
}

// liveSpans is the reference for flowKey: the spans of the cells the
// adder at sparseness s reads, found on the network by walking back from
// the carries it reads (every s-th, and the carry-out).
func liveSpans(net *network.Network, s int) map[network.Span]bool {
	n := net.Width()
	live := make([]bool, net.Signals())
	for i := range n {
		if s <= 1 || (i+1)%s == 0 || i == n-1 {
			live[net.Output(i)] = true
		}
	}
	spans := map[network.Span]bool{}
	for k := net.Size() - 1; k >= 0; k-- {
		sig := net.CellSignal(k)
		if !live[sig] {
			continue
		}
		spans[net.Span(sig)] = true
		c := net.Cell(k)
		live[c.Lo], live[c.Hi] = true, true
	}
	return spans
}

// TestFlowKey checks flowKey against liveSpans on graphs that annealing
// moves reach from Kogge–Stone and Brent–Kung at 16 bits: two graphs share
// a key at a sparseness exactly when their adders read the same spans, so
// the search measures no adder twice and skips none it has not measured.
func TestFlowKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, name := range []string{"kogge-stone", "brent-kung"} {
		graphs := walk(t, name, 60, rng)
		for _, s := range []int{1, 2, 4, 8} {
			same, differ := 0, 0
			for a := range graphs {
				for b := a + 1; b < len(graphs); b++ {
					na, err := graphs[a].network()
					require.NoError(t, err)
					nb, err := graphs[b].network()
					require.NoError(t, err)
					want := maps.Equal(liveSpans(na, s), liveSpans(nb, s))
					got := flowKey(graphs[a], s) == flowKey(graphs[b], s)
					require.Equal(t, want, got, "%s, sparseness %d, graphs %d and %d", name, s, a, b)
					if got {
						same++
					} else {
						differ++
					}
				}
			}
			assert.Positive(t, differ, "%s, sparseness %d", name, s)
			if s == 8 {
				assert.Positive(t, same, "%s: some moves change only cells the sparse-8 adder does not read", name)
			}
		}
		assert.NotEqual(t, flowKey(graphs[0], 1), flowKey(graphs[0], 2), "the sparseness is part of the key")
	}
}

// TestSearchFlowCopiesCells checks that under a fan-out bound the flow
// search keeps the bound by copying cells, as the constructive search
// does, instead of stalling: from Sklansky at 16 bits (fan-out 9), whose
// every neighbour in the span grid breaks a bound of 3, it runs every
// synthesis asked, and the network it returns is its graph's with cells
// copied, within both bounds, and measures again as it did.
func TestSearchFlowCopiesCells(t *testing.T) {
	needFlow(t)
	ctx := context.Background()
	sk, err := topologies.Build("sklansky", 16, nil)
	require.NoError(t, err)
	require.Equal(t, 9, sk.Figures().MaxFanout)
	opt := Options{Width: 16, MaxDepth: 4, MaxFanout: 3, Seed: 2}
	goal := flowGoal{Bound: 1.2}
	best, _, tried, err := searchFlow(ctx, opt, goal, physical.Options{}, []flowPoint{{g: fromNetwork(sk), sparse: 1, source: "sklansky"}}, 12, nil)
	require.NoError(t, err)
	require.NotNil(t, best)
	assert.Equal(t, 12, tried, "the search runs every synthesis asked")
	f := best.net.Figures()
	assert.LessOrEqual(t, f.Depth, 4)
	assert.LessOrEqual(t, f.MaxFanout, 3)
	plain, err := best.g.network()
	require.NoError(t, err)
	assert.Greater(t, f.Size, plain.Size(), "cells copied")
	assert.Equal(t, best.g.cols, fromNetwork(best.net).cols, "the copies compute the graph's spans")
	again, err := physical.Synthesize(ctx, best.net, physical.Options{})
	require.NoError(t, err)
	assert.Equal(t, best.res.AreaUM2, again.AreaUM2)
	assert.Equal(t, best.res.DelayNS, again.DelayNS)
}

// TestFlowNetworkCopiesCells: the network the flow search measures for a
// graph keeps the fan-out bound whenever the graph breaks it, by one
// reader as by many: Sklansky's at 8 bits (fan-out 5) under bounds of 4
// and 3 gets copies, and under 5 is measured as it is.
func TestFlowNetworkCopiesCells(t *testing.T) {
	sk, err := topologies.Build("sklansky", 8, nil)
	require.NoError(t, err)
	require.Equal(t, 5, sk.Figures().MaxFanout)
	for _, tt := range []struct {
		bound, size, fanout int
	}{
		{bound: 5, size: 12, fanout: 5},
		{bound: 4, size: 13, fanout: 4},
		{bound: 3, size: 14, fanout: 3},
	} {
		net, err := Options{Width: 8, MaxDepth: 3, MaxFanout: tt.bound}.flowNetwork(fromNetwork(sk))
		require.NoError(t, err)
		require.NotNil(t, net)
		f := net.Figures()
		assert.Equal(t, []int{tt.size, 3, tt.fanout}, []int{f.Size, f.Depth, f.MaxFanout}, "fan-out ≤ %d", tt.bound)
	}
}

// TestFlowKeyFanout checks the search's key under a fan-out bound: the
// cells limitFanout copies depend on reads a sparse adder does not need,
// so graphs that differ only in unread cells keep apart, and the
// sparseness is still part of the key.
func TestFlowKeyFanout(t *testing.T) {
	graphs := walk(t, "kogge-stone", 40, rand.New(rand.NewPCG(5, 6)))
	opt := Options{MaxFanout: 4}
	unread := 0
	for a := range graphs {
		for b := a + 1; b < len(graphs); b++ {
			want := slices.Equal(graphs[a].cols, graphs[b].cols)
			assert.Equal(t, want, opt.flowKey(graphs[a], 8) == opt.flowKey(graphs[b], 8), "graphs %d and %d", a, b)
			if !want && flowKey(graphs[a], 8) == flowKey(graphs[b], 8) {
				unread++
			}
		}
	}
	assert.Positive(t, unread, "some pairs differ only in cells the sparse-8 adder does not read")
	assert.NotEqual(t, opt.flowKey(graphs[0], 1), opt.flowKey(graphs[0], 2), "the sparseness is part of the key")
}

// needFlow skips a test of the flow search without Yosys, OpenSTA or the
// OSU library (a failure under PREFIXGEN_REQUIRE_TOOLS=1), or in -short
// mode.
func needFlow(t *testing.T) {
	t.Helper()
	tooltest.Flow(t, physical.LibertyFile(""))
	if testing.Short() {
		t.Skip("the flow takes seconds: skipped in -short mode")
	}
}

// walk returns the graphs that a walk of annealing moves meets from the
// named family at 16 bits, the start first.
func walk(t *testing.T, name string, count int, rng *rand.Rand) []*graph {
	t.Helper()
	start, err := topologies.Build(name, 16, nil)
	require.NoError(t, err)
	var graphs []*graph
	g := fromNetwork(start)
	for range count {
		graphs = append(graphs, g.clone())
		g.move(rng)
	}
	return graphs
}

// TestRadixCandidates: the radix-3 and radix-4 Kogge–Stone and Sklansky
// within the depth, by name, as topologies.Valency builds them.
func TestRadixCandidates(t *testing.T) {
	var got []string
	for _, c := range radixCandidates(64, 12) {
		got = append(got, c.source)
		want, err := topologies.Valency(c.net.Topology(), 64, topologies.ValencyOf(c.net))
		require.NoError(t, err)
		assert.Equal(t, want.Spec(), c.net.Spec(), c.source)
		assert.Equal(t, c.net.Figures(), c.figs)
	}
	assert.Equal(t, []string{"kogge-stone v=3", "sklansky v=3", "kogge-stone v=4", "sklansky v=4"}, got)
	for _, c := range radixCandidates(64, 7) {
		assert.LessOrEqual(t, c.figs.Depth, 7, c.source)
	}
	assert.Less(t, len(radixCandidates(64, 7)), 4, "the deeper ones are left out")
}

// TestFlowStartsKeepGiven holds --start's promise: the network the user
// gives starts a chain however its energy ranks (Knowles s=10 sparse 2 on
// Nangate45, 0.9 % over a G2 delay bound, was passed by for three adders
// far inside it, docs/libraries.md), at its sparseness of least energy, in
// place of the last of the others; where it ranks among the first
// FlowStarts the starts are those of least energy, as without it. The
// starts run in order of energy.
func TestFlowStartsKeepGiven(t *testing.T) {
	names := []string{"brent-kung", "kogge-stone", "sklansky", "han-carlson", "ladner-fischer", "ripple"}
	nets := make([]*network.Network, len(names))
	for i, name := range names {
		var err error
		nets[i], err = topologies.Build(name, 16, nil)
		require.NoError(t, err)
	}
	sparse := []int{1, 2}
	goal := flowGoal{Bound: 1.0}
	r := func(area, ns float64) *physical.Result { return &physical.Result{AreaUM2: area, DelayNS: ns} }
	// results gives the first adders, then adder i (i ≥ 2) 100 + 10(i − 2)
	// µm² far inside the bound, up to all twelve.
	results := func(first ...*physical.Result) []*physical.Result {
		for i := len(first); i < 2*len(names); i++ {
			first = append(first, r(float64(100+10*(i-2)), 0.5))
		}
		return first
	}
	tests := []struct {
		name    string
		given   int
		results []*physical.Result // network i/2 at sparseness sparse[i%2]
		want    []string           // each start's network and sparseness
	}{
		{"no start: the three of least energy", 0,
			results(r(500, 1.01), r(510, 1.02)),
			[]string{"kogge-stone/1", "kogge-stone/2", "sklansky/1"}},
		{"a start outside the bound replaces the last", 1,
			results(r(500, 1.01), r(510, 1.02)),
			[]string{"kogge-stone/1", "kogge-stone/2", "brent-kung/1"}},
		{"at its sparseness of least energy", 1,
			results(r(520, 1.02), r(500, 1.01)),
			[]string{"kogge-stone/1", "kogge-stone/2", "brent-kung/2"}},
		{"a start among the first three changes nothing", 1,
			results(r(90, 0.5), r(105, 0.5)),
			[]string{"brent-kung/1", "kogge-stone/1", "brent-kung/2"}},
		{"two starts outside the bound", 2,
			results(r(500, 1.01), r(510, 1.02), r(600, 1.01), r(610, 1.02)),
			[]string{"sklansky/1", "brent-kung/1", "kogge-stone/1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sources := slices.Clone(names)
			starts, err := flowStarts(Options{Width: 16, MaxDepth: 15}, nets, sources, sparse, tt.results, goal, tt.given)
			require.NoError(t, err)
			var got []string
			for _, p := range starts {
				got = append(got, fmt.Sprintf("%s/%d", p.source, p.sparse))
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// Within an area bound the flow's named candidates hold the
// zero-deficiency network of every depth, the smallest network of each
// depth (Snir's bound) and so the trade-off an area bound cuts; under a
// delay bound only those at the shallow end and at the depth bound, as
// the model's searches take them.
func TestFlowNamedCandidates(t *testing.T) {
	depths := func(cs []candidate) []int {
		var ds []int
		for _, c := range cs {
			if c.net.Topology() == "zero-deficiency" {
				ds = append(ds, c.net.Params()["d"])
			}
		}
		slices.Sort(ds)
		return ds
	}
	const n, depth = 32, 31
	lo := topologies.ZeroDeficiencyDepth(n)
	var every []int
	for d := lo; d <= depth; d++ {
		every = append(every, d)
	}
	assert.Equal(t, every, depths(flowNamedCandidates(n, depth, true)), "within an area")
	assert.Equal(t, []int{lo, lo + 1, lo + 2, depth}, depths(flowNamedCandidates(n, depth, false)), "within a delay")
	assert.Equal(t, depths(namedCandidates(n, 12)), depths(flowNamedCandidates(n, 12, false)))
}

// The flow measures the radix-k networks whatever the model says of them,
// and within an area also the shallowest zero-deficiency networks: the
// fastest of the networks smallest for their depth, which some libraries
// map nearly as small as the deepest (Nangate45 at 128 bits,
// docs/libraries.md), while the model ranks them far larger.
func TestFlowLeadCandidates(t *testing.T) {
	const n, depth = 32, 31
	lo := topologies.ZeroDeficiencyDepth(n)
	radix := names(radixCandidates(n, depth))
	require.NotEmpty(t, radix)
	assert.Equal(t, radix, names(flowLeadCandidates(n, depth, false, false)), "within a delay")
	var shallow []string
	for d := lo; d <= lo+2; d++ {
		shallow = append(shallow, fmt.Sprintf("zero-deficiency d=%d", d))
	}
	assert.Equal(t, append(radix, shallow...), names(flowLeadCandidates(n, depth, true, false)), "within an area")

	// With full adders the carry-select networks come first: of two
	// segments, the lower of 31 bits down to 16 (under a depth bound of 20
	// those of 20 bits down), then of segments growing by one and by two
	// bits from a first of 2 to ⌈√(2n)⌉ = 8, three segments or more (from
	// 8 bits growing by two, 8 + 10 + 12 + 2 at 32 bits).
	var cs []string
	for lo := n - 1; lo >= n/2; lo-- {
		cs = append(cs, fmt.Sprintf("carry-select l=%d g=0", lo))
	}
	var growing []string
	for _, grow := range []int{1, 2} {
		for first := 2; first <= 8; first++ {
			growing = append(growing, fmt.Sprintf("carry-select l=%d g=%d", first, grow))
		}
	}
	assert.Equal(t, append(append(append(slices.Clone(cs), growing...), radix...), shallow...), names(flowLeadCandidates(n, depth, true, true)), "full adders")
	assert.Equal(t, cs[n-1-20:], two(carrySelectCandidates(n, 20)), "within depth 20")
	for _, c := range carrySelectCandidates(n, depth) {
		assert.LessOrEqual(t, c.figs.Depth, depth, c.source)
	}
	assert.Len(t, two(carrySelectCandidates(128, 127)), 64, "every split at 128 bits")
	wide := carrySelectCandidates(1000, 999)
	assert.Len(t, two(wide), 63, "at most 64 above")
	assert.Equal(t, "carry-select l=999 g=0", wide[0].source)
	assert.Len(t, wide, 63+2*15, "at most 32 growing, the first of 2 to 45 bits in steps of 3")
	// The square-root carry-select adders are deeper than a delay search's
	// default bound at 128 bits (2⌈log2 N⌉ = 14): within 127 every one.
	assert.Empty(t, carrySelectCandidates(128, 14))
	assert.Len(t, carrySelectCandidates(128, 127), 64+2*15, "the first of 2 to 16 bits")
}

// two returns the sources of the carry-select candidates of two segments.
func two(cs []candidate) []string {
	var out []string
	for _, c := range cs {
		if strings.HasSuffix(c.source, " g=0") {
			out = append(out, c.source)
		}
	}
	return out
}

// The flow search knows a named network by its value: every lead
// candidate is one of the named ones, the same value, or a search whose
// best named adder is a radix-k network reports none (CI, stop 55:
// TestClaimRadixCandidates).
func TestFlowCandidates(t *testing.T) {
	for _, area := range []bool{false, true} {
		named, lead := flowCandidates(32, 31, area, false)
		require.NotEmpty(t, lead)
		assert.Equal(t, names(lead), names(flowLeadCandidates(32, 31, area, false)), "area %v", area)
		for _, c := range lead {
			assert.True(t, slices.ContainsFunc(named, func(d candidate) bool { return d.net == c.net }), "area %v: %s is not named", area, c.source)
		}
		assert.Equal(t, names(flowNamedCandidates(32, 31, area)), names(named[:len(named)-len(lead)]), "area %v", area)
	}
}

// names returns the candidates' sources.
func names(cs []candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.source)
	}
	return out
}

// Every move of a carry-select point's segments keeps their sum and a
// length of at least 1 each, and changes them or is refused; over many
// draws each kind of move turns up: a bit given to another segment (as
// many segments), a split (one more), a merge (one fewer) and a segment
// moved (the same lengths in another order). One segment of one bit
// cannot move at all.
func TestMoveSegments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const moved = 2
	kinds := map[int]int{}
	for _, segs := range [][]int{{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 2}, {1, 1}, {2}, {1, 3, 1}} {
		before := slices.Clone(segs)
		for range 200 {
			out := moveSegments(segs, rng)
			require.Equal(t, before, segs, "the move changed its argument")
			if out == nil {
				continue
			}
			sum := 0
			for _, l := range out {
				require.GreaterOrEqual(t, l, 1, "%v", out)
				sum += l
			}
			total := 0
			for _, l := range segs {
				total += l
			}
			require.Equal(t, total, sum, "%v → %v", segs, out)
			require.NotEqual(t, segs, out)
			kinds[len(out)-len(segs)]++
			if sorted := slices.Sorted(slices.Values(out)); slices.Equal(sorted, slices.Sorted(slices.Values(segs))) {
				kinds[moved]++
			}
		}
	}
	assert.Positive(t, kinds[0], "a bit to a neighbour")
	assert.Positive(t, kinds[1], "a split")
	assert.Positive(t, kinds[-1], "a merge")
	assert.Positive(t, kinds[moved], "a segment moved to another place")
	// Every place is open to a moved segment, the top one too.
	top := false
	for range 500 {
		top = top || slices.Equal(moveSegments([]int{1, 2, 3}, rng), []int{2, 3, 1})
	}
	assert.True(t, top, "the bottom segment moved to the top")
	for range 20 {
		assert.Nil(t, moveSegments([]int{1}, rng))
	}
}

// With Options.CarrySelect a chain from a carry-select network measures
// carry-select networks of other segments (its design names say so: the
// family's l and g, or the lengths l0, l1, …), each the network
// topologies.CarrySelect builds for its point's segments; without, the
// same start makes none.
func TestSearchFlowSegments(t *testing.T) {
	needFlow(t)
	ctx := context.Background()
	start, err := topologies.Build("carry-select", 16, network.Params{"l": 3, "g": 1})
	require.NoError(t, err)
	res, err := physical.Synthesize(ctx, start, physical.Options{})
	require.NoError(t, err)
	results := []*physical.Result{res}
	goal := flowGoal{Bound: res.DelayNS}
	for _, on := range []bool{true, false} {
		opt := Options{Width: 16, MaxDepth: 15, Seed: 5, CarrySelect: on}
		points, err := flowStarts(opt, []*network.Network{start}, []string{"carry-select"}, []int{1}, results, goal, 1)
		require.NoError(t, err)
		require.Len(t, points, 1)
		if !on {
			assert.Nil(t, points[0].segs)
		} else {
			assert.Equal(t, []int{3, 4, 5, 4}, points[0].segs)
		}
		dir := t.TempDir()
		best, _, tried, err := searchFlow(ctx, opt, goal, physical.Options{Workdir: dir}, points, 12, nil)
		require.NoError(t, err)
		require.NotNil(t, best)
		assert.Equal(t, 12, tried)
		kept, err := filepath.Glob(filepath.Join(dir, "search-*", "carry-select*"))
		require.NoError(t, err)
		if !on {
			assert.Empty(t, kept)
			continue
		}
		assert.NotEmpty(t, kept, "no trial moved the segments")
		if best.segs != nil {
			want, err := topologies.CarrySelect(16, best.segs...)
			require.NoError(t, err)
			assert.Equal(t, want.Spec().Cells, best.net.Spec().Cells)
		}
	}
}

// A start rebuilt on the search's grid can come out deeper than it was: a
// depth-4 network of 7 inputs rebuilds at depth 5. Past the depth bound it
// is no start: the search would measure an adder beyond its bounds.
func TestFlowStartsWithinDepth(t *testing.T) {
	var cells []network.Cell
	for _, c := range [][2]int{{2, 3}, {5, 6}, {0, 1}, {3, 4}, {1, 2}, {7, 4}, {11, 10}, {0, 13}, {0, 11}, {12, 8}, {15, 3}, {9, 16}, {14, 5}} {
		cells = append(cells, network.Cell{Lo: c[0], Hi: c[1]})
	}
	net, err := network.New(network.Spec{Width: 7, Cells: cells, Outputs: []int{0, 9, 15, 17, 14, 19, 18}})
	require.NoError(t, err)
	require.Equal(t, 4, net.Depth())
	rebuilt, err := fromNetwork(net).network()
	require.NoError(t, err)
	require.Equal(t, 5, rebuilt.Depth(), "the grid's rebuild is deeper")
	opt := Options{Width: 7, MaxDepth: 4}
	pts, err := flowStarts(opt, []*network.Network{net}, []string{"mine"}, []int{1}, []*physical.Result{{AreaUM2: 1, DelayNS: 1}}, flowGoal{Bound: 10}, 1)
	require.NoError(t, err)
	for _, p := range pts {
		assert.LessOrEqual(t, p.net.Depth(), opt.MaxDepth, p.source)
	}
}
