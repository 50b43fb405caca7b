package optimize

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/prefixgen/prefixgen/network"
)

// The settings of improveParts in Minimize: the least width it runs at, the
// least part it anneals, the moves of each part's chain and the rounds.
const (
	partsMinWidth = 64
	partsMinSize  = 8
	partsSteps    = 300000
	partsRounds   = 5
)

// part is one problem (n, a, d, t) of the recursion.
type part struct{ n, a, d, t int }

// parts returns the problems (n, a, d, t) with lo ≤ n ≤ hi that the
// solution of (n, a, d, t) is built from, itself included, in a fixed
// order.
func (s *solver) partsOf(n, a, d, t, lo, hi int, out []part) []part {
	if n == 1 {
		return out
	}
	t = min(t, s.maxT)
	d = min(d, s.maxD)
	s.solve(n, a, d, t)
	if n >= lo && n <= hi {
		out = append(out, part{n, a, d, t})
	}
	w := s.way[s.index(n, a, d, t)]
	switch w >> 28 {
	case waySplit:
		m, tl := int(w>>8&0xfff), int(w&0xff)
		out = s.partsOf(m, a, d, tl, lo, hi, out)
		out = s.partsOf(n-m+1, tl, d, t, lo, hi, out)
	case wayLate:
		out = s.partsOf(n-1, 0, d-1, t-1, lo, hi, out)
	case wayTree:
		out = s.qpartsOf(n, a, d, t-1, lo, hi, out)
	case wayLocal:
		g, u := int(w>>8&0xfffff), int(w&0xff)
		count := n
		if a > 0 {
			count = n - 1
		}
		m := (count + g - 1) / g
		r := count - (m-1)*g
		if a > 0 {
			out = s.partsOf(m+1, max(a-u, 0), d-1-u, t-u, lo, hi, out)
			out = s.partsOf(r, 0, d-1, u, lo, hi, out)
		} else {
			out = s.partsOf(m, 0, d-1-u, t-u, lo, hi, out)
			out = s.partsOf(r, 0, d, u, lo, hi, out)
		}
		out = s.partsOf(g, 0, d-1, u, lo, hi, out)
	case wayBlocks:
		g, u, b := int(w>>16&0x7ff), int(w>>8&0xff), int(w&0xff)
		if s.lastBlock[s.index(n, a, d, t)] != 0 {
			// Its problem of the block totals has a late last element,
			// which annealing does not model.
			break
		}
		if a > 0 {
			m := (n - 1 + g - 1) / g
			out = s.partsOf(m+1, max(a-u, 0), d-b-u, t-u, lo, hi, out)
		} else {
			out = s.partsOf((n+g-1)/g, 0, d-b-u, t-u, lo, hi, out)
		}
	}
	return out
}

// qpartsOf is partsOf for the tree problem (n, a, d, u).
func (s *solver) qpartsOf(n, a, d, u, lo, hi int, out []part) []part {
	if n == 2 {
		return out
	}
	u = min(u, s.maxT)
	d = min(d, s.maxD)
	s.qsolve(n, a, d, u)
	w := s.qway[s.index(n, a, d, u)]
	switch w >> 28 {
	case wayLate:
		out = s.partsOf(n-1, 0, d-1, u, lo, hi, out)
	case waySplit:
		p, ua := int(w>>8&0xfff), int(w&0xff)
		out = s.qpartsOf(p+1, a, d, ua, lo, hi, out)
		out = s.qpartsOf(n-p, max(a, ua)+1, d, u-1, lo, hi, out)
	}
	return out
}

// partNetwork returns the solver's network for the problem p: input 0 is
// e_0.
func (s *solver) partNetwork(p part) *network.Network {
	bld, err := network.NewBuilder(p.n)
	if err != nil {
		return nil
	}
	e := make([]int, p.n)
	for i := range e {
		e[i] = i
	}
	s.construct(bld, e, p.a, p.d, p.t)
	net, err := bld.Build()
	if err != nil {
		return nil
	}
	return net
}

// annealPart anneals the solver's network for the problem p, with e_0 at
// level p.a and the last prefix by level p.t, and returns a smaller network
// or nil.
func annealPart(ctx context.Context, net *network.Network, p part, steps int, rng *rand.Rand) *network.Network {
	g := fromNetwork(net)
	g.first = int16(p.a)
	if p.t < p.d {
		g.last = int16(p.t)
	}
	if _, _, ok := g.eval(p.d, 0); !ok {
		return nil
	}
	best, err := anneal(ctx, g, p.d, 0, steps, rng)
	if err != nil || best.size() >= net.Size() {
		return nil
	}
	out, err := best.network()
	if err != nil {
		return nil
	}
	return out
}

// improveParts improves the solver's solution of (n, 0, d, d) by annealing
// its parts of lo to hi elements, each from the network the recursion built
// for it, with chains seeded by seed and the part; a smaller network found
// for a part replaces the part's solution, and the recursion is solved
// again, for at most rounds rounds. It returns the solver for the best
// solution.
func improveParts(ctx context.Context, n, d, lateMax, lo, hi, steps, rounds int, seed uint64) *solver {
	parts := map[int]*network.Network{}
	tried := map[part]bool{}
	s := searchSolver(n, d, lateMax)
	for range rounds {
		var todo []part
		for _, p := range s.partsOf(n, 0, d, d, lo, hi, nil) {
			if !tried[p] {
				tried[p] = true
				todo = append(todo, p)
			}
		}
		if len(todo) == 0 {
			break
		}
		found := make([]*network.Network, len(todo))
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for k, p := range todo {
			net := s.partNetwork(p)
			if net == nil {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				rng := rand.New(rand.NewPCG(seed, uint64(p.n)<<24|uint64(p.a)<<16|uint64(p.d)<<8|uint64(p.t)))
				found[k] = annealPart(ctx, net, p, steps, rng)
			}()
		}
		wg.Wait()
		better := false
		for k, p := range todo {
			if found[k] != nil {
				parts[s.index(p.n, p.a, p.d, p.t)] = found[k]
				better = true
			}
		}
		if !better {
			break
		}
		s = searchSolver(n, d, lateMax)
		s.parts = parts
	}
	return s
}
