package main

import (
	"fmt"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/emit/adder"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// fromKey is where the document --from names is kept once read, in the
// app's metadata: a command reads the file once, so that --from may name a
// pipe.
const fromKey = "prefixgen/from"

// fromDocument is the --from file, read.
type fromDocument struct {
	net  *network.Network
	arch adder.Architecture
	err  error
}

// readFrom reads the document --from names, once per run: a
// prefixgen.network/v1 document (the plain adder) or a prefixgen.adder/v1
// one, a network with the architecture of the adder around it.
func readFrom(c *cli.Context) (*network.Network, adder.Architecture, error) {
	if d, ok := c.App.Metadata[fromKey].(*fromDocument); ok {
		return d.net, d.arch, d.err
	}
	d := &fromDocument{}
	from := c.String("from")
	if st, err := os.Stat(from); err == nil && st.IsDir() {
		d.err = fmt.Errorf("prefixgen %s: cannot read network file %s: it is a folder: allowed a %s or %s file", c.Command.Name, from, network.Format, adder.DocumentFormat)
	} else if f, err := os.Open(from); err != nil {
		d.err = fmt.Errorf("prefixgen %s: cannot read network file: %v", c.Command.Name, err)
	} else {
		d.net, d.arch, err = adder.ReadDocument(f)
		f.Close()
		if err != nil {
			d.err = fmt.Errorf("prefixgen %s: %s: %v", c.Command.Name, from, err)
		}
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[fromKey] = d
	return d.net, d.arch, d.err
}

// hasFlag reports whether the command defines the flag name.
func hasFlag(c *cli.Context, name string) bool {
	return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}

// architecture returns the sparseness, valency, Ling carries and pipeline
// of the adder the command builds: those of the flags --sparse, --valency,
// --ling, --stages and --no-reset the command defines, and where one is not
// given, the --from document's. A flag that contradicts what the document records is bad
// usage; a network document records the plain adder, which any flag may
// change.
func architecture(c *cli.Context) (adder.Architecture, error) {
	doc := adder.Plain
	// With -t too, networks refuses both; --widths refuses --from.
	if c.String("from") != "" && c.String("topology") == "" && !c.IsSet("widths") {
		var err error
		if _, doc, err = readFrom(c); err != nil {
			return adder.Architecture{}, err
		}
	}
	arch := doc
	// 0 would be taken as the default downstream (package adder): a value
	// given is checked here.
	if hasFlag(c, "sparse") && c.IsSet("sparse") && c.Int("sparse") == 0 {
		return arch, usage(c, "sparseness 0 not allowed: allowed %s", sparseAllowed())
	}
	if k := c.Int("valency"); hasFlag(c, "valency") && c.IsSet("valency") && (k < 2 || k > topologies.MaxValency) {
		return arch, usage(c, "--valency %d not allowed: allowed 2, 3, 4", k)
	}
	if hasFlag(c, "sparse") && c.IsSet("sparse") {
		if s := c.Int("sparse"); doc.Sparse > 1 && s != doc.Sparse {
			return arch, usage(c, "--sparse %d contradicts %s, the sparse-%d adder: leave --sparse out", s, c.String("from"), doc.Sparse)
		}
		arch.Sparse = c.Int("sparse")
	}
	if hasFlag(c, "valency") && c.IsSet("valency") {
		if k := c.Int("valency"); doc.Valency > 2 && k != doc.Valency {
			return arch, usage(c, "--valency %d contradicts %s, the valency-%d adder: leave --valency out", k, c.String("from"), doc.Valency)
		}
		arch.Valency = c.Int("valency")
	}
	if hasFlag(c, "ling") && c.IsSet("ling") {
		if !c.Bool("ling") && doc.Ling {
			return arch, usage(c, "--ling=false contradicts %s, the Ling adder: leave --ling out", c.String("from"))
		}
		arch.Ling = c.Bool("ling")
	}
	if doc.Stages > 0 && hasFlag(c, "pipeline-after") && c.IsSet("pipeline-after") {
		return arch, usage(c, "--pipeline-after contradicts %s, the %s pipeline: leave --pipeline-after out", c.String("from"), stagesWords(doc.Stages, doc.NoReset))
	}
	if hasFlag(c, "stages") && c.IsSet("stages") {
		if k := c.Int("stages"); doc.Stages > 0 && k != doc.Stages {
			return arch, usage(c, "--stages %d contradicts %s, the %s pipeline: leave --stages out", k, c.String("from"), stagesWords(doc.Stages, doc.NoReset))
		}
		arch.Stages = c.Int("stages")
	}
	if hasFlag(c, "no-reset") && c.IsSet("no-reset") {
		if doc.Stages > 0 && c.Bool("no-reset") != doc.NoReset {
			return arch, usage(c, "--no-reset=%t contradicts %s, the %s pipeline: leave --no-reset out", c.Bool("no-reset"), c.String("from"), stagesWords(doc.Stages, doc.NoReset))
		}
		arch.NoReset = c.Bool("no-reset")
	}
	return arch, nil
}
