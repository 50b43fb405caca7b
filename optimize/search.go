package optimize

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/prefixgen/prefixgen/network"
)

// graph is a prefix network in the form of Roy et al. (PrefixRL, 2021): the
// set of spans [j, i] it computes, kept as one bit set of j per column i.
// Every column holds its input [i, i] and its output [0, i]. The cell of a
// span [j, i], j < i, joins [j, k−1] to [k, i], where [k, i] is the next
// shorter span of column i; legalize adds every [j, k−1] that is missing. A
// network is thus fixed by its spans, every span but the inputs is one cell,
// and none is dead: each is the upper operand of the next longer span of its
// column.
type graph struct {
	n    int
	cols [][words]uint64
	// scratch of eval: level and fan-out per span, indexed i*n + j.
	level, fan []int16
	// fanned are the indices of fan that are not zero: eval and excess
	// count fan-outs there and set them back to zero, so that neither
	// walks all n² entries.
	fanned []int32
}

// words is the number of 64-bit words of a column: widths up to 256.
const words = 4

// newGraph returns the graph of width n with only its inputs and outputs.
func newGraph(n int) *graph {
	g := &graph{n: n, cols: make([][words]uint64, n), level: make([]int16, n*n), fan: make([]int16, n*n)}
	for i := range n {
		g.set(i, i)
		g.set(i, 0)
	}
	return g
}

// fromNetwork returns the graph of the spans of net, legalized.
func fromNetwork(net *network.Network) *graph {
	g := newGraph(net.Width())
	for s := range net.Signals() {
		sp := net.Span(s)
		g.set(sp.To, sp.From)
	}
	g.legalize()
	return g
}

func (g *graph) has(i, j int) bool { return g.cols[i][j>>6]>>(j&63)&1 == 1 }
func (g *graph) set(i, j int)      { g.cols[i][j>>6] |= 1 << (j & 63) }
func (g *graph) clear(i, j int)    { g.cols[i][j>>6] &^= 1 << (j & 63) }

// next returns the smallest k > j with [k, i] in the graph; j < i.
func (g *graph) next(i, j int) int {
	c := &g.cols[i]
	j++
	w := j >> 6
	if x := c[w] >> (j & 63); x != 0 {
		return j + bits.TrailingZeros64(x)
	}
	for w++; ; w++ {
		if c[w] != 0 {
			return w<<6 + bits.TrailingZeros64(c[w])
		}
	}
}

// copyFrom makes g a copy of h, which has the same width.
func (g *graph) copyFrom(h *graph) { copy(g.cols, h.cols) }

// clone returns a copy of g with its own scratch.
func (g *graph) clone() *graph {
	h := &graph{n: g.n, cols: make([][words]uint64, g.n), level: make([]int16, g.n*g.n), fan: make([]int16, g.n*g.n)}
	h.copyFrom(g)
	return h
}

// legalize adds the lower operand of every span that lacks it, from the top
// column down, so that the spans it adds get theirs too.
func (g *graph) legalize() {
	for i := g.n - 1; i >= 1; i-- {
		c := g.cols[i]
		c[i>>6] &^= 1 << (i & 63)
		for w := range words {
			for x := c[w]; x != 0; x &= x - 1 {
				j := w<<6 + bits.TrailingZeros64(x)
				k := g.next(i, j)
				if !g.has(k-1, j) {
					g.set(k-1, j)
				}
			}
		}
	}
}

// size returns the number of cells: every span but the inputs.
func (g *graph) size() int {
	s := 0
	for i := range g.n {
		for _, w := range g.cols[i] {
			s += bits.OnesCount64(w)
		}
	}
	return s - g.n
}

// clearFan sets the fan-outs the last count left back to zero.
func (g *graph) clearFan() {
	for _, k := range g.fanned {
		g.fan[k] = 0
	}
	g.fanned = g.fanned[:0]
}

// addFan counts one more reader of the span at index k of fan.
func (g *graph) addFan(k int) {
	if g.fan[k] == 0 {
		g.fanned = append(g.fanned, int32(k))
	}
	g.fan[k]++
}

// eval returns the depth and, when maxFanout > 0, the largest fan-out, and
// whether both are within the bounds; it stops at the first span deeper
// than maxDepth.
func (g *graph) eval(maxDepth, maxFanout int) (depth, fanout int, ok bool) {
	n := g.n
	g.clearFan()
	for i := range n {
		g.level[i*n+i] = 0
		up := i // the next shorter span of column i
		c := g.cols[i]
		for w := (i >> 6); w >= 0; w-- {
			x := c[w]
			if w == i>>6 {
				x &= 1<<(i&63) - 1
			}
			for x != 0 {
				b := 63 - bits.LeadingZeros64(x)
				x &^= 1 << b
				j := w<<6 + b
				l := max(g.level[i*n+up], g.level[(up-1)*n+j]) + 1
				if int(l) > maxDepth {
					return int(l), 0, false
				}
				g.level[i*n+j] = l
				if maxFanout > 0 {
					g.addFan(i*n + up)
					g.addFan((up-1)*n + j)
				}
				up = j
			}
		}
		depth = max(depth, int(g.level[i*n]))
	}
	if maxFanout > 0 {
		for i := range n {
			g.addFan(i * n) // the output
		}
		for _, k := range g.fanned {
			fanout = max(fanout, int(g.fan[k]))
		}
		if fanout > maxFanout {
			return depth, fanout, false
		}
	}
	return depth, fanout, true
}

// network builds the graph as a network: columns in order, each from its
// shortest span to its longest.
func (g *graph) network() (*network.Network, error) {
	n := g.n
	b, err := network.NewBuilder(n)
	if err != nil {
		return nil, err
	}
	sig := make([]int32, n*n)
	for i := range n {
		sig[i*n+i] = int32(i)
		up := i
		for j := i - 1; j >= 0; j-- {
			if !g.has(i, j) {
				continue
			}
			sig[i*n+j] = int32(b.Add(int(sig[(up-1)*n+j]), int(sig[i*n+up])))
			up = j
		}
	}
	return b.Build()
}

// anneal improves start by simulated annealing over steps moves, keeping the
// depth and the fan-out within the bounds, and returns the smallest graph
// it met; see move for the moves. The temperature falls geometrically from
// 1.5 to 0.05: a move that adds c cells is taken with probability e^(−c/T).
func anneal(ctx context.Context, start *graph, maxDepth, maxFanout, steps int, rng *rand.Rand) (*graph, error) {
	best := start.clone()
	if start.n < 3 {
		return best, nil
	}
	bestSize := best.size()
	within := bounded(maxDepth, maxFanout)
	c := chain[*graph]{
		t0: 1.5, t1: 0.05, steps: steps,
		check: everyPeriod(ctx),
		propose: oneStep(func(cur, spare *graph, rng *rand.Rand) bool {
			return spare.moveFrom(cur, rng, within)
		}),
		energy: func(g *graph) (float64, error) { return float64(g.size()), nil },
		took: func(g *graph, _ float64) {
			if size := g.size(); size < bestSize {
				best.copyFrom(g)
				bestSize = size
			}
		},
	}
	if _, err := c.run(start.clone(), start.clone(), rng); err != nil {
		return nil, err
	}
	return best, nil
}

// annealPenalty is anneal for a start that breaks the fan-out bound: the
// fan-out beyond the bound, summed over the signals, and the levels beyond
// the depth bound, summed over the outputs, count as cells twice over, so
// that the chain walks towards the bounds. It returns the smallest graph
// within the bounds it met, or nil.
func annealPenalty(ctx context.Context, start *graph, maxDepth, maxFanout, steps int, rng *rand.Rand) (*graph, error) {
	const penalty = 2
	if start.n < 3 {
		return nil, nil
	}
	var best *graph
	bestSize := math.MaxInt
	c := chain[*graph]{
		t0: 3, t1: 0.05, steps: steps,
		check: everyPeriod(ctx),
		propose: oneStep(func(cur, spare *graph, rng *rand.Rand) bool {
			return spare.moveFrom(cur, rng, nil)
		}),
		energy: func(g *graph) (float64, error) {
			return float64(g.size() + penalty*g.excess(maxDepth, maxFanout)), nil
		},
		took: func(g *graph, e float64) {
			// The energy is the size exactly when nothing exceeds a bound.
			if size := g.size(); size < bestSize && e == float64(size) {
				if best == nil {
					best = g.clone()
				} else {
					best.copyFrom(g)
				}
				bestSize = size
			}
		},
	}
	if _, err := c.run(start.clone(), start.clone(), rng); err != nil {
		return nil, err
	}
	return best, nil
}

// move changes g at random and legalizes it: it adds a span (a quarter of
// the moves), moves one by up to three positions within its column (three
// eighths) or removes one (three eighths). It reports false when the chosen
// move changes nothing.
func (g *graph) move(rng *rand.Rand) bool {
	n := g.n
	i := 2 + rng.IntN(n-2) // columns 0 and 1 have nothing to change
	kind := rng.IntN(8)
	if kind < 2 {
		j := 1 + rng.IntN(i-1)
		if g.has(i, j) {
			return false
		}
		g.set(i, j)
		g.legalize()
		return true
	}
	// The spans strictly inside column i.
	c := g.cols[i]
	c[0] &^= 1
	c[i>>6] &^= 1 << (i & 63)
	count := 0
	for _, w := range c {
		count += bits.OnesCount64(w)
	}
	if count == 0 {
		return false
	}
	j := nthBit(&c, rng.IntN(count))
	if kind < 5 {
		k := j + rng.IntN(7) - 3
		if k <= 0 || k >= i || g.has(i, k) {
			return false
		}
		g.set(i, k)
	}
	g.clear(i, j)
	g.legalize()
	return true
}

// nthBit returns the position of the k-th set bit of c, counting from 0.
func nthBit(c *[words]uint64, k int) int {
	for w, x := range c {
		if p := bits.OnesCount64(x); k >= p {
			k -= p
			continue
		}
		for ; k > 0; k-- {
			x &= x - 1
		}
		return w<<6 + bits.TrailingZeros64(x)
	}
	panic("optimize: nthBit out of range")
}

// excess returns the levels beyond maxDepth summed over the outputs, plus,
// when maxFanout > 0, the fan-out beyond maxFanout summed over the signals.
func (g *graph) excess(maxDepth, maxFanout int) int {
	n := g.n
	g.clearFan()
	ex := 0
	for i := range n {
		g.level[i*n+i] = 0
		up := i
		c := g.cols[i]
		for w := (i >> 6); w >= 0; w-- {
			x := c[w]
			if w == i>>6 {
				x &= 1<<(i&63) - 1
			}
			for x != 0 {
				b := 63 - bits.LeadingZeros64(x)
				x &^= 1 << b
				j := w<<6 + b
				g.level[i*n+j] = max(g.level[i*n+up], g.level[(up-1)*n+j]) + 1
				if maxFanout > 0 {
					g.addFan(i*n + up)
					g.addFan((up-1)*n + j)
				}
				up = j
			}
		}
		ex += max(0, int(g.level[i*n])-maxDepth)
	}
	if maxFanout > 0 {
		for i := range n {
			g.addFan(i * n)
		}
		for _, k := range g.fanned {
			ex += max(0, int(g.fan[k])-maxFanout)
		}
	}
	return ex
}
