package simulate_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/simulate"
)

func TestVerifyAdderHandNets(t *testing.T) {
	tests := []struct {
		name                       string
		width                      int
		corner, exhaustive, random int
	}{
		{"ripple-1", 1, 13 + 3, 8, 1000},
		{"ripple-2", 2, 13 + 6, 32, 1000},
		{"ripple-9", 9, 13 + 27, 1 << 19, 1000},
		{"sklansky-4", 4, 13 + 12, 512, 1000},
		{"kogge-stone-8", 8, 13 + 24, 1 << 17, 1000},
		{"kogge-stone-13", 13, 13 + 39, 0, 1000},
	}
	nets := smallNets(t)
	require.Len(t, nets, len(tests))
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := simulate.VerifyAdder(nets[i], simulate.VerifyOptions{Vectors: tt.random, Seed: 1})
			require.NoError(t, err)
			assert.Equal(t, simulate.AdderReport{
				Width: tt.width, Corner: tt.corner, Exhaustive: tt.exhaustive, Random: tt.random,
			}, r)
		})
	}
}

func TestVerifyAdderWide(t *testing.T) {
	for _, n := range []int{63, 64, 65, 256, 257, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			r, err := simulate.VerifyAdder(built(t, "kogge-stone", n), simulate.VerifyOptions{Vectors: 2000, Seed: uint64(n)})
			require.NoError(t, err)
			assert.Nil(t, r.Mismatch)
			assert.Equal(t, 2000, r.Random)
			assert.Zero(t, r.Exhaustive)
		})
	}
}

func TestVerifyAdderCornerCount(t *testing.T) {
	// Up to 256 bits every position gets the three single-bit vectors.
	// Above: the lowest and highest 64 positions and 2^k−1, 2^k, 2^k+1 for
	// 64 ≤ 2^k < n, without repeats. For n = 300: positions 0…63, 236…299
	// (which hold 255, 256, 257), and 64, 65, 127, 128, 129: 128 + 5 = 133
	// positions. For
	// n = 1000: positions 0…63, 936…999, and 64, 65 (63 already counted),
	// 127, 128, 129, 255, 256, 257, 511, 512, 513: 128 + 11 = 139 positions.
	for _, tt := range []struct{ n, positions int }{
		{n: 200, positions: 200},
		{n: 256, positions: 256},
		{n: 300, positions: 133},
		{n: 1000, positions: 139},
	} {
		r, err := simulate.VerifyAdder(built(t, "kogge-stone", tt.n), simulate.VerifyOptions{})
		require.NoError(t, err)
		assert.Equal(t, 13+3*tt.positions, r.Corner, "width %d", tt.n)
		assert.Zero(t, r.Random)
	}
}

// TestVerifyAdderExhaustiveLimit: MaxExhaustiveWidth itself is still checked
// on all 2^(2n+1) vectors; one bit wider is not.
func TestVerifyAdderExhaustiveLimit(t *testing.T) {
	n := simulate.MaxExhaustiveWidth
	r, err := simulate.VerifyAdder(built(t, "ripple", n), simulate.VerifyOptions{})
	require.NoError(t, err)
	assert.Nil(t, r.Mismatch)
	assert.Equal(t, 1<<(2*n+1), r.Exhaustive)
	r, err = simulate.VerifyAdder(built(t, "ripple", n+1), simulate.VerifyOptions{})
	require.NoError(t, err)
	assert.Zero(t, r.Exhaustive)
}

// TestVerifyAdderProgress: Progress is called on the first random batch,
// every 1024th batch after it and the last one, with the vectors done so
// far: 1030 batches of 64 give three calls.
func TestVerifyAdderProgress(t *testing.T) {
	const vectors = 64 * 1030
	var calls [][2]int
	r, err := simulate.VerifyAdder(built(t, "kogge-stone", 16), simulate.VerifyOptions{
		Vectors:  vectors,
		Seed:     5,
		Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) },
	})
	require.NoError(t, err)
	assert.Equal(t, vectors, r.Random)
	assert.Equal(t, [][2]int{{64, vectors}, {64 * 1025, vectors}, {vectors, vectors}}, calls)
}

func TestVerifyAdderBadOptions(t *testing.T) {
	_, err := simulate.VerifyAdder(built(t, "sklansky", 4), simulate.VerifyOptions{Vectors: -1})
	assert.EqualError(t, err, "simulate: -1 vectors: want 0 or more")
}

func bigInt(x int64) *big.Int { return big.NewInt(x) }
