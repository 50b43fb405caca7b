package simulate_test

import (
	"testing"

	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// BenchmarkVerifyAdder64 verifies a 64-bit Kogge–Stone adder on 2^16 random
// vectors per operation and reports the rate, corner vectors included.
func BenchmarkVerifyAdder64(b *testing.B) {
	net, err := topologies.KoggeStone(64)
	if err != nil {
		b.Fatal(err)
	}
	const vectors = 1 << 16
	for b.Loop() {
		r, err := simulate.VerifyAdder(net, simulate.VerifyOptions{Vectors: vectors, Seed: 1})
		if err != nil || r.Mismatch != nil {
			b.Fatal(err, r.Mismatch)
		}
	}
	b.ReportMetric(float64(vectors*b.N)/b.Elapsed().Seconds(), "vectors/s")
}

func BenchmarkEvalMatrix2(b *testing.B) {
	net := built(b, "kogge-stone", 64)
	m := simulate.Matrix2{Mod: prime}
	in := make([]simulate.Mat2, 64)
	for i := range in {
		in[i] = simulate.Mat2{{uint64(i), 1}, {1, 0}}
	}
	for b.Loop() {
		simulate.Eval(net, m, in)
	}
}
