package optimize_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/optimize"
	"github.com/prefixgen/prefixgen/physical"
)

// TestMinimizeFlow runs the search through the synthesis and timing flow at
// 8 bits: the result meets the measured bound, is no larger than the
// smallest named network measured within it, is proven and simulated, and
// carries the flow's figures; a bound below every network is refused,
// naming the fastest measured.
func TestMinimizeFlow(t *testing.T) {
	needFlow(t)
	opt := optimize.Options{Width: 8, MaxDepth: 6, Seed: 1, Chains: 2, Steps: 500}
	ks := synthesize(t, "kogge-stone", 8)
	bound := ks.DelayNS * 1.1
	r, err := optimize.MinimizeFlow(context.Background(), opt, bound, physical.Options{})
	require.NoError(t, err)
	checkResult(t, opt, r.Result)
	require.NotNil(t, r.Measured)
	assert.LessOrEqual(t, r.Measured.DelayNS, bound)
	assert.Equal(t, "optimizer", r.Measured.Topology)
	assert.Positive(t, r.Tried)
	if r.NamedMeasured != nil {
		assert.LessOrEqual(t, r.Measured.AreaUM2, r.NamedMeasured.AreaUM2)
	}
	again, err := physical.Synthesize(context.Background(), r.Network, physical.Options{})
	require.NoError(t, err)
	assert.Equal(t, again.AreaUM2, r.Measured.AreaUM2, "the flow is deterministic")

	_, err = optimize.MinimizeFlow(context.Background(), opt, 0.01, physical.Options{})
	var notFound *optimize.NotFoundError
	require.True(t, errors.As(err, &notFound), "%v", err)
	assert.Contains(t, err.Error(), "none has a delay ≤ 0.01 ns: the fastest")

	_, err = optimize.MinimizeFlow(context.Background(), opt, -1, physical.Options{})
	assert.EqualError(t, err, "optimize: max delay -1 ns out of range: allowed a positive number")

	// One network measured is one network.
	_, err = optimize.MinimizeFlow(context.Background(), optimize.Options{Width: 1, MaxDepth: 1, Seed: 1, Chains: 1, Steps: 10}, 0.001, physical.Options{})
	require.True(t, errors.As(err, &notFound), "%v", err)
	assert.Contains(t, err.Error(), "optimize: of 1 network of width 1 measured, none has a delay ≤ 0.001 ns: the fastest")
}

// When the best adder is a named network's, the result is named the
// optimizer's and NamedMeasured keeps the named network's name: the two
// had been one Result, renamed "optimizer" both.
func TestMinimizeFlowNamedKeepsItsName(t *testing.T) {
	needFlow(t)
	opt := optimize.Options{Width: 4, MaxDepth: 3, Seed: 1, Chains: 1, Steps: 50}
	r, err := optimize.MinimizeFlow(context.Background(), opt, 100, physical.Options{})
	require.NoError(t, err)
	require.NotNil(t, r.NamedMeasured)
	require.NotNil(t, r.Named)
	if r.Measured.AreaUM2 != r.NamedMeasured.AreaUM2 {
		t.Skipf("the optimizer's adder (%g µm²) is not the named one's (%g µm²)", r.Measured.AreaUM2, r.NamedMeasured.AreaUM2)
	}
	assert.Equal(t, "optimizer", r.Measured.Topology)
	assert.Equal(t, r.Named.Topology(), r.NamedMeasured.Topology)
	assert.NotSame(t, r.Measured, r.NamedMeasured)
}

// TestMinimizeFlowDelay asks the other question at 8 bits: the fastest
// adder within Brent–Kung's area. The result is within the area, at least
// as fast as every named network measured within it (Brent–Kung among
// them), proven and simulated; with flow steps the search keeps the bound;
// an area below every adder is refused, naming the smallest measured.
func TestMinimizeFlowDelay(t *testing.T) {
	needFlow(t)
	ctx := context.Background()
	opt := optimize.Options{Width: 8, MaxDepth: 6, Seed: 1, Chains: 2, Steps: 500}
	bk := synthesize(t, "brent-kung", 8)
	r, err := optimize.MinimizeFlowDelay(ctx, opt, bk.AreaUM2, physical.Options{}, nil)
	require.NoError(t, err)
	checkResult(t, opt, r.Result)
	require.NotNil(t, r.Measured)
	require.NotNil(t, r.NamedMeasured, "Brent–Kung itself is within its own area")
	assert.LessOrEqual(t, r.Measured.AreaUM2, bk.AreaUM2)
	assert.LessOrEqual(t, r.Measured.DelayNS, r.NamedMeasured.DelayNS)
	assert.LessOrEqual(t, r.NamedMeasured.DelayNS, bk.DelayNS)
	assert.LessOrEqual(t, r.NamedMeasured.AreaUM2, bk.AreaUM2)

	opt.FlowSteps = 8
	searched, err := optimize.MinimizeFlowDelay(ctx, opt, bk.AreaUM2, physical.Options{}, nil)
	require.NoError(t, err)
	checkResult(t, opt, searched.Result)
	assert.LessOrEqual(t, searched.Measured.AreaUM2, bk.AreaUM2)
	assert.LessOrEqual(t, searched.Measured.DelayNS, r.Measured.DelayNS, "more adders measured, none slower kept")

	_, err = optimize.MinimizeFlowDelay(ctx, optimize.Options{Width: 4, MaxDepth: 3, Seed: 1, Chains: 1, Steps: 50}, 10, physical.Options{}, nil)
	var notFound *optimize.NotFoundError
	require.True(t, errors.As(err, &notFound), "%v", err)
	assert.Contains(t, err.Error(), "none has an area ≤ 10 µm²: the smallest")
	// The area is told to its digits: a whole µm² misleads at small
	// libraries, whose adders take a few µm².
	_, err = optimize.MinimizeFlowDelay(ctx, optimize.Options{Width: 4, MaxDepth: 3, Seed: 1, Chains: 1, Steps: 50}, 0.5, physical.Options{Liberty: "asap7"}, nil)
	require.True(t, errors.As(err, &notFound), "%v", err)
	assert.Regexp(t, `has [0-9]\.[0-9]+ µm²$`, err.Error())
	// The smallest of everything measured, the search's adders too: it
	// had named the smallest candidate, 2603 µm², where the search had
	// measured 2572.
	_, err = optimize.MinimizeFlowDelay(ctx, optimize.Options{Width: 12, MaxDepth: 4, FlowSteps: 20}, 1000, physical.Options{}, nil)
	require.True(t, errors.As(err, &notFound), "%v", err)
	assert.Contains(t, err.Error(), "the smallest, the flow-in-the-loop search's adder from ")

	_, err = optimize.MinimizeFlowDelay(ctx, opt, 0, physical.Options{}, nil)
	assert.EqualError(t, err, "optimize: max area 0 out of range: allowed a positive number")
}

// TestMinimizeFlowStart goes on from an earlier search's network at 8
// bits: the start is measured, and when it is the best adder, the result is
// the start itself, named as such; a search that goes on from it never
// comes back worse.
// TestMinimizeFlowDelayEarly: every required time 5 ns later is the same
// question, every lateness 5 ns less, below 0: the same adder is found.
// Below 0 the ladder's bounds had been refused and the search's energy
// turned around, and an adder 0.19 ns later was returned.
func TestMinimizeFlowDelayEarly(t *testing.T) {
	needFlow(t)
	t.Parallel()
	ctx := context.Background()
	var found [2]optimize.FlowResult
	for i, req := range []float64{0, 5} {
		prof := &delay.Profile{Required: slices.Repeat([]float64{req}, 9)}
		opt := optimize.Options{Width: 8, MaxDepth: 7, Seed: 1, FlowSteps: 20, Profile: prof}
		r, err := optimize.MinimizeFlowDelay(ctx, opt, 1700, physical.Options{Profile: prof}, nil)
		require.NoError(t, err)
		found[i] = r
	}
	assert.Equal(t, found[0].Network.Spec().Cells, found[1].Network.Spec().Cells)
	assert.InDelta(t, found[0].Measured.DelayNS-5, found[1].Measured.DelayNS, 0.002)
	assert.Negative(t, found[1].Measured.DelayNS)
}

func TestMinimizeFlowStart(t *testing.T) {
	needFlow(t)
	ctx := context.Background()
	opt := optimize.Options{Width: 8, MaxDepth: 6, Seed: 1, Chains: 2, Steps: 500}
	bk := synthesize(t, "brent-kung", 8)
	first, err := optimize.MinimizeFlowDelay(ctx, opt, bk.AreaUM2, physical.Options{}, nil)
	require.NoError(t, err)

	opt.Start = []*network.Network{first.Network}
	again, err := optimize.MinimizeFlowDelay(ctx, opt, bk.AreaUM2, physical.Options{}, nil)
	require.NoError(t, err)
	checkResult(t, opt, again.Result)
	assert.Equal(t, "the start network 1 (optimizer), measured by the flow", again.Source)
	assert.Equal(t, first.Network.Spec().Cells, again.Network.Spec().Cells)
	assert.Equal(t, first.Measured.DelayNS, again.Measured.DelayNS)
	assert.Equal(t, first.Tried, again.Tried, "the start replaces the candidate it equals")

	// A start that is a named network is still that named network: the
	// best named adder within the bound is the same with it as without.
	require.NotNil(t, first.Named)
	opt.Start = []*network.Network{build(t, first.Named.Topology(), 8)}
	named, err := optimize.MinimizeFlowDelay(ctx, opt, bk.AreaUM2, physical.Options{}, nil)
	require.NoError(t, err)
	require.NotNil(t, named.Named)
	assert.Equal(t, first.Named.Topology(), named.Named.Topology())
	assert.Equal(t, first.NamedMeasured.DelayNS, named.NamedMeasured.DelayNS)
	opt.Start = []*network.Network{first.Network}

	// Going on from it, with a start the candidates do not hold: that one
	// is measured too, and the search comes back no slower.
	opt.Start = append(opt.Start, odd8(t))
	opt.FlowSteps = 6
	on, err := optimize.MinimizeFlowDelay(ctx, opt, bk.AreaUM2, physical.Options{}, nil)
	require.NoError(t, err)
	checkResult(t, opt, on.Result)
	assert.LessOrEqual(t, on.Measured.AreaUM2, bk.AreaUM2)
	assert.LessOrEqual(t, on.Measured.DelayNS, first.Measured.DelayNS)
	assert.Equal(t, first.Tried+1+opt.FlowSteps, on.Tried)
}

// odd8 is a network of width 8 no family builds: ripple to 3, Sklansky's
// halves above.
func odd8(t *testing.T) *network.Network {
	t.Helper()
	net, err := network.Unmarshal([]byte(`{"format":"prefixgen.network/v1","width":8,"topology":"odd",
		"cells":[[0,1],[8,2],[9,3],[4,5],[6,7],[11,6],[11,12],[10,4],[10,11],[10,13],[10,14]],
		"outputs":[0,8,9,10,15,16,17,18]}`))
	require.NoError(t, err)
	return net
}

// TestMinimizeFlowSparse measures the candidates as sparse-4 adders at 8
// bits: the result says so, its figures are those of its sparse-4 adder
// (not the dense one's), and measuring dense and sparse-4 together finds an
// adder no larger.
func TestMinimizeFlowSparse(t *testing.T) {
	needFlow(t)
	opt := optimize.Options{Width: 8, MaxDepth: 6, Seed: 1, Chains: 2, Steps: 500}
	sparse, err := optimize.MinimizeFlowSparse(context.Background(), opt, 100, physical.Options{}, []int{4})
	require.NoError(t, err)
	checkResult(t, opt, sparse.Result)
	assert.Equal(t, 4, sparse.Measured.Adder.Sparse)
	assert.NotContains(t, sparse.Measured.Params, "sparse", "sparseness is not a topology parameter")
	measure := func(s int) *physical.Result {
		d, err := physical.ArchitectureDesign(sparse.Network, adder.Architecture{Flags: adder.Carry, Sparse: s}, nil)
		require.NoError(t, err)
		r, err := physical.Run(context.Background(), []*physical.Design{d}, physical.Options{})
		require.NoError(t, err)
		return r[0]
	}
	assert.Equal(t, measure(4).AreaUM2, sparse.Measured.AreaUM2)
	assert.NotEqual(t, measure(1).AreaUM2, sparse.Measured.AreaUM2, "the dense adder is another circuit")

	both, err := optimize.MinimizeFlowSparse(context.Background(), opt, 100, physical.Options{}, []int{1, 4})
	require.NoError(t, err)
	assert.Contains(t, []int{1, 4}, both.Measured.Adder.Sparse)
	assert.LessOrEqual(t, both.Measured.AreaUM2, sparse.Measured.AreaUM2)

	_, err = optimize.MinimizeFlowSparse(context.Background(), opt, 1, physical.Options{}, []int{16})
	assert.EqualError(t, err, "optimize: sparseness 16 out of range: allowed [1 2 4 8], at most the width 8")
}

// TestMinimizeFlowSearch runs the flow-in-the-loop search after the
// candidates at 16 bits: it counts its syntheses in Tried, finds an adder
// no larger than the candidates' best within the same bound, proven and
// simulated, whose figures the flow gives again, and the same options give
// the same network, at any number of syntheses at once (shown at 8 bits).
func TestMinimizeFlowSearch(t *testing.T) {
	needFlow(t)
	t.Parallel()
	ctx := context.Background()
	opt := optimize.Options{Width: 16, MaxDepth: 8, Seed: 1, Chains: 2, Steps: 500}
	ks := synthesize(t, "kogge-stone", 16)
	plain, err := optimize.MinimizeFlow(ctx, opt, ks.DelayNS, physical.Options{})
	require.NoError(t, err)

	opt.FlowSteps = 8
	r, err := optimize.MinimizeFlow(ctx, opt, ks.DelayNS, physical.Options{})
	require.NoError(t, err)
	checkResult(t, opt, r.Result)
	assert.Equal(t, plain.Tried+opt.FlowSteps, r.Tried)
	assert.LessOrEqual(t, r.Measured.DelayNS, ks.DelayNS)
	assert.LessOrEqual(t, r.Measured.AreaUM2, plain.Measured.AreaUM2)
	again, err := physical.Synthesize(ctx, r.Network, physical.Options{})
	require.NoError(t, err)
	assert.Equal(t, r.Measured.AreaUM2, again.AreaUM2)
	assert.Equal(t, r.Measured.DelayNS, again.DelayNS)

	opt.FlowSteps = -1
	_, err = optimize.MinimizeFlow(ctx, opt, ks.DelayNS, physical.Options{})
	assert.EqualError(t, err, "optimize: flow steps -1 out of range: allowed 0 to 1000000")
}

// TestMinimizeFlowProgress: a flow search reports one count over all its
// stages, the model's searches and then every synthesis, each order of a
// design's gates among them, one at a time, and ends at its total. It
// reported the model's searches out of their own total, then nothing
// while the candidates were measured, then the flow steps out of theirs:
// "1/7 searches, 7.5s left" stood for the five minutes of a search's
// syntheses. The first call, before any stage ends, gives the estimate:
// a bar has nothing to show for a search's first minutes without it.
func TestMinimizeFlowProgress(t *testing.T) {
	needFlow(t)
	t.Parallel()
	var calls [][2]int
	// At 4 bits: 7 lead candidates where 8 bits have 23, counted alike.
	opt := optimize.Options{Width: 4, MaxDepth: 3, Seed: 1, Chains: 2, Steps: 200, FlowSteps: 6,
		Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }}
	_, err := optimize.MinimizeFlow(context.Background(), opt, 100, physical.Options{Flow: physical.ABC, Orders: 1, Workdir: t.TempDir()})
	require.NoError(t, err)
	require.Greater(t, len(calls), 1)
	assert.Equal(t, 0, calls[0][0], "the estimate first: %v", calls)
	for i, c := range calls[:len(calls)-1] {
		assert.Equal(t, i, c[0], "one more done at each call: %v", calls)
		assert.Less(t, c[0], c[1], "done within the total, and at it only at the end: %v", calls)
	}
	last := calls[len(calls)-1]
	assert.Equal(t, last[0], last[1], "the search ends at its total: %v", calls)
	assert.GreaterOrEqual(t, last[0], 2*opt.FlowSteps, "every synthesis counted, each in two orders: %v", calls)
}

// The same options give the same network, however many syntheses run at
// once: the search's batches do not follow the cores (at 8 bits and 24
// steps, a batch of 8 found another adder than one of 4). A sweep: eighty
// syntheses, half of them one at a time.
func TestSweepMinimizeFlowJobs(t *testing.T) {
	needFlow(t)
	tooltest.SweepOnly(t)
	t.Parallel()
	ctx := context.Background()
	small := optimize.Options{Width: 8, MaxDepth: 6, Seed: 1, FlowSteps: 16}
	one, err := optimize.MinimizeFlow(ctx, small, 5, physical.Options{Jobs: 1})
	require.NoError(t, err)
	eight, err := optimize.MinimizeFlow(ctx, small, 5, physical.Options{Jobs: 8})
	require.NoError(t, err)
	assert.Equal(t, one.Network.Spec(), eight.Network.Spec(), "1 and 8 syntheses at once")
}

// needFlow skips the test in -short mode, and skips or fails it (under
// PREFIXGEN_REQUIRE_TOOLS=1) when yosys, sta or the OSU library is missing.
func needFlow(t *testing.T) {
	t.Helper()
	tooltest.Flow(t, physical.LibertyFile(""))
	if testing.Short() {
		t.Skip("the flow takes seconds: skipped in -short mode")
	}
}

// synthesize measures the adder of the named network at its defaults
// through the default flow.
func synthesize(t *testing.T, topology string, n int) *physical.Result {
	t.Helper()
	r, err := physical.Synthesize(context.Background(), build(t, topology, n), physical.Options{})
	require.NoError(t, err)
	return r
}

// TestMinimizeFlowStages measures pipelined adders at 8 bits, 3 register
// stages: the result is within the bound on the clock period, counts its
// flip-flops, and the flow gives its figures again from the same adder;
// under a depth bound of 4, 5 stages leave only networks of depth 4
// (depth 3, the least, takes at most 4), and more stages than any network
// within the bound takes, a start too shallow, a reset without stages and
// a negative count are refused.
func TestMinimizeFlowStages(t *testing.T) {
	needFlow(t)
	ctx := context.Background()
	pipelined := func(net *network.Network, sparse, stages int) *physical.Result {
		t.Helper()
		d, err := physical.ArchitectureDesign(net, adder.Architecture{Flags: adder.Carry, Sparse: sparse, Stages: stages, NoReset: true}, nil)
		require.NoError(t, err)
		r, err := physical.Run(ctx, []*physical.Design{d}, physical.Options{})
		require.NoError(t, err)
		return r[0]
	}
	// At 4 bits, whose 7 lead candidates take a third of 8 bits' 23
	// syntheses.
	ks := pipelined(build(t, "kogge-stone", 4), 1, 3)
	require.Positive(t, ks.Registers)
	bound := ks.DelayNS * 1.2

	opt := optimize.Options{Width: 4, MaxDepth: 3, Seed: 1, Chains: 2, Steps: 500, Adder: stages(3, true), FlowSteps: 6}
	r, err := optimize.MinimizeFlowSparse(ctx, opt, bound, physical.Options{}, []int{1, 2})
	require.NoError(t, err)
	checkResult(t, opt, r.Result)
	assert.LessOrEqual(t, r.Measured.DelayNS, bound)
	assert.Equal(t, 3, r.Measured.Adder.Stages)
	assert.True(t, r.Measured.Adder.NoReset)
	assert.Positive(t, r.Measured.Registers)
	again := pipelined(r.Network, r.Measured.Adder.Sparse, 3)
	assert.Equal(t, again.AreaUM2, r.Measured.AreaUM2, "the result is the adder measured")
	assert.Equal(t, again.Registers, r.Measured.Registers)
	combinational, err := physical.Synthesize(ctx, r.Network, physical.Options{})
	require.NoError(t, err)
	assert.Zero(t, combinational.Registers)

	deep := optimize.Options{Width: 4, MaxDepth: 3, Seed: 1, Chains: 2, Steps: 500, Adder: stages(4, false)}
	r, err = optimize.MinimizeFlow(ctx, deep, 100, physical.Options{})
	require.NoError(t, err)
	assert.Equal(t, 3, r.Figures.Depth, "a network of depth 2 takes at most 3 stages")
	assert.Equal(t, 4, r.Measured.Adder.Stages)

	var infeasible *optimize.InfeasibleError
	for _, c := range []struct {
		opt  optimize.Options
		want string
	}{
		{optimize.Options{Width: 8, MaxDepth: 3, Adder: stages(5, false)}, "optimize: no adder of depth 3 or less takes 5 register stages: allowed 1 to 4 (the depth + 1), or a deeper bound"},
		{optimize.Options{Width: 8, MaxDepth: 3, Adder: stages(-1, false)}, "optimize: -1 register stages out of range: allowed 0 (combinational) or more"},
		{optimize.Options{Width: 8, MaxDepth: 3, Adder: stages(0, true)}, "optimize: no reset asked for a combinational adder: allowed with register stages only"},
		{optimize.Options{Width: 8, MaxDepth: 6, Adder: stages(5, false), Start: []*network.Network{build(t, "kogge-stone", 8)}},
			"optimize: start network 1 (kogge-stone), of depth 3, as the adder of sparseness 1: 5 pipeline stages for a carry tree of depth 3: allowed 1 to 4"},
	} {
		_, err := optimize.MinimizeFlow(ctx, c.opt, 100, physical.Options{})
		assert.EqualError(t, err, c.want)
	}
	// A sparse adder's carry tree is shallower than its network: the
	// start is judged by the tree, as bad input (exit status 2), and not
	// told that its own depth would do.
	bk := build(t, "brent-kung", 16)
	_, err = optimize.MinimizeFlowSparse(ctx, optimize.Options{Width: 16, MaxDepth: 8, Adder: stages(6, false), Start: []*network.Network{bk}}, 100, physical.Options{}, []int{1, 4})
	assert.EqualError(t, err, "optimize: start network 1 (brent-kung), of depth 6, as the adder of sparseness 4: 6 pipeline stages for a carry tree of depth 4: allowed 1 to 5")
	assert.ErrorAs(t, err, &infeasible)
	assert.ErrorAs(t, optimize.Check(optimize.Options{Width: 8, MaxDepth: 3, Adder: stages(5, false)}), &infeasible)
}

// stages returns the standard adder with k register stages, with or
// without a reset.
func stages(k int, noReset bool) *adder.Architecture {
	a := adder.Standard
	a.Stages, a.NoReset = k, noReset
	return &a
}

// TestMinimizeFlowWorkdir: the candidates' runs and the search's keep
// their files in the work folder whole or not at all. Stand-in tools
// (every design measures the same) count the syntheses of the candidates
// alone (no flow steps); a search whose first synthesis fails then leaves
// no work folder, though the candidates' run succeeded, and one that
// succeeds leaves the candidates' folders and the search's.
func TestMinimizeFlowWorkdir(t *testing.T) {
	t.Parallel()
	testdata, err := filepath.Abs(filepath.Join("..", "physical", "testdata"))
	require.NoError(t, err)
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	failAt := filepath.Join(dir, "fail-at")
	tool := func(name, body string) string {
		path := filepath.Join(dir, name)
		script := "#!/bin/sh\ncase \"$1\" in -V) echo 'Yosys 0.0 (stand-in)'; exit 0;; -version) echo 2.0.0; exit 0;; esac\n" + body + "\n"
		require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
		return path
	}
	flow := physical.Options{
		Liberty: filepath.Join(dir, "tiny.lib"), Jobs: 1,
		Yosys: tool("yosys", `[ "$2" = -p ] && exit 0
echo x >> `+count+`
[ -f `+failAt+` ] && [ "$(wc -l < `+count+`)" -ge "$(cat `+failAt+`)" ] && { echo 'ERROR: stand-in fails'; exit 1; }
cp `+testdata+`/ks16-keep.stat.txt stat.txt
printf 'module m(a, y);\n  input a;\n  output y;\nendmodule\n' > mapped.v`),
		STA: tool("sta", `[ "$4" = check.tcl ] && exit 0
cat `+testdata+`/ks16-keep.sta.txt`),
	}
	lib, err := os.ReadFile(filepath.Join(testdata, "ks16-cells.lib"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(flow.Liberty, lib, 0o644))
	opt := optimize.Options{Width: 8, MaxDepth: 6, Seed: 1, Chains: 1, Steps: 50}
	_, err = optimize.MinimizeFlow(context.Background(), opt, 2, flow)
	require.NoError(t, err)
	data, err := os.ReadFile(count)
	require.NoError(t, err)
	candidates := strings.Count(string(data), "\n")

	opt.FlowSteps = 4
	flow.Workdir = filepath.Join(dir, "work")
	require.NoError(t, os.WriteFile(count, nil, 0o644))
	require.NoError(t, os.WriteFile(failAt, []byte(strconv.Itoa(candidates+1)), 0o644))
	_, err = optimize.MinimizeFlow(context.Background(), opt, 2, flow)
	require.ErrorContains(t, err, "ERROR: stand-in fails")
	assert.NoDirExists(t, flow.Workdir, "a search that fails leaves no work folder")

	require.NoError(t, os.Remove(failAt))
	_, err = optimize.MinimizeFlow(context.Background(), opt, 2, flow)
	require.NoError(t, err)
	kept, err := filepath.Glob(filepath.Join(flow.Workdir, "*", "stat.txt"))
	require.NoError(t, err)
	assert.Len(t, kept, candidates, "the candidates' folders")
	searched, err := filepath.Glob(filepath.Join(flow.Workdir, "search-*", "*", "stat.txt"))
	require.NoError(t, err)
	assert.NotEmpty(t, searched, "the search's folders")
	left, err := filepath.Glob(filepath.Join(dir, ".prefixgen-*"))
	require.NoError(t, err)
	assert.Empty(t, left, "nothing left beside the work folder")
}
