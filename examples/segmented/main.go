package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

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
	fmt.Fprintf(w, "segment sums: %s\n", head(totals, 12))
	fmt.Fprintf(w, "checked against a plain loop that restarts at every head: all %d running sums equal\n", n)
	return nil
}

// head prints the first k elements of s, and how many more there are.
func head(s []int, k int) string {
	if len(s) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, v := range s[:min(k, len(s))] {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, v)
	}
	if len(s) > k {
		fmt.Fprintf(&b, " … (%d more)", len(s)-k)
	}
	return b.String()
}

// setup parses the flags and builds the network. It returns a nil network
// and no error when -h asked for help.
func setup(w io.Writer, args []string) (*network.Network, int, uint64, error) {
	fs := flag.NewFlagSet("segmented", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	topo := fs.String("t", "han-carlson", "topology: "+strings.Join(topologies.Names(), ", "))
	n := fs.Int("n", 100, "number of elements, ≥ 1")
	seed := fs.Uint64("seed", 1, "seed of the random numbers and heads")
	var params []string
	fs.Func("param", "topology parameter `name=value`, such as k=1 for ladner-fischer; repeatable", func(s string) error {
		params = append(params, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(w)
			fs.PrintDefaults()
			return nil, 0, 0, nil
		}
		return nil, 0, 0, fmt.Errorf("segmented: %v", err)
	}
	if fs.NArg() > 0 {
		return nil, 0, 0, fmt.Errorf("segmented: unexpected argument %q: only flags are allowed", fs.Arg(0))
	}
	p, err := topologies.ParseParams(params)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("segmented: %w", err)
	}
	net, err := topologies.Build(*topo, *n, p)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("segmented: %w", err)
	}
	return net, *n, *seed, nil
}
