package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/adder"
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
	// recorded: an adder document, which fixes every part of arch; a
	// network document's plain adder is a default any flag may change.
	recorded bool
	err      error
}

// readFrom reads the document --from names, once per run: a
// prefixgen.network/v1 document (the plain adder) or a prefixgen.adder/v1
// one, a network with the architecture of the adder around it, which it
// records (recorded).
func readFrom(c *cli.Context) (net *network.Network, arch adder.Architecture, recorded bool, err error) {
	if d, ok := c.App.Metadata[fromKey].(*fromDocument); ok {
		return d.net, d.arch, d.recorded, d.err
	}
	d := &fromDocument{}
	from := c.String("from")
	if st, err := os.Stat(from); err == nil && st.IsDir() {
		d.err = fmt.Errorf("prefixgen %s: cannot read network file %s: it is a folder: allowed a %s or %s file", c.Command.Name, from, network.Format, adder.DocumentFormat)
	} else if data, err := os.ReadFile(from); err != nil {
		d.err = fmt.Errorf("prefixgen %s: cannot read network file: %v", c.Command.Name, err)
	} else {
		d.recorded = adder.IsDocument(data)
		d.net, d.arch, err = adder.ReadDocument(bytes.NewReader(data))
		if err != nil {
			d.err = fmt.Errorf("prefixgen %s: %s: %v", c.Command.Name, from, err)
		}
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[fromKey] = d
	return d.net, d.arch, d.recorded, d.err
}

// hasFlag reports whether the command defines the flag name.
func hasFlag(c *cli.Context, name string) bool {
	return slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
}

// architecture returns the sparseness, valency, Ling carries, pipeline and
// library cells of the adder the command builds: those of the flags
// --sparse, --valency, --ling, --stages, --no-reset and --pg-cells the
// command defines, and where one is not
// given, the --from document's. An adder document records its whole
// architecture, and a flag that contradicts it is bad usage; a network
// document's adder is the plain one by default, which any flag may change.
func architecture(c *cli.Context) (adder.Architecture, error) {
	doc, recorded := adder.Plain, false
	// With -t too, networks refuses both; --widths refuses --from.
	if c.String("from") != "" && c.String("topology") == "" && !c.IsSet("widths") {
		var err error
		if _, doc, recorded, err = readFrom(c); err != nil {
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
	// contradicts refuses the flag name, given as given, for the part of
	// the adder the document records.
	contradicts := func(name, given, part string) error {
		return usage(c, "%s contradicts %s, %s: leave --%s out", given, c.String("from"), part, name)
	}
	if hasFlag(c, "sparse") && c.IsSet("sparse") {
		if s := c.Int("sparse"); recorded && s != max(doc.Sparse, 1) {
			return arch, contradicts("sparse", fmt.Sprintf("--sparse %d", s), sparseWords(doc.Sparse))
		}
		arch.Sparse = c.Int("sparse")
	}
	if hasFlag(c, "valency") && c.IsSet("valency") {
		if k := c.Int("valency"); recorded && k != max(doc.Valency, 2) {
			return arch, contradicts("valency", fmt.Sprintf("--valency %d", k), fmt.Sprintf("the valency-%d adder", max(doc.Valency, 2)))
		}
		arch.Valency = c.Int("valency")
	}
	if hasFlag(c, "ling") && c.IsSet("ling") {
		if recorded && c.Bool("ling") != doc.Ling {
			return arch, contradicts("ling", boolFlag("ling", c.Bool("ling")), lingWords(doc.Ling))
		}
		arch.Ling = c.Bool("ling")
	}
	if hasFlag(c, "pg-cells") && c.IsSet("pg-cells") {
		if recorded && c.Bool("pg-cells") != doc.PGCells {
			return arch, contradicts("pg-cells", boolFlag("pg-cells", c.Bool("pg-cells")), pgCellsWords(doc.PGCells))
		}
		arch.PGCells = c.Bool("pg-cells")
	}
	if recorded && hasFlag(c, "pipeline-after") && c.IsSet("pipeline-after") {
		return arch, contradicts("pipeline-after", "--pipeline-after", pipelineWords(doc.Stages, doc.NoReset))
	}
	if hasFlag(c, "stages") && c.IsSet("stages") {
		if k := c.Int("stages"); recorded && k != doc.Stages {
			return arch, contradicts("stages", fmt.Sprintf("--stages %d", k), pipelineWords(doc.Stages, doc.NoReset))
		}
		arch.Stages = c.Int("stages")
	}
	if hasFlag(c, "no-reset") && c.IsSet("no-reset") {
		if recorded && c.Bool("no-reset") != doc.NoReset {
			return arch, contradicts("no-reset", boolFlag("no-reset", c.Bool("no-reset")), pipelineWords(doc.Stages, doc.NoReset))
		}
		arch.NoReset = c.Bool("no-reset")
	}
	return arch, nil
}

// boolFlag writes the boolean flag name set to v as a user gives it:
// --ling, --ling=false.
func boolFlag(name string, v bool) string {
	if v {
		return "--" + name
	}
	return "--" + name + "=false"
}

// sparseWords names an adder by its sparseness, as "the sparse-2 adder" or
// "the dense adder".
func sparseWords(sparse int) string {
	if sparse > 1 {
		return fmt.Sprintf("the sparse-%d adder", sparse)
	}
	return "the dense adder"
}

// lingWords names an adder by its carries.
func lingWords(ling bool) string {
	if ling {
		return "the Ling adder"
	}
	return "an adder without Ling's carries"
}

// pgCellsWords names an adder by its pre-processing.
func pgCellsWords(cells bool) string {
	if cells {
		return "the adder whose generate and propagate are library cells"
	}
	return "an adder whose generate and propagate are logic"
}

// pipelineWords names an adder by its pipeline, as "the 2 register stages
// pipeline" or "the combinational adder".
func pipelineWords(stages int, noReset bool) string {
	if stages == 0 {
		return "the combinational adder"
	}
	return "the " + stagesWords(stages, noReset) + " pipeline"
}
