package topologies

import "github.com/prefixgen/prefixgen/network"

// Ripple returns the serial prefix chain of width n: cell i combines prefix
// [0, i−1] with input i. Size n−1, depth n−1.
func Ripple(n int) (*network.Network, error) {
	return lookupBuiltin("ripple").Build(n, nil)
}

// KoggeStone returns the Kogge–Stone network of width n (Kogge & Stone,
// 1973): at level j+1 every column i ≥ 2^j combines with column i−2^j. Depth
// ⌈log2 n⌉ for every n; for n = 2^k, size n·k − n + 1.
func KoggeStone(n int) (*network.Network, error) {
	return lookupBuiltin("kogge-stone").Build(n, nil)
}

// BrentKung returns the Brent–Kung network of width n (Brent & Kung, 1982):
// an up-sweep for d = 1, 2, 4, … combines, at every column i ≡ 2d−1 (mod 2d),
// the block ending at i−d; a down-sweep for d = …, 4, 2, 1 completes the
// columns i = 3d−1, 5d−1, … (step 2d). For n = 2^k, size 2n − 2 − k and depth
// 2k − 2 (as soon as possible).
func BrentKung(n int) (*network.Network, error) {
	return lookupBuiltin("brent-kung").Build(n, nil)
}

// Sklansky returns the Sklansky divide-and-conquer network of width n
// (Sklansky, 1960): at level j+1 every column whose bit j is set combines
// with the last column of the lower half of its block of 2^(j+1) columns.
// Depth ⌈log2 n⌉ for every n; for n = 2^k, size (n/2)·k and max fan-out
// n/2 + 1.
func Sklansky(n int) (*network.Network, error) {
	return lookupBuiltin("sklansky").Build(n, nil)
}

// HanCarlson returns the Han–Carlson network of width n (Han & Carlson,
// 1987): level 1 pairs every odd column with its even neighbour, Kogge–Stone
// runs on the odd columns, and one last level completes every even column
// from the odd column below it. For n = 2^k, depth k + 1 and size (n/2)·k.
func HanCarlson(n int) (*network.Network, error) {
	return lookupBuiltin("han-carlson").Build(n, nil)
}

// buildRipple builds the serial chain.
func buildRipple(n int, p network.Params) (*network.Network, error) {
	b := newBuilder(n, int64(n-1))
	cur := 0
	for i := 1; i < n; i++ {
		cur = b.Add(cur, i)
	}
	return finish(b, "ripple", p)
}

// inputs returns the signals 0 … n−1, the inputs. Signals are kept as
// int32, as network stores them (width + size < 2^31), to halve the scratch.
func inputs(n int) []int32 {
	cur := make([]int32, n)
	for i := range cur {
		cur[i] = int32(i)
	}
	return cur
}

// buildKoggeStone builds Kogge–Stone. Within a level the columns run from
// the top down, so that every cell reads its neighbour's value of the level
// before, never one this level has already replaced (the Yosys/CIRCT bug that
// silently turned Kogge–Stone into a ripple chain).
func buildKoggeStone(n int, p network.Params) (*network.Network, error) {
	b := newBuilder(n, koggeStoneCells(int64(n)))
	cur := inputs(n)
	for d := 1; d < n; d *= 2 {
		for i := n - 1; i >= d; i-- {
			cur[i] = add(b, cur[i-d], cur[i])
		}
	}
	return finish(b, "kogge-stone", p)
}

// koggeStoneCells is the exact size of Kogge–Stone: the sum of n − d over
// d = 1, 2, 4, … < n, that is n·L − 2^L + 1 with L = ⌈log2 n⌉.
func koggeStoneCells(n int64) int64 {
	if n < 1 {
		return 0
	}
	l := ceilLog2(n)
	return n*int64(l) - (int64(1) << l) + 1
}

// koggeStoneBound is the estimate of Kogge–Stone's size: the closed form
// n·L − n + 1 of the powers of two, an upper bound for every n.
func koggeStoneBound(n int, _ network.Params) int64 {
	return int64(n)*int64(ceilLog2(int64(n))) - int64(n) + 1
}

// brentKungTop returns the largest power of two d with 3d − 1 < n, where the
// down-sweep starts, or 0 if there is none.
func brentKungTop(n int) int {
	d := 0
	for e := 1; 3*e-1 < n; e *= 2 {
		d = e
	}
	return d
}

// buildBrentKung builds Brent–Kung.
func buildBrentKung(n int, p network.Params) (*network.Network, error) {
	b := newBuilder(n, brentKungCells(n, p))
	cur := inputs(n)
	// Up-sweep: column i ≡ 2d−1 (mod 2d) extends its block of d columns by
	// the block of d columns below it.
	for d := 1; d < n; d *= 2 {
		for i := 2*d - 1; i < n; i += 2 * d {
			cur[i] = add(b, cur[i-d], cur[i])
		}
	}
	// Down-sweep: column i = 3d−1, 5d−1, … holds a block of d columns whose
	// lower neighbour i−d is already a complete prefix.
	for d := brentKungTop(n); d >= 1; d /= 2 {
		for i := 3*d - 1; i < n; i += 2 * d {
			cur[i] = add(b, cur[i-d], cur[i])
		}
	}
	return finish(b, "brent-kung", p)
}

// brentKungCells is the exact size of Brent–Kung: ⌊n/2d⌋ up-sweep cells and
// ⌊(n−3d)/2d⌋ + 1 down-sweep cells for each d.
func brentKungCells(n int, _ network.Params) int64 {
	var c int64
	for d := int64(1); d < int64(n); d *= 2 {
		c += int64(n) / (2 * d)
	}
	for d := int64(brentKungTop(n)); d >= 1; d /= 2 {
		c += (int64(n)-3*d)/(2*d) + 1
	}
	return c
}

// buildSklansky builds Sklansky.
func buildSklansky(n int, p network.Params) (*network.Network, error) {
	b := newBuilder(n, sklanskyCells(n, p))
	cur := inputs(n)
	for d := 1; d < n; d *= 2 {
		// Blocks of 2d columns: the upper d read the last of the lower d,
		// whose bit j is clear, so it does not change at this level.
		for base := 0; base+d < n; base += 2 * d {
			mid := base + d - 1
			for i := base + d; i < min(base+2*d, n); i++ {
				cur[i] = add(b, cur[mid], cur[i])
			}
		}
	}
	return finish(b, "sklansky", p)
}

// sklanskyCells is the exact size of Sklansky: for each d = 2^j < n, the
// number of columns below n whose bit j is set.
func sklanskyCells(n int, _ network.Params) int64 {
	var c int64
	for d := int64(1); d < int64(n); d *= 2 {
		q, r := int64(n)/(2*d), int64(n)%(2*d)
		c += q*d + max(0, r-d)
	}
	return c
}

// buildHanCarlson builds Han–Carlson.
func buildHanCarlson(n int, p network.Params) (*network.Network, error) {
	b := newBuilder(n, hanCarlsonCells(n, p))
	cur := inputs(n)
	m := n / 2 // odd columns 1, 3, …, 2m−1
	for j := range m {
		cur[2*j+1] = add(b, cur[2*j], cur[2*j+1])
	}
	// Kogge–Stone on the odd columns, top down within a level.
	for e := 1; e < m; e *= 2 {
		for j := m - 1; j >= e; j-- {
			cur[2*j+1] = add(b, cur[2*(j-e)+1], cur[2*j+1])
		}
	}
	for i := 2; i < n; i += 2 {
		cur[i] = add(b, cur[i-1], cur[i])
	}
	return finish(b, "han-carlson", p)
}

// hanCarlsonCells is the exact size of Han–Carlson: ⌊n/2⌋ pairs, Kogge–Stone
// on the ⌊n/2⌋ odd columns, and ⌈n/2⌉ − 1 even columns to complete.
func hanCarlsonCells(n int, _ network.Params) int64 {
	m := int64(n) / 2
	return m + koggeStoneCells(m) + (int64(n)+1)/2 - 1
}
