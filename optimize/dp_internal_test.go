package optimize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
)

// TestTreeWidth checks W(u, b) against its recursion.
func TestTreeWidth(t *testing.T) {
	var w func(u, b int) int
	w = func(u, b int) int {
		if u == 0 || b == 0 {
			return 1
		}
		return w(u-1, b) + w(u-1, b-1)
	}
	for u := range 12 {
		for b := range 12 {
			assert.Equal(t, w(u, b), treeWidth(u, b), "W(%d, %d)", u, b)
		}
	}
}

// TestConstructive checks that the constructive search meets its depth at
// every width up to 24 and some above, at every depth up to ⌈log2 n⌉ + 3,
// that its size is
// the one the recursion promised, and that it never loses to Ladner–Fischer
// P_0 at the least depth.
func TestConstructive(t *testing.T) {
	for _, n := range append(seq(1, 24), 31, 37, 45, 64, 100) {
		for d := ceilLog2(n); d <= ceilLog2(n)+3; d++ {
			s := newSolver(n, d, 0)
			if d <= ceilLog2(n)+1 {
				s.enableLastBlocks() // as constructive does
			}
			cost := s.solve(n, 0, d, d)
			net := constructive(n, d, 0)
			require.NotNil(t, net, "width %d depth %d", n, d)
			require.LessOrEqual(t, net.Depth(), d, "width %d depth %d", n, d)
			require.Equal(t, int(cost), net.Size(), "width %d depth %d", n, d)
			require.GreaterOrEqual(t, net.Size()+net.Depth(), 2*n-2, "Snir")
		}
	}
}

// TestGraphRoundTrip checks that a network in the form of its spans builds
// back to a network with the same spans, size and depth.
func TestGraphRoundTrip(t *testing.T) {
	for _, c := range [][2]int{{16, 4}, {37, 7}, {64, 7}, {100, 8}} {
		net := constructive(c[0], c[1], 0)
		g := fromNetwork(net)
		depth, _, ok := g.eval(c[1], 0)
		back, err := g.network()
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, back.Depth(), depth)
		assert.Equal(t, g.size(), back.Size())
		assert.LessOrEqual(t, back.Size(), net.Size())
	}
}

// seq returns lo, lo+1, …, hi.
func seq(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}

// TestLastBlocks checks the larger last blocks one level above the least
// depth: 61 cells for 32 inputs at depth 6 with the last prefix at level 5
// (the annealed network that showed the way), 272 for 128 inputs at
// depth 8 (275 without them), as built and as promised, and 195 for 100
// inputs at depth 8.
func TestLastBlocks(t *testing.T) {
	s := newSolver(32, 6, 0)
	s.enableLastBlocks()
	assert.Equal(t, int32(61), s.solve(32, 0, 6, 5))
	net := constructive(128, 8, 0)
	require.NotNil(t, net)
	assert.LessOrEqual(t, net.Depth(), 8)
	assert.Equal(t, 272, net.Size())
	assert.Equal(t, int32(275), newSolver(128, 8, 0).solve(128, 0, 8, 8))
	net = constructive(100, 8, 0)
	require.NotNil(t, net)
	assert.LessOrEqual(t, net.Depth(), 8)
	assert.Equal(t, 195, net.Size())
}

// TestSergeevOptimum checks that the recursion alone builds networks of
// 2^k inputs at the least depth, k, with exactly as many cells as I. S.
// Sergeev proved the least (On the complexity of parallel prefix circuits,
// ECCC TR13-041, 2013): 3.5·2^k − (8.5 + 3.5(k mod 2))·2^⌊k/2⌋ + k + 5,
// 167 at 64 inputs, 364 at 128 and 773 at 256.
func TestSergeevOptimum(t *testing.T) {
	for k := 2; k <= 8; k++ {
		n := 1 << k
		want := (7*n-(17+7*(k%2))*(1<<(k/2)))/2 + k + 5
		net := constructive(n, k, 0)
		require.NotNil(t, net, "%d inputs", n)
		assert.Equal(t, want, net.Size(), "%d inputs", n)
		assert.LessOrEqual(t, net.Depth(), k, "%d inputs", n)
	}
}

// part is one problem (n, a, d, t) of the recursion.
type part struct{ n, a, d, t int }

// partNetwork returns the solver's network for the problem p: input 0 is
// e_0.
func (s *solver) partNetwork(p part) *network.Network {
	bld, err := network.NewBuilder(p.n)
	if err != nil {
		return nil
	}
	e := make([]int, p.n)
	for i := range e {
		e[i] = i
	}
	s.construct(bld, e, p.a, p.d, p.t)
	net, err := bld.Build()
	if err != nil {
		return nil
	}
	return net
}

// TestLateTails checks problems whose block totals arrive at three levels,
// or whose late elements are split between the parts: the recursion finds
// the least size, which a SAT solver (CaDiCaL, over every network of the
// problem's spans and levels) showed to be optimal, one cell below what it
// found when the late elements were of one kind and in one part. Each
// network is built as promised, within its levels with e_0 at level a, and
// correct.
func TestLateTails(t *testing.T) {
	tests := []struct {
		n, a, d, t int
		want       int32
	}{
		{14, 4, 6, 5, 26},
		{20, 4, 6, 6, 37},
		{22, 3, 6, 5, 41},
		{19, 5, 7, 6, 36},
		{20, 5, 7, 6, 38},
		{22, 5, 7, 6, 43},
	}
	s := newSolver(22, 7, 0)
	s.enableLastBlocks()
	for _, tc := range tests {
		p := part{tc.n, tc.a, tc.d, tc.t}
		require.Equal(t, tc.want, s.solve(p.n, p.a, p.d, p.t), "%+v", p)
		net := s.partNetwork(p)
		require.NotNil(t, net, "%+v", p)
		assert.Equal(t, int(tc.want), net.Size(), "%+v", p)
		level := make([]int, net.Signals())
		level[0] = p.a
		for k := range net.Size() {
			c := net.Cell(k)
			level[net.CellSignal(k)] = max(level[c.Lo], level[c.Hi]) + 1
		}
		for i := range p.n {
			bound := p.d
			if i == p.n-1 {
				bound = p.t
			}
			assert.LessOrEqual(t, level[net.Output(i)], bound, "%+v: prefix %d", p, i)
		}
		r, err := simulate.Verify(net, simulate.VerifyOptions{Vectors: 64, Seed: 1})
		require.NoError(t, err)
		assert.True(t, r.OK(), r.Failure())
	}
}

// TestLocalBlocks checks the local-blocks way at the least depth: behind the
// prefix of the first 32 of 128 inputs (level 5, the last prefix by 6, the
// others by 7) the other 32 take 76 cells (79 without it), and the recursion
// builds 128 inputs at depth 7 in 366 cells (369 without it), as promised,
// within the depth and correct.
func TestLocalBlocks(t *testing.T) {
	off := newSolver(128, 7, 0)
	off.localOn = false
	assert.Equal(t, int32(79), off.solve(33, 5, 7, 6))
	assert.Equal(t, int32(369), off.solve(128, 0, 7, 7))
	s := newSolver(128, 7, 0)
	assert.Equal(t, int32(76), s.solve(33, 5, 7, 6))
	assert.Equal(t, int32(366), s.solve(128, 0, 7, 7))
	net := s.network(128, 7)
	require.NotNil(t, net)
	assert.Equal(t, 366, net.Size())
	assert.LessOrEqual(t, net.Depth(), 7)
	r, err := simulate.Verify(net, simulate.VerifyOptions{Vectors: 64, Seed: 1})
	require.NoError(t, err)
	assert.True(t, r.OK(), r.Failure())
}
