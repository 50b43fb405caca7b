package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// width is the number of bits of the adder.
const width = 64

func main() {
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run parses args, builds and verifies the adder and writes the report to w.
// It returns an error for bad flags, a network that cannot be built, or a
// wrong sum.
func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("adder64", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	topo := fs.String("t", "kogge-stone", "topology: "+strings.Join(topologies.Names(), ", "))
	vectors := fs.Int("vectors", 1_000_000, "random test vectors, ≥ 0")
	seed := fs.Uint64("seed", 1, "seed of the random test vectors")
	var params []string
	fs.Func("param", "topology parameter `name=value`, such as k=1 for ladner-fischer; repeatable", func(s string) error {
		params = append(params, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(w)
			fs.PrintDefaults()
			return nil
		}
		return fmt.Errorf("adder64: %v", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("adder64: unexpected argument %q: only flags are allowed", fs.Arg(0))
	}
	p, err := topologies.ParseParams(params)
	if err != nil {
		return fmt.Errorf("adder64: %w", err)
	}
	net, err := topologies.Build(*topo, width, p)
	if err != nil {
		return fmt.Errorf("adder64: %w", err)
	}
	r, err := simulate.VerifyAdder(net, simulate.VerifyOptions{Vectors: *vectors, Seed: *seed})
	if err != nil {
		return fmt.Errorf("adder64: %w", err)
	}

	f := net.Figures()
	fmt.Fprintf(w, "%d-bit adder around %s\n", width, emit.Name(net))
	fmt.Fprintf(w, "  depth        %d\n", f.Depth)
	fmt.Fprintf(w, "  size         %d cells\n", f.Size)
	fmt.Fprintf(w, "  max fan-out  %d (logical, unbuffered)\n", f.MaxFanout)
	fmt.Fprintf(w, "  wire tracks  %d\n", f.WireTracks)
	fmt.Fprintf(w, "  deficiency   %d\n", f.Deficiency)
	fmt.Fprintf(w, "checked %d corner vectors against math/big and %d random vectors (seed %d) against the ripple-carry loop: ",
		r.Corner, r.Random, *seed)
	if r.Mismatch != nil {
		fmt.Fprintln(w, "MISMATCH")
		return fmt.Errorf("adder64: %s adder is wrong: %v", emit.Name(net), r.Mismatch)
	}
	fmt.Fprintln(w, "all sums right")
	return nil
}
