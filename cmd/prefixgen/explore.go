package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/internal/progress"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/report"
)

// exploreFormats are the formats of explore -f.
var exploreFormats = []string{"table", "json", "csv"}

func maxFanoutFlag() cli.Flag {
	return &cli.IntFlag{Name: "max-fanout", Usage: "keep only networks whose maximum fan-out is at most `F` (0: no bound)"}
}

// explorePoints enumerates the networks at -n within --max-fanout.
func explorePoints(c *cli.Context) (all, front []explore.Point, err error) {
	n := c.Int("width")
	f := c.Int("max-fanout")
	if f < 0 {
		return nil, nil, usage(c, "--max-fanout %d out of range: allowed 0 (no bound) or more", f)
	}
	if c.IsSet("seed") && c.Bool("no-optimize") {
		return nil, nil, usage(c, "--seed applies to the optimizer's networks: allowed without --no-optimize")
	}
	if s := c.Uint64("seed"); s > math.MaxInt {
		return nil, nil, usage(c, "--seed %d out of range: allowed 0 to %d, which the optimizer's networks record", s, math.MaxInt)
	}
	eopt := explore.Options{MaxFanout: f, Optimizer: optimizer(c), CarrySelect: c.Bool(carrySelectFlagName)}
	if c.Bool("synth") && c.IsSet(adder.FlagValency) {
		if eopt.Valencies, err = explore.ParseValencies(c.String(adder.FlagValency)); err != nil {
			return nil, nil, usage(c, "%v", err)
		}
	}
	if c.IsSet("seed") && len(eopt.Valencies) > 0 && !slices.Contains(eopt.Valencies, 2) {
		return nil, nil, usage(c, "--seed applies to the optimizer's networks, of binary cells, which --valency %s leaves out: allowed --valency with 2 among its valencies", c.String(adder.FlagValency))
	}
	if eopt.CarrySelect && len(eopt.Valencies) > 0 && !slices.Contains(eopt.Valencies, 2) {
		return nil, nil, usage(c, "--carry-select adds networks of binary cells, which --valency %s leaves out: allowed --valency with 2 among its valencies", c.String(adder.FlagValency))
	}
	all, err = explore.Enumerate(c.Context, n, eopt)
	if err != nil {
		return nil, nil, usage(c, "%v", err)
	}
	if len(all) == 0 {
		// The least fan-out of the networks the flags enumerate: without
		// valency 2 there is no ripple, whose fan-out is
		// explore.MinFanout.
		least := explore.MinFanout(n)
		if len(eopt.Valencies) > 0 && !slices.Contains(eopt.Valencies, 2) {
			unbounded := eopt
			unbounded.MaxFanout, unbounded.Optimizer = 0, nil
			every, err := explore.Enumerate(c.Context, n, unbounded)
			if err != nil {
				return nil, nil, usage(c, "%v", err)
			}
			least = math.MaxInt
			for _, p := range every {
				least = min(least, p.Figures.MaxFanout)
			}
		}
		return nil, nil, usage(c, "no network of width %d has a fan-out of at most %d: allowed --max-fanout %d or more", n, f, least)
	}
	return all, explore.Front(all), nil
}

func exploreCommand() *cli.Command {
	return &cli.Command{
		Name:      "explore",
		Usage:     "every family at every parameter setting: the Pareto front over depth, size, fan-out and tracks",
		UsageText: "prefixgen explore -n N [--max-fanout F] [--carry-select] [--no-optimize | --seed S] [--all] [-f table|json|csv] [--plot FILE.svg|FILE.png] [-o FILE]\nprefixgen explore -n N --synth [--carry-select] [--sparse S,…] [--valency K,…] [--ling] [--pg-cells | --fa-cells [--increment]] [--every-option] [--with FILE,…] [--stages K [--no-reset]] [--orders K] [--liberty LIB [--dont-use 'GLOB …']] [--flow keep|abc] [--all] [-f table|json|csv] [--plot FILE.svg|FILE.png] [-o FILE]",
		Description: "Builds every topology at width N at every distinct setting of its parameters, adds the\n" +
			"optimizer's smallest network for every depth from ⌈log2 N⌉ to 2⌈log2 N⌉ − 2 (N ≤ 256), and prints the\n" +
			"networks no other one beats on depth, size, maximum fan-out and wire tracks at once (--all prints\n" +
			"every network), each with where it came from and the command that rebuilds it; --carry-select adds\n" +
			"the carry-select networks (gen -t carry-select), which are not among the families. --plot draws size\n" +
			"against depth, one colour and shape per family, the marker's size by its fan-out, the optimizer\n" +
			"under fan-out ≤ 4 too (drawn only), Snir's bound 2N − 2 − depth as a line.\n" +
			"With --synth, every network's adder goes through Yosys and OpenSTA (as prefixgen synth; --liberty,\n" +
			"--flow, --load, --jobs, --workdir apply) and explore prints the networks no other one beats on area\n" +
			"and delay at once, fastest first (--all: every network); -f json and -f csv print every network with on_front\n" +
			"and its prefixgen.network/v1 document (network_json), then Yosys's a + b + cin (family yosys, no network);\n" +
			"--plot draws area against delay with Yosys's a + b + cin.\n" +
			"--sparse S (1, 2, 4, 8, or a list such as 1,4) synthesizes every network as the sparse-S adder (gen -f\n" +
			"verilog --sparse S), one row per network and sparseness, and the front is taken over all of them.\n" +
			"--valency K (2, 3, 4, or a list such as 2,3,4) chooses the networks: 2 every family and the optimizer,\n" +
			"3 and 4 the radix-K kogge-stone and sklansky, each adder's cells of up to K inputs (gen --valency K).\n" +
			"--ling builds every adder with Ling's pseudo-carries (gen --ling), --pg-cells with each bit's generate and\n" +
			"propagate as the library's NAND2 and OAI21 cells (gen --pg-cells), --fa-cells with the library's full adders\n" +
			"(gen --fa-cells); run explore twice, with and without,\n" +
			"to compare the two fronts, or once with --every-option, which measures each network at every sparseness\n" +
			"with and without each (--fa-cells on the adders of binary cells, where the library has a full adder). --with FILE,… measures the adders of the files too (optimize -f json's documents,\n" +
			"their own architecture; network documents, the run's), named by their files and on the plot.\n" +
			"--stages K pipelines every adder (gen --stages; --no-reset: registers without a reset): delays are\n" +
			"then least clock periods, and the table counts the flip-flops.\n" +
			"--orders K measures every adder K more times, its gates in K orders (see synth --orders), and\n" +
			"takes the front and the plot over the medians.",
		Flags: append([]cli.Flag{
			widthUpToFlag(64, explore.MaxWidth), maxFanoutFlag(),
			&cli.BoolFlag{Name: "all", Usage: "print every network, not only the Pareto front"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "table", Usage: "output format: table, json, csv"},
			&cli.StringFlag{Name: "plot", Usage: "also draw size against depth into `FILE` (.svg or .png; written as -o writes)", Action: func(c *cli.Context, path string) error {
				if path == "" {
					return usage(c, "--plot needs a file name ending in .svg or .png")
				}
				return nil
			}},
			outputFlag(),
			&cli.BoolFlag{Name: "synth", Usage: "synthesize every network's adder (Yosys, OpenSTA; see prefixgen synth) and print the area–delay front instead; --plot draws area against delay"},
			&cli.StringSliceFlag{Name: "with", Usage: "with --synth, measure the adder of each `FILE` too (a prefixgen.adder/v1 document, such as optimize -f json writes, with its own architecture, or a prefixgen.network/v1 one, with the run's): a comma-separated list, or the flag again; a row each, named by its file, and on the plot a labelled diamond"},
			&cli.StringFlag{Name: adder.FlagValency, Value: "2", Usage: "with --synth, the valencies of the networks measured: 2 (every family and the optimizer, of binary cells), 3 or 4 (the radix-`K` kogge-stone and sklansky of gen --valency K, cells of K inputs), or a comma-separated list such as 2,3,4"},
		}, append(append(adderFlags(), optimizerFlags()...), synthFlags()...)...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if err := adderFlagsOnlyWithSynth(c); err != nil {
				return err
			}
			if c.IsSet("with") && !c.Bool("synth") {
				return usage(c, "--with applies only with --synth: allowed explore --synth --with FILE")
			}
			if c.IsSet(adder.FlagValency) && !c.Bool("synth") {
				return usage(c, "--valency applies only with --synth: allowed explore --synth --valency K with K among 2, 3, 4 or a list of them")
			}
			format := c.String("format")
			if !slices.Contains(exploreFormats, format) {
				return usage(c, "unknown format %s%s: allowed %s", network.Quote(format), didYouMean(format, exploreFormats), strings.Join(exploreFormats, ", "))
			}
			plotPath := c.String("plot")
			plotFormat := strings.TrimPrefix(strings.ToLower(filepath.Ext(plotPath)), ".")
			if plotPath != "" && !slices.Contains(report.PlotFormats, plotFormat) {
				return usage(c, "--plot %s: unknown picture type %s: allowed .svg, .png", plotPath, network.Quote(filepath.Ext(plotPath)))
			}
			if out := c.String("output"); plotPath != "" && out != "" && out != "-" && emit.SamePath(plotPath, out) {
				return usage(c, "--plot %s and -o %s name the same file: allowed two files, one for the picture and one for the table", plotPath, out)
			}
			if err := checkOutputs(c); err != nil {
				return err
			}
			if c.Bool("synth") {
				return exploreSynth(c, format, plotPath, plotFormat)
			}
			if err := synthOnly(c); err != nil {
				return err
			}
			if _, err := progressMode(c); err != nil {
				return err
			}
			runs := 1
			if c.IsSet("plot") && c.Int("max-fanout") == 0 {
				runs = 2 // the optimizer under a fan-out bound too
			}
			endBar := startOptimizerBar(c, runs)
			defer endBar()
			all, front, err := explorePoints(c)
			if err != nil {
				return err
			}
			var plot func(io.Writer) error
			if c.IsSet("plot") {
				drawn := all
				if c.Int("max-fanout") == 0 {
					// The optimizer under a fan-out bound too, drawn only.
					bounded, err := explore.Bounded(c.Context, c.Int("width"), optimizer(c), report.PlotFanoutBound)
					if err != nil {
						return usage(c, "%v", err)
					}
					drawn = append(slices.Clone(all), bounded...)
				}
				if plot, err = rendered(func(w io.Writer) error {
					return report.Plot(w, c.Int("width"), drawn, front, plotFormat)
				}); err != nil {
					return failure{fmt.Errorf("prefixgen explore: %w", err)}
				}
			}
			shown := front
			if c.Bool("all") {
				shown = all
			}
			endBar() // its line cleared before standard output is written
			if plot != nil {
				if err := writeFile(c, "--plot", plotPath, plot); err != nil {
					return err
				}
			}
			return output(c, func(w io.Writer) error {
				switch format {
				case "json":
					return explore.JSON(w, shown)
				case "csv":
					return explore.CSV(w, shown)
				}
				return explore.Table(w, shown)
			})
		},
	}
}

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:      "report",
		Usage:     "one self-contained HTML page: every network's figures, diagram and command, and the plot",
		UsageText: "prefixgen report -n N [--max-fanout F] [--carry-select] [--no-optimize | --seed S] [--synth [--sparse S,…] [--ling] [--pg-cells | --fa-cells [--increment]] [--every-option] [--stages K [--no-reset]] [--orders K] [--liberty …] [--flow keep|abc]] [-o FILE.html]",
		Description: "Writes one HTML page that loads nothing from outside and runs no script: the size-against-depth\n" +
			"plot of explore, the table of every network explore finds at width N (the Pareto front in bold),\n" +
			fmt.Sprintf("and each network's diagram with the command that rebuilds it. Widths 1 to %d.\n", report.MaxWidth) +
			"With --synth, every network's adder goes through Yosys and OpenSTA as in explore --synth: the page\n" +
			"adds the area–delay plot with Yosys's own a + b + cin, and each network's area, delay and place\n" +
			"on the area–delay front. --sparse, --ling, --pg-cells, --stages, --no-reset and --orders choose the adders\n" +
			"and how often each is measured as in explore --synth: a row per adder, named, and with --orders\n" +
			"the medians.",
		Flags: append([]cli.Flag{
			widthUpToFlag(32, report.MaxWidth), maxFanoutFlag(),
			outputFlag(),
			&cli.BoolFlag{Name: "synth", Usage: "also synthesize every network's adder (Yosys, OpenSTA; see prefixgen synth): the area–delay plot, and area and delay in the table"},
		}, append(append(adderFlags(), optimizerFlags()...), synthFlags()...)...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			n := c.Int("width")
			if n < 1 || n > report.MaxWidth {
				return usage(c, "width %d out of range for a report: allowed 1 to %d", n, report.MaxWidth)
			}
			if err := checkOutputs(c); err != nil {
				return err
			}
			if err := adderFlagsOnlyWithSynth(c); err != nil {
				return err
			}
			var (
				opt    physical.Options
				adders []adder.Architecture
				cells  *adder.Cells
			)
			if c.Bool("synth") {
				var err error
				if opt, adders, cells, err = adderSynthOptions(c); err != nil {
					return err
				}
			} else if err := synthOnly(c); err != nil {
				return err
			}
			if _, err := progressMode(c); err != nil {
				return err
			}
			runs := 1
			if c.Int("max-fanout") == 0 {
				runs = 2 // the optimizer under a fan-out bound too
			}
			endBar := startOptimizerBar(c, runs)
			defer endBar()
			all, front, err := explorePoints(c)
			if err != nil {
				return err
			}
			cmd := fmt.Sprintf("prefixgen report -n %d", n)
			if f := c.Int("max-fanout"); f > 0 {
				cmd += fmt.Sprintf(" --max-fanout %d", f)
			}
			for _, f := range []string{carrySelectFlagName, "no-optimize"} {
				if c.Bool(f) {
					cmd += " --" + f
				}
			}
			if c.IsSet("seed") && !c.Bool("no-optimize") {
				cmd += fmt.Sprintf(" --seed %d", c.Uint64("seed"))
			}
			ropt := report.Options{}
			if c.Int("max-fanout") == 0 {
				// The optimizer under a fan-out bound, drawn only, as
				// explore --plot draws it.
				if ropt.Drawn, err = explore.Bounded(c.Context, n, optimizer(c), report.PlotFanoutBound); err != nil {
					return usage(c, "%v", err)
				}
			}
			endBar()
			if c.Bool("synth") {
				cmd += " --synth"
				for _, f := range []string{"sparse", "ling", "pg-cells", "fa-cells", "increment", everyOption, "stages", "no-reset", "orders", "liberty", "dont-use", "flow", "load"} {
					switch {
					case f == "ling" || f == "pg-cells" || f == "fa-cells" || f == "increment" || f == everyOption || f == "no-reset":
						if c.Bool(f) {
							cmd += " --" + f
						}
					case c.IsSet(f):
						cmd += fmt.Sprintf(" --%s %s", f, emit.ShellWord(fmt.Sprint(c.Value(f))))
					}
				}
				if ropt.Measured, ropt.Reference, err = synthMeasureAdders(c, explore.Each(all, adders), cells, opt); err != nil {
					return err
				}
			}
			if o := c.String("output"); o != "" {
				cmd += " -o " + emit.ShellWord(filepath.Base(o))
			}
			ropt.Command = cmd
			return output(c, func(w io.Writer) error {
				return report.HTML(w, n, all, front, ropt)
			})
		},
	}
}

// optimizer returns the optimizer explore and report add to the families,
// or nil under --no-optimize.
func optimizer(c *cli.Context) explore.Optimizer {
	if c.Bool("no-optimize") {
		return nil
	}
	opt := explore.Optimize(c.Uint64("seed"))
	bar, ok := c.App.Metadata[optimizerBar].(*optimizerProgress)
	if !ok {
		return opt
	}
	return func(ctx context.Context, n, maxDepth, maxFanout int) (*network.Network, string, error) {
		net, cmd, err := opt(ctx, n, maxDepth, maxFanout)
		bar.done++
		bar.Update(bar.done, bar.total)
		return net, cmd, err
	}
}

// optimizerBar is the key of App.Metadata that holds the progress of
// explore's and report's optimizer runs.
const optimizerBar = "optimizer progress"

// optimizerProgress counts the optimizer runs of explore and report.
type optimizerProgress struct {
	*progress.Bar
	done, total int
}

// startOptimizerBar shows the progress of the optimizer runs of the
// command, runs times each width's, from 0 and with the time so far while
// a run lasts; the returned func ends it, clearing its line, once
// however often it is called.
func startOptimizerBar(c *cli.Context, runs int) func() {
	total := runs * explore.OptimizerRuns(c.Int("width"))
	if c.Bool("no-optimize") || total == 0 {
		return func() {}
	}
	p := &optimizerProgress{Bar: newBar(c, "optimizer runs"), total: total}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[optimizerBar] = p
	p.Update(0, total)
	stop := p.Beat(time.Second) // the time so far, while a run lasts
	var once sync.Once
	return func() {
		once.Do(func() {
			stop()
			p.Done()
			delete(c.App.Metadata, optimizerBar)
		})
	}
}

// carrySelectFlagName is the flag of explore and report that adds the
// carry-select networks to the families'.
const carrySelectFlagName = "carry-select"

// optimizerFlags are the flags of explore and report that choose the
// networks beside the families' and steer the optimizer.
func optimizerFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: carrySelectFlagName, Usage: fmt.Sprintf("add the carry-select networks (gen -t carry-select) of every first segment from 1 to N − 1 bits, the segments above it growing by 0 to %d bits: the uniform, the square-root and faster-growing carry-select adders, not among the families", explore.CarrySelectGrowths-1)},
		&cli.BoolFlag{Name: "no-optimize", Usage: "leave out the optimizer's networks (faster)"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the optimizer's annealing chains, 0 to 2^63 − 1"},
	}
}

// adderFlags are the flags of explore and report that choose the adders
// --synth measures and how often.
func adderFlags() []cli.Flag {
	return []cli.Flag{
		sparseListFlag("with --synth, "),
		&cli.BoolFlag{Name: adder.FlagLing, Usage: "with --synth, measure every adder with Ling's pseudo-carries (see gen --ling)"},
		&cli.BoolFlag{Name: adder.FlagPGCells, Usage: "with --synth, measure every adder with each bit's generate and propagate as the library's NAND2 and OAI21 cells (see gen --pg-cells)"},
		&cli.BoolFlag{Name: adder.FlagFACells, Usage: "with --synth, measure every adder with the library's full adders where its network adds one bit at a time, or in the blocks of a sparse tree (see gen --fa-cells; dense adders of binary cells, without --ling or --pg-cells)"},
		&cli.BoolFlag{Name: adder.FlagIncrement, Usage: "with --synth and --fa-cells, measure every sparse adder of full adders with carry-increment blocks (see gen --increment); with --every-option, each also with them, beside its carry-select blocks"},
		&cli.BoolFlag{Name: everyOption, Usage: "with --synth, measure every network four times at each sparseness of --sparse, or at every one up to n without it: as written, with --ling, with --pg-cells, and with both; and, where the library has a full adder, with --fa-cells: the dense adder of binary cells once more, each sparse one four times more (as written, with --ling, with --pg-cells, and with both)"},
		&cli.IntFlag{Name: adder.FlagStages, Usage: "with --synth, pipeline every adder with `K` register stages placed to balance its logic (gen --stages; 1 to the shallowest carry tree's depth + 1): delays are then least clock periods", DefaultText: "none"},
		&cli.BoolFlag{Name: adder.FlagNoReset, Usage: "with --stages, registers without a reset (gen --no-reset)"},
		ordersFlag("with --synth, take the front over medians: "),
	}
}

// adderFlagsOnlyWithSynth refuses adderFlags without --synth.
func adderFlagsOnlyWithSynth(c *cli.Context) error {
	if c.Bool("synth") {
		return nil
	}
	name := c.Command.Name
	if c.IsSet("sparse") {
		return usage(c, "--sparse applies only with --synth: allowed %s --synth --sparse S with S among %s or a list of them", name, sparseAllowed())
	}
	for _, f := range []string{"ling", "pg-cells", "fa-cells", "increment", everyOption, "stages", "no-reset", "orders"} {
		if c.IsSet(f) {
			return usage(c, "--%s applies only with --synth: allowed %s --synth --%s", f, name, f)
		}
	}
	return nil
}

// everyOption is the flag of explore and report that measures every
// network with every architecture option.
const everyOption = "every-option"

// adderSynthOptions returns the options of the physical flow, --orders
// among them, the architectures of the adders adderFlags ask for (one per
// sparseness of --sparse) and the library's cells where they need them.
func adderSynthOptions(c *cli.Context) (physical.Options, []adder.Architecture, *adder.Cells, error) {
	opt, err := synthOptions(c)
	if err != nil {
		return opt, nil, nil, err
	}
	src := adder.Without(c, adder.FlagValency) // explore's --valency chooses networks
	every := c.Bool(everyOption)
	increment := every && c.Bool(adder.FlagIncrement)
	if increment {
		// Beside every option's adders of full adders (EachIncrement).
		src = adder.Without(c, adder.FlagValency, adder.FlagIncrement)
	}
	if every {
		for _, f := range []string{adder.FlagLing, adder.FlagPGCells} {
			if c.IsSet(f) {
				return opt, nil, nil, usage(c, "--%s and --%s: --%s measures every adder with and without --%s already: allowed one of them", everyOption, f, everyOption, f)
			}
		}
		if c.Bool(adder.FlagFACells) {
			return opt, nil, nil, usage(c, "--%s and --%s: --%s measures every adder with and without --%s already: allowed one of them", everyOption, adder.FlagFACells, everyOption, adder.FlagFACells)
		}
	}
	adders, err := adder.ReadFlagList(src, nil, c.Int("width"))
	if err != nil {
		return opt, nil, nil, adderUsage(c, err)
	}
	sparse := slices.ContainsFunc(adders, func(a adder.Architecture) bool { return a.Sparse > 1 })
	if c.Bool(adder.FlagFACells) && c.IsSet(adder.FlagValency) && !sparse {
		if vs, err := explore.ParseValencies(c.String(adder.FlagValency)); err == nil && slices.ContainsFunc(vs, func(k int) bool { return k > 2 }) {
			return opt, nil, nil, usage(c, "--%s takes binary cells in a dense adder, and --%s %s asks for networks of %d-input cells: allowed --%s 2, or --sparse 2, 4 or 8, whose blocks take the full adders", adder.FlagFACells, adder.FlagValency, c.String(adder.FlagValency), slices.Max(vs), adder.FlagValency)
		}
	}
	if every {
		if !c.IsSet("sparse") {
			// Every sparseness the width allows.
			a := adders[0]
			adders = adders[:0]
			for _, s := range adder.Sparseness {
				if s <= c.Int("width") {
					a.Sparse = s
					adders = append(adders, a)
				}
			}
		}
		adders = adder.EachOption(adders)
		if increment {
			adders = adder.EachIncrement(adders)
		}
	}
	if opt.Orders, err = orders(c); err != nil {
		return opt, nil, nil, err
	}
	if every {
		// Every option the library can build: with no full adder in
		// it, none with full adders.
		if _, err := physical.LibraryCells(opt.Liberty, adder.Architecture{FACells: true}, opt.DontUse...); err != nil {
			adders = slices.DeleteFunc(adders, func(a adder.Architecture) bool { return a.FACells })
		}
	}
	cells, err := adderCells(opt, adders)
	if err != nil {
		return opt, nil, nil, usage(c, "%v", err)
	}
	return opt, adders, cells, nil
}

// adderCells returns the cells of opt's library that any of archs
// instantiates (physical.LibraryCells), in one Cells, or nil where none
// does.
func adderCells(opt physical.Options, archs []adder.Architecture) (*adder.Cells, error) {
	var cells adder.Cells
	found := false
	for _, want := range []adder.Architecture{{PGCells: true}, {FACells: true}} {
		if !slices.ContainsFunc(archs, func(a adder.Architecture) bool { return a.PGCells && want.PGCells || a.FACells && want.FACells }) {
			continue
		}
		c, err := physical.LibraryCells(opt.Liberty, want, opt.DontUse...)
		if err != nil {
			return nil, err
		}
		if want.PGCells {
			cells.NAND2, cells.OAI21 = c.NAND2, c.OAI21
		} else {
			cells.FA = c.FA
		}
		found = true
	}
	if !found {
		return nil, nil
	}
	return &cells, nil
}

// synthOnly refuses the flags of the physical flow without --synth.
func synthOnly(c *cli.Context) error {
	for _, f := range synthFlagNames {
		if c.IsSet(f) {
			return usage(c, "--%s applies only with --synth", f)
		}
	}
	return nil
}

// exploreSynth is explore --synth: every network through the physical
// flow, the area–delay front printed and plotted.
func exploreSynth(c *cli.Context, format, plotPath, plotFormat string) error {
	// The cells of the adders of --with files too.
	opt, adders, _, err := adderSynthOptions(c)
	if err != nil {
		return err
	}
	endBar := startOptimizerBar(c, 1)
	all, _, err := explorePoints(c)
	endBar()
	if err != nil {
		return err
	}
	given, notes, err := withAdders(c, adders, opt)
	if err != nil {
		return err
	}
	archs := slices.Clone(adders)
	for _, m := range given {
		archs = append(archs, m.Adder)
	}
	cells, err := adderCells(opt, archs)
	if err != nil {
		return usage(c, "%v", err)
	}
	for _, n := range notes {
		fmt.Fprintln(c.App.ErrWriter, n)
	}
	measured, ref, err := synthMeasureAdders(c, append(explore.Each(all, adders), given...), cells, opt)
	if err != nil {
		return err
	}
	if c.IsSet("plot") {
		plot, err := rendered(func(w io.Writer) error {
			return report.PlotAreaDelay(w, c.Int("width"), measured, ref, plotFormat)
		})
		if err != nil {
			return failure{fmt.Errorf("prefixgen explore: %w", err)}
		}
		if err := writeFile(c, "--plot", plotPath, plot); err != nil {
			return err
		}
	}
	shown := explore.AreaDelayFront(measured)
	if c.Bool("all") || format == "json" || format == "csv" {
		// For scripts, every network with on_front, in JSON and CSV alike.
		shown = measured
	}
	// Scripts get the table's footer, Yosys's a + b + cin, as a row last.
	rows := shown
	if ref != nil {
		rows = append(slices.Clone(shown), explore.ReferenceRow(ref))
	}
	return output(c, func(w io.Writer) error {
		switch format {
		case "json":
			return explore.MeasuredJSON(w, rows)
		case "csv":
			return explore.MeasuredCSV(w, rows)
		}
		return explore.MeasuredTable(w, shown, ref)
	})
}

// withAdders reads the files of explore's --with: each a point of family
// explore.FileFamily named by its file, with the architecture its adder
// document records, or each of adders for a network document. A file made
// for another library or flow than the run's (opt) is measured on the
// run's: notes says so, a line per such file, for standard error once the
// run's input is all good.
func withAdders(c *cli.Context, adders []adder.Architecture, opt physical.Options) (given []explore.Measured, notes []string, err error) {
	run, err := runTarget(c, opt)
	if err != nil {
		return nil, nil, err
	}
	n := c.Int("width")
	paths := c.StringSlice("with")
	for i, path := range paths {
		for _, before := range paths[:i] {
			switch {
			case before == path:
				return nil, nil, usage(c, "--with %s given twice: allowed each file once", path)
			case emit.SamePath(before, path):
				return nil, nil, usage(c, "--with %s is %s, given twice: allowed each file once", path, before)
			case withName(before) == withName(path):
				return nil, nil, usage(c, "--with %s and %s would both be rows named %s: allowed files of different names", before, path, withName(path))
			}
		}
	}
	for _, path := range paths {
		d := readDocument(c, path, "network file")
		net, arch, recorded, err := d.net, d.arch, d.recorded, d.err
		if err != nil {
			return nil, nil, usage(c, "%v", strings.TrimPrefix(err.Error(), "prefixgen explore: "))
		}
		if w := net.Width(); w != n {
			return nil, nil, usage(c, "--with %s: width %d differs from -n %d: allowed adders of width %d", path, w, n, n)
		}
		if run := runStages(adders); recorded && (arch.Stages > 0) != (run > 0) {
			return nil, nil, usage(c, "--with %s records %s, the run's adders have %s: allowed documents pipelined as the run is (--stages), since a clock period and a combinational delay share no front", path, stagesWords(arch.Stages, "an adder of "), stagesWords(run, ""))
		}
		if t := d.target; (t.Library != "" && t.Library != run.Library) || (t.Flow != "" && t.Flow != run.Flow) {
			notes = append(notes, fmt.Sprintf("prefixgen explore: --with %s was made for %s: measured on library %s through flow %s, as the run",
				path, madeForWords(t), run.Library, run.Flow))
		}
		p := explore.Point{Network: net, Figures: net.Figures(), Family: explore.FileFamily,
			Name:    withName(path),
			Command: "prefixgen gen --from " + emit.ShellWord(path)}
		if recorded {
			given = append(given, explore.Measured{Point: p, Adder: arch})
		} else {
			given = append(given, explore.Each([]explore.Point{p}, adders)...)
		}
	}
	return given, notes, nil
}

// runStages returns the register stages of the run's adders (--stages,
// the same for each), 0 for none.
func runStages(adders []adder.Architecture) int {
	if len(adders) == 0 {
		return 0
	}
	return adders[0].Stages
}

// stagesWords says how many register stages an adder has: "1 register
// stage", "2 register stages", or with none "a combinational adder" (or
// "none" where of is "").
func stagesWords(stages int, of string) string {
	switch {
	case stages == 0 && of == "":
		return "none"
	case stages == 0:
		return "a combinational adder"
	case stages == 1:
		return of + "1 register stage"
	}
	return fmt.Sprintf("%s%d register stages", of, stages)
}

// withName is the row --with FILE gives: the file's name without its
// extension.
func withName(path string) string {
	return network.Printable(strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)))
}

// synthMeasureAdders runs each adder through the physical flow with a
// progress bar on a terminal, and sorts a failure into bad input (exit 2)
// or a failed tool (exit 1).
func synthMeasureAdders(c *cli.Context, each []explore.Measured, cells *adder.Cells, opt physical.Options) ([]explore.Measured, *physical.Result, error) {
	bar := newBar(c, "syntheses")
	opt.Progress = bar.Update
	stop := bar.Beat(time.Second) // the time so far, while a synthesis lasts
	measured, ref, err := explore.SynthesizeEach(c.Context, each, cells, opt)
	stop()
	bar.Done()
	if err != nil {
		var bad *explore.AdderError
		if physical.IsSetup(err) || errors.As(err, &bad) {
			return nil, nil, usage(c, "%v", err)
		}
		return nil, nil, failure{fmt.Errorf("prefixgen %s: %v", c.Command.Name, err)}
	}
	return measured, ref, nil
}

// sparseListFlag is the --sparse of explore and optimize: one sparseness or
// a comma-separated list of them; when names when it applies.
func sparseListFlag(when string) cli.Flag {
	return &cli.StringFlag{Name: "sparse", Value: "1", Usage: when + "measure every network as the sparse-`S` adder (its tree computes every s-th carry, s-bit carry-select blocks the sums): " + sparseAllowed() + ", or a comma-separated list such as 1,4; at most n"}
}

// sparseAllowed lists the sparseness values adder.Describe accepts.
func sparseAllowed() string {
	s := make([]string, len(adder.Sparseness))
	for i, v := range adder.Sparseness {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}
