package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/network"
)

// cudaTuningFlags are the tuning flags of cuda emit and cuda bench.
func cudaTuningFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "items", Value: gpukernels.DefaultItemsPerThread, Usage: fmt.Sprintf("items each thread of a block scans serially, 1 to %d", gpukernels.MaxItemsPerThread)},
		&cli.IntFlag{Name: "block-threads", Usage: fmt.Sprintf("threads per block, a multiple of 32, at most 32 logical warps (default %d, fewer for logical warps under 8 lanes)", gpukernels.DefaultBlockThreads)},
		&cli.IntFlag{Name: "lookback", Value: gpukernels.DefaultLookBack, Usage: "tiles the decoupled look-back reads at once, 1 to 32"},
	}
}

// cudaTuning refuses tuning flags set to 0, which gpukernels would take
// as "the default".
func cudaTuning(c *cli.Context, items string) error {
	for _, f := range []string{items, "block-threads", "lookback"} {
		if c.IsSet(f) && c.Int(f) < 1 {
			return usage(c, "--%s %d out of range: allowed 1 or more (see --help)", f, c.Int(f))
		}
	}
	return nil
}

// cudaNetworks returns the networks of -t (at --width, 1 to 32) or --from.
func cudaNetworks(c *cli.Context, allowAll bool) ([]*network.Network, error) {
	if c.String("from") != "" {
		if c.IsSet("width") || c.IsSet("param") {
			return nil, usage(c, "--param and --width do not apply to --from: the file fixes the network")
		}
		return networks(c, false)
	}
	w := c.Int("width")
	if w < 1 || w > gpukernels.Lanes {
		return nil, usage(c, "--width %d out of range: a warp scan allows 1 to %d lanes", w, gpukernels.Lanes)
	}
	if c.String("topology") == "" {
		return nil, usage(c, "no network given: use -t TOPOLOGY [--width W] or --from FILE")
	}
	return networks(c, allowAll)
}

func cudaCommand() *cli.Command {
	fromFlag := &cli.StringFlag{Name: "from", Usage: "read the network from a prefixgen.network/v1 JSON `FILE` (width 1 to 32) instead of building one"}
	width := &cli.IntFlag{Name: "width", Aliases: []string{"n"}, Value: 32, Usage: "lanes of a logical warp, 1 to 32 (narrower warps share a hardware warp in power-of-two segments)"}
	typ := &cli.StringFlag{Name: "type", Usage: "value type: int32, uint32, int64, uint64, float, double (default int32; uint32 limbs for carry)"}
	return &cli.Command{
		Name:  "cuda",
		Usage: "emit CUDA warp, block and device-wide scans built from a network, and benchmark them",
		Subcommands: []*cli.Command{
			cudaNamed(&cli.Command{
				Name:      "emit",
				Usage:     "write a header-only CUDA library of scans built from one network",
				UsageText: "prefixgen cuda emit -t TOPO [--width W] [--param k=V] --type T --op OP [-o FILE]\nprefixgen cuda emit --from FILE --type T --op OP [-o FILE]",
				Description: "Lowers the network to a warp program and writes a .cuh with, in namespace prefixgen::NAME, the\n" +
					"warp scans (inclusive, exclusive), a block scan, a single-pass device-wide scan with decoupled\n" +
					"look-back and, for --op carry, a warp-wide multi-precision adder (BigAddKernel). Operators: add,\n" +
					"max, min, and, or, xor (integers only), carry (uint32 or uint64 limbs), or functor:NAME for a C++\n" +
					"functor NAME the including code defines, called as NAME()(earlier, later).",
				Flags: append([]cli.Flag{
					topologyFlag(false), width, paramFlag, fromFlag, typ,
					&cli.StringFlag{Name: "op", Value: "add", Usage: "operator: add, max, min, and, or, xor, carry, or functor:NAME"},
					&cli.StringFlag{Name: "namespace", Usage: "the namespace inside prefixgen (default topology_params_width_type_op)"},
					&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of standard output (written whole or not at all)"},
				}, cudaTuningFlags()...),
				OnUsageError: onUsageError,
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					if err := cudaTuning(c, "items"); err != nil {
						return err
					}
					nets, err := cudaNetworks(c, false)
					if err != nil {
						return err
					}
					opt := gpukernels.Options{
						Type: c.String("type"), Op: c.String("op"), Namespace: c.String("namespace"),
						ItemsPerThread: c.Int("items"), BlockThreads: c.Int("block-threads"), LookBack: c.Int("lookback"),
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
				UsageText: "prefixgen cuda bench -t TOPO|all [--width W] [--type T] [--op OP] [--n N] [--runs R] [--arch A] [--keep DIR]",
				Description: "Generates every network's device scans, a register-resident warp microbenchmark and bigadd, with\n" +
					"cub::DeviceScan, cub::WarpScan and a device-to-device cudaMemcpy in the same process; builds it\n" +
					"with nvcc (PATH, then CUDA_HOME) -O3 -arch=ARCH, runs it, checks every result against a CPU scan,\n" +
					"and prints a table, then the JSON. Needs nvcc and a CUDA GPU: without them it says so and exits 2.",
				Flags: []cli.Flag{
					topologyFlag(true), width, paramFlag, fromFlag, typ,
					&cli.StringFlag{Name: "op", Value: "add", Usage: "operator of the scans: add, max, min, and, or, xor (bigadd always runs)"},
					&cli.Int64Flag{Name: "items", Aliases: []string{"N"}, Value: gpukernels.DefaultBenchItems, Usage: "items scanned (default 2^28)"},
					&cli.IntFlag{Name: "runs", Value: gpukernels.DefaultBenchRuns, Usage: "timed runs, at least 20; the median is reported"},
					&cli.StringFlag{Name: "arch", Value: "native", Usage: "nvcc -arch"},
					&cli.StringFlag{Name: "keep", Usage: "keep the generated sources and the binary in `DIR` (must exist)"},
					&cli.IntFlag{Name: "items-per-thread", Value: gpukernels.DefaultItemsPerThread, Usage: fmt.Sprintf("items each thread of a block scans serially, 1 to %d", gpukernels.MaxItemsPerThread)},
					&cli.IntFlag{Name: "block-threads", Usage: "threads per block, a multiple of 32, at most 32 logical warps"},
					&cli.IntFlag{Name: "lookback", Value: gpukernels.DefaultLookBack, Usage: "tiles the decoupled look-back reads at once, 1 to 32"},
				},
				OnUsageError: onUsageError,
				Action: func(c *cli.Context) error {
					if err := noArgs(c); err != nil {
						return err
					}
					if err := cudaTuning(c, "items-per-thread"); err != nil {
						return err
					}
					nets, err := cudaNetworks(c, true)
					if err != nil {
						return err
					}
					opt := gpukernels.BenchOptions{
						Networks: nets, Type: c.String("type"), Op: c.String("op"), Items: c.Int64("items"), Runs: c.Int("runs"),
						ItemsPerThread: c.Int("items-per-thread"), BlockThreads: c.Int("block-threads"), LookBack: c.Int("lookback"),
					}
					if _, err := gpukernels.Harness(opt); err != nil {
						return usage(c, "%v", err)
					}
					nvcc, err := gpukernels.FindNVCC()
					if err != nil {
						return usage(c, "%v", err)
					}
					rep, raw, err := gpukernels.Bench(c.Context, opt, gpukernels.BuildOptions{NVCC: nvcc, Arch: c.String("arch"), Dir: c.String("keep"), Log: c.App.ErrWriter})
					if _, missing := errors.AsType[*gpukernels.MissingError](err); missing {
						return usage(c, "%v", err)
					}
					if rep != nil {
						if terr := rep.Table(c.App.Writer); terr != nil {
							return failure{terr}
						}
						fmt.Fprintln(c.App.Writer, strings.TrimSpace(string(raw)))
					}
					if err != nil {
						return failure{fmt.Errorf("prefixgen cuda bench: %v", err)}
					}
					return nil
				},
			}),
		},
	}
}

// cudaNamed makes the errors of a cuda subcommand name it in full, as
// "prefixgen cuda emit: …", keeping failures failures.
func cudaNamed(sub *cli.Command) *cli.Command {
	rename := func(err error) error {
		if err == nil {
			return nil
		}
		msg := strings.Replace(err.Error(), "prefixgen "+sub.Name+":", "prefixgen cuda "+sub.Name+":", 1)
		if _, ok := errors.AsType[failure](err); ok {
			return failure{errors.New(msg)}
		}
		return errors.New(msg)
	}
	action := sub.Action
	sub.Action = func(c *cli.Context) error { return rename(action(c)) }
	sub.OnUsageError = func(c *cli.Context, err error, isSub bool) error { return rename(onUsageError(c, err, isSub)) }
	return sub
}
