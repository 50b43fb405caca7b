package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/optimize"
	"github.com/prefixgen/prefixgen/physical"
)

// optimizeFormats are the formats of optimize -f, in the order help lists
// them.
var optimizeFormats = []string{"table", "json", "text"}

func optimizeCommand() *cli.Command {
	return &cli.Command{
		Name:  "optimize",
		Usage: "search for the smallest network under a depth bound and an optional fan-out bound",
		UsageText: "prefixgen optimize -n N --max-depth D [--max-fanout F] [--seed S] [-f table|json|text] [-o FILE]\n" +
			"prefixgen optimize -n N [--max-depth D] [--max-fanout F] --max-delay FO4 | --objective delay [--seed S] [-f …] [-o FILE]\n" +
			"prefixgen optimize -n N [--max-depth D] [--max-fanout F] --max-delay-ns NS | --max-area-um2 A [--sparse S,…] [--ling] [--pg-cells | --fa-cells [--increment]] [--valency K] [--carry-select] [--stages K [--no-reset]] [--flow-steps K] [--start FILE]… [--orders K] [--flow keep|abc] [--liberty …] [-f …] [-o FILE]",
		Description: fmt.Sprintf("Searches for the network of width N (1 to %d) with the fewest cells whose depth is at most D\n", optimize.MaxWidth) +
			"and, with --max-fanout, whose logical fan-out is at most F: every named family at every setting,\n" +
			"a dynamic program over recursive compositions, then annealing chains on every core; under\n" +
			"--max-fanout, cells are copied where a signal feeds too many. The result is proven and\n" +
			"simulated before it is printed. table prints its figures beside the smallest\n" +
			"named network within the bounds and Snir's bound (size ≥ 2N − 2 − D); json is the\n" +
			"prefixgen.network/v1 document that gen --from reads back; text is the diagram. The same\n" +
			"flags and --seed print the same network. Bounds no network meets are refused with the least\n" +
			"that can be met (exit status 2): depth at least ⌈log2 N⌉; fan-out at least 3, or 2 at depth N − 1\n" +
			"(ripple is the only network of fan-out 2). Finding nothing within bounds some network meets\n" +
			"would be exit status 1.\n\n" +
			"Time and memory grow with N and with the depth above ⌈log2 N⌉. Above 256 inputs there is no\n" +
			"annealing and the recursive search plans at most ⌈log2 N⌉ + 1 levels (docs/optimize.md gives measured times).\n\n" +
			"With --max-delay (FO4 delays of the logical-effort model, as stats prints delay_fo4) the search\n" +
			"minimizes the model's area among networks whose model delay is within the bound; --objective\n" +
			"delay minimizes the model's delay instead. Either one scores every candidate at every depth up\n" +
			"to D (default 2⌈log2 N⌉; N − 1 with --max-area-um2) by the model and anneals on it.\n" +
			"--max-delay-ns takes up to 40 of the networks these searches find (the model's area–delay\n" +
			"front first), and the radix-3 and radix-4\n" +
			"kogge-stone and sklansky within D as binary cells (as radix gates with --valency K), through synth's flow and\n" +
			"prints the one with the least measured area whose measured delay is at most NS, beside the\n" +
			"smallest named network measured within NS. With --sparse S (1, 2, 4, 8 or a list such as 1,4) every\n" +
			"network is measured as the sparse-S adder (every s-th carry from the network, s-bit carry-select\n" +
			"blocks) at each sparseness given; the table's sparse column says which one was kept, and -f json\n" +
			"writes the adder measured as a prefixgen.adder/v1 document that also records the library and flow it\n" +
			"was measured through, which gen --from FILE -f verilog and synth --from FILE build and measure again\n" +
			"(their --liberty and --flow, unless given). --stages K measures every adder\n" +
			"pipelined with K register stages (gen --stages; networks too shallow for them are left out): its\n" +
			"delay is then the least clock period and its area includes the flip-flops. --flow-steps K then\n" +
			"anneals from the best three adders measured with the flow in the loop: K more syntheses\n" +
			"(docs/synthesis.md: The flow in the loop), every trial one to three moves of a span on the grid,\n" +
			"measured in parallel batches of 4, with cells copied under --max-fanout; found by says when\n" +
			"the result came from it. --orders K measures\n" +
			"every adder K more times, its gates in K orders (see synth --orders), and judges it by its\n" +
			"medians, so that the search does not keep lucky draws of ABC: K + 1 times the syntheses.\n\n" +
			"--max-area-um2 A asks the other question through the same flow, candidates and search: the adder\n" +
			"with the least measured delay whose measured area is at most A (µm² for the OSU cells), beside\n" +
			"the fastest named network within A; the flow search then lowers the delay, charging 10 % of it\n" +
			"for every 1 % of area over A.\n\n" +
			"--start FILE measures the network of FILE (what -f json wrote) besides the candidates, and the\n" +
			"flow search may start from it: a long search can go on where an earlier one stopped, or where\n" +
			"several did (--start again).",
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "width", Aliases: []string{"n"}, Usage: fmt.Sprintf("number of inputs N, 1 to %d", optimize.MaxWidth), DefaultText: "none, required"},
			&cli.IntFlag{Name: "max-depth", Aliases: []string{"d"}, Usage: "depth bound D, at least ⌈log2 N⌉",
				DefaultText: "2⌈log2 N⌉ with --max-delay, --objective delay or --max-delay-ns; N − 1 (every network: the smallest adders are the deepest, and chains of full adders are fast) with --max-area-um2 or --fa-cells; required otherwise"},
			&cli.Float64Flag{Name: "max-delay", Usage: "bound on the model's delay of the adder, in FO4 delays, more than 0", DefaultText: "none"},
			&cli.StringFlag{Name: "objective", Value: "area", Usage: "what to minimize: area (cells; the model's area under --max-delay) or delay (the model's delay)"},
			&cli.Float64Flag{Name: "max-delay-ns", Usage: "bound on the adder's delay after synthesis and static timing (prefixgen synth's flow; --liberty, --flow, --load, --jobs, --workdir choose it), in ns; minimizes the area measured", DefaultText: "none"},
			&cli.Float64Flag{Name: "max-area-um2", Usage: "bound on the adder's area after synthesis (prefixgen synth's flow), in µm² (the library's area unit); minimizes the delay measured", DefaultText: "none"},
			&cli.IntFlag{Name: "max-fanout", Usage: "fan-out bound F: cells reading a signal, +1 if it is an output (0: none)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the annealing chains, 0 to 2^63 − 1 (the network's parameters record it)"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "table", Usage: "output format: " + strings.Join(optimizeFormats, ", ")},
			outputFlag(),
			sparseListFlag("with --max-delay-ns or --max-area-um2, "),
			&cli.BoolFlag{Name: "ling", Usage: "with --max-delay-ns or --max-area-um2, measure every adder with Ling's pseudo-carries (see gen --ling)"},
			&cli.BoolFlag{Name: "pg-cells", Usage: "with --max-delay-ns or --max-area-um2, measure every adder with each bit's generate and propagate as the library's NAND2 and OAI21 cells (see gen --pg-cells)"},
			&cli.BoolFlag{Name: "fa-cells", Usage: "with --max-delay-ns or --max-area-um2, measure every adder with the library's full adders where its network joins one bit to the span below it (see gen --fa-cells), and the carry-select networks whose chains they make small among the candidates"},
			&cli.BoolFlag{Name: adder.FlagIncrement, Usage: "with --fa-cells, measure every sparse adder of full adders with carry-increment blocks (see gen --increment)"},
			&cli.IntFlag{Name: "valency", Usage: "with --max-delay-ns or --max-area-um2, measure every adder with gates of up to `K` inputs (2 to 4) where its network chains spans, as gen --valency builds them: the radix-K networks among the candidates then measure as gen --valency K makes them", DefaultText: "2"},
			&cli.IntFlag{Name: "stages", Usage: "with --max-delay-ns or --max-area-um2, measure every adder pipelined with `K` register stages placed to balance its logic (gen --stages; 1 to the depth bound + 1): delays are then least clock periods", DefaultText: "none"},
			&cli.BoolFlag{Name: "no-reset", Usage: "with --stages, registers without a reset (gen --no-reset)"},
			ordersFlag("with --max-delay-ns or --max-area-um2, judge every adder by its medians: "),
			&cli.BoolFlag{Name: carrySelectFlagName, Usage: "with --max-delay-ns or --max-area-um2, measure the carry-select networks among the candidates (gen -t carry-select, as --fa-cells does), and let each chain of the flow search that starts from one (a candidate or a --start) reshape its segments in three of four trials: a bit to another segment, a segment split in two, two merged, a segment moved to another place; it stays a carry-select adder, of lengths the family's l and g do not make"},
			&cli.IntFlag{Name: "flow-steps", Usage: "with --max-delay-ns or --max-area-um2, syntheses of the flow-in-the-loop search after the candidates are measured (0: none; each is one run of synth's flow)"},
			&cli.StringFlag{Name: "arrival", Usage: "time the adder as its design does, by the model (--max-delay, --objective delay) or through the flow (--max-delay-ns, --max-area-um2, OpenSTA's input and output delays): `FILE` gives when each bit arrives and when each output is needed ({\"arrival_ns\": [ns per bit], \"required_ns\": [ns per sum bit, then the carry-out]}, either optional), and a delay is the worst output's lateness"},
			&cli.StringSliceFlag{Name: "start", Usage: "with --max-delay-ns or --max-area-um2, measure the network of `FILE` too (a prefixgen.network/v1 or prefixgen.adder/v1 document of width N, such as -f json wrote), and, with --flow-steps, start a chain of the flow search from it, within the bound or not: to go on from an earlier search, or repair an adder a little outside the bound; repeatable, or a comma-separated list; an adder file's sparseness, valency, Ling carries, pipeline and library cells stand where --sparse, --valency, --ling, --stages and --pg-cells are not given, and the library and flow it was made for where --liberty and --flow are not; several adder files must agree on them but for sparseness, which --sparse then lists"},
		}, synthFlags()...),
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			if !c.IsSet("width") {
				return usage(c, "-n WIDTH is required")
			}
			if c.IsSet("max-delay-ns") && c.IsSet("max-area-um2") {
				return usage(c, "--max-delay-ns and --max-area-um2 both given: use one (the least area within a delay, or the least delay within an area)")
			}
			if !c.IsSet("max-delay-ns") && !c.IsSet("max-area-um2") {
				for _, name := range append(slices.Clone(synthFlagNames), "sparse", "flow-steps", "ling", "pg-cells", "fa-cells", adder.FlagIncrement, "valency", "stages", "no-reset", "orders", "start", carrySelectFlagName) {
					if name == "liberty" || name == "dont-use" {
						if c.IsSet(name) && !c.IsSet("max-delay") && c.String("objective") != "delay" {
							return usage(c, "--%s applies only with --max-delay, --objective delay (the model stands on the library), --max-delay-ns or --max-area-um2", name)
						}
						continue
					}
					if c.IsSet(name) {
						return usage(c, "--%s applies only with --max-delay-ns or --max-area-um2", name)
					}
				}
			}
			objective, err := optimize.ParseObjective(c.String("objective"))
			if err != nil {
				return usage(c, "%v", err)
			}
			measured := c.IsSet("max-delay-ns") || c.IsSet("max-area-um2")
			if c.IsSet("max-delay-ns") && (c.IsSet("max-delay") || c.IsSet("objective")) {
				return usage(c, "--max-delay-ns takes neither --max-delay nor --objective: it minimizes the area measured")
			}
			if c.IsSet("max-area-um2") && (c.IsSet("max-delay") || c.IsSet("objective")) {
				return usage(c, "--max-area-um2 takes neither --max-delay nor --objective: it minimizes the delay measured")
			}
			modelAware := c.IsSet("max-delay") || objective == optimize.Delay || measured
			if !c.IsSet("max-depth") && !modelAware {
				return usage(c, "--max-depth D is required (or --max-delay, or --objective delay)")
			}
			if _, err := progressMode(c); err != nil {
				return err
			}
			format := c.String("format")
			if !contains(optimizeFormats, format) {
				return usage(c, "unknown format %s%s: allowed %s", network.Quote(format), didYouMean(format, optimizeFormats), strings.Join(optimizeFormats, ", "))
			}
			opt := optimize.Options{
				Width:     c.Int("width"),
				MaxDepth:  c.Int("max-depth"),
				MaxFanout: c.Int("max-fanout"),
				Seed:      c.Uint64("seed"),
				MaxDelay:  c.Float64("max-delay"),
				Objective: objective,
			}
			switch {
			case c.IsSet("max-depth"):
			case c.IsSet("max-area-um2"), c.Bool("fa-cells"):
				opt.MaxDepth = optimize.AreaDepth(opt.Width)
			default:
				opt.MaxDepth = optimize.ModelDepth(opt.Width)
			}
			if c.IsSet("max-delay") && !(opt.MaxDelay > 0) {
				return usage(c, "--max-delay %v out of range: allowed a positive number of FO4 delays", c.Float64("max-delay"))
			}
			if c.IsSet("arrival") {
				if !c.IsSet("max-delay") && objective != optimize.Delay && !measured {
					return usage(c, "--arrival applies only with --max-delay, --objective delay, --max-delay-ns or --max-area-um2")
				}
				if opt.Profile, err = readProfile(c, opt.Width); err != nil {
					return err
				}
			}
			if (c.IsSet("liberty") || c.IsSet("dont-use")) && !measured {
				if opt.Model, err = physical.Model(c.String("liberty"), dontUse(c)); err != nil {
					return usage(c, "%v", err)
				}
			}
			if measured {
				return optimizeMeasured(c, opt, format)
			}
			if err := optimize.Check(opt); err != nil {
				return usage(c, "%v", err)
			}
			if err := checkOutputs(c); err != nil {
				return err
			}
			bar := newBar(c, "searches and chains")
			opt.Progress = bar.Update
			stop := bar.Beat(time.Second)
			res, err := optimize.Minimize(c.Context, opt)
			stop()
			bar.Done()
			if _, ok := errors.AsType[*optimize.InfeasibleError](err); ok {
				return usage(c, "%v", err)
			}
			if err != nil {
				return failure{fmt.Errorf("prefixgen optimize: %w", err)}
			}
			return output(c, func(w io.Writer) error {
				if err := writeOptimized(w, format, res, modelAware); err != nil {
					return err
				}
				if opt.Profile != nil && format == "table" {
					_, err := fmt.Fprintf(w, "timed against the profile of %s: a model delay is the worst output's lateness, its arrival less its required time\n", c.String("arrival"))
					return err
				}
				return nil
			})
		},
	}
}

// readProfile reads --arrival's file, a profile for an adder of width
// bits.
func readProfile(c *cli.Context, width int) (*delay.Profile, error) {
	path := c.String("arrival")
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, usage(c, "cannot read --arrival %s: it is a folder: allowed a file of %s", path, delay.ProfileFormat)
	}
	data, err := readInput(path)
	if isTooLarge(err) {
		return nil, usage(c, "--arrival %v", err)
	}
	if err != nil {
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			err = pe.Err // the path once, not twice
		}
		return nil, usage(c, "cannot read --arrival %s: %v", path, err)
	}
	p, err := delay.ReadProfile(bytes.NewReader(data))
	if err == nil {
		err = p.Check(width)
	}
	if err != nil {
		return nil, usage(c, "--arrival %s: %s", path, strings.TrimPrefix(strings.TrimPrefix(err.Error(), "delay: "), "profile: "))
	}
	return p, nil
}

// optimizeMeasured is optimize --max-delay-ns and --max-area-um2: the
// searches through the flow.
func optimizeMeasured(c *cli.Context, opt optimize.Options, format string) error {
	byArea := c.IsSet("max-area-um2")
	ns, um2 := c.Float64("max-delay-ns"), c.Float64("max-area-um2")
	if !byArea && (!(ns > 0) || ns > 1e6) {
		return usage(c, "--max-delay-ns %v out of range: allowed a positive number of ns, up to 1000000", ns)
	}
	if byArea && (!(um2 > 0) || um2 > 1e12) {
		return usage(c, "--max-area-um2 %v out of range: allowed a positive number of µm², up to 1000000000000", um2)
	}
	flow, err := synthOptions(c)
	if err != nil {
		return err
	}
	if flow.Orders, err = orders(c); err != nil {
		return err
	}
	// The document -f json writes records what the adder was made for: the
	// library and flow it is measured through, named before any synthesis.
	target, err := runTarget(c, flow)
	if err != nil {
		return err
	}
	flow.Profile = opt.Profile
	// The model ranks the candidates by the library's own cells; a library
	// it cannot stand on (one without an AOI21, say) is still one the flow
	// measures, ranked by OSU 0.18 µm's.
	if m, err := physical.Model(flow.Liberty, flow.DontUse); err == nil {
		opt.Model = m
	}
	if err := optimize.Check(opt); err != nil {
		return usage(c, "%v", err)
	}
	var (
		rec    *adder.Recorded
		others []adder.Recorded
	)
	if c.IsSet("start") {
		if opt.Start, rec, others, err = optimizeStarts(c, opt.Width); err != nil {
			return err
		}
	}
	// The adders measured: one architecture per sparseness, the same but
	// for it.
	adders, err := adder.ReadFlagList(c, rec, opt.Width)
	if err != nil {
		return adderUsage(c, err)
	}
	sparse := make([]int, len(adders))
	for i, a := range adders {
		sparse[i] = a.Sparse
	}
	for _, o := range others {
		if !slices.Contains(sparse, o.Sparse) {
			return usage(c, "--sparse %s leaves out %s's sparseness %d: add %d to the list", c.String("sparse"), o.Path, o.Sparse, o.Sparse)
		}
	}
	// The adders differ but for their sparseness in their blocks only: a
	// dense one has none, and the search's adderAt takes them out again.
	opt.Adder = &adders[0]
	if i := slices.IndexFunc(adders, func(a adder.Architecture) bool { return a.Increment }); i >= 0 {
		opt.Adder = &adders[i]
	}
	opt.CarrySelect = c.Bool(carrySelectFlagName)
	if opt.Cells, err = libraryCells(c, *opt.Adder); err != nil {
		return err
	}
	if err := optimize.Check(opt); err != nil { // the start, if any, within the bounds too
		return usage(c, "%v", err)
	}
	if opt.FlowSteps = c.Int("flow-steps"); opt.FlowSteps < 0 || opt.FlowSteps > optimize.MaxFlowSteps {
		return usage(c, "--flow-steps %d out of range: allowed 0 to %d", opt.FlowSteps, optimize.MaxFlowSteps)
	}
	if opt.FlowSteps > 0 && opt.Width > optimize.MaxAnnealWidth {
		return usage(c, "--flow-steps applies to widths up to %d, not %d: the search's grid holds %d spans a column", optimize.MaxAnnealWidth, opt.Width, optimize.MaxAnnealWidth)
	}
	bar := newBar(c, "steps")
	opt.Progress = bar.Update
	stop := bar.Beat(time.Second) // the time so far, while a step lasts
	var res optimize.FlowResult
	if byArea {
		res, err = optimize.MinimizeFlowDelay(c.Context, opt, um2, flow, sparse)
	} else {
		res, err = optimize.MinimizeFlowSparse(c.Context, opt, ns, flow, sparse)
	}
	stop()
	bar.Done()
	if _, ok := errors.AsType[*optimize.InfeasibleError](err); ok {
		return usage(c, "%v", err)
	}
	if physical.IsSetup(err) {
		return usage(c, "%v", err)
	}
	if err != nil {
		return failure{fmt.Errorf("prefixgen optimize: %w", err)}
	}
	measured := res.Measured.Adder
	err = output(c, func(w io.Writer) error {
		switch format {
		case "json":
			// The adder measured, as an adder document that records what
			// it was made for.
			return adder.WriteDocumentFor(w, res.Network, measured, target)
		case "text":
			return emit.Text(w, res.Network, emit.TextOptions{})
		}
		header := []string{"network", "width", "depth", "size", "max fan-out", "delay (FO4)", "sparse", "area (µm²)", "delay (ns)"}
		if flow.Orders > 0 {
			header = append(header[:len(header)-2], "area median (µm²)", "delay median (ns)")
		}
		if measured.Stages > 0 {
			header = append(header, "registers")
		}
		row := func(name string, f network.Figures, m delay.Report, r *physical.Result) []string {
			area, ns := r.AreaUM2, r.DelayNS
			if s := r.Spread; s != nil {
				area, ns = s.AreaMedian, s.DelayMedian
			}
			cells := []string{name, fmt.Sprint(f.Width), fmt.Sprint(f.Depth), fmt.Sprint(f.Size), fmt.Sprint(f.MaxFanout),
				fmt.Sprintf("%.2f", m.FO4), fmt.Sprint(r.Adder.Sparse), physical.FormatArea(area), physical.FormatNS(ns)}
			if measured.Stages > 0 {
				cells = append(cells, fmt.Sprint(r.Registers))
			}
			return cells
		}
		rows := [][]string{row(emit.Name(res.Network), res.Figures, res.Model, res.Measured)}
		if res.Named != nil {
			rows = append(rows, row(emit.Name(res.Named), res.Named.Figures(), res.NamedModel, res.NamedMeasured))
		}
		if err := emit.WriteTable(w, header, rows); err != nil {
			return err
		}
		m := res.Measured
		if name, flags := measuredArch(measured, flow.Liberty); name != "" {
			if _, err := fmt.Fprintf(w, "the adder measured is %s (gen -f verilog %s): -f json writes it as a %s document\n", name, flags, adder.DocumentFormat); err != nil {
				return err
			}
		}
		if pipeline := pipelineOf(measured); measured.Stages > 0 {
			if _, err := fmt.Fprintf(w, "the adders are pipelined (%s; gen -f verilog %s): a delay is the least clock period, a flip-flop's setup time included, and registers counts the flip-flops; -f json records the stages\n",
				pipeline.Name(), strings.Join(pipeline.Args(), " ")); err != nil {
				return err
			}
		}
		networks := "networks"
		if res.Tried == 1 {
			networks = "network"
		}
		_, err := fmt.Fprintf(w, "found by: %s\n%d %s measured; flow %s, liberty %s, %g pF on every output; %s, OpenSTA %s\n",
			res.Source, res.Tried, networks, m.Flow, network.Printable(m.Liberty), m.OutputLoadPF, m.YosysVersion, m.STAVersion)
		if err == nil && opt.FlowSteps > 0 && res.FlowSteps < opt.FlowSteps {
			bounds := fmt.Sprintf("depth %d", opt.MaxDepth)
			if opt.MaxFanout > 0 {
				bounds += fmt.Sprintf(" and fan-out %d", opt.MaxFanout)
			}
			_, err = fmt.Fprintf(w, "the flow search ran %d of the %d syntheses asked: within %s its chains found no new neighbour to measure\n",
				res.FlowSteps, opt.FlowSteps, bounds)
		}
		if err == nil && flow.Profile != nil {
			_, err = fmt.Fprintf(w, "timed against the profile of %s (OpenSTA's input and output delays): a delay is the worst output's lateness, its arrival less its required time\n", c.String("arrival"))
		}
		if err == nil && flow.Orders > 0 {
			_, err = fmt.Fprintf(w, "area and delay are medians over each adder as written and %s of its gates (--orders); the adder as written: %s µm², %s ns\n",
				physical.OrdersPhrase(flow.Orders), physical.FormatArea(m.AreaUM2), physical.FormatNS(m.DelayNS))
		}
		return err
	})
	if name, flags := measuredArch(measured, flow.Liberty); err == nil && format == "text" && name != "" {
		// The diagram shows the network only.
		fmt.Fprintf(c.App.ErrWriter, "prefixgen optimize: the adder measured is %s: the diagram shows its network; -f json writes the adder (gen -f verilog %s)\n",
			name, flags)
	}
	return err
}

// optimizeStarts reads --start: the networks the search measures besides
// its candidates and starts chains of the flow search from, and for adder
// documents the architecture they record, which the flags may repeat but
// not change (adder.ReadFlagList): rec, the first, and others. Several
// adder documents record one architecture but for sparseness: without
// --sparse, one sparseness too; with it, the caller checks each one's is
// in its list. A start file of another width is bad usage.
func optimizeStarts(c *cli.Context, width int) (nets []*network.Network, rec *adder.Recorded, others []adder.Recorded, err error) {
	files := c.StringSlice("start")
	docs, err := readStarts(c)
	if err != nil {
		return nil, nil, nil, err
	}
	nets = make([]*network.Network, len(docs))
	for i, d := range docs {
		if d.net.Width() != width {
			return nil, nil, nil, usage(c, "--start %s: a network of width %d: allowed only the width searched, -n %d", files[i], d.net.Width(), width)
		}
		nets[i] = d.net
		// An adder document records the adder measured: the search
		// measures it so. A network document's standard adder is a
		// default the flags change.
		if !d.recorded {
			continue
		}
		if rec == nil {
			rec = &adder.Recorded{Architecture: d.arch, Path: files[i]}
			continue
		}
		a, b := rec.Architecture, d.arch
		a.Sparse, b.Sparse = 0, 0
		if !a.Equal(b) {
			return nil, nil, nil, usage(c, "--start %s records the adder %s, %s the adder %s: several start files record one architecture but for sparseness", rec.Path, archWords(rec.Architecture), files[i], archWords(d.arch))
		}
		if d.arch.Sparse != rec.Sparse && !c.IsSet("sparse") {
			return nil, nil, nil, usage(c, "--start %s is a sparse-%d adder, %s a sparse-%d one: give --sparse with both", rec.Path, rec.Sparse, files[i], d.arch.Sparse)
		}
		others = append(others, adder.Recorded{Architecture: d.arch, Path: files[i]})
	}
	return nets, rec, others, nil
}

// archWords names an adder's architecture for an error: "sparse=2 ling",
// or "standard".
func archWords(a adder.Architecture) string {
	if a.IsStandard() {
		return "standard"
	}
	return a.Name()
}

// measuredArch returns the name of the adder optimize measured around its
// network, but for its pipeline (pipelineOf), as in "sparse=2 ling", and
// the flags of gen that build it, as in "--sparse 2 --ling" (with
// --liberty naming a library of its cells other than the default); both
// "" for the standard adder.
func measuredArch(arch adder.Architecture, liberty string) (name, flags string) {
	arch.Stages, arch.NoReset = 0, false
	if arch.IsStandard() {
		return "", ""
	}
	flags = strings.Join(arch.Args(), " ")
	if arch.InstantiatesCells() && physical.LibertyFile(liberty) != physical.LibertyFile("") {
		flags += " --liberty " + emit.ShellWord(liberty)
	}
	return arch.Name(), flags
}

// pipelineOf returns the standard adder with the pipeline of arch, whose
// name and flags say the pipeline alone.
func pipelineOf(arch adder.Architecture) adder.Architecture {
	p := adder.Standard
	p.Stages, p.NoReset = arch.Stages, arch.NoReset
	return p
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// writeOptimized writes the result in the given format.
func writeOptimized(w io.Writer, format string, res optimize.Result, modelAware bool) error {
	switch format {
	case "json":
		return emit.JSON(w, res.Network)
	case "text":
		return emit.Text(w, res.Network, emit.TextOptions{})
	}
	f := res.Figures
	header := []string{"network", "width", "depth", "size", "max fan-out", "wire tracks", "deficiency"}
	if modelAware {
		header = append(header, "delay (FO4)", "area (model, µm²)")
	}
	row := func(name string, f network.Figures, m delay.Report) []string {
		r := []string{name, fmt.Sprint(f.Width), fmt.Sprint(f.Depth), fmt.Sprint(f.Size), fmt.Sprint(f.MaxFanout), fmt.Sprint(f.WireTracks), fmt.Sprint(f.Deficiency)}
		if modelAware {
			r = append(r, fmt.Sprintf("%.2f", m.FO4), physical.FormatArea(m.Area))
		}
		return r
	}
	rows := [][]string{row(emit.Name(res.Network), f, res.Model)}
	if res.Named != nil {
		rows = append(rows, row(emit.Name(res.Named), res.Named.Figures(), res.NamedModel))
	}
	if err := emit.WriteTable(w, header, rows); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "found by: %s\nSnir's bound at depth ≤ %d: size ≥ %d\n", res.Source, res.Network.Params()["max_depth"], res.LowerBound)
	return err
}
