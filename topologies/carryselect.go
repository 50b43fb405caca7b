package topologies

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/prefixgen/prefixgen/network"
)

// carrySelect is the carry-select family: Lookup and Build know it, All
// leaves it out (see Others).
var carrySelect = Topology{
	Name:      "carry-select",
	Summary:   "segments of ripple chains, each above the first joining its spans to the carry into it; each segment g bits longer than the one below (g=0 the uniform adder, g=1 the square-root one); with --fa-cells a carry-select adder of full adders",
	Reference: "O. J. Bedrij, Carry-Select Adder, IRE Trans. Electronic Computers EC-11(3), 1962",
	Params: []Param{
		{Name: "l", Default: 0, Min: 0, Max: network.MaxWidth, Doc: "bits of the first segment, which ripples from bit 0 (n or more: one segment, a ripple chain); 0 for the length of least depth (then of fewest cells, then the longest)"},
		{Name: "g", Default: 1, Min: 0, Max: network.MaxWidth, Doc: "each segment is g bits longer than the one below it, the last one what is left: 0 for equal segments, 1 for the square-root carry-select adder"},
	},
	useful: map[string]func(int) int{"l": func(n int) int { return n }, "g": func(n int) int { return n }},
	build:  buildCarrySelect,
	cells:  func(n int, _ network.Params) int64 { return 2 * int64(n) },
}

// CarrySelectSegments returns the lengths, from bit 0 up, of the segments
// of the carry-select network of width n whose first segment has first ≥ 1
// bits and each other grow bits more than the one below it, the last one
// what is left (no longer than it would have been): CarrySelectSegments(64,
// 37, 0) is [37 27], CarrySelectSegments(16, 2, 1) is [2 3 4 5 2]. A first
// length of n or more is one segment, a ripple chain. It returns nil for a
// width outside 1 to network.MaxWidth, a first length below 1 or a
// negative growth, which give no segments.
func CarrySelectSegments(n, first, grow int) []int {
	if n < 1 || n > network.MaxWidth || first < 1 || grow < 0 {
		return nil
	}
	var segs []int
	total := 0
	for l := first; total+l < n; l += grow {
		segs = append(segs, l)
		total += l
	}
	return append(segs, n-total)
}

// CarrySelect builds the carry network of a carry-select adder whose
// segments, from bit 0 up, have the given lengths, which sum to n: the
// first segment is a ripple chain from bit 0; every other one, from its
// lowest bit s to its top bit e, is a ripple chain of its own, [i:s] = i o
// [i-1:s], and then each of its carries joins the carry into the segment,
// [i:0] = [i:s] o [s-1:0], so that the carry into a segment ripples from
// segment to segment through one cell each. With full-adder cells
// (adder.Architecture.FACells) each chain is a chain of full adders, two
// for the segments above the first, and the carry into a segment selects
// its sums.
//
// The network is named carry-select: with the family's parameters l and
// g where the family builds these segments (CarrySelectSegments), and
// otherwise with the lengths as parameters l0, l1, …, a form CheckClaim
// knows too.
func CarrySelect(n int, segments ...int) (*network.Network, error) {
	if n < 1 || n > network.MaxWidth {
		return nil, fmt.Errorf("topologies: carry-select width %d out of range: allowed 1…%d", n, network.MaxWidth)
	}
	total := 0
	for _, l := range segments {
		if l < 1 {
			return nil, fmt.Errorf("topologies: carry-select segment of %d bits: allowed lengths of at least 1 that sum to the width %d", l, n)
		}
		total += l
	}
	if total != n {
		return nil, fmt.Errorf("topologies: carry-select segments %v sum to %d: allowed lengths of at least 1 that sum to the width %d", segments, total, n)
	}
	if g, ok := carrySelectGrowth(n, segments); ok {
		return carrySelectNetwork(n, segments, "carry-select", network.Params{"l": segments[0], "g": g})
	}
	params := network.Params{}
	for k, l := range segments {
		params["l"+strconv.Itoa(k)] = l
	}
	return carrySelectNetwork(n, segments, "carry-select", params)
}

// CarrySelectSegmentsOf returns the lengths of the segments of net, from
// bit 0 up, and true where net is the carry-select network of those
// segments: its cells and outputs are the ones CarrySelect builds for
// them, in the same order, whatever its name (a search's result, say).
// Every other network returns false. Segments of one bit above the first
// are the first's cells too: it gives the longest first segment.
func CarrySelectSegmentsOf(net *network.Network) ([]int, bool) {
	if net == nil {
		return nil, false
	}
	n := net.Width()
	// start(i) is the first bit of the span that the cell of output i
	// joins to the carry below it: i itself in the first segment and at
	// the foot of every other, that foot above it.
	start := func(i int) int {
		o := net.Output(i)
		if o < n {
			return -1
		}
		lo := net.Span(net.Cell(o - n).Lo)
		if lo.From != 0 {
			return -1
		}
		return lo.To + 1
	}
	e := 1
	for e < n && start(e) == e {
		e++
	}
	segs := []int{e}
	if e < n { // bit e-1 is the foot of the second segment
		segs = []int{e - 1}
		for s := e - 1; s < n; {
			i := s + 1
			for i < n && start(i) == s {
				i++
			}
			segs = append(segs, i-s)
			s = i
		}
	}
	same, err := CarrySelect(n, segs...)
	if err != nil || !slices.Equal(same.Spec().Cells, net.Spec().Cells) || !slices.Equal(same.Outputs(), net.Outputs()) {
		return nil, false
	}
	return segs, true
}

// carrySelectClaimed returns the segments of a network that claims to be
// carry-select with lengths l0, l1, … (CarrySelect), and whether it makes
// that claim; an error where the lengths are not numbered from l0 on.
func carrySelectClaimed(name string, p network.Params) ([]int, bool, error) {
	if _, ok := p["l0"]; name != carrySelect.Name || !ok {
		return nil, false, nil
	}
	var segs []int
	for k := 0; ; k++ {
		l, ok := p["l"+strconv.Itoa(k)]
		if !ok {
			break
		}
		segs = append(segs, l)
	}
	if len(segs) != len(p) {
		return nil, true, fmt.Errorf("topologies: carry-select takes l and g, or the segments' lengths l0, l1, … numbered from l0 without a gap")
	}
	return segs, true, nil
}

// carrySelectGrowth returns the growth g with which the family builds
// segments, the least where several do, and whether there is one.
func carrySelectGrowth(n int, segments []int) (int, bool) {
	g := 0
	switch {
	case len(segments) == 2:
		g = max(0, segments[1]-segments[0])
	case len(segments) > 2:
		g = segments[1] - segments[0]
	}
	if g < 0 || !slices.Equal(CarrySelectSegments(n, segments[0], g), segments) {
		return 0, false
	}
	return g, true
}

// buildCarrySelect builds the family's network for complete parameters,
// recording the first segment's length it has: a first length of n or
// more is one segment of n bits.
func buildCarrySelect(n int, p network.Params) (*network.Network, error) {
	l, g := min(p["l"], n), p["g"]
	if l == 0 {
		l = carrySelectFirst(n, g)
	}
	return carrySelectNetwork(n, CarrySelectSegments(n, l, g), "carry-select", network.Params{"l": l, "g": g})
}

// carrySelectFirst returns the first segment's length of least depth at
// width n and growth g, then of fewest cells, then the longest: with full
// adders the first segment's chain is the only single one. The depth
// of a carry-select network is the level of its last carry: the first
// segment's is its length less one, and each other segment's carry comes
// one level after both its chain and the carry into it; its size is 2n −
// l − K for K segments of which the first has l bits.
func carrySelectFirst(n, g int) int {
	best, bestDepth, bestSize := 1, n, 2*n
	for l := 1; l <= n; l++ {
		depth, k, total := l-1, 1, l
		for s := l + g; total < n; s += g {
			if total+s >= n {
				s = n - total
			}
			depth = max(depth, s-1) + 1
			total += s
			k++
			if depth > bestDepth {
				break
			}
		}
		if size := 2*n - l - k; depth < bestDepth || depth == bestDepth && size <= bestSize {
			best, bestDepth, bestSize = l, depth, size
		}
	}
	return best
}

// carrySelectNetwork builds the network of the segments, described as
// name with params.
func carrySelectNetwork(n int, segments []int, name string, params network.Params) (*network.Network, error) {
	b := newBuilder(n, 2*int64(n))
	carry := 0 // the signal holding [s-1:0], the carry into the next segment
	s := 0
	for _, l := range segments {
		e := s + l - 1
		if s == 0 {
			for i := 1; i <= e; i++ {
				carry = b.Add(carry, i)
			}
			s = e + 1
			continue
		}
		chain := make([]int, l)
		chain[0] = s
		for i := s + 1; i <= e; i++ {
			chain[i-s] = b.Add(chain[i-s-1], i)
		}
		into := carry
		for _, x := range chain {
			carry = b.Add(into, x)
		}
		s = e + 1
	}
	return finish(b, name, params)
}
