package topologies

import (
	"math/bits"

	"github.com/prefixgen/prefixgen/network"
)

// knowlesMaxS is the largest value of Knowles's parameter s: one bit per
// level below the last of a network of network.MaxWidth = 2^30 columns.
const knowlesMaxS = 1<<29 - 1

// Knowles returns the Knowles network of width n with doubling mask s,
// 0 ≤ s < 2^29 (S. Knowles, A Family of Adders, ARITH-14, 1999, and
// ARITH-15, 2001). Knowles names a network of L = ⌈log2 n⌉ levels by its
// lateral fan-outs [f_L, …, f_1], the last level first: f_1 = 1, and each
// level's fan-out is the one below it or twice that. Kogge–Stone is
// [1, …, 1] and Sklansky [2^(L−1), …, 2, 1]. Bit j−1 of s is set when
// f_(j+1) = 2·f_j, so that the binary digits of s, written under the list,
// mark where it doubles: [4,2,1,1] is s = 0b110 = 6. Bits L−1 and above
// change nothing.
//
// Knowles's networks rely on the carry operator being idempotent: a cell may
// join overlapping groups. The networks here join adjacent spans only, so they
// are correct for every associative operator; they keep Knowles's depth,
// L, and his lateral fan-out at each level. At level j, every column whose
// prefix is not yet complete reads the latest signal of the column just
// below its span, except that a level where the fan-out doubles next
// (bit j−1 of s set, a Sklansky level) only changes columns whose bit j−1
// is set. A level of each kind keeps the spans adjacent, so the levels mix
// freely; with s = 0 this is Kogge–Stone and with s = 2^(L−1) − 1 Sklansky.
func Knowles(n, s int) (*network.Network, error) {
	return lookupBuiltin("knowles").Build(n, network.Params{"s": s})
}

// KnowlesFanouts returns Knowles's list [f_L, …, f_1] of the network of width
// n with doubling mask s: the largest number of cells at each level, last
// level first, that read one signal as their lower operand, in the network
// of width 2^⌈log2 n⌉ whose columns below n it is. At n = 2^k that is the
// network's own; at other widths an upper bound (at n = 12, s = 7 the list
// is [8 4 2 1] where the 12 columns have [4 4 2 1]).
func KnowlesFanouts(n, s int) []int {
	levels := ceilLog2(int64(max(n, 1)))
	f := make([]int, levels)
	for j := 1; j <= levels; j++ {
		f[levels-j] = 1 << bits.OnesCount(uint(s)&(1<<(j-1)-1))
	}
	return f
}

// buildKnowles builds the Knowles network of mask p["s"].
func buildKnowles(n int, p network.Params) (*network.Network, error) {
	b := newBuilder(n, knowlesCells(n, p))
	knowlesLevels(inputs(n), ceilLog2(int64(n)), uint64(p["s"]), func(lo, hi int32) int32 { return add(b, lo, hi) })
	return finish(b, "knowles", p)
}

// knowlesLevels runs Knowles levels j = 1 … levels over the elements e, whose
// signals cover adjacent ranges in order, so that afterwards e[i] covers
// elements 0 … i, for len(e) ≤ 2^levels. Level j is a Sklansky level when
// bit j−1 of sklansky is set and a Kogge–Stone level otherwise; join makes
// each cell. The spans are tracked in element units through from, the first
// element each e[i] covers. Within a level the elements run from the top
// down, so that each cell reads the value its neighbour had before the
// level.
func knowlesLevels(e []int32, levels int, sklansky uint64, join func(lo, hi int32) int32) {
	from := make([]int32, len(e))
	for i := range from {
		from[i] = int32(i)
	}
	for j := 1; j <= levels; j++ {
		skl := sklansky>>(j-1)&1 == 1
		for i := len(e) - 1; i >= 1; i-- {
			if from[i] == 0 || skl && i>>(j-1)&1 == 0 {
				continue
			}
			src := from[i] - 1
			e[i] = join(e[src], e[i])
			from[i] = from[src]
		}
	}
}

// knowlesCells returns the exact size of the Knowles network, counting the
// cells of knowlesLevels without building them, in O(n) time and memory.
// Above MaxCells it returns the bound n·⌈log2 n⌉ instead, at most n − 1
// cells at each level, without counting.
func knowlesCells(n int, p network.Params) int64 {
	if bound := int64(n) * int64(ceilLog2(int64(n))); bound > MaxCells {
		return bound
	}
	from := make([]int32, n)
	for i := range from {
		from[i] = int32(i)
	}
	s := uint64(p["s"])
	var c int64
	for j := 1; j <= ceilLog2(int64(n)); j++ {
		skl := s>>(j-1)&1 == 1
		for i := n - 1; i >= 1; i-- {
			if from[i] == 0 || skl && i>>(j-1)&1 == 0 {
				continue
			}
			from[i] = from[from[i]-1]
			c++
		}
	}
	return c
}
