package topologies_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/topologies"
)

// A carry-select network ripples within each segment and joins each of a
// segment's spans to the carry into it: size n − 1 for the first segment
// and 2l − 1 for each other of l bits, depth the first segment's length
// (or, where a later segment is longer, that segment's chain and the
// segments' joins); lengths that do not sum to the width are refused.
func TestCarrySelect(t *testing.T) {
	for _, tt := range []struct {
		n           int
		segs        []int
		size, depth int
	}{
		{1, []int{1}, 0, 0},
		{8, []int{8}, 7, 7},
		{8, []int{5, 3}, 4 + 2 + 3, 5},
		{64, []int{37, 27}, 36 + 26 + 27, 37},
		{12, []int{4, 4, 4}, 3 + 7 + 7, 5},
		{6, []int{1, 5}, 0 + 4 + 5, 5},
	} {
		net, err := topologies.CarrySelect(tt.n, tt.segs...)
		require.NoError(t, err, "%v", tt.segs)
		f := net.Figures()
		assert.Equal(t, tt.size, f.Size, "%v", tt.segs)
		assert.Equal(t, tt.depth, f.Depth, "%v", tt.segs)
		assert.Equal(t, "carry-select", net.Topology())
		assert.Equal(t, tt.segs[0], net.Params()["l0"])
	}
	for _, segs := range [][]int{{}, {3, 4}, {8, 0}, {-1, 9}} {
		_, err := topologies.CarrySelect(8, segs...)
		require.Error(t, err, "%v", segs)
		assert.Contains(t, err.Error(), "allowed lengths of at least 1 that sum to the width 8")
	}
	_, err := topologies.CarrySelect(0)
	require.Error(t, err)
}
