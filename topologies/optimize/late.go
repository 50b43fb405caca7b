package optimize

import "github.com/prefixgen/prefixgen/network"

// A block behind the others may be larger than they are: its tree takes
// more levels, so its total reaches the problem of the block totals later
// than theirs. That problem is then one whose last element is ready at a
// level z > 0: (n, a, d, t, z) asks for the prefixes of (n, a, d, t) when
// e_(n−1) is ready at level z. Only the last prefix depends on it, and it
// is solved by these ways:
//
//   - join: the last prefix is E_(n−2) ⊕ e_(n−1);
//   - late carry, split and carry tree as for z = 0, the late element
//     passed on to the part that holds it.
//
// A larger last block saves a block total and its prefix, and leaves the
// prefix entering the last block to complete it while its own total goes
// on to the last prefix: an annealed 32-input network at depth 6 showed the
// way (blocks of 2, 2, 2, 2, 2, 2 and 4 behind one late carry).
//
// The last two blocks may both be such blocks; their totals problem then
// has its last two elements late (solveZ2). It saves a cell or two at 60
// of the widths from 33 to 256 one level above the least depth (100 inputs
// at depth 8: 196 → 195; 192 at depth 9: 394 → 392), none at 128 inputs.

// maxLate bounds z: a last block at most maxLate levels deeper than the
// others.
const maxLate = 2

// wayJoin: the last prefix joins E_(n−2) to the late last element.
const wayJoin = wayPart + 1

// zindex returns the index of the problem (n, a, d, t, z), 1 ≤ z ≤ maxLate,
// in the solver's late tables.
func (s *solver) zindex(n, a, d, t, z int) int {
	return (z-1)*len(s.cost) + s.index(n, a, d, t)
}

// solveZ returns the cost of the problem (n, a, d, t, z), solving it if
// needed.
func (s *solver) solveZ(n, a, d, t, z int) int32 {
	if z <= 0 {
		return s.solve(n, a, d, t)
	}
	t = min(t, s.maxT)
	if n == 1 {
		return s.solve(1, max(a, z), d, t)
	}
	if d < 0 || t < 0 || a > t || a > d || z+1 > t {
		return infinite
	}
	d = min(d, s.maxD)
	i := s.zindex(n, a, d, t, z)
	if c := s.zcost[i]; c >= 0 {
		return c
	}
	best, way := infinite, uint32(wayNone)
	if c := s.solve(n-1, a, d, min(d, t-1)); c < infinite {
		best, way = c+1, wayJoin<<28
	}
	if a+1 <= t {
		if c := s.qsolveZ(n, a, d, t-1, z); c < infinite && c+1 < best {
			best, way = c+1, wayTree<<28
		}
	}
	if a+1 <= min(d, t) && (s.lateMax <= 0 || n-1 <= s.lateMax) {
		if c := s.solveZ(n-1, 0, d-1, t-1, z); c < infinite && c+int32(n-1) < best {
			best, way = c+int32(n-1), wayLate<<28
		}
	}
	for m := 2; m < n; m++ {
		for tl := a; tl <= min(d, t-1); tl++ {
			l := s.solve(m, a, d, tl)
			if l >= best {
				continue
			}
			r := s.solveZ(n-m+1, tl, d, t, z)
			if l+r < best {
				best, way = l+r, waySplit<<28|uint32(m)<<8|uint32(tl)
			}
		}
	}
	s.zcost[i], s.zway[i] = best, way
	return best
}

// qsolveZ is qsolve for the tree problem (n, a, d, u) whose last element is
// ready at level z > 0.
func (s *solver) qsolveZ(n, a, d, u, z int) int32 {
	if z <= 0 {
		return s.qsolve(n, a, d, u)
	}
	u = min(u, s.maxT)
	if d < 0 || u < 0 || a > d || z > u {
		return infinite
	}
	if n == 2 {
		return 0
	}
	d = min(d, s.maxD)
	i := s.zindex(n, a, d, u, z)
	if c := s.zqcost[i]; c >= 0 {
		return c
	}
	best, way := infinite, uint32(wayNone)
	if a+1 <= d {
		if c := s.solveZ(n-1, 0, d-1, u, z); c < infinite {
			best, way = c+int32(n-2), wayLate<<28
		}
	}
	for ua := 0; ua < u; ua++ {
		mid := max(a, ua) + 1
		if mid > d {
			break
		}
		for p := 1; p <= n-2; p++ {
			l := s.qsolve(p+1, a, d, ua)
			if l+2 >= best {
				continue
			}
			r := s.qsolveZ(n-p, mid, d, u-1, z)
			if l+r+2 < best {
				best, way = l+r+2, waySplit<<28|uint32(p)<<8|uint32(ua)
			}
		}
	}
	s.zqcost[i], s.zqway[i] = best, way
	return best
}

// constructZ is construct for the problem (len(e), a, d, t, z).
func (s *solver) constructZ(bld *network.Builder, e []int, a, d, t, z int) []int {
	n := len(e)
	if n == 1 {
		return []int{e[0]}
	}
	if z <= 0 {
		return s.construct(bld, e, a, d, t)
	}
	out := make([]int, n)
	out[0] = e[0]
	t = min(t, s.maxT)
	d = min(d, s.maxD)
	s.solveZ(n, a, d, t, z)
	w := s.zway[s.zindex(n, a, d, t, z)]
	switch w >> 28 {
	case wayJoin:
		left := s.construct(bld, e[:n-1], a, d, min(d, t-1))
		copy(out, left)
		out[n-1] = bld.Add(left[n-2], e[n-1])
	case waySplit:
		m, tl := int(w>>8&0xfff), int(w&0xff)
		left := s.construct(bld, e[:m], a, d, tl)
		copy(out, left)
		rest := append([]int{left[m-1]}, e[m:]...)
		right := s.constructZ(bld, rest, tl, d, t, z)
		copy(out[m:], right[1:])
	case wayLate:
		local := s.constructZ(bld, e[1:], 0, d-1, t-1, z)
		for i, l := range local {
			out[i+1] = bld.Add(e[0], l)
		}
	case wayTree:
		total := s.qconstructZ(bld, e, out, a, d, t-1, z)
		out[n-1] = bld.Add(e[0], total)
	default:
		panic("optimize: constructZ called on a problem without a solution")
	}
	return out
}

// qconstructZ is qconstruct for the tree problem (len(e), a, d, u, z).
func (s *solver) qconstructZ(bld *network.Builder, e, out []int, a, d, u, z int) int {
	n := len(e)
	if z <= 0 || n == 2 {
		if n == 2 {
			out[0] = e[0]
			return e[1]
		}
		return s.qconstruct(bld, e, out, a, d, u)
	}
	out[0] = e[0]
	u = min(u, s.maxT)
	d = min(d, s.maxD)
	s.qsolveZ(n, a, d, u, z)
	w := s.zqway[s.zindex(n, a, d, u, z)]
	switch w >> 28 {
	case wayLate:
		local := s.constructZ(bld, e[1:], 0, d-1, u, z)
		for i, l := range local[:n-2] {
			out[i+1] = bld.Add(e[0], l)
		}
		return local[n-2]
	case waySplit:
		p, ua := int(w>>8&0xfff), int(w&0xff)
		lt := s.qconstruct(bld, e[:p+1], out[:p+1], a, d, ua)
		out[p] = bld.Add(e[0], lt)
		rest := append([]int{out[p]}, e[p+1:]...)
		ro := make([]int, len(rest))
		rt := s.qconstructZ(bld, rest, ro, max(a, ua)+1, d, u-1, z)
		copy(out[p+1:n-1], ro[1:])
		return bld.Add(lt, rt)
	}
	panic("optimize: qconstructZ called on a problem without a solution")
}

// lastBlock is a larger last block of the blocks way: g leaves whose total
// is ready by level u, built as a tree completed within the others' b
// levels, or, when local, as a prefix problem of its own within one level
// of the prefix entering it, each of its prefixes then joined to that one.
type lastBlock struct {
	g, u  int
	local bool
	cost  int32
	// twice: the last two blocks are both such blocks.
	twice bool
}

// code packs the block for solver.lastBlock.
func (lb lastBlock) code() uint32 {
	c := uint32(lb.g)<<8 | uint32(lb.u)
	if lb.local {
		c |= 1 << 7
	}
	if lb.twice {
		c |= 1 << 30
	}
	return c
}

// decodeLastBlock unpacks a solver.lastBlock entry; g is 0 for none.
func decodeLastBlock(c uint32) lastBlock {
	return lastBlock{g: int(c >> 8 & 0xffff), u: int(c & 0x7f), local: c>>7&1 == 1, twice: c>>30&1 == 1}
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

// blockSizes returns the sizes of the blocks of the blocks way over count
// elements: the short block first (or last, when shortLast), blocks of g,
// and the larger last block g2 when g2 > 0.
func blockSizes(count, g, g2 int, shortLast bool) []int {
	rest := count - g2
	m := (rest + g - 1) / g
	r := rest - (m-1)*g
	sizes := make([]int, 0, m+1)
	for k := range m {
		switch {
		case k == 0 && !shortLast, k == m-1 && shortLast:
			sizes = append(sizes, r)
		default:
			sizes = append(sizes, g)
		}
	}
	if g2 > 0 {
		sizes = append(sizes, g2)
	}
	return sizes
}

// buildBlocks builds the blocks of sizes over the elements e, from position
// first on, as trees of depth u completed within b levels, the last as lb
// when lb.g > 0; it returns the blocks and their totals.
func (s *solver) buildBlocks(bld *network.Builder, e []int, first int, sizes []int, u, b, d int, lb lastBlock) ([]*tree, []int) {
	trees := make([]*tree, len(sizes))
	totals := make([]int, len(sizes))
	at := 0
	for k, size := range sizes {
		switch {
		case lb.g > 0 && (k == len(sizes)-1 || lb.twice && k == len(sizes)-2) && lb.local:
			local := s.construct(bld, e[at:at+size], 0, d-1, lb.u)
			trees[k] = &tree{total: local[size-1], first: first + at, last: first + at + size - 1, local: local}
		case lb.g > 0 && (k == len(sizes)-1 || lb.twice && k == len(sizes)-2):
			trees[k] = upTree(bld, e[at:at+size], first+at, lb.u, b)
		default:
			trees[k] = upTree(bld, e[at:at+size], first+at, u, b)
		}
		totals[k] = trees[k].total
		at += size
	}
	return trees, totals
}

// solveZ2 returns the cost of the problem (n, a, d, t) whose last two
// elements are ready at level z, the totals problem behind two larger last
// blocks, by the ways of solveZ: join (E_(n−2) is then a late problem's
// last prefix), late carry and split; n = 2 is the late problem of its two
// late elements.
func (s *solver) solveZ2(n, a, d, t, z int) int32 {
	if z <= 0 {
		return s.solve(n, a, d, t)
	}
	t = min(t, s.maxT)
	if n == 2 {
		return s.solveZ(2, max(a, z), d, t, z)
	}
	if d < 0 || t < 0 || a > t || a > d || z+1 > t {
		return infinite
	}
	d = min(d, s.maxD)
	i := s.zindex(n, a, d, t, z)
	if s.z2cost == nil {
		s.z2cost, s.z2way = map[int]int32{}, map[int]uint32{}
	}
	if c, ok := s.z2cost[i]; ok {
		return c
	}
	best, way := infinite, uint32(wayNone)
	if c := s.solveZ(n-1, a, d, min(d, t-1), z); c < infinite {
		best, way = c+1, wayJoin<<28
	}
	if a+1 <= min(d, t) && (s.lateMax <= 0 || n-1 <= s.lateMax) {
		if c := s.solveZ2(n-1, 0, d-1, t-1, z); c < infinite && c+int32(n-1) < best {
			best, way = c+int32(n-1), wayLate<<28
		}
	}
	for m := 2; m < n-1; m++ {
		for tl := a; tl <= min(d, t-1); tl++ {
			l := s.solve(m, a, d, tl)
			if l >= best {
				continue
			}
			r := s.solveZ2(n-m+1, tl, d, t, z)
			if l+r < best {
				best, way = l+r, waySplit<<28|uint32(m)<<8|uint32(tl)
			}
		}
	}
	s.z2cost[i], s.z2way[i] = best, way
	return best
}

// constructZ2 is construct for the problem of solveZ2.
func (s *solver) constructZ2(bld *network.Builder, e []int, a, d, t, z int) []int {
	n := len(e)
	if z <= 0 {
		return s.construct(bld, e, a, d, t)
	}
	t = min(t, s.maxT)
	if n == 2 {
		return s.constructZ(bld, e, max(a, z), d, t, z)
	}
	d = min(d, s.maxD)
	out := make([]int, n)
	out[0] = e[0]
	s.solveZ2(n, a, d, t, z)
	w := s.z2way[s.zindex(n, a, d, t, z)]
	switch w >> 28 {
	case wayJoin:
		left := s.constructZ(bld, e[:n-1], a, d, min(d, t-1), z)
		copy(out, left)
		out[n-1] = bld.Add(left[n-2], e[n-1])
	case waySplit:
		m, tl := int(w>>8&0xfff), int(w&0xff)
		left := s.construct(bld, e[:m], a, d, tl)
		copy(out, left)
		rest := append([]int{left[m-1]}, e[m:]...)
		right := s.constructZ2(bld, rest, tl, d, t, z)
		copy(out[m:], right[1:])
	case wayLate:
		local := s.constructZ2(bld, e[1:], 0, d-1, t-1, z)
		for i, l := range local {
			out[i+1] = bld.Add(e[0], l)
		}
	default:
		panic("optimize: constructZ2 called on a problem without a solution")
	}
	return out
}
