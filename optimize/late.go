package optimize

import "github.com/prefixgen/prefixgen/network"

// A block behind the others may be larger than they are: its tree takes
// more levels, so its total reaches the problem of the block totals later
// than theirs. The blocks may end with larger blocks of two kinds, k1 whose
// totals are one level late and then k2 two levels late, and the totals'
// problem is then one whose last elements are late by the tail (k1, k2):
// (n, a, d, t, tail) asks for the prefixes of (n, a, d, t) when those
// elements are ready that much later. It is solved by these ways:
//
//   - join: the last prefix is E_(n−2) ⊕ e_(n−1), E_(n−2) that of the
//     problem without the last late element;
//   - late carry, split and carry tree as for an empty tail; a split or a
//     carry tree gives each of its parts the late elements among its own,
//     so a part may hold some and the part after it the rest.
//
// A larger last block saves a block total and its prefix, and leaves the
// prefix entering the last block to complete it while its own total goes
// on to the last prefix: an annealed 32-input network at depth 6 showed the
// way (blocks of 2, 2, 2, 2, 2, 2 and 4 behind one late carry). One such
// block took 128 inputs at depth 8 from 275 cells to 273. A SAT solver
// (CaDiCaL, over every network of a small problem's spans and levels) then
// found six problems of 14 to 22 elements behind a late carry one cell
// below the recursion; their networks end with three blocks of one kind,
// or with blocks of two kinds, and keep late elements in the first part of
// a carry tree. With both kinds, up to three blocks of each and the tails
// split between parts, the recursion matches the solver on all six
// (TestOptimalBySAT runs it on them), builds
// 128 inputs at depth 8 in 272 cells and 64 at depth 7 in 125, and at the
// least depth builds Sergeev's optimum for 2^k inputs up to 256 (773 cells,
// where it built 778).

// maxLate bounds z: a last block at most maxLate levels deeper than the
// others.
const maxLate = 2

// maxLastBlocks bounds the number of larger blocks of one kind at the end.
const maxLastBlocks = 3

// wayJoin: the last prefix joins E_(n−2) to the late last element.
const wayJoin = wayTree + 1

// tail is the late elements at the end of a problem, in the order of how
// late they are: tail[z−1] of them z levels late, for z = 1 … maxLate.
type tail [maxLate]int

// count returns the number of late elements.
func (l tail) count() int {
	c := 0
	for _, k := range l {
		c += k
	}
	return c
}

// first returns how late the first late element is, or 0 for none.
func (l tail) first() int {
	for z, k := range l {
		if k > 0 {
			return z + 1
		}
	}
	return 0
}

// last returns how late the last element is, or 0 for none.
func (l tail) last() int {
	for z := len(l) - 1; z >= 0; z-- {
		if l[z] > 0 {
			return z + 1
		}
	}
	return 0
}

// withoutFirst returns the tail without its first element.
func (l tail) withoutFirst() tail {
	l[l.first()-1]--
	return l
}

// withoutLast returns the tail without its last element.
func (l tail) withoutLast() tail {
	l[l.last()-1]--
	return l
}

// take returns the tail's first j elements.
func (l tail) take(j int) tail {
	var t tail
	for z, k := range l {
		t[z] = min(j, k)
		j -= t[z]
	}
	return t
}

// drop returns the tail without its first j elements.
func (l tail) drop(j int) tail {
	t := l.take(j)
	for z := range l {
		l[z] -= t[z]
	}
	return l
}

// with returns the tail with k more elements z levels late, z ≥ 1; the
// blocks way adds its kinds of larger blocks in the order of their depth.
func (l tail) with(z, k int) tail {
	if z >= 1 {
		l[z-1] += k
	}
	return l
}

// id numbers the tails for the solver's tables.
func (l tail) id() int {
	id := 0
	for z := len(l) - 1; z >= 0; z-- {
		id = id*(maxTail+1) + l[z]
	}
	return id
}

// maxTail bounds the late elements of each kind: the blocks way ends with
// at most maxLastBlocks blocks of a kind, and its two kinds are late by
// different levels.
const maxTail = maxLastBlocks

// tails bounds the tails' ids for maxLate up to 3 (3 found nothing more at
// 64 to 256 inputs than 2, in three times the time).
const tails = (maxTail + 1) * (maxTail + 1) * (maxTail + 1)

// lateTable returns the memo tables of the problems with the tail l.
func (s *solver) lateTable(l tail) ([]int32, []uint32) {
	k := l.id()
	if s.lcost[k] == nil {
		s.lcost[k], s.lway[k] = unsolved(len(s.cost)), make([]uint32, len(s.cost))
	}
	return s.lcost[k], s.lway[k]
}

// treeTable returns the memo tables of the tree problems with the tail l.
func (s *solver) treeTable(l tail) ([]int32, []uint32) {
	if l.count() == 0 {
		return s.qcost, s.qway
	}
	k := l.id()
	if s.lqcost[k] == nil {
		s.lqcost[k], s.lqway[k] = unsolved(len(s.cost)), make([]uint32, len(s.cost))
	}
	return s.lqcost[k], s.lqway[k]
}

// solveLate returns the cost of the problem (n, a, d, t) whose last
// elements are late by l, solving it if needed; an empty tail is the problem
// of solve.
func (s *solver) solveLate(n, a, d, t int, l tail) int32 {
	if l == (tail{}) {
		return s.solve(n, a, d, t)
	}
	t = min(t, s.maxT)
	if n == l.count() {
		// e_0 is late too.
		return s.solveLate(n, max(a, l.first()), d, t, l.withoutFirst())
	}
	if d < 0 || t < 0 || a > t || a > d || l.last()+1 > t {
		return infinite
	}
	d = min(d, s.maxD)
	costs, ways := s.lateTable(l)
	i := s.index(n, a, d, t)
	if c := costs[i]; c >= 0 {
		return c
	}
	best, way := infinite, uint32(wayNone)
	if c := s.solveLate(n-1, a, d, min(d, t-1), l.withoutLast()); c < infinite {
		best, way = c+1, wayJoin<<28
	}
	if a+1 <= t {
		if c := s.qsolveLate(n, a, d, t-1, l); c < infinite && c+1 < best {
			best, way = c+1, wayTree<<28
		}
	}
	if c, w := s.lateCarry(n, a, d, t, l, best); w != wayNone {
		best, way = c, w
	}
	if c, w := s.split(n, a, d, t, l, best); w != wayNone {
		best, way = c, w
	}
	costs[i], ways[i] = best, way
	return best
}

// lateCarry returns the cost of the late-carry way of the problem (n, a, d,
// t) whose last elements are late by l, and its way, when it costs less
// than best.
func (s *solver) lateCarry(n, a, d, t int, l tail, best int32) (int32, uint32) {
	if a+1 > min(d, t) || s.lateMax > 0 && n-1 > s.lateMax {
		return best, wayNone
	}
	if c := s.solveLate(n-1, 0, d-1, t-1, l); c < infinite && c+int32(n-1) < best {
		return c + int32(n-1), wayLate << 28
	}
	return best, wayNone
}

// split returns the cost of the best split of the problem (n, a, d, t)
// whose last elements are late by l, and its way, when it costs less than
// best: the first m elements, their last prefix by level tl, then the rest
// behind it; each part holds the late elements among its own.
func (s *solver) split(n, a, d, t int, l tail, best int32) (int32, uint32) {
	way := uint32(wayNone)
	late := l.count()
	for m := 2; m < n; m++ {
		left, right := tail{}, l
		if j := late - (n - m); j > 0 {
			left, right = l.take(j), l.drop(j)
		}
		for tl := a; tl <= min(d, t-1); tl++ {
			c := s.solveLate(m, a, d, tl, left)
			if c >= best {
				continue
			}
			if r := s.solveLate(n-m+1, tl, d, t, right); c+r < best {
				best, way = c+r, waySplit<<28|uint32(m)<<8|uint32(tl)
			}
		}
	}
	return best, way
}

// qsolveLate is qsolve for the tree problem (n, a, d, u) whose last
// elements are late by l; an empty tail is the problem of qsolve.
func (s *solver) qsolveLate(n, a, d, u int, l tail) int32 {
	u = min(u, s.maxT)
	late := l != tail{}
	if d < 0 || u < 0 || a > d || late && (l.last() > u || l.count() > n-1) {
		return infinite
	}
	if n == 2 {
		return 0
	}
	d = min(d, s.maxD)
	costs, ways := s.qcost, s.qway
	if late {
		costs, ways = s.treeTable(l)
	}
	i := s.index(n, a, d, u)
	if c := costs[i]; c >= 0 {
		return c
	}
	best, way := infinite, uint32(wayNone)
	if a+1 <= d {
		if c := s.solveLate(n-1, 0, d-1, u, l); c < infinite {
			best, way = c+int32(n-2), wayLate<<28
		}
	}
	count := l.count()
	for ua := 0; ua < u; ua++ {
		// A's total by level ua, so E at A's end by level mid.
		mid := max(a, ua) + 1
		if mid > d {
			break
		}
		for p := 1; p <= n-2; p++ {
			left, right := tail{}, l
			if j := count - (n - 1 - p); j > 0 {
				left, right = l.take(j), l.drop(j)
			}
			c := s.qsolveLate(p+1, a, d, ua, left)
			if c+2 >= best {
				continue
			}
			r := s.qsolveLate(n-p, mid, d, u-1, right)
			if c+r+2 < best {
				best, way = c+r+2, waySplit<<28|uint32(p)<<8|uint32(ua)
			}
		}
	}
	costs[i], ways[i] = best, way
	return best
}

// constructLate builds the solution of the problem (len(e), a, d, t) whose
// last elements are late by l into bld, where e holds the elements'
// signals, and returns the prefix signals.
func (s *solver) constructLate(bld *network.Builder, e []int, a, d, t int, l tail) []int {
	n := len(e)
	t = min(t, s.maxT)
	if l.count() > 0 && n == l.count() {
		return s.constructLate(bld, e, max(a, l.first()), d, t, l.withoutFirst())
	}
	out := make([]int, n)
	out[0] = e[0]
	if n == 1 {
		return out
	}
	d = min(d, s.maxD)
	s.solveLate(n, a, d, t, l)
	w := s.way[s.index(n, a, d, t)]
	if l.count() > 0 {
		_, ways := s.lateTable(l)
		w = ways[s.index(n, a, d, t)]
	}
	switch w >> 28 {
	case wayJoin:
		left := s.constructLate(bld, e[:n-1], a, d, min(d, t-1), l.withoutLast())
		copy(out, left)
		out[n-1] = bld.Add(left[n-2], e[n-1])
	case waySplit:
		m, tl := int(w>>8&0xfff), int(w&0xff)
		j := max(0, l.count()-(n-m))
		left := s.constructLate(bld, e[:m], a, d, tl, l.take(j))
		copy(out, left)
		rest := append([]int{left[m-1]}, e[m:]...)
		right := s.constructLate(bld, rest, tl, d, t, l.drop(j))
		copy(out[m:], right[1:])
	case wayLate:
		local := s.constructLate(bld, e[1:], 0, d-1, t-1, l)
		for i, l := range local {
			out[i+1] = bld.Add(e[0], l)
		}
	case wayTree:
		total := s.qconstruct(bld, e, out, a, d, t-1, l)
		out[n-1] = bld.Add(e[0], total)
	case wayBlocks:
		g, u, b := int(w>>16&0x7ff), int(w>>8&0xff), int(w&0xff)
		lbs := decodeLastBlocks(s.lastBlock[s.index(n, a, d, t)])
		s.constructBlocks(bld, e, out, a, d, t, g, u, b, w>>27&1 == 1, lbs)
	case wayLocal:
		s.constructLocal(bld, e, out, a, d, t, int(w>>8&0xfffff), int(w&0xff))
	default:
		panic("optimize: construct called on a problem without a solution")
	}
	return out
}

// qconstruct builds the solution of the tree problem (len(e), a, d, u)
// whose last elements are late by l, writing E_0 … E_(n−2) into out, and
// returns the total's signal.
func (s *solver) qconstruct(bld *network.Builder, e, out []int, a, d, u int, l tail) int {
	n := len(e)
	out[0] = e[0]
	if n == 2 {
		return e[1]
	}
	u = min(u, s.maxT)
	d = min(d, s.maxD)
	s.qsolveLate(n, a, d, u, l)
	_, ways := s.treeTable(l)
	w := ways[s.index(n, a, d, u)]
	switch w >> 28 {
	case wayLate:
		local := s.constructLate(bld, e[1:], 0, d-1, u, l)
		for i, l := range local[:n-2] {
			out[i+1] = bld.Add(e[0], l)
		}
		return local[n-2]
	case waySplit:
		p, ua := int(w>>8&0xfff), int(w&0xff)
		j := max(0, l.count()-(n-1-p))
		lt := s.qconstruct(bld, e[:p+1], out[:p+1], a, d, ua, l.take(j))
		out[p] = bld.Add(e[0], lt)
		rest := append([]int{out[p]}, e[p+1:]...)
		ro := make([]int, len(rest))
		rt := s.qconstruct(bld, rest, ro, max(a, ua)+1, d, u-1, l.drop(j))
		copy(out[p+1:n-1], ro[1:])
		return bld.Add(lt, rt)
	}
	panic("optimize: qconstruct called on a problem without a solution")
}

// lastBlock is a larger last block of the blocks way: g leaves whose total
// is ready by level u, built as a tree completed within the others' b
// levels, or, when local, as a prefix problem of its own within one level
// of the prefix entering it, each of its prefixes then joined to that one.
type lastBlock struct {
	g, u  int
	local bool
	cost  int32
	// count is the number of such blocks at the end, 1 … maxLastBlocks.
	count int
}

// code packs the block into 32 bits.
func (lb lastBlock) code() uint64 {
	c := uint64(lb.g)<<8 | uint64(lb.u) | uint64(lb.count)<<24
	if lb.local {
		c |= 1 << 7
	}
	return c
}

// packLastBlocks packs the larger last blocks for solver.lastBlock.
func packLastBlocks(lbs [2]lastBlock) uint64 {
	return lbs[0].code() | lbs[1].code()<<32
}

// decodeLastBlocks unpacks a solver.lastBlock entry; a kind with count 0 is
// none.
func decodeLastBlocks(c uint64) [2]lastBlock {
	var lbs [2]lastBlock
	for k := range lbs {
		c := c >> (32 * k)
		lbs[k] = lastBlock{g: int(c >> 8 & 0xffff), u: int(c & 0x7f), local: c>>7&1 == 1, count: int(c >> 24 & 0xf)}
	}
	return lbs
}

// largerBlocks returns the larger last blocks worth trying behind blocks of g
// leaves, trees of depth u completed within b levels, over count elements
// and at depth d: for each depth of its tree up to maxLate levels more, the
// largest, and the largest that leaves the first block full, by depth.
func (s *solver) largerBlocks(count, g, u, b, d int) []lastBlock {
	if !s.lastBlocksOn {
		return nil
	}
	var out []lastBlock
	sizes := func(top int) []int {
		top = min(top, count-1)
		if top <= g {
			return nil
		}
		gs := []int{top}
		if full := top - (count-top)%g; full > g && full != top {
			gs = append(gs, full)
		}
		return gs
	}
	for u2 := u; u2 <= min(u+maxLate, d-b); u2++ {
		if u2 > u {
			for _, g2 := range sizes(treeWidth(u2, b)) {
				out = append(out, lastBlock{g: g2, u: u2, cost: int32(blockCost(g2, u2, b, true))})
			}
		}
		if u2 < 20 {
			for _, g2 := range sizes(1 << u2) {
				if c := s.solve(g2, 0, d-1, u2); c < infinite {
					out = append(out, lastBlock{g: g2, u: u2, local: true, cost: c + int32(g2-1)})
				}
			}
		}
	}
	return out
}

// lateBlocks returns the least cost of the blocks way over count elements,
// in blocks of g leaves whose trees take u levels and are completed within
// b, that ends with 1 … maxLastBlocks blocks of one of the kinds cands,
// then possibly 1 … maxLastBlocks of a later kind, and those blocks, when
// it costs less than best; ok is false otherwise. The block totals' problem
// is solved with its first element at level a, within d and its last
// prefix by t; carry says that a carry comes before the blocks and is that
// problem's first element.
func (s *solver) lateBlocks(count, a, d, t, g, u, b int, cands []lastBlock, carry bool, best int32) (int32, [2]lastBlock, bool) {
	var found [2]lastBlock
	ok := false
	try := func(lbs [2]lastBlock) {
		rest := count
		var l tail
		for _, lb := range lbs {
			rest -= lb.count * lb.g
			l = l.with(lb.u-u, lb.count)
		}
		if rest < 1 {
			return
		}
		m := (rest + g - 1) / g
		r := rest - (m-1)*g
		elems := m + lbs[0].count + lbs[1].count
		if carry {
			elems++
		}
		c := s.solveLate(elems, a, d, t, l)
		if c >= infinite {
			return
		}
		c += int32(blockCost(r, u, b, carry)+(m-1)*blockCost(g, u, b, true)) + int32(lbs[0].count)*lbs[0].cost + int32(lbs[1].count)*lbs[1].cost
		if c < best {
			best, found, ok = c, lbs, true
		}
	}
	for i, first := range cands {
		for k := 1; k <= maxLastBlocks; k++ {
			first.count = k
			try([2]lastBlock{first})
			for _, second := range cands[i+1:] {
				if second.u <= first.u {
					continue
				}
				for k2 := 1; k2 <= maxLastBlocks; k2++ {
					second.count = k2
					try([2]lastBlock{first, second})
				}
			}
		}
	}
	return best, found, ok
}

// blockSizes returns the sizes of the blocks of the blocks way over count
// elements: the short block first (or last, when shortLast), blocks of g,
// and the larger last blocks lbs.
func blockSizes(count, g int, lbs [2]lastBlock, shortLast bool) []int {
	rest := count - lbs[0].count*lbs[0].g - lbs[1].count*lbs[1].g
	m := (rest + g - 1) / g
	r := rest - (m-1)*g
	sizes := make([]int, 0, m+lbs[0].count+lbs[1].count)
	for k := range m {
		switch {
		case k == 0 && !shortLast, k == m-1 && shortLast:
			sizes = append(sizes, r)
		default:
			sizes = append(sizes, g)
		}
	}
	for _, lb := range lbs {
		for range lb.count {
			sizes = append(sizes, lb.g)
		}
	}
	return sizes
}

// buildBlocks builds the blocks of sizes over the elements e, from position
// first on, as trees of depth u completed within b levels, the last ones as
// the larger last blocks lbs; it returns the blocks and their totals.
func (s *solver) buildBlocks(bld *network.Builder, e []int, first int, sizes []int, u, b, d int, lbs [2]lastBlock) ([]*tree, []int) {
	trees := make([]*tree, len(sizes))
	totals := make([]int, len(sizes))
	at := 0
	for k, size := range sizes {
		kind := lastBlock{u: u}
		switch {
		case k >= len(sizes)-lbs[1].count:
			kind = lbs[1]
		case k >= len(sizes)-lbs[1].count-lbs[0].count:
			kind = lbs[0]
		}
		if kind.local {
			local := s.construct(bld, e[at:at+size], 0, d-1, kind.u)
			trees[k] = &tree{total: local[size-1], first: first + at, last: first + at + size - 1, local: local}
		} else {
			trees[k] = upTree(bld, e[at:at+size], first+at, kind.u, b)
		}
		totals[k] = trees[k].total
		at += size
	}
	return trees, totals
}
