package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
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
	fmt.Fprintf(w, "kept %d of %d: %s\n", kept, n, head(out, 12))
	fmt.Fprintf(w, "checked against a plain loop: the same %d elements in the same order\n", kept)
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
	fs := flag.NewFlagSet("compaction", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	topo := fs.String("t", "brent-kung", "topology: "+strings.Join(topologies.Names(), ", "))
	n := fs.Int("n", 100, "number of elements, ≥ 1")
	seed := fs.Uint64("seed", 1, "seed of the random stream")
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
		return nil, 0, 0, fmt.Errorf("compaction: %v", err)
	}
	if fs.NArg() > 0 {
		return nil, 0, 0, fmt.Errorf("compaction: unexpected argument %q: only flags are allowed", fs.Arg(0))
	}
	p, err := topologies.ParseParams(params)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("compaction: %w", err)
	}
	net, err := topologies.Build(*topo, *n, p)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("compaction: %w", err)
	}
	return net, *n, *seed, nil
}
