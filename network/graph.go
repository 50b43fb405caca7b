package network

import (
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/simple"
)

// Graph is a read-only gonum graph.Directed view of a network, so that
// gonum's algorithms (topo.Sort, path, …) run on it. Its nodes are the
// signals, with node ID s for signal s; its edges run from each operand to the
// cell that reads it.
type Graph struct {
	net     *Network
	readers []int32 // the cells reading each signal, as signals, grouped by signal
	start   []int32 // readers[start[s]:start[s+1]] read signal s
}

var _ graph.Directed = (*Graph)(nil)

// Graph returns the gonum view of the network.
func (n *Network) Graph() *Graph {
	start := make([]int32, n.Signals()+1)
	for _, p := range n.ops {
		start[p.a+1]++
		start[p.b+1]++
	}
	for s := 1; s < len(start); s++ {
		start[s] += start[s-1]
	}
	readers := make([]int32, 2*len(n.ops))
	next := make([]int32, n.Signals())
	copy(next, start)
	for k, p := range n.ops {
		cell := int32(n.width + k)
		readers[next[p.a]] = cell
		next[p.a]++
		readers[next[p.b]] = cell
		next[p.b]++
	}
	return &Graph{net: n, readers: readers, start: start}
}

// has reports whether id names a signal.
func (g *Graph) has(id int64) bool { return id >= 0 && id < int64(g.net.Signals()) }

// Node returns the node of signal id, or nil if there is no such signal.
func (g *Graph) Node(id int64) graph.Node {
	if !g.has(id) {
		return nil
	}
	return simple.Node(id)
}

// Nodes returns every signal, inputs first, in signal order.
func (g *Graph) Nodes() graph.Nodes {
	return iterator.NewImplicitNodes(0, g.net.Signals(), func(id int) graph.Node { return simple.Node(id) })
}

// From returns the cells that read signal id.
func (g *Graph) From(id int64) graph.Nodes {
	if !g.has(id) {
		return graph.Empty
	}
	rs := g.readers[g.start[id]:g.start[id+1]]
	if len(rs) == 0 {
		return graph.Empty
	}
	nodes := make([]graph.Node, len(rs))
	for i, r := range rs {
		nodes[i] = simple.Node(r)
	}
	return iterator.NewOrderedNodes(nodes)
}

// To returns the operands of signal id: none for an input, Lo then Hi for a
// cell.
func (g *Graph) To(id int64) graph.Nodes {
	if !g.has(id) || id < int64(g.net.width) {
		return graph.Empty
	}
	c := g.net.Cell(int(id) - g.net.width)
	return iterator.NewOrderedNodes([]graph.Node{simple.Node(c.Lo), simple.Node(c.Hi)})
}

// HasEdgeFromTo reports whether cell v reads signal u.
func (g *Graph) HasEdgeFromTo(uid, vid int64) bool {
	if !g.has(uid) || !g.has(vid) || vid < int64(g.net.width) {
		return false
	}
	c := g.net.Cell(int(vid) - g.net.width)
	return int64(c.Lo) == uid || int64(c.Hi) == uid
}

// HasEdgeBetween reports whether one of x and y reads the other.
func (g *Graph) HasEdgeBetween(xid, yid int64) bool {
	return g.HasEdgeFromTo(xid, yid) || g.HasEdgeFromTo(yid, xid)
}

// Edge returns the edge from signal u to the cell v that reads it, or nil if
// v does not read u.
func (g *Graph) Edge(uid, vid int64) graph.Edge {
	if !g.HasEdgeFromTo(uid, vid) {
		return nil
	}
	return simple.Edge{F: simple.Node(uid), T: simple.Node(vid)}
}
