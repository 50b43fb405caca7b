package simulate

import (
	"fmt"
	"math/bits"
)

// Integer is the set of Go's integer types, the element types of Add, Max,
// Min and Xor.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Add is wrapping addition over an integer type, with identity 0.
type Add[T Integer] struct{}

// Identity returns 0.
func (Add[T]) Identity() T { return 0 }

// Combine returns lo + hi, wrapping on overflow.
func (Add[T]) Combine(lo, hi T) T { return lo + hi }

// Max is the larger of two integers, with the smallest value of the type as
// its identity.
type Max[T Integer] struct{}

// Identity returns the smallest value of T.
func (Max[T]) Identity() T { lo, _ := limits[T](); return lo }

// Combine returns the larger of lo and hi.
func (Max[T]) Combine(lo, hi T) T { return max(lo, hi) }

// Min is the smaller of two integers, with the largest value of the type as
// its identity.
type Min[T Integer] struct{}

// Identity returns the largest value of T.
func (Min[T]) Identity() T { _, hi := limits[T](); return hi }

// Combine returns the smaller of lo and hi.
func (Min[T]) Combine(lo, hi T) T { return min(lo, hi) }

// limits returns the smallest and the largest value of an integer type.
func limits[T Integer]() (lo, hi T) {
	var zero T
	ones := ^zero
	if ones > zero { // unsigned: 0 … all ones
		return zero, ones
	}
	// Signed: −1 shifted left until one more shift would clear it is the
	// sign bit alone, the smallest value.
	lo = ones
	for lo<<1 != 0 {
		lo <<= 1
	}
	return lo, ^lo
}

// Xor is bitwise exclusive or over an integer type, with identity 0.
type Xor[T Integer] struct{}

// Identity returns 0.
func (Xor[T]) Identity() T { return 0 }

// Combine returns lo ^ hi.
func (Xor[T]) Combine(lo, hi T) T { return lo ^ hi }

// AffineMap is the map x ↦ A·x + B mod 2^64.
type AffineMap struct {
	A, B uint64
}

// Apply returns A·x + B mod 2^64.
func (f AffineMap) Apply(x uint64) uint64 { return f.A*x + f.B }

// Affine composes affine maps: Combine(lo, hi) applies lo first, then hi, so
// a prefix of maps f0, f1, …, fi is fi ∘ … ∘ f1 ∘ f0. Over the maps
// x ↦ a_i·x + b_i, the prefixes applied to x_{−1} solve the first-order
// linear recurrence x_i = a_i·x_{i−1} + b_i. It is not commutative.
type Affine struct{}

// Identity returns the identity map {A: 1, B: 0}.
func (Affine) Identity() AffineMap { return AffineMap{A: 1} }

// Combine returns hi ∘ lo: {A: hi.A·lo.A, B: hi.A·lo.B + hi.B}, mod 2^64.
func (Affine) Combine(lo, hi AffineMap) AffineMap {
	return AffineMap{A: hi.A * lo.A, B: hi.A*lo.B + hi.B}
}

// Mat2 is a 2×2 matrix, indexed [row][column].
type Mat2 [2][2]uint64

// Matrix2 multiplies 2×2 matrices modulo Mod: Combine(lo, hi) = lo × hi, which
// is not commutative. Mod is usually a prime such as 1_000_000_007, but any
// modulus works (no inverses are needed); Mod 0 means arithmetic modulo
// 2^64. Entries are expected to be below Mod; results always are.
type Matrix2 struct {
	Mod uint64
}

// Identity returns the identity matrix (reduced modulo Mod).
func (m Matrix2) Identity() Mat2 {
	one := m.reduce(1)
	return Mat2{{one, 0}, {0, one}}
}

// Combine returns lo × hi modulo Mod.
func (m Matrix2) Combine(lo, hi Mat2) Mat2 {
	var r Mat2
	for i := range 2 {
		for j := range 2 {
			r[i][j] = m.mulAdd(lo[i][0], hi[0][j], lo[i][1], hi[1][j])
		}
	}
	return r
}

// reduce returns x modulo Mod.
func (m Matrix2) reduce(x uint64) uint64 {
	if m.Mod == 0 {
		return x
	}
	return x % m.Mod
}

// mulAdd returns a·b + c·d modulo Mod, exactly, through 128-bit products.
func (m Matrix2) mulAdd(a, b, c, d uint64) uint64 {
	if m.Mod == 0 {
		return a*b + c*d
	}
	h1, l1 := bits.Mul64(a, b)
	h2, l2 := bits.Mul64(c, d)
	l, carry := bits.Add64(l1, l2, 0)
	h, over := bits.Add64(h1, h2, carry)
	// The sum is H·2^64 + l with H = over·2^64 + h, so its remainder is
	// that of (H mod Mod)·2^64 + l, and H mod Mod is
	// over·(2^64 mod Mod) + h, reduced.
	h %= m.Mod
	if over != 0 {
		h = addMod(h, bits.Rem64(1, 0, m.Mod), m.Mod)
	}
	return bits.Rem64(h, l, m.Mod)
}

// addMod returns a + b modulo mod, for a, b < mod.
func addMod(a, b, mod uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 || s >= mod {
		s -= mod
	}
	return s
}

// Seg is one element of a segmented scan: Head marks the first element of a
// segment, and Value is the element, or after a scan the sum since the
// segment began.
type Seg[T any] struct {
	Head  bool
	Value T
}

// Segmented is the segmented lift of Base: a scan over it restarts at every
// head. Combine(lo, hi) = {lo.Head ∨ hi.Head,
// hi.Head ? hi.Value : Base.Combine(lo.Value, hi.Value)}. It is associative
// whenever Base is, and never commutative. Base must be set: the zero
// Segmented has no base monoid to lift.
type Segmented[T any] struct {
	Base Monoid[T]
}

// Identity returns {false, Base.Identity()}.
func (s Segmented[T]) Identity() Seg[T] { return Seg[T]{Value: s.Base.Identity()} }

// Combine returns the segmented combination of lo and hi.
func (s Segmented[T]) Combine(lo, hi Seg[T]) Seg[T] {
	if hi.Head {
		return Seg[T]{Head: true, Value: hi.Value}
	}
	return Seg[T]{Head: lo.Head, Value: s.Base.Combine(lo.Value, hi.Value)}
}

// Range is a contiguous range of input positions [From, To], both included,
// or the empty range. It is the element type of Interval.
type Range struct {
	From, To int
	Empty    bool
}

// Unit returns input i's range, [i, i].
func Unit(i int) Range { return Range{From: i, To: i} }

// String returns the range as "[From,To]", or "[]" when it is empty.
func (r Range) String() string {
	if r.Empty {
		return "[]"
	}
	return fmt.Sprintf("[%d,%d]", r.From, r.To)
}

// Interval joins adjacent ranges of positions, the bookkeeping network's
// spans do, as a monoid: evaluated over Unit(i) inputs, a correct network
// gives [0, i] at output i. Its identity is the empty range. Combine panics
// when hi does not begin right after lo ends, so that any operand order
// mistake in an evaluator shows at once, naming both ranges.
type Interval struct{}

// Identity returns the empty range.
func (Interval) Identity() Range { return Range{Empty: true} }

// Combine joins lo = [a, m] and hi = [m+1, b] into [a, b]; an empty operand
// gives the other. It panics with "simulate: interval combine of [0,3] and
// [5,7]: not adjacent" when the ranges do not meet, or "…: operands swapped"
// when hi lies right below lo.
func (Interval) Combine(lo, hi Range) Range {
	switch {
	case lo.Empty:
		return hi
	case hi.Empty:
		return lo
	case lo.To+1 == hi.From:
		return Range{From: lo.From, To: hi.To}
	case hi.To+1 == lo.From:
		panic(fmt.Sprintf("simulate: interval combine of %v and %v: operands swapped", lo, hi))
	default:
		panic(fmt.Sprintf("simulate: interval combine of %v and %v: not adjacent", lo, hi))
	}
}
