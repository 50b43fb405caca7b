package optimize

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// TestLeastFanoutMet proves the fan-out-3 side of LeastFanout for every
// width Minimize takes: Sklansky's or Kogge–Stone's network, with cells
// copied, has depth ⌈log2 n⌉ and fan-out at most 3, for every n from 3 to
// MaxWidth. (Deeper bounds are met by the same network.)
func TestLeastFanoutMet(t *testing.T) {
	for n := 3; n <= MaxWidth; n++ {
		d := ceilLog2(n)
		if LeastFanout(n, d) != 3 {
			continue // n = 3: ripple is as shallow
		}
		met := false
		for _, name := range []string{"sklansky", "kogge-stone"} {
			net, err := topologies.Build(name, n, nil)
			require.NoError(t, err)
			if m := limitFanout(net, 3); m != nil {
				f := m.Figures()
				if f.Depth <= d && f.MaxFanout <= 3 {
					met = true
					break
				}
			}
		}
		assert.True(t, met, "fan-out 3 at depth %d, width %d", d, n)
	}
}

// TestBetterCandidates pins the order Minimize ranks its candidates by, the
// result and the named row of optimize's table among them: the fewer cells,
// then the shallower, then the lower fan-out; a tie is not better.
func TestBetterCandidates(t *testing.T) {
	c := func(size, depth, fanout int) candidate {
		return candidate{figs: network.Figures{Size: size, Depth: depth, MaxFanout: fanout}}
	}
	tests := []struct {
		name string
		a, b candidate
		want bool
	}{
		{name: "fewer cells, however deep", a: c(11, 4, 3), b: c(12, 3, 2), want: true},
		{name: "more cells lose", a: c(12, 3, 2), b: c(11, 4, 3), want: false},
		{name: "equal cells, shallower", a: c(12, 3, 5), b: c(12, 4, 2), want: true},
		{name: "equal cells, deeper", a: c(12, 4, 2), b: c(12, 3, 5), want: false},
		{name: "equal cells and depth, lower fan-out", a: c(12, 4, 2), b: c(12, 4, 3), want: true},
		{name: "equal cells and depth, higher fan-out", a: c(12, 4, 3), b: c(12, 4, 2), want: false},
		{name: "a tie", a: c(12, 4, 3), b: c(12, 4, 3), want: false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, better(tt.a, tt.b), tt.name)
	}
	// At width 8 and depth 4 Sklansky's and Han–Carlson's networks both
	// have 12 cells: Sklansky's, of depth 3, ranks first.
	sk, err := topologies.Build("sklansky", 8, nil)
	require.NoError(t, err)
	hc, err := topologies.Build("han-carlson", 8, nil)
	require.NoError(t, err)
	a, b := candidate{net: sk, figs: sk.Figures()}, candidate{net: hc, figs: hc.Figures()}
	require.Equal(t, a.figs.Size, b.figs.Size)
	assert.True(t, better(a, b))
	assert.False(t, better(b, a))
}

// TestSearchLimits pins the constructive searches Minimize runs under a
// fan-out bound: the unbounded one, then limits on the cells a carry feeds
// from two below the bound (or the width) down, halving to 1.
func TestSearchLimits(t *testing.T) {
	tests := []struct {
		fanout, n int
		want      []int
	}{
		{fanout: 0, n: 64, want: []int{0}},
		{fanout: 3, n: 64, want: []int{0, 1}},
		{fanout: 10, n: 64, want: []int{0, 8, 4, 2, 1}},
		{fanout: math.MaxInt, n: 16, want: []int{0, 14, 7, 3, 1}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, searchLimits(tt.fanout, tt.n), "fan-out %d, width %d", tt.fanout, tt.n)
	}
}
