package main

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/examples/internal/program"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
)

func main() { program.Main(run) }

// run parses args, solves a random recurrence through the network, checks it
// against the loop and writes what it did to w.
func run(w io.Writer, args []string) error {
	net, n, x0, seed, err := setup(w, args)
	if err != nil || net == nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	maps := make([]simulate.AffineMap, n)
	for i := range maps {
		// Odd a_i: even ones would multiply x_{−1} away, mod 2^64, after
		// some 64 terms, and the later x_i would not depend on it.
		maps[i] = simulate.AffineMap{A: rng.Uint64() | 1, B: rng.Uint64()}
	}

	prefixes := simulate.Eval(net, simulate.Affine{}, maps)
	x := x0 // the plain loop, alongside
	for i, f := range prefixes {
		x = maps[i].A*x + maps[i].B
		if got := f.Apply(x0); got != x {
			return fmt.Errorf("recurrence: x_%d is %d through %s, %d by the loop", i, got, emit.Name(net), x)
		}
	}
	fmt.Fprintf(w, "x_i = a_i·x_{i−1} + b_i mod 2^64 for i = 0…%d, random odd a_i and b_i (seed %d), x_{−1} = %d\n", n-1, seed, x0)
	fmt.Fprintf(w, "composed the maps x ↦ a_i·x + b_i through %s: depth %d, %d cells\n", emit.Name(net), net.Depth(), net.Size())
	last := prefixes[n-1]
	fmt.Fprintf(w, "x_%d = %d: the composed map is x ↦ %d·x + %d\n", n-1, last.Apply(x0), last.A, last.B)
	fmt.Fprintf(w, "checked against the plain loop x = a_i·x + b_i: all %d values equal\n", n)
	return nil
}

// setup parses the flags and builds the network. It returns a nil network
// and no error when -h asked for help.
func setup(w io.Writer, args []string) (*network.Network, int, uint64, uint64, error) {
	fs := program.NewFlags("recurrence", "kogge-stone")
	n := fs.Int("n", 100, "number of terms, ≥ 1")
	x0 := fs.Uint64("x0", 1, "the initial value x_{−1}")
	seed := fs.Uint64("seed", 1, "seed of the random coefficients")
	net, err := fs.Network(w, args, n)
	return net, *n, *x0, *seed, err
}
