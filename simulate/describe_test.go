package simulate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// Library cells of both kinds for the descriptions that place them: the
// functions are what the description says, whatever the names.
var (
	pgCells = adder.Cells{
		NAND2: adder.Cell{Name: "NAND2", Inputs: []string{"A", "B"}, Output: "Y"},
		OAI21: adder.Cell{Name: "OAI21", Inputs: []string{"A1", "A2", "B"}, Output: "Y"},
	}
	invertedFA = adder.Cells{FA: adder.FullAdder{Cell: adder.Cell{Name: "FAI", Inputs: []string{"A", "B", "CI"}, Output: "CON"}, Sum: "SN", Inverted: true}}
)

// Every architecture an adder document records computes a + b + cin, by
// its description, at widths that divide the sparseness and do not.
func TestVerifyDescription(t *testing.T) {
	for _, tc := range []struct {
		topo  string
		n, v  int
		arch  adder.Architecture
		cells *adder.Cells
	}{
		{"sklansky", 8, 2, adder.Standard, nil},
		{"sklansky", 16, 2, adder.Architecture{Flags: adder.Carry, Sparse: 2, Ling: true}, nil},
		{"kogge-stone", 19, 2, adder.Architecture{Flags: adder.Carry, Sparse: 4}, nil},
		{"brent-kung", 64, 2, adder.Architecture{Flags: adder.Carry, Sparse: 8, Ling: true}, nil},
		{"kogge-stone", 20, 3, adder.Architecture{Flags: adder.Carry, Valency: 3, Stages: 2}, nil},
		{"sklansky", 9, 4, adder.Architecture{Flags: adder.Carry, Valency: 4, Stages: 3, NoReset: true}, nil},
		{"han-carlson", 32, 2, adder.Architecture{Flags: adder.Carry, PGCells: true}, &pgCells},
		{"ripple", 12, 2, adder.Architecture{Flags: adder.Carry, FACells: true}, &invertedFA},
		{"sklansky", 24, 2, adder.Architecture{Flags: adder.Carry, FACells: true, Sparse: 4, Increment: true}, &invertedFA},
	} {
		net, err := topologies.Build(tc.topo, tc.n, nil)
		if tc.v > 2 {
			net, err = topologies.Valency(tc.topo, tc.n, tc.v)
		}
		require.NoError(t, err)
		d, err := adder.Describe(net, tc.arch, tc.cells)
		require.NoError(t, err, tc.arch.Name())
		r, err := simulate.VerifyDescription(d, simulate.VerifyOptions{Vectors: 2000, Seed: 3})
		require.NoError(t, err, tc.arch.Name())
		assert.Nil(t, r.Mismatch, "%s %s", tc.topo, tc.arch.Name())
		assert.Equal(t, 2000, r.Random)
		assert.Positive(t, r.Corner)
	}
}

// A wrong gate anywhere in a description is found: each planted bug turns
// one gate of a sparse Ling adder into another.
func TestVerifyDescriptionFindsPlantedBugs(t *testing.T) {
	net, err := topologies.Build("kogge-stone", 16, nil)
	require.NoError(t, err)
	arch := adder.Architecture{Flags: adder.Carry, Sparse: 4, Ling: true, Stages: 1}
	count := 0
	for sec := 0; ; sec++ {
		d, err := adder.Describe(net, arch, nil)
		require.NoError(t, err)
		if sec >= len(d.Sections) {
			break
		}
		for i, a := range d.Sections[sec].Assigns {
			e := &d.Sections[sec].Assigns[i].Expr
			switch e.Op {
			case adder.OpAnd:
				e.Op = adder.OpOr
			case adder.OpOr, adder.OpXor:
				e.Op = adder.OpAnd
			default:
				continue
			}
			r, err := simulate.VerifyDescription(d, simulate.VerifyOptions{Vectors: 500, Seed: 1})
			require.NoError(t, err)
			assert.NotNil(t, r.Mismatch, "%s = %v planted", a.Target, e.Op)
			e.Op = a.Expr.Op
			count++
		}
	}
	assert.Greater(t, count, 20)
}

// Only a + b + cin is verified; a description that reads an undeclared
// signal is an error, not a verdict.
func TestVerifyDescriptionErrors(t *testing.T) {
	net, err := topologies.Build("sklansky", 8, nil)
	require.NoError(t, err)
	d, err := adder.Describe(net, adder.Architecture{Op: adder.Sub, Flags: adder.Carry}, nil)
	require.NoError(t, err)
	_, err = simulate.VerifyDescription(d, simulate.VerifyOptions{})
	assert.EqualError(t, err, "simulate: VerifyDescription checks {cout, sum} = a + b + cin: not sub")

	d, err = adder.Describe(net, adder.Standard, nil)
	require.NoError(t, err)
	last := &d.Sections[len(d.Sections)-1].Assigns[0]
	last.Expr = adder.Expr{Op: adder.OpRef, Ref: adder.Whole("nowhere")}
	_, err = simulate.VerifyDescription(d, simulate.VerifyOptions{})
	assert.ErrorContains(t, err, "simulate: the description reads nowhere, which it does not declare")
	_, err = simulate.VerifyDescription(d, simulate.VerifyOptions{Vectors: -1})
	assert.Error(t, err)
}
