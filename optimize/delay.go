package optimize

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/network"
)

// Objective is what Minimize makes least within the bounds.
type Objective int

const (
	// Cells, the default, is the number of cells; with Options.MaxDelay it
	// is the area of the model's gates (delay.Report.Area), which weighs a
	// gray cell (one AOI21) below a black one (an AOI21 and a NAND2).
	Cells Objective = iota
	// Delay is the model's delay (delay.Report.FO4), ties going to the
	// smaller area.
	Delay
)

// String returns "area" or "delay", the names ParseObjective reads.
func (o Objective) String() string {
	switch o {
	case Cells:
		return "area"
	case Delay:
		return "delay"
	}
	return fmt.Sprintf("Objective(%d)", int(o))
}

// ParseObjective reads "area" or "delay".
func ParseObjective(s string) (Objective, error) {
	switch s {
	case "area":
		return Cells, nil
	case "delay":
		return Delay, nil
	}
	return 0, fmt.Errorf("optimize: unknown objective %s: allowed area, delay", network.Quote(s))
}

// modelAware reports whether the options ask for the delay model.
func (o Options) modelAware() bool { return o.MaxDelay > 0 || o.Objective == Delay }

// scored is a candidate with what the model says of it.
type scored struct {
	candidate
	model delay.Report
}

// score runs the model on c.
func score(c candidate, opt Options) scored { return scored{c, opt.analyze(c.net)} }

// analyze runs the delay model on the adder around net, in the options'
// library and profile.
func (o Options) analyze(net *network.Network) delay.Report {
	return o.model().AnalyzeProfile(net, o.Profile)
}

// model returns the library the delay model stands on.
func (o Options) model() *delay.Library {
	if o.Model != nil {
		return o.Model
	}
	return &delay.OSU018
}

// fitsModel reports whether s is within every bound, the delay included.
func (s scored) fitsModel(opt Options) bool {
	return s.fits(opt) && (opt.MaxDelay <= 0 || s.model.FO4 <= opt.MaxDelay+1e-9)
}

// betterModel orders candidates by the objective, then by the other of
// area and delay, then as better does.
func betterModel(a, b scored, obj Objective) bool {
	ka, kb := [2]float64{a.model.Area, a.model.Tau}, [2]float64{b.model.Area, b.model.Tau}
	if obj == Delay {
		ka[0], ka[1], kb[0], kb[1] = ka[1], ka[0], kb[1], kb[0]
	}
	const eps = 1e-9
	for i := range ka {
		if math.Abs(ka[i]-kb[i]) > eps {
			return ka[i] < kb[i]
		}
	}
	return better(a.candidate, b.candidate)
}

// minimizeModel is Minimize under a delay bound or the delay objective: it
// scores every named network and the constructive search's network at every
// depth up to the bound, and improves the best by annealing chains whose
// energy is the objective with the excess delay as a penalty. Copies of
// cells buy no delay: synthesis merges them, and so does the model; they
// are made only to meet a fan-out bound.
func minimizeModel(ctx context.Context, opt Options) (Result, error) {
	n, depth := opt.Width, opt.MaxDepth
	res := Result{LowerBound: max(2*n-2-depth, n-1)}
	var pool []candidate
	named := namedCandidates(n, depth)
	pool = append(pool, named...)
	steps := &stepper{report: opt.Progress}
	steps.plan(max(0, min(depth, maxSolverDepth)-ceilLog2(n)+1) * len(searchLimits(opt.MaxFanout, n)))
	for d := ceilLog2(n); d <= min(depth, maxSolverDepth); d++ {
		pool = append(pool, constructiveCandidates(n, d, opt.MaxFanout, steps.step)...)
	}
	var all []scored
	for _, c := range pool {
		if c.figs.Depth > depth {
			continue
		}
		if !c.fits(opt) {
			if more := limitFanout(c.net, opt.MaxFanout); more != nil {
				c = candidate{net: more, figs: more.Figures(), source: c.source + ", cells copied to bound the fan-out"}
			}
		}
		all = append(all, score(c, opt))
	}
	var best, fastest *scored
	for i, s := range all {
		if s.fits(opt) && (fastest == nil || betterModel(s, *fastest, Delay)) {
			fastest = &all[i]
		}
		if !s.fitsModel(opt) {
			continue
		}
		if best == nil || betterModel(s, *best, opt.Objective) {
			best = &all[i]
		}
	}
	for _, c := range named {
		if s := score(c, opt); s.fitsModel(opt) && (res.Named == nil || betterModel(s, score(candidate{net: res.Named, figs: res.Named.Figures()}, opt), opt.Objective)) {
			res.Named = c.net
		}
	}
	start := best
	if start == nil {
		start = fastest
	}
	if start == nil {
		return Result{}, &NotFoundError{fmt.Sprintf("optimize: found no network of width %d with depth ≤ %d and fan-out ≤ %d", n, depth, opt.MaxFanout)}
	}
	if found, err := annealModel(ctx, steps.withChains(opt), start.net); err != nil {
		return Result{}, err
	} else if found != nil && (best == nil || betterModel(*found, *best, opt.Objective)) {
		found.source = start.source + ", improved by annealing on the delay model"
		best = found
	}
	least := fastest.model.FO4 // the least model delay found, for a not-found message
	if best == nil && opt.Objective != Delay {
		// The area's chains trade delay for cells and may never reach
		// the bound; chains that lower the delay may, and the area's
		// chains go on from what they find.
		fast := opt
		fast.Objective = Delay
		found, err := annealModel(ctx, steps.withChains(fast), start.net)
		if err != nil {
			return Result{}, err
		}
		if found != nil {
			least = min(least, found.model.FO4)
		}
		if found != nil && found.fitsModel(opt) {
			found.source = start.source + ", made faster by annealing on the delay model"
			best = found
			if smaller, err := annealModel(ctx, steps.withChains(opt), found.net); err != nil {
				return Result{}, err
			} else if smaller != nil && betterModel(*smaller, *best, opt.Objective) {
				smaller.source = start.source + ", made faster, then smaller, by annealing on the delay model"
				best = smaller
			}
		}
	}
	if best == nil {
		chains := "no annealing chain, on area or on delay, met it"
		if opt.Objective == Delay {
			chains = "no annealing chain met it"
		}
		// The least delay found, the chains' included, to its digits: a
		// figure rounded down, passed back as the bound, fails again.
		return Result{}, &NotFoundError{fmt.Sprintf("optimize: found no network of width %d with depth ≤ %d%s and a model delay ≤ %v FO4: the fastest found takes %s FO4, and %s", n, depth, fanoutPhrase(opt.MaxFanout), opt.MaxDelay, strconv.FormatFloat(least, 'f', 4, 64), chains)}
	}
	net, err := finish(best.net, opt)
	if err != nil {
		return Result{}, err
	}
	res.Network, res.Figures, res.Source = net, net.Figures(), best.source
	res.Model = opt.analyze(net)
	if res.Named != nil {
		res.NamedModel = opt.analyze(res.Named)
	}
	steps.finish()
	return res, nil
}

// fanoutPhrase says the fan-out bound, if any.
func fanoutPhrase(f int) string {
	if f <= 0 {
		return ""
	}
	return fmt.Sprintf(", fan-out ≤ %d", f)
}

// annealModel runs opt.Chains annealing chains from start on every core
// with the model's energy (see energy) and returns the best network within
// every bound any chain met, with cells copied where that pays, or nil.
func annealModel(ctx context.Context, opt Options, start *network.Network) (*scored, error) {
	steps, chains, ok := opt.annealBudget(200)
	if !ok {
		return nil, nil
	}
	g := fromNetwork(start)
	results, err := runChains(chains, opt.Seed, opt.Progress, func(rng *rand.Rand) (*scored, error) {
		return annealChain(ctx, g, opt, steps, rng)
	})
	if err != nil {
		return nil, err
	}
	var best *scored
	for _, r := range results {
		if r != nil && (best == nil || betterModel(*r, *best, opt.Objective)) {
			best = r
		}
	}
	return best, nil
}

// energy is what a chain lowers: the objective (the model's area in
// AOI21s, or its delay in halves of a cell's typical delay) plus, beyond
// the delay bound, one cell's worth per τ of excess.
func energy(m delay.Report, opt Options) float64 {
	lib := opt.model()
	e := m.Area / lib.CellG.Area
	if opt.Objective == Delay {
		e = m.Tau/3 + m.Area/lib.CellG.Area/1000
	}
	if opt.MaxDelay > 0 {
		e += max(0, m.FO4-opt.MaxDelay) * lib.FO4
	}
	return e
}

// annealChain is one chain of annealModel: the moves of anneal, within the
// depth bound (the fan-out bound is met by copying cells afterwards), taken
// by the Metropolis rule on energy, with the temperature falling from 1.5
// to 0.05. It returns the best network within every bound it met, or nil.
func annealChain(ctx context.Context, start *graph, opt Options, steps int, rng *rand.Rand) (*scored, error) {
	startNet, err := start.network()
	if err != nil {
		return nil, fmt.Errorf("optimize: annealing built an invalid network, a bug in package optimize: %w", err)
	}
	var best *scored
	consider := func(net *network.Network) {
		c := scoredOf(net, opt)
		if c != nil && (best == nil || betterModel(*c, *best, opt.Objective)) {
			best = c
		}
	}
	consider(startNet)
	within := bounded(opt.MaxDepth, 0)
	c := chain[*modelState]{
		t0: 1.5, t1: 0.05, steps: steps,
		check: everyPeriod(ctx),
		propose: oneStep(func(cur, spare *modelState, rng *rand.Rand) bool {
			return spare.g.moveFrom(cur.g, rng, within)
		}),
		energy: func(s *modelState) (float64, error) {
			net, err := s.g.network()
			if err != nil {
				return 0, fmt.Errorf("optimize: annealing built an invalid network, a bug in package optimize: %w", err)
			}
			s.net, s.model = net, opt.analyze(net)
			return energy(s.model, opt), nil
		},
		took: func(s *modelState, _ float64) {
			if c := (scored{candidate{net: s.net, figs: s.net.Figures()}, s.model}); c.fitsModel(opt) && (best == nil || betterModel(c, *best, opt.Objective)) {
				best = &c
			}
		},
	}
	end, err := c.run(&modelState{g: start.clone()}, &modelState{g: start.clone()}, rng)
	if err != nil {
		return nil, err
	}
	// Under a fan-out bound, where the chain ended, with cells copied.
	consider(end.net)
	return best, nil
}

// modelState is the state of annealChain: a graph and, once the chain has
// weighed it, its network and the model's report on that network.
type modelState struct {
	g     *graph
	net   *network.Network
	model delay.Report
}

// scoredOf returns net, with cells copied if it breaks the fan-out bound,
// scored, if it meets every bound, or nil.
func scoredOf(net *network.Network, opt Options) *scored {
	c := candidate{net: net, figs: net.Figures()}
	if !c.fits(opt) && opt.MaxFanout > 0 {
		if more := limitFanout(net, opt.MaxFanout); more != nil {
			c = candidate{net: more, figs: more.Figures()}
		}
	}
	if s := score(c, opt); s.fitsModel(opt) {
		return &s
	}
	return nil
}
