package simulate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// swappedEval evaluates like Eval but applies every cell as op(Hi, Lo): the
// operand-order bug Verify exists to catch.
func swappedEval[T any](net *network.Network, m Monoid[T], in []T) []T {
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

func TestVerifyCatchesSwappedOperands(t *testing.T) {
	net, err := topologies.Sklansky(8)
	require.NoError(t, err)

	t.Run("interval", func(t *testing.T) {
		defer func(f func(*network.Network, Monoid[Range], []Range) []Range) { evalRanges = f }(evalRanges)
		evalRanges = swappedEval[Range]
		r, err := Verify(net, VerifyOptions{Seed: 1})
		require.NoError(t, err)
		assert.False(t, r.OK())
		assert.Equal(t, "simulate: interval combine of [1,1] and [0,0]: operands swapped", r.Failure())
		assert.NoError(t, r.Matrix)
	})
	t.Run("matrix", func(t *testing.T) {
		defer func(f func(*network.Network, Monoid[Mat2], []Mat2) []Mat2) { evalMatrices = f }(evalMatrices)
		evalMatrices = swappedEval[Mat2]
		r, err := Verify(net, VerifyOptions{Seed: 1})
		require.NoError(t, err)
		assert.False(t, r.OK())
		require.Error(t, r.Matrix)
		assert.Contains(t, r.Failure(), "simulate: 2×2 matrix evaluation: output 1 is ")
	})
}

// TestVerifyCatchesWrongStart: an interval evaluation whose output has the
// right end but the wrong start is caught too, not only one with the wrong
// end. The planted evaluator is right but for output 2, [1,2].
func TestVerifyCatchesWrongStart(t *testing.T) {
	net, err := topologies.Sklansky(8)
	require.NoError(t, err)
	defer func(f func(*network.Network, Monoid[Range], []Range) []Range) { evalRanges = f }(evalRanges)
	evalRanges = func(net *network.Network, m Monoid[Range], in []Range) []Range {
		out := Eval(net, m, in)
		out[2].From = 1
		return out
	}
	r, err := Verify(net, VerifyOptions{Seed: 1})
	require.NoError(t, err)
	assert.False(t, r.OK())
	assert.Equal(t, "simulate: interval evaluation: output 2 is [1,2], want [0,2]", r.Failure())
	assert.NoError(t, r.Matrix)
}
