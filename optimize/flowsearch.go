package optimize

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// FlowStarts is the most measured adders the flow-in-the-loop search of
// MinimizeFlowSparse starts from (see Options.FlowSteps).
const FlowStarts = 3

// MaxFlowSteps is the most syntheses Options.FlowSteps may ask for.
const MaxFlowSteps = 1_000_000

// flowPenalty weighs the fraction by which an adder passes the bound in the
// energy of the flow-in-the-loop search: under a delay bound an adder 1 %
// too slow counts as 10 % larger, under an area bound an adder 1 % too
// large as 10 % slower.
const flowPenalty = 10

// flowGoal is what a flow search asks of a measured adder: with Area false
// the least area among adders whose delay is at most Bound ns; with Area
// true the least delay among adders whose area is at most Bound µm².
type flowGoal struct {
	Bound float64
	Area  bool
	// Shift is added to a delay the energy lowers (Area): under a
	// profile a delay is the latest output's lateness, below 0 where every
	// output is early, and an energy below 0 would rank an adder over the
	// area as better and turn the Metropolis rule around. latenessShift
	// gives it.
	Shift float64
}

// latenessShift returns what keeps a lateness under prof above 0: the
// latest required time, and the earliest arrival where it is before 0
// (the lateness is at least an output's arrival less its required time,
// and an output arrives after its inputs). 0 without a profile.
func latenessShift(prof *delay.Profile) float64 {
	if prof == nil {
		return 0
	}
	latest, earliest := 0.0, 0.0
	for _, r := range prof.Required {
		latest = max(latest, r)
	}
	for _, a := range prof.Arrival {
		earliest = min(earliest, a)
	}
	return latest - earliest
}

// bounded and objective return the figure the goal bounds and the one it
// lowers.
func (g flowGoal) bounded(r *physical.Result) float64 {
	if g.Area {
		return measuredArea(r)
	}
	return measuredDelay(r)
}

func (g flowGoal) objective(r *physical.Result) float64 {
	if g.Area {
		return measuredDelay(r)
	}
	return measuredArea(r)
}

// within reports whether r meets the bound.
func (g flowGoal) within(r *physical.Result) bool { return g.bounded(r) <= g.Bound }

// Temperatures of the flow-in-the-loop search, as fractions of the current
// energy: a trial 1 % worse is taken with probability e^(−0.01/T).
const flowT0, flowT1 = 0.01, 0.0005

// flowBatch is the number of trials each step of the flow search makes and
// measures at once, whatever the cores and physical.Options.Jobs: the
// batch steers the chain, so a batch that followed the machine would make
// the same options find different adders on different machines.
const flowBatch = 4

// flowPoint is an adder the flow measured: a legalized graph, the network
// built from it (with cells copied under a fan-out bound, see
// flowNetwork), the sparseness of its adder and the flow's result.
type flowPoint struct {
	g      *graph
	net    *network.Network
	sparse int
	res    *physical.Result
	source string
	// segs are the segments' lengths where net is a carry-select network
	// (topologies.CarrySelect) whose chain moves bits between them
	// (Options.CarrySelect); nil otherwise.
	segs []int
}

// segmentMoves is how many of every four trials from a carry-select point
// move its segments; the others move a span of its graph, as from any
// other point, and leave the family.
const segmentMoves = 3

// moveSegments returns segs changed by one move, chosen by rng: a bit
// moved from a segment to the one next to it or to any other, a segment
// split in two, two neighbours merged, or a segment moved to another
// place among the others (a split and a move together carry a piece of
// a long top segment down among the shorter ones). The lengths keep their sum, and each stays at
// least 1. It returns nil where the move cannot be made (one segment left
// to merge or move, one bit to split or give).
func moveSegments(segs []int, rng *rand.Rand) []int {
	k := len(segs)
	out := slices.Clone(segs)
	switch kind := rng.IntN(5); {
	case kind < 2: // a bit from i to j: a neighbour, or any other
		if k < 2 {
			return nil
		}
		i := rng.IntN(k)
		j := i + 1
		if kind == 1 {
			j = rng.IntN(k - 1)
			if j >= i {
				j++
			}
		} else if i == k-1 || i > 0 && rng.IntN(2) == 0 {
			j = i - 1
		}
		if out[i] < 2 {
			return nil
		}
		out[i]--
		out[j]++
	case kind == 2: // split segment i
		i := rng.IntN(k)
		if out[i] < 2 {
			return nil
		}
		a := 1 + rng.IntN(out[i]-1)
		out = slices.Insert(out, i+1, out[i]-a)
		out[i] = a
	case kind == 3: // merge i and i+1
		if k < 2 {
			return nil
		}
		i := rng.IntN(k - 1)
		out[i] += out[i+1]
		out = slices.Delete(out, i+1, i+2)
	default: // segment i to place j
		if k < 2 {
			return nil
		}
		i, j := rng.IntN(k), rng.IntN(k) // j among the k places around the k − 1 others
		l := out[i]
		out = slices.Insert(slices.Delete(out, i, i+1), j, l)
		if slices.Equal(out, segs) {
			return nil
		}
	}
	return out
}

// flowNetwork returns the network the flow search measures for g: the
// graph's own, or, when it passes opt.MaxFanout, the graph's with cells
// copied until it does not (limitFanout), as the constructive search
// bounds the fan-out. A span grid holds one cell a span, so without the
// copies every neighbour of a network that needs them breaks the bound
// and the search stalls. It returns nil when copying cannot help (an input
// feeds more readers than the bound).
func (opt Options) flowNetwork(g *graph) (*network.Network, error) {
	net, err := g.network()
	if err != nil {
		return nil, fmt.Errorf("optimize: the flow search built an invalid network, a bug in package optimize: %w", err)
	}
	if opt.MaxFanout > 0 && net.Figures().MaxFanout > opt.MaxFanout {
		net = limitFanout(net, opt.MaxFanout)
	}
	return net, nil
}

// flowKey identifies the adder of a graph at a sparseness under opt's
// fan-out bound in the search's memory: without a bound, flowKey's spans;
// with one, every span of the graph, since the cells limitFanout copies
// depend on reads that the adder may not need.
func (opt Options) flowKey(g *graph, sparse int) string {
	if opt.MaxFanout > 0 {
		return string(rune(sparse)) + flowKey(g, 0)
	}
	return flowKey(g, sparse)
}

// measuredArea and measuredDelay are the figures the searches judge a
// measured adder by: its medians when the flow measured the orders of its
// gates (physical.Options.Orders), otherwise the adder as written.
func measuredArea(r *physical.Result) float64 { return r.MedianAreaUM2() }

func measuredDelay(r *physical.Result) float64 { return r.MedianDelayNS() }

// flowEnergy is what the flow-in-the-loop search lowers: the goal's
// objective (the area under a delay bound), raised by flowPenalty times the
// fraction by which the bounded figure passes the bound.
func flowEnergy(r *physical.Result, goal flowGoal) float64 {
	objective := goal.objective(r)
	if goal.Area {
		objective += goal.Shift // a lateness, kept above 0
	}
	return objective * (1 + flowPenalty*max(0, goal.bounded(r)/goal.Bound-1))
}

// betterFlow reports whether a beats b under the goal: within the bound,
// the lower objective (then the lower bounded figure); otherwise the lower
// energy.
func betterFlow(a, b *physical.Result, goal flowGoal) bool {
	ina, inb := goal.within(a), goal.within(b)
	switch {
	case ina != inb:
		return ina
	case ina:
		oa, ob := goal.objective(a), goal.objective(b)
		return oa < ob || oa == ob && goal.bounded(a) < goal.bounded(b)
	}
	return flowEnergy(a, goal) < flowEnergy(b, goal)
}

// flowKey identifies the adder of a graph at a sparseness in the search's
// memory: the spans its carries need (at sparseness s > 1 the adder reads
// only the carries into every s-th bit and the carry-out, and synthesis
// removes the cells nothing reads), so that trials which change only
// unread cells are not measured again. Sparseness 0 keys every span.
func flowKey(g *graph, sparse int) string {
	n := g.n
	need := make([][words]uint64, n)
	var stack [][2]int
	mark := func(i, j int) {
		if i != j && need[i][j>>6]>>(j&63)&1 == 0 {
			need[i][j>>6] |= 1 << (j & 63)
			stack = append(stack, [2]int{i, j})
		}
	}
	for i := range n {
		if sparse == 1 || sparse > 1 && ((i+1)%sparse == 0 || i == n-1) {
			mark(i, 0)
		}
	}
	if sparse == 0 {
		copy(need, g.cols)
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i, j := s[0], s[1]
		k := g.next(i, j) // [j, i] = [k, i] ∘ [j, k−1]
		mark(i, k)
		mark(k-1, j)
	}
	b := make([]byte, 0, 1+n*words*8)
	b = append(b, byte(sparse))
	for _, c := range need {
		for _, w := range c {
			for k := range 8 {
				b = append(b, byte(w>>(8*k)))
			}
		}
	}
	return string(b)
}

// searchFlow is the flow-in-the-loop search: from each start in turn, with
// an equal share of the steps left (a chain that finds no new neighbour
// within the bounds stops early and leaves its share to the next), it runs a chain of simulated
// annealing whose every step makes a batch of trials (one to three of
// anneal's moves on the current graph each, within the depth and fan-out
// bounds, none measured before; flowBatch of them), measures the whole batch
// with the flow in parallel, and takes the trial of least flowEnergy by the Metropolis rule
// on the relative change of energy, the temperature falling from flowT0 to
// flowT1. It returns the best adder it measured by betterFlow (nil if it
// measured none), the adder nearest the bound it measured (the least
// bounded figure: for a not-found message), and the number of syntheses
// run, each of which it counts in prog (nil: none).
func searchFlow(ctx context.Context, opt Options, goal flowGoal, flow physical.Options, starts []flowPoint, steps int, prog *flowProgress) (best, closest *flowPoint, tried int, err error) {
	if len(starts) == 0 || steps <= 0 {
		return nil, nil, 0, nil
	}
	batch := flowBatch
	rng := rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))
	seen := map[string]bool{}
	batches := 0
	measure := func(pts []flowPoint) error {
		designs := make([]*physical.Design, len(pts))
		for i, p := range pts {
			var err error
			if designs[i], err = physical.ArchitectureDesign(p.net, opt.adderAt(p.sparse), opt.Cells); err != nil {
				return fmt.Errorf("optimize: %w", err)
			}
		}
		f := flow
		f.Progress = prog.run(len(pts) * (flow.Orders + 1))
		// Each batch keeps its designs in a folder of its own: names are
		// unique within one Run, and a later batch's would replace an
		// earlier one's.
		batches++
		if f.Workdir != "" {
			f.Workdir = filepath.Join(f.Workdir, fmt.Sprintf("search-%d", batches))
		}
		results, err := physical.Run(ctx, designs, f)
		if err != nil {
			return err
		}
		for i := range pts {
			pts[i].res = results[i]
		}
		return nil
	}
	consider := func(p flowPoint) {
		if best == nil || betterFlow(p.res, best.res, goal) {
			q := p
			q.g = p.g.clone()
			best = &q
		}
		if closest == nil || goal.bounded(p.res) < goal.bounded(closest.res) {
			q := p
			q.g = nil // only its network, source and figures are read
			closest = &q
		}
	}
	for si, start := range starts {
		// The steps left, shared among the starts left: a chain that runs
		// out of neighbours hands its unspent steps on.
		left := len(starts) - si
		budget := (steps - tried + left - 1) / left
		cur := start
		cur.g = start.g.clone()
		seen[opt.flowKey(cur.g, cur.sparse)] = true
		if cur.net == nil {
			net, err := opt.flowNetwork(cur.g)
			if err != nil {
				return nil, nil, tried, err
			}
			if net == nil {
				continue // copying cells cannot bound this start's fan-out
			}
			cur.net = net
		}
		if cur.res == nil {
			if budget == 0 {
				continue
			}
			pts := []flowPoint{cur}
			if err := measure(pts); err != nil {
				return nil, nil, tried, err
			}
			cur, budget, tried = pts[0], budget-1, tried+1
		}
		consider(cur)
		// One step of the chain is a batch of trials: as many steps as
		// trials.
		c := chain[flowPoint]{
			t0: flowT0, t1: flowT1, steps: budget, relative: true,
			check: func(int) error {
				if ctx.Err() != nil {
					return fmt.Errorf("optimize: %w", ctx.Err())
				}
				return nil
			},
			propose: func(cur, _ flowPoint, left int, rng *rand.Rand) (flowPoint, int, bool, error) {
				var trials []flowPoint
				for attempt := 0; len(trials) < min(batch, left) && attempt < 64*batch; attempt++ {
					if cur.segs != nil && rng.IntN(4) < segmentMoves {
						t, ok, err := opt.segmentTrial(cur, rng, seen)
						if err != nil {
							return flowPoint{}, 0, false, err
						}
						if ok {
							trials = append(trials, t)
						}
						continue
					}
					g := cur.g.clone()
					moved := false
					for range 1 + rng.IntN(3) {
						moved = g.move(rng) || moved
					}
					if !moved {
						continue
					}
					// The fan-out bound is kept by copying cells
					// (flowNetwork), which leaves the depth as it is.
					if _, _, ok := g.eval(opt.MaxDepth, 0); !ok {
						continue
					}
					key := opt.flowKey(g, cur.sparse)
					if seen[key] {
						continue
					}
					seen[key] = true
					net, err := opt.flowNetwork(g)
					if err != nil {
						return flowPoint{}, 0, false, err
					}
					// Copying cannot bound an input's fan-out, and a move
					// may make the carry tree too shallow for the register
					// stages.
					if net == nil || opt.adder().Stages > 0 && !opt.pipelines(net, []int{cur.sparse}) {
						continue
					}
					trials = append(trials, flowPoint{g: g, net: net, sparse: cur.sparse, source: cur.source})
				}
				if len(trials) == 0 {
					return flowPoint{}, 0, false, nil // no new neighbour within the bounds turned up
				}
				if err := measure(trials); err != nil {
					return flowPoint{}, 0, false, err
				}
				tried += len(trials)
				for _, t := range trials {
					consider(t)
				}
				return slices.MinFunc(trials, func(a, b flowPoint) int {
					return cmpFloat(flowEnergy(a.res, goal), flowEnergy(b.res, goal))
				}), len(trials), true, nil
			},
			energy: func(p flowPoint) (float64, error) { return flowEnergy(p.res, goal), nil },
		}
		if _, err := c.run(cur, flowPoint{}, rng); err != nil {
			return nil, nil, tried, err
		}
	}
	return best, closest, tried, nil
}

// segmentTrial makes a trial of the carry-select point cur: one to three
// moves of its segments (moveSegments), the network topologies.CarrySelect
// builds for them, within the depth and fan-out bounds and deep enough for
// the register stages, and not in seen, which it marks. It reports false
// where the moves make no such network.
func (opt Options) segmentTrial(cur flowPoint, rng *rand.Rand, seen map[string]bool) (flowPoint, bool, error) {
	segs := cur.segs
	for range 1 + rng.IntN(3) {
		if next := moveSegments(segs, rng); next != nil {
			segs = next
		}
	}
	if slices.Equal(segs, cur.segs) {
		return flowPoint{}, false, nil
	}
	net, err := topologies.CarrySelect(opt.Width, segs...)
	if err != nil {
		return flowPoint{}, false, fmt.Errorf("optimize: the flow search built invalid carry-select segments %v, a bug in package optimize: %w", segs, err)
	}
	f := net.Figures()
	if f.Depth > opt.MaxDepth || opt.MaxFanout > 0 && f.MaxFanout > opt.MaxFanout {
		return flowPoint{}, false, nil
	}
	g := fromNetwork(net)
	key := opt.flowKey(g, cur.sparse)
	if seen[key] {
		return flowPoint{}, false, nil
	}
	seen[key] = true
	if opt.adder().Stages > 0 && !opt.pipelines(net, []int{cur.sparse}) {
		return flowPoint{}, false, nil
	}
	return flowPoint{g: g, net: net, sparse: cur.sparse, source: cur.source, segs: segs}, true, nil
}

// flowStarts picks the starts of the flow-in-the-loop search among the
// adders measured: the FlowStarts of least flowEnergy, distinct as
// legalized graphs, except that each of the first given networks (the
// user's --start) starts a chain, at its sparseness of least energy,
// however its energy ranks: a start just outside the bound is where the
// user asks the search to go on from, and by energy alone the candidates
// far inside the bound would pass it by. It takes the place of the last
// of the others. The chains run in order of energy. Networks wider than
// MaxAnnealWidth have no graph.
func flowStarts(opt Options, nets []*network.Network, sources []string, sparse []int, results []*physical.Result, goal flowGoal, given int) ([]flowPoint, error) {
	order := make([]int, len(results))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmpFloat(flowEnergy(results[a], goal), flowEnergy(results[b], goal))
	})
	var (
		starts []flowPoint
		owner  []int // the index into nets of each start
	)
	has := func(k int) bool { return slices.Contains(owner, k) }
	seen := map[string]bool{}
	for _, i := range order {
		net := nets[i/len(sparse)]
		if net.Width() > MaxAnnealWidth || net.Width() < 3 {
			break
		}
		k := i / len(sparse)
		if len(starts) >= FlowStarts && (k >= given || has(k)) {
			continue // past the first FlowStarts only a given start's first
		}
		g := fromNetwork(net)
		sp := sparse[i%len(sparse)]
		key := opt.flowKey(g, sp)
		if seen[key] {
			continue
		}
		seen[key] = true
		same, err := opt.flowNetwork(g)
		if err != nil {
			return nil, err
		}
		if same == nil {
			continue
		}
		p := flowPoint{g: g, net: same, sparse: sp, source: sources[k]}
		if slices.Equal(same.Spec().Cells, net.Spec().Cells) && slices.Equal(same.Outputs(), net.Outputs()) {
			p.res = results[i] // the graph's network is the one measured
		}
		// A carry-select chain measures the networks CarrySelect builds,
		// the start the one measured, whatever cells its graph would give.
		if opt.CarrySelect && (opt.MaxFanout == 0 || net.Figures().MaxFanout <= opt.MaxFanout) {
			if segs, ok := topologies.CarrySelectSegmentsOf(net); ok {
				p.net, p.res, p.segs = net, results[i], segs
			}
		}
		if p.net.Depth() > opt.MaxDepth {
			// Rebuilt on the search's grid (each span from the next
			// shorter one in its column), a start can come out deeper
			// than it was, and than the bound.
			continue
		}
		starts, owner = append(starts, p), append(owner, k)
	}
	// A given start taken past the first FlowStarts replaces the last
	// start that is neither a given network's only one.
	for j := len(starts) - 1; len(starts) > FlowStarts && j >= 0; j-- {
		k := owner[j]
		if k < given && slices.Index(owner, k) == j && slices.IndexFunc(owner[j+1:], func(o int) bool { return o == k }) < 0 {
			continue
		}
		starts, owner = slices.Delete(starts, j, j+1), slices.Delete(owner, j, j+1)
	}
	return starts, nil
}

// flowProgress adds a flow search's stages up into one count for
// Options.Progress: each of the model's searches, then each synthesis of
// the candidates and of the flow-in-the-loop search (physical.Options.
// Progress), every order of a design's gates among them. Its total is the
// count so far and an estimate of what is ahead, which each stage
// corrects as it learns its own. A nil *flowProgress reports nothing.
type flowProgress struct {
	report   func(done, total int)
	done     int  // finished
	ahead    int  // estimated for the stages not yet begun
	finished bool // the search is over
}

// show reports the count, running more being under way; the total is
// more than the count until the search is over (a bar takes a count at
// its total for the end).
func (p *flowProgress) show(running int) {
	if p != nil && p.report != nil {
		total := p.done + running + p.ahead
		if !p.finished {
			total = max(total, p.done+1)
		}
		p.report(p.done, total)
	}
}

// step records one finished of those estimated ahead.
func (p *flowProgress) step() {
	if p == nil {
		return
	}
	p.done++
	p.ahead = max(p.ahead-1, 0)
	p.show(0)
}

// run returns the progress of one physical.Run of the search, whose
// syntheses were estimated among those ahead, and takes them out of the
// estimate: the run counts its own.
func (p *flowProgress) run(estimated int) func(done, total int) {
	if p == nil {
		return nil
	}
	p.ahead = max(p.ahead-estimated, 0)
	base := p.done
	return func(done, total int) {
		if done == 0 {
			return // the run's start: nothing done yet
		}
		p.done = base + done
		p.show(total - done)
	}
}

// finish reports the count as done, the estimate ahead dropped: a search
// may end before its steps are spent.
func (p *flowProgress) finish() {
	if p == nil {
		return
	}
	p.ahead, p.finished = 0, true
	p.show(0)
}
