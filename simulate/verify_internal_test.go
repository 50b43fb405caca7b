package simulate

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// The planted bugs wrap a correct adder and break it in one way each.

// built returns the named topology at width n, default parameters.
func built(t testing.TB, name string, n int) *network.Network {
	t.Helper()
	net, err := topologies.Build(name, n, nil)
	require.NoError(t, err)
	return net
}

// ignoreCin drops the carry-in: the corner 0 + 0 + 1 catches it.
func ignoreCin(good addFunc) addFunc {
	return func(sum, x, y []uint64, cin uint64) uint64 { return good(sum, x, y, 0) }
}

// breakAt flips the sum's top bit in every lane where the pattern x[3]
// ∧ ¬x[4] ∧ y[7] ∧ ¬y[8] ∧ x[50] holds, which none of the 64-bit corner
// vectors has and one random vector in 32 has.
func breakAt(good addFunc) addFunc {
	return func(sum, x, y []uint64, cin uint64) uint64 {
		cout := good(sum, x, y, cin)
		sum[63] ^= x[3] &^ x[4] & y[7] &^ y[8] & x[50]
		return cout
	}
}

// breakOne gets one 6-bit sum wrong, 37 + 21 + 1, which only the
// exhaustive phase reaches.
func breakOne(good addFunc) addFunc {
	return func(sum, x, y []uint64, cin uint64) uint64 {
		cout := good(sum, x, y, cin)
		hit := cin
		for i := range 6 {
			hit &= bitMask(x[i], 37>>i&1) & bitMask(y[i], 21>>i&1)
		}
		sum[2] ^= hit
		return cout
	}
}

// bitMask returns w where bit is 1 and ^w where it is 0.
func bitMask(w uint64, bit int) uint64 {
	if bit == 1 {
		return w
	}
	return ^w
}

func TestVerifyFindsPlantedBugs(t *testing.T) {
	good := func(n int) addFunc { return carry.NewAdder(built(t, "kogge-stone", n)).Add }
	tests := []struct {
		name     string
		n        int
		add, ref addFunc
		vectors  int
		want     AdderReport
		message  string
	}{
		{
			name: "carry-in ignored, caught by a corner",
			n:    8, add: ignoreCin(good(8)), ref: carry.Ripple, vectors: 100,
			want:    AdderReport{Width: 8, Corner: 13 + 3*8},
			message: "0x0 + 0x0 + 1: got 0x0, want 0x1",
		},
		{
			name: "one sum wrong, caught by the exhaustive phase",
			n:    6, add: breakOne(good(6)), ref: carry.Ripple, vectors: 100,
			want:    AdderReport{Width: 6, Corner: 13 + 3*6, Exhaustive: (37+21<<6+1<<12)/64*64 + 64}, // the batch of vector a + b·2^6 + cin·2^12,
			message: "0x25 + 0x15 + 1: got 0x3f, want 0x3b",
		},
		{
			name: "rare pattern, caught against the reference",
			n:    64, add: breakAt(good(64)), ref: carry.Ripple, vectors: 1 << 12,
		},
		{
			// The same bug in the adder and in the reference: only the lane
			// checked against math/big in every batch can see it.
			name: "reference broken the same way, caught by math/big",
			n:    64, add: breakAt(good(64)), ref: breakAt(carry.Ripple), vectors: 1 << 14,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := verify(tt.n, tt.add, tt.ref, VerifyOptions{Vectors: tt.vectors, Seed: 7})
			require.NotNil(t, r.Mismatch)
			m := r.Mismatch
			if tt.message != "" {
				assert.Equal(t, tt.message, m.String())
				got := r
				got.Mismatch = nil
				assert.Equal(t, tt.want, got)
			} else {
				assert.Equal(t, 13+3*64, r.Corner)
				assert.Positive(t, r.Random)
				assert.Less(t, r.Random, tt.vectors)
			}
			// Whatever caught it, the report is exact: Want is a + b + cin,
			// and Got differs from it.
			want := new(big.Int).Add(m.A, m.B)
			if m.Cin {
				want.Add(want, big.NewInt(1))
			}
			assert.Zero(t, want.Cmp(m.Want))
			assert.NotZero(t, m.Got.Cmp(m.Want))
		})
	}
}

// TestVerifyPanicsOnBrokenReference: an adder right where the reference is
// wrong means the reference has a bug, which is not the adder's to report.
func TestVerifyPanicsOnBrokenReference(t *testing.T) {
	good := carry.NewAdder(built(t, "kogge-stone", 64)).Add
	assert.PanicsWithValue(t, "simulate: the reference adder disagrees with math/big in lane 0 of random batch 0", func() {
		verify(64, good, ignoreCin(carry.Ripple), VerifyOptions{Vectors: 64})
	})
}
