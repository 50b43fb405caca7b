package simulate_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// built returns the named topology at width n, default parameters.
func built(t testing.TB, name string, n int) *network.Network {
	t.Helper()
	net, err := topologies.Build(name, n, nil)
	require.NoError(t, err)
	return net
}

// smallNets are the small networks the tests run on.
func smallNets(t testing.TB) []*network.Network {
	return []*network.Network{
		built(t, "ripple", 1), built(t, "ripple", 2), built(t, "ripple", 9),
		built(t, "sklansky", 4),
		built(t, "kogge-stone", 8), built(t, "kogge-stone", 13),
	}
}

// agree checks Eval against Scan over m on the given inputs.
func agree[T any](t *testing.T, net *network.Network, m simulate.Monoid[T], in []T) {
	t.Helper()
	assert.Equal(t, simulate.Scan(m, in), simulate.Eval(net, m, in))
}

func TestEvalEqualsScan(t *testing.T) {
	for _, net := range smallNets(t) {
		n := net.Width()
		t.Run(fmt.Sprintf("%d-cells-%d", n, net.Size()), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(n), 21))
			ranges := make([]simulate.Range, n)
			mats := make([]simulate.Mat2, n)
			maps := make([]simulate.AffineMap, n)
			segs := make([]simulate.Seg[int64], n)
			ints := make([]int32, n)
			for i := range n {
				ranges[i] = simulate.Unit(i)
				mats[i] = randMat(prime)(rng)
				maps[i] = simulate.AffineMap{A: rng.Uint64(), B: rng.Uint64()}
				segs[i] = simulate.Seg[int64]{Head: rng.IntN(3) == 0, Value: rng.Int64N(1000) - 500}
				ints[i] = int32(rng.Uint32())
			}
			agree(t, net, simulate.Interval{}, ranges)
			agree(t, net, simulate.Matrix2{Mod: prime}, mats)
			agree(t, net, simulate.Affine{}, maps)
			agree(t, net, simulate.Segmented[int64]{Base: simulate.Add[int64]{}}, segs)
			agree(t, net, simulate.Add[int32]{}, ints)
			agree(t, net, simulate.Max[int32]{}, ints)
			agree(t, net, simulate.Min[int32]{}, ints)
			agree(t, net, simulate.Xor[int32]{}, ints)

			out := simulate.Eval(net, simulate.Interval{}, ranges)
			for i, r := range out {
				assert.Equal(t, simulate.Range{From: 0, To: i}, r)
			}
		})
	}
}

// carry.Monoid satisfies Monoid without carry importing simulate.
var _ simulate.Monoid[carry.GP] = carry.Monoid{}

func TestEvalCarryMonoid(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, net := range smallNets(t) {
		in := make([]carry.GP, net.Width())
		for range 50 {
			for i := range in {
				in[i] = carry.GP{G: rng.IntN(2) == 0, P: rng.IntN(2) == 0}
			}
			require.Equal(t, simulate.Scan(carry.Monoid{}, in), simulate.Eval(net, carry.Monoid{}, in))
		}
	}
}

func TestScanValues(t *testing.T) {
	assert.Equal(t, []int{3, 4, 8, 9, 14}, simulate.Scan(simulate.Add[int]{}, []int{3, 1, 4, 1, 5}))
	assert.Equal(t, []int{3, 3, 4, 4, 5}, simulate.Scan(simulate.Max[int]{}, []int{3, 1, 4, 1, 5}))
	assert.Empty(t, simulate.Scan(simulate.Add[int]{}, nil))
}

func TestEvalPanicsOnWidth(t *testing.T) {
	assert.PanicsWithValue(t, "simulate: 3 inputs for a network of width 4", func() {
		simulate.Eval(built(t, "sklansky", 4), simulate.Add[int]{}, []int{1, 2, 3})
	})
}

// wrongEval is Eval with the planted bug of a swapped operand order.
func wrongEval[T any](net *network.Network, m simulate.Monoid[T], in []T) []T {
	v := make([]T, net.Signals())
	copy(v, in)
	for k := range net.Size() {
		c := net.Cell(k)
		v[net.CellSignal(k)] = m.Combine(v[c.Hi], v[c.Lo])
	}
	out := make([]T, net.Width())
	for i := range out {
		out[i] = v[net.Output(i)]
	}
	return out
}

func TestIntervalCatchesSwappedEvaluator(t *testing.T) {
	tests := []struct {
		net  *network.Network
		want string
	}{
		{built(t, "ripple", 5), "simulate: interval combine of [1,1] and [0,0]: operands swapped"},
		{built(t, "sklansky", 4), "simulate: interval combine of [1,1] and [0,0]: operands swapped"},
	}
	for _, tt := range tests {
		in := make([]simulate.Range, tt.net.Width())
		for i := range in {
			in[i] = simulate.Unit(i)
		}
		assert.PanicsWithValue(t, tt.want, func() { wrongEval(tt.net, simulate.Interval{}, in) })
		assert.NotPanics(t, func() { simulate.Eval(tt.net, simulate.Interval{}, in) })
	}
	// A commutative monoid cannot see the bug; a non-commutative one can.
	net := built(t, "kogge-stone", 8)
	ints := []int{1, 2, 3, 4, 5, 6, 7, 8}
	assert.Equal(t, simulate.Scan(simulate.Add[int]{}, ints), wrongEval(net, simulate.Add[int]{}, ints))
	maps := make([]simulate.AffineMap, 8)
	for i := range maps {
		maps[i] = simulate.AffineMap{A: uint64(i + 2), B: uint64(3*i + 1)}
	}
	assert.NotEqual(t, simulate.Scan(simulate.Affine{}, maps), wrongEval(net, simulate.Affine{}, maps))
}
