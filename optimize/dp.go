package optimize

import "github.com/prefixgen/prefixgen/network"

// The recursion of the constructive search. A problem (n, a, D, t) asks for
// every prefix E_i = e_0 ⊕ … ⊕ e_i of n elements whose first, e_0, is ready
// at level a and the others at level 0, with E_i at level D at most for
// i < n−1 and the last, E_(n−1), at level t at most. Its cost is the least
// number of cells found, by four ways to solve it:
//
//   - split at m: solve the first m elements, then the rest with E_(m−1) as
//     their first element (a series composition, as Ladner–Fischer and
//     Zhu–Cheng–Graham chain their parts);
//   - late carry: solve e_1 … e_(n−1) alone, one level earlier, and join
//     e_0 to each of their prefixes (Sklansky's and Ladner–Fischer's upper
//     half);
//   - blocks (first element at level 0 only): cut the elements into blocks,
//     reduce each block by a tree of depth u, solve the problem of the block
//     totals, and complete each block from the prefix entering it within b
//     levels (Brent–Kung's and Ladner–Fischer's pairing is u = b = 1);
//   - carry tree: one block tree over e_1 … e_(n−1), completed from e_0
//     (Zhu, Cheng and Graham's blocks);
//   - local blocks: blocks that are prefix problems of their own, each
//     completed in one level from the prefix entering it (see solveLocal).
const (
	wayNone = iota
	waySplit
	wayLate
	wayBlocks
	wayTree
)

// infinite marks a problem without a solution.
const infinite = int32(1 << 30)

// solver memoizes the recursion for widths up to maxN and levels up to
// maxD; t ranges up to maxT.
type solver struct {
	maxN, maxD, maxT int
	// lateMax, when positive, is the largest number of cells that may read
	// one carry in a late-carry step: a crude guard of the fan-out.
	lateMax int
	cost    []int32
	way     []uint32
	// qcost and qway memoize the tree problems; see qsolve.
	qcost []int32
	qway  []uint32
	// lcost[l.id()] and lway[l.id()] memoize the problems whose last
	// elements are late by the tail l (see solveLate), lqcost and lqway
	// the tree problems.
	lcost, lqcost [tails][]int32
	lway, lqway   [tails][]uint32
	// lastBlock, when not 0, says that the blocks way of the problem ends
	// with larger blocks (see packLastBlocks).
	lastBlock []uint64
	// lastBlocksOn enables the larger last blocks: searchSolver turns them
	// on at the least depth and one level above, where they pay (128 inputs
	// at depth 7: 366 → 364 cells, at depth 8: 275 → 272; 256 at depth 8:
	// 778 → 773); deeper they found nothing smaller and cost time.
	lastBlocksOn bool
	// localOn enables the local-blocks way (see solveLocal).
	localOn bool
}

// newSolver returns a solver for widths up to maxN and depths up to maxD.
func newSolver(maxN, maxD, lateMax int) *solver {
	s := &solver{maxN: maxN, maxD: maxD, maxT: 2*maxD + 1, lateMax: lateMax, localOn: true}
	size := (maxN + 1) * (maxD + 1) * (maxD + 1) * (s.maxT + 1)
	s.cost, s.way = unsolved(size), make([]uint32, size)
	s.qcost, s.qway = unsolved(size), make([]uint32, size)
	s.lastBlock = make([]uint64, size)
	return s
}

// unsolved returns a memo table of size problems, none of them solved.
func unsolved(size int) []int32 {
	c := make([]int32, size)
	for i := range c {
		c[i] = -1
	}
	return c
}

// enableLastBlocks turns the larger last blocks of the blocks ways on.
func (s *solver) enableLastBlocks() {
	s.lastBlocksOn = true
}

func (s *solver) index(n, a, d, t int) int {
	return ((n*(s.maxD+1)+a)*(s.maxD+1)+d)*(s.maxT+1) + t
}

// treeWidth is W(u, b): the most leaves of a block tree whose total is ready
// by level u and whose inner prefixes take at most b levels after the prefix
// entering it: W(u, b) = W(u−1, b) + W(u−1, b−1), W(0, b) = W(u, 0) = 1.
func treeWidth(u, b int) int {
	if u <= 0 || b <= 0 {
		return 1
	}
	w, c := 0, 1
	for i := 0; i <= min(u, b); i++ {
		w += c
		if w > 1<<20 {
			return 1 << 20
		}
		c = c * (u - i) / (i + 1)
	}
	return w
}

// solve returns the cost of the problem (n, a, d, t), solving it if needed.
func (s *solver) solve(n, a, d, t int) int32 {
	t = min(t, s.maxT)
	if d < 0 || t < 0 || a > t || n > 1 && a > d {
		return infinite
	}
	if n == 1 {
		return 0
	}
	d = min(d, s.maxD)
	i := s.index(n, a, d, t)
	if c := s.cost[i]; c >= 0 {
		return c
	}
	best, way, last := infinite, uint32(wayNone), uint64(0)
	// Carry tree: the last prefix joins e_0 to the total of the rest.
	if a+1 <= t {
		if c := s.qsolve(n, a, d, t-1); c < infinite {
			best, way = c+1, wayTree<<28
		}
	}
	if c, w := s.lateCarry(n, a, d, t, tail{}, best); w != wayNone {
		best, way = c, w
	}
	// Blocks behind a carry: the carry joins the block totals' problem.
	if a > 0 {
		for u := 1; u <= d; u++ {
			for b := 1; u+b <= d; b++ {
				top := min(treeWidth(u, b), n-1)
				low := max(treeWidth(u-1, b), treeWidth(u, b-1)) + 1
				for g := max(low, 2); g <= top; g++ {
					m := (n - 1 + g - 1) / g
					r := n - 1 - (m-1)*g
					c := s.solve(m+1, max(a-u, 0), d-b-u, t-u)
					if c >= infinite {
						continue
					}
					c += int32(blockCost(r, u, b, true) + (m-1)*blockCost(g, u, b, true))
					if c < best {
						best, way, last = c, wayBlocks<<28|uint32(g)<<16|uint32(u)<<8|uint32(b), 0
					}
					// Larger last blocks.
					if c, lbs, ok := s.lateBlocks(n-1, max(a-u, 0), d-b-u, t-u, g, u, b, s.largerBlocks(n-1, g, u, b, d), true, best); ok {
						best, way, last = c, wayBlocks<<28|uint32(g)<<16|uint32(u)<<8|uint32(b), packLastBlocks(lbs)
					}
				}
			}
		}
	}
	// Blocks.
	if a == 0 {
		for u := 1; u <= d; u++ {
			for b := 1; u+b <= d; b++ {
				// Blocks of g leaves; a smaller u or b builds blocks up to
				// low − 1 leaves in fewer levels.
				top := min(treeWidth(u, b), n)
				low := max(treeWidth(u-1, b), treeWidth(u, b-1)) + 1
				for g := max(low, 2); g <= top; g++ {
					m := (n + g - 1) / g
					r := n - (m-1)*g
					c := s.solve(m, 0, d-b-u, t-u)
					if c >= infinite {
						continue
					}
					// The short block first, or last behind a full first
					// block, which saves more cells without a carry.
					first := c + int32(blockCost(r, u, b, false)+(m-1)*blockCost(g, u, b, true))
					if first < best {
						best, way, last = first, wayBlocks<<28|uint32(g)<<16|uint32(u)<<8|uint32(b), 0
					}
					if m >= 2 {
						lc := c + int32(blockCost(g, u, b, false)+(m-2)*blockCost(g, u, b, true)+blockCost(r, u, b, true))
						if lc < best {
							best, way, last = lc, wayBlocks<<28|1<<27|uint32(g)<<16|uint32(u)<<8|uint32(b), 0
						}
					}
					// Larger last blocks.
					if c, lbs, ok := s.lateBlocks(n, 0, d-b-u, t-u, g, u, b, s.largerBlocks(n, g, u, b, d), false, best); ok {
						best, way, last = c, wayBlocks<<28|uint32(g)<<16|uint32(u)<<8|uint32(b), packLastBlocks(lbs)
					}
				}
			}
		}
	}
	if s.localOn {
		if c, w := s.solveLocal(n, a, d, t, best); w != wayNone {
			best, way, last = c, w, 0
		}
	}
	if c, w := s.split(n, a, d, t, tail{}, best); w != wayNone {
		best, way, last = c, w, 0
	}
	s.cost[i], s.way[i], s.lastBlock[i] = best, way, last
	return best
}

// blockCost returns the cells of one block of g leaves built as a tree of
// depth u completed within b levels: g − 1 for the tree, and one cell for each
// leaf but the last to complete it from the carry; a block without a carry
// saves the cells its left spine would join the carry to.
func blockCost(g, u, b int, carry bool) int {
	if g == 1 {
		return 0
	}
	if carry {
		return 2*g - 2
	}
	nl := min(treeWidth(u-1, b), g-1)
	// Without a carry the left subtree's total is the prefix itself.
	return (g - 1) + blockCost(nl, u-1, b, false) + (g - nl - 1)
}

// construct builds the solution of the problem (len(e), a, d, t) into bld,
// where e holds the elements' signals, and returns the prefix signals.
func (s *solver) construct(bld *network.Builder, e []int, a, d, t int) []int {
	return s.constructLate(bld, e, a, d, t, tail{})
}

// constructBlocks builds the blocks way of the problem (len(e), a, d, t) into
// out: blocks of g leaves, trees of depth u completed within b levels, the
// short block last when shortLast, and the larger last blocks lb. Behind a
// carry (a > 0) the blocks are over e[1:] and e[0] is the first element of
// their totals' problem.
func (s *solver) constructBlocks(bld *network.Builder, e, out []int, a, d, t, g, u, b int, shortLast bool, lbs [2]lastBlock) {
	elems, first := e, 0
	if a > 0 {
		elems, first = e[1:], 1
	}
	sizes := blockSizes(len(elems), g, lbs, shortLast)
	trees, totals := s.buildBlocks(bld, elems, first, sizes, u, b, d, lbs)
	if a > 0 {
		totals = append([]int{e[0]}, totals...)
	}
	var l tail
	for _, lb := range lbs {
		l = l.with(lb.u-u, lb.count)
	}
	carries := s.constructLate(bld, totals, max(a-u, 0), d-b-u, t-u, l)
	complete(bld, trees, carries, out, a > 0)
}

// complete writes each block's prefix from carries, the prefixes of the
// block totals' problem (its first the carry when carry is set), and
// completes the block from the prefix entering it.
func complete(bld *network.Builder, blocks []*tree, carries, out []int, carry bool) {
	if !carry {
		carries = append([]int{-1}, carries...)
	}
	for k, b := range blocks {
		out[b.last] = carries[k+1]
		b.down(bld, carries[k], out)
	}
}

// qsolve returns the cost of the tree problem (n, a, d, u), n ≥ 2: the
// prefixes E_0 … E_(n−2) of n elements, e_0 ready at level a, by level d,
// and the total e_1 ⊕ … ⊕ e_(n−1) of the others by level u; E_(n−1) is not
// asked for. It is solved by cutting e_1 … e_(n−1) into a lower part A and
// an upper part B: A's tree problem, one cell for E at A's end (e_0's prefix
// joined to A's total), B's tree problem behind it, and one cell joining the
// totals of A and B (Zhu, Cheng and Graham's block trees); or by the
// prefixes of e_1 … e_(n−1), one level earlier, each joined to e_0.
func (s *solver) qsolve(n, a, d, u int) int32 {
	return s.qsolveLate(n, a, d, u, tail{})
}

// tree is a block tree over the leaves first … last (positions in the
// problem's elements): a leaf, or two subtrees.
type tree struct {
	total       int
	first, last int
	left, right *tree
	// local, when not nil, holds the prefixes of a block built as a
	// problem of its own: each but the last is joined to the carry.
	local []int
}

// upTree builds the tree of the leaves e, the first of which is element
// first, with its total ready by level u and its inner prefixes completed
// within b levels of the carry, and adds its cells.
func upTree(bld *network.Builder, e []int, first, u, b int) *tree {
	if len(e) == 1 {
		return &tree{total: e[0], first: first, last: first}
	}
	nl := min(treeWidth(u-1, b), len(e)-1)
	l := upTree(bld, e[:nl], first, u-1, b)
	r := upTree(bld, e[nl:], first+nl, u-1, b-1)
	return &tree{total: bld.Add(l.total, r.total), first: first, last: first + len(e) - 1, left: l, right: r}
}

// down completes every leaf of t but the last from carry, the prefix of
// everything before t's first leaf (−1: nothing is before it), writing the
// prefixes into out.
func (t *tree) down(bld *network.Builder, carry int, out []int) {
	if t.local != nil {
		for i, l := range t.local[:len(t.local)-1] {
			if carry >= 0 {
				l = bld.Add(carry, l)
			}
			out[t.first+i] = l
		}
		return
	}
	if t.left == nil {
		return
	}
	mid := t.left.total
	if carry >= 0 {
		mid = bld.Add(carry, t.left.total)
	}
	out[t.left.last] = mid
	t.left.down(bld, carry, out)
	t.right.down(bld, mid, out)
}

// constructive returns the network the recursion finds for width n and
// depth d, or nil if it finds none.
func constructive(n, d, lateMax int) *network.Network {
	return searchSolver(n, d, lateMax).network(n, d)
}

// searchSolver returns the solver the search uses for width n and depth d:
// with the larger last blocks at the least depth and one level above.
func searchSolver(n, d, lateMax int) *solver {
	s := newSolver(n, d, lateMax)
	if d <= ceilLog2(n)+1 {
		s.enableLastBlocks()
	}
	return s
}

// network returns the network of the solver's solution for width n and
// depth d, or nil if it finds none.
func (s *solver) network(n, d int) *network.Network {
	if s.solve(n, 0, d, d) >= infinite {
		return nil
	}
	bld, err := network.NewBuilder(n)
	if err != nil {
		return nil
	}
	e := make([]int, n)
	for i := range e {
		e[i] = i
	}
	out := s.construct(bld, e, 0, d, d)
	net, err := bld.Build()
	if err != nil || net.Depth() > d {
		panic("optimize: the constructive search built a wrong network")
	}
	_ = out
	return net
}
