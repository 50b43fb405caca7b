package topologies

import (
	"fmt"

	"github.com/prefixgen/prefixgen/network"
)

// zcgSaturate caps the widths of the zero-deficiency recursion, far above any
// width a network can have.
const zcgSaturate = int64(1) << 62

// ZeroDeficiency returns a zero-deficiency network of width n and depth d:
// size 2n − 2 − d, the least Snir's bound allows at that depth, in the
// manner of H. Zhu, C.-K. Cheng and R. Graham, On the Construction of
// Zero-Deficiency Parallel Prefix Circuits with Minimum Depth, ACM TODAES
// 11(2), 2006. Such a network exists for n − 1 ≥ d ≥ ZeroDeficiencyDepth(n),
// that is for n ≤ F(d+3) − 1 with F the Fibonacci numbers (F1 = F2 = 1);
// d = 0 asks for ZeroDeficiencyDepth(n). Other depths are refused with the
// range allowed. The network records the depth it has as its parameter d,
// however it was asked for, so that its name, its module's and its
// header's say what it is.
//
// The construction: a chain P_j = P_(j−1) ⊕ T_j, j = 1 … d, starting from
// P_0 = input 0, extends the prefix by d blocks of inputs, one level each.
// Block j is a binary tree whose totals reach level j−1 at most, so that
// T_j is ready for the chain, and whose inner prefixes are completed from
// P_(j−1) down the tree, each left subtree's total joined to the prefix that
// enters it, by level d. Such a tree has at most W(j−1, d−j+1) leaves, with
// W(u, b) = W(u−1, b) + W(u−1, b−1) and W(0, b) = W(u, 0) = 1, and costs two
// cells a leaf less one, so the network has 2(n−1) − d cells. The sum of the
// W over the blocks is F(d+3) − 2, the bound Zhu, Cheng and Graham prove for
// every zero-deficiency circuit of depth d.
func ZeroDeficiency(n, d int) (*network.Network, error) {
	return lookupBuiltin("zero-deficiency").Build(n, network.Params{"d": d})
}

// ZeroDeficiencyDepth returns the smallest depth of a zero-deficiency network
// of width n ≥ 1: the least d with n ≤ F(d+3) − 1. Widths beyond 2^62, far
// above any network's, get the depth whose width first reaches 2^62.
func ZeroDeficiencyDepth(n int) int {
	d := 0
	for w := zcgWidth(d); w < int64(n) && w < zcgSaturate; w = zcgWidth(d) {
		d++
	}
	return d
}

// zcgTreeWidth is W(u, b): the most leaves of a block tree whose total is
// ready by level u and whose inner prefixes take at most b levels after the
// prefix entering it, saturated at zcgSaturate.
func zcgTreeWidth(u, b int) int64 {
	if u <= 0 || b <= 0 {
		return 1
	}
	// W(u, b) is the sum of the binomials C(u, i), i = 0 … b.
	var w, c int64 = 0, 1
	for i := 0; i <= min(u, b); i++ {
		w += c
		if w >= zcgSaturate || c > zcgSaturate/int64(u+1) {
			return zcgSaturate
		}
		c = c * int64(u-i) / int64(i+1)
	}
	return w
}

// zcgWidth returns the widest zero-deficiency network of depth d: 1 plus the
// largest blocks 1 … d, saturated at zcgSaturate.
func zcgWidth(d int) int64 {
	w := int64(1)
	for j := 1; j <= d; j++ {
		w += zcgTreeWidth(j-1, d-j+1)
		if w >= zcgSaturate {
			return zcgSaturate
		}
	}
	return w
}

// zcgDepth returns the depth p["d"] asks for at width n, or an error naming
// the depths allowed.
func zcgDepth(n int, p network.Params) (int, error) {
	lo := ZeroDeficiencyDepth(n)
	d := p["d"]
	if d == 0 {
		return lo, nil
	}
	if d < lo || d > n-1 {
		if n == 1 {
			return 0, fmt.Errorf("topologies: zero-deficiency at width 1 has no network of depth %d: allowed 0 only, a single input needs no cell", d)
		}
		if lo == n-1 {
			return 0, fmt.Errorf("topologies: zero-deficiency at width %d has no network of depth %d: allowed d = %d (or 0 for it)", n, d, lo)
		}
		return 0, fmt.Errorf("topologies: zero-deficiency at width %d has no network of depth %d: allowed %d…%d (or 0 for %d)", n, d, lo, n-1, lo)
	}
	return d, nil
}

// zcgTree is a block tree: a leaf (left == nil) or two subtrees.
type zcgTree struct {
	total       int32 // the signal of the tree's total
	left, right *zcgTree
}

// buildZeroDeficiency builds the zero-deficiency network.
func buildZeroDeficiency(n int, p network.Params) (*network.Network, error) {
	d, err := zcgDepth(n, p)
	if err != nil {
		return nil, err
	}
	b := newBuilder(n, int64(2*n-2-d))
	// Every block gets one leaf, then the later blocks, the widest, are
	// filled first.
	size := make([]int64, d+1)
	extra := int64(n - 1 - d)
	for j := d; j >= 1; j-- {
		size[j] = 1 + min(zcgTreeWidth(j-1, d-j+1)-1, extra)
		extra -= size[j] - 1
	}
	var up func(first int32, leaves int64, u, w int) *zcgTree
	up = func(first int32, leaves int64, u, w int) *zcgTree {
		if leaves == 1 {
			return &zcgTree{total: first}
		}
		nl := min(zcgTreeWidth(u-1, w), leaves-1)
		l := up(first, nl, u-1, w)
		r := up(first+int32(nl), leaves-nl, u-1, w-1)
		return &zcgTree{total: add(b, l.total, r.total), left: l, right: r}
	}
	var down func(t *zcgTree, in int32)
	down = func(t *zcgTree, in int32) {
		if t.left == nil {
			return
		}
		mid := add(b, in, t.left.total)
		down(t.left, in)
		down(t.right, mid)
	}
	prefix, next := int32(0), int32(1)
	for j := 1; j <= d; j++ {
		t := up(next, size[j], j-1, d-j+1)
		next += int32(size[j])
		in := prefix
		prefix = add(b, prefix, t.total)
		down(t, in)
	}
	return finish(b, "zero-deficiency", network.Params{"d": d})
}

// zeroDeficiencyCells is the exact size 2n − 2 − d, or the ripple chain's
// n − 1 for a depth that will be refused.
func zeroDeficiencyCells(n int, p network.Params) int64 {
	d, err := zcgDepth(n, p)
	if err != nil {
		return int64(n) - 1
	}
	return 2*int64(n) - 2 - int64(d)
}
