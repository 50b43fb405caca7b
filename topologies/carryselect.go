package topologies

import (
	"fmt"
	"strconv"

	"github.com/prefixgen/prefixgen/network"
)

// CarrySelect builds the carry network of a carry-select adder whose
// segments, from bit 0 up, have the given lengths, which sum to n: the
// first segment is a ripple chain from bit 0; every other one, from its
// lowest bit s to its top bit e, is a ripple chain of its own, [i:s] = i o
// [i-1:s], and then each of its carries joins the carry into the segment,
// [i:0] = [i:s] o [s-1:0], so that the carry into a segment ripples from
// segment to segment through one cell each. With full-adder cells
// (adder.Architecture.FACells) each chain is a chain of full adders, two
// for the segments above the first, and the carry into a segment selects
// its sums. It is not one of the named families (All): a segment's chains
// are what full adders make small, and the named families are measured
// without them. The network is named carry-select, with the segments'
// lengths as parameters l0, l1, ….
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
	b, err := network.NewBuilder(n)
	if err != nil {
		return nil, err
	}
	b.Grow(2 * n)
	params := network.Params{}
	carry := 0 // the signal holding [s-1:0], the carry into the next segment
	s := 0
	for k, l := range segments {
		params["l"+strconv.Itoa(k)] = l
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
	b.Describe("carry-select", params)
	return b.Build()
}
