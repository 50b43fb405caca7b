package optimize

import "github.com/prefixgen/prefixgen/network"

// Local blocks: cut the elements into blocks of g, solve each block as a
// prefix problem of its own whose total is ready by level u and whose other
// prefixes are ready one level before the problem's bound, solve the
// problem of the block totals, and complete each block in one level by
// joining the prefix entering it to each of the block's own prefixes. A
// block of g ≤ 2^u elements costs its own problem and g − 1 joins, where a
// tree completed in one level holds only u + 1 leaves; with fewer blocks the
// totals' problem is smaller. Behind a carry at the least depth it pays:
// the 32 elements behind the prefix of the first 32 of 128 inputs at depth
// 7 (carry at level 5, last prefix by 6) go from 79 cells to 76, and the
// recursion finds 366 cells for 128 inputs at depth 7 instead of 369 (364,
// Sergeev's proven optimum, with the larger last blocks of late.go).

// wayLocal marks the local-blocks way: g << 8 | u in the low bits.
const wayLocal = wayJoin + 1

// solveLocal returns the least cost of the local-blocks way for the problem
// (n, a, d, t), and its way, or infinite.
func (s *solver) solveLocal(n, a, d, t int, best int32) (int32, uint32) {
	way := uint32(wayNone)
	count := n
	if a > 0 {
		count = n - 1
	}
	for u := 1; u <= min(d-1, 11); u++ {
		for g := 2; g <= min(1<<u, count); g++ {
			blk := s.solve(g, 0, d-1, u)
			if blk >= infinite {
				continue
			}
			m := (count + g - 1) / g
			r := count - (m-1)*g
			if m < 2 && a == 0 {
				break // one block is the problem itself
			}
			var c int32
			if a > 0 {
				top := s.solve(m+1, max(a-u, 0), d-1-u, t-u)
				if top >= infinite {
					continue
				}
				short := s.solve(r, 0, d-1, u)
				if short >= infinite {
					continue
				}
				c = top + int32(m-1)*(blk+int32(g-1)) + short + int32(r-1)
			} else {
				top := s.solve(m, 0, d-1-u, t-u)
				if top >= infinite {
					continue
				}
				// The short block first: its prefixes are the outputs.
				short := s.solve(r, 0, d, u)
				if short >= infinite {
					continue
				}
				c = top + int32(m-1)*(blk+int32(g-1)) + short
			}
			if c < best {
				best, way = c, wayLocal<<28|uint32(g)<<8|uint32(u)
			}
		}
	}
	return best, way
}

// localSizes returns the block sizes of the local-blocks way over count
// elements: the short block first, then blocks of g.
func localSizes(count, g int) []int {
	m := (count + g - 1) / g
	sizes := make([]int, m)
	for k := range sizes {
		sizes[k] = g
	}
	sizes[0] = count - (m-1)*g
	return sizes
}

// constructLocal builds the local-blocks way of the problem (len(e), a, d,
// t) into out.
func (s *solver) constructLocal(bld *network.Builder, e, out []int, a, d, t, g, u int) {
	elems, first := e, 0
	if a > 0 {
		elems, first = e[1:], 1
	}
	sizes := localSizes(len(elems), g)
	blocks := make([]*tree, len(sizes))
	totals := make([]int, len(sizes))
	at := 0
	for k, size := range sizes {
		bd := d - 1
		if k == 0 && a == 0 {
			bd = d
		}
		local := s.construct(bld, elems[at:at+size], 0, bd, u)
		blocks[k] = &tree{total: local[size-1], first: first + at, last: first + at + size - 1, local: local}
		totals[k] = local[size-1]
		at += size
	}
	if a > 0 {
		totals = append([]int{e[0]}, totals...)
	}
	carries := s.construct(bld, totals, max(a-u, 0), d-1-u, t-u)
	complete(bld, blocks, carries, out, a > 0)
}
