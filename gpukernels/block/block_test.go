package block_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels/block"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// widths are the widths issue 5 asks the block emulator to check.
var widths = []int{64, 100, 256, 1024}

// every builds every registered topology with its default parameters, and
// Ladner–Fischer at k = 1 and 2, at width n.
func every(t testing.TB, n int) []*network.Network {
	t.Helper()
	var nets []*network.Network
	for _, topo := range topologies.All() {
		if topo.EstimateCells(n, nil) > 1<<16 {
			continue
		}
		net, err := topo.Build(n, nil)
		require.NoError(t, err)
		nets = append(nets, net)
	}
	for _, k := range []int{1, 2} {
		net, err := topologies.LadnerFischer(n, k)
		require.NoError(t, err)
		nets = append(nets, net)
	}
	return nets
}

func lower(t testing.TB, net *network.Network, opt block.Options) *block.Program {
	t.Helper()
	p, err := block.Lower(net, opt)
	require.NoError(t, err)
	return p
}

// The emulated block computes the prefixes over two non-commutative monoids,
// with one round per level and one cell per network cell, for every topology,
// with and without padding and with fewer threads than cells.
func TestRunEqualsScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mat := simulate.Matrix2{Mod: 1_000_003}
	for _, n := range widths {
		intervals := make([]simulate.Range, n)
		mats := make([]simulate.Mat2, n)
		for i := range n {
			intervals[i] = simulate.Range{From: i, To: i}
			mats[i] = simulate.Mat2{{rng.Uint64N(mat.Mod), rng.Uint64N(mat.Mod)}, {rng.Uint64N(mat.Mod), rng.Uint64N(mat.Mod)}}
		}
		wantI := simulate.Scan(simulate.Interval{}, intervals)
		wantM := simulate.Scan(mat, mats)
		for _, net := range every(t, n) {
			for _, opt := range []block.Options{{}, {NoPad: true}, {Threads: 32}} {
				t.Run(fmt.Sprintf("%s/%d/%+v", net.Topology(), n, opt), func(t *testing.T) {
					p := lower(t, net, opt)
					assert.Len(t, p.Rounds, net.Depth(), "one round per level")
					assert.Equal(t, net.Size(), p.Cells())
					assert.Equal(t, net.Depth()+1, p.Barriers())
					gotI, err := block.Run(p, simulate.Interval{}, intervals)
					require.NoError(t, err)
					assert.Equal(t, wantI, gotI)
					gotM, err := block.Run(p, mat, mats)
					require.NoError(t, err)
					assert.Equal(t, wantM, gotM)
				})
			}
		}
	}
}

// Networks whose levels never read what they replace run in place, one slot
// per column; Kogge–Stone, whose every level reads the values it replaces,
// gets a second copy of each column: the double buffer.
func TestSlots(t *testing.T) {
	for _, n := range []int{64, 100, 1024, 2048} {
		for _, name := range []string{"brent-kung", "sklansky", "ripple"} {
			net, err := topologies.Build(name, n, nil)
			require.NoError(t, err)
			assert.Equal(t, n, lower(t, net, block.Options{}).Slots, "%s %d in place", name, n)
		}
		ks, err := topologies.KoggeStone(n)
		require.NoError(t, err)
		p := lower(t, ks, block.Options{})
		assert.Greater(t, p.Slots, n)
		assert.LessOrEqual(t, p.Slots, 2*n)
	}
}

func TestThreads(t *testing.T) {
	net, err := topologies.BrentKung(1024)
	require.NoError(t, err)
	assert.Equal(t, 512, lower(t, net, block.Options{}).Threads, "one thread per two columns")
	net, err = topologies.BrentKung(100)
	require.NoError(t, err)
	assert.Equal(t, 64, lower(t, net, block.Options{}).Threads, "rounded up to whole warps")
	net, err = topologies.Sklansky(2048)
	require.NoError(t, err)
	assert.Equal(t, 1024, lower(t, net, block.Options{}).Threads)
}

// Padding spreads Brent–Kung's power-of-two strides over the banks.
func TestPaddingRemovesConflicts(t *testing.T) {
	for _, n := range []int{256, 1024, 2048} {
		net, err := topologies.BrentKung(n)
		require.NoError(t, err)
		padded := lower(t, net, block.Options{}).Conflicts()
		plain := lower(t, net, block.Options{NoPad: true}).Conflicts()
		assert.Less(t, 3*padded, plain, "n=%d: padded %d, plain %d", n, padded, plain)
		t.Logf("brent-kung %d: %d extra transactions padded, %d plain", n, padded, plain)
	}
}

// A program that writes every cell in place where Kogge–Stone needs a double
// buffer has a race, and Run refuses it.
func TestRaceDetected(t *testing.T) {
	ks, err := topologies.KoggeStone(64)
	require.NoError(t, err)
	p := lower(t, ks, block.Options{})
	for r := range p.Rounds {
		for i := range p.Rounds[r] {
			p.Rounds[r][i].Out = p.Rounds[r][i].Hi % p.Width
		}
	}
	_, err = block.Run(p, simulate.Interval{}, make([]simulate.Range, 64))
	assert.ErrorContains(t, err, "block: race in round 1: cell")
	q := lower(t, ks, block.Options{})
	q.Rounds[0][1].Out = q.Rounds[0][0].Out
	assert.EqualError(t, q.Check(), fmt.Sprintf("block: race in round 1: cells 0 and 1 both write slot %d", q.Rounds[0][0].Out))
}

func TestLowerErrors(t *testing.T) {
	net, err := topologies.Sklansky(4096)
	require.NoError(t, err)
	_, err = block.Lower(net, block.Options{})
	assert.EqualError(t, err, "block: width 4096 out of range: a shared-memory block scan takes 2 to 2048 (narrower networks fit a warp)")
	net, err = topologies.Sklansky(64)
	require.NoError(t, err)
	_, err = block.Lower(net, block.Options{Threads: 2000})
	assert.EqualError(t, err, "block: 2000 threads out of range: allowed 1 to 1024")
}
