package warp_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/gpukernels/warp"
)

// checkRandom lowers the network of data and checks the program.
func checkRandom(t *testing.T, data []byte, rng *rand.Rand) *warp.Program {
	net := gputest.RandomNetwork(t, data)
	if net == nil {
		return nil
	}
	p, err := warp.Lower(net)
	require.NoError(t, err)
	requireWellFormed(t, p)
	require.Equal(t, net.Size(), p.Combines())
	levels := 0
	for k := range net.Size() {
		levels = max(levels, net.Level(net.CellSignal(k)))
	}
	require.GreaterOrEqual(t, len(p.Steps), levels)
	requireScan(t, p, rng)
	return p
}

func FuzzLower(f *testing.F) {
	f.Add([]byte{31})
	f.Add([]byte{7, 0, 0, 2, 0, 1, 0, 5, 0})
	f.Add([]byte{6, 2, 0, 1, 1, 0, 0, 6, 0, 6, 1, 8, 0})
	f.Add([]byte{31, 30, 0, 28, 0, 26, 0, 24, 0, 1, 0, 3, 1, 5, 2, 40, 3, 41, 1, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRandom(t, data, rand.New(rand.NewPCG(uint64(len(data)), 0)))
	})
}

// TestLowerRandom runs the fuzz check on seeded random networks, and
// checks that they exercise the spare registers.
func TestLowerRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	spares, finals := 0, 0
	for range 2000 {
		data := make([]byte, rng.IntN(300))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		p := checkRandom(t, data, rng)
		if p == nil {
			continue
		}
		if p.Registers > 1 {
			spares++
		}
		if len(p.Final) > 0 {
			finals++
		}
	}
	t.Logf("%d of 2000 programs use spare registers, %d restore outputs at the end", spares, finals)
	require.Greater(t, spares, 100)
}
