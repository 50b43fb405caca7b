package simulate_test

import (
	"bytes"
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

	// A description a user builds by hand is refused where it is
	// malformed, never a panic.
	a := adder.Expr{Op: adder.OpRef, Ref: adder.Bit("a", 0)}
	for _, tc := range []struct {
		expr adder.Expr
		want string
	}{
		{adder.Expr{Op: adder.OpAnd}, "simulate: the description has an AND of 0 arguments: allowed 2 or more"},
		{adder.Expr{Op: adder.OpXor, Args: []adder.Expr{a}}, "simulate: the description has an XOR of 1 argument: allowed 2 or more"},
		{adder.Expr{Op: adder.OpNot}, "simulate: the description has a NOT of 0 arguments: allowed 1"},
		{adder.Expr{Op: adder.OpReduceOr}, "simulate: the description has a reducing OR of 0 arguments: allowed 1"},
		{adder.Expr{Op: adder.OpMux, Args: []adder.Expr{a}}, "simulate: the description has a multiplexer of 1 argument: allowed 3"},
		{adder.Expr{Op: adder.OpRef, Ref: adder.Ref{Name: "a", Bit: -2}}, "simulate: the description reads bit -2 of a: allowed a bit from 0, or -1 for the whole signal"},
	} {
		last.Expr = tc.expr
		assert.NotPanics(t, func() {
			_, err = simulate.VerifyDescription(d, simulate.VerifyOptions{})
		})
		assert.EqualError(t, err, tc.want)
	}
}

// FuzzVerifyDocument: every adder a document describes, read as prefixgen
// reads --from, computes a + b + cin: its network is proven, and its
// description, evaluated gate by gate, must agree with math/big. Library
// cells are stand-ins whose functions the description states.
func FuzzVerifyDocument(f *testing.F) {
	net4 := `"network":{"format":"prefixgen.network/v1","width":4,"topology":"brent-kung","params":{},"cells":[[0,1],[2,3],[4,5],[4,2]],"outputs":[0,4,7,6]}`
	for _, s := range []string{
		`{"format":"prefixgen.adder/v1","sparse":2,"valency":2,"ling":true,` + net4 + `}`,
		`{"format":"prefixgen.adder/v1","sparse":1,"valency":3,"ling":false,"stages":2,"no_reset":true,` + net4 + `}`,
		`{"format":"prefixgen.adder/v1","sparse":4,"valency":2,"ling":false,"pg_cells":true,` + net4 + `}`,
		`{"format":"prefixgen.adder/v1","sparse":2,"valency":2,"ling":true,"fa_cells":true,"increment":true,` + net4 + `}`,
		`{"format":"prefixgen.adder/v1","sparse":1,"valency":2,"ling":false,"fa_cells":true,"network":{"format":"prefixgen.network/v1","width":3,"cells":[[0,1],[3,2]],"outputs":[0,3,4]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		net, arch, err := adder.ReadDocument(bytes.NewReader(data))
		if err != nil || net.Width() > 64 || net.Size() > 2000 {
			return
		}
		cells := (*adder.Cells)(nil)
		if arch.PGCells || arch.FACells {
			both := adder.Cells{NAND2: pgCells.NAND2, OAI21: pgCells.OAI21, FA: invertedFA.FA}
			cells = &both
		}
		d, err := adder.Describe(net, arch, cells)
		if err != nil {
			t.Fatalf("a document read describes no adder: %v", err)
		}
		r, err := simulate.VerifyDescription(d, simulate.VerifyOptions{Vectors: 256, Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", arch.Name(), err)
		}
		if r.Mismatch != nil {
			t.Fatalf("%s, %d bits: %v", arch.Name(), net.Width(), r.Mismatch)
		}
	})
}
