package topologies

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// ValencyFamilies are the families with a higher-valency form: the
// families Valency builds.
var ValencyFamilies = []string{"kogge-stone", "sklansky"}

// MaxValency is the largest valency Valency builds.
const MaxValency = 4

// Valency returns the valency-k (radix-k) form of the family name at width
// n, built of binary cells: where the radix-2 network combines two spans in
// a cell, the radix-k one combines k adjacent spans in one valency-k cell,
// written as a chain of k − 1 binary cells whose intermediate results
// nothing else reads (package adder emits each chain as one gate, and
// counts it as one level). Both families take ⌈log_k n⌉ such levels.
//
//   - kogge-stone: at valency level l (d = k^l) every column i combines its
//     span with those of columns i − d, i − 2d, …, i − (k−1)d, as far as
//     they reach.
//   - sklansky: at level l the columns fall in blocks of k·d; a column in
//     sub-block j ≥ 1 of its block combines its span with the last column of
//     each of the sub-blocks j − 1, …, 0 below it.
//
// The network carries the family's name and the parameter v = k (for k > 2);
// k = 2 builds the ordinary family. Valency refuses other families and
// valencies, naming the allowed ones.
func Valency(name string, n, k int) (*network.Network, error) {
	if !slices.Contains(ValencyFamilies, name) {
		return nil, fmt.Errorf("topologies: %s has no higher-valency form: valency 3 and 4 exist for %s", name, strings.Join(ValencyFamilies, " and "))
	}
	if k < 2 || k > MaxValency {
		return nil, fmt.Errorf("topologies: valency %d out of range: allowed 2 to %d", k, MaxValency)
	}
	if k == 2 {
		return Build(name, n, nil)
	}
	if n < 1 || n > network.MaxWidth {
		return nil, fmt.Errorf("topologies: %s: width %d out of range: allowed 1…%d", name, n, network.MaxWidth)
	}
	// At most k − 1 cells a column a level, as Build refuses a
	// mistyped width before it allocates.
	upTo := func(n int) int64 {
		levels := int64(0)
		for d := int64(1); d < int64(n); d *= int64(k) {
			levels++
		}
		return int64(k-1) * int64(n) * levels
	}
	if c := upTo(n); c > MaxCells {
		return nil, fmt.Errorf("topologies: %s of valency %d at width %d needs up to %d cells, more than the %d allowed: allowed widths up to %d", name, k, n, about(c), MaxCells, widestWithin(upTo))
	}
	b, err := network.NewBuilder(n)
	if err != nil {
		return nil, fmt.Errorf("topologies: %w", err)
	}
	b.Describe(name, network.Params{"v": k})
	cur := make([]int, n) // cur[i]: the signal of column i so far
	for i := range cur {
		cur[i] = i
	}
	for d := 1; d < n; d *= k {
		next := slices.Clone(cur)
		for i := n - 1; i >= 0; i-- {
			x := cur[i]
			switch name {
			case "kogge-stone":
				for j := 1; j < k && b.Span(x).From > 0; j++ {
					x = b.Add(cur[i-j*d], x)
				}
			case "sklansky":
				block := i / (k * d) * (k * d)
				for j := (i - block) / d; j > 0; j-- {
					x = b.Add(cur[block+j*d-1], x)
				}
			}
			next[i] = x
		}
		cur = next
	}
	net, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("topologies: %w", err)
	}
	return net, nil
}

// ValencyOf returns the valency of a network Valency built: its parameter v
// when it names one of ValencyFamilies with v > 2 and no other parameter,
// else 2 (a network of binary cells).
func ValencyOf(net *network.Network) int {
	p := net.Params()
	if v, ok := p["v"]; ok && v > 2 && len(p) == 1 && slices.Contains(ValencyFamilies, net.Topology()) {
		return v
	}
	return 2
}
