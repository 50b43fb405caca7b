package topologies

import "github.com/prefixgen/prefixgen/network"

// LadnerFischer returns the Ladner–Fischer network P_k(n) of width n, the
// recursive construction of Ladner and Fischer (1980), 0 ≤ k ≤ 63:
//
//   - P_k(1) has no cell.
//   - P_0(n) builds the lower ⌈n/2⌉ positions with P_1 and the upper ⌊n/2⌋
//     with P_0, then combines the lower half's last prefix with each prefix
//     of the upper half: ⌊n/2⌋ cells.
//   - P_k(n), k ≥ 1, combines neighbours 2i and 2i+1 (⌊n/2⌋ cells; a last
//     odd input stands alone), applies P_{k−1} to these ⌈n/2⌉ elements, which
//     completes the odd positions (and a lone last one), and completes every
//     even position 2i ≥ 2 with one cell from the prefix ending at 2i−1.
//
// Depth is at most ⌈log2 n⌉ + k, and exactly ⌈log2 n⌉ for k = 0; size is
// at most 2(1 + 2^−k)·n. The paper's finer bound
// 2(1 + 2^−k)·n − F(5 + ⌈log2 n⌉ − k) + 1 (F the Fibonacci numbers) holds at
// powers of two, exactly for k = 0; at other widths it holds with ⌊log2 n⌋ in
// place of ⌈log2 n⌉, but not as written (at n = 3 it allows 0 cells). P_0(64)
// has 168 cells, where Sklansky, of the same depth 6, has 192. Every
// k ≥ ⌈log2 n⌉ − 1 gives the same network.
func LadnerFischer(n, k int) (*network.Network, error) {
	return lookupBuiltin("ladner-fischer").Build(n, network.Params{"k": k})
}

// buildLadnerFischer builds P_k(n).
func buildLadnerFischer(n int, p network.Params) (*network.Network, error) {
	b := newBuilder(n, ladnerFischerCells(n, p))
	g := lfGen{b: b, stack: make([]int32, 0, n+64)}
	cur := inputs(n)
	g.prefix(cur, p["k"])
	return finish(b, "ladner-fischer", p)
}

// lfGen runs the recursion of P_k(n) over the current signals of a range of
// elements, so that it works on any sub-range at any width.
type lfGen struct {
	b *network.Builder
	// stack holds the paired elements of the P_k levels in progress. Its
	// capacity, n + 64, covers the ⌈n/2⌉ + ⌈n/4⌉ + … of the deepest nest; if
	// it ever grew, the slices taken before would stay correct, since each
	// level only reads back its own elements.
	stack []int32
}

// prefix replaces e[j], a signal covering element j (the elements of e cover
// adjacent ranges in order), by a signal covering elements 0 … j, using
// P_k(len(e)).
func (g *lfGen) prefix(e []int32, k int) {
	n := len(e)
	if n < 2 {
		return
	}
	if k == 0 {
		h := (n + 1) / 2
		g.prefix(e[:h], 1)
		g.prefix(e[h:], 0)
		for j := h; j < n; j++ {
			e[j] = add(g.b, e[h-1], e[j])
		}
		return
	}
	m, h := n/2, (n+1)/2
	base := len(g.stack)
	for i := range m {
		g.stack = append(g.stack, add(g.b, e[2*i], e[2*i+1]))
	}
	if n%2 == 1 {
		g.stack = append(g.stack, e[n-1])
	}
	z := g.stack[base : base+h : base+h]
	g.prefix(z, k-1)
	for i := 1; i < m; i++ {
		e[2*i] = add(g.b, z[i-1], e[2*i])
	}
	for i := range m {
		e[2*i+1] = z[i]
	}
	if n%2 == 1 {
		e[n-1] = z[m]
	}
	g.stack = g.stack[:base]
}

// ladnerFischerCells is the exact size of P_k(n), from the recursion
// S_0(n) = S_1(⌈n/2⌉) + S_0(⌊n/2⌋) + ⌊n/2⌋ and
// S_k(n) = ⌊n/2⌋ + S_{k−1}(⌈n/2⌉) + max(⌊n/2⌋ − 1, 0), memoized: the
// recursion meets only O(log² n) distinct (n, k).
func ladnerFischerCells(n int, p network.Params) int64 {
	memo := map[[2]int64]int64{}
	var size func(n int64, k int) int64
	size = func(n int64, k int) int64 {
		if n < 2 {
			return 0
		}
		k = min(k, ceilLog2(n)) // larger k give the same network
		key := [2]int64{n, int64(k)}
		if s, ok := memo[key]; ok {
			return s
		}
		m, h := n/2, (n+1)/2
		var s int64
		if k == 0 {
			s = size(h, 1) + size(m, 0) + m
		} else {
			s = m + size(h, k-1) + max(m-1, 0)
		}
		memo[key] = s
		return s
	}
	return size(int64(n), p["k"])
}
