package carry

// GP is the generate/propagate pair of a span of bit positions: G is set when
// the span produces a carry out by itself, P when it passes an incoming carry
// through.
type GP struct {
	G, P bool
}

// Identity is the identity of Combine: a span of no positions generates
// nothing and propagates everything.
var Identity = GP{G: false, P: true}

// Combine joins the pairs of two adjacent spans, lo covering the lower
// positions and hi the higher ones:
// (hi.G ∨ hi.P ∧ lo.G, hi.P ∧ lo.P). It is associative, not commutative.
func Combine(lo, hi GP) GP {
	return GP{G: hi.G || hi.P && lo.G, P: hi.P && lo.P}
}

// Monoid is the carry operator as a value with Identity and Combine methods,
// so that it satisfies simulate.Monoid[GP].
type Monoid struct{}

// Identity returns the package's Identity.
func (Monoid) Identity() GP { return Identity }

// Combine returns the package's Combine(lo, hi).
func (Monoid) Combine(lo, hi GP) GP { return Combine(lo, hi) }

// Slice is 64 GP pairs in bit-sliced form: bit j of G and of P belongs to
// test vector j.
type Slice struct {
	G, P uint64
}

// CombineSlice is Combine applied to each of the 64 lanes of lo and hi.
func CombineSlice(lo, hi Slice) Slice {
	return Slice{G: hi.G | hi.P&lo.G, P: hi.P & lo.P}
}
