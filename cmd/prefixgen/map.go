package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/designmap"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/physical"
)

// mapCommand is prefixgen map: every adder of a design given a network
// chosen for its place in it.
func mapCommand() *cli.Command {
	return &cli.Command{
		Name:      "map",
		Usage:     "give every adder of a whole design its own arrival-aware network, and report worst path and area before and after",
		UsageText: "prefixgen map DESIGN.v… --top T [-I DIR] [-D NAME=VALUE] [--liberty LIB] --clock-period NS [--clock PORT] [-o NETLIST] [--generic-out FILE] [--compare] [--check]",
		Description: "Yosys reads the design and runs it up to alumacc and its techmap: every addition, subtraction,\n" +
			"comparison and the final adder of every multi-operand sum ($macc: a carry-save tree, then an adder)\n" +
			"becomes one $lcu carry tree, one row of the table. The design is synthesized as Yosys does by default\n" +
			"(synth; abc -liberty with the platform's driver and load, so that ABC buffers and sizes, and -D the\n" +
			"clock period) and with every adder as each of ripple, Kogge–Stone, Brent–Kung, Sklansky, Han–Carlson\n" +
			"and Ladner–Fischer k=1, each network a module of its own that ABC maps without rewriting, and each is\n" +
			"timed with OpenSTA against --clock: every other input arrives at 0, every output is required at the\n" +
			"next edge (a design without registers or a clk input: against a virtual clock of the period). Where a sum is an operand of other sums (SHA-256's t1, read by a_new and e_new), the design\n" +
			"is also prepared with that sum's adders copied into each reader, so that each chain of additions is\n" +
			"one carry-save tree and one adder, and synthesized that way too (the \"sums merged\" rows).\n" +
			"From the best of each design, map reads when each adder's bits arrive and the slack of its outputs, gives\n" +
			"each adder networks by the delay model with those arrivals (as optimize --arrival does): the fastest\n" +
			"where it lacks slack; the fewest cells within part of its slack, or Yosys's own, where it has some;\n" +
			"measures each choice, and goes on from the best while that helps (--rounds). Best is the least worst\n" +
			"path (the period less the worst setup slack) while the clock is missed, the least area once it is met.\n" +
			"It prints a row per adder and the worst path and area before and after; -o writes the mapped netlist,\n" +
			"--generic-out the design with its adders as generic gates for another flow; --compare prints every\n" +
			"family's row; --check proves the result equal to the design with Yosys's own networks (Yosys's miter,\n" +
			"ABC's dprove). Needs yosys, yosys-abc and sta.",
		ArgsUsage: "DESIGN.v…",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "top", Usage: "the design's top `MODULE`"},
			&cli.StringSliceFlag{Name: "include", Aliases: []string{"I"}, Usage: "a `DIR` that `include reads from (repeatable)"},
			&cli.StringSliceFlag{Name: "define", Aliases: []string{"D"}, Usage: "a macro, `NAME` or NAME=VALUE (repeatable)"},
			&cli.StringFlag{Name: "liberty", Value: physical.DefaultLibrary, Usage: "standard-cell library: " + libraryUsage},
			dontUseFlag(),
			&cli.StringFlag{Name: "clock", Value: designmap.DefaultClock, Usage: "the clock input `PORT`; a design without registers or a clk input is timed against a virtual clock"},
			&cli.Float64Flag{Name: "clock-period", Usage: "the clock period in `NS`, 0.001 to 100000 (ABC's delay target and OpenSTA's clock)", DefaultText: "none, required"},
			&cli.IntFlag{Name: "rounds", Value: designmap.DefaultRounds, Usage: "re-choose the networks at most `N` times after the first choice, 1 to 1000"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the mapped netlist to `FILE`"},
			&cli.StringFlag{Name: "generic-out", Usage: "write the design with the chosen adders as generic gates to `FILE`"},
			&cli.BoolFlag{Name: "compare", Usage: "also map every adder to each named family and to Yosys's own, in the same flow, and print one table"},
			&cli.BoolFlag{Name: "check", Usage: "prove the result equal to the design with Yosys's own networks (Yosys miter, ABC dprove)"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "say on standard error what each round measured"},
			&cli.StringFlag{Name: "workdir", Usage: "keep every synthesis's scripts, netlists and logs in `DIR`, new or empty, written as the run goes and kept, those of a design map refuses too, but removed by a stop (default: a temporary folder, removed)"},
			toolTimeoutFlag(),
		}, progressFlags()...),
		OnUsageError: onUsageError,
		Action:       runMap,
	}
}

// runMap is map's action.
func runMap(c *cli.Context) error {
	if c.NArg() == 0 {
		return usage(c, "no design given: allowed one or more Verilog files, as prefixgen map design.v --top T --clock-period 10")
	}
	if !c.IsSet("top") {
		return usage(c, "no top module given: allowed --top MODULE")
	}
	designs := c.Args().Slice()
	for i, path := range designs {
		for _, before := range designs[:i] {
			if before == path || emit.SamePath(before, path) {
				return usage(c, "design file %s given twice (as %s): allowed each file once", path, before)
			}
		}
	}
	if !c.IsSet("clock-period") {
		return usage(c, "no clock period given: allowed --clock-period NS, a positive number of ns")
	}
	if _, err := progressMode(c); err != nil {
		return err
	}
	timeout, err := toolTimeout(c)
	if err != nil {
		return err
	}
	out, generic := c.String("output"), c.String("generic-out")
	for _, f := range []struct{ flag, name, path string }{{"-o", "output", out}, {"--generic-out", "generic-out", generic}} {
		if !c.IsSet(f.name) {
			continue
		}
		if f.path == "" || f.path == "-" {
			return usage(c, "%s needs a file name: allowed a path", f.flag)
		}
		if err := emit.CheckWritable(f.path); err != nil {
			return usage(c, "%v", err)
		}
	}
	if c.IsSet("output") && c.IsSet("generic-out") && emit.SamePath(out, generic) {
		return usage(c, "-o %s and --generic-out %s name the same file: allowed two files", out, generic)
	}
	if c.Int("rounds") < 1 || c.Int("rounds") > designmap.MaxRounds {
		return usage(c, "--rounds %d: allowed 1 to %d", c.Int("rounds"), designmap.MaxRounds)
	}
	what := c.Args().First()
	if c.NArg() > 1 {
		what = fmt.Sprintf("the design's %d files", c.NArg())
	}
	if err := budget.Design(what, designmap.Size(c.Args().Slice())); err != nil {
		return usage(c, "%v", err)
	}
	var clock string // the default port, or a virtual clock without it
	if c.IsSet("clock") {
		clock = c.String("clock")
	}
	bar := newBar(c, "syntheses")
	opt := designmap.Options{
		Files: c.Args().Slice(), Top: c.String("top"),
		Includes: c.StringSlice("include"), Defines: c.StringSlice("define"),
		Liberty: c.String("liberty"), DontUse: dontUse(c),
		Clock: clock, PeriodNS: c.Float64("clock-period"), Rounds: c.Int("rounds"),
		Compare: c.Bool("compare"), Check: c.Bool("check"), Memory: budget.Memory, Timeout: timeout, Workdir: c.String("workdir"),
		Progress: bar.Update,
	}
	if c.Bool("verbose") {
		// Above the bar, on a terminal.
		opt.Trace = func(line string) { bar.Println("prefixgen map: " + line) }
	}
	stop := bar.Beat(time.Second) // the time so far, while a synthesis lasts
	res, err := designmap.Map(c.Context, opt)
	stop()
	bar.Done()
	if err != nil {
		if designmap.IsInput(err) {
			return usage(c, "%v", err)
		}
		return failure{fmt.Errorf("prefixgen map: %w", err)}
	}
	var files []emit.File
	if c.IsSet("output") {
		files = append(files, emit.File{Path: out, Write: bytesWriter(res.Netlist)})
	}
	if c.IsSet("generic-out") {
		files = append(files, emit.File{Path: generic, Write: bytesWriter(res.Generic)})
	}
	if len(files) > 0 {
		if err := writeFiles(c, files...); err != nil {
			return err
		}
	}
	if len(res.Adders) == 0 {
		fmt.Fprintf(c.App.ErrWriter, "prefixgen map: no adders in %s: the design is written as Yosys maps it\n", opt.Top)
	}
	if err := designmap.WriteReport(c.App.Writer, res); err != nil {
		return failure{fmt.Errorf("prefixgen map: %w", err)}
	}
	return nil
}

// bytesWriter writes b.
func bytesWriter(b []byte) func(io.Writer) error {
	return func(w io.Writer) error { _, err := w.Write(b); return err }
}

// missingValue reports whether next, the word after a flag that takes a
// value, is another flag rather than the value: it begins with - and is
// neither - (standard output) nor a number (--clock-period -2 is told
// what is allowed).
func missingValue(next string) bool {
	if len(next) < 2 || next[0] != '-' {
		return false
	}
	_, err := strconv.ParseFloat(next, 64)
	return err != nil
}

// flagsFirst moves the flags of cmd's arguments (everything after its
// name) before its files, so that map design.v --top T reads as Yosys's
// and Verilator's command lines do; Go's flag parsing stops at the first
// file. A flag's value travels with it; "--" ends the flags. A flag
// that wants a value it has not got (the last word, or another flag
// after it) ends the flags, without the files, so that it is told its
// value is missing; a completion's query is left as it is.
func flagsFirst(cmd *cli.Command, args []string) []string {
	if len(args) > 0 && args[len(args)-1] == "--generate-bash-completion" {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flags, files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case len(a) > 1 && a[0] == '-':
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] {
				if i+1 == len(args) || missingValue(args[i+1]) {
					return flags
				}
				flags = append(flags, args[i+1])
				i++
			}
		default:
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		return flags
	}
	return append(append(flags, "--"), files...)
}
