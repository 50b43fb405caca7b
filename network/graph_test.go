package network_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/topo"
)

func TestGraphTopoSort(t *testing.T) {
	n := koggeStone8(t)
	g := n.Graph()
	order, err := topo.Sort(g)
	require.NoError(t, err, "a prefix network is acyclic")
	require.Len(t, order, n.Signals())
	pos := make(map[int64]int, len(order))
	for i, node := range order {
		pos[node.ID()] = i
	}
	for k := range n.Size() {
		c := n.Cell(k)
		s := int64(n.CellSignal(k))
		assert.Less(t, pos[int64(c.Lo)], pos[s])
		assert.Less(t, pos[int64(c.Hi)], pos[s])
	}
	// The longest path, found through gonum's order, is the depth.
	longest := make(map[int64]int)
	for _, node := range order {
		for _, to := range graph.NodesOf(g.From(node.ID())) {
			longest[to.ID()] = max(longest[to.ID()], longest[node.ID()]+1)
		}
	}
	for i := range n.Width() {
		assert.Equal(t, n.Level(n.Output(i)), longest[int64(n.Output(i))])
	}
}

func TestGraphEdges(t *testing.T) {
	n := sklansky4(t) // cells: 4=(0,1) 5=(4,2) 6=(2,3) 7=(4,6)
	g := n.Graph()
	assert.True(t, g.HasEdgeFromTo(4, 7))
	assert.False(t, g.HasEdgeFromTo(7, 4))
	assert.True(t, g.HasEdgeBetween(7, 4))
	assert.False(t, g.HasEdgeBetween(1, 2))
	assert.Nil(t, g.Edge(1, 2))
	e := g.Edge(2, 6)
	require.NotNil(t, e)
	assert.Equal(t, int64(2), e.From().ID())
	assert.Equal(t, int64(6), e.To().ID())
	assert.Nil(t, g.Node(8))
	assert.Nil(t, g.Node(-1))
	assert.Equal(t, 8, g.Nodes().Len())
	ids := func(it graph.Nodes) []int64 {
		var out []int64
		for _, nd := range graph.NodesOf(it) {
			out = append(out, nd.ID())
		}
		return out
	}
	assert.Equal(t, []int64{5, 7}, ids(g.From(4)))
	assert.Equal(t, []int64{5, 6}, ids(g.From(2)))
	assert.Empty(t, ids(g.From(7)))
	assert.Equal(t, []int64{4, 6}, ids(g.To(7)))
	// Signal 4, the first cell, is a cell and not an input: it has operands.
	assert.Equal(t, []int64{0, 1}, ids(g.To(4)))
	assert.Empty(t, ids(g.To(3)))
}
