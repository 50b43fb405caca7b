package topologies_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// TestZeroDeficiencyWidths checks the depth bound of Zhu, Cheng and Graham: a
// zero-deficiency network of depth d exists exactly for n ≤ F(d+3) − 1.
func TestZeroDeficiencyWidths(t *testing.T) {
	assert.Equal(t, 0, topologies.ZeroDeficiencyDepth(1))
	assert.Equal(t, 1, topologies.ZeroDeficiencyDepth(2))
	for d := 1; d <= 80; d++ {
		w := fib(d+3) - 1
		if w <= 0 || w > math.MaxInt/2 {
			break
		}
		assert.Equal(t, d, topologies.ZeroDeficiencyDepth(w), "width F(%d)−1 = %d", d+3, w)
		assert.Equal(t, d+1, topologies.ZeroDeficiencyDepth(w+1), "width F(%d) = %d", d+3, w+1)
	}
}

// TestZeroDeficiency builds every depth the construction allows at widths up
// to 150 and checks size 2n − 2 − d, depth d, deficiency 0, and the values.
func TestZeroDeficiency(t *testing.T) {
	for n := 1; n <= 150; n++ {
		lo := topologies.ZeroDeficiencyDepth(n)
		for d := lo; d <= n-1 || d == lo; d++ {
			net := must(topologies.ZeroDeficiency(n, d))
			what := fmt.Sprintf("zero-deficiency d=%d width %d", d, n)
			f := net.Figures()
			require.Equal(t, d, f.Depth, what)
			require.Equal(t, 2*n-2-d, f.Size, what)
			require.Equal(t, 0, f.Deficiency, what)
			if n == 6 || n == 12 || d == lo && n%8 == 0 {
				verify(t, net)
			}
			if d > lo+6 && d < n-2 {
				d = n - 3 // the rest, near ripple, are alike
			}
		}
		def := must(topologies.ZeroDeficiency(n, 0))
		assert.Equal(t, lo, def.Depth(), "width %d", n)
	}
	// The widest at each depth.
	for d := 2; d <= 10; d++ {
		n := fib(d+3) - 1
		net := must(topologies.ZeroDeficiency(n, d))
		assert.Equal(t, 0, net.Figures().Deficiency, "width %d", n)
	}
}

// TestZeroDeficiencyCells pins the cells at small widths: the blocks are
// given one leaf each and then the later (wider) blocks are filled first,
// so the spare leaves land in the last blocks of the chain.
func TestZeroDeficiencyCells(t *testing.T) {
	tests := []struct {
		n, d  int
		cells []network.Cell
	}{
		{n: 5, d: 3, cells: []network.Cell{{Lo: 0, Hi: 1}, {Lo: 5, Hi: 2}, {Lo: 3, Hi: 4}, {Lo: 6, Hi: 7}, {Lo: 6, Hi: 3}}},
		{n: 6, d: 3, cells: []network.Cell{{Lo: 0, Hi: 1}, {Lo: 6, Hi: 2}, {Lo: 3, Hi: 4}, {Lo: 8, Hi: 5}, {Lo: 7, Hi: 9}, {Lo: 7, Hi: 8}, {Lo: 7, Hi: 3}}},
		{n: 6, d: 4, cells: []network.Cell{{Lo: 0, Hi: 1}, {Lo: 6, Hi: 2}, {Lo: 7, Hi: 3}, {Lo: 4, Hi: 5}, {Lo: 8, Hi: 9}, {Lo: 8, Hi: 4}}},
		{n: 9, d: 4, cells: []network.Cell{{Lo: 0, Hi: 1}, {Lo: 9, Hi: 2}, {Lo: 3, Hi: 4}, {Lo: 10, Hi: 11}, {Lo: 10, Hi: 3},
			{Lo: 5, Hi: 6}, {Lo: 14, Hi: 7}, {Lo: 15, Hi: 8}, {Lo: 12, Hi: 16}, {Lo: 12, Hi: 15}, {Lo: 12, Hi: 14}, {Lo: 12, Hi: 5}}},
	}
	for _, tt := range tests {
		net, err := topologies.ZeroDeficiency(tt.n, tt.d)
		require.NoError(t, err)
		assert.Equal(t, tt.cells, net.Spec().Cells, "width %d depth %d", tt.n, tt.d)
	}
}

func TestZeroDeficiencyRefuses(t *testing.T) {
	_, err := topologies.ZeroDeficiency(64, 7)
	assert.EqualError(t, err, "topologies: zero-deficiency at width 64 has no network of depth 7: allowed 8…63 (or 0 for 8)")
	_, err = topologies.ZeroDeficiency(8, 8)
	assert.EqualError(t, err, "topologies: zero-deficiency at width 8 has no network of depth 8: allowed 4…7 (or 0 for 4)")
	_, err = topologies.ZeroDeficiency(2, 2)
	assert.EqualError(t, err, "topologies: zero-deficiency at width 2 has no network of depth 2: allowed d = 1 (or 0 for it)")
	_, err = topologies.ZeroDeficiency(1, 1)
	assert.EqualError(t, err, "topologies: zero-deficiency at width 1 has no network of depth 1: allowed 0 only, a single input needs no cell")
	_, err = topologies.ZeroDeficiency(8, -1)
	assert.EqualError(t, err, "topologies: zero-deficiency parameter d=-1 out of range: allowed 0…1073741824")
}

// TestAtWidth: a family at another width keeps its parameters, and a
// zero-deficiency network of the least depth gives the least depth there
// (what d = 0 meant), where a deeper one keeps its depth.
func TestAtWidth(t *testing.T) {
	least, err := topologies.Build("zero-deficiency", 64, nil)
	require.NoError(t, err)
	assert.Equal(t, network.Params{"d": 8}, least.Params())
	at32, err := topologies.AtWidth(least, 32)
	require.NoError(t, err)
	assert.Equal(t, topologies.ZeroDeficiencyDepth(32), at32.Depth())
	assert.Equal(t, network.Params{"d": topologies.ZeroDeficiencyDepth(32)}, at32.Params())

	deep, err := topologies.ZeroDeficiency(64, 12)
	require.NoError(t, err)
	at32, err = topologies.AtWidth(deep, 32)
	require.NoError(t, err)
	assert.Equal(t, 12, at32.Depth())

	lf, err := topologies.Build("ladner-fischer", 64, network.Params{"k": 2})
	require.NoError(t, err)
	at16, err := topologies.AtWidth(lf, 16)
	require.NoError(t, err)
	assert.Equal(t, network.Params{"k": 2}, at16.Params())

	_, err = topologies.AtWidth(deep, 8)
	assert.EqualError(t, err, "topologies: zero-deficiency at width 8 has no network of depth 12: allowed 4…7 (or 0 for 4)")
}
