// Package carry holds the generate/propagate monoid of binary addition and
// the adder built around a prefix network.
//
// A bit position of an addition x + y either generates a carry (both bits
// set), propagates an incoming carry (exactly one bit set), or kills it. A
// GP pair describes a span of positions the same way, and Combine joins the
// pairs of two adjacent spans:
//
//	Combine(lo, hi) = (hi.G ∨ hi.P ∧ lo.G, hi.P ∧ lo.P)
//
// lo covers the lower positions and is always the left operand, the order
// package network fixes for every cell. Combine is associative but not
// commutative, and Identity, (G, P) = (false, true), is its identity on both
// sides.
//
// Slice is the bit-sliced form: bit j of each word belongs to test vector j,
// so one CombineSlice call does the work of 64 Combine calls. Adder runs a
// network over bit-sliced operands with the usual pre-processing
// (g = x ∧ y, p = x ⊕ y, carry-in folded into position 0) and
// post-processing (sum_i = p_i ⊕ carry_i), and Ripple is an independent
// bit-serial adder in the same form, used as the reference.
//
// The package imports only package network. Monoid satisfies
// simulate.Monoid[GP] structurally, so that the generic evaluator of package
// simulate runs the carry operator too.
package carry
