package simulate

import (
	"fmt"

	"github.com/prefixgen/prefixgen/network"
)

// Monoid is an associative operator with an identity. Combine(lo, hi) joins
// a value covering lower positions (lo, always the left operand) with one
// covering the adjacent higher positions (hi); Identity is the identity on
// both sides.
type Monoid[T any] interface {
	Identity() T
	Combine(lo, hi T) T
}

// Eval evaluates every cell of net, in order, over m and returns the net's
// outputs: out[i] = in[0] ⊕ … ⊕ in[i] for a correct network. Eval panics if
// len(in) is not the network's width: that is a programming error.
func Eval[T any](net *network.Network, m Monoid[T], in []T) []T {
	w := net.Width()
	if len(in) != w {
		panic(fmt.Sprintf("simulate: %d inputs for a network of width %d", len(in), w))
	}
	v := make([]T, net.Signals())
	copy(v, in)
	for k := range net.Size() {
		c := net.Cell(k)
		v[w+k] = m.Combine(v[c.Lo], v[c.Hi])
	}
	out := make([]T, w)
	for i := range out {
		out[i] = v[net.Output(i)]
	}
	return out
}

// Scan is the sequential reference of Eval: out[i] = in[0] ⊕ … ⊕ in[i],
// folded from the left starting with the identity.
func Scan[T any](m Monoid[T], in []T) []T {
	out := make([]T, len(in))
	acc := m.Identity()
	for i, x := range in {
		acc = m.Combine(acc, x)
		out[i] = acc
	}
	return out
}
