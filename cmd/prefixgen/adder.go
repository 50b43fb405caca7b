package main

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// archFlagNames are the flags that choose the adder's architecture, all
// but --valency for -f verilog only.
var archFlagNames = []string{"op", "no-cin", "flags", "sparse", "pipeline-after", "stages", "no-reset", "valency", "ling", "pg-cells"}

// archFlags are the flags of the adder's architecture (package adder).
func archFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "op", Value: "add", Usage: "adder operation: add (a + b + cin), sub (a + ~b + cin: a - b with cin = 1), addsub (a mode input: 0 adds, 1 subtracts), compare (outputs lt, ltu, eq)"},
		&cli.BoolFlag{Name: "no-cin", Usage: "no carry-in input: the carry into bit 0 is 0 for add, 1 for sub, mode for addsub"},
		&cli.StringFlag{Name: "flags", Value: "carry", Usage: "status outputs of add, sub, addsub: a comma-separated list of carry (cout), overflow, zero, negative, or none"},
		sparseFlag(),
		&cli.StringFlag{Name: "pipeline-after", Usage: "register stages after these `LEVELS` (comma-separated, increasing; 0 is the pre-processing, 1 … depth the levels of prefix cells): a latency of one clk cycle each; adds clk and rst (synchronous, active high, clears every register)"},
		valencyFlag(),
		&cli.IntFlag{Name: "stages", Usage: "`K` register stages placed to balance the logic between them (1 to depth + 1): a latency of K clk cycles; adds clk and rst (synchronous, active high, clears every register)", DefaultText: "none, a combinational adder"},
		&cli.BoolFlag{Name: "no-reset", Usage: "with --stages or --pipeline-after: registers without a reset (no rst input); they load at every rising edge of clk"},
		lingFlag(),
		pgCellsFlag(),
	}
}

func pgCellsFlag() cli.Flag {
	return &cli.BoolFlag{Name: "pg-cells", Usage: "each bit's generate and propagate as two cells of the library (--liberty): ~g = NAND2(a, b) and ~p = OAI21(a, b, ~g), the XNOR for the price of an OAI21; synthesis keeps them (add only)"}
}

// pgCellsSource names what asks for the library cells: --pg-cells, or the
// --from document that records them.
func pgCellsSource(c *cli.Context) string {
	if c.IsSet("pg-cells") || c.String("from") == "" {
		return "--pg-cells"
	}
	return c.String("from") + ", an adder of library cells,"
}

// libraryCells sets opt.Cells to the NAND2 and OAI21 cells of --liberty (the
// default library where the command has no such flag or it is not given)
// when the architecture asks for them.
func libraryCells(c *cli.Context, opt *adder.Options, a adder.Architecture) error {
	if !a.PGCells {
		return nil
	}
	liberty := ""
	if hasFlag(c, "liberty") {
		liberty = c.String("liberty")
	}
	cells, err := physical.PGCells(liberty)
	if err != nil {
		return usage(c, "%v", err)
	}
	opt.Cells = cells
	return nil
}

func lingFlag() cli.Flag {
	return &cli.BoolFlag{Name: "ling", Usage: "Ling's pseudo-carries: the network runs over (g[i], t[i-1]) with t = a | b, each carry is t[i] & H[i:0], and a first-level cell of two bits is g[i] | g[i-1]"}
}

func sparseFlag() cli.Flag {
	return &cli.IntFlag{Name: "sparse", Value: 1, Usage: "sparse tree: the network computes every s-th carry and s-bit carry-select blocks the sums; s = 1, 2, 4 or 8, at most n"}
}

func valencyFlag() cli.Flag {
	return &cli.IntFlag{Name: "valency", Value: 2, Usage: "cells of up to `K` inputs (2, 3 or 4): -t builds the radix-K form of kogge-stone or sklansky; the adder makes each chain of binary cells one K-input gate"}
}

// adderStats prints the figures of the adders with --sparse and --valency
// (stats).
func adderStats(c *cli.Context, arch adder.Architecture) error {
	nets, err := archNetworks(c, true)
	if err != nil {
		return err
	}
	opt := adder.Options{Flags: adder.Carry, Sparse: arch.Sparse, Valency: arch.Valency}
	if err := checkArch(c, &opt, nets); err != nil {
		return err
	}
	rows := make([]emit.AdderStats, len(nets))
	for i, n := range nets {
		if rows[i], err = emit.NewAdderStats(n, opt); err != nil {
			return usage(c, "%s", strings.TrimPrefix(err.Error(), "adder: "))
		}
	}
	var write func(io.Writer) error
	switch f := c.String("format"); f {
	case "table":
		write = func(w io.Writer) error { return emit.AdderStatsTable(w, rows) }
	case "csv":
		write = func(w io.Writer) error { return emit.AdderStatsCSV(w, rows) }
	case "json":
		if c.String("topology") != "all" {
			write = func(w io.Writer) error { return emit.AdderStatsJSON(w, rows[0]) }
		} else {
			write = func(w io.Writer) error { return emit.AdderStatsJSONArray(w, rows) }
		}
	default:
		return usage(c, "unknown format %q: allowed table, json, csv", f)
	}
	return output(c, write)
}

// archOptions returns the adder options the architecture flags ask for, or
// nil when none is given (the standard adder).
func archOptions(c *cli.Context) (*adder.Options, error) {
	set := false
	for _, name := range archFlagNames {
		set = set || c.IsSet(name)
	}
	a, err := architecture(c)
	if err != nil {
		return nil, err
	}
	if !set && a.IsPlain() {
		return nil, nil
	}
	op, err := adder.ParseOp(c.String("op"))
	if err != nil {
		return nil, usage(c, "--op: %v", err)
	}
	opt := adder.Options{Op: op, NoCarryIn: c.Bool("no-cin"), Sparse: a.Sparse, Stages: a.Stages, Valency: a.Valency, Ling: a.Ling, NoReset: a.NoReset}
	if a.PGCells && op != adder.Add {
		return nil, usage(c, "%s applies to --op add only: the cells take a and b as they are", pgCellsSource(c))
	}
	// gen needs the library's cells for -f verilog only: the other formats
	// write no cell (-f json records that the adder has them).
	if !hasFlag(c, "format") || c.String("format") == "verilog" {
		if err := libraryCells(c, &opt, a); err != nil {
			return nil, err
		}
	}
	if op == adder.Compare {
		if c.IsSet("flags") {
			return nil, usage(c, "--flags applies to --op add, sub and addsub; compare outputs lt, ltu and eq")
		}
		if c.IsSet("no-cin") {
			return nil, usage(c, "--no-cin applies to --op add, sub and addsub; compare has no carry-in")
		}
	} else if opt.Flags, err = adder.ParseFlags(c.String("flags")); err != nil {
		return nil, usage(c, "--flags: %v", err)
	}
	if c.IsSet("pipeline-after") {
		for f := range strings.SplitSeq(c.String("pipeline-after"), ",") {
			l, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return nil, usage(c, "--pipeline-after %q: want comma-separated levels, such as 0,3", c.String("pipeline-after"))
			}
			opt.PipelineAfter = append(opt.PipelineAfter, l)
		}
	}
	if c.IsSet("stages") && c.IsSet("pipeline-after") {
		return nil, usage(c, "--stages and --pipeline-after both given: use one")
	}
	if c.IsSet("stages") && opt.Stages < 1 {
		return nil, usage(c, "--stages %d out of range: allowed 1 to the depth of the carry tree + 1", opt.Stages)
	}
	if c.IsSet("no-reset") && opt.Stages == 0 && !c.IsSet("pipeline-after") {
		return nil, usage(c, "--no-reset applies to a pipelined adder: allowed with --stages or --pipeline-after")
	}
	return &opt, nil
}

// checkArch refuses options that do not fit a network, before anything is
// written.
func checkArch(c *cli.Context, opt *adder.Options, nets []*network.Network) error {
	if opt == nil {
		return nil
	}
	for _, n := range nets {
		if _, err := adder.Describe(n, *opt); err != nil {
			return usage(c, "%s", strings.TrimPrefix(err.Error(), "adder: "))
		}
	}
	return nil
}

// archNetworks returns the networks of -t, -n, --param and --from, built in
// their radix-K form for --valency K > 2 with -t (a --from network is read
// as it is; its chains of binary cells become K-input gates).
func archNetworks(c *cli.Context, allowAll bool) ([]*network.Network, error) {
	k := c.Int("valency")
	if c.IsSet("valency") && (k < 2 || k > topologies.MaxValency) {
		return nil, usage(c, "--valency %d not allowed: allowed 2, 3, 4", k)
	}
	if k <= 2 || c.String("topology") == "" {
		return networks(c, allowAll)
	}
	topo := c.String("topology")
	if topo == "all" {
		return nil, usage(c, "--valency %d does not apply to -t all: name one of %s", k, strings.Join(topologies.ValencyFamilies, ", "))
	}
	if !slices.Contains(topologies.ValencyFamilies, topo) {
		return nil, usage(c, "--valency %d: %s has no higher-valency form; allowed for %s", k, topo, strings.Join(topologies.ValencyFamilies, ", "))
	}
	if c.IsSet("param") {
		return nil, usage(c, "--param does not apply to --valency: %s takes no parameters", topo)
	}
	if !c.IsSet("width") {
		return nil, usage(c, "-n WIDTH is required with -t")
	}
	net, err := topologies.Valency(topo, c.Int("width"), k)
	if err != nil {
		return nil, usage(c, "%s", strings.TrimPrefix(err.Error(), "topologies: "))
	}
	return []*network.Network{net}, nil
}
