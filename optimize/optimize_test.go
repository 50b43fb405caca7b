package optimize_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/prefixgen/prefixgen/physical"
	"math"
	"math/bits"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/optimize"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// smallestNamed returns the size of the smallest named network of width n
// and depth at most depth, every family at every parameter setting, built
// here independently of the optimizer.
func smallestNamed(t *testing.T, n, depth int) int {
	t.Helper()
	levels := 0
	for 1<<levels < n {
		levels++
	}
	best := -1
	consider := func(name string, p network.Params) {
		net, err := topologies.Build(name, n, p)
		if err != nil || net.Depth() > depth {
			return
		}
		if best < 0 || net.Size() < best {
			best = net.Size()
		}
	}
	for _, top := range topologies.All() {
		switch top.Name {
		case "ladner-fischer":
			for k := 0; k <= levels; k++ {
				consider(top.Name, network.Params{"k": k})
			}
		case "knowles":
			for s := range 1 << (levels - 1) {
				consider(top.Name, network.Params{"s": s})
			}
		case "harris":
			for l := range levels {
				for f := 0; l+f <= levels-1; f++ {
					consider(top.Name, network.Params{"l": l, "f": f})
				}
			}
		case "zero-deficiency":
			for d := topologies.ZeroDeficiencyDepth(n); d <= min(depth, n-1); d++ {
				consider(top.Name, network.Params{"d": d})
			}
		default:
			consider(top.Name, nil)
		}
	}
	require.GreaterOrEqual(t, best, 0, "no named network of width %d within depth %d", n, depth)
	return best
}

// checkResult asserts what every result must be: within the bounds, proven
// again from its description, correct by simulation, with its figures.
func checkResult(t *testing.T, opt optimize.Options, r optimize.Result) {
	t.Helper()
	net := r.Network
	require.NotNil(t, net)
	f := net.Figures()
	assert.Equal(t, f, r.Figures)
	assert.Equal(t, opt.Width, f.Width)
	assert.LessOrEqual(t, f.Depth, opt.MaxDepth)
	if opt.MaxFanout > 0 {
		assert.LessOrEqual(t, f.MaxFanout, opt.MaxFanout)
	}
	assert.GreaterOrEqual(t, f.Size, r.LowerBound)
	assert.Equal(t, f.Size+f.Depth-(2*opt.Width-2), f.Deficiency)
	assert.Equal(t, "optimizer", net.Topology())
	_, err := network.New(net.Spec())
	require.NoError(t, err)
	rep, err := simulate.Verify(net, simulate.VerifyOptions{Vectors: 500, Seed: 9})
	require.NoError(t, err)
	require.True(t, rep.OK(), rep.Failure())
}

// TestTargets checks the issue's targets at 32 and 64 inputs: at every depth
// from log2 n to 2·log2 n − 2, no larger than the smallest named network.
func TestTargets(t *testing.T) {
	for _, n := range []int{32, 64} {
		levels := 0
		for 1<<levels < n {
			levels++
		}
		for d := levels; d <= 2*levels-2; d++ {
			opt := optimize.Options{Width: n, MaxDepth: d, Seed: 1}
			r, err := optimize.Minimize(context.Background(), opt)
			require.NoError(t, err)
			checkResult(t, opt, r)
			named := smallestNamed(t, n, d)
			assert.LessOrEqual(t, r.Figures.Size, named, "width %d depth %d", n, d)
			require.NotNil(t, r.Named)
			assert.Equal(t, named, r.Named.Size(), "width %d depth %d", n, d)
			t.Logf("width %d depth ≤ %d: %d cells (named %d, Snir %d) from %s", n, d, r.Figures.Size, named, r.LowerBound, r.Source)
		}
	}
	// At depth 6, 64 inputs, it finds Sergeev's least size, one below
	// Ladner–Fischer.
	r, err := optimize.Minimize(context.Background(), optimize.Options{Width: 64, MaxDepth: 6, Seed: 1})
	require.NoError(t, err)
	assert.Equal(t, 167, r.Figures.Size)
	// Where the named families are not optimal, the optimizer beats them.
	r, err = optimize.Minimize(context.Background(), optimize.Options{Width: 64, MaxDepth: 7, Seed: 1})
	require.NoError(t, err)
	assert.Less(t, r.Figures.Size, smallestNamed(t, 64, 7))
}

// TestTargets128 checks the widths of the published results: at depth 7 the
// least possible is 364 cells, I. S. Sergeev's exact value for 2^7 inputs at
// the least depth (On the complexity of parallel prefix circuits, ECCC
// TR13-041, 2013), so no result may be smaller, and the optimizer must find
// it, five below Ladner–Fischer's 369; at depth 8 it must beat every named family
// (Ladner–Fischer P_1, 295) and find 272, one fewer than ArithTreeRL's 273.
func TestTargets128(t *testing.T) {
	if testing.Short() {
		t.Skip("two searches at 128 inputs take several seconds")
	}
	opt := optimize.Options{Width: 128, MaxDepth: 7, Seed: 1}
	r, err := optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	checkResult(t, opt, r)
	assert.Equal(t, 364, r.Figures.Size)

	opt.MaxDepth = 8
	r, err = optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	checkResult(t, opt, r)
	assert.Equal(t, 295, smallestNamed(t, 128, 8))
	assert.Equal(t, 272, r.Figures.Size)
}

// TestZeroDeficiencyOptimal checks that where a zero-deficiency network
// exists the optimizer returns one, which Snir's bound proves optimal.
func TestZeroDeficiencyOptimal(t *testing.T) {
	for _, c := range [][2]int{{20, 5}, {64, 8}, {100, 12}, {256, 11}, {10, 9}, {10, math.MaxInt}, {2, 1}, {1, 0}} {
		opt := optimize.Options{Width: c[0], MaxDepth: c[1], Seed: 3}
		r, err := optimize.Minimize(context.Background(), opt)
		require.NoError(t, err)
		checkResult(t, opt, r)
		assert.Equal(t, r.LowerBound, r.Figures.Size, "width %d depth %d", c[0], c[1])
		assert.Equal(t, 0, r.Figures.Deficiency)
	}
}

// TestFanoutBound checks results under fan-out bounds, including bounds that
// the named families and the constructive search only meet with copied
// cells.
func TestFanoutBound(t *testing.T) {
	for _, c := range [][3]int{{64, 7, 6}, {64, 8, 4}, {32, 6, 3}, {40, 9, 3}} {
		opt := optimize.Options{Width: c[0], MaxDepth: c[1], MaxFanout: c[2], Seed: 1, Steps: 10000}
		r, err := optimize.Minimize(context.Background(), opt)
		require.NoError(t, err, "%v", c)
		checkResult(t, opt, r)
		assert.Equal(t, c[2], r.Network.Params()["max_fanout"])
	}
}

// TestDeterministic checks that a seed fixes the network, whatever the
// number of cores, on a problem where the annealing chains find the result.
func TestDeterministic(t *testing.T) {
	opt := optimize.Options{Width: 40, MaxDepth: 9, MaxFanout: 3, Seed: 5, Chains: 4, Steps: 20000}
	r1, err := optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	require.Contains(t, r1.Source, "annealing")
	prev := runtime.GOMAXPROCS(1)
	r2, err := optimize.Minimize(context.Background(), opt)
	runtime.GOMAXPROCS(prev)
	require.NoError(t, err)
	assert.Equal(t, r1.Network.Spec(), r2.Network.Spec())
	assert.Equal(t, r1.Source, r2.Source)
}

// TestOptimalSkipsAnnealing: a candidate of Snir's bound is proven
// optimal, so no annealing chain runs: the progress counts the one
// constructive search and nothing more.
func TestOptimalSkipsAnnealing(t *testing.T) {
	var calls [][2]int
	opt := optimize.Options{Width: 16, MaxDepth: 5, Seed: 1, Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }}
	r, err := optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	assert.Equal(t, 25, r.LowerBound)
	assert.Equal(t, 25, r.Figures.Size)
	assert.Equal(t, "constructive search", r.Source)
	assert.Equal(t, [][2]int{{0, 1}, {1, 2}, {1, 1}}, calls)
}

func TestProgressAndCancel(t *testing.T) {
	var calls []int
	opt := optimize.Options{Width: 40, MaxDepth: 6, Seed: 1, Chains: 3, Steps: 1000,
		Progress: func(done, total int) { calls = append(calls, done*10+total) }}
	_, err := optimize.Minimize(context.Background(), opt)
	require.NoError(t, err)
	// The constructive search, then each chain: the first call comes
	// before any work, so that a long search shows from its start, and
	// the count reaches its total only at the end (a bar takes done =
	// total for done: it said "1/1, done" before the chains began).
	assert.Equal(t, []int{1, 12, 14, 24, 34, 45, 44}, calls)

	// Wider than the chains run, the search alone is counted.
	calls = nil
	wide := optimize.Options{Width: 300, MaxDepth: 10, Progress: func(done, total int) { calls = append(calls, done*10+total) }}
	_, err = optimize.Minimize(context.Background(), wide)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 12, 11}, calls)

	// The model-aware search, of several stages, is done once, at its end.
	var pairs [][2]int
	delay := optimize.Options{Width: 32, MaxDepth: 7, MaxDelay: 11, Seed: 1, Chains: 2, Steps: 200,
		Progress: func(done, total int) { pairs = append(pairs, [2]int{done, total}) }}
	_, err = optimize.Minimize(context.Background(), delay)
	require.NoError(t, err)
	require.NotEmpty(t, pairs)
	for i, p := range pairs {
		assert.Equal(t, i == len(pairs)-1, p[0] >= p[1], "done only at the end: %v", pairs)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	opt.Progress = nil
	_, err = optimize.Minimize(ctx, opt)
	assert.ErrorIs(t, err, context.Canceled)
	assert.EqualError(t, err, "optimize: context canceled", "one line, however many chains")

	opt.MaxDelay = 20
	_, err = optimize.Minimize(ctx, opt)
	assert.EqualError(t, err, "optimize: context canceled", "the model-aware search too")
}

// A fan-out bound no carry of the width can reach runs the one search a
// bound of n − 1 runs, and finds the same network: a bound of 2^62 ran 63
// constructive searches, each the unbounded one again.
func TestLooseFanoutBound(t *testing.T) {
	searches := func(fanout int) (int, *network.Network) {
		total := 0
		opt := optimize.Options{Width: 16, MaxDepth: 5, MaxFanout: fanout, Seed: 1, Chains: 1, Steps: 10,
			Progress: func(done, t int) { total = max(total, t) }}
		res, err := optimize.Minimize(context.Background(), opt)
		require.NoError(t, err)
		return total, res.Network
	}
	tight, _ := searches(16)
	loose, lnet := searches(math.MaxInt)
	_, unbounded := searches(0)
	assert.Equal(t, tight, loose, "the searches of a bound the width cannot reach")
	assert.Equal(t, unbounded.Size(), lnet.Size())
}

func TestCheck(t *testing.T) {
	tests := []struct {
		opt        optimize.Options
		want       string
		infeasible bool
	}{
		{optimize.Options{Width: 0, MaxDepth: 3}, "optimize: width 0 out of range: allowed 1…1024", false},
		{optimize.Options{Width: 1025, MaxDepth: 12}, "optimize: width 1025 out of range: allowed 1…1024", false},
		{optimize.Options{Width: 100, MaxDepth: 6}, "optimize: no network of width 100 has depth 6 or less: the least depth is ⌈log2 100⌉ = 7", true},
		{optimize.Options{Width: 8, MaxDepth: 3, MaxFanout: -2}, "optimize: max fan-out -2 out of range: allowed 0 (no bound), or 3 or more at width 8 and depth ≤ 3", false},
		{optimize.Options{Width: 8, MaxDepth: 7, MaxFanout: 1}, "optimize: no network of width 8 has fan-out 1: input 0 is output 0 and feeds a cell; allowed --max-fanout 2 or more at depth 7", true},
		{optimize.Options{Width: 256, MaxDepth: 8, MaxFanout: 2}, "optimize: no network of width 256, depth ≤ 8 has fan-out ≤ 2: fan-out 2 forces ripple, of depth 255; allowed --max-fanout 3 or more at depth 8, or --max-depth 255 for ripple", true},
		{optimize.Options{Width: 1, MaxDepth: 0, MaxDelay: 1}, "optimize: no network of width 1 has a model delay ≤ 1 FO4: the only one takes 2.214 FO4; allowed a bound of 2.22 FO4 or more", true},
		{optimize.Options{Width: 2, MaxDepth: 1, MaxDelay: 2.43}, "optimize: no network of width 2 has a model delay ≤ 2.43 FO4: the only one takes 2.438 FO4; allowed a bound of 2.44 FO4 or more", true},
		{optimize.Options{Width: 8, MaxDepth: 3, Seed: math.MaxUint64}, "optimize: seed 18446744073709551615 out of range: allowed 0 to 9223372036854775807, which the network's parameters record", false},
		{optimize.Options{Width: 8, MaxDepth: 6, Start: []*network.Network{build(t, "ripple", 7)}}, "optimize: start network 1 (ripple) has width 7: allowed only the width searched, 8", false},
		// A file of no topology: no empty parentheses.
		{optimize.Options{Width: 8, MaxDepth: 6, Start: []*network.Network{untitled(t, build(t, "ripple", 7))}}, "optimize: start network 1 has width 7: allowed only the width searched, 8", false},
		{optimize.Options{Width: 8, MaxDepth: 6, Start: []*network.Network{build(t, "ripple", 8)}}, "optimize: start network 1 (ripple) has depth 7, above the depth bound 6: allowed a start of depth ≤ 6, or --max-depth 7 or more", false},
		{optimize.Options{Width: 8, MaxDepth: 6, MaxFanout: 4, Start: []*network.Network{build(t, "kogge-stone", 8), build(t, "sklansky", 8)}}, "optimize: start network 2 (sklansky) has fan-out 5, above the fan-out bound 4: allowed a start of fan-out ≤ 4, or --max-fanout 5 or more", false},
	}
	for _, tt := range tests {
		err := optimize.Check(tt.opt)
		require.EqualError(t, err, tt.want)
		var inf *optimize.InfeasibleError
		assert.Equal(t, tt.infeasible, errors.As(err, &inf), tt.want)
		_, err = optimize.Minimize(context.Background(), tt.opt)
		assert.EqualError(t, err, tt.want)
	}
	assert.NoError(t, optimize.Check(optimize.Options{Width: 1, MaxDepth: 0}))
	for _, seed := range []uint64{0, math.MaxInt32 + 1, math.MaxInt64} {
		res, err := optimize.Minimize(context.Background(), optimize.Options{Width: 8, MaxDepth: 3, Seed: seed, Steps: 10})
		require.NoError(t, err)
		assert.Equal(t, network.Params{"max_depth": 3, "seed": int(seed)}, res.Network.Params(), "seed %d recorded", seed)
	}
	assert.NoError(t, optimize.Check(optimize.Options{Width: 2, MaxDepth: 1, MaxDelay: 2.44}), "the bound a refusal names is met")
	assert.NoError(t, optimize.Check(optimize.Options{Width: 256, MaxDepth: math.MaxInt / 2, MaxFanout: 2}))
	assert.NoError(t, optimize.Check(optimize.Options{Width: 8, MaxDepth: math.MaxInt}), "no bound overflows")
	assert.NoError(t, optimize.Check(optimize.Options{Width: 256, MaxDepth: 8, MaxFanout: 3}))
	assert.NoError(t, optimize.Check(optimize.Options{Width: 8, MaxDepth: 7, MaxFanout: 4, Start: []*network.Network{build(t, "ripple", 8), build(t, "kogge-stone", 8)}}))
}

// build builds a named network at its defaults.
func build(t *testing.T, topology string, n int) *network.Network {
	t.Helper()
	net, err := topologies.Build(topology, n, nil)
	require.NoError(t, err)
	return net
}

// TestLeastFanoutFanout2 checks the ripple side of LeastFanout: fan-out 2
// is refused below depth n − 1 and met by ripple at n − 1; every bound
// below LeastFanout is refused and every one at or above it is accepted.
func TestLeastFanoutFanout2(t *testing.T) {
	assert.Equal(t, 1, optimize.LeastFanout(1, 0))
	assert.Equal(t, 2, optimize.LeastFanout(2, 1))
	for n := 3; n <= 40; n++ {
		lo := bits.Len(uint(n - 1))
		for d := lo; d <= n; d++ {
			least := optimize.LeastFanout(n, d)
			if d >= n-1 {
				assert.Equal(t, 2, least, "n=%d d=%d", n, d)
			} else {
				assert.Equal(t, 3, least, "n=%d d=%d", n, d)
			}
			for f := 1; f <= least+1; f++ {
				err := optimize.Check(optimize.Options{Width: n, MaxDepth: d, MaxFanout: f})
				if f < least {
					_, ok := errors.AsType[*optimize.InfeasibleError](err)
					assert.True(t, ok, "n=%d d=%d f=%d: %v", n, d, f, err)
				} else {
					assert.NoError(t, err, "n=%d d=%d f=%d", n, d, f)
				}
			}
		}
		if n > 20 {
			continue
		}
		r, err := optimize.Minimize(context.Background(), optimize.Options{Width: n, MaxDepth: n - 1, MaxFanout: 2, Steps: -1})
		require.NoError(t, err, "n=%d", n)
		assert.Equal(t, []int{n - 1, n - 1, 2}, []int{r.Figures.Depth, r.Figures.Size, r.Figures.MaxFanout}, "ripple at n=%d", n)
	}
}

// TestLeastFanoutNamedBoundsMet checks that Minimize meets LeastFanout at
// every depth for the widths up to 16 and a few wider ones, so that a bound
// the package names is never one it then fails.
func TestLeastFanoutNamedBoundsMet(t *testing.T) {
	type wd struct{ n, d int }
	var cases []wd
	for n := 1; n <= 16; n++ {
		for d := bits.Len(uint(n - 1)); d < n; d++ {
			cases = append(cases, wd{n, d})
		}
	}
	cases = append(cases, wd{32, 5}, wd{32, 6}, wd{100, 7})
	for _, c := range cases {
		f := optimize.LeastFanout(c.n, c.d)
		r, err := optimize.Minimize(context.Background(), optimize.Options{Width: c.n, MaxDepth: c.d, MaxFanout: f, Steps: -1})
		require.NoError(t, err, "n=%d d=%d f=%d", c.n, c.d, f)
		assert.LessOrEqual(t, r.Figures.MaxFanout, f)
		assert.LessOrEqual(t, r.Figures.Depth, c.d)
	}
}

// TestNamedUnderFanoutBound: under a fan-out bound the named network that
// optimize's table sets beside the result is one of the families as it is
// built, here Knowles's s=2 of 15 cells and fan-out 3, never one with cells
// copied, even where a copied one (Sklansky's, 13 cells) is smaller.
func TestNamedUnderFanoutBound(t *testing.T) {
	r, err := optimize.Minimize(context.Background(), optimize.Options{Width: 8, MaxDepth: 3, MaxFanout: 4, Steps: -1})
	require.NoError(t, err)
	require.NotNil(t, r.Named)
	assert.Equal(t, "knowles", r.Named.Topology())
	assert.Equal(t, network.Params{"s": 2}, r.Named.Params())
	assert.Equal(t, []int{15, 3, 3}, []int{r.Named.Figures().Size, r.Named.Figures().Depth, r.Named.Figures().MaxFanout})
	assert.Equal(t, 13, r.Figures.Size)
	assert.Equal(t, "sklansky, cells copied to bound the fan-out", r.Source)
}

func ExampleMinimize() {
	r, err := optimize.Minimize(context.Background(), optimize.Options{Width: 64, MaxDepth: 7, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d cells at depth %d, deficiency %d; the best named network has %d\n",
		r.Figures.Size, r.Figures.Depth, r.Figures.Deficiency, r.Named.Size())
	// Output:
	// 125 cells at depth 7, deficiency 6; the best named network has 137
}

// TestNilContext: a nil context is refused with an error by every search,
// where the annealing chains had dereferenced it in a worker goroutine,
// out of the caller's reach.
func TestNilContext(t *testing.T) {
	opt := optimize.Options{Width: 8, MaxDepth: 3}
	for name, run := range map[string]func() error{
		"Minimize": func() error {
			_, err := optimize.Minimize(nil, opt) //lint:ignore SA1012 the nil context is the input under test
			return err
		},
		"MinimizeFlow": func() error {
			_, err := optimize.MinimizeFlow(nil, opt, 1, physical.Options{}) //lint:ignore SA1012 the nil context is the input under test
			return err
		},
		"MinimizeFlowDelay": func() error {
			_, err := optimize.MinimizeFlowDelay(nil, opt, 1, physical.Options{}, nil) //lint:ignore SA1012 the nil context is the input under test
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			require.NotPanics(t, func() {
				require.EqualError(t, run(), "optimize: nil context: allowed a context such as context.Background()")
			})
		})
	}
}

// untitled is net as a file of no topology records it.
func untitled(t *testing.T, net *network.Network) *network.Network {
	t.Helper()
	spec := net.Spec()
	spec.Topology, spec.Params = "", nil
	u, err := network.New(spec)
	require.NoError(t, err)
	return u
}
