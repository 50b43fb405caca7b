package optimize_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/prefixgen/prefixgen/optimize"
)

// BenchmarkTargets runs the optimizer on every row of the README's table of
// results and reports the cells found (cells/op is the size, not a rate):
// 128 inputs at depths 7 and 8, where the best published sizes are 364
// (optimal: Sergeev, ECCC TR13-041; the optimizer finds it) and 273
// (ArithTreeRL, NeurIPS 2024; the optimizer finds 272), and at depth 9; 256
// inputs at depths 8 to 10; and 32 and 64 inputs at every depth from
// log2 n to 2·log2 n − 2. Run it with
//
//	go test -run '^$' -bench Targets -benchtime 1x ./optimize
func BenchmarkTargets(b *testing.B) {
	cases := [][2]int{{128, 7}, {128, 8}, {128, 9}, {256, 8}, {256, 9}, {256, 10}}
	for _, n := range []int{32, 64} {
		levels := 0
		for 1<<levels < n {
			levels++
		}
		for d := levels; d <= 2*levels-2; d++ {
			cases = append(cases, [2]int{n, d})
		}
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("n=%d/depth=%d", c[0], c[1]), func(b *testing.B) {
			var r optimize.Result
			for b.Loop() {
				var err error
				r, err = optimize.Minimize(context.Background(), optimize.Options{Width: c[0], MaxDepth: c[1], Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Figures.Size), "cells")
			b.ReportMetric(float64(r.Figures.Deficiency), "deficiency")
			if r.Named != nil {
				b.ReportMetric(float64(r.Named.Size()), "named-cells")
			}
		})
	}
}

// BenchmarkWidths times the optimizer at the widest widths it takes, at the
// least depth and one above, each beside 256 inputs so that the ratios are
// measured side by side. Run it with
//
//	go test -run '^$' -bench Widths -benchtime 1x -count 3 ./optimize
func BenchmarkWidths(b *testing.B) {
	for _, c := range [][2]int{{256, 8}, {256, 9}, {512, 9}, {512, 10}, {1024, 10}, {1024, 11}} {
		b.Run(fmt.Sprintf("n=%d/depth=%d", c[0], c[1]), func(b *testing.B) {
			var r optimize.Result
			for b.Loop() {
				var err error
				r, err = optimize.Minimize(context.Background(), optimize.Options{Width: c[0], MaxDepth: c[1], Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Figures.Size), "cells")
		})
	}
}

// BenchmarkFanout times the optimizer under a fan-out bound, where every
// step of its annealing counts each signal's readers. Run it with
//
//	go test -run '^$' -bench Fanout -benchtime 1x -count 5 ./optimize
func BenchmarkFanout(b *testing.B) {
	for _, c := range [][3]int{{64, 8, 4}, {128, 9, 4}, {256, 14, 4}} {
		b.Run(fmt.Sprintf("n=%d/depth=%d/fanout=%d", c[0], c[1], c[2]), func(b *testing.B) {
			var r optimize.Result
			for b.Loop() {
				var err error
				r, err = optimize.Minimize(context.Background(), optimize.Options{Width: c[0], MaxDepth: c[1], MaxFanout: c[2], Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Figures.Size), "cells")
		})
	}
}
