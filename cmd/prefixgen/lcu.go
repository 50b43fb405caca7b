package main

import (
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// widthsFlag is gen's --widths: one $lcu techmap for many widths.
func widthsFlag() cli.Flag {
	return &cli.StringFlag{Name: "widths", Usage: "yosys-lcu: cover these `WIDTHS` in one techmap module, as 8,16,32-64 (each 1 to 1024; replaces -n); other widths fall back to Yosys's own map"}
}

// lcuWidths returns the writer of gen -f yosys-lcu --widths, building the
// topology at every width (in its radix-K form for --valency K > 2).
func lcuWidths(c *cli.Context) (func(io.Writer) error, error) {
	switch {
	case c.String("format") != "yosys-lcu":
		return nil, usage(c, "--widths applies to -f yosys-lcu only, not %s", network.Quote(c.String("format")))
	case c.IsSet("from"):
		return nil, usage(c, "--widths does not apply to --from: the file fixes one width")
	case c.IsSet("width"):
		return nil, usage(c, "-n and --widths both given: use one")
	case c.String("topology") == "":
		return nil, usage(c, "no topology given: --widths needs -t TOPOLOGY")
	}
	widths, err := emit.ParseWidths(c.String("widths"))
	if err != nil {
		return nil, usage(c, "%v", err)
	}
	params, err := topologies.ParseParams(c.StringSlice("param"))
	if err != nil {
		return nil, usage(c, "%v", err)
	}
	names, err := topologyList(c, c.String("topology"), false)
	if err != nil {
		return nil, err
	}
	topo, k := names[0], c.Int("valency")
	if c.IsSet("valency") && (k < 2 || k > topologies.MaxValency) {
		return nil, usage(c, "--valency %d not allowed: allowed 2, 3, 4", k)
	}
	if k > 2 && !slices.Contains(topologies.ValencyFamilies, topo) {
		return nil, usage(c, "--valency %d: %s has no higher-valency form; allowed for %s", k, topo, strings.Join(topologies.ValencyFamilies, ", "))
	}
	if k > 2 && c.IsSet("param") {
		return nil, usage(c, "--param does not apply to --valency: %s takes no parameters", topo)
	}
	if err := budget.Widths(topo, widths, params); err != nil {
		return nil, usage(c, "%v", err)
	}
	nets := make([]*network.Network, len(widths))
	for i, n := range widths {
		if k > 2 {
			nets[i], err = topologies.Valency(topo, n, k)
		} else {
			nets[i], err = topologies.Build(topo, n, params)
		}
		if err != nil {
			return nil, usage(c, "%v", err)
		}
	}
	opt := emit.YosysLCUOptions{Module: c.String("module")}
	return func(w io.Writer) error { return emit.YosysLCUWidths(w, nets, opt) }, nil
}
