package explore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

func enumerate(t *testing.T, n int, opt explore.Options) []explore.Point {
	t.Helper()
	points, err := explore.Enumerate(context.Background(), n, opt)
	require.NoError(t, err)
	return points
}

func names(points []explore.Point) []string {
	var out []string
	for _, p := range points {
		out = append(out, p.Name)
	}
	return out
}

// Every family is there, every network once, and each point's command
// names its topology and parameters.
func TestEnumerateFamilies(t *testing.T) {
	for _, n := range []int{1, 2, 7, 16, 33} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			points := enumerate(t, n, explore.Options{})
			families := map[string]bool{}
			for i, p := range points {
				families[p.Family] = true
				assert.Equal(t, p.Network.Figures(), p.Figures)
				assert.Contains(t, p.Command, fmt.Sprintf("prefixgen gen -t %s -n %d", p.Family, n))
				for j := range i {
					assert.False(t, sameNetwork(points[j].Network, p.Network), "%s repeats %s", p.Name, points[j].Name)
				}
			}
			// Every topology's default network is among the points, possibly
			// under an earlier family's name.
			for _, topo := range topologies.All() {
				net, err := topo.Build(n, nil)
				require.NoError(t, err)
				found := false
				for _, p := range points {
					found = found || sameNetwork(p.Network, net)
				}
				assert.True(t, found, "%s at %d missing", topo.Name, n)
			}
		})
	}
}

// Ladner–Fischer's k runs until the networks repeat: at n = 16 every
// k ≥ 3 gives P_3, so k = 0…3 appear once each, if no earlier family built
// the same network.
func TestEnumerateStopsAtRepeats(t *testing.T) {
	points := enumerate(t, 16, explore.Options{})
	lf := 0
	for _, p := range points {
		if p.Family == "ladner-fischer" {
			lf++
		}
	}
	assert.LessOrEqual(t, lf, 4)
	assert.GreaterOrEqual(t, lf, 2)
}

// Parameters run to the last value that builds something new at the
// width, past 64 values where the width calls for it: at 256 inputs
// Knowles's networks that double the fan-out only at the last level
// (s = 64) and the zero-deficiency network of depth 200 are points.
func TestEnumerateWideParameters(t *testing.T) {
	points := enumerate(t, 256, explore.Options{})
	for _, want := range []struct {
		topo string
		p    network.Params
	}{
		{"knowles", network.Params{"s": 64}},
		{"knowles", network.Params{"s": 127}}, // Sklansky, under its own name
		{"zero-deficiency", network.Params{"d": 200}},
	} {
		net, err := topologies.Build(want.topo, 256, want.p)
		require.NoError(t, err)
		found := false
		for _, p := range points {
			found = found || sameNetwork(p.Network, net)
		}
		assert.True(t, found, "%s %v missing at 256", want.topo, want.p)
	}
}

// sameNetwork says whether a and b have the same cells, whatever their
// order: the same spans, split at the same place, at the same levels.
func sameNetwork(a, b *network.Network) bool {
	return a.Width() == b.Width() && fmt.Sprint(cellSet(a)) == fmt.Sprint(cellSet(b))
}

func cellSet(net *network.Network) map[[4]int]int {
	set := map[[4]int]int{}
	for k := range net.Size() {
		s := net.CellSignal(k)
		sp, lo := net.Span(s), net.Span(net.Cell(k).Lo)
		set[[4]int{sp.From, sp.To, lo.To, net.Level(s)}]++
	}
	return set
}

// No front point is dominated, and every other point is dominated by or
// equal to one on the front.
func TestFront(t *testing.T) {
	for _, n := range []int{5, 16, 64} {
		points := enumerate(t, n, explore.Options{})
		front := explore.Front(points)
		require.NotEmpty(t, front)
		obj := func(f network.Figures) [4]int { return [4]int{f.Depth, f.Size, f.MaxFanout, f.WireTracks} }
		leq := func(a, b network.Figures) bool {
			oa, ob := obj(a), obj(b)
			for i := range oa {
				if oa[i] > ob[i] {
					return false
				}
			}
			return true
		}
		for _, p := range front {
			for _, q := range points {
				assert.False(t, leq(q.Figures, p.Figures) && obj(q.Figures) != obj(p.Figures),
					"n=%d: %s on the front is dominated by %s", n, p.Name, q.Name)
			}
		}
		for _, q := range points {
			covered := false
			for _, p := range front {
				covered = covered || leq(p.Figures, q.Figures)
			}
			assert.True(t, covered, "n=%d: %s is neither on the front nor dominated", n, q.Name)
		}
		for i := 1; i < len(front); i++ {
			assert.LessOrEqual(t, front[i-1].Figures.Depth, front[i].Figures.Depth, "sorted by depth")
		}
		// Ripple (size n−1, one track, fan-out 2) is never beaten.
		assert.Contains(t, names(front), "ripple")
	}
}

func TestFrontByHand(t *testing.T) {
	pt := func(name string, d, s, f, w int) explore.Point {
		return explore.Point{Name: name, Figures: network.Figures{Depth: d, Size: s, MaxFanout: f, WireTracks: w}}
	}
	front := explore.Front([]explore.Point{
		pt("a", 4, 10, 3, 1),
		pt("b", 4, 11, 3, 1), // dominated by a
		pt("c", 3, 12, 5, 1),
		pt("d", 4, 10, 3, 1), // equal to a: the first is kept
		pt("e", 4, 9, 9, 9),
	})
	assert.Equal(t, []string{"c", "e", "a"}, names(front))
}

func TestMaxFanout(t *testing.T) {
	for _, p := range enumerate(t, 32, explore.Options{MaxFanout: 6}) {
		assert.LessOrEqual(t, p.Figures.MaxFanout, 6, p.Name)
	}
	assert.Contains(t, names(enumerate(t, 32, explore.Options{MaxFanout: 6})), "kogge-stone")
	assert.NotContains(t, names(enumerate(t, 32, explore.Options{MaxFanout: 6})), "sklansky")
}

// The optimizer is asked once per depth from ⌈log2 n⌉ to 2⌈log2 n⌉ − 2, its
// networks join the points, and a depth it cannot meet is left out.
func TestOptimizerPoints(t *testing.T) {
	var asked []int
	opt := explore.Options{Optimizer: func(_ context.Context, n, d, f int) (*network.Network, string, error) {
		asked = append(asked, d)
		if d == 5 {
			return nil, "", errors.New("cannot")
		}
		net, err := topologies.LadnerFischer(n, d-4)
		return net, fmt.Sprintf("prefixgen optimize -n %d --max-depth %d", n, d), err
	}}
	points := enumerate(t, 16, opt)
	assert.Equal(t, []int{4, 5, 6}, asked)
	// The optimizer's networks equal Ladner–Fischer's, which came first.
	for _, p := range points {
		assert.NotEqual(t, "optimizer", p.Family)
	}
	// A network no family builds is kept.
	opt.Optimizer = func(_ context.Context, n, d, _ int) (*network.Network, string, error) {
		net, err := network.New(network.Spec{Width: n, Cells: chain(n), Outputs: outputs(n)})
		return net, "cmd", err
	}
	points = enumerate(t, 4, opt)
	last := points[len(points)-1]
	assert.Equal(t, "optimizer", last.Family)
	assert.Equal(t, "optimizer max_depth=2", last.Name)
	assert.Equal(t, "cmd", last.Command)
}

// OptimizerRuns counts the optimizer's runs Enumerate makes, once per
// depth from ⌈log2 n⌉ to 2⌈log2 n⌉ − 2 and at least once (at n = 2 the
// range 1…0 is the one depth 1), so that a caller's progress ends at 100%.
func TestOptimizerRuns(t *testing.T) {
	for _, tt := range []struct{ n, want int }{
		{n: 1, want: 1},
		{n: 2, want: 1},
		{n: 4, want: 1},
		{n: 5, want: 2},
		{n: 16, want: 3},
		{n: 64, want: 5},
	} {
		calls := 0
		opt := explore.Options{Optimizer: func(context.Context, int, int, int) (*network.Network, string, error) {
			calls++
			return nil, "", errors.New("cannot")
		}}
		enumerate(t, tt.n, opt)
		assert.Equal(t, tt.want, calls, "width %d", tt.n)
		assert.Equal(t, tt.want, explore.OptimizerRuns(tt.n), "width %d", tt.n)
	}
	assert.Equal(t, 7, explore.OptimizerRuns(explore.MaxOptimizeWidth))
	assert.Zero(t, explore.OptimizerRuns(explore.MaxOptimizeWidth+1))
	assert.Zero(t, explore.OptimizerRuns(0))
}

// chain is a network no family builds at n = 4: [0,1], [1,2], then [0,2]
// from input 0 and [1,2], and [0,3] from [0,2] and input 3.
func chain(n int) []network.Cell {
	return []network.Cell{{Lo: 0, Hi: 1}, {Lo: 1, Hi: 2}, {Lo: 0, Hi: n + 1}, {Lo: n + 2, Hi: 3}}
}

func outputs(n int) []int { return []int{0, n, n + 2, n + 3} }

// Valencies 3 and 4 add the radix-k Kogge–Stone and Sklansky, each with
// the gen command that rebuilds it; without 2 they are all there is, and a
// valency out of range is refused.
func TestEnumerateValencies(t *testing.T) {
	radix := enumerate(t, 16, explore.Options{Valencies: []int{3, 4}})
	assert.Equal(t, []string{"kogge-stone v=3", "sklansky v=3", "kogge-stone v=4", "sklansky v=4"}, names(radix))
	for _, p := range radix {
		k := topologies.ValencyOf(p.Network)
		assert.Equal(t, fmt.Sprintf("prefixgen gen -t %s -n 16 --valency %d", p.Family, k), p.Command)
		want, err := topologies.Valency(p.Family, 16, k)
		require.NoError(t, err)
		assert.Equal(t, want.Spec(), p.Network.Spec(), p.Name)
		assert.Equal(t, want.Figures(), p.Figures)
	}
	binary := enumerate(t, 16, explore.Options{})
	both := enumerate(t, 16, explore.Options{Valencies: []int{4, 2}})
	assert.Equal(t, append(names(binary), "kogge-stone v=4", "sklansky v=4"), names(both), "the families first, then the radix-4 ones")
	assert.Equal(t, names(binary), names(enumerate(t, 16, explore.Options{Valencies: []int{2}})))
	_, err := explore.Enumerate(context.Background(), 16, explore.Options{Valencies: []int{5}})
	assert.EqualError(t, err, "explore: valency 5 not allowed: allowed 2 to 4")
}

// A radix-k network is not the binary one of the same cells: explore keeps
// both, and every valency asked for has its rows at every width.
func TestEnumerateValenciesKept(t *testing.T) {
	for n := 3; n <= 9; n++ {
		all := enumerate(t, n, explore.Options{Valencies: []int{2, 3, 4}})
		for _, v := range []int{3, 4} {
			var got []string
			for _, p := range all {
				if topologies.ValencyOf(p.Network) == v {
					got = append(got, p.Name)
				}
			}
			want := names(enumerate(t, n, explore.Options{Valencies: []int{v}}))
			if v == 4 && n == 3 {
				want = nil // at width 3 a radix-4 network is the radix-3 one
			}
			assert.Equal(t, want, got, "width %d valency %d", n, v)
		}
	}
}

// With CarrySelect the carry-select networks of every first segment and
// growth come after the families and before the radix-k ones, each once
// and not again where a family built it, each rebuilt by its command;
// without it there are none.
func TestEnumerateCarrySelect(t *testing.T) {
	for _, n := range []int{1, 2, 16, 33} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			families := enumerate(t, n, explore.Options{})
			for _, p := range families {
				assert.NotEqual(t, "carry-select", p.Family)
			}
			points := enumerate(t, n, explore.Options{CarrySelect: true, Valencies: []int{2, 3}})
			require.Equal(t, names(families), names(points[:len(families)]), "the families first")
			rest := points[len(families):]
			var selects []explore.Point
			for len(rest) > 0 && rest[0].Family == "carry-select" {
				selects, rest = append(selects, rest[0]), rest[1:]
			}
			for _, p := range rest {
				assert.Equal(t, 3, topologies.ValencyOf(p.Network), "%s: after the carry-select networks only the radix-3 ones", p.Name)
			}
			if n > 2 {
				assert.NotEmpty(t, selects)
			}
			known := points[:len(families)+len(selects)]
			for g := range explore.CarrySelectGrowths {
				for l := 1; l < n; l++ {
					net, err := topologies.Build("carry-select", n, network.Params{"l": l, "g": g})
					require.NoError(t, err)
					found := false
					for _, p := range known {
						found = found || sameNetwork(p.Network, net)
					}
					assert.True(t, found, "carry-select l=%d g=%d missing at %d", l, g, n)
				}
			}
			for i, p := range selects {
				params := p.Network.Params()
				net, err := topologies.Build("carry-select", n, params)
				require.NoError(t, err)
				assert.Equal(t, net.Spec(), p.Network.Spec(), p.Name)
				assert.Equal(t, fmt.Sprintf("prefixgen gen -t carry-select -n %d --param g=%d --param l=%d", n, params["g"], params["l"]), p.Command)
				for _, q := range append(slices.Clone(families), selects[:i]...) {
					assert.False(t, sameNetwork(q.Network, p.Network), "%s repeats %s", p.Name, q.Name)
				}
			}
		})
	}
}

func TestParseValencies(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []int
		err  string
	}{
		{"2", []int{2}, ""},
		{"3, 4,3", []int{3, 4}, ""},
		{"2,3,4", []int{2, 3, 4}, ""},
		{"5", nil, `explore: --valency "5": valency "5" not allowed: allowed 2, 3, 4, or a comma-separated list of them`},
		{"3,,4", nil, `explore: --valency "3,,4": valency "" not allowed: allowed 2, 3, 4, or a comma-separated list of them`},
		{"1", nil, `explore: --valency "1": valency "1" not allowed: allowed 2, 3, 4, or a comma-separated list of them`},
	} {
		got, err := explore.ParseValencies(tc.text)
		if tc.err != "" {
			assert.EqualError(t, err, tc.err, tc.text)
			continue
		}
		require.NoError(t, err, tc.text)
		assert.Equal(t, tc.want, got, tc.text)
	}
}

// FuzzParseValencies: any text is a list of distinct valencies 2 to 4 that
// reads back the same when written with commas, or an error; never a
// panic.
func FuzzParseValencies(f *testing.F) {
	for _, seed := range []string{"2", "3,4", "2, 3,3", "", ",", "5", "-1", "4,x", "99999999999999999999"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		list, err := explore.ParseValencies(text)
		if err != nil {
			require.Nil(t, list)
			require.True(t, strings.HasPrefix(err.Error(), "explore: --valency "), err.Error())
			require.NotContains(t, err.Error(), "\n")
			return
		}
		require.NotEmpty(t, list)
		seen := map[int]bool{}
		parts := make([]string, len(list))
		for i, k := range list {
			require.True(t, k >= 2 && k <= topologies.MaxValency, "valency %d", k)
			require.False(t, seen[k], "valency %d twice", k)
			seen[k] = true
			parts[i] = fmt.Sprint(k)
		}
		again, err := explore.ParseValencies(strings.Join(parts, ","))
		require.NoError(t, err)
		require.Equal(t, list, again)
	})
}

func TestEnumerateErrors(t *testing.T) {
	_, err := explore.Enumerate(context.Background(), 0, explore.Options{})
	assert.EqualError(t, err, "explore: width 0 out of range: allowed 1…1024")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = explore.Enumerate(ctx, 64, explore.Options{})
	assert.ErrorContains(t, err, "context canceled")
}

func TestSnirBound(t *testing.T) {
	assert.Equal(t, 120, explore.SnirBound(64, 6))
	assert.Equal(t, 63, explore.SnirBound(64, 63))
	for _, p := range enumerate(t, 64, explore.Options{}) {
		assert.GreaterOrEqual(t, p.Figures.Size, explore.SnirBound(64, p.Figures.Depth), p.Name)
	}
}

// The optimizer's networks join the families' at every depth from ⌈log2 n⌉
// to 2⌈log2 n⌉ − 2, within the bounds, each with the command that finds it.
func TestOptimize(t *testing.T) {
	points := enumerate(t, 24, explore.Options{MaxFanout: 6, Optimizer: explore.Optimize(1)})
	found := 0
	for _, p := range points {
		if p.Family != "optimizer" {
			continue
		}
		found++
		var d int
		_, err := fmt.Sscanf(p.Name, "optimizer max_depth=%d", &d)
		require.NoError(t, err)
		// Named as optimize names it, every parameter of its document.
		assert.Equal(t, fmt.Sprintf("optimizer max_depth=%d max_fanout=6 seed=1", d), p.Name)
		assert.LessOrEqual(t, p.Figures.Depth, d)
		assert.LessOrEqual(t, p.Figures.MaxFanout, 6)
		assert.Equal(t, fmt.Sprintf("prefixgen optimize -n 24 --max-depth %d --max-fanout 6 --seed 1 -f json", d), p.Command)
	}
	assert.Positive(t, found)
	// Above the optimizer's limit the families stand alone.
	for _, p := range enumerate(t, 300, explore.Options{Optimizer: explore.Optimize(1)}) {
		assert.NotEqual(t, "optimizer", p.Family)
	}
}
