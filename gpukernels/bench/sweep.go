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
// tries: the default tuning (gpukernels.DefaultTuning, DefaultDelays and
// DefaultStatusStride, the 8-byte status of a 4-byte value, tiles from the
// counter), then one change to it each: other tile shapes (the defaults
// before the sweep of 2026-12-04 among them), no delays or one of the
// two, status words packed, the 16-byte status of a 4-byte value, tiles
// by block index, half the look-back window and the raking block scan.
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
	word := 8
	if t.Bytes <= 4 {
		vs = append(vs, shape(128, 24), shape(128, 16), shape(256, 24))
	} else {
		// 256 threads of 24 eight-byte items would need 48 KiB of static
		// shared memory, more than a kernel may declare.
		word = 16
		vs = append(vs, shape(224, 24), shape(224, 12), shape(128, 24))
	}
	vs = append(vs,
		delays("no-delays", 0, 0),
		delays("partial-delay-only", -1, 0),
		delays("poll-delay-only", 0, -1),
		Variant{"block-order", gpukernels.Options{TileOrder: gpukernels.TileOrderBlock}},
		Variant{"lookback-16", gpukernels.Options{LookBack: 16}},
		Variant{"raking", gpukernels.Options{Block: gpukernels.BlockRaking}},
		Variant{fmt.Sprintf("status-stride-%d", word), gpukernels.Options{StatusStride: word}},
	)
	if t.Bytes <= 4 {
		vs = append(vs,
			Variant{"wide-status", gpukernels.Options{WideStatus: true}},
			Variant{"wide-status block-order", gpukernels.Options{WideStatus: true, TileOrder: gpukernels.TileOrderBlock}},
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
