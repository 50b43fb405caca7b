package simulate_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/simulate"
)

// laws checks that m's identity is an identity on both sides and that Combine
// is associative, on random values from gen.
func laws[T any](t *testing.T, m simulate.Monoid[T], gen func(*rand.Rand) T) {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	id := m.Identity()
	for range 500 {
		a, b, c := gen(rng), gen(rng), gen(rng)
		require.Equal(t, a, m.Combine(id, a), "identity on the left of %v", a)
		require.Equal(t, a, m.Combine(a, id), "identity on the right of %v", a)
		require.Equal(t, m.Combine(m.Combine(a, b), c), m.Combine(a, m.Combine(b, c)), "associativity of %v, %v, %v", a, b, c)
	}
}

const prime = 1_000_000_007

func randMat(mod uint64) func(*rand.Rand) simulate.Mat2 {
	return func(r *rand.Rand) simulate.Mat2 {
		var m simulate.Mat2
		for i := range 2 {
			for j := range 2 {
				if mod == 0 {
					m[i][j] = r.Uint64()
				} else {
					m[i][j] = r.Uint64N(mod)
				}
			}
		}
		return m
	}
}

func TestMonoidLaws(t *testing.T) {
	small := func(r *rand.Rand) int8 { return int8(r.Uint32()) }
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"add-int8", func(t *testing.T) { laws(t, simulate.Add[int8]{}, small) }},
		{"add-uint64", func(t *testing.T) { laws(t, simulate.Add[uint64]{}, (*rand.Rand).Uint64) }},
		{"max-int8", func(t *testing.T) { laws(t, simulate.Max[int8]{}, small) }},
		{"max-int64", func(t *testing.T) { laws(t, simulate.Max[int64]{}, (*rand.Rand).Int64) }},
		{"max-uint16", func(t *testing.T) {
			laws(t, simulate.Max[uint16]{}, func(r *rand.Rand) uint16 { return uint16(r.Uint32()) })
		}},
		{"min-int8", func(t *testing.T) { laws(t, simulate.Min[int8]{}, small) }},
		{"min-int", func(t *testing.T) { laws(t, simulate.Min[int]{}, func(r *rand.Rand) int { return int(r.Uint64()) }) }},
		{"min-uint32", func(t *testing.T) { laws(t, simulate.Min[uint32]{}, (*rand.Rand).Uint32) }},
		{"xor-uint8", func(t *testing.T) {
			laws(t, simulate.Xor[uint8]{}, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) })
		}},
		{"affine", func(t *testing.T) {
			laws(t, simulate.Affine{}, func(r *rand.Rand) simulate.AffineMap {
				return simulate.AffineMap{A: r.Uint64(), B: r.Uint64()}
			})
		}},
		{"matrix2-prime", func(t *testing.T) { laws(t, simulate.Matrix2{Mod: prime}, randMat(prime)) }},
		{"matrix2-big-mod", func(t *testing.T) {
			const mod = math.MaxUint64 - 58 // the largest 64-bit prime
			laws(t, simulate.Matrix2{Mod: mod}, randMat(mod))
		}},
		{"matrix2-wrapping", func(t *testing.T) { laws(t, simulate.Matrix2{}, randMat(0)) }},
		{"segmented-add", func(t *testing.T) {
			laws(t, simulate.Segmented[int64]{Base: simulate.Add[int64]{}}, func(r *rand.Rand) simulate.Seg[int64] {
				return simulate.Seg[int64]{Head: r.IntN(3) == 0, Value: r.Int64N(100)}
			})
		}},
		{"segmented-matrix2", func(t *testing.T) {
			mat := randMat(prime)
			laws(t, simulate.Segmented[simulate.Mat2]{Base: simulate.Matrix2{Mod: prime}}, func(r *rand.Rand) simulate.Seg[simulate.Mat2] {
				return simulate.Seg[simulate.Mat2]{Head: r.IntN(3) == 0, Value: mat(r)}
			})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

func TestIdentityValues(t *testing.T) {
	assert.Equal(t, int8(math.MinInt8), simulate.Max[int8]{}.Identity())
	assert.Equal(t, int64(math.MinInt64), simulate.Max[int64]{}.Identity())
	assert.Equal(t, uint32(0), simulate.Max[uint32]{}.Identity())
	assert.Equal(t, int8(math.MaxInt8), simulate.Min[int8]{}.Identity())
	assert.Equal(t, int(math.MaxInt), simulate.Min[int]{}.Identity())
	assert.Equal(t, uint16(math.MaxUint16), simulate.Min[uint16]{}.Identity())
	assert.Equal(t, ^uintptr(0), simulate.Min[uintptr]{}.Identity())
	assert.Equal(t, int32(0), simulate.Add[int32]{}.Identity())
	assert.Equal(t, uint8(0), simulate.Xor[uint8]{}.Identity())
	assert.Equal(t, simulate.AffineMap{A: 1, B: 0}, simulate.Affine{}.Identity())
	assert.Equal(t, simulate.Mat2{{1, 0}, {0, 1}}, simulate.Matrix2{Mod: prime}.Identity())
	assert.Equal(t, simulate.Mat2{{0, 0}, {0, 0}}, simulate.Matrix2{Mod: 1}.Identity())
	assert.Equal(t, simulate.Range{Empty: true}, simulate.Interval{}.Identity())
}

func TestCombineValues(t *testing.T) {
	assert.Equal(t, int8(-128), simulate.Add[int8]{}.Combine(127, 1), "wraps")
	assert.Equal(t, uint64(0), simulate.Add[uint64]{}.Combine(math.MaxUint64, 1), "wraps")
	assert.Equal(t, -3, simulate.Max[int]{}.Combine(-7, -3))
	assert.Equal(t, -7, simulate.Min[int]{}.Combine(-7, -3))
	assert.Equal(t, uint8(0b0110), simulate.Xor[uint8]{}.Combine(0b1100, 0b1010))

	// lo = x ↦ 2x + 3 first, then hi = x ↦ 5x + 7: 5(2x + 3) + 7 = 10x + 22.
	lo, hi := simulate.AffineMap{A: 2, B: 3}, simulate.AffineMap{A: 5, B: 7}
	f := simulate.Affine{}.Combine(lo, hi)
	assert.Equal(t, simulate.AffineMap{A: 10, B: 22}, f)
	assert.Equal(t, hi.Apply(lo.Apply(4)), f.Apply(4))
	assert.Equal(t, uint64(62), f.Apply(4))

	m := simulate.Matrix2{Mod: 11}
	a, b := simulate.Mat2{{1, 2}, {3, 4}}, simulate.Mat2{{5, 6}, {7, 8}}
	assert.Equal(t, simulate.Mat2{{19 % 11, 22 % 11}, {43 % 11, 50 % 11}}, m.Combine(a, b))
}

func TestMatrix2NotCommutative(t *testing.T) {
	m := simulate.Matrix2{Mod: prime}
	a, b := simulate.Mat2{{1, 1}, {0, 1}}, simulate.Mat2{{1, 0}, {1, 1}}
	assert.Equal(t, simulate.Mat2{{2, 1}, {1, 1}}, m.Combine(a, b))
	assert.Equal(t, simulate.Mat2{{1, 1}, {1, 2}}, m.Combine(b, a))
}

// TestMatrix2AgainstBig checks the 128-bit products and their reduction,
// including sums above 2^128, against math/big.
func TestMatrix2AgainstBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, mod := range []uint64{2, prime, 1<<63 + 1, math.MaxUint64 - 58, math.MaxUint64} {
		m := simulate.Matrix2{Mod: mod}
		for range 300 {
			a, b := randMat(mod)(rng), randMat(mod)(rng)
			if rng.IntN(4) == 0 { // the largest entries
				a, b = simulate.Mat2{{mod - 1, mod - 1}, {mod - 1, mod - 1}}, simulate.Mat2{{mod - 1, mod - 2}, {mod - 1, mod - 1}}
			}
			got := m.Combine(a, b)
			for i := range 2 {
				for j := range 2 {
					want := new(big.Int).Mul(u(a[i][0]), u(b[0][j]))
					want.Add(want, new(big.Int).Mul(u(a[i][1]), u(b[1][j])))
					want.Mod(want, u(mod))
					require.Equal(t, want.Uint64(), got[i][j], "mod %d, %v × %v at [%d][%d]", mod, a, b, i, j)
				}
			}
		}
	}
}

func u(x uint64) *big.Int { return new(big.Int).SetUint64(x) }

func TestSegmentedCombine(t *testing.T) {
	s := simulate.Segmented[int]{Base: simulate.Add[int]{}}
	seg := func(head bool, v int) simulate.Seg[int] { return simulate.Seg[int]{Head: head, Value: v} }
	tests := []struct {
		lo, hi, want simulate.Seg[int]
	}{
		{seg(false, 3), seg(false, 4), seg(false, 7)},
		{seg(true, 3), seg(false, 4), seg(true, 7)},
		{seg(false, 3), seg(true, 4), seg(true, 4)},
		{seg(true, 3), seg(true, 4), seg(true, 4)},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, s.Combine(tt.lo, tt.hi), "Combine(%v, %v)", tt.lo, tt.hi)
	}
	// Not commutative.
	assert.NotEqual(t, s.Combine(seg(true, 3), seg(false, 4)), s.Combine(seg(false, 4), seg(true, 3)))
}

func TestIntervalCombine(t *testing.T) {
	iv := simulate.Interval{}
	r := func(from, to int) simulate.Range { return simulate.Range{From: from, To: to} }
	empty := iv.Identity()
	assert.Equal(t, r(0, 7), iv.Combine(r(0, 3), r(4, 7)))
	assert.Equal(t, r(2, 2), iv.Combine(empty, simulate.Unit(2)))
	assert.Equal(t, r(2, 2), iv.Combine(simulate.Unit(2), empty))
	assert.Equal(t, empty, iv.Combine(empty, empty))
	assert.Equal(t, "[4,9]", r(4, 9).String())
	assert.Equal(t, "[]", empty.String())

	tests := []struct {
		lo, hi simulate.Range
		want   string
	}{
		{r(0, 3), r(5, 7), "simulate: interval combine of [0,3] and [5,7]: not adjacent"},
		{r(4, 7), r(0, 3), "simulate: interval combine of [4,7] and [0,3]: operands swapped"},
		{r(0, 3), r(3, 7), "simulate: interval combine of [0,3] and [3,7]: not adjacent"},
		{r(5, 5), r(0, 1), "simulate: interval combine of [5,5] and [0,1]: not adjacent"},
	}
	for _, tt := range tests {
		assert.PanicsWithValue(t, tt.want, func() { iv.Combine(tt.lo, tt.hi) })
	}
}
