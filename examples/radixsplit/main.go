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

// run parses args, splits random bytes by one bit through the network, checks
// the result against a loop and writes what it did to w.
func run(w io.Writer, args []string) error {
	net, n, bit, seed, err := setup(w, args)
	if err != nil || net == nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	in := make([]int, n)
	zeros, ones := make([]int, n), make([]int, n)
	for i := range in {
		in[i] = rng.IntN(256)
		if in[i]>>bit&1 == 0 {
			zeros[i] = 1
		} else {
			ones[i] = 1
		}
	}

	// Two inclusive scans, read one place back to make them exclusive: an
	// element with the bit clear goes after the clear ones before it; one
	// with the bit set goes after all the clear ones and the set ones
	// before it.
	m := simulate.Add[int]{}
	zs, ons := simulate.Eval(net, m, zeros), simulate.Eval(net, m, ones)
	before := func(scan []int, i int) int {
		if i == 0 {
			return m.Identity()
		}
		return scan[i-1]
	}
	nz := zs[n-1]
	out := make([]int, n)
	for i, v := range in {
		if zeros[i] == 1 {
			out[before(zs, i)] = v
		} else {
			out[nz+before(ons, i)] = v
		}
	}

	want := make([]int, 0, n) // the plain loop
	for _, set := range []int{0, 1} {
		for _, v := range in {
			if v>>bit&1 == set {
				want = append(want, v)
			}
		}
	}
	if !slices.Equal(out, want) {
		return fmt.Errorf("radixsplit: the scans through %s give %v, the loop %v", emit.Name(net), out, want)
	}
	fmt.Fprintf(w, "stable split of %d random bytes (seed %d) by bit %d\n", n, seed, bit)
	fmt.Fprintf(w, "two flag scans through %s: depth %d, %d cells each\n", emit.Name(net), net.Depth(), net.Size())
	fmt.Fprintf(w, "bit %d clear, %d: %s\n", bit, nz, head(out[:nz], 10))
	fmt.Fprintf(w, "bit %d set, %d: %s\n", bit, n-nz, head(out[nz:], 10))
	fmt.Fprintf(w, "checked against a plain loop: the same %d elements in the same order\n", n)
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
func setup(w io.Writer, args []string) (*network.Network, int, int, uint64, error) {
	fs := flag.NewFlagSet("radixsplit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	topo := fs.String("t", "sklansky", "topology: "+strings.Join(topologies.Names(), ", "))
	n := fs.Int("n", 100, "number of elements, ≥ 1")
	bit := fs.Int("bit", 0, "the bit to split by, 0…7")
	seed := fs.Uint64("seed", 1, "seed of the random bytes")
	var params []string
	fs.Func("param", "topology parameter `name=value`, such as k=1 for ladner-fischer; repeatable", func(s string) error {
		params = append(params, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(w)
			fs.PrintDefaults()
			return nil, 0, 0, 0, nil
		}
		return nil, 0, 0, 0, fmt.Errorf("radixsplit: %v", err)
	}
	if fs.NArg() > 0 {
		return nil, 0, 0, 0, fmt.Errorf("radixsplit: unexpected argument %q: only flags are allowed", fs.Arg(0))
	}
	if *bit < 0 || *bit > 7 {
		return nil, 0, 0, 0, fmt.Errorf("radixsplit: -bit %d out of range: allowed 0…7", *bit)
	}
	p, err := topologies.ParseParams(params)
	if err != nil {
		return nil, 0, 0, 0, fmt.Errorf("radixsplit: %w", err)
	}
	net, err := topologies.Build(*topo, *n, p)
	if err != nil {
		return nil, 0, 0, 0, fmt.Errorf("radixsplit: %w", err)
	}
	return net, *n, *bit, *seed, nil
}
