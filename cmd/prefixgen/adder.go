package main

import (
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// archFlags are the flags of the adder's architecture (package adder).
func archFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: adder.FlagOp, Value: "add", Usage: "adder operation: add (a + b + cin), sub (a + ~b + cin: a - b with cin = 1), addsub (a mode input: 0 adds, 1 subtracts), compare (outputs lt, ltu, eq)"},
		&cli.BoolFlag{Name: adder.FlagNoCarryIn, Usage: "no carry-in input: the carry into bit 0 is 0 for add, 1 for sub, mode for addsub"},
		&cli.StringFlag{Name: adder.FlagFlags, Value: "carry", Usage: "status outputs of add, sub, addsub: a comma-separated list of carry (cout), overflow, zero, negative, or none"},
		sparseFlag(),
		&cli.StringFlag{Name: adder.FlagPipelineAfter, Usage: "register stages after these `LEVELS` (comma-separated, increasing; 0 is the pre-processing, 1 … depth the levels of prefix cells): a latency of one clk cycle each; adds clk and rst (synchronous, active high, clears every register)"},
		valencyFlag(),
		&cli.IntFlag{Name: adder.FlagStages, Usage: "`K` register stages placed to balance the logic between them (1 to depth + 1): a latency of K clk cycles; adds clk and rst (synchronous, active high, clears every register)", DefaultText: "none, a combinational adder"},
		&cli.BoolFlag{Name: adder.FlagNoReset, Usage: "with --stages or --pipeline-after: registers without a reset (no rst input); they load at every rising edge of clk"},
		lingFlag(),
		pgCellsFlag(),
		faCellsFlag(),
		incrementFlag(),
	}
}

func incrementFlag() cli.Flag {
	return &cli.BoolFlag{Name: adder.FlagIncrement, Usage: "with --fa-cells and --sparse 2, 4 or 8: carry-increment blocks, one ripple of full adders each, its sums for a block carry of 1 those for 0 XOR the block's propagate up to the bit, instead of a second ripple"}
}

func faCellsFlag() cli.Flag {
	return &cli.BoolFlag{Name: adder.FlagFACells, Usage: "each bit that one prefix cell joins to the span below it, read by no other cell, as the library's full-adder cell (--liberty), two where the span starts above bit 0, whose carry then selects the sum: a ripple network becomes a ripple of full adders, -t carry-select a carry-select adder; with --sparse the carry-select blocks ripple through them, beside a tree of any valency, with --ling or --pg-cells; synthesis keeps them (add, without a pipeline; dense, binary, without --ling or --pg-cells)"}
}

func pgCellsFlag() cli.Flag {
	return &cli.BoolFlag{Name: adder.FlagPGCells, Usage: "each bit's generate and propagate as two cells of the library (--liberty): ~g = NAND2(a, b) and ~p = OAI21(a, b, ~g), the XNOR for the price of an OAI21; synthesis keeps them (add only)"}
}

// libraryCells returns the cells of the command's library (librarySpec:
// --liberty, or the library the adder file was made for, or the default
// library) that arch instantiates (physical.LibraryCells: the NAND2 and
// OAI21 of PGCells, the full adder of FACells), and nil when it
// instantiates none.
func libraryCells(c *cli.Context, arch adder.Architecture) (*adder.Cells, error) {
	if !arch.InstantiatesCells() {
		return nil, nil
	}
	liberty, err := librarySpec(c)
	if err != nil {
		return nil, err
	}
	cells, err := physical.LibraryCells(liberty, arch, dontUse(c)...)
	if err != nil {
		return nil, usage(c, "%v", err)
	}
	return cells, nil
}

// moduleApart refuses a module named as any cell of the library an adder
// of cells is written for (fold: an entity's, whose case VHDL ignores),
// those it does not instantiate too: read beside the adder, as Yosys's
// read_liberty -lib reads it, the cell and the module are one name.
func moduleApart(c *cli.Context, module string, cells *adder.Cells, fold bool) error {
	if cells == nil {
		return nil
	}
	liberty, err := librarySpec(c)
	if err != nil {
		return err
	}
	names, err := physical.CellNames(liberty)
	if err != nil {
		return usage(c, "%v", err)
	}
	for _, name := range names {
		if name == module || fold && strings.EqualFold(name, module) {
			return usage(c, "module name %s is the name of a cell of the library: read beside the adder (read_liberty -lib), it would be defined twice: allowed another name", network.Quote(module))
		}
	}
	return nil
}

func lingFlag() cli.Flag {
	return &cli.BoolFlag{Name: adder.FlagLing, Usage: "Ling's pseudo-carries: the network runs over (g[i], t[i-1]) with t = a | b, each carry is t[i] & H[i:0], and a first-level cell of two bits is g[i] | g[i-1]"}
}

func sparseFlag() cli.Flag {
	return &cli.IntFlag{Name: adder.FlagSparse, Value: 1, Usage: "sparse tree: the network computes every s-th carry and s-bit carry-select blocks the sums; s = 1, 2, 4 or 8, at most n"}
}

func valencyFlag() cli.Flag {
	return &cli.IntFlag{Name: adder.FlagValency, Value: 2, Usage: "cells of up to `K` inputs (2, 3 or 4): -t builds the radix-K form of kogge-stone or sklansky; the adder makes each chain of binary cells one K-input gate"}
}

// adderStats prints the figures of the adders with --sparse and --valency
// (stats).
func adderStats(c *cli.Context, arch adder.Architecture) error {
	nets, err := archNetworks(c, true)
	if err != nil {
		return err
	}
	if err := checkArch(c, arch, nets); err != nil {
		return err
	}
	rows := make([]emit.AdderStats, len(nets))
	for i, n := range nets {
		if rows[i], err = emit.NewAdderStats(n, arch); err != nil {
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
		if oneTopology(c) {
			write = func(w io.Writer) error { return emit.AdderStatsJSON(w, rows[0]) }
		} else {
			write = func(w io.Writer) error { return emit.AdderStatsJSONArray(w, rows) }
		}
	default:
		return usage(c, "unknown format %s%s: allowed table, json, csv", network.Quote(f), didYouMean(f, tableFormats))
	}
	return output(c, write)
}

// checkArch refuses an architecture that does not fit a network, before
// anything is written.
func checkArch(c *cli.Context, arch adder.Architecture, nets []*network.Network) error {
	errs := make([]error, len(nets))
	for i, n := range nets {
		errs[i] = arch.Check(n)
		if _, stages := errors.AsType[*adder.StagesError](errs[i]); errs[i] != nil && !stages {
			return adderUsage(c, errs[i])
		}
	}
	// Too many stages for some: the range all take is the shallowest's.
	if se, i := adder.Shallowest(errs); se != nil {
		if len(nets) == 1 {
			return adderUsage(c, se)
		}
		return usage(c, "%s: %s", emit.Name(nets[i]), strings.TrimPrefix(se.Error(), "adder: "))
	}
	return nil
}

// adderUsage is bad usage that package adder found: its message without
// the package's name, as every command's own.
func adderUsage(c *cli.Context, err error) error {
	return usage(c, "%s", strings.TrimPrefix(err.Error(), "adder: "))
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
	if isAll(topo) {
		return nil, usage(c, "--valency %d does not apply to -t all: name one of %s", k, strings.Join(topologies.ValencyFamilies, ", "))
	}
	names, err := topologyList(c, topo, allowAll)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		if !slices.Contains(topologies.ValencyFamilies, name) {
			return nil, usage(c, "--valency %d: %s has no higher-valency form; allowed for %s", k, name, strings.Join(topologies.ValencyFamilies, ", "))
		}
	}
	if c.IsSet("param") {
		return nil, usage(c, "--param does not apply to --valency: %s takes no parameters", topo)
	}
	if !c.IsSet("width") {
		return nil, usage(c, "-n WIDTH is required with -t")
	}
	nets := make([]*network.Network, len(names))
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			return nil, usage(c, "-t %s: %s given twice: allowed each topology once", network.Quote(topo), name)
		}
		if nets[i], err = topologies.Valency(name, c.Int("width"), k); err != nil {
			return nil, usage(c, "%s", strings.TrimPrefix(err.Error(), "topologies: "))
		}
	}
	return nets, nil
}
