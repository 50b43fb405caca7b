package optimize

import "github.com/prefixgen/prefixgen/network"

// A block behind the others may be larger than they are: its tree takes
// more levels, so its total reaches the problem of the block totals later
// than theirs. With k such blocks at the end, that problem is one whose last
// k elements are ready at a level z > 0: (n, a, d, t, z, k) asks for the
// prefixes of (n, a, d, t) when e_(n−k) … e_(n−1) are ready at level z. It
// is solved by these ways:
//
//   - join: the last prefix is E_(n−2) ⊕ e_(n−1), E_(n−2) that of the
//     problem with k − 1 late elements;
//   - late carry and split as for k = 0, the late elements passed on to the
//     part that holds them, and for k = 1 the carry tree.
//
// A larger last block saves a block total and its prefix, and leaves the
// prefix entering the last block to complete it while its own total goes
// on to the last prefix: an annealed 32-input network at depth 6 showed the
// way (blocks of 2, 2, 2, 2, 2, 2 and 4 behind one late carry). One such
// block takes 128 inputs at depth 8 from 275 cells to 273; two save a cell
// or two at 60 of the widths from 33 to 256 one level above the least depth
// (100 inputs at depth 8: 196 → 195; 192 at depth 9: 394 → 392), none at
// 128 inputs.

// maxLate bounds z: a last block at most maxLate levels deeper than the
// others.
const maxLate = 2

// maxLastBlocks bounds k: at most maxLastBlocks larger blocks at the end.
const maxLastBlocks = 2

// wayJoin: the last prefix joins E_(n−2) to the late last element.
const wayJoin = wayPart + 1

// zindex returns the index of the problem (n, a, d, t, z), 1 ≤ z ≤ maxLate,
// in the solver's late tables.
func (s *solver) zindex(n, a, d, t, z int) int {
	return (z-1)*len(s.cost) + s.index(n, a, d, t)
}

// solveLate returns the cost of the problem (n, a, d, t) whose last k
// elements are ready at level z, solving it if needed; k = 0 or z = 0 is
// the problem of solve.
func (s *solver) solveLate(n, a, d, t, z, k int) int32 {
	if z <= 0 || k == 0 {
		return s.solve(n, a, d, t)
	}
	t = min(t, s.maxT)
	if n == k {
		// e_0 is late too.
		return s.solveLate(n, max(a, z), d, t, z, k-1)
	}
	if d < 0 || t < 0 || a > t || a > d || z+1 > t {
		return infinite
	}
	d = min(d, s.maxD)
	i := s.zindex(n, a, d, t, z)
	if c := s.lcost[k-1][i]; c >= 0 {
		return c
	}
	best, way := infinite, uint32(wayNone)
	if c := s.solveLate(n-1, a, d, min(d, t-1), z, k-1); c < infinite {
		best, way = c+1, wayJoin<<28
	}
	if k == 1 && a+1 <= t {
		if c := s.qsolveLate(n, a, d, t-1, z); c < infinite && c+1 < best {
			best, way = c+1, wayTree<<28
		}
	}
	if c, w := s.lateCarry(n, a, d, t, z, k, best); w != wayNone {
		best, way = c, w
	}
	if c, w := s.split(n, a, d, t, z, k, best); w != wayNone {
		best, way = c, w
	}
	s.lcost[k-1][i], s.lway[k-1][i] = best, way
	return best
}

// lateCarry returns the cost of the late-carry way of the problem (n, a, d,
// t) whose last k elements are ready at level z, and its way, when it costs
// less than best.
func (s *solver) lateCarry(n, a, d, t, z, k int, best int32) (int32, uint32) {
	if a+1 > min(d, t) || s.lateMax > 0 && n-1 > s.lateMax {
		return best, wayNone
	}
	if c := s.solveLate(n-1, 0, d-1, t-1, z, k); c < infinite && c+int32(n-1) < best {
		return c + int32(n-1), wayLate << 28
	}
	return best, wayNone
}

// split returns the cost of the best split of the problem (n, a, d, t)
// whose last k elements are ready at level z, and its way, when it costs
// less than best: the first m elements, their last prefix by level tl,
// then the rest behind it, which holds the late elements.
func (s *solver) split(n, a, d, t, z, k int, best int32) (int32, uint32) {
	way := uint32(wayNone)
	for m := 2; m <= n-max(k, 1); m++ {
		for tl := a; tl <= min(d, t-1); tl++ {
			l := s.solve(m, a, d, tl)
			if l >= best {
				continue
			}
			if r := s.solveLate(n-m+1, tl, d, t, z, k); l+r < best {
				best, way = l+r, waySplit<<28|uint32(m)<<8|uint32(tl)
			}
		}
	}
	return best, way
}

// qsolveLate is qsolve for the tree problem (n, a, d, u) whose last element
// is ready at level z; z = 0 is the problem of qsolve.
func (s *solver) qsolveLate(n, a, d, u, z int) int32 {
	u = min(u, s.maxT)
	if d < 0 || u < 0 || a > d || z > u {
		return infinite
	}
	if n == 2 {
		return 0
	}
	d = min(d, s.maxD)
	cost, ways, i := s.qcost, s.qway, s.index(n, a, d, u)
	if z > 0 {
		cost, ways, i = s.zqcost, s.zqway, s.zindex(n, a, d, u, z)
	}
	if c := cost[i]; c >= 0 {
		return c
	}
	best, way := infinite, uint32(wayNone)
	if a+1 <= d {
		if c := s.solveLate(n-1, 0, d-1, u, z, 1); c < infinite {
			best, way = c+int32(n-2), wayLate<<28
		}
	}
	for ua := 0; ua < u; ua++ {
		// A's total by level ua, so E at A's end by level mid.
		mid := max(a, ua) + 1
		if mid > d {
			break
		}
		for p := 1; p <= n-2; p++ {
			l := s.qsolve(p+1, a, d, ua)
			if l+2 >= best {
				continue
			}
			r := s.qsolveLate(n-p, mid, d, u-1, z)
			if l+r+2 < best {
				best, way = l+r+2, waySplit<<28|uint32(p)<<8|uint32(ua)
			}
		}
	}
	cost[i], ways[i] = best, way
	return best
}

// constructLate builds the solution of the problem (len(e), a, d, t) whose
// last k elements are ready at level z into bld, where e holds the
// elements' signals, and returns the prefix signals.
func (s *solver) constructLate(bld *network.Builder, e []int, a, d, t, z, k int) []int {
	if z <= 0 || k == 0 {
		z, k = 0, 0
	}
	n := len(e)
	t = min(t, s.maxT)
	if k > 0 && n == k {
		return s.constructLate(bld, e, max(a, z), d, t, z, k-1)
	}
	out := make([]int, n)
	out[0] = e[0]
	if n == 1 {
		return out
	}
	d = min(d, s.maxD)
	s.solveLate(n, a, d, t, z, k)
	w := s.way[s.index(n, a, d, t)]
	if k > 0 {
		w = s.lway[k-1][s.zindex(n, a, d, t, z)]
	}
	switch w >> 28 {
	case wayJoin:
		left := s.constructLate(bld, e[:n-1], a, d, min(d, t-1), z, k-1)
		copy(out, left)
		out[n-1] = bld.Add(left[n-2], e[n-1])
	case waySplit:
		m, tl := int(w>>8&0xfff), int(w&0xff)
		left := s.construct(bld, e[:m], a, d, tl)
		copy(out, left)
		rest := append([]int{left[m-1]}, e[m:]...)
		right := s.constructLate(bld, rest, tl, d, t, z, k)
		copy(out[m:], right[1:])
	case wayLate:
		local := s.constructLate(bld, e[1:], 0, d-1, t-1, z, k)
		for i, l := range local {
			out[i+1] = bld.Add(e[0], l)
		}
	case wayTree:
		total := s.qconstruct(bld, e, out, a, d, t-1, z)
		out[n-1] = bld.Add(e[0], total)
	case wayBlocks:
		g, u, b := int(w>>16&0x7ff), int(w>>8&0xff), int(w&0xff)
		lb := decodeLastBlock(s.lastBlock[s.index(n, a, d, t)])
		s.constructBlocks(bld, e, out, a, d, t, g, u, b, w>>27&1 == 1, lb)
	case wayLocal:
		s.constructLocal(bld, e, out, a, d, t, int(w>>8&0xfffff), int(w&0xff))
	case wayPart:
		s.constructPart(bld, e, out, s.parts[s.index(n, a, d, t)])
	default:
		panic("optimize: construct called on a problem without a solution")
	}
	return out
}

// qconstruct builds the solution of the tree problem (len(e), a, d, u)
// whose last element is ready at level z, writing E_0 … E_(n−2) into out,
// and returns the total's signal.
func (s *solver) qconstruct(bld *network.Builder, e, out []int, a, d, u, z int) int {
	n := len(e)
	out[0] = e[0]
	if n == 2 {
		return e[1]
	}
	u = min(u, s.maxT)
	d = min(d, s.maxD)
	s.qsolveLate(n, a, d, u, z)
	w := s.qway[s.index(n, a, d, u)]
	if z > 0 {
		w = s.zqway[s.zindex(n, a, d, u, z)]
	}
	switch w >> 28 {
	case wayLate:
		local := s.constructLate(bld, e[1:], 0, d-1, u, z, 1)
		for i, l := range local[:n-2] {
			out[i+1] = bld.Add(e[0], l)
		}
		return local[n-2]
	case waySplit:
		p, ua := int(w>>8&0xfff), int(w&0xff)
		lt := s.qconstruct(bld, e[:p+1], out[:p+1], a, d, ua, 0)
		out[p] = bld.Add(e[0], lt)
		rest := append([]int{out[p]}, e[p+1:]...)
		ro := make([]int, len(rest))
		rt := s.qconstruct(bld, rest, ro, max(a, ua)+1, d, u-1, z)
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

// code packs the block for solver.lastBlock.
func (lb lastBlock) code() uint32 {
	c := uint32(lb.g)<<8 | uint32(lb.u)
	if lb.local {
		c |= 1 << 7
	}
	c |= uint32(lb.count) << 24
	return c
}

// decodeLastBlock unpacks a solver.lastBlock entry; g is 0 for none.
func decodeLastBlock(c uint32) lastBlock {
	return lastBlock{g: int(c >> 8 & 0xffff), u: int(c & 0x7f), local: c>>7&1 == 1, count: int(c >> 24 & 0xf)}
}

// lastBlocks returns the larger last blocks worth trying behind blocks of g
// leaves, trees of depth u completed within b levels, over count elements
// and at depth d: for each depth of its tree up to maxLate levels more, the
// largest, and the largest that leaves the first block full.
func (s *solver) lastBlocks(count, g, u, b, d int) []lastBlock {
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
// b, that ends with k = 1 … maxLastBlocks blocks lb, and that k, when it
// costs less than best; k is 0 otherwise. The block totals' problem is
// solved with its first element at level a, within d and its last prefix
// by t; carry says that a carry comes before the blocks and is that
// problem's first element.
func (s *solver) lateBlocks(count, a, d, t, g, u, b int, lb lastBlock, carry bool, best int32) (int32, int) {
	found := 0
	for k := 1; k <= maxLastBlocks; k++ {
		rest := count - k*lb.g
		if rest < 1 {
			break
		}
		m := (rest + g - 1) / g
		r := rest - (m-1)*g
		elems := m + k
		if carry {
			elems++
		}
		c := s.solveLate(elems, a, d, t, lb.u-u, k)
		if c >= infinite {
			continue
		}
		c += int32(blockCost(r, u, b, carry)+(m-1)*blockCost(g, u, b, true)) + int32(k)*lb.cost
		if c < best {
			best, found = c, k
		}
	}
	return best, found
}

// blockSizes returns the sizes of the blocks of the blocks way over count
// elements: the short block first (or last, when shortLast), blocks of g,
// and the larger last blocks lb, if any.
func blockSizes(count, g int, lb lastBlock, shortLast bool) []int {
	rest := count - lb.count*lb.g
	m := (rest + g - 1) / g
	r := rest - (m-1)*g
	sizes := make([]int, 0, m+lb.count)
	for k := range m {
		switch {
		case k == 0 && !shortLast, k == m-1 && shortLast:
			sizes = append(sizes, r)
		default:
			sizes = append(sizes, g)
		}
	}
	for range lb.count {
		sizes = append(sizes, lb.g)
	}
	return sizes
}

// buildBlocks builds the blocks of sizes over the elements e, from position
// first on, as trees of depth u completed within b levels, the last
// lb.count as lb; it returns the blocks and their totals.
func (s *solver) buildBlocks(bld *network.Builder, e []int, first int, sizes []int, u, b, d int, lb lastBlock) ([]*tree, []int) {
	trees := make([]*tree, len(sizes))
	totals := make([]int, len(sizes))
	at := 0
	for k, size := range sizes {
		switch {
		case lb.g > 0 && k >= len(sizes)-lb.count && lb.local:
			local := s.construct(bld, e[at:at+size], 0, d-1, lb.u)
			trees[k] = &tree{total: local[size-1], first: first + at, last: first + at + size - 1, local: local}
		case lb.g > 0 && k >= len(sizes)-lb.count:
			trees[k] = upTree(bld, e[at:at+size], first+at, lb.u, b)
		default:
			trees[k] = upTree(bld, e[at:at+size], first+at, u, b)
		}
		totals[k] = trees[k].total
		at += size
	}
	return trees, totals
}
