package topologies

import (
	"fmt"

	"github.com/prefixgen/prefixgen/network"
)

// harrisMax is the largest value of the taxonomy's parameters l and f: the
// levels of a network of network.MaxWidth = 2^30 columns, less one.
const harrisMax = 29

// harrisUseful is Topology.Useful of l and f: l + f + t = ⌈log2 n⌉ − 1 with
// t ≥ 0, so neither exceeds ⌈log2 n⌉ − 1 at width n.
func harrisUseful(n int) int { return ceilLog2(int64(n)) - 1 }

// Harris returns the network at the point (l, f, t) of Harris's taxonomy of
// width n (D. Harris, A Taxonomy of Parallel Prefix Networks, Asilomar 2003),
// where t = ⌈log2 n⌉ − 1 − l − f must not be negative. The three coordinates
// trade logic levels, fan-out and wiring tracks: the network has at most
// ⌈log2 n⌉ + l levels (as soon as possible some merge, as at n = 33, l = 1:
// 6 levels), lateral fan-out 2^f + 1 at l = 0 and n = 2^k, at most that at
// other widths (a signal drives at most
// 2^f + 1 gate inputs in Harris's count, its own column included; with
// l > 0 down-sweep readers Harris draws on several rows may share a level
// and count together) and at most 2^t wire tracks. Its corners are Brent–Kung (⌈log2 n⌉−1, 0, 0),
// Sklansky (0, ⌈log2 n⌉−1, 0) and Kogge–Stone (0, 0, ⌈log2 n⌉−1);
// Han–Carlson is (1, 0, ⌈log2 n⌉−2), Knowles [2,1,…,1] is (0, 1, ⌈log2 n⌉−2),
// and (1, ⌈log2 n⌉−2, 0) is the sparse Sklansky network that many tools
// ship as "Ladner–Fischer" (not the recursive P_k of Ladner and Fischer,
// which is LadnerFischer).
//
// The construction, at N = 2^⌈log2 n⌉: l levels of Brent–Kung's up-sweep
// leave the prefix of each block of 2^l columns in the block's last column;
// a Knowles network on those N/2^l columns, t Kogge–Stone levels and then
// f + 1 Sklansky levels, completes them; l levels of Brent–Kung's down-sweep
// complete the rest. At other widths the columns ≥ n are left out, with the
// cells that then reach no output. As elsewhere, depth counts levels as soon
// as possible, so Brent–Kung's corner has depth 2⌈log2 n⌉ − 2 at n = 2^k
// (less at some other widths: 8 at n = 33) where Harris draws
// 2⌈log2 n⌉ − 1 levels.
func Harris(n, l, f int) (*network.Network, error) {
	return lookupBuiltin("harris").Build(n, network.Params{"l": l, "f": f})
}

// buildHarris builds the taxonomy's network at (l, f, t).
func buildHarris(n int, p network.Params) (*network.Network, error) {
	levels := ceilLog2(int64(n))
	l, f := p["l"], p["f"]
	// At n ≤ 2 there is one level at most, and (0, 0, 0) is the only point.
	t := max(levels-1, 0) - l - f
	if t < 0 && levels == 0 {
		return nil, fmt.Errorf("topologies: harris at width %d: l=%d f=%d: allowed l = f = 0, the one point at width 1 (t = 0)", n, l, f)
	}
	if t < 0 {
		return nil, fmt.Errorf("topologies: harris at width %d: l=%d f=%d leave t = ⌈log2 n⌉−1−l−f = %d: allowed l + f ≤ %d", n, l, f, t, max(levels-1, 0))
	}
	w := 1 << levels
	s := newSketch(w)
	cur := inputs(w)
	for j := range l {
		d := 1 << j
		for i := 2*d - 1; i < w; i += 2 * d {
			cur[i] = s.add(cur[i-d], cur[i])
		}
	}
	block := 1 << l
	e := make([]int32, w/block)
	for k := range e {
		e[k] = cur[(k+1)*block-1]
	}
	knowlesLevels(e, levels-l, (1<<(f+1)-1)<<t, s.add)
	for k := range e {
		cur[(k+1)*block-1] = e[k]
	}
	for d := block / 2; d >= 1; d /= 2 {
		for i := 3*d - 1; i < w; i += 2 * d {
			cur[i] = s.add(cur[i-d], cur[i])
		}
	}
	return s.build(n, "harris", p)
}

// harrisCells is an upper bound of the taxonomy's size, from the
// construction at N = 2^L, L = ⌈log2 n⌉: for l = 0 a Knowles network,
// which has at most as many cells as Kogge–Stone, N·L − N + 1; for l ≥ 1
// fewer than N cells in each sweep and a Knowles network of L − l levels on
// N/2^l columns, each level fewer than N/2^l cells.
func harrisCells(n int, p network.Params) int64 {
	levels := ceilLog2(int64(n))
	w := int64(1) << levels
	if l := p["l"]; l > 0 && l < levels {
		return 2*(w-1) + (w>>l)*int64(levels-l)
	}
	return w*int64(levels) - w + 1
}

// sketch records the cells of a network as it is constructed at a width that
// may be larger than the one wanted, so that build can leave columns out.
// Signals are numbered as in package network.
type sketch struct {
	width    int
	lo, hi   []int32 // per cell: operands
	from, to []int32 // per cell: span
}

// newSketch returns an empty sketch of the given width.
func newSketch(width int) *sketch { return &sketch{width: width} }

// span returns the span of signal s.
func (s *sketch) span(sig int32) (from, to int32) {
	if int(sig) < s.width {
		return sig, sig
	}
	k := int(sig) - s.width
	return s.from[k], s.to[k]
}

// add records the cell op(lo, hi) and returns its signal; the operands must
// be adjacent, which build proves.
func (s *sketch) add(lo, hi int32) int32 {
	from, _ := s.span(lo)
	_, to := s.span(hi)
	s.lo, s.hi = append(s.lo, lo), append(s.hi, hi)
	s.from, s.to = append(s.from, from), append(s.to, to)
	return int32(s.width + len(s.lo) - 1)
}

// build keeps the columns below n, and of their cells those that reach an
// output (the last signal spanning [0, i] of each column i < n), and builds
// them as a network of width n. A cell depends only on columns at or below
// its own, so what is kept is complete.
func (s *sketch) build(n int, name string, p network.Params) (*network.Network, error) {
	cells := len(s.lo)
	live := make([]bool, s.width+cells)
	last := make([]int32, n)
	for i := range last {
		last[i] = int32(i)
	}
	for k := range cells {
		if s.from[k] == 0 && int(s.to[k]) < n {
			last[s.to[k]] = int32(s.width + k)
		}
	}
	for _, sig := range last {
		live[sig] = true
	}
	kept := 0
	for k := cells - 1; k >= 0; k-- {
		if live[s.width+k] {
			live[s.lo[k]], live[s.hi[k]] = true, true
			kept++
		}
	}
	b := newBuilder(n, int64(kept))
	renum := make([]int32, s.width+cells)
	for i := range n {
		renum[i] = int32(i)
	}
	for k := range cells {
		if live[s.width+k] {
			renum[s.width+k] = add(b, renum[s.lo[k]], renum[s.hi[k]])
		}
	}
	return finish(b, name, p)
}
