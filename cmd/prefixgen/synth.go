package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/toolcheck"
)

// synthFlags are the flags that choose how the physical flow runs.
func synthFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "liberty", Value: physical.DefaultLibrary, Usage: "standard-cell library: " + libraryUsage},
		dontUseFlag(),
		&cli.StringFlag{Name: "flow", Value: string(physical.DefaultFlow), Usage: "keep (the network's structure kept: ABC only maps) or abc (ABC's full default script, as synth -flatten; abc -liberty)"},
		&cli.Float64Flag{Name: "load", Value: physical.DefaultOutputLoadPF, Usage: "capacitance on every output, in pF whatever unit the library counts in (0.01 is 10 fF)"},
		&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Usage: "designs synthesized at once, fewer where they would not fit in memory together", DefaultText: "the number of CPUs"},
		&cli.StringFlag{Name: "workdir", Usage: "keep every design's Verilog, scripts, mapped netlist and tool logs in `DIR` (default: a temporary folder, removed)"},
		&cli.StringFlag{Name: "cache", Usage: "keep every design's result in `DIR` (made if need be), and in a later run take it from there instead of running the design again, where the tools, the library, the scripts, the options and the design's Verilog are the same; remove DIR to empty it (default: none)"},
		toolTimeoutFlag(),
	}, progressFlags()...)
}

// synthFlagNames are the names of synthFlags, which explore and report
// take only with --synth.
var synthFlagNames = []string{"liberty", "dont-use", "flow", "load", "jobs", "workdir", "cache", "tool-timeout"}

// libraryUsage says what --liberty takes, in every command's help.
const libraryUsage = "osu018 (OSU 0.18 µm), osu035 (OSU 0.35 µm), sky130hd (SkyWater SKY130 high density), asap7 (ASAP7 7 nm RVT), " +
	"a Liberty `FILE` (.lib or .lib.gz), FILE,FILE,… (the files of one library) or a DIR of them; " +
	"a library of an OpenROAD-flow-scripts platform (sky130hd, nangate45, asap7) carries its record: dont-use cells, ABC's driver and load, tie and buffer cells"

// dontUseFlag is --dont-use of every command with --liberty.
func dontUseFlag() cli.Flag {
	return &cli.StringFlag{Name: "dont-use", Usage: "cells never to use, as `'GLOB …'` (* and ? wildcards, separated by spaces), added to the library's record (OpenROAD-flow-scripts' DONT_USE_CELLS)"}
}

// dontUse returns --dont-use as the globs it lists, or nil where the
// command has no such flag.
func dontUse(c *cli.Context) []string {
	if !hasFlag(c, "dont-use") {
		return nil
	}
	return strings.Fields(c.String("dont-use"))
}

// synthOptions returns the options of the physical flow from synthFlags.
func synthOptions(c *cli.Context) (physical.Options, error) {
	if _, err := progressMode(c); err != nil {
		return physical.Options{}, err
	}
	// Outputs first: a run refused for -o makes nothing in --workdir.
	if err := checkOutputs(c); err != nil {
		return physical.Options{}, err
	}
	flow, err := flowName(c)
	if err != nil {
		return physical.Options{}, err
	}
	if j := c.Int("jobs"); j < 0 {
		return physical.Options{}, usage(c, "--jobs %d out of range: allowed 1 or more (0 for the number of CPUs)", j)
	}
	load := c.Float64("load")
	if !(load > 0) || load > 1000 {
		return physical.Options{}, usage(c, "--load %g out of range: allowed above 0 up to 1000", load)
	}
	spec, err := librarySpec(c)
	if err != nil {
		return physical.Options{}, err
	}
	if spec == "" {
		return physical.Options{}, usage(c, "--liberty is empty: allowed osu018, osu035, sky130hd, asap7, a Liberty file, files separated by commas, or a folder of them")
	}
	timeout, err := toolTimeout(c)
	if err != nil {
		return physical.Options{}, err
	}
	if dir := c.String("cache"); dir != "" {
		if err := physical.CheckCache(dir); err != nil {
			return physical.Options{}, usage(c, "%v", err)
		}
	}
	// The library before any work: a bad one is bad input however long
	// the command would have run first.
	if err := physical.CheckLibrary(spec, dontUse(c)); err != nil {
		return physical.Options{}, usage(c, "%v", err)
	}
	return physical.Options{
		Liberty: spec, DontUse: dontUse(c), Flow: flow, OutputLoadPF: load,
		Workdir: c.String("workdir"), Cache: c.String("cache"), Jobs: c.Int("jobs"), Memory: budget.Memory, ToolTimeout: timeout,
	}, nil
}

// ordersFlag is the --orders of synth and optimize; when names when it
// applies.
func ordersFlag(when string) cli.Flag {
	return &cli.IntFlag{Name: "orders", Usage: when + "also measure every design `K` more times, the gates of its generic netlist (Yosys synth -noabc) in K orders, and take the median, least and greatest area and delay (0 to 100)"}
}

// orders returns --orders, checked.
func orders(c *cli.Context) (int, error) {
	k := c.Int("orders")
	if k < 0 || k > physical.MaxOrders {
		return 0, usage(c, "--orders %d out of range: allowed 0 to %d", k, physical.MaxOrders)
	}
	return k, nil
}

// synthesize runs designs through the flow with a progress bar on a
// terminal, and sorts a failure into bad input (exit 2) or a failed tool
// (exit 1).
func synthesize(c *cli.Context, designs []*physical.Design, opt physical.Options) ([]*physical.Result, error) {
	bar := newBar(c, "syntheses")
	opt.Progress = bar.Update
	stop := bar.Beat(time.Second) // the time so far, while a synthesis lasts
	results, err := physical.Run(c.Context, designs, opt)
	stop()
	bar.Done()
	if err != nil {
		if physical.IsSetup(err) {
			return nil, usage(c, "%v", err)
		}
		return nil, failure{fmt.Errorf("prefixgen %s: %v", c.Command.Name, err)}
	}
	return results, nil
}

// synthFormats are the formats of synth -f.
var synthFormats = []string{"table", "json", "csv"}

func synthCommand() *cli.Command {
	return &cli.Command{
		Name:      "synth",
		Usage:     "area and delay after synthesis (Yosys) and static timing (OpenSTA), next to Yosys's own a + b + cin",
		UsageText: "prefixgen synth -t TOPO[,TOPO…]|all -n N [--param k=V] [--liberty LIB [--dont-use 'GLOB …']] [--flow keep|abc] [--orders K] [-f table|json|csv] [-o FILE]\nprefixgen synth --from FILE [--liberty …] [--flow keep|abc] [-f table|json|csv] [-o FILE]\nprefixgen synth --verilog FILE [--top MODULE] [-I DIR] [-D NAME[=VALUE]] [-n N] [--liberty …] [--flow keep|abc] [-f table|json|csv] [-o FILE]\nprefixgen synth --vhdl FILE [--top ENTITY] [-n N] [--liberty …] [--flow keep|abc] [-f table|json|csv] [-o FILE]",
		Description: "Emits each network's Verilog adder, maps it onto a standard-cell library with Yosys and times it\n" +
			"with OpenSTA: area (µm², as Yosys's stat -liberty sums it), delay (ns, the worst input-to-output arrival with\n" +
			"inputs at 0 on a virtual clock and --load on every output), the number of standard cells and the\n" +
			"bits where the critical path starts and ends. The last row, yosys a+b+cin, is\n" +
			"assign {cout, sum} = a + b + cin through the same flow (Yosys's own Brent–Kung $lcu).\n" +
			"Flow keep maps the network as built (synth -noabc; ABC strash and &nf only); flow abc is plain\n" +
			"synth -flatten; abc -liberty, whose rewriting reshapes carry trees. Needs yosys and sta (Debian\n" +
			"packages yosys, opensta) and, for the default library, qflow-tech-osu018.\n" +
			"--verilog FILE puts a module of your own through the same flow (--top names it when the file has\n" +
			"several; -n N gives its width and adds Yosys's a + b + cin of N bits beside it): the topology column is\n" +
			"the module's name. A module with flip-flops (a pipelined adder, gen --stages K) is timed with its\n" +
			"clock inputs on one clock: its delay is the least clock period, setup time included, and registers\n" +
			"counts its flip-flops; latches and flip-flops not on the rising edge of an input are refused.\n" +
			"--vhdl FILE does the same with an entity of your own, which ghdl --synth writes as Verilog first;\n" +
			"it may instantiate the library's cells (gen -f vhdl --pg-cells writes such a file).\n" +
			"--stages K pipelines every adder as gen --stages does (--no-reset: registers without a reset); its\n" +
			"delay is then the least clock period.\n" +
			"ABC's result depends on the order it meets the gates in: --orders K measures every design K more\n" +
			"times, its generic netlist written with the gates in K orders, and adds the median and range.",
		Flags: append([]cli.Flag{
			topologyFlag(true), widthFlag(0), paramFlag(), fromFlag(),
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "table", Usage: "table, json (an array) or csv"},
			outputFlag(),
			sparseFlag(), valencyFlag(), lingFlag(), pgCellsFlag(), faCellsFlag(), incrementFlag(),
			&cli.IntFlag{Name: adder.FlagStages, Usage: "`K` register stages in every adder, placed to balance its logic (1 to depth + 1; gen --stages): its delay is then the least clock period", DefaultText: "none, combinational adders"},
			&cli.BoolFlag{Name: adder.FlagNoReset, Usage: "with --stages: registers without a reset (gen --no-reset)"},
			&cli.StringFlag{Name: "verilog", Usage: "synthesize the module of your own Verilog `FILE` instead of a network's adder"},
			&cli.StringFlag{Name: "vhdl", Usage: "synthesize the entity of your own VHDL `FILE` (VHDL-2008, through ghdl --synth) instead of a network's adder"},
			&cli.StringFlag{Name: "top", Usage: "with --verilog or --vhdl, the `MODULE` or entity to synthesize (default: the file's one module or entity)"},
			&cli.StringSliceFlag{Name: "include", Aliases: []string{"I"}, Usage: "with --verilog, a `DIR` that `include reads from after the file's own folder (repeatable)"},
			&cli.StringSliceFlag{Name: "define", Aliases: []string{"D"}, Usage: "with --verilog, a macro, `NAME` or NAME=VALUE (repeatable)"},
			ordersFlag(""),
		}, synthFlags()...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			format := c.String("format")
			if !slices.Contains(synthFormats, format) {
				return usage(c, "unknown format %s%s: allowed %s", network.Quote(format), didYouMean(format, synthFormats), strings.Join(synthFormats, ", "))
			}
			opt, err := synthOptions(c)
			if err != nil {
				return err
			}
			if opt.Orders, err = orders(c); err != nil {
				return err
			}
			if c.IsSet("verilog") || c.IsSet("vhdl") {
				return synthVerilog(c, format, opt)
			}
			if c.IsSet("top") {
				return usage(c, "--top applies only with --verilog or --vhdl: allowed synth --verilog FILE --top MODULE")
			}
			if err := verilogOnly(c, "the adders prefixgen writes"); err != nil {
				return err
			}
			nets, err := archNetworks(c, true)
			if err != nil {
				return err
			}
			arch, err := architecture(c)
			if err != nil {
				return err
			}
			cells, err := libraryCells(c, arch)
			if err != nil {
				return err
			}
			if err := checkArch(c, arch, nets); err != nil {
				return err
			}
			designs, err := synthDesigns(nets, arch, cells)
			if err != nil {
				return failure{fmt.Errorf("prefixgen synth: %w", err)}
			}
			return synthOutput(c, format, designs, opt)
		},
	}
}

// synthOutput runs designs through the flow and writes their results in
// format.
func synthOutput(c *cli.Context, format string, designs []*physical.Design, opt physical.Options) error {
	results, err := synthesize(c, designs, opt)
	if err != nil {
		return err
	}
	return output(c, func(w io.Writer) error {
		switch format {
		case "json":
			return physical.JSON(w, results)
		case "csv":
			return physical.CSV(w, results)
		}
		return physical.Table(w, results)
	})
}

// hdlFlag returns which of --verilog and --vhdl names the user's file,
// refusing both at once.
func hdlFlag(c *cli.Context) (string, error) {
	if c.IsSet("verilog") && c.IsSet("vhdl") {
		return "", usage(c, "--verilog and --vhdl: allowed one file of your own")
	}
	if c.IsSet("vhdl") {
		return "vhdl", nil
	}
	return "verilog", nil
}

// readHDL reads the file --verilog or --vhdl (flag) names, or says in one
// line why it cannot.
func readHDL(c *cli.Context, flag string) (path string, src []byte, err error) {
	path = c.String(flag)
	if path == "" {
		return "", nil, usage(c, "--%s needs a file name", flag)
	}
	src, err = readInput(path)
	if isTooLarge(err) {
		return "", nil, usage(c, "--%s %v", flag, err)
	}
	if err != nil {
		if pe, ok := errors.AsType[*os.PathError](err); ok {
			err = pe.Err
		}
		return "", nil, usage(c, "cannot read --%s %s: %v", flag, path, err)
	}
	return path, src, nil
}

// verilogOnly refuses --include and --define where they do not apply:
// what names the design that is not a Verilog file of the user's.
func verilogOnly(c *cli.Context, what string) error {
	for _, f := range []string{"include", "define"} {
		if c.IsSet(f) {
			return usage(c, "--%s does not apply to %s: allowed with synth --verilog FILE", f, what)
		}
	}
	return nil
}

// synthVerilog is synth --verilog and --vhdl: the user's own module through
// the flow (an entity as ghdl --synth writes it in Verilog), beside
// Yosys's a + b + cin of -n bits when -n is given.
func synthVerilog(c *cli.Context, format string, opt physical.Options) error {
	hdl, err := hdlFlag(c)
	if err != nil {
		return err
	}
	for _, f := range []string{"topology", "from", "param", "sparse", "valency", "ling", "pg-cells", "fa-cells", "increment", "stages", "no-reset"} {
		if c.IsSet(f) {
			return usage(c, "--%s does not apply to --%s: the file fixes the design", f, hdl)
		}
	}
	if hdl == "vhdl" {
		if err := verilogOnly(c, "VHDL"); err != nil {
			return err
		}
	}
	path, src, err := readHDL(c, hdl)
	if err != nil {
		return err
	}
	// Yosys, given the file, would look for what it includes in the
	// file's own folder first: the flow reads a copy.
	var includes []string
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		if dir, err := filepath.Abs(filepath.Dir(path)); err == nil {
			includes = append(includes, dir)
		}
	}
	includes = append(includes, c.StringSlice("include")...)
	if err := physical.CheckSources(c.StringSlice("include"), c.StringSlice("define")); err != nil {
		return usage(c, "%s", strings.TrimPrefix(err.Error(), "physical: "))
	}
	if err := budget.Design(path, int64(len(src))); err != nil {
		return usage(c, "%v", err)
	}
	if c.IsSet("width") {
		if err := budget.Reference(c.Int("width")); err != nil {
			return usage(c, "%v", err)
		}
	}
	top := c.String("top")
	if hdl == "vhdl" {
		// The file may instantiate the library's cells, as gen -f vhdl
		// --pg-cells writes them: the flow reads them as cells.
		lib, err := libertyPath(c)
		if err != nil {
			return err
		}
		if src, top, err = toolcheck.VHDLToVerilog(c.Context, toolcheck.VHDLSource{Src: src, Top: top, CellLibrary: lib}, opt.ToolTimeout); err != nil {
			if _, ok := errors.AsType[*toolcheck.InputError](err); ok {
				return usage(c, "%s: %s", path, strings.TrimPrefix(err.Error(), "toolcheck: "))
			}
			return failure{fmt.Errorf("prefixgen synth: %w", err)}
		}
	}
	newDesign := physical.VerilogDesign
	if hdl == "vhdl" {
		newDesign = physical.NetlistDesign
	}
	d, err := newDesign(src, top)
	if err != nil {
		return usage(c, "%s: %s", path, strings.TrimPrefix(err.Error(), "physical: "))
	}
	if hdl == "verilog" {
		d.Includes, d.Defines = includes, c.StringSlice("define")
	}
	designs := []*physical.Design{d}
	if c.IsSet("width") {
		d.Width = c.Int("width")
		ref, err := physical.ReferenceDesign(c.Int("width"))
		if err != nil {
			return usage(c, "-n %d out of range: allowed 1 or more", c.Int("width"))
		}
		designs = append(designs, ref)
	}
	return synthOutput(c, format, designs, opt)
}

// synthDesigns returns the adders of architecture arch around nets, with
// the library cells arch instantiates, followed by Yosys's
// a + b + cin of their width.
func synthDesigns(nets []*network.Network, arch adder.Architecture, cells *adder.Cells) ([]*physical.Design, error) {
	designs := make([]*physical.Design, 0, len(nets)+1)
	for _, n := range nets {
		d, err := physical.ArchitectureDesign(n, arch, cells)
		if err != nil {
			return nil, err
		}
		designs = append(designs, d)
	}
	ref, err := physical.ReferenceDesign(nets[0].Width())
	if err != nil {
		return nil, err
	}
	return append(designs, ref), nil
}
