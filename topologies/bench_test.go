package topologies_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// benchWidths are the widths of the Kogge–Stone benchmarks; 65536 is about a
// million cells.
var benchWidths = []int{4096, 16384, 65536}

// BenchmarkKoggeStone builds Kogge–Stone and measures it (network.Figures)
// per operation, and reports the time and the bytes allocated per cell.
func BenchmarkKoggeStone(b *testing.B) {
	for _, n := range benchWidths {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchBuild(b, n, func(net *network.Network) { _ = net.Figures() })
		})
	}
}

// BenchmarkKoggeStoneBuild builds Kogge–Stone (and so proves it) per
// operation, without measuring it.
func BenchmarkKoggeStoneBuild(b *testing.B) {
	for _, n := range benchWidths {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchBuild(b, n, func(*network.Network) {})
		})
	}
}

// BenchmarkLadnerFischerBuild builds P_0(65536), the recursive construction,
// per operation.
func BenchmarkLadnerFischerBuild(b *testing.B) {
	const n = 65536
	net, err := topologies.LadnerFischer(n, 0)
	if err != nil {
		b.Fatal(err)
	}
	cells := net.Size()
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		if _, err := topologies.LadnerFischer(n, 0); err != nil {
			b.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	report(b, cells, before, after)
}

func benchBuild(b *testing.B, n int, then func(*network.Network)) {
	net, err := topologies.KoggeStone(n)
	if err != nil {
		b.Fatal(err)
	}
	cells := net.Size()
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		net, err := topologies.KoggeStone(n)
		if err != nil {
			b.Fatal(err)
		}
		then(net)
	}
	runtime.ReadMemStats(&after)
	report(b, cells, before, after)
}

// report adds ns/cell and B/cell, from the elapsed time and the bytes
// allocated between before and after.
func report(b *testing.B, cells int, before, after runtime.MemStats) {
	per := float64(b.N) * float64(cells)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/cell")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/cell")
}
