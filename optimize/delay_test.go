package optimize_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/optimize"
	"github.com/prefixgen/prefixgen/topologies"
)

// namedModels returns the model's report of every named network of width n
// within depth, at every setting the registry calls useful.
func namedModels(t *testing.T, n, depth int) map[string]delay.Report {
	t.Helper()
	out := map[string]delay.Report{}
	try := func(name string, p network.Params) {
		net, err := topologies.Build(name, n, p)
		if err != nil || net.Depth() > depth {
			return
		}
		out[name+" "+p.Format(" ")] = delay.OSU018.Analyze(net)
	}
	for _, name := range []string{"ripple", "kogge-stone", "brent-kung", "sklansky", "han-carlson"} {
		try(name, nil)
	}
	for k := range 5 {
		try("ladner-fischer", network.Params{"k": k})
	}
	for s := range 16 {
		try("knowles", network.Params{"s": s})
	}
	for l := range 5 {
		for f := range 5 - l {
			try("harris", network.Params{"l": l, "f": f})
		}
	}
	return out
}

// TestObjectiveDelay checks that the delay objective returns a network, proven
// and simulated, at least as fast by the model as every named network
// within the depth, and, at 32 bits, faster than all of them.
func TestObjectiveDelay(t *testing.T) {
	opt := optimize.Options{Width: 32, MaxDepth: 8, Seed: 1, Steps: 4000, Objective: optimize.Delay}
	r, err := optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	checkResult(t, opt, r)
	assert.Equal(t, delay.OSU018.Analyze(r.Network), r.Model)
	var fastest string
	var best delay.Report
	for name, m := range namedModels(t, 32, 8) {
		if fastest == "" || m.Tau < best.Tau {
			fastest, best = name, m
		}
	}
	assert.Less(t, r.Model.Tau, best.Tau, "the named %s is as fast", fastest)
	assert.Contains(t, r.Source, "annealing on the delay model")
	require.NotNil(t, r.Named)
	assert.InDelta(t, best.Tau, r.NamedModel.Tau, 1e-9, "Named is the fastest named network")

	// Among equally fast networks the chains walk towards the smaller: at
	// 12 bits they find 27 cells and 6.8693 FO4, where chains that
	// favoured area had stopped at Knowles's 29 cells and 6.9160 FO4.
	r, err = optimize.Minimize(context.Background(), optimize.Options{Width: 12, MaxDepth: 11, Seed: 1, Chains: 2, Steps: 3000, Objective: optimize.Delay})
	require.NoError(t, err)
	assert.Equal(t, 27, r.Figures.Size)
	assert.InDelta(t, 2880, r.Model.Area, 1e-9)
	assert.InDelta(t, 6.8693, r.Model.FO4, 5e-5)
	assert.Equal(t, "knowles s=2, improved by annealing on the delay model", r.Source)
}

// TestMaxDelay checks that under a delay bound the result meets it and is
// no larger, by the model's area, than any named network that meets it; a
// bound below the fastest network is refused, naming it.
func TestMaxDelay(t *testing.T) {
	opt := optimize.Options{Width: 32, MaxDepth: 10, Seed: 1, Steps: 4000, MaxDelay: 11}
	r, err := optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	checkResult(t, opt, r)
	assert.LessOrEqual(t, r.Model.FO4, 11.0)
	for name, m := range namedModels(t, 32, 10) {
		if m.FO4 <= 11 {
			assert.LessOrEqual(t, r.Model.Area, m.Area, "%s is smaller within the bound", name)
		}
	}
	// The chains' energy charges a delay past the bound, not one under
	// it: they find 96 cells, 8984 of area, close under the bound.
	assert.Equal(t, 96, r.Figures.Size)
	assert.InDelta(t, 8984, r.Model.Area, 1e-9)
	assert.InDelta(t, 10.9831, r.Model.FO4, 5e-5)
	// A bound equal to a network's delay is met: at width 2, the one
	// network's own delay.
	only, err := topologies.Build("ripple", 2, nil)
	require.NoError(t, err)
	exact := optimize.Options{Width: 2, MaxDepth: 1, MaxDelay: delay.OSU018.Analyze(only).FO4}
	r2, err := optimize.Minimize(context.Background(), exact)
	require.NoError(t, err)
	assert.Equal(t, 1, r2.Figures.Size)

	opt.MaxDelay = 5
	_, err = optimize.Minimize(context.Background(), opt)
	var notFound *optimize.NotFoundError
	require.True(t, errors.As(err, &notFound), "%v", err)
	assert.Contains(t, err.Error(), "model delay ≤ 5 FO4: the fastest")
	// The bound as given, not rounded to 0.00.
	opt.MaxDelay = 0.0001
	_, err = optimize.Minimize(context.Background(), opt)
	assert.ErrorContains(t, err, "model delay ≤ 0.0001 FO4: the fastest")

	opt.MaxDelay = -1
	assert.ErrorContains(t, optimize.Check(opt), "max delay -1 out of range")

	// A bound the area's search misses but a search for delay meets is
	// met: what --objective delay finds, within the bound, is a network.
	fast, err := optimize.Minimize(context.Background(), optimize.Options{Width: 8, MaxDepth: 4, Seed: 1, Objective: optimize.Delay})
	require.NoError(t, err)
	bound := math.Ceil(fast.Model.FO4*100) / 100
	opt = optimize.Options{Width: 8, MaxDepth: 4, Seed: 1, MaxDelay: bound}
	r, err = optimize.Minimize(context.Background(), opt)
	require.NoError(t, err, "the delay search met %.2f FO4", fast.Model.FO4)
	checkResult(t, opt, r)
	assert.LessOrEqual(t, r.Model.FO4, bound)
	assert.LessOrEqual(t, r.Model.Area, fast.Model.Area, "no larger than the fastest")
	// With --objective delay the message does not send the user to it.
	_, err = optimize.Minimize(context.Background(), optimize.Options{Width: 8, MaxDepth: 4, Seed: 1, Objective: optimize.Delay, MaxDelay: 5})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "--objective delay")
}

// TestModelDeterministic checks that the model-aware search, too, depends
// on the seed and not on the number of cores.
func TestModelDeterministic(t *testing.T) {
	opt := optimize.Options{Width: 24, MaxDepth: 7, Seed: 3, Chains: 3, Steps: 3000, MaxDelay: 10}
	r1, err := optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	prev := runtime.GOMAXPROCS(1)
	r2, err := optimize.Minimize(context.Background(), opt)
	runtime.GOMAXPROCS(prev)
	require.NoError(t, err)
	assert.Equal(t, r1.Network.Spec(), r2.Network.Spec())
}

func TestParseObjective(t *testing.T) {
	for _, o := range []optimize.Objective{optimize.Cells, optimize.Delay} {
		back, err := optimize.ParseObjective(o.String())
		require.NoError(t, err)
		assert.Equal(t, o, back)
	}
	_, err := optimize.ParseObjective("speed")
	assert.EqualError(t, err, `optimize: unknown objective "speed": allowed area, delay`)
	_, err = optimize.ParseObjective(strings.Repeat("x", 100))
	assert.EqualError(t, err, `optimize: unknown objective "`+strings.Repeat("x", network.QuoteLimit)+`…": allowed area, delay`, "cut after 40 characters")
	assert.Equal(t, "Objective(5)", optimize.Objective(5).String(), "not a name it does not have")
	assert.Equal(t, 1, optimize.ModelDepth(0), "a width below 1 wraps nowhere")
	assert.Equal(t, 1, optimize.AreaDepth(-3))
}

// TestDefaultDepths pins the depth bounds optimize gives a search when none
// is asked: 2⌈log2 n⌉ under the model, and every network of the width
// (ripple's n − 1), or that where it is more, within an area.
func TestDefaultDepths(t *testing.T) {
	tests := []struct {
		n, model, area int
	}{
		{n: 1, model: 1, area: 1},
		{n: 2, model: 2, area: 2},
		{n: 4, model: 4, area: 4},
		{n: 5, model: 6, area: 6},
		{n: 8, model: 6, area: 7},
		{n: 16, model: 8, area: 15},
		{n: 64, model: 12, area: 63},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.model, optimize.ModelDepth(tt.n), "model depth at width %d", tt.n)
		assert.Equal(t, tt.area, optimize.AreaDepth(tt.n), "area depth at width %d", tt.n)
	}
}

// TestModelLibrary checks that the search stands on the library it is
// given: with AOI21s three times as slow, the result and the named network
// it is compared with carry that model's figures, not OSU 0.18 µm's.
func TestModelLibrary(t *testing.T) {
	slow := delay.OSU018
	slow.Name = "slow aoi21"
	slow.CellG.Parasitic *= 3
	slow.CellG.Drive *= 3
	opt := optimize.Options{Width: 16, MaxDepth: 6, Seed: 1, Steps: 2000, Objective: optimize.Delay, Model: &slow}
	r, err := optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	checkResult(t, opt, r)
	assert.Equal(t, slow.Analyze(r.Network), r.Model)
	assert.NotEqual(t, delay.OSU018.Analyze(r.Network), r.Model)
	require.NotNil(t, r.Named)
	assert.Equal(t, slow.Analyze(r.Named), r.NamedModel)
}

// TestProfileSearch checks that the search meets the adder's timing in its
// design: with the operands' top bits arriving late (a ramp of 0.1 ns a
// bit, as the sums of a carry-save tree deliver them), the delay search
// finds a network at least as fast in that profile as every named network
// within the depth, and the result's model is the profile's.
func TestProfileSearch(t *testing.T) {
	arrival := make([]float64, 32)
	for i := range arrival {
		arrival[i] = 0.1 * float64(i)
	}
	prof := &delay.Profile{Arrival: arrival}
	opt := optimize.Options{Width: 32, MaxDepth: 8, Seed: 1, Steps: 2000, Objective: optimize.Delay, Profile: prof}
	r, err := optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	checkResult(t, opt, r)
	assert.Equal(t, delay.OSU018.AnalyzeProfile(r.Network, prof), r.Model)
	for _, topo := range []string{"ripple", "kogge-stone", "sklansky", "brent-kung", "han-carlson"} {
		net, err := topologies.Build(topo, 32, nil)
		require.NoError(t, err)
		if net.Figures().Depth > 8 {
			continue
		}
		assert.LessOrEqual(t, r.Model.Tau, delay.OSU018.AnalyzeProfile(net, prof).Tau+1e-9, topo)
	}
	opt.Profile = &delay.Profile{Arrival: arrival[:31]}
	_, err = optimize.Minimize(context.Background(), opt)
	assert.EqualError(t, err, "optimize: 31 arrival times for an adder of 32 bits: allowed one per bit")
}
