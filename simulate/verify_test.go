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
	// Above 256 bits: the lowest and highest 64 positions and 2^k−1, 2^k,
	// 2^k+1 for 64 ≤ 2^k < n, without repeats. For n = 1000: positions 0…63,
	// 936…999, and 64, 65 (63 already counted), 127, 128, 129, 255, 256,
	// 257, 511, 512, 513: 128 + 11 = 139 positions.
	r, err := simulate.VerifyAdder(built(t, "kogge-stone", 1000), simulate.VerifyOptions{})
	require.NoError(t, err)
	assert.Equal(t, 13+3*139, r.Corner)
	assert.Zero(t, r.Random)
}

func TestVerifyAdderBadOptions(t *testing.T) {
	_, err := simulate.VerifyAdder(built(t, "sklansky", 4), simulate.VerifyOptions{Vectors: -1})
	assert.EqualError(t, err, "simulate: -1 vectors: want 0 or more")
}

func bigInt(x int64) *big.Int { return big.NewInt(x) }
