package bdd

// Node is a function in a BDD: False, True, or a node that tests a
// variable. Nodes of different stores are not comparable.
type Node int32

// The constant functions, in every store.
const (
	False Node = 0
	True  Node = 1
)

// leaf is the variable of the two constants: after every variable.
const leaf = 1 << 30

// node tests variable v: lo where it is false, hi where it is true.
type node struct {
	v      int32
	lo, hi Node
}

// BDD is a store of decision diagrams. Its zero value is not usable: make
// one with New.
type BDD struct {
	nodes  []node
	unique map[node]Node
	memo   map[[3]Node]Node
	limit  int
}

// New returns an empty store. A limit above 0 bounds it: Full reports a
// store of more than limit nodes (building goes on; the caller stops).
func New(limit int) *BDD {
	return &BDD{nodes: []node{{v: leaf}, {v: leaf}}, unique: map[node]Node{}, memo: map[[3]Node]Node{}, limit: limit}
}

// Len returns the number of nodes in the store, the constants included.
func (b *BDD) Len() int { return len(b.nodes) }

// Full reports whether the store holds more nodes than its limit; a store
// without one is never full.
func (b *BDD) Full() bool { return b.limit > 0 && len(b.nodes) > b.limit }

// Var returns the function that is variable v (0 or more).
func (b *BDD) Var(v int32) Node { return b.make(v, False, True) }

func (b *BDD) make(v int32, lo, hi Node) Node {
	if lo == hi {
		return lo
	}
	n := node{v, lo, hi}
	if id, ok := b.unique[n]; ok {
		return id
	}
	b.nodes = append(b.nodes, n)
	id := Node(len(b.nodes) - 1)
	b.unique[n] = id
	return id
}

// ITE returns if f then g else h.
func (b *BDD) ITE(f, g, h Node) Node {
	switch {
	case f == True:
		return g
	case f == False:
		return h
	case g == h:
		return g
	case g == True && h == False:
		return f
	}
	key := [3]Node{f, g, h}
	if r, ok := b.memo[key]; ok {
		return r
	}
	v := min(b.nodes[f].v, b.nodes[g].v, b.nodes[h].v)
	f0, f1 := b.cofactors(f, v)
	g0, g1 := b.cofactors(g, v)
	h0, h1 := b.cofactors(h, v)
	r := b.make(v, b.ITE(f0, g0, h0), b.ITE(f1, g1, h1))
	b.memo[key] = r
	return r
}

func (b *BDD) cofactors(f Node, v int32) (Node, Node) {
	if n := b.nodes[f]; n.v == v {
		return n.lo, n.hi
	}
	return f, f
}

// Const returns True or False.
func (b *BDD) Const(v bool) Node {
	if v {
		return True
	}
	return False
}

// Not returns the complement of f.
func (b *BDD) Not(f Node) Node { return b.ITE(f, False, True) }

// And returns f and g.
func (b *BDD) And(f, g Node) Node { return b.ITE(f, g, False) }

// Or returns f or g.
func (b *BDD) Or(f, g Node) Node { return b.ITE(f, True, g) }

// Xor returns f exclusive-or g.
func (b *BDD) Xor(f, g Node) Node { return b.ITE(f, b.Not(g), g) }

// Canonical returns the smaller of f and its complement, so that a
// function and its complement share one key.
func (b *BDD) Canonical(f Node) Node { return min(f, b.Not(f)) }

// Value returns f's value where variable v is x(v).
func (b *BDD) Value(f Node, x func(v int32) bool) bool {
	for f != False && f != True {
		n := b.nodes[f]
		if x(n.v) {
			f = n.hi
		} else {
			f = n.lo
		}
	}
	return f == True
}
