package adder

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// countTracks is the definition: per boundary, the distinct signals whose
// wires cross it, the most of them.
func countTracks(ws []wire) int {
	crossing := map[int]map[int]bool{}
	for _, w := range ws {
		for b := w.from; b < w.to; b++ {
			if crossing[b] == nil {
				crossing[b] = map[int]bool{}
			}
			crossing[b][w.signal] = true
		}
	}
	most := 0
	for _, s := range crossing {
		most = max(most, len(s))
	}
	return most
}

// levelTracks counts what the definition counts, on random wires of a few
// signals, which overlap, touch, repeat and stay in one column.
func TestLevelTracks(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		ws := make([]wire, r.IntN(12))
		for i := range ws {
			from := r.IntN(16)
			ws[i] = wire{signal: r.IntN(4), from: from, to: from + r.IntN(6)}
		}
		assert.Equal(t, countTracks(ws), levelTracks(ws), "%v", ws)
	}
	assert.Zero(t, levelTracks(nil))
}

// BenchmarkLevelTracks counts the tracks of the first level of a
// Kogge–Stone adder's wires at 4 096 bits, 4 095 wires of one column each,
// and of its last, 2 048 wires of 2 048 columns: the map of every boundary
// each wire crosses held 4 million entries there.
func BenchmarkLevelTracks(b *testing.B) {
	first, last := koggeStoneWires()
	for b.Loop() {
		levelTracks(first)
		levelTracks(last)
	}
}

// BenchmarkCountTracks counts the same by the definition, as the adder's
// figures did until 2026-12-07, for the ratio.
func BenchmarkCountTracks(b *testing.B) {
	first, last := koggeStoneWires()
	for b.Loop() {
		countTracks(first)
		countTracks(last)
	}
}

// koggeStoneWires returns the Lo wires of the first and last levels of a
// 4 096-bit Kogge–Stone adder.
func koggeStoneWires() (first, last []wire) {
	const n = 4096
	for i := 1; i < n; i++ {
		first = append(first, wire{signal: i - 1, from: i - 1, to: i})
	}
	for i := n / 2; i < n; i++ {
		last = append(last, wire{signal: i - n/2, from: i - n/2, to: i})
	}
	return first, last
}
