package gpukernels_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/network"
)

// randomNetwork builds a valid network from bytes: the first byte picks the
// width, 1 to 32; each later pair of bytes picks any signal built so far
// and a signal whose span begins right after it, and joins them. Every
// signal can be picked, however old, so that cells read values their column
// has long replaced. A ripple chain completes the positions without a
// prefix, and the cells that reach no output are left out.
func randomNetwork(t testing.TB, data []byte) *network.Network {
	t.Helper()
	if len(data) == 0 {
		return nil
	}
	w := 1 + int(data[0])%gpukernels.Lanes
	data = data[1:]
	spans := make([]network.Span, w)
	for i := range spans {
		spans[i] = network.Span{From: i, To: i}
	}
	var cells []network.Cell
	add := func(lo, hi int) {
		cells = append(cells, network.Cell{Lo: lo, Hi: hi})
		spans = append(spans, network.Span{From: spans[lo].From, To: spans[hi].To})
	}
	const maxCells = 256
	for ; len(data) >= 2 && len(cells) < maxCells; data = data[2:] {
		lo := int(data[0]) % len(spans)
		var his []int
		for s, sp := range spans {
			if sp.From == spans[lo].To+1 {
				his = append(his, s)
			}
		}
		if len(his) > 0 {
			add(lo, his[int(data[1])%len(his)])
		}
	}
	outputs := make([]int, w)
	for i := range outputs {
		outputs[i] = -1
	}
	for s, sp := range spans {
		if sp.From == 0 {
			outputs[sp.To] = s // the latest one
		}
	}
	for i := 1; i < w; i++ {
		if outputs[i] < 0 {
			add(outputs[i-1], i)
			outputs[i] = len(spans) - 1
		}
	}
	// Keep the cells that reach an output, renumbered.
	live := make([]bool, len(spans))
	for _, s := range outputs {
		live[s] = true
	}
	for k := len(cells) - 1; k >= 0; k-- {
		if live[w+k] {
			live[cells[k].Lo] = true
			live[cells[k].Hi] = true
		}
	}
	renum := make([]int, len(spans))
	for i := range w {
		renum[i] = i
	}
	spec := network.Spec{Width: w, Outputs: make([]int, w)}
	for k, c := range cells {
		if live[w+k] {
			renum[w+k] = w + len(spec.Cells)
			spec.Cells = append(spec.Cells, network.Cell{Lo: renum[c.Lo], Hi: renum[c.Hi]})
		}
	}
	for i, s := range outputs {
		spec.Outputs[i] = renum[s]
	}
	net, err := network.New(spec)
	require.NoError(t, err)
	return net
}

// checkRandom lowers the network of data and checks the program.
func checkRandom(t *testing.T, data []byte, rng *rand.Rand) *gpukernels.Program {
	net := randomNetwork(t, data)
	if net == nil {
		return nil
	}
	p, err := gpukernels.Lower(net)
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
