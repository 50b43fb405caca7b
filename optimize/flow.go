package optimize

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// FlowCandidates is the most networks MinimizeFlow takes through the flow.
const FlowCandidates = 40

// flowLadder are the delay bounds, as multiples of the fastest model delay
// found, under which MinimizeFlow runs the model-aware search.
var flowLadder = []float64{1, 1.05, 1.1, 1.15, 1.2, 1.3}

// FlowResult is what MinimizeFlow found and what the flow measured of it.
type FlowResult struct {
	Result
	// Measured is the flow's result for Result.Network, and NamedMeasured
	// for Result.Named (nil when no named network measured meets the
	// bound); their Adder is the architecture of the adder measured, its
	// sparseness the one of the search's that did best (see
	// MinimizeFlowSparse).
	Measured, NamedMeasured *physical.Result
	// Tried is the number of networks taken through the flow, plus the
	// syntheses of the flow-in-the-loop search (Options.FlowSteps).
	Tried int
	// FlowSteps is the number of syntheses the flow-in-the-loop search
	// ran: Options.FlowSteps, or fewer when under the depth and fan-out
	// bounds its chains found no new neighbour to measure.
	FlowSteps int
}

// MinimizeFlow searches for the network whose adder has the least area
// after synthesis among those whose delay after static timing is at most
// maxNS nanoseconds, both as package physical's flow measures them with
// flow. It gathers candidates (every named network within opt.MaxDepth,
// the constructive search's network at every depth, the model-aware
// search's under the delay objective and under a ladder of model delay
// bounds from the fastest found up), keeps FlowCandidates of them (first
// those no other beats on both the model's area and its delay, then the
// rest, fastest by the model first: the model ranks networks, it does not
// predict the nanoseconds of every flow), adds the radix-3 and radix-4
// Kogge–Stone and Sklansky within the depth as binary cells (the model
// does not rank them; through ABC they are the fastest named adders on
// some libraries), measures them all with the flow,
// and returns the smallest measured within the bound, proven and simulated
// as Minimize's results are. With opt.FlowSteps > 0 it then runs the
// flow-in-the-loop search (package documentation) for that many syntheses
// and returns what it found instead when it is smaller within maxNS, or
// when none of the candidates was within it.
// With flow.Orders > 0 every adder is judged by its median area and delay
// over the orders of its gates (physical.Spread), not by the one draw of
// the adder as written. With flow.Workdir, every run's files are kept
// there only when the whole search succeeds (physical.StageWorkdir).
// opt.MaxDelay and opt.Objective are ignored.
func MinimizeFlow(ctx context.Context, opt Options, maxNS float64, flow physical.Options) (FlowResult, error) {
	return MinimizeFlowSparse(ctx, opt, maxNS, flow, nil)
}

// MinimizeFlowSparse is MinimizeFlow measuring every candidate as the adder
// of every sparseness of sparse (adder.Sparseness, each at most the width;
// nil means dense only): the result is the smallest (network, sparseness)
// within maxNS, and FlowResult.Measured.Adder says which sparseness it
// is, so that gen --from with -f verilog --sparse rebuilds the adder
// measured. Tried counts networks, not adders.
func MinimizeFlowSparse(ctx context.Context, opt Options, maxNS float64, flow physical.Options, sparse []int) (FlowResult, error) {
	return minimizeFlow(ctx, opt, flowGoal{Bound: maxNS}, flow, sparse)
}

// MinimizeFlowDelay is the other question of MinimizeFlowSparse: it
// searches for the adder with the least delay after static timing among
// those whose area after synthesis is at most maxUM2 (in the library's
// area unit, µm² for the OSU cells), from the same candidates, at every
// sparseness of sparse, and with opt.FlowSteps > 0 the same
// flow-in-the-loop search, whose energy is then the delay raised by the
// fraction by which the area passes maxUM2. The FlowCandidates it keeps
// are the smallest by the model first, the zero-deficiency network of
// every depth within opt.MaxDepth among those it chooses from, and it
// measures the three shallowest of those besides, whatever the model
// says of them (flowLeadCandidates). Named is the fastest named
// network within maxUM2. When no adder measured is within maxUM2 the error
// is a *NotFoundError naming the smallest.
func MinimizeFlowDelay(ctx context.Context, opt Options, maxUM2 float64, flow physical.Options, sparse []int) (FlowResult, error) {
	return minimizeFlow(ctx, opt, flowGoal{Bound: maxUM2, Area: true, Shift: latenessShift(flow.Profile)}, flow, sparse)
}

// minimizeFlow is MinimizeFlowSparse and MinimizeFlowDelay.
func minimizeFlow(ctx context.Context, opt Options, goal flowGoal, flow physical.Options, sparse []int) (FlowResult, error) {
	if ctx == nil {
		return FlowResult{}, errNilContext
	}
	if len(sparse) == 0 {
		sparse = []int{1}
	}
	for _, s := range sparse {
		if !slices.Contains(adder.Sparseness, s) || s > opt.Width {
			return FlowResult{}, fmt.Errorf("optimize: sparseness %d out of range: allowed %v, at most the width %d", s, adder.Sparseness, opt.Width)
		}
	}
	if !(goal.Bound > 0) || math.IsInf(goal.Bound, 0) {
		if goal.Area {
			return FlowResult{}, fmt.Errorf("optimize: max area %g out of range: allowed a positive number", goal.Bound)
		}
		return FlowResult{}, fmt.Errorf("optimize: max delay %g ns out of range: allowed a positive number", goal.Bound)
	}
	if opt.FlowSteps < 0 || opt.FlowSteps > MaxFlowSteps {
		return FlowResult{}, fmt.Errorf("optimize: flow steps %d out of range: allowed 0 to %d", opt.FlowSteps, MaxFlowSteps)
	}
	opt.MaxDelay, opt.Objective = 0, Cells
	if err := Check(opt); err != nil {
		return FlowResult{}, err
	}
	for i, net := range opt.Start {
		for _, sp := range sparse {
			if opt.adder().Stages == 0 {
				break
			}
			if err := opt.adderAt(sp).Check(net); err != nil {
				// The adder's own reason: a sparse adder's carry tree
				// is shallower than its network.
				return FlowResult{}, infeasible("optimize: %s, of depth %d, as the adder of sparseness %d: %s", startName(i, net), net.Depth(), sp, strings.TrimPrefix(err.Error(), "adder: "))
			}
		}
	}
	n, depth := opt.Width, opt.MaxDepth
	var starts []scored
	startKeys := map[string]bool{}
	for i, net := range opt.Start { // within the bounds: Check
		key := netKey(net)
		if startKeys[key] {
			continue
		}
		startKeys[key] = true
		name := "the " + startName(i, net)
		starts = append(starts, score(candidate{net: net, figs: net.Figures(), source: name}, opt))
	}
	var pool []scored
	add := func(c candidate) {
		if c.figs.Depth > depth || !opt.pipelines(c.net, sparse) {
			return
		}
		if !c.fits(opt) {
			more := limitFanout(c.net, opt.MaxFanout)
			if more == nil {
				return
			}
			c = candidate{net: more, figs: more.Figures(), source: c.source + ", cells copied to bound the fan-out"}
			if !opt.pipelines(c.net, sparse) {
				return
			}
		}
		pool = append(pool, score(c, opt))
	}
	named, leading := flowCandidates(n, depth, goal.Area, opt.adder().FACells || opt.CarrySelect)
	for _, c := range named[:len(named)-len(leading)] {
		add(c)
	}
	// The lead candidates are measured whatever the model says of them:
	// they come first after the starts.
	before := len(pool)
	for _, c := range leading {
		add(c)
	}
	leadPool := slices.Clone(pool[before:])
	pool = pool[:before]
	for d := ceilLog2(n); d <= min(depth, maxSolverDepth); d++ {
		for _, c := range constructiveCandidates(n, d, opt.MaxFanout, nil) {
			add(c)
		}
	}
	// The model's searches, then the candidates' syntheses, then the
	// flow-in-the-loop search's.
	prog := &flowProgress{report: opt.Progress, ahead: len(flowLadder) + 1 + opt.FlowSteps*(flow.Orders+1)}
	prog.show(0) // the estimate, before the first search ends
	search := opt
	search.Progress = nil
	search.Objective = Delay
	fast, err := minimizeModel(ctx, search)
	if err != nil {
		return FlowResult{}, err
	}
	prog.step()
	add(candidate{net: fast.Network, figs: fast.Figures, source: fast.Source + " (delay objective)"})
	search.Objective = Cells
	// The ladder's bounds are the fastest's delay times a little more
	// than 1. Under a profile a delay is a lateness, 0 or below where
	// every output is early, where such bounds mean nothing: the ladder
	// climbs from the lateness shifted above 0 (every required time made
	// earlier by latenessShift), which ranks the networks the same.
	offset := 0.0 // FO4 the shift adds
	if fast.Model.FO4 <= 0 && opt.Profile != nil {
		shifted := *opt.Profile
		c := latenessShift(opt.Profile)
		shifted.Required = make([]float64, n+1)
		for i := range shifted.Required {
			if opt.Profile.Required != nil {
				shifted.Required[i] = opt.Profile.Required[i]
			}
			shifted.Required[i] -= c
		}
		search.Profile = &shifted
		offset = search.analyze(fast.Network).FO4 - fast.Model.FO4
	}
	for _, f := range flowLadder {
		search.MaxDelay = (fast.Model.FO4 + offset) * f
		if r, err := minimizeModel(ctx, search); err == nil {
			add(candidate{net: r.Network, figs: r.Figures, source: fmt.Sprintf("%s (model delay ≤ %.2f FO4)", r.Source, search.MaxDelay-offset)})
		} else if ctx.Err() != nil {
			return FlowResult{}, fmt.Errorf("optimize: %w", ctx.Err())
		}
		prog.step()
	}

	// Distinct and not a start; the model's area–delay front first, then
	// by model delay.
	var distinct, leadKeep []scored
	seen := maps.Clone(startKeys)
	for _, s := range leadPool {
		key := netKey(s.net)
		if !seen[key] {
			seen[key] = true
			leadKeep = append(leadKeep, s)
		}
	}
	for _, s := range pool {
		key := netKey(s.net)
		if !seen[key] {
			seen[key] = true
			distinct = append(distinct, s)
		}
	}
	// Under a delay bound the fastest come first, under an area bound the
	// smallest: the end of the front nearest the bound.
	lead, other := func(s scored) float64 { return s.model.Tau }, func(s scored) float64 { return s.model.Area }
	if goal.Area {
		lead, other = other, lead
	}
	slices.SortStableFunc(distinct, func(a, b scored) int {
		if goal.Area { // many networks share an area: the faster first
			return cmp.Or(cmpFloat(lead(a), lead(b)), cmpFloat(other(a), other(b)))
		}
		return cmpFloat(lead(a), lead(b))
	})
	var keep, rest []scored
	least := math.Inf(1)
	for _, s := range distinct {
		// Sorted by one figure, a network is on the front when it is
		// better in the other than every network before it.
		if other(s) < least {
			least = other(s)
			keep = append(keep, s)
		} else {
			rest = append(rest, s)
		}
	}
	keep = append(keep, rest...)
	if len(keep) > FlowCandidates {
		keep = keep[:FlowCandidates]
	}
	keep = append(append(starts, leadKeep...), keep...)
	if len(keep) == 0 {
		return FlowResult{}, &NotFoundError{fmt.Sprintf("optimize: no network of width %d and depth ≤ %d found has an adder deep enough for %d register stages at sparseness %v: allowed fewer stages, or a deeper bound", n, depth, opt.adder().Stages, sparse)}
	}
	// Adder j measures network j/len(sparse) at sparseness
	// sparse[j%len(sparse)].
	designs := make([]*physical.Design, 0, len(keep)*len(sparse))
	for _, s := range keep {
		for _, sp := range sparse {
			d, err := physical.ArchitectureDesign(s.net, opt.adderAt(sp), opt.Cells)
			if err != nil {
				return FlowResult{}, fmt.Errorf("optimize: %w", err)
			}
			designs = append(designs, d)
		}
	}
	// The candidates' runs and the search's keep their files in the work
	// folder only when the whole search succeeds.
	flow, commit, remove, err := physical.StageWorkdir(flow)
	if err != nil {
		return FlowResult{}, err
	}
	defer remove()
	candidates := flow
	candidates.Progress = prog.run(0)
	results, err := physical.Run(ctx, designs, candidates)
	if err != nil {
		return FlowResult{}, err
	}
	// closest is the adder nearest the bound: the fastest under a delay
	// bound, the smallest under an area bound.
	best, bestNamed, closest := -1, -1, 0
	// A named network is named by its cells: a start that is one (a
	// family's network written to a file) stands for it.
	namedBy := map[string]*network.Network{}
	for _, c := range named {
		if key := netKey(c.net); namedBy[key] == nil {
			namedBy[key] = c.net
		}
	}
	isNamed := func(s scored) bool { return namedBy[netKey(s.net)] != nil }
	for i, r := range results {
		if goal.bounded(r) < goal.bounded(results[closest]) {
			closest = i
		}
		if !goal.within(r) {
			continue
		}
		if best < 0 || betterFlow(r, results[best], goal) {
			best = i
		}
		if isNamed(keep[i/len(sparse)]) && (bestNamed < 0 || betterFlow(r, results[bestNamed], goal)) {
			bestNamed = i
		}
	}
	tried := len(keep)
	var found, nearest *flowPoint
	flowSteps := 0
	if opt.FlowSteps > 0 {
		nets := make([]*network.Network, len(keep))
		sources := make([]string, len(keep))
		for i, s := range keep {
			nets[i], sources[i] = s.net, s.source
		}
		// keep begins with the user's starts.
		points, err := flowStarts(opt, nets, sources, sparse, results, goal, len(starts))
		if err != nil {
			return FlowResult{}, err
		}
		p, near, steps, err := searchFlow(ctx, opt, goal, flow, points, opt.FlowSteps, prog)
		if err != nil {
			return FlowResult{}, err
		}
		tried += steps
		flowSteps = steps
		if p != nil && goal.within(p.res) && (best < 0 || betterFlow(p.res, results[best], goal)) {
			found = p
		}
		if near != nil && goal.bounded(near.res) < goal.bounded(results[closest]) {
			nearest = near
		}
	}
	prog.finish()
	if best < 0 && found == nil {
		near, nearRes := keep[closest/len(sparse)].source, results[closest]
		sp := sparse[closest%len(sparse)]
		if nearest != nil {
			// The search came nearer than any candidate.
			near, nearRes, sp = "the flow-in-the-loop search's adder from "+nearest.source, nearest.res, nearest.sparse
		}
		if sp > 1 {
			near += fmt.Sprintf(" as the sparse-%d adder", sp)
		}
		of := fmt.Sprintf("optimize: of %d networks of width %d measured", tried, n)
		if tried == 1 {
			of = fmt.Sprintf("optimize: of 1 network of width %d measured", n)
		}
		if goal.Area {
			return FlowResult{}, &NotFoundError{fmt.Sprintf("%s, none has an area ≤ %g µm²: the smallest, %s, has %s µm²", of, goal.Bound, near, strconv.FormatFloat(physical.RoundUM2(measuredArea(nearRes)), 'f', -1, 64))}
		}
		return FlowResult{}, &NotFoundError{fmt.Sprintf("%s, none has a delay ≤ %g ns: the fastest, %s, takes %s ns", of, goal.Bound, near, strconv.FormatFloat(measuredDelay(nearRes), 'f', -1, 64))}
	}
	var (
		bestNet  *network.Network
		measured *physical.Result
		source   string
	)
	if found != nil {
		bestNet, measured = found.net, found.res
		source = fmt.Sprintf("the flow-in-the-loop search from %s", found.source)
		if found.sparse > 1 {
			source += fmt.Sprintf(" as the sparse-%d adder", found.sparse)
		}
	} else {
		bestNet, measured = keep[best/len(sparse)].net, results[best]
		source = keep[best/len(sparse)].source + ", measured by the flow"
	}
	net, err := finish(bestNet, opt)
	if err != nil {
		return FlowResult{}, err
	}
	// A copy: the network may be the best named one too (NamedMeasured),
	// whose name stays its own.
	renamed := *measured
	res := FlowResult{Measured: &renamed, Tried: tried, FlowSteps: flowSteps}
	res.LowerBound = max(2*n-2-depth, n-1)
	res.Network, res.Figures, res.Source = net, net.Figures(), source
	res.Model = score(candidate{net: net, figs: res.Figures}, opt).model
	if bestNamed >= 0 {
		res.Named, res.NamedModel, res.NamedMeasured = namedBy[netKey(keep[bestNamed/len(sparse)].net)], keep[bestNamed/len(sparse)].model, results[bestNamed]
	}
	// The flow measured the network before finish named it the
	// optimizer's; the cells are the same.
	res.Measured.Topology, res.Measured.Params = net.Topology(), net.Params()
	if err := commit(); err != nil {
		return FlowResult{}, err
	}
	return res, nil
}

// netKey names a network by its cells and outputs: two networks of one
// key are one network, whatever each is called.
func netKey(net *network.Network) string { return fmt.Sprint(net.Spec().Cells, net.Outputs()) }

// flowLeadCandidates are the networks the flow measures whatever the model
// says of them: the radix-k networks (the model counts their binary
// levels, and through ABC they are the fastest named adders on some
// libraries), and within an area (area) the shallowest zero-deficiency
// networks, the fastest of the networks smallest for their depth, which
// some libraries map nearly as small as the deepest while the model ranks
// them far larger (Nangate45 at 128 bits through abc). With full-adder
// cells or Options.CarrySelect (cs) the carry-select networks come first
// (carrySelectCandidates).
func flowLeadCandidates(n, depth int, area, cs bool) []candidate {
	out := radixCandidates(n, depth)
	if cs {
		out = append(carrySelectCandidates(n, depth), out...)
	}
	if !area {
		return out
	}
	lo := topologies.ZeroDeficiencyDepth(n)
	return append(out, zeroDeficiencyCandidates(n, lo, lo+2, depth)...)
}

// carrySelectCandidates are the carry-select networks (topologies'
// carry-select family) within depth. First those of two segments, the
// lower one of every length from half the width up (growth 0): with full
// adders the chains of a segment are the smallest logic there is, and the
// upper segment's two cost area that the shorter lower chain pays back in
// delay, so that the split trades one for the other (docs/libraries.md).
// Above 128 bits the lengths step so that there are at most
// maxCarrySelect of them. Then those of three segments or more that grow
// by one or two bits from the first, the square-root carry-select adders:
// the carry into each segment arrives as its own chains finish, and they
// reach delays that two segments reach only with far more area.
func carrySelectCandidates(n, depth int) []candidate {
	var out []candidate
	add := func(first, grow int) {
		net, err := topologies.Build("carry-select", n, network.Params{"l": first, "g": grow})
		if err != nil || net.Depth() > depth {
			return
		}
		out = append(out, candidate{net: net, figs: net.Figures(), source: fmt.Sprintf("carry-select l=%d g=%d", first, grow)})
	}
	step := max(1, (n/2+maxCarrySelect-1)/maxCarrySelect)
	for lo := n - 1; lo >= (n+1)/2; lo -= step {
		add(lo, 0)
	}
	// The first segment from 2 bits to about √(2n), the length at which
	// segments growing by one take n bits in as many segments, in at most
	// maxGrowingCarrySelect/2 steps for each growth.
	longest := int(math.Ceil(math.Sqrt(2 * float64(n))))
	step = max(1, (longest-1+maxGrowingCarrySelect/2-1)/(maxGrowingCarrySelect/2))
	for _, grow := range []int{1, 2} {
		for first := 2; first <= longest; first += step {
			if len(topologies.CarrySelectSegments(n, first, grow)) >= 3 {
				add(first, grow)
			}
		}
	}
	return out
}

// maxCarrySelect is the most carry-select networks of two segments a flow
// search measures: every split at 128 bits; maxGrowingCarrySelect the
// most of growing segments.
const (
	maxCarrySelect        = 64
	maxGrowingCarrySelect = 32
)

// flowCandidates returns the named networks the flow's searches measure,
// those of flowNamedCandidates followed by lead, those of
// flowLeadCandidates. The search knows a named network by its value, so
// lead's networks are the same values in both.
func flowCandidates(n, depth int, area, cs bool) (named, lead []candidate) {
	lead = flowLeadCandidates(n, depth, area, cs)
	return append(flowNamedCandidates(n, depth, area), lead...), lead
}

// adder returns the architecture of the adders the flow measures,
// adder.Standard for a nil Adder.
func (opt Options) adder() adder.Architecture {
	if opt.Adder == nil {
		return adder.Standard
	}
	return *opt.Adder
}

// adderAt returns the architecture of the adder the flow measures around
// a network at sparseness sp. A dense adder has no blocks: carry-increment
// blocks (Increment) are the sparse adders' only.
func (opt Options) adderAt(sp int) adder.Architecture {
	a := opt.adder()
	a.Sparse = sp
	if sp == 1 {
		a.Increment = false
	}
	return a
}

// pipelines reports whether the adder around net takes the register stages
// of opt.Adder at every sparseness of sparse: its carry tree at least
// Stages − 1 levels deep. Every adder takes none.
func (opt Options) pipelines(net *network.Network, sparse []int) bool {
	if opt.adder().Stages == 0 {
		return true
	}
	for _, sp := range sparse {
		if opt.adderAt(sp).Check(net) != nil {
			return false
		}
	}
	return true
}

// cmpFloat orders two floats.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
