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

// run parses args, computes random segmented sums through the network,
// checks them against a loop and writes what it did to w.
func run(w io.Writer, args []string) error {
	net, n, seed, err := setup(w, args)
	if err != nil || net == nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	in := make([]simulate.Seg[int], n)
	for i := range in {
		// Input 0 always starts a segment; about one input in six more does.
		in[i] = simulate.Seg[int]{Head: i == 0 || rng.IntN(6) == 0, Value: rng.IntN(19) - 9}
	}

	m := simulate.Segmented[int]{Base: simulate.Add[int]{}}
	out := simulate.Eval(net, m, in)

	var totals []int // the segments' sums, read off their last outputs
	sum := 0         // the plain loop, alongside
	for i, s := range in {
		if s.Head {
			sum = 0
		}
		sum += s.Value
		if out[i].Value != sum {
			return fmt.Errorf("segmented: output %d is %d through %s, %d by the loop", i, out[i].Value, emit.Name(net), sum)
		}
		if i == n-1 || in[i+1].Head {
			totals = append(totals, out[i].Value)
		}
	}
	fmt.Fprintf(w, "segmented sums of %d random numbers in −9…9 (seed %d), %d segments\n", n, seed, len(totals))
	fmt.Fprintf(w, "scan of the segmented lift of + through %s: depth %d, %d cells\n", emit.Name(net), net.Depth(), net.Size())
	fmt.Fprintf(w, "segment sums: %s\n", program.Head(totals, 12))
	fmt.Fprintf(w, "checked against a plain loop that restarts at every head: all %d running sums equal\n", n)
	return nil
}

// setup parses the flags and builds the network. It returns a nil network
// and no error when -h asked for help.
func setup(w io.Writer, args []string) (*network.Network, int, uint64, error) {
	fs := program.NewFlags("segmented", "han-carlson")
	n := fs.Int("n", 100, "number of elements, ≥ 1")
	seed := fs.Uint64("seed", 1, "seed of the random numbers and heads")
	net, err := fs.Network(w, args, n)
	return net, *n, *seed, err
}
