package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/bench"
	"github.com/prefixgen/prefixgen/gpukernels/block"
	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/internal/progress"
	"github.com/prefixgen/prefixgen/internal/stage"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/report"
	"github.com/prefixgen/prefixgen/topologies"
)

// cudaTuningFlags are the tuning flags of cuda emit (block true: it has
// --block) and cuda bench, where they tune the device-wide scans.
func cudaTuningFlags(block bool) []cli.Flag {
	items := "items each thread of a block scans serially, 1 to %d"
	itemsDefault := "32 for values of up to 4 bytes, 16 for 8 bytes, 60/bytes for structs"
	threads := "threads per block, a multiple of 32 from 32 to %d, at most 32 logical warps"
	lookback := "tiles the decoupled look-back reads at once, 1 to %d"
	if block {
		items += " (with --block shared, a multiple of the columns each thread holds)"
		itemsDefault += fmt.Sprintf("; with --block shared, %d rounded up to the columns per thread", gpukernels.DefaultItemsPerThread)
	} else {
		items = "device-wide scans: " + items
		threads = "device-wide scans: " + threads
		lookback = "device-wide scans: " + lookback
	}
	return []cli.Flag{
		&cli.IntFlag{Name: "items-per-thread", Usage: fmt.Sprintf(items, gpukernels.MaxItemsPerThread), DefaultText: itemsDefault},
		&cli.IntFlag{Name: "block-threads", Usage: fmt.Sprintf(threads, gpukernels.MaxBlockThreads),
			DefaultText: "128 for values of up to 4 bytes and structs, 256 for 8 bytes; fewer for narrow logical warps, at most 32 of them"},
		&cli.IntFlag{Name: "lookback", Value: gpukernels.DefaultLookBack, Usage: fmt.Sprintf(lookback, warp.Lanes)},
		&cli.IntFlag{Name: "partial-delay", Usage: fmt.Sprintf("`NS` a tile sleeps after publishing its aggregate, before it looks back, 0 to %d", gpukernels.MaxDelayNs),
			DefaultText: "as CCCL 3.x on sm_90: 1245 for 4-byte values, 1290 for 8-byte, 450 for others"},
		&cli.IntFlag{Name: "poll-delay", Usage: fmt.Sprintf("`NS` a look-back sleeps before each new look at a tile that has published nothing, 0 to %d", gpukernels.MaxDelayNs),
			DefaultText: "as CCCL 3.x on sm_90: 648 for 4-byte values, 632 for 8-byte, 350 for others, none for structs"},
		&cli.IntFlag{Name: "delay-grid", Usage: "`BLOCKS` from which on the two delays apply (smaller grids poll with a short backoff), 1 to 2^31 - 1", DefaultText: "500, as CCCL"},
		&cli.BoolFlag{Name: "wide-status", Usage: "keep a value of up to 4 bytes and its tile's flag in a 16-byte status word, 8 bytes each, rather than 8 bytes in all (a value of 5 to 8 bytes has a 16-byte word already; a larger one's flag is kept apart)"},
		&cli.IntFlag{Name: "status-stride", Usage: fmt.Sprintf("`BYTES` from one tile's look-back status word to the next's, a power of two from the word's bytes (packed) to %d, so that fewer tiles share a sector of L2", gpukernels.MaxStatusStride),
			DefaultText: fmt.Sprint(gpukernels.DefaultStatusStride)},
		&cli.StringFlag{Name: "tile-order", Value: gpukernels.TileOrderAtomic, Usage: "how a block finds its tile: atomic (a counter hands tiles out in the order blocks start) or block (tile blockIdx.x, as CUB)"},
	}
}

// cudaDeviceTuning returns the device scans' tuning that the flags of
// cudaTuningFlags set, in Options with nothing else set; a delay flag not
// given keeps its default.
func cudaDeviceTuning(c *cli.Context) gpukernels.Options {
	opt := gpukernels.Options{
		ItemsPerThread: c.Int("items-per-thread"), BlockThreads: c.Int("block-threads"), LookBack: c.Int("lookback"),
		WideStatus: c.Bool("wide-status"), StatusStride: c.Int("status-stride"), TileOrder: c.String("tile-order"),
	}
	if c.IsSet("partial-delay") || c.IsSet("poll-delay") || c.IsSet("delay-grid") {
		d := gpukernels.Delays{Partial: -1, Poll: -1, Grid: -1}
		for _, f := range []struct {
			name string
			to   *int
		}{{"partial-delay", &d.Partial}, {"poll-delay", &d.Poll}, {"delay-grid", &d.Grid}} {
			if c.IsSet(f.name) {
				*f.to = c.Int(f.name)
			}
		}
		opt.Delays = &d
	}
	return opt
}

// cudaTuning refuses tuning flags set to 0 or less, which gpukernels would
// take as "the default", naming what each allows; gpukernels checks the
// rest.
func cudaTuning(c *cli.Context) error {
	allowed := map[string]string{
		"items-per-thread": fmt.Sprintf("1 to %d", gpukernels.MaxItemsPerThread),
		"block-threads":    fmt.Sprintf("multiples of %d from %d to %d, at most 32 logical warps", warp.Lanes, warp.Lanes, gpukernels.MaxBlockThreads),
		"lookback":         fmt.Sprintf("1 to %d", warp.Lanes),
		"runs":             fmt.Sprintf("%d to %d", bench.DefaultBenchRuns, bench.MaxBenchRuns),
		"delay-grid":       fmt.Sprintf("1 to %d blocks, the largest grid", gpukernels.MaxDelayGrid),
		"status-stride":    fmt.Sprintf("powers of two from the status word's bytes (8 for values of up to 4 bytes, 16 with --wide-status or for values of 5 to 8 bytes) to %d", gpukernels.MaxStatusStride),
	}
	if c.String("block") == gpukernels.BlockShared {
		allowed["items-per-thread"] += " (with --block shared, a multiple of the columns each thread holds)"
	}
	for _, f := range []string{"items-per-thread", "block-threads", "lookback", "runs", "delay-grid", "status-stride"} {
		if hasFlag(c, f) && c.IsSet(f) && c.Int64(f) < 1 {
			return usage(c, "--%s %d out of range: allowed %s (see --help)", f, c.Int64(f), allowed[f])
		}
	}
	for _, f := range []string{"partial-delay", "poll-delay"} {
		if hasFlag(c, f) && c.IsSet(f) && (c.Int64(f) < 0 || c.Int64(f) > gpukernels.MaxDelayNs) {
			return usage(c, "--%s %d out of range: allowed 0 to %d ns (see --help)", f, c.Int64(f), gpukernels.MaxDelayNs)
		}
	}
	return nil
}

// cudaNetworks returns the networks of -t (at --width, 1 to 32, or 2 to
// 2048 with shared true, 1024 by default) or --from.
func cudaNetworks(c *cli.Context, allowAll, shared bool) ([]*network.Network, error) {
	if c.String("from") != "" {
		if c.IsSet("width") || c.IsSet("param") {
			return nil, usage(c, "--param and --width do not apply to --from: the file fixes the network")
		}
		nets, err := networks(c, false)
		if err != nil {
			return nil, err
		}
		if w := nets[0].Width(); !shared && w > warp.Lanes {
			return nil, usage(c, "--from %s: width %d out of range: %s", c.String("from"), w, warpLanes(c))
		}
		return nets, nil
	}
	if shared && !c.IsSet("width") {
		if err := c.Set("width", strconv.Itoa(defaultSharedWidth)); err != nil {
			return nil, err
		}
	}
	w := c.Int("width")
	switch {
	case shared && (w < block.MinWidth || w > block.MaxWidth):
		return nil, usage(c, "--width %d out of range: a shared-memory block scan (--block shared) allows %d to %d columns", w, block.MinWidth, block.MaxWidth)
	case !shared && w > warp.Lanes:
		return nil, usage(c, "--width %d out of range: %s", w, warpLanes(c))
	case !shared && w < 1:
		return nil, usage(c, "--width %d out of range: a warp scan allows 1 to %d lanes", w, warp.Lanes)
	}
	topo := c.String("topology")
	if topo == "" {
		return nil, usage(c, "no network given: use -t TOPOLOGY [--width W] or --from FILE")
	}
	return networks(c, allowAll)
}

// deviceProbe is how cuda bench looks for a CUDA device before it builds;
// tests point it at a folder of their own.
var deviceProbe = bench.DeviceProbe{}

// warpLanes says what a warp scan allows to a network too wide for one,
// and what takes it: cuda emit --block shared, where the command has
// --block.
func warpLanes(c *cli.Context) string {
	if hasFlag(c, "block") {
		return fmt.Sprintf("a warp scan allows 1 to %d lanes; for %d to %d columns, use --block shared", warp.Lanes, block.MinWidth, block.MaxWidth)
	}
	return fmt.Sprintf("a warp scan allows 1 to %d lanes; for %d to %d columns, cuda emit --block shared builds a shared-memory block scan", warp.Lanes, block.MinWidth, block.MaxWidth)
}

// defaultSharedWidth is the width of cuda emit --block shared without
// --width: the classic 1024 elements per block.
const defaultSharedWidth = 1024

// cudaBlock returns whether --block asks for the shared-memory block scan,
// checking --block and --no-pad.
func cudaBlock(c *cli.Context) (bool, error) {
	switch b := c.String("block"); b {
	case gpukernels.BlockShuffle, gpukernels.BlockRaking:
		if c.Bool("no-pad") {
			return false, usage(c, "--no-pad applies to --block shared only")
		}
		return false, nil
	case gpukernels.BlockShared:
		return true, nil
	default:
		return false, usage(c, "--block %s is not a block scan: allowed shuffle, raking, shared", network.Quote(b))
	}
}

// cudaHelpTemplate is urfave/cli's SubcommandHelpTemplate listing the
// commands without their categories, which urfave/cli fills in only when
// the command runs: so that prefixgen help cuda lists them too.
const cudaHelpTemplate = `NAME:
   {{template "helpNameTemplate" .}}

USAGE:
   {{template "usageTemplate" .}}{{if .Description}}

DESCRIPTION:
   {{template "descriptionTemplate" .}}{{end}}{{if .VisibleCommands}}

COMMANDS:{{template "visibleCommandTemplate" .}}{{end}}{{if .VisibleFlags}}

OPTIONS:{{template "visibleFlagTemplate" .}}{{end}}
`

func cudaCommand() *cli.Command {
	from := func(widths string) cli.Flag {
		return &cli.StringFlag{Name: "from", Usage: "read the network from a prefixgen.network/v1 or prefixgen.adder/v1 JSON `FILE` (width " + widths + ") instead of building one; of an adder file only the network is used: sparseness, valency, Ling carries and library cells are the adder's, not a scan's"}
	}
	const lanes = "lanes of a logical warp, 1 to 32 (narrower warps share a hardware warp in power-of-two segments)"
	emitWidth := &cli.IntFlag{Name: "width", Aliases: []string{"n"}, Value: 32, Usage: lanes + "; with --block shared, columns of the block's network, 2 to 2048", DefaultText: "32; 1024 with --block shared"}
	benchWidth := &cli.IntFlag{Name: "width", Aliases: []string{"n"}, Value: 32, Usage: lanes}
	typ := &cli.StringFlag{Name: "type", Usage: "value type: int32, uint32, int64, uint64, float, double (default int32; uint32 limbs for carry)"}
	return &cli.Command{
		Name:               "cuda",
		Usage:              "emit CUDA warp, block and device-wide scans built from a network, and benchmark them",
		UsageText:          "prefixgen cuda emit [command options]\nprefixgen cuda bench [command options]\nprefixgen cuda report [command options] FILE.json...",
		CustomHelpTemplate: cudaHelpTemplate,
		OnUsageError:       onUsageError,
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return unknownCommand("prefixgen cuda", "prefixgen cuda", c.Args().First(), c.Command.Subcommands)
			}
			return cli.ShowSubcommandHelp(c)
		},
		Subcommands: []*cli.Command{
			cudaNamed(&cli.Command{
				Name:      "emit",
				Usage:     "write a header-only CUDA library of scans built from one network",
				UsageText: "prefixgen cuda emit -t TOPO [--width W] [--param k=V] [--type T] [--op OP] [--block shuffle|raking|shared [--no-pad]] [--segmented FLAGTYPE] [-o FILE]\nprefixgen cuda emit --from FILE [--type T] [--op OP] [-o FILE]",
				Description: "Lowers the network to a warp program and writes a .cuh with, in namespace prefixgen::NAME, the\n" +
					"warp scans (inclusive, exclusive), a block scan, a single-pass device-wide scan with decoupled\n" +
					"look-back, a three-pass device-wide scan (tiles, tile totals, offsets) and, for --op carry, a\n" +
					"warp-wide multi-precision adder (BigAddKernel). --block shared lowers a network of 2 to 2048\n" +
					"columns onto one block's shared memory instead (one __syncthreads() per level, padded against bank\n" +
					"conflicts unless --no-pad; dynamic shared memory, opted into above 48 KB) and builds the block and\n" +
					"device scans on it (the warp-wide adder, of the warp program, is left out). Operators: add, max, min, and, or, xor (integers only), carry (uint32 or uint64\n" +
					"limbs), affine (maps x -> a*x + b over float or double: a first-order linear recurrence is one\n" +
					"scan), or functor:NAME for a C++ functor NAME the including code defines, called as\n" +
					"NAME()(earlier, later). --segmented FLAGTYPE carries a head flag of that integer type with every\n" +
					"item and restarts the scan at each head.",
				Flags: append([]cli.Flag{
					topologyFlag(false), emitWidth, paramFlag(), from("1 to 32, or 2 to 2048 with --block shared"), typ,
					&cli.StringFlag{Name: "op", Value: "add", Usage: "operator: add, max, min, and, or, xor, carry, affine, or functor:NAME"},
					&cli.StringFlag{Name: "namespace", Usage: "the namespace inside prefixgen (default topology_params_width_type_op[_segmented_FLAGTYPE][_shared[_nopad]])"},
					&cli.StringFlag{Name: "block", Value: gpukernels.BlockShuffle, Usage: "block scan: shuffle (each warp's network, then a network over the warp totals; width 1 to 32), raking (the first warp's lanes reduce the thread totals serially and its network scans them once; width 1 to 32) or shared (the whole network in shared memory, width 2 to 2048)"},
					&cli.BoolFlag{Name: "no-pad", Usage: "with --block shared, store slot s at s instead of s + s/32 (bank conflicts come back)"},
					&cli.StringFlag{Name: "segmented", Usage: "make the scans segmented, with head flags of integer type `FLAGTYPE`: int32, uint32, int64 or uint64"},
					outputFlag(),
				}, cudaTuningFlags(true)...),
				OnUsageError: onUsageError,
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					if err := cudaTuning(c); err != nil {
						return err
					}
					shared, err := cudaBlock(c)
					if err != nil {
						return err
					}
					if c.IsSet("segmented") && c.String("segmented") == "" {
						return usage(c, "--segmented needs a head-flag type: allowed int32, uint32, int64, uint64")
					}
					nets, err := cudaNetworks(c, false, shared)
					if err != nil {
						return err
					}
					opt := cudaDeviceTuning(c)
					opt.Type, opt.Op, opt.Namespace = c.String("type"), c.String("op"), c.String("namespace")
					opt.Block, opt.NoPad, opt.Segmented = c.String("block"), c.Bool("no-pad"), c.String("segmented")
					if shared && !c.IsSet("items-per-thread") {
						opt.ItemsPerThread = 0 // a multiple of the columns each thread holds
					}
					// Check everything before -o is touched.
					if err := gpukernels.CUDA(io.Discard, nets[0], opt); err != nil {
						return usage(c, "%v", err)
					}
					return output(c, func(w io.Writer) error { return gpukernels.CUDA(w, nets[0], opt) })
				},
			}),
			cudaNamed(&cli.Command{
				Name:      "bench",
				Usage:     "build the benchmark harness with nvcc, run it on the GPU and print a table and its JSON",
				UsageText: "prefixgen cuda bench -t TOPO[,TOPO…]|all [--width W] [--type T] [--op OP] [--items N] [--sizes LIST] [--runs R] [--arch A] [--keep DIR] [-v] [--tool-timeout D]\nprefixgen cuda bench -t TOPO --build-only --keep DIR [--arch A]\nprefixgen cuda bench --suite DIR [--build-only] [--arch A] [--no-sanitize] [--tool-timeout D]\nprefixgen cuda bench --sweep DIR [-t TOPO] [--build-only] [--arch A] [--tool-timeout D]\nprefixgen cuda bench --networks DIR [--build-only] [--arch A] [--no-sanitize] [--tool-timeout D]",
				Description: "Generates every network's single-pass and three-pass device scans, a register-resident warp\n" +
					"microbenchmark, block scans of 1024 items timed in nanoseconds per block (the shuffle and raking block\n" +
					"scans, and the network's family at 1024 columns in shared memory, padded and not, beside\n" +
					"cub::BlockScan), float affine and segmented scans, bigadd, and the applications (stream compaction,\n" +
					"the radix-sort split by one bit, a linear recurrence; elements per second), with cub::DeviceScan,\n" +
					"cub::WarpScan and a device-to-device cudaMemcpy in the same process; builds it with nvcc (PATH, then\n" +
					"CUDA_HOME) -O3 -arch=ARCH, runs it, checks every result against a CPU loop, and prints a table, then\n" +
					"the JSON.\n" +
					"Needs nvcc and a CUDA GPU: without them it says so and exits 2.\n\n" +
					"--suite DIR is the one command for a GPU machine (nvcc, CUB, compute-sanitizer; no Go): it builds\n" +
					"the suite's tables (int32 add over every topology, three to a table; float max and int64 add over\n" +
					"four; one nvcc each, at once, -Xptxas -v), runs every kernel at small sizes under\n" +
					"compute-sanitizer's memcheck, racecheck and synccheck, then checks and times everything (device\n" +
					"scans at 2^28, 2^20, 1, 31, 2049, 2^20+17 and 2^28-1 items, aligned and one item off; the rest at\n" +
					"2^26), writing a line per result to DIR/TABLE/run.log as it comes, and writes DIR/TABLE.json for\n" +
					"each table with nvcc's command line, registers and spills per kernel and the sanitizer runs.\n\n" +
					"--sweep DIR times one network's single-pass inclusive sum (Kogge–Stone unless -t names one) tuned\n" +
					"many ways: tile shapes, the look-back's delays, the status word, the tile order and the window,\n" +
					"one harness per type (int32, int64), each built by one nvcc, at once; every variant is checked\n" +
					"against the CPU and timed beside cub::DeviceScan and a copy of the same bytes at 2^22, 2^26 and\n" +
					"2^28 items, aligned and one item off, writing DIR/sweep-TYPE/run.log as it goes and\n" +
					"DIR/sweep-TYPE.json. With --build-only it builds both in DIR and stops, needing no GPU (but --arch sm_NN).\n\n" +
					"--networks DIR times the networks themselves: one harness per type (int32, float and int64 sums)\n" +
					"of every topology at 32 lanes, each network's register-resident warp scan beside cub::WarpScan and\n" +
					"its block scans of 1024 items (shuffle, raking, and the family in shared memory) beside cub::BlockScan,\n" +
					"and nothing else, so that the three build in a fraction of the suite's time; DIR/TABLE.json as\n" +
					"for --suite.",
				Flags: append([]cli.Flag{
					&cli.StringFlag{Name: "topology", Aliases: []string{"t"}, Usage: "topology to build: " + strings.Join(topologies.Known(), ", ") + "; all (every one but " + strings.Join(otherNames(), ", ") + "), or a comma-separated list of them"},
					benchWidth, paramFlag(), from("1 to 32"), typ,
					&cli.StringFlag{Name: "op", Value: "add", Usage: "operator of the scans: add, max, min, and, or, xor (bigadd always runs)"},
					&cli.StringFlag{Name: "items", Aliases: []string{"N"}, Usage: "items of every benchmark but the device-wide scans (whose sizes --sizes gives): a number, 2^K or 2^K±C, 1 to 2^40", DefaultText: "2^28"},
					&cli.StringFlag{Name: "sizes", Usage: "sizes of the device-wide scans, a comma-separated list of numbers, 2^K and 2^K±C, 1 to 2^40", DefaultText: "2^28,2^20,1,31,2049,2^20+17,2^28-1"},
					&cli.IntFlag{Name: "runs", Value: bench.DefaultBenchRuns, Usage: fmt.Sprintf("timed runs, %d to %d; the median is reported", bench.DefaultBenchRuns, bench.MaxBenchRuns)},
					&cli.StringFlag{Name: "arch", Value: "native", Usage: "nvcc -arch"},
					&cli.StringFlag{Name: "keep", Usage: "keep the generated sources and the binary in `DIR` (made if missing)"},
					&cli.BoolFlag{Name: "build-only", Usage: "with --keep DIR, --suite DIR or --sweep DIR, build the harnesses there and stop, without running on a GPU (run DIR[/TABLE]/harness on a GPU machine); without a GPU here, name its --arch sm_NN"},
					&cli.StringFlag{Name: "suite", Usage: "run the whole GPU suite and write one JSON file per table into `DIR` (created if missing)"},
					&cli.StringFlag{Name: "sweep", Usage: "sweep the device scan's tuning (of -t TOPO, Kogge–Stone by default) over int32 and int64 sums and write sweep-TYPE.json into `DIR` (created if missing); with --build-only, only build it there"},
					&cli.StringFlag{Name: "networks", Usage: "time every topology's warp scan beside cub::WarpScan and its block scans beside cub::BlockScan, over int32, float and int64 sums, and write networks-TYPE-add.json into `DIR` (created if missing); with --build-only, only build them there"},
					&cli.BoolFlag{Name: "no-sanitize", Usage: "with --suite or --networks, skip the compute-sanitizer runs"},
					&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "show nvcc's output as it comes, ptxas's registers and spills for every kernel among it (the JSON records them either way)"},
					toolTimeoutFlag(),
				}, append(cudaTuningFlags(false), progressFlags()...)...),
				OnUsageError: onUsageError,
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					if err := cudaTuning(c); err != nil {
						return err
					}
					timeout, err := toolTimeout(c)
					if err != nil {
						return err
					}
					if _, err := progressMode(c); err != nil {
						return err
					}
					var runs []string
					for _, f := range []string{"suite", "sweep", "networks"} {
						if c.IsSet(f) {
							runs = append(runs, "--"+f)
						}
					}
					if len(runs) > 1 {
						last := len(runs) - 1
						return usage(c, "%s and %s are %s runs: give one", strings.Join(runs[:last], ", "), runs[last], [...]string{2: "two", 3: "three"}[len(runs)])
					}
					if c.IsSet("sweep") {
						return cudaSweep(c, timeout)
					}
					if c.IsSet("networks") {
						return cudaTables(c, networksRun, timeout)
					}
					if c.IsSet("suite") {
						return cudaTables(c, suiteRun, timeout)
					}
					if c.Bool("no-sanitize") {
						return usage(c, "--no-sanitize applies to --suite and --networks only")
					}
					nets, err := cudaNetworks(c, true, false)
					if err != nil {
						return err
					}
					var items int64 = bench.DefaultBenchItems
					if c.IsSet("items") {
						if items, err = bench.ParseSize(c.String("items")); err != nil {
							return usage(c, "--items: %v", strings.TrimPrefix(err.Error(), "bench: "))
						}
					}
					opt := bench.BenchOptions{
						Networks: nets, Type: c.String("type"), Op: c.String("op"), Items: items, Runs: c.Int("runs"),
						Tuning: cudaDeviceTuning(c),
					}
					if c.IsSet("sizes") {
						if opt.Sizes, err = bench.ParseSizes(c.String("sizes")); err != nil {
							return usage(c, "--sizes: %v", strings.TrimPrefix(err.Error(), "bench: "))
						}
					}
					if _, err := bench.Harness(opt); err != nil {
						return usage(c, "%v", err)
					}
					buildOnly := c.Bool("build-only")
					if buildOnly && c.String("keep") == "" {
						return usage(c, "--build-only needs --keep DIR: the folder the harness is built in")
					}
					if err := bench.CheckArch(c.String("arch")); err != nil {
						return usage(c, "%v", err)
					}
					keep := c.String("keep")
					if st, err := os.Stat(keep); keep != "" && err == nil && !st.IsDir() {
						return usage(c, "--keep %s: not a folder: allowed a folder, made if missing", keep)
					}
					nvcc, err := bench.FindNVCC()
					if err != nil {
						return usage(c, "%v", err)
					}
					// Minutes of nvcc are not spent for a harness that
					// cannot run here.
					if !buildOnly {
						if err := deviceProbe.Check(c.Context); err != nil {
							return usage(c, "%v; --build-only --keep DIR builds the harness without one", err)
						}
					} else if err := nativeBuild(c); err != nil {
						return err
					}
					if keep != "" {
						// Made, or written, only once the harness is built.
						if err := stage.Check(keep); err != nil {
							if pe, ok := errors.AsType[*fs.PathError](err); ok {
								err = fmt.Errorf("%s: %v", pe.Path, pe.Err)
							}
							return usage(c, "--keep %s: cannot make the folder (%v): allowed a folder, made if missing", keep, err)
						}
					}
					unit, steps := "steps (build, run)", 2
					if buildOnly {
						unit, steps = "build", 1
					}
					bar := newBar(c, unit)
					// The harness's and nvcc's lines (-v) above the bar.
					log := bar.Writer()
					defer log.Close()
					build := bench.BuildOptions{NVCC: nvcc, Arch: c.String("arch"), Dir: keep, Log: log, Verbose: c.Bool("verbose"), ToolTimeout: timeout}
					build.Progress = bar.Update
					bar.Update(0, steps)
					stop := bar.Beat(time.Second) // nvcc's minute shows its time so far
					if buildOnly {
						_, err := bench.Build(c.Context, opt, build)
						stop()
						if err != nil {
							bar.Done()
							return failure{fmt.Errorf("prefixgen cuda bench: %w", err)}
						}
						bar.Update(1, 1)
						bar.Done()
						return nil
					}
					rep, raw, err := bench.Bench(c.Context, opt, build)
					stop()
					bar.Done()
					if _, missing := errors.AsType[*bench.MissingError](err); missing {
						return usage(c, "%v", err)
					}
					if rep != nil {
						if terr := rep.Table(c.App.Writer); terr != nil {
							return failure{terr}
						}
						fmt.Fprintln(c.App.Writer, strings.TrimSpace(string(raw)))
					}
					if err != nil {
						return failure{fmt.Errorf("prefixgen cuda bench: %w", err)}
					}
					return nil
				},
			}),
			cudaNamed(&cli.Command{
				Name:      "report",
				Usage:     "turn benchmark reports (the JSON of cuda bench and --suite) into Markdown tables and a throughput plot",
				UsageText: "prefixgen cuda report [-o FILE] [--plot FILE.svg|FILE.png] FILE.json...",
				Description: "Reads the reports a GPU machine wrote (the whole output of cuda bench, its table then its JSON;\n" +
					"or --suite's DIR/TABLE.json), and writes Markdown for each, under its file name: the compute-sanitizer\n" +
					"runs; the device-wide scans at the largest size, aligned and one item off, with their ratios to CUB\n" +
					"and to cudaMemcpy; the inclusive scans' GB/s at every size; every other kernel; the registers of the\n" +
					"scan kernels and every kernel ptxas gave spills; and whether every result matched the CPU. An\n" +
					"untimed (--sanitize) report gets no timings. --plot draws the inclusive scans' GB/s against size, one line per series\n" +
					"(cudaMemcpy, CUB, and every network's single pass and three passes), all the reports on one plot.\n" +
					"Each report is given once, and no two under one file name. Needs no GPU.",
				Flags: []cli.Flag{
					outputFlag(),
					&cli.StringFlag{Name: "plot", Usage: "also draw the throughput against size to `FILE` (.svg or .png)"},
				},
				OnUsageError: onUsageError,
				Action:       cudaReport,
			}),
		},
	}
}

// cudaReport is cuda report: the reports named as arguments, as Markdown,
// and their plot.
func cudaReport(c *cli.Context) error {
	if !c.Args().Present() {
		return usage(c, "name one or more report files (the JSON of cuda bench or --suite)")
	}
	plotPath := c.String("plot")
	plotFormat := strings.TrimPrefix(strings.ToLower(filepath.Ext(plotPath)), ".")
	if c.IsSet("plot") && !slices.Contains(report.PlotFormats, plotFormat) {
		return usage(c, "--plot %s: unknown picture type %s: allowed .svg, .png", plotPath, network.Quote(filepath.Ext(plotPath)))
	}
	if out := c.String("output"); plotPath != "" && out != "" && out != "-" && emit.SamePath(plotPath, out) {
		return usage(c, "--plot %s and -o %s name the same file: allowed two files, one for the picture and one for the tables", plotPath, out)
	}
	if err := checkOutputs(c); err != nil {
		return err
	}
	paths := c.Args().Slice()
	for i, path := range paths {
		for _, before := range paths[:i] {
			switch {
			case before == path:
				return usage(c, "%s given twice: allowed each report once", path)
			case emit.SamePath(before, path):
				return usage(c, "%s is %s, given twice: allowed each report once", path, before)
			case reportName(before) == reportName(path):
				return usage(c, "%s and %s would both be sections named %s: allowed files of different names", before, path, reportName(path))
			}
		}
	}
	var reports []report.NamedBenchReport
	for _, path := range paths {
		data, err := readInput(path)
		if isTooLarge(err) {
			return usage(c, "report %v", err)
		}
		if err != nil {
			if pe, ok := errors.AsType[*os.PathError](err); ok {
				err = pe.Err
			}
			return usage(c, "cannot read report %s: %v", path, err)
		}
		r, err := bench.ReadBenchReport(data)
		if err != nil {
			return usage(c, "%s: %v", path, strings.TrimPrefix(err.Error(), "bench: "))
		}
		reports = append(reports, report.NamedBenchReport{Name: reportName(path), Report: r})
	}
	// Both are drawn before anything is written (checkOutputs has found
	// both paths writable), -o first, so that bad input leaves no file
	// behind.
	var pic bytes.Buffer
	if plotPath != "" {
		if err := report.ThroughputPlot(&pic, reports, plotFormat); err != nil {
			return usage(c, "--plot %s: %v", plotPath, strings.TrimPrefix(err.Error(), "report: "))
		}
	}
	err := output(c, func(w io.Writer) error {
		for i, nr := range reports {
			if i > 0 {
				if _, err := io.WriteString(w, "\n"); err != nil {
					return err
				}
			}
			if err := nr.Report.Markdown(w, nr.Name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || plotPath == "" {
		return err
	}
	return writeFile(c, "--plot", plotPath, func(w io.Writer) error { _, err := w.Write(pic.Bytes()); return err })
}

// reportName is the name of cuda report's section for the report at path:
// its file name without ".json", escaped for the terminal.
func reportName(path string) string {
	return network.Printable(strings.TrimSuffix(filepath.Base(path), ".json"))
}

// tableRun is a run of several tables on a GPU machine, --suite or
// --networks, as its messages name it.
type tableRun struct {
	flag   string                             // the flag naming the folder
	name   string                             // the run: "the suite"
	fixes  string                             // what it fixes, for a flag that does not apply
	keeps  string                             // who keeps nvcc's output
	tables func() ([]bench.SuiteTable, error) // its tables; nil means bench.DefaultSuite
}

var (
	suiteRun = tableRun{flag: "suite", name: "the suite", fixes: "the suite fixes its tables", keeps: "the suite keeps"}
	// networksRun is cuda bench --networks: bench.NetworkTables.
	networksRun = tableRun{flag: "networks", name: "the network tables", fixes: "the network tables fix their networks and types",
		keeps: "each table keeps", tables: bench.NetworkTables}
)

// cudaTables runs cuda bench --suite DIR or --networks DIR (r): every
// table of r, written to DIR, each tool's run limited to timeout.
func cudaTables(c *cli.Context, r tableRun, timeout time.Duration) error {
	for _, f := range []string{"topology", "from", "width", "param", "type", "op", "items", "sizes", "runs", "keep",
		"items-per-thread", "block-threads", "lookback", "partial-delay", "poll-delay", "delay-grid", "wide-status", "status-stride", "tile-order"} {
		if c.IsSet(f) {
			return usage(c, "--%s does not apply to --%s: %s (see --help)", f, r.flag, r.fixes)
		}
	}
	if c.Bool("build-only") && c.Bool("no-sanitize") {
		return usage(c, "--no-sanitize applies to a run of %s, not to --build-only", r.name)
	}
	if c.Bool("verbose") {
		return usage(c, "--verbose applies to a single bench, not --%s: %s nvcc's output in DIR/TABLE/nvcc.log", r.flag, r.keeps)
	}
	dir := c.String(r.flag)
	if dir == "" {
		return usage(c, "--%s needs a folder to write the tables into", r.flag)
	}
	opt := bench.SuiteOptions{Dir: dir, NoSanitize: c.Bool("no-sanitize"), BuildOnly: c.Bool("build-only"), ToolTimeout: timeout}
	if r.tables != nil {
		var err error
		if opt.Tables, err = r.tables(); err != nil {
			return err
		}
	}
	return runSuite(c, r.flag, opt, "steps (builds, sanitizer runs, runs)")
}

// cudaSweep runs cuda bench --sweep DIR: bench.SweepSuite of the one
// network of -t or --from (Kogge–Stone at 32 lanes when neither is given).
func cudaSweep(c *cli.Context, timeout time.Duration) error {
	for _, f := range []string{"type", "op", "items", "sizes", "runs", "keep", "no-sanitize",
		"items-per-thread", "block-threads", "lookback", "partial-delay", "poll-delay", "delay-grid", "wide-status", "status-stride", "tile-order"} {
		if c.IsSet(f) {
			return usage(c, "--%s does not apply to --sweep: the sweep fixes its types, sizes and variants (see --help)", f)
		}
	}
	if c.Bool("verbose") {
		return usage(c, "--verbose applies to a single bench, not --sweep: the sweep keeps nvcc's output in DIR/TABLE/nvcc.log")
	}
	dir := c.String("sweep")
	if dir == "" {
		return usage(c, "--sweep needs a folder to write the tables into")
	}
	net, err := topologies.Build("kogge-stone", warp.Lanes, nil)
	if err != nil {
		return err
	}
	if c.IsSet("topology") || c.IsSet("from") {
		nets, err := cudaNetworks(c, false, false)
		if err != nil {
			return err
		}
		net = nets[0]
	}
	tables, err := bench.SweepSuite(net)
	if err != nil {
		return usage(c, "%v", err)
	}
	return runSuite(c, "sweep", bench.SuiteOptions{Dir: dir, Tables: tables, NoSanitize: true, BuildOnly: c.Bool("build-only"), ToolTimeout: timeout},
		"steps (builds, runs)")
}

// nativeBuild refuses a build for --arch native (the default) with
// --build-only where the device probe finds no GPU: nvcc would build for
// its oldest default architecture, whose code takes the header's
// pre-Volta paths, and say so only in a warning.
func nativeBuild(c *cli.Context) error {
	if arch := c.String("arch"); arch != "" && arch != "native" {
		return nil
	}
	if err := deviceProbe.Check(c.Context); err != nil {
		return usage(c, "%v: --arch native builds for this machine's GPU: allowed with --build-only --arch sm_NN, the GPU the harness will run on", err)
	}
	return nil
}

// runSuite runs bench.Suite with opt, its Dir from the flag named flag,
// checking that Dir is a folder or nothing yet and finding nvcc and, unless
// opt only builds, the device first, and prints each table.
func runSuite(c *cli.Context, flag string, opt bench.SuiteOptions, steps string) error {
	if st, err := os.Stat(opt.Dir); err == nil && !st.IsDir() {
		return usage(c, "--%s %s: not a folder: allowed a folder, made if missing", flag, opt.Dir)
	}
	if err := bench.CheckArch(c.String("arch")); err != nil {
		return usage(c, "%v", err)
	}
	var err error
	if opt.NVCC, err = bench.FindNVCC(); err != nil {
		return usage(c, "%v", err)
	}
	if !opt.BuildOnly {
		if err := deviceProbe.Check(c.Context); err != nil {
			return usage(c, "%v", err)
		}
	} else if err := nativeBuild(c); err != nil {
		return err
	}
	opt.Arch = c.String("arch")
	// The bar stands for the suite's lines on a terminal, and --quiet
	// silences both.
	bar := newBar(c, steps)
	var logw io.Writer = c.App.ErrWriter
	if mode, _ := progressMode(c); mode == progress.Never || progress.IsTerminal(logw) {
		logw = nil
	}
	opt.Log, opt.Progress = logw, bar.Update
	stop := bar.Beat(time.Second) // a build's minute shows its time so far
	reps, err := bench.Suite(c.Context, opt)
	stop()
	bar.Done()
	if _, missing := errors.AsType[*bench.MissingError](err); missing {
		return usage(c, "%v", err)
	}
	for _, rep := range reps {
		if terr := rep.Table(c.App.Writer); terr != nil {
			return failure{terr}
		}
	}
	if err != nil {
		return failure{fmt.Errorf("prefixgen cuda bench: %w", err)}
	}
	return nil
}

// renamedError is err with another message.
type renamedError struct {
	msg string
	err error
}

func (e renamedError) Error() string { return e.msg }
func (e renamedError) Unwrap() error { return e.err }

// cudaNamed makes the errors of a cuda subcommand name it in full, as
// "prefixgen cuda emit: …", keeping failures failures.
func cudaNamed(sub *cli.Command) *cli.Command {
	rename := func(err error) error {
		if err == nil {
			return nil
		}
		msg := strings.Replace(err.Error(), "prefixgen "+sub.Name+":", "prefixgen cuda "+sub.Name+":", 1)
		msg = strings.Replace(msg, "(see prefixgen "+sub.Name+" --help)", "(see prefixgen cuda "+sub.Name+" --help)", 1)
		// The cause stays in the chain: a reader gone (EPIPE) is told apart.
		renamed := renamedError{msg, err}
		if _, ok := errors.AsType[failure](err); ok {
			return failure{renamed}
		}
		return renamed
	}
	action := sub.Action
	sub.Action = func(c *cli.Context) error { return rename(action(c)) }
	sub.OnUsageError = func(c *cli.Context, err error, isSub bool) error { return rename(onUsageError(c, err, isSub)) }
	return sub
}
