// Package simulate evaluates prefix networks over any monoid and verifies
// adders built around them.
//
// Eval runs a network over a Monoid[T]: every cell computes
// Combine(lo, hi) with the lower positions on the left, and output i is
// in[0] ⊕ … ⊕ in[i]. Scan is the sequential reference the results are
// compared with. Network proves its networks correct for every associative
// operator from their spans; simulation is a second, independent check,
// strongest with a non-commutative operator (Matrix2, Affine, Segmented) or
// with Interval, which panics on any combine that is out of order.
//
// The stock monoids are Add, Max, Min and Xor over any integer type, Affine
// (composition of maps x ↦ A·x + B mod 2^64, for linear recurrences),
// Matrix2 (2×2 matrices modulo a number), Segmented (the segmented lift of
// any monoid) and Interval (the span bookkeeping of a network, as values).
//
// VerifyAdder checks the adder around a network (package carry) against
// exact arithmetic: corner vectors and, for widths up to 10, every vector
// against math/big; then seeded random vectors in bit-sliced form, 64 at a
// time, against carry.Ripple, with one lane of every batch also checked
// against math/big so that the reference itself stays tied to exact
// arithmetic. VerifyDescription checks an adder's gate-level description
// (package adder: sparse trees, valency, Ling carries, pipelines, library
// cells) the same way, every gate evaluated on 64 vectors at once. Verify
// gathers the three independent checks of one network (Interval, Matrix2
// and the adder) into a Report, for the prefixgen verify command, and
// VerifyDescribed with a described adder in place of the plain one.
//
// carry.Monoid satisfies Monoid[carry.GP] without package carry importing
// this one, so Eval runs the carry operator itself one vector at a time;
// VerifyAdder uses carry's bit-sliced Adder instead, 64 vectors at a time.
package simulate
