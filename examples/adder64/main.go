package main

import (
	"fmt"
	"io"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/examples/internal/program"
	"github.com/prefixgen/prefixgen/simulate"
)

// width is the number of bits of the adder.
const width = 64

func main() { program.Main(run) }

// run parses args, builds and verifies the adder and writes the report to w.
// It returns an error for bad flags, a network that cannot be built, or a
// wrong sum.
func run(w io.Writer, args []string) error {
	fs := program.NewFlags("adder64", "kogge-stone")
	vectors := fs.Int("vectors", 1_000_000, "random test vectors, ≥ 0")
	seed := fs.Uint64("seed", 1, "seed of the random test vectors")
	n := width
	net, err := fs.Network(w, args, &n)
	if err != nil || net == nil {
		return err
	}
	if *vectors < 0 {
		return fs.Usage(fmt.Errorf("-vectors %d out of range: allowed 0 or more", *vectors))
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
