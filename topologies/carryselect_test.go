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

// A carry-select network ripples within each segment and joins each of a
// segment's spans to the carry into it: size n − 1 for the first segment
// and 2l − 1 for each other of l bits, depth the first segment's length
// (or, where a later segment is longer, that segment's chain and the
// segments' joins); lengths that do not sum to the width are refused.
// Segments the family builds carry its parameters, others their lengths.
func TestCarrySelect(t *testing.T) {
	for _, tt := range []struct {
		n           int
		segs        []int
		size, depth int
		name        string
		params      network.Params
	}{
		{1, []int{1}, 0, 0, "carry-select", network.Params{"l": 1, "g": 0}},
		{8, []int{8}, 7, 7, "carry-select", network.Params{"l": 8, "g": 0}},
		{8, []int{5, 3}, 4 + 2 + 3, 5, "carry-select", network.Params{"l": 5, "g": 0}},
		{64, []int{37, 27}, 36 + 26 + 27, 37, "carry-select", network.Params{"l": 37, "g": 0}},
		{12, []int{4, 4, 4}, 3 + 7 + 7, 5, "carry-select", network.Params{"l": 4, "g": 0}},
		{6, []int{1, 5}, 0 + 4 + 5, 5, "carry-select", network.Params{"l": 1, "g": 4}},
		{8, []int{2, 5, 1}, 1 + 9 + 1, 6, "carry-select", network.Params{"l": 2, "g": 3}},
		{8, []int{4, 2, 2}, 3 + 3 + 3, 5, "carry-select", network.Params{"l0": 4, "l1": 2, "l2": 2}},
		{12, []int{3, 3, 5, 1}, 2 + 5 + 9 + 1, 6, "carry-select", network.Params{"l0": 3, "l1": 3, "l2": 5, "l3": 1}},
	} {
		net, err := topologies.CarrySelect(tt.n, tt.segs...)
		require.NoError(t, err, "%v", tt.segs)
		f := net.Figures()
		assert.Equal(t, tt.size, f.Size, "%v", tt.segs)
		assert.Equal(t, tt.depth, f.Depth, "%v", tt.segs)
		assert.Equal(t, tt.name, net.Topology(), "%v", tt.segs)
		assert.Equal(t, tt.params, net.Params(), "%v", tt.segs)
		// What it claims to be is what it is.
		require.NoError(t, topologies.CheckClaim(net), "%v", tt.segs)
	}
	for _, segs := range [][]int{{}, {3, 4}, {8, 0}, {-1, 9}} {
		_, err := topologies.CarrySelect(8, segs...)
		require.Error(t, err, "%v", segs)
		assert.Contains(t, err.Error(), "allowed lengths of at least 1 that sum to the width 8")
	}
	_, err := topologies.CarrySelect(0)
	require.Error(t, err)
}

// The segments start at the first length and grow, the last one taking
// what is left.
func TestCarrySelectSegments(t *testing.T) {
	for _, c := range []struct {
		n, first, grow int
		want           []int
	}{
		{128, 3, 1, []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 11}},
		{128, 8, 2, []int{8, 10, 12, 14, 16, 18, 20, 22, 8}},
		{32, 8, 2, []int{8, 10, 12, 2}},
		{10, 2, 1, []int{2, 3, 4, 1}},
		{9, 2, 1, []int{2, 3, 4}},
		{5, 8, 1, []int{5}},
		{64, 37, 0, []int{37, 27}},
		{16, 2, 1, []int{2, 3, 4, 5, 2}},
		{12, 4, 0, []int{4, 4, 4}},
		// No segments, rather than a loop that never ends.
		{8, 3, -1, nil},
		{1, 0, 0, nil},
		{8, 0, 1, nil},
		{-1, 1, 1, nil},
		{0, 1, 1, nil},
		{math.MaxInt, 1, 1, nil},
	} {
		assert.Equal(t, c.want, topologies.CarrySelectSegments(c.n, c.first, c.grow), "%+v", c)
	}
}

// The family builds the network of its segments; without l, the first
// length of least depth, then of fewest cells, then the longest, found
// here by building every one.
func TestCarrySelectFamily(t *testing.T) {
	net, err := topologies.Build("carry-select", 64, network.Params{"l": 37, "g": 0})
	require.NoError(t, err)
	want, err := topologies.CarrySelect(64, 37, 27)
	require.NoError(t, err)
	assert.Equal(t, want.Spec().Cells, net.Spec().Cells)
	assert.Equal(t, network.Params{"l": 37, "g": 0}, net.Params())
	// A first segment longer than the width is the whole width, and is
	// recorded so.
	net, err = topologies.Build("carry-select", 16, network.Params{"l": 100})
	require.NoError(t, err)
	assert.Equal(t, network.Params{"l": 16, "g": 1}, net.Params())
	assert.Equal(t, 15, net.Depth())
	require.NoError(t, topologies.CheckClaim(net))

	for _, n := range []int{1, 2, 3, 7, 16, 33, 64, 100} {
		for _, g := range []int{0, 1, 2, 5} {
			best, bestDepth, bestSize := 0, n, 2*n
			for l := 1; l <= n; l++ {
				net, err := topologies.CarrySelect(n, topologies.CarrySelectSegments(n, l, g)...)
				require.NoError(t, err)
				if f := net.Figures(); f.Depth < bestDepth || f.Depth == bestDepth && f.Size <= bestSize {
					best, bestDepth, bestSize = l, f.Depth, f.Size
				}
			}
			net, err := topologies.Build("carry-select", n, network.Params{"g": g})
			require.NoError(t, err, "n=%d g=%d", n, g)
			assert.Equal(t, network.Params{"l": best, "g": g}, net.Params(), "n=%d g=%d", n, g)
			assert.Equal(t, bestDepth, net.Depth(), "n=%d g=%d", n, g)
			require.NoError(t, topologies.CheckClaim(net))
		}
	}
}

// carry-select is found by name, but is not one of the named families.
func TestCarrySelectOutsideAll(t *testing.T) {
	assert.NotContains(t, topologies.Names(), "carry-select")
	require.Len(t, topologies.Others(), 1)
	assert.Equal(t, "carry-select", topologies.Others()[0].Name)
	_, err := topologies.Lookup("carry-select")
	require.NoError(t, err)
	_, err = topologies.Lookup("carry-selct")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "did you mean carry-select?")
	assert.Contains(t, err.Error(), "zero-deficiency, carry-select")
	_, err = topologies.Build("carry-select", 16, network.Params{"k": 1})
	require.Error(t, err)
	assert.Equal(t, "topologies: carry-select has no parameter \"k\": allowed are l, g", err.Error())
}

// A network that claims to be a carry-select network it is not is
// refused, in either form of its parameters; the segments' form holds
// where the segments are the network's, even where l and g would say it.
func TestCarrySelectClaim(t *testing.T) {
	ripple, err := topologies.Build("ripple", 16, nil)
	require.NoError(t, err)
	cs, err := topologies.CarrySelect(16, 8, 8)
	require.NoError(t, err)
	for _, tt := range []struct {
		net    *network.Network
		params network.Params
		want   string
	}{
		{ripple, network.Params{"l": 4, "g": 1}, "claims to be carry-select g=1 l=4 at width 16, but its cells are not that network's"},
		{ripple, network.Params{"l0": 8, "l1": 8}, "claims to be carry-select l0=8 l1=8 at width 16, but its cells are not that network's"},
		{ripple, network.Params{"l0": 8, "l1": 9}, "segments [8 9] sum to 17"},
		{ripple, network.Params{"l0": 8, "l2": 8}, "l0, l1, … numbered from l0 without a gap"},
		{ripple, network.Params{"l0": 8, "g": 8}, "l0, l1, … numbered from l0 without a gap"},
		{ripple, network.Params{"l1": 16}, "carry-select has no parameter \"l1\": allowed are l, g"},
		{cs, network.Params{"l0": 8, "l1": 8}, ""},
		{cs, network.Params{"l": 8, "g": 0}, ""},
		{ripple, network.Params{"l0": 16}, ""},
	} {
		b, err := network.NewBuilder(16)
		require.NoError(t, err)
		for k := range tt.net.Size() {
			c := tt.net.Cell(k)
			b.Add(c.Lo, c.Hi)
		}
		b.Describe("carry-select", tt.params)
		claimed, err := b.Build()
		require.NoError(t, err)
		err = topologies.CheckClaim(claimed)
		if tt.want == "" {
			assert.NoError(t, err, "%v", tt.params)
			continue
		}
		require.Error(t, err, "%v", tt.params)
		assert.Contains(t, err.Error(), tt.want, "%v", tt.params)
	}
}

func ExampleCarrySelectSegments() {
	fmt.Println(topologies.CarrySelectSegments(64, 4, 1))
	net, _ := topologies.Build("carry-select", 64, nil)
	fmt.Println(net.Params()["l"], net.Depth(), net.Size())
	// Output:
	// [4 5 6 7 8 9 10 11 4]
	// 2 11 116
}

// CarrySelectSegmentsOf gives back the segments of every carry-select
// network, named by the family's l and g, by its lengths or by another
// name, and of no other: not another family's, and not one that claims to
// be carry-select with cells that are not. Segments of one bit above the
// first are the first's cells: it names the longest first segment.
func TestCarrySelectSegmentsOf(t *testing.T) {
	for _, segs := range [][]int{{8}, {5, 3}, {2, 3, 4, 5, 2}, {4, 2, 2}, {3, 3, 5, 1}, {1, 5}, {1, 2, 1, 3}, {1}} {
		n := 0
		for _, l := range segs {
			n += l
		}
		net, err := topologies.CarrySelect(n, segs...)
		require.NoError(t, err)
		got, ok := topologies.CarrySelectSegmentsOf(net)
		assert.True(t, ok, "%v", segs)
		assert.Equal(t, segs, got)
	}
	ripple, err := topologies.CarrySelect(4, 1, 1, 1, 1)
	require.NoError(t, err)
	got, ok := topologies.CarrySelectSegmentsOf(ripple)
	assert.True(t, ok)
	assert.Equal(t, []int{4}, got)

	named, err := topologies.Build("carry-select", 64, network.Params{"l": 5, "g": 1})
	require.NoError(t, err)
	got, ok = topologies.CarrySelectSegmentsOf(named)
	assert.True(t, ok)
	assert.Equal(t, topologies.CarrySelectSegments(64, 5, 1), got)
	spec := named.Spec()
	spec.Topology, spec.Params = "optimizer", network.Params{"seed": 1}
	renamed, err := network.New(spec)
	require.NoError(t, err)
	got, ok = topologies.CarrySelectSegmentsOf(renamed)
	assert.True(t, ok, "a carry-select network under another name")
	assert.Equal(t, topologies.CarrySelectSegments(64, 5, 1), got)

	ks, err := topologies.Build("kogge-stone", 16, nil)
	require.NoError(t, err)
	_, ok = topologies.CarrySelectSegmentsOf(ks)
	assert.False(t, ok, "another family")
	_, ok = topologies.CarrySelectSegmentsOf(nil)
	assert.False(t, ok)

	spec = ks.Spec()
	spec.Topology, spec.Params = "carry-select", network.Params{"l": 4, "g": 1}
	impostor, err := network.New(spec)
	require.NoError(t, err)
	_, ok = topologies.CarrySelectSegmentsOf(impostor)
	assert.False(t, ok, "Kogge–Stone's cells under carry-select's name")
	spec.Params = network.Params{"l0": 8, "l1": 8}
	impostor, err = network.New(spec)
	require.NoError(t, err)
	_, ok = topologies.CarrySelectSegmentsOf(impostor)
	assert.False(t, ok, "Kogge–Stone's cells under carry-select's lengths")
}
