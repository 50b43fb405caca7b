package simulate_test

import (
	"errors"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

func TestVerify(t *testing.T) {
	for _, top := range topologies.All() {
		t.Run(top.Name, func(t *testing.T) {
			net, err := top.Build(37, nil)
			require.NoError(t, err)
			r, err := simulate.Verify(net, simulate.VerifyOptions{Vectors: 640, Seed: 3})
			require.NoError(t, err)
			assert.True(t, r.OK(), r.Failure())
			assert.Empty(t, r.Failure())
			assert.Equal(t, 37, r.Width)
			assert.Nil(t, r.Interval)
			assert.Nil(t, r.Matrix)
			assert.Equal(t, 640, r.Adder.Random)
		})
	}
}

func TestVerifyRefusesNegativeVectors(t *testing.T) {
	net, err := topologies.Ripple(4)
	require.NoError(t, err)
	_, err = simulate.Verify(net, simulate.VerifyOptions{Vectors: -2})
	assert.EqualError(t, err, "simulate: -2 vectors: want 0 or more")
}

func TestReportFailure(t *testing.T) {
	mismatch := &simulate.Mismatch{A: big.NewInt(1), B: big.NewInt(1), Cin: true, Got: big.NewInt(1), Want: big.NewInt(3)}
	tests := []struct {
		report simulate.Report
		want   string
	}{
		{simulate.Report{Width: 2, Interval: errors.New("simulate: interval x"), Matrix: errors.New("simulate: matrix y")}, "simulate: interval x"},
		{simulate.Report{Width: 2, Matrix: errors.New("simulate: matrix y")}, "simulate: matrix y"},
		{simulate.Report{Width: 2, Adder: simulate.AdderReport{Mismatch: mismatch}}, "simulate: 2-bit adder: 0x1 + 0x1 + 1: got 0x1, want 0x3"},
	}
	for _, tt := range tests {
		assert.False(t, tt.report.OK())
		assert.Equal(t, tt.want, tt.report.Failure())
	}
}
