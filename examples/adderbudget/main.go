package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/prefixgen/prefixgen/examples/internal/program"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

func main() { program.Main(run) }

// run parses args, measures every family's adder and Yosys's and writes
// the comparison to w. It returns a program.UsageError for bad flags and for
// a flow that cannot run (a missing tool or library), and an error when no
// adder is within the budget.
func run(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("adderbudget", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("n", 32, "width of the adders in bits, 2 to 128")
	faster := fs.Float64("faster", 20, "per cent by which an adder must be faster than Yosys's a + b + cin, 0 to 99")
	flow := fs.String("flow", string(physical.DefaultFlow), "synthesis flow: keep (the structure kept) or abc (ABC's full script)")
	liberty := fs.String("liberty", "osu018", "standard cells: osu018, osu035, sky130hd, asap7, a Liberty file (.lib or .lib.gz), files of one library separated by commas, or a folder of them")
	usage := func(err error) error { return &program.UsageError{Err: fmt.Errorf("adderbudget: %w", err)} }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(w)
			fs.PrintDefaults()
			return nil
		}
		return usage(err)
	}
	switch {
	case fs.NArg() > 0:
		return usage(fmt.Errorf("unexpected argument %q: only flags are allowed", fs.Arg(0)))
	case *n < 2 || *n > 128:
		return usage(fmt.Errorf("-n %d out of range: allowed 2 to 128", *n))
	case !(*faster >= 0 && *faster <= 99):
		return usage(fmt.Errorf("-faster %g out of range: allowed 0 to 99", *faster))
	}
	f, err := physical.ParseFlow(*flow)
	if err != nil {
		return usage(err)
	}

	// Yosys's adder first, then every family at its defaults.
	ref, err := physical.ReferenceDesign(*n)
	if err != nil {
		return err
	}
	designs := []*physical.Design{ref}
	seen := map[string]bool{}
	for _, t := range topologies.All() {
		net, err := t.Build(*n, nil)
		if err != nil {
			return err
		}
		k := cells(net)
		if seen[k] {
			continue // the cells of an earlier family: Knowles s=0 is Kogge–Stone
		}
		seen[k] = true
		d, err := physical.AdderDesign(net)
		if err != nil {
			return err
		}
		designs = append(designs, d)
	}
	// A library the flow writes for the tools (asap7's five files as one)
	// stays for later runs until the program removes it.
	defer physical.RemoveLibraries()
	results, err := physical.Run(context.Background(), designs, physical.Options{Liberty: *liberty, Flow: f})
	if err != nil {
		if physical.IsSetup(err) {
			return usage(err)
		}
		return err
	}

	yosys, adders := results[0], results[1:]
	budget := yosys.DelayNS * (1 - *faster/100)
	slices.SortStableFunc(adders, func(a, b *physical.Result) int {
		return cmp.Or(cmp.Compare(a.AreaUM2, b.AreaUM2), cmp.Compare(a.DelayNS, b.DelayNS), cmp.Compare(a.Name(), b.Name()))
	})
	fmt.Fprintf(w, "%d-bit adders, flow %s, %s; %s, OpenSTA %s\n",
		*n, yosys.Flow, filepath.Base(yosys.Liberty), yosys.YosysVersion, yosys.STAVersion)
	fmt.Fprintf(w, "budget %.3f ns: %g%% below %s (%.0f µm², %.3f ns)\n\n",
		budget, *faster, yosys.Name(), yosys.AreaUM2, yosys.DelayNS)
	width := len("adder")
	for _, r := range adders {
		width = max(width, len(r.Name()))
	}
	fmt.Fprintf(w, "%-*s  %10s  %10s  %s\n", width, "adder", "area (µm²)", "delay (ns)", "within")
	var best *physical.Result
	for _, r := range adders {
		mark := ""
		if r.DelayNS <= budget {
			mark = "yes"
			if best == nil {
				best = r
			}
		}
		fmt.Fprintf(w, "%-*s  %10.0f  %10.3f  %s\n", width, r.Name(), r.AreaUM2, r.DelayNS, mark)
	}
	if best == nil {
		return fmt.Errorf("adderbudget: no family's %d-bit adder is within %.3f ns", *n, budget)
	}
	fmt.Fprintf(w, "\nsmallest within the budget: %s, %.0f µm² (%+.1f%% area against %s), %.3f ns\n",
		best.Name(), best.AreaUM2, 100*(best.AreaUM2/yosys.AreaUM2-1), yosys.Name(), best.DelayNS)
	return nil
}

// cells lists the spans each cell of net joins, sorted, so that two
// networks with the same cells have the same list.
func cells(net *network.Network) string {
	spans := make([][4]int, net.Size())
	for k := range spans {
		c := net.Cell(k)
		lo, hi := net.Span(c.Lo), net.Span(c.Hi)
		spans[k] = [4]int{lo.From, lo.To, hi.From, hi.To}
	}
	slices.SortFunc(spans, func(a, b [4]int) int { return slices.Compare(a[:], b[:]) })
	return fmt.Sprint(spans)
}
