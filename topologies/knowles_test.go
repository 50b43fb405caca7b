package topologies_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// lateralFanouts returns, for each level 1 … depth, the largest number of
// cells of that level that read one signal as their lower operand: Knowles's
// and Harris's per-level lateral fan-out.
func lateralFanouts(net *network.Network) []int {
	out := make([]int, net.Depth())
	for l := 1; l <= net.Depth(); l++ {
		count := map[int]int{}
		for k := range net.Size() {
			if net.Level(net.CellSignal(k)) == l {
				count[net.Cell(k).Lo]++
			}
		}
		for _, c := range count {
			out[l-1] = max(out[l-1], c)
		}
	}
	return out
}

// spanPairs returns the cells of net as the spans they join, sorted, so that
// two constructions that add the same cells in another order compare equal.
func spanPairs(net *network.Network) [][2]network.Span {
	var cells [][2]network.Span
	for k := range net.Size() {
		c := net.Cell(k)
		cells = append(cells, [2]network.Span{net.Span(c.Lo), net.Span(c.Hi)})
	}
	slices.SortFunc(cells, func(a, b [2]network.Span) int {
		if d := a[0].From - b[0].From; d != 0 {
			return d
		}
		if d := a[0].To - b[0].To; d != 0 {
			return d
		}
		return a[1].To - b[1].To
	})
	return cells
}

// verify runs simulate.Verify, the interval and matrix monoids and the adder
// against math/big, and fails on any mismatch.
func verify(t *testing.T, net *network.Network) {
	t.Helper()
	r, err := simulate.Verify(net, simulate.VerifyOptions{Vectors: 256, Seed: 3})
	require.NoError(t, err)
	require.True(t, r.OK(), "%s%v width %d: %s", net.Topology(), net.Params(), net.Width(), r.Failure())
}

// TestKnowlesCorners checks that the mask 0 is Kogge–Stone and the full mask
// Sklansky, cell for cell, at every width up to 130.
func TestKnowlesCorners(t *testing.T) {
	for n := 1; n <= 130; n++ {
		ks := must(topologies.KoggeStone(n))
		sk := must(topologies.Sklansky(n))
		k0 := must(topologies.Knowles(n, 0))
		kAll := must(topologies.Knowles(n, 1<<max(ceilLog2(n)-1, 0)-1))
		assert.Equal(t, spanPairs(ks), spanPairs(k0), "width %d", n)
		assert.Equal(t, spanPairs(sk), spanPairs(kAll), "width %d", n)
	}
}

// TestKnowlesFanouts checks Knowles's definition: depth ⌈log2 n⌉ and, level
// by level, lateral fan-out f_j: exactly at powers of two, at most f_j at
// other widths. It also checks that the lists are Knowles's: f_1 = 1, each
// the one below or twice it.
func TestKnowlesFanouts(t *testing.T) {
	// The eight 16-bit networks of Knowles's paper, by mask.
	lists16 := map[int][]int{
		0: {1, 1, 1, 1}, 4: {2, 1, 1, 1}, 2: {2, 2, 1, 1}, 6: {4, 2, 1, 1},
		1: {2, 2, 2, 1}, 5: {4, 2, 2, 1}, 3: {4, 4, 2, 1}, 7: {8, 4, 2, 1},
	}
	for s, want := range lists16 {
		assert.Equal(t, want, topologies.KnowlesFanouts(16, s), "s=%d", s)
		// Bits from L−1 = 3 up change nothing.
		assert.Equal(t, want, topologies.KnowlesFanouts(16, s|8|64), "s=%d", s)
		assert.Equal(t, spanPairs(must(topologies.Knowles(16, s))), spanPairs(must(topologies.Knowles(16, s|8|64))))
	}
	for _, n := range []int{2, 3, 5, 8, 12, 16, 17, 31, 32, 45, 64, 100, 128} {
		levels := ceilLog2(n)
		for s := range 1 << max(levels-1, 0) {
			net := must(topologies.Knowles(n, s))
			what := fmt.Sprintf("knowles s=%d width %d", s, n)
			require.Equal(t, levels, net.Depth(), what)
			want := topologies.KnowlesFanouts(n, s)
			require.Len(t, want, levels)
			assert.Equal(t, 1, want[levels-1], what)
			for j := 0; j+1 < levels; j++ {
				assert.Contains(t, []int{want[j+1], 2 * want[j+1]}, want[j], what)
			}
			got := lateralFanouts(net)
			slices.Reverse(got) // Knowles lists the last level first
			if n&(n-1) == 0 {
				assert.Equal(t, want, got, what)
			} else {
				for j := range got {
					assert.LessOrEqual(t, got[j], want[j], "%s level %d", what, levels-j)
				}
			}
			if n <= 64 {
				verify(t, net)
			}
		}
	}
}

// TestKnowlesSizes checks the sizes at n = 16 against a count made here from
// the definition: a Kogge–Stone level has a cell in every column whose prefix
// is incomplete, a Sklansky level in those whose bit j−1 is set as well.
func TestKnowlesSizes(t *testing.T) {
	for _, n := range []int{16, 24, 64} {
		levels := ceilLog2(n)
		for s := range 1 << (levels - 1) {
			// from[i] is the lowest position column i covers.
			from := make([]int, n)
			for i := range from {
				from[i] = i
			}
			cells := 0
			for j := 1; j <= levels; j++ {
				next := slices.Clone(from)
				for i := range n {
					if from[i] == 0 || s>>(j-1)&1 == 1 && i>>(j-1)&1 == 0 {
						continue
					}
					next[i] = from[from[i]-1]
					cells++
				}
				from = next
			}
			assert.Equal(t, cells, must(topologies.Knowles(n, s)).Size(), "s=%d width %d", s, n)
		}
	}
	// Kogge–Stone's and Sklansky's closed forms at the ends.
	assert.Equal(t, 16*4-16+1, must(topologies.Knowles(16, 0)).Size())
	assert.Equal(t, 16/2*4, must(topologies.Knowles(16, 7)).Size())
}

func TestKnowlesRefuses(t *testing.T) {
	_, err := topologies.Knowles(16, -1)
	assert.EqualError(t, err, "topologies: knowles parameter s=-1 out of range: allowed 0…536870911")
	_, err = topologies.Knowles(16, 1<<29)
	assert.EqualError(t, err, "topologies: knowles parameter s=536870912 out of range: allowed 0…536870911")
	_, err = topologies.Knowles(network.MaxWidth, 0)
	assert.ErrorContains(t, err, "more than the 67108864 allowed")
}
