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
	fmt.Fprintf(w, "bit %d clear, %d: %s\n", bit, nz, program.Head(out[:nz], 10))
	fmt.Fprintf(w, "bit %d set, %d: %s\n", bit, n-nz, program.Head(out[nz:], 10))
	fmt.Fprintf(w, "checked against a plain loop: the same %d elements in the same order\n", n)
	return nil
}

// setup parses the flags and builds the network. It returns a nil network
// and no error when -h asked for help.
func setup(w io.Writer, args []string) (*network.Network, int, int, uint64, error) {
	fs := program.NewFlags("radixsplit", "sklansky")
	n := fs.Int("n", 100, "number of elements, ≥ 1")
	bit := fs.Int("bit", 0, "the bit to split by, 0…7")
	seed := fs.Uint64("seed", 1, "seed of the random bytes")
	net, err := fs.Network(w, args, n)
	if err == nil && net != nil && (*bit < 0 || *bit > 7) {
		return nil, 0, 0, 0, fs.Usage(fmt.Errorf("-bit %d out of range: allowed 0…7", *bit))
	}
	return net, *n, *bit, *seed, err
}
