package topologies_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// TestHarrisCorners checks that the taxonomy's corners and edges are the
// named networks, cell for cell, at every width from 3 to 130: Brent–Kung
// (L−1, 0, 0), Sklansky (0, L−1, 0), Kogge–Stone (0, 0, L−1), Han–Carlson
// (1, 0, L−2) and Knowles [2,1,…,1] (0, 1, L−2).
func TestHarrisCorners(t *testing.T) {
	for n := 3; n <= 130; n++ {
		levels := ceilLog2(n)
		tests := []struct {
			name string
			l, f int
			want *network.Network
		}{
			{"brent-kung", levels - 1, 0, must(topologies.BrentKung(n))},
			{"sklansky", 0, levels - 1, must(topologies.Sklansky(n))},
			{"kogge-stone", 0, 0, must(topologies.KoggeStone(n))},
			{"han-carlson", 1, 0, must(topologies.HanCarlson(n))},
			{"knowles [2,1,…,1]", 0, 1, must(topologies.Knowles(n, 1<<(levels-2)))},
		}
		for _, tt := range tests {
			got := must(topologies.Harris(n, tt.l, tt.f))
			assert.Equal(t, spanPairs(tt.want), spanPairs(got), "%s width %d: harris l=%d f=%d", tt.name, n, tt.l, tt.f)
		}
	}
}

// TestHarrisBounds checks Harris's figures at every point for widths up to
// 130: ⌈log2 n⌉ + l levels (exactly at powers of two, as soon as possible,
// except Brent–Kung's corner, which has 2⌈log2 n⌉ − 2), wire tracks at most
// 2^t, lateral fan-out at most 2^f at every level for l = 0 (both exact at
// powers of two), and the values of the sequential scan and of an adder. For
// l ≥ 1 Harris counts lateral fan-out per drawn stage, and levels as soon as
// possible pull down-sweep cells into earlier levels (Han–Carlson's last
// level joins its second), so the bound is checked on the Knowles network
// of the middle stages by TestHarrisMiddle.
func TestHarrisBounds(t *testing.T) {
	for n := 3; n <= 130; n++ {
		levels := ceilLog2(n)
		for l := 0; l <= levels-1; l++ {
			for f := 0; l+f <= levels-1; f++ {
				tr := levels - 1 - l - f
				net := must(topologies.Harris(n, l, f))
				what := fmt.Sprintf("harris (%d,%d,%d) width %d", l, f, tr, n)
				figs := net.Figures()
				lateral := slicesMax(lateralFanouts(net))
				require.LessOrEqual(t, figs.Depth, levels+l, what)
				if l == 0 {
					require.LessOrEqual(t, lateral, 1<<f, what)
				}
				require.LessOrEqual(t, figs.WireTracks, 1<<tr, what)
				if n&(n-1) == 0 {
					if l == levels-1 && l > 0 {
						assert.Equal(t, 2*levels-2, figs.Depth, what)
					} else {
						assert.Equal(t, levels+l, figs.Depth, what)
					}
					if l == 0 {
						assert.Equal(t, 1<<f, lateral, what)
					}
					assert.Equal(t, 1<<tr, figs.WireTracks, what)
				}
				if n == 7 || n == 16 || n == 37 || n == 64 || n == 100 {
					verify(t, net)
				}
			}
		}
	}
}

// TestHarrisLadnerFischer checks the hardware "Ladner–Fischer" (1, L−2, 0):
// Sklansky on the odd columns and one more level for the even ones, at
// n = 2^k: depth k + 1, one wire track, and n/2 pairs, (n/4)·(k−1) cells of
// Sklansky on the n/2 odd columns and n/2 − 1 cells for the even columns.
func TestHarrisLadnerFischer(t *testing.T) {
	for k := 3; k <= 10; k++ {
		n := 1 << k
		net := must(topologies.Harris(n, 1, k-2))
		want := n/2 + (n/4)*(k-1) + n/2 - 1
		assert.Equal(t, want, net.Size(), "width %d", n)
		assert.Equal(t, k+1, net.Depth(), "width %d", n)
		assert.Equal(t, 1, net.Figures().WireTracks, "width %d", n)
	}
}

// TestHarrisMiddle checks the lateral fan-out of the middle stages for l ≥ 1
// at powers of two: the cells that join two spans of whole blocks of 2^l
// columns are the Knowles network on the blocks, and at every level as soon
// as possible no signal feeds more than 2^f of them.
func TestHarrisMiddle(t *testing.T) {
	for k := 2; k <= 8; k++ {
		n := 1 << k
		for l := 1; l <= k-1; l++ {
			for f := 0; l+f <= k-1; f++ {
				net := must(topologies.Harris(n, l, f))
				block := 1 << l
				count := map[[2]int]int{}
				best := 0
				for c := range net.Size() {
					cell := net.Cell(c)
					lo, hi := net.Span(cell.Lo), net.Span(cell.Hi)
					if lo.From%block != 0 || (lo.To+1)%block != 0 || (hi.To+1)%block != 0 {
						continue
					}
					key := [2]int{cell.Lo, net.Level(net.CellSignal(c))}
					count[key]++
					best = max(best, count[key])
				}
				assert.Equal(t, 1<<f, best, "harris (%d,%d,%d) width %d", l, f, k-1-l-f, n)
			}
		}
	}
}

func TestHarrisRefuses(t *testing.T) {
	_, err := topologies.Harris(16, 2, 2)
	assert.EqualError(t, err, "topologies: harris at width 16: l=2 f=2 leave t = ⌈log2 n⌉−1−l−f = -1: allowed l + f ≤ 3")
	_, err = topologies.Harris(2, 1, 0)
	assert.EqualError(t, err, "topologies: harris at width 2: l=1 f=0 leave t = ⌈log2 n⌉−1−l−f = -1: allowed l + f ≤ 0")
	// At width 1, ⌈log2 n⌉ − 1 is −1: the one point is (0, 0, 0).
	_, err = topologies.Harris(1, 0, 1)
	assert.EqualError(t, err, "topologies: harris at width 1: l=0 f=1: allowed l = f = 0, the one point at width 1 (t = 0)")
	_, err = topologies.Harris(16, 30, 0)
	assert.EqualError(t, err, "topologies: harris parameter l=30 out of range: allowed 0…29")
	for _, n := range []int{1, 2} {
		net := must(topologies.Harris(n, 0, 0))
		assert.Equal(t, n-1, net.Size())
	}
}

// slicesMax returns the largest element of s, or 0 for an empty s.
func slicesMax(s []int) int {
	m := 0
	for _, v := range s {
		m = max(m, v)
	}
	return m
}
