package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/examples/internal/program"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
)

func main() { program.Main(run) }

// keep is the test an element must pass to stay: being a multiple of 3.
func keep(v int) bool { return v%3 == 0 }

// run parses args, compacts a random stream through the network, checks the
// result against a loop and writes what it did to w.
func run(w io.Writer, args []string) error {
	net, n, seed, err := setup(w, args)
	if err != nil || net == nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	in := make([]int, n)
	flags := make([]int, n)
	for i := range in {
		in[i] = rng.IntN(100)
		if keep(in[i]) {
			flags[i] = 1
		}
	}

	// Exclusive scan: the inclusive prefix sums moved one place up, 0 first.
	m := simulate.Add[int]{}
	inclusive := simulate.Eval(net, m, flags)
	exclusive := append([]int{m.Identity()}, inclusive[:n-1]...)
	kept := inclusive[n-1]
	out := make([]int, kept)
	for i, v := range in {
		if flags[i] == 1 {
			out[exclusive[i]] = v
		}
	}

	var want []int // the plain loop
	for _, v := range in {
		if keep(v) {
			want = append(want, v)
		}
	}
	if !slices.Equal(out, want) {
		return fmt.Errorf("compaction: the scan through %s kept %v, the loop %v", emit.Name(net), out, want)
	}
	fmt.Fprintf(w, "stream compaction of %d random numbers below 100 (seed %d), keeping the multiples of 3\n", n, seed)
	fmt.Fprintf(w, "exclusive scan of the keep-flags through %s: depth %d, %d cells\n", emit.Name(net), net.Depth(), net.Size())
	fmt.Fprintf(w, "kept %d of %d: %s\n", kept, n, program.Head(out, 12))
	fmt.Fprintf(w, "checked against a plain loop: the same %d elements in the same order\n", kept)
	return nil
}

// setup parses the flags and builds the network. It returns a nil network
// and no error when -h asked for help.
func setup(w io.Writer, args []string) (*network.Network, int, uint64, error) {
	fs := program.NewFlags("compaction", "brent-kung")
	n := fs.Int("n", 100, "number of elements, ≥ 1")
	seed := fs.Uint64("seed", 1, "seed of the random stream")
	net, err := fs.Network(w, args, n)
	return net, *n, *seed, err
}
