package carry

import "github.com/prefixgen/prefixgen/network"

// Kind says which half of the (g, p) pair a prefix cell of an adder must
// compute.
type Kind uint8

const (
	// Gray is a cell that computes G = G_hi ∨ P_hi ∧ G_lo only: nothing reads
	// its P.
	Gray Kind = iota
	// Black is a cell that computes both G and P = P_hi ∧ P_lo, because a
	// later cell reads its P.
	Black
)

// String returns "gray" or "black".
func (k Kind) String() string {
	if k == Black {
		return "black"
	}
	return "gray"
}

// Kinds returns the kind of every cell of the adder around net. A signal's P
// is needed when a cell reads it as its Hi operand (G = G_hi ∨ P_hi ∧ G_lo)
// or reads it, as either operand, to compute a P that is needed itself; the
// adder's outputs need only G, since the carry into bit i+1 is G[0, i]. A cell
// is Black when its P is needed and Gray otherwise.
func Kinds(net *network.Network) []Kind {
	width := net.Width()
	needP := make([]bool, net.Signals())
	kinds := make([]Kind, net.Size())
	// Readers come after what they read: one pass from the last cell back
	// settles each signal before its operands are looked at.
	for k := net.Size() - 1; k >= 0; k-- {
		c := net.Cell(k)
		if needP[width+k] {
			kinds[k] = Black
			needP[c.Lo] = true
		}
		needP[c.Hi] = true
	}
	return kinds
}
