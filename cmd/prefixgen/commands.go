package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/limits"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/toolcheck"
	"github.com/prefixgen/prefixgen/topologies"
)

// Flags shared by several commands.
func topologyFlag(all bool) cli.Flag {
	u := "topology to build: " + strings.Join(topologies.Known(), ", ")
	if all {
		u += "; all (every one but " + strings.Join(otherNames(), ", ") + "), or a comma-separated list of them"
	}
	return &cli.StringFlag{Name: "topology", Aliases: []string{"t"}, Usage: u}
}

func widthFlag(def int) cli.Flag {
	if def > 0 {
		return &cli.IntFlag{Name: "width", Aliases: []string{"n"}, Value: def, Usage: "number of inputs (bits of the adder), n ≥ 1"}
	}
	return &cli.IntFlag{Name: "width", Aliases: []string{"n"}, Usage: "number of inputs (bits of the adder), n ≥ 1", DefaultText: "none, required with -t"}
}

// widthUpToFlag is -n N of a command that measures widths up to max.
func widthUpToFlag(def, max int) cli.Flag {
	return &cli.IntFlag{Name: "width", Aliases: []string{"n"}, Value: def, Usage: fmt.Sprintf("number of inputs (bits of the adder), 1 to %d", max)}
}

// paramFlag(), fromFlag and seedFlag are flags of several commands. Each
// call makes a new one: urfave/cli writes into a flag as it parses, and
// two apps (two runs in one process) must not share one.
func paramFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "param", Usage: "topology parameter as name=value, e.g. k=1 for ladner-fischer (repeatable; see prefixgen list)"}
}

func fromFlag() cli.Flag {
	return &cli.StringFlag{Name: "from", Usage: "read the network from a JSON `FILE` instead of building one (validated first): a prefixgen.network/v1 document, or a prefixgen.adder/v1 one, whose sparseness, valency, Ling carries, pipeline and library cells the adder then has"}
}

func seedFlag() cli.Flag {
	return &cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random test vectors (0 to 4294967295 for Verilog and VHDL testbenches)"}
}

func vectorsFlag(def int, usage string) cli.Flag {
	return &cli.IntFlag{Name: "vectors", Value: def, Usage: fmt.Sprintf("%s, 0 to %d", usage, emit.MaxTestbenchVectors)}
}

// vectors returns --vectors, refusing a number a Verilog testbench cannot
// run.
func vectors(c *cli.Context) (int, error) {
	v := c.Int("vectors")
	if v < 0 || v > emit.MaxTestbenchVectors {
		return 0, usage(c, "--vectors %d out of range: allowed 0 to %d", v, emit.MaxTestbenchVectors)
	}
	return v, nil
}

// verilogSeed returns --seed, which a testbench's generator (Verilog or VHDL) takes as 32 bits.
func verilogSeed(c *cli.Context) (uint32, error) {
	s := c.Uint64("seed")
	if s > math.MaxUint32 {
		return 0, usage(c, "--seed %d out of range for a testbench: allowed 0 to %d", s, uint64(math.MaxUint32))
	}
	return uint32(s), nil
}

// networks returns the networks the flags -t, -n, --param and --from name.
func networks(c *cli.Context, allowAll bool) ([]*network.Network, error) {
	from, topo := c.String("from"), c.String("topology")
	switch {
	case from != "" && topo != "":
		return nil, usage(c, "-t and --from both given: use one")
	case from != "":
		if c.IsSet("param") || c.IsSet("width") {
			return nil, usage(c, "--param and -n do not apply to --from: the file fixes the network")
		}
		n, _, _, err := readFrom(c)
		if err != nil {
			return nil, err
		}
		if err := budget.Network(n, writes(c)); err != nil {
			return nil, usage(c, "%v", err)
		}
		return []*network.Network{n}, nil
	case topo == "":
		return nil, usage(c, "no network given: use -t TOPOLOGY -n WIDTH or --from FILE")
	case !c.IsSet("width") && c.Int("width") == 0:
		return nil, usage(c, "-n WIDTH is required with -t")
	}
	names, err := topologyList(c, topo, allowAll)
	if err != nil {
		return nil, err
	}
	params, err := topologies.ParseParams(c.StringSlice("param"))
	if err != nil {
		return nil, usage(c, "%v", err)
	}
	sized := names
	if isAll(topo) {
		sized = []string{"all"}
	}
	// The networks are held at once: judged together.
	if err := budget.Topologies(sized, c.Int("width"), params, writes(c)); err != nil {
		return nil, usage(c, "%v", err)
	}
	var nets []*network.Network
	if len(names) == 1 {
		nets, err = topologies.Select(names[0], c.Int("width"), params)
	} else {
		nets, err = topologies.SelectList(names, c.Int("width"), params)
	}
	if err != nil && len(names) > 1 && !isAll(topo) {
		return nil, usage(c, "-t %s: %s", network.Quote(topo), strings.TrimPrefix(err.Error(), "topologies: "))
	}
	if err != nil {
		return nil, usage(c, "%v", err)
	}
	return nets, nil
}

// topologyList returns the topologies -t names: one, all (where allowAll
// says the command takes several) or a comma-separated list of them.
func topologyList(c *cli.Context, topo string, allowAll bool) ([]string, error) {
	names := strings.Split(topo, ",")
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
		switch {
		case names[i] != "":
		case !allowAll:
			return nil, usage(c, "-t %s names no topology: allowed one of %s", network.Quote(topo), strings.Join(topologies.Known(), ", "))
		default:
			return nil, usage(c, "-t %s names no topology at place %d of its list: allowed names of %s, separated by commas", network.Quote(topo), i+1, strings.Join(topologies.Known(), ", "))
		}
	}
	switch {
	case !allowAll && (isAll(topo) || len(names) > 1):
		return nil, usage(c, "-t %s: this command takes one topology: allowed %s", network.Quote(topo), strings.Join(topologies.Known(), ", "))
	case isAll(topo):
		return topologies.Names(), nil
	case len(names) > 1 && slices.Contains(names, "all"):
		return nil, usage(c, "-t %s: all cannot be listed with other topologies: allowed all alone, or a list of %s", network.Quote(topo), strings.Join(topologies.Known(), ", "))
	}
	return names, nil
}

// otherNames returns the names of topologies.Others, which -t all leaves
// out.
func otherNames() []string {
	var names []string
	for _, t := range topologies.Others() {
		names = append(names, t.Name)
	}
	return names
}

// oneTopology reports whether -t names one topology (not all, not a list),
// whose JSON is an object rather than an array.
func oneTopology(c *cli.Context) bool {
	t := c.String("topology")
	return !isAll(t) && !strings.Contains(t, ",")
}

// isAll reports whether -t names every topology: all, spaces around it
// allowed as around any name.
func isAll(topo string) bool { return strings.TrimSpace(topo) == "all" }

// pass prints the outcome of one check.
func pass(ok bool) string {
	if ok {
		return "ok"
	}
	return "FAIL"
}

func listCommand() *cli.Command {
	return &cli.Command{
		Name:         "list",
		Usage:        "list the topologies, their parameters and references",
		UsageText:    "prefixgen list",
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			w := c.App.Writer
			for _, t := range slices.Concat(topologies.All(), topologies.Others()) {
				fmt.Fprintf(w, "%s\n    %s\n", t.Name, t.Summary)
				if !slices.Contains(topologies.Names(), t.Name) {
					fmt.Fprintf(w, "    not one of -t all, nor of explore's families\n")
				}
				for _, p := range t.Params {
					fmt.Fprintf(w, "    --param %s=V  %s (default %d, allowed %d…%d)\n", p.Name, p.Doc, p.Default, p.Min, p.Max)
				}
				fmt.Fprintf(w, "    reference: %s\n", t.Reference)
			}
			return nil
		},
	}
}

func genCommand() *cli.Command {
	return &cli.Command{
		Name:      "gen",
		Usage:     "build one network and write it out",
		UsageText: "prefixgen gen -t TOPO -n N [--param k=V] [-f FORMAT] [-o FILE]\nprefixgen gen --from FILE [-f FORMAT] [-o FILE]\nprefixgen gen -t TOPO -n N -f verilog|vhdl -o FILE --testbench-out FILE [--vectors V] [--seed S]",
		Description: "Formats: text, the textbook diagram in plain text (one column per bit, one row per level);\n" +
			"json, the prefixgen.network/v1 document that --from reads back (with --sparse, --valency, --ling, --pg-cells, --fa-cells, --increment or --stages,\n" +
			"the prefixgen.adder/v1 document: the network and the adder's architecture); dot, Graphviz in the textbook\n" +
			"layout with pinned positions (draw it with neato -n2 -Tsvg); svg, the same picture drawn by\n" +
			"prefixgen itself; verilog, a synthesizable Verilog-2005 adder {cout, sum} = a + b + cin\n" +
			"(--testbench writes its self-checking testbench instead; --testbench-out FILE writes it too, in the same run); vhdl, the same adder as a VHDL-93 entity\n" +
			"that is also VHDL-2008 (--testbench likewise, with the Verilog testbench's vectors); yosys-lcu, a Yosys techmap module that\n" +
			"maps $lcu cells of width n, or of every width of --widths, to this network (techmap -map\n" +
			"+/techmap.v -map FILE; Yosys maps other widths itself). In dot, svg,\n" +
			"verilog and vhdl, black cells compute G and P, gray cells G only. --op, --no-cin, --flags,\n" +
			"--sparse, --valency, --ling, --pg-cells or --fa-cells (with --liberty; --increment for its blocks), --pipeline-after, --stages and --no-reset choose the adder's\n" +
			"architecture (docs/architectures.md); --valency also builds the radix-K kogge-stone or\n" +
			"sklansky for every format, though text, dot, svg and json show its binary cells (the Verilog and\n" +
			"VHDL merge each chain of them into one K-input gate; text draws ◆ a cell that reads an older\n" +
			"signal than its lines carry, which svg shows). A pipeline of K stages has a latency of K\n" +
			"cycles of clk (rising edge); rst is synchronous and active high, and clears every register.",
		Flags: append([]cli.Flag{
			topologyFlag(false), widthFlag(0), paramFlag(), fromFlag(),
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output format: " + strings.Join(genFormats, ", ") + " (see above)"},
			outputFlag(),
			&cli.BoolFlag{Name: "bit0-left", Usage: "text, dot, svg: draw bit 0 in the leftmost column", DefaultText: "bit 0 rightmost, as in Harris"},
			&cli.StringFlag{Name: "module", Usage: "verilog, vhdl, yosys-lcu: the module or entity `NAME` (a Verilog, or VHDL, identifier; default prefix_adder_<topology>[_<params>]_<n>[_<architecture>], such as prefix_adder_ladner_fischer_k1_32_sparse2, or _80_prefixgen_lcu_<topology>_<n>; a yosys-lcu map's sorts before Yosys's own _90_lcu, which techmap would take first, and does not begin with _90_, as techmap.v's own modules)"},
			&cli.BoolFlag{Name: "testbench", Usage: "verilog, vhdl: write the self-checking testbench of the adder instead of the adder"},
			&cli.StringFlag{Name: "testbench-out", Usage: "verilog, vhdl: write the adder's self-checking testbench to `FILE` as well, in the same run (the adder goes to -o FILE; both are written whole or neither)"},
			vectorsFlag(1000, "verilog, vhdl --testbench or --testbench-out: random vectors after the corner vectors"),
			seedFlag(), widthsFlag(),
			&cli.StringFlag{Name: "liberty", Usage: "verilog and vhdl with --pg-cells or --fa-cells: the library whose NAND2 and OAI21 cells, or full adder, the adder instantiates: " + libraryUsage, DefaultText: "osu018"},
			dontUseFlag(),
		}, archFlags()...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			write, writeTB, err := genFormat(c)
			if err != nil {
				return err
			}
			if err := checkOutputs(c); err != nil {
				return err
			}
			if c.IsSet("widths") {
				all, err := lcuWidths(c)
				if err != nil {
					return err
				}
				return output(c, all)
			}
			arch, err := architecture(c)
			if err != nil {
				return err
			}
			nets, err := archNetworks(c, false)
			if err != nil {
				return err
			}
			if err := checkArch(c, arch, nets); err != nil {
				return err
			}
			if c.String("format") == "yosys-lcu" {
				if n := nets[0].Width(); n > emit.MaxLCUWidth {
					return usage(c, "width %d too wide for a $lcu techmap: allowed 1 to %d", n, emit.MaxLCUWidth)
				}
				// The flags are refused with the format; a document's adder
				// is the document's, and a radix network carries its valency.
				plain := arch
				if topologies.ValencyOf(nets[0]) == arch.Normal().Valency {
					plain.Valency = adder.Standard.Valency
				}
				if !plain.IsStandard() {
					return usage(c, "-f yosys-lcu writes a network's carry tree for Yosys's $lcu cells, not the adder of %s (%s): allowed a network document, or -f verilog or vhdl for its adder", c.String("from"), plain.Name())
				}
			}
			if c.String("format") == "text" {
				params, _ := topologies.ParseParams(c.StringSlice("param"))
				if err := budget.Text(nets[0], c.String("topology"), params); err != nil {
					return usage(c, "%v", err)
				}
			}
			if writeTB != nil {
				return writeFiles(c,
					emit.File{Path: c.String("output"), Write: func(w io.Writer) error { return write(w, nets[0]) }},
					emit.File{Path: c.String("testbench-out"), Write: func(w io.Writer) error { return writeTB(w, nets[0]) }})
			}
			return output(c, func(w io.Writer) error { return write(w, nets[0]) })
		},
	}
}

// writeFiles writes files as emit.WriteFiles does, all or none; errors as
// writeFile's.
func writeFiles(c *cli.Context, files ...emit.File) error {
	err := emit.WriteFiles(files...)
	if _, bad := errors.AsType[*emit.PathError](err); bad && !errors.Is(err, syscall.EPIPE) {
		return usage(c, "%v", err)
	}
	if err != nil {
		return failure{fmt.Errorf("prefixgen %s: %w", c.Command.Name, err)}
	}
	return nil
}

// genTestbenchOut checks gen --testbench-out: a Verilog or VHDL adder
// written to -o FILE, another file than the testbench's.
func genTestbenchOut(c *cli.Context) error {
	if !c.IsSet("testbench-out") {
		return nil
	}
	f, tb, out := c.String("format"), c.String("testbench-out"), c.String("output")
	switch {
	case f != "verilog" && f != "vhdl":
		return usage(c, "--testbench-out applies to -f verilog and vhdl only, not %s", network.Quote(f))
	case c.Bool("testbench"):
		return usage(c, "--testbench and --testbench-out both given: use --testbench-out FILE with -o FILE for both files, or --testbench alone for the testbench")
	case tb == "" || tb == "-":
		return usage(c, "--testbench-out needs a file name: allowed a path (the adder goes to -o)")
	case out == "" || out == "-":
		return usage(c, "--testbench-out needs -o FILE for the adder: allowed -o FILE --testbench-out FILE, both written whole or neither")
	case emit.SamePath(out, tb):
		return usage(c, "-o %s and --testbench-out %s name the same file: allowed two files", out, tb)
	}
	return nil
}

// genFormats are the formats of gen -f, in the order help lists them.
var genFormats = []string{"text", "json", "dot", "svg", "verilog", "vhdl", "yosys-lcu"}

// genFormat returns the writer for gen -f and, with --testbench-out, the
// writer of the adder's testbench (nil without).
func genFormat(c *cli.Context) (write, writeTB func(io.Writer, *network.Network) error, err error) {
	write, err = genWriter(c)
	if err != nil || !c.IsSet("testbench-out") {
		return write, nil, err
	}
	arch, err := architecture(c)
	if err != nil {
		return nil, nil, err
	}
	vectors, err := vectors(c)
	if err != nil {
		return nil, nil, err
	}
	seed, err := verilogSeed(c)
	if err != nil {
		return nil, nil, err
	}
	opt := emit.TestbenchOptions{Module: c.String("module"), Vectors: vectors, Seed: seed, Adder: &arch}
	if c.String("format") == "vhdl" {
		return write, func(w io.Writer, n *network.Network) error { return emit.VHDLTestbench(w, n, opt) }, nil
	}
	return write, func(w io.Writer, n *network.Network) error { return emit.VerilogTestbench(w, n, opt) }, nil
}

// genWriter returns the writer for gen -f.
func genWriter(c *cli.Context) (func(io.Writer, *network.Network) error, error) {
	left := c.Bool("bit0-left")
	f := c.String("format")
	if c.Bool("testbench") && f != "verilog" && f != "vhdl" {
		return nil, usage(c, "--testbench applies to -f verilog and vhdl only, not %s", network.Quote(f))
	}
	if err := genTestbenchOut(c); err != nil {
		return nil, err
	}
	if c.Bool("bit0-left") && f != "text" && f != "dot" && f != "svg" {
		return nil, usage(c, "--bit0-left applies to -f text, dot and svg only, not %s", network.Quote(f))
	}
	for _, flag := range []string{"vectors", "seed"} {
		if c.IsSet(flag) && !c.Bool("testbench") && !c.IsSet("testbench-out") {
			return nil, usage(c, "--%s applies to -f verilog or vhdl --testbench (or --testbench-out) only", flag)
		}
	}
	if c.IsSet("module") && f != "verilog" && f != "vhdl" && f != "yosys-lcu" {
		return nil, usage(c, "--module applies to -f verilog, vhdl and yosys-lcu only, not %s", network.Quote(f))
	}
	for _, flag := range adder.FlagNames {
		// Every format is built with --valency (its radix-K network); the
		// adder document records what adder.DocumentFlags set.
		json := f == "json" && slices.Contains(adder.DocumentFlags, flag)
		if c.IsSet(flag) && f != "verilog" && f != "vhdl" && flag != adder.FlagValency && !json {
			formats := "verilog and vhdl"
			if slices.Contains(adder.DocumentFlags, flag) {
				formats = "verilog, vhdl and json (the adder document)"
			}
			return nil, usage(c, "--%s applies to -f %s only, not %s", flag, formats, network.Quote(f))
		}
	}
	arch, err := architecture(c)
	if err != nil {
		return nil, err
	}
	hdl := f == "verilog" || f == "vhdl"
	for _, flag := range []string{"liberty", "dont-use"} {
		if c.IsSet(flag) && (!arch.InstantiatesCells() || !hdl) {
			return nil, usage(c, "--%s applies to -f verilog or vhdl with --pg-cells or --fa-cells only: it names the library of the cells", flag)
		}
	}
	// The library's cells are read for -f verilog and vhdl only: the other
	// formats write no cell (-f json records that the adder has them).
	var cells *adder.Cells
	if hdl {
		if cells, err = libraryCells(c, arch); err != nil {
			return nil, err
		}
	}
	module := c.String("module")
	if module != "" {
		check := emit.CheckModuleName
		if f == "vhdl" {
			check = emit.CheckEntityName
		}
		if err := check(module); err != nil {
			return nil, usage(c, "%v", err)
		}
		if f == "yosys-lcu" {
			if err := emit.CheckLCUModuleName(module); err != nil {
				return nil, usage(c, "%v", err)
			}
		}
		if err := emit.CheckModuleCells(module, cells, f == "vhdl"); err != nil {
			return nil, usage(c, "%v", err)
		}
		if err := moduleApart(c, module, cells, f == "vhdl"); err != nil {
			return nil, err
		}
	}
	vectors, err := vectors(c)
	if err != nil {
		return nil, err
	}
	seed, err := verilogSeed(c)
	if err != nil {
		return nil, err
	}
	switch f {
	case "json":
		// The standard adder's network is a prefixgen.network/v1 document;
		// an adder of another architecture a prefixgen.adder/v1 one.
		// What an adder file was made for stays with its adder.
		target, _, err := madeFor(c)
		if err != nil {
			return nil, err
		}
		return func(w io.Writer, n *network.Network) error { return adder.WriteDocumentFor(w, n, arch, target) }, nil
	case "text":
		opt := emit.TextOptions{BitZeroLeft: left}
		return func(w io.Writer, n *network.Network) error { return emit.Text(w, n, opt) }, nil
	case "dot":
		opt := emit.DOTOptions{BitZeroLeft: left}
		return func(w io.Writer, n *network.Network) error { return emit.DOT(w, n, opt) }, nil
	case "svg":
		opt := emit.SVGOptions{BitZeroLeft: left}
		return func(w io.Writer, n *network.Network) error { return emit.SVG(w, n, opt) }, nil
	case "verilog":
		if c.Bool("testbench") {
			opt := emit.TestbenchOptions{Module: module, Vectors: vectors, Seed: seed, Adder: &arch}
			return func(w io.Writer, n *network.Network) error { return emit.VerilogTestbench(w, n, opt) }, nil
		}
		opt := emit.VerilogOptions{Module: module, Adder: &arch, Cells: cells}
		return func(w io.Writer, n *network.Network) error { return emit.Verilog(w, n, opt) }, nil
	case "vhdl":
		if c.Bool("testbench") {
			opt := emit.TestbenchOptions{Module: module, Vectors: vectors, Seed: seed, Adder: &arch}
			return func(w io.Writer, n *network.Network) error { return emit.VHDLTestbench(w, n, opt) }, nil
		}
		opt := emit.VHDLOptions{Entity: module, Adder: &arch, Cells: cells}
		return func(w io.Writer, n *network.Network) error { return emit.VHDL(w, n, opt) }, nil
	case "yosys-lcu":
		opt := emit.YosysLCUOptions{Module: module}
		return func(w io.Writer, n *network.Network) error { return emit.YosysLCU(w, n, opt) }, nil
	default:
		return nil, usage(c, "unknown format %s%s: allowed %s", network.Quote(f), didYouMean(f, genFormats), strings.Join(genFormats, ", "))
	}
}

// outputFlag is -o FILE of every command that writes a file.
func outputFlag() cli.Flag {
	return &cli.StringFlag{
		Name: "output", Aliases: []string{"o"},
		Usage: "write to `FILE` instead of standard output (- for standard output): a regular file is written whole or\n" +
			"\tnot at all, a symbolic link's target likewise, a device or FIFO directly; a directory is refused",
		Action: func(c *cli.Context, path string) error {
			if path == "" {
				return usage(c, "-o needs a file name: allowed a path, or - for standard output")
			}
			return nil
		},
	}
}

// output writes through fn to -o FILE or, without -o or with -o -, to
// standard output.
func output(c *cli.Context, fn func(io.Writer) error) error {
	if !c.IsSet("output") || c.String("output") == "-" {
		if err := fn(c.App.Writer); err != nil {
			return failure{fmt.Errorf("prefixgen %s: %w", c.Command.Name, err)}
		}
		return nil
	}
	return writeFile(c, "-o", c.String("output"), fn)
}

// writeFile writes through fn to the file path that flag named, as
// emit.WriteFile does (a regular file whole or not at all; a link's target,
// a device or a FIFO in place). A path that cannot be written, a directory
// or an empty name is bad input (exit status 2); an error of fn is a
// failure (exit status 1).
func writeFile(c *cli.Context, flag, path string, fn func(io.Writer) error) error {
	if path == "" {
		return usage(c, "%s needs a file name: allowed a path, or - for standard output", flag)
	}
	err := emit.WriteFile(path, fn)
	if _, bad := errors.AsType[*emit.PathError](err); bad && !errors.Is(err, syscall.EPIPE) {
		return usage(c, "%v", err)
	}
	if err != nil {
		return failure{fmt.Errorf("prefixgen %s: %w", c.Command.Name, err)}
	}
	return nil
}

// tableFormats are the formats of the commands that print tables.
var tableFormats = []string{"table", "json", "csv"}

// statsFormat returns the writer for -f table|json|csv; single says whether
// one network was asked for, which json prints as an object, not an array.
func statsFormat(c *cli.Context, single bool) (func(io.Writer, []emit.Stats) error, error) {
	switch f := c.String("format"); f {
	case "table":
		return emit.Table, nil
	case "csv":
		return emit.CSV, nil
	case "json":
		if single {
			return func(w io.Writer, rows []emit.Stats) error { return emit.StatsJSON(w, rows[0]) }, nil
		}
		return emit.StatsJSONArray, nil
	default:
		return nil, usage(c, "unknown format %s%s: allowed table, json, csv", network.Quote(f), didYouMean(f, tableFormats))
	}
}

func measure(nets []*network.Network) []emit.Stats {
	rows := make([]emit.Stats, len(nets))
	for i, n := range nets {
		rows[i] = emit.NewStats(n)
	}
	return rows
}

func statsCommand() *cli.Command {
	return &cli.Command{
		Name:      "stats",
		Usage:     "measure depth, size, max fan-out, wire tracks, deficiency, lateral fan-out and the model's delay (FO4)",
		UsageText: "prefixgen stats -t TOPO[,TOPO…]|all -n N [--param k=V] [--sparse S] [--valency K] [-f table|json|csv] [-o FILE]\nprefixgen stats --from FILE [--sparse S] [--valency K] [-f table|json|csv] [-o FILE]",
		Flags: []cli.Flag{
			topologyFlag(true), widthFlag(0), paramFlag(), fromFlag(),
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "table", Usage: "table, json (an object for one topology, an array for all) or csv"},
			outputFlag(), sparseFlag(), valencyFlag(),
		},
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			arch, err := architecture(c)
			if err != nil {
				return err
			}
			if !arch.IsStandard() {
				return adderStats(c, arch)
			}
			write, err := statsFormat(c, oneTopology(c))
			if err != nil {
				return err
			}
			if err := checkOutputs(c); err != nil {
				return err
			}
			nets, err := networks(c, true)
			if err != nil {
				return err
			}
			return output(c, func(w io.Writer) error { return write(w, measure(nets)) })
		},
	}
}

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:      "compare",
		Usage:     "every topology side by side (the main job)",
		UsageText: "prefixgen compare [-n N[,N…]] [-f table|json|csv] [-o FILE]",
		Description: "Builds every topology at width n (at each width of a list, in turn), proves each one, and prints\n" +
			"their figures side by side: Ladner–Fischer for k = 0 … 3; Knowles s = 2^(L−2) and Harris l = 1,\n" +
			"f = L−2 (L = ⌈log2 n⌉), the least fan-out after Kogge–Stone's and the sparse Sklansky tree; the\n" +
			"zero-deficiency network at its least depth; the others with their default parameters. Max fan-out is the\n" +
			"logical, unbuffered fan-out (cells reading a signal, +1 if it is an output), not Harris's.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "width", Aliases: []string{"n"}, Value: "64", Usage: "number of inputs (bits of the adder), n ≥ 1, or a comma-separated `LIST` of widths, each compared in turn in one table"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "table", Usage: "table, json (an array) or csv"},
			outputFlag(), progressFlags()[0], progressFlags()[1],
		},
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if _, err := progressMode(c); err != nil {
				return err
			}
			write, err := statsFormat(c, false)
			if err != nil {
				return err
			}
			if err := checkOutputs(c); err != nil {
				return err
			}
			widths, err := widthList(c)
			if err != nil {
				return err
			}
			var rows []emit.Stats
			for _, n := range widths {
				if err := budget.Compare(n, writes(c)); err != nil {
					return usage(c, "%v", err)
				}
			}
			// Wide networks take seconds each: a bar on a terminal, with
			// the time so far while one is measured.
			bar := newBar(c, "widths")
			bar.Update(0, len(widths))
			stop := bar.Beat(time.Second)
			for i, n := range widths {
				nets, err := topologies.Compare(n)
				if err != nil {
					stop()
					bar.Done()
					return usage(c, "%v", err)
				}
				rows = append(rows, measure(nets)...)
				bar.Update(i+1, len(widths))
			}
			stop()
			bar.Done()
			return output(c, func(w io.Writer) error { return write(w, rows) })
		},
	}
}

// widthRange matches a range of widths as gen --widths takes it, lo-hi,
// which compare's -n does not.
var widthRange = regexp.MustCompile(`^[0-9]+-[0-9]+$`)

// rangeExample writes the range lo-hi as the list it would be, lo,…,hi,
// where that is short.
func rangeExample(r string) string {
	a, b, _ := strings.Cut(r, "-")
	lo, errLo := strconv.Atoi(a)
	hi, errHi := strconv.Atoi(b)
	if errLo != nil || errHi != nil || hi < lo || hi-lo > 3 {
		return "8,16,32"
	}
	var each []string
	for n := lo; n <= hi; n++ {
		each = append(each, strconv.Itoa(n))
	}
	return strings.Join(each, ",")
}

// widthList returns -n of compare: one width or a comma-separated list of
// them, each a whole number in decimal, none twice.
func widthList(c *cli.Context) ([]int, error) {
	s := c.String("width")
	var widths []int
	items := strings.Split(s, ",")
	for i, item := range items {
		item = strings.TrimSpace(item)
		v, err := signed(strconv.IntSize)(item)
		switch {
		case err != nil && widthRange.MatchString(item) && len(items) == 1:
			return nil, usage(c, "-n %s is a range, which -n does not take: allowed widths separated by commas, as %s", network.Quote(s), rangeExample(item))
		case err != nil && widthRange.MatchString(item):
			return nil, usage(c, "-n %s: %s at place %d of its list is a range, which -n does not take: allowed widths separated by commas", network.Quote(s), network.Quote(item), i+1)
		case err != nil && len(items) == 1:
			return nil, usage(c, "invalid value %s for flag -n: %v (see prefixgen compare --help)", network.Quote(s), err)
		case err != nil && item == "":
			return nil, usage(c, "-n %s names no width at place %d of its list: allowed whole numbers separated by commas", network.Quote(s), i+1)
		case err != nil:
			return nil, usage(c, "-n %s: %s at place %d of its list: %v", network.Quote(s), network.Quote(item), i+1, err)
		}
		n, _ := strconv.Atoi(v)
		if slices.Contains(widths, n) {
			return nil, usage(c, "-n %s: width %d given twice: allowed each width once", network.Quote(s), n)
		}
		widths = append(widths, n)
	}
	return widths, nil
}

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "prove networks by spans, simulate them, and check their adders against math/big",
		UsageText: "prefixgen verify -t TOPO[,TOPO…]|all -n N [--param k=V] [--vectors V] [--seed S]\nprefixgen verify --from FILE [--vectors V] [--seed S]",
		Description: "For each network: the span proof (every cell joins adjacent spans, output i spans [0,i]);\n" +
			"evaluation over the interval monoid and over 2×2 matrices mod a prime (both non-commutative)\n" +
			"against the sequential scan; and the adder built around it against math/big: corner vectors,\n" +
			"every (a, b, cin) for n ≤ 10, and V seeded random vectors (bit-sliced, 64 at a time).\n" +
			"An adder document (--from, prefixgen.adder/v1) is checked as its adder: its gate-level\n" +
			"description (sparse tree, valency, Ling carries, pipeline, library cells' functions), every gate\n" +
			"evaluated on 64 vectors at once. Exit status 1 if any check fails.",
		Flags: []cli.Flag{
			topologyFlag(true), widthFlag(0), paramFlag(), fromFlag(),
			&cli.IntFlag{Name: "vectors", Value: 100000, Usage: fmt.Sprintf("random adder test vectors per network, 0 to %d", limits.MaxVectors)},
			&cli.StringFlag{Name: "liberty", Usage: "with --from an adder document whose adder has --pg-cells or --fa-cells, the library of its cells: " + libraryUsage, DefaultText: "the library it was made for, else osu018"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the random vectors and matrices"},
			progressFlags()[0], progressFlags()[1],
		},
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if v := c.Int("vectors"); v < 0 {
				return usage(c, "--vectors %d out of range: allowed 0 or more", v)
			}
			if v := c.Int("vectors"); v > limits.MaxVectors {
				return usage(c, "--vectors %d out of range: allowed 0 to %d (more would run for hours at wide widths; run again with another --seed for more)", v, limits.MaxVectors)
			}
			nets, err := networks(c, true)
			if err != nil {
				return err
			}
			// An adder document's adder is checked as it is described:
			// its sparse tree, valency, Ling carries, stages and cells.
			arch, desc := adder.Standard, (*adder.Description)(nil)
			if c.String("from") != "" {
				if arch, err = architecture(c); err != nil {
					return err
				}
				if c.IsSet("liberty") && !arch.InstantiatesCells() {
					return usage(c, "--liberty applies only with --from an adder document whose adder has library cells (pg_cells or fa_cells): %s has none", c.String("from"))
				}
				cells, err := libraryCells(c, arch)
				if err != nil {
					return err
				}
				if !arch.IsStandard() {
					if desc, err = adder.Describe(nets[0], arch, cells); err != nil {
						return usage(c, "%v", err)
					}
				}
			} else if c.IsSet("liberty") {
				return usage(c, "--liberty applies only with --from an adder document whose adder has library cells")
			}
			if _, err := progressMode(c); err != nil {
				return err
			}
			opt := simulate.VerifyOptions{Vectors: c.Int("vectors"), Seed: c.Uint64("seed")}
			// The bar counts networks, or with random vectors the vectors
			// of every network, where an int holds their sum (a 32-bit
			// build's does not hold 5 × 10^9).
			bar := newBar(c, "networks")
			per := 1
			if opt.Vectors > 0 && opt.Vectors <= math.MaxInt/max(len(nets), 1) {
				bar, per = newBar(c, "vectors"), opt.Vectors
			}
			total := len(nets) * per
			header := []string{"network", "width", "spans", "interval", "2×2 matrices", "corner", "exhaustive", "random", "adder"}
			rows := make([][]string, len(nets))
			reports := make([]simulate.Report, len(nets))
			// The total from the start, and the time so far while a
			// network's proofs run, which count no vector.
			bar.Update(0, total)
			stop := bar.Beat(time.Second)
			for i, n := range nets {
				opt.Progress = func(done, _ int) { bar.Update(i*per+done, total) }
				r, err := simulate.VerifyDescribed(n, desc, opt)
				bar.Update((i+1)*per, total)
				if err != nil {
					stop()
					bar.Done()
					return usage(c, "%v", err)
				}
				reports[i] = r
				a := r.Adder
				rows[i] = []string{emit.AdderName(n.Topology(), n.Params(), arch), strconv.Itoa(n.Width()), "proven", pass(r.Interval == nil), pass(r.Matrix == nil),
					strconv.Itoa(a.Corner), strconv.Itoa(a.Exhaustive), strconv.Itoa(a.Random), pass(a.Mismatch == nil)}
			}
			stop()
			bar.Done()
			if err := emit.WriteTable(c.App.Writer, header, rows); err != nil {
				return failure{err}
			}
			for _, r := range reports {
				if !r.OK() {
					return failure{fmt.Errorf("prefixgen verify: %s", r.Failure())}
				}
			}
			return nil
		},
	}
}

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "emit each adder and run Icarus, Verilator, Yosys, GHDL and Graphviz on it",
		UsageText: "prefixgen check -t TOPO[,TOPO…]|all -n N [--param k=V] [--vectors V] [--seed S] [--jobs J] [--keep DIR] [--op …] [--no-cin] [--flags …] [--sparse S] [--valency K] [--ling] [--pg-cells | --fa-cells [--increment] [--liberty …]] [--pipeline-after L,… | --stages K] [--no-reset] [--tool-timeout D]\nprefixgen check --from FILE [--vectors V] [--seed S] [--jobs J] [--tool-timeout D] [architecture flags]\nprefixgen check --verilog FILE [--top MODULE] [--liberty LIB [--dont-use 'GLOB …']] [--op …] [--no-cin] [--flags …] [--stages K] [--no-reset] [--vectors V] [--seed S] [--tool-timeout D]\nprefixgen check --vhdl FILE [--top ENTITY] [--liberty LIB] [--op …] [--no-cin] [--flags …] [--stages K] [--no-reset] [--vectors V] [--seed S] [--tool-timeout D]",
		Description: "For each network, writes the Verilog and VHDL adders, their testbenches and the DOT picture into a\n" +
			"temporary folder and runs what is installed: Icarus (the self-checking testbench must PASS), Verilator\n" +
			"(--lint-only -Wall: an error fails, a warning is WARN), Yosys (a miter against {cout, sum} = a + b + cin, or the\n" +
			"operation and flags the architecture flags ask for, delayed by the latency of a pipeline, proven by\n" +
			"sat -prove, with the proof that a cycle of rst clears every register of a pipeline that has one;\n" +
			fmt.Sprintf("up to %d bits; gates and longest path after techmap; opt; a + b + cin, a - b and a < b\n", toolcheck.MaxProofWidth) +
			"synthesized through the network's $lcu techmap, which Yosys must use, proven equal to them), neato -n2\n" +
			"(draws the DOT) and GHDL (the VHDL testbench must PASS, and up to the same width ghdl --synth of the\n" +
			"VHDL is proven equal to the Verilog; a pipeline's VHDL rst is proven to act as the Verilog's). Prints one row per check; a missing tool gets a line on standard error and\n" +
			"its checks are marked missing. A tool that fails, crashes, runs past --tool-timeout or ends without\n" +
			"the words of its verdict marks its check ERROR: nothing is known of the design. Exit status 1 if any\n" +
			"check fails or gets no verdict; a lint warning (WARN) is not a verdict and leaves it 0.\n" +
			"--keep DIR keeps each design's files and the tools' logs in DIR/<module>, as synth --workdir does.\n" +
			"--verilog FILE checks a module of your own (--top names it when the file has several) as the\n" +
			"adder --op, --no-cin and --flags describe, whose ports it must have (a, b, cin, sum, cout for\n" +
			"a + b + cin); its width is its input a's. --stages K says it is a pipeline of latency K, clocked\n" +
			"by clk, with a synchronous rst that clears it (--no-reset: without one). --liberty names the\n" +
			"library whose cells a netlist instantiates (synth's mapped.v): Yosys reads their functions from\n" +
			"it. The testbench, lint, equivalence and synthesis checks run; those that need a network are\n" +
			"skipped. --vhdl FILE checks an entity of your own the same way: GHDL analyses the file and\n" +
			"ghdl --synth writes it as a Verilog netlist, which those checks run on, and GHDL runs the VHDL\n" +
			"testbench of the adder's ports on the file itself; with --liberty, both read VHDL models of the\n" +
			"library's combinational cells and flip-flops, which the file may instantiate (gen -f vhdl --pg-cells).",
		Flags: append([]cli.Flag{
			topologyFlag(true), widthFlag(0), paramFlag(), fromFlag(),
			&cli.StringFlag{Name: "verilog", Usage: "check the module of your own Verilog `FILE` instead of a network's adder"},
			&cli.StringFlag{Name: "vhdl", Usage: "check the entity of your own VHDL `FILE` (VHDL-2008) instead of a network's adder"},
			&cli.StringFlag{Name: "top", Usage: "with --verilog or --vhdl, the `MODULE` or entity to check (default: the file's one module or entity)"},
			&cli.StringFlag{Name: "liberty", Usage: "with --verilog or --vhdl, the library of the cells the module or entity instantiates; with --pg-cells or --fa-cells, the library of the adder's cells: " + libraryUsage, DefaultText: "none, a module of Verilog alone; osu018 with --pg-cells or --fa-cells"},
			dontUseFlag(),
			vectorsFlag(1000, "random vectors of each testbench, after the corner vectors"),
			seedFlag(),
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "tools run at once", DefaultText: "the number of CPUs"},
			&cli.StringFlag{Name: "keep", Usage: "keep every design's sources, what the tools wrote and their logs (testbench.log, lint.log, …) in a folder named after the design under `DIR`, made if need be", DefaultText: "a temporary folder, removed"},
			toolTimeoutFlag(),
		}, append(archFlags(), progressFlags()...)...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			vectors, err := vectors(c)
			if err != nil {
				return err
			}
			seed, err := verilogSeed(c)
			if err != nil {
				return err
			}
			if j := c.Int("jobs"); j < 0 {
				return usage(c, "--jobs %d out of range: allowed 1 or more (0 for the number of CPUs)", j)
			}
			limit, err := toolTimeout(c)
			if err != nil {
				return err
			}
			if _, err := progressMode(c); err != nil {
				return err
			}
			opt := toolcheck.Options{Vectors: vectors, Seed: seed, Jobs: c.Int("jobs"), ToolTimeout: limit}
			if c.IsSet("keep") {
				// Before any work: nothing is made for a folder that
				// cannot be.
				if err := toolcheck.CheckKeep(c.String("keep")); err != nil {
					return usage(c, "%s", strings.TrimPrefix(err.Error(), "toolcheck: "))
				}
				opt.Keep = c.String("keep")
			}
			if c.IsSet("verilog") || c.IsSet("vhdl") {
				return checkVerilog(c, opt)
			}
			if c.IsSet("top") {
				return usage(c, "--top applies only with --verilog or --vhdl: allowed check --verilog FILE --top …")
			}
			nets, err := archNetworks(c, true)
			if err != nil {
				return err
			}
			if n := nets[0].Width(); n > toolcheck.MaxWidth {
				return usage(c, "width %d too wide to check: allowed 1 to %d", n, toolcheck.MaxWidth)
			}
			arch, err := architecture(c)
			if err != nil {
				return err
			}
			for _, flag := range []string{"liberty", "dont-use"} {
				if c.IsSet(flag) && !arch.InstantiatesCells() {
					return usage(c, "--%s applies only with --verilog, --vhdl, --pg-cells or --fa-cells: allowed check --verilog FILE --%s …", flag, flag)
				}
			}
			cells, err := libraryCells(c, arch)
			if err != nil {
				return err
			}
			if err := checkArch(c, arch, nets); err != nil {
				return err
			}
			opt.Adder, opt.Cells = &arch, cells
			if arch.InstantiatesCells() {
				if opt.Liberty, err = libertyPath(c); err != nil {
					return err
				}
			}
			designs := make([]*toolcheck.Design, len(nets))
			for i, n := range nets {
				if designs[i], err = toolcheck.NewDesign(n, opt); err != nil {
					if _, ok := errors.AsType[*toolcheck.InputError](err); ok {
						return usage(c, "%s", strings.TrimPrefix(err.Error(), "toolcheck: "))
					}
					return failure{fmt.Errorf("prefixgen check: %w", err)}
				}
			}
			return runChecks(c, designs, opt)
		},
	}
}

// libertyPath returns the plain Liberty file of the command's library
// (librarySpec: --liberty, or the library the --from file was made for;
// with --dont-use) that the tools read.
func libertyPath(c *cli.Context) (string, error) {
	spec, err := librarySpec(c)
	if err != nil {
		return "", err
	}
	p, err := physical.LibertyPath(spec, dontUse(c))
	if physical.IsSetup(err) {
		return "", usage(c, "%v", err)
	}
	if err != nil {
		return "", failure{fmt.Errorf("prefixgen %s: %w", c.Command.Name, err)}
	}
	return p, nil
}

// runChecks runs the checks of designs and prints their table.
func runChecks(c *cli.Context, designs []*toolcheck.Design, opt toolcheck.Options) error {
	for _, line := range toolcheck.MissingTools() {
		fmt.Fprintf(c.App.ErrWriter, "prefixgen check: %s\n", line)
	}
	bar := newBar(c, "checks")
	opt.Progress = bar.Update
	stop := bar.Beat(time.Second) // the time so far, while a check lasts
	results, err := toolcheck.Check(c.Context, designs, opt)
	stop()
	bar.Done()
	if _, ok := errors.AsType[*toolcheck.InputError](err); ok {
		return usage(c, "%s", strings.TrimPrefix(err.Error(), "toolcheck: "))
	}
	if err != nil {
		return failure{fmt.Errorf("prefixgen check: %w", err)}
	}
	if err := toolcheck.Table(c.App.Writer, results); err != nil {
		return failure{err}
	}
	if err := toolcheck.FirstToolError(results); err != nil {
		return failure{fmt.Errorf("prefixgen check: a tool failed, so some checks have no verdict (see the table): %w", err)}
	}
	if toolcheck.Failed(results) {
		return failure{errors.New("prefixgen check: some checks failed (see the table)")}
	}
	return nil
}

// checkVerilog is check --verilog: the user's own module checked as the
// adder the operation flags describe.
func checkVerilog(c *cli.Context, opt toolcheck.Options) error {
	hdl, err := hdlFlag(c)
	if err != nil {
		return err
	}
	for _, f := range []string{"topology", "width", "from", "param", "sparse", "valency", "ling", "pg-cells", "fa-cells", "increment", "pipeline-after"} {
		if c.IsSet(f) {
			return usage(c, "--%s does not apply to --%s: the file fixes the design (its latency is --stages K)", f, hdl)
		}
	}
	path, src, err := readHDL(c, hdl)
	if err != nil {
		return err
	}
	arch, err := architecture(c)
	if err != nil {
		return err
	}
	opt.Adder = &arch
	mo := toolcheck.ModuleOptions{Top: c.String("top")}
	if c.IsSet("dont-use") && !c.IsSet("liberty") {
		return usage(c, "--dont-use applies only with --liberty: allowed check --verilog FILE --liberty LIB --dont-use …")
	}
	if c.IsSet("liberty") {
		if mo.Liberty, err = libertyPath(c); err != nil {
			return err
		}
		mo.LibraryName = c.String("liberty")
	}
	newDesign := toolcheck.NewModuleDesign
	if hdl == "vhdl" {
		newDesign = toolcheck.NewVHDLModuleDesign
	}
	d, err := newDesign(c.Context, src, mo, opt)
	if err != nil {
		if _, ok := errors.AsType[*toolcheck.InputError](err); ok {
			return usage(c, "%s: %s", path, strings.TrimPrefix(err.Error(), "toolcheck: "))
		}
		return failure{fmt.Errorf("prefixgen check: %w", err)}
	}
	return runChecks(c, []*toolcheck.Design{d}, opt)
}
