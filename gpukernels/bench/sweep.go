package bench

import (
	"fmt"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/network"
)

// SweepSizes are the sizes of a sweep's device scans: 2^22, 2^26 and
// 2^28 items, where the generated scans trailed CUB 3.0.1 on an H200.
var SweepSizes = []int64{1 << 22, 1 << 26, 1 << 28}

// SweepTypes are the value types SweepSuite sweeps, a table each.
var SweepTypes = []string{"int32", "int64"}

// DefaultVariants returns the variants a sweep over values of type typ
// tries: the default tuning (gpukernels.DefaultTuning and DefaultDelays,
// the 8-byte status of a 4-byte value, tiles from the counter), then one
// change to it each: other tile shapes, no delays or one of the two, the
// 16-byte status, tiles by block index, half the look-back window, the
// raking block scan, and status words 32 bytes apart (16 too for 4-byte
// values, the 16-byte word's spacing with the 8-byte word's atomicity);
// then, for 4-byte values, the changes that ran fastest alone on an H200
// (docs/gpu-results.md) taken together.
func DefaultVariants(typ string) ([]Variant, error) {
	t, err := gpukernels.LookupType(typ)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	threads, items := gpukernels.DefaultTuning(t.Bytes)
	shape := func(th, it int) Variant {
		return Variant{fmt.Sprintf("%dx%d", th, it), gpukernels.Options{BlockThreads: th, ItemsPerThread: it}}
	}
	delays := func(name string, partial, poll int) Variant {
		return Variant{name, gpukernels.Options{Delays: &gpukernels.Delays{Partial: partial, Poll: poll, Grid: -1}}}
	}
	vs := []Variant{{Name: fmt.Sprintf("default %dx%d", threads, items)}}
	if t.Bytes <= 4 {
		vs = append(vs, shape(128, 16), shape(256, 24), shape(128, 32))
	} else {
		// 256 threads of 24 eight-byte items would need 48 KiB of static
		// shared memory, more than a kernel may declare.
		vs = append(vs, shape(threads, items/2), shape(128, items), shape(256, 2*items/3))
	}
	vs = append(vs,
		delays("no-delays", 0, 0),
		delays("partial-delay-only", -1, 0),
		delays("poll-delay-only", 0, -1),
		Variant{"block-order", gpukernels.Options{TileOrder: gpukernels.TileOrderBlock}},
		Variant{"lookback-16", gpukernels.Options{LookBack: 16}},
		Variant{"raking", gpukernels.Options{Block: gpukernels.BlockRaking}},
		Variant{"status-stride-32", gpukernels.Options{StatusStride: 32}},
	)
	if t.Bytes <= 4 {
		wide := gpukernels.Options{WideStatus: true}
		wideBlock := gpukernels.Options{WideStatus: true, TileOrder: gpukernels.TileOrderBlock}
		long := func(o gpukernels.Options) gpukernels.Options {
			o.BlockThreads, o.ItemsPerThread = 128, 32
			return o
		}
		vs = append(vs,
			Variant{"status-stride-16", gpukernels.Options{StatusStride: 16}},
			Variant{"wide-status", wide},
			Variant{"wide-status block-order", wideBlock},
			Variant{"128x32 wide-status", long(wide)},
			Variant{"128x32 wide-status block-order", long(wideBlock)},
		)
	}
	return vs, nil
}

// SweepSuite returns the tables of a sweep of net's device scan: one per
// type of SweepTypes, named sweep-TYPE, each the sum of DefaultVariants at
// SweepSizes.
func SweepSuite(net *network.Network) ([]SuiteTable, error) {
	var tables []SuiteTable
	for _, typ := range SweepTypes {
		vs, err := DefaultVariants(typ)
		if err != nil {
			return nil, err
		}
		tables = append(tables, SuiteTable{"sweep-" + typ, BenchOptions{
			Networks: []*network.Network{net}, Type: typ, Op: "add", Items: SweepSizes[0], Sizes: SweepSizes, Variants: vs,
		}})
	}
	return tables, nil
}
