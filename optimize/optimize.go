package optimize

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// MaxWidth is the widest network Minimize searches.
const MaxWidth = 1024

// MaxAnnealWidth is the widest network the annealing chains improve: their
// graph holds a column of spans in 256 bits. Wider networks come from the
// named families and the constructive search alone, which then plans at
// most one level above the least depth (⌈log2 n⌉ + 1), so that a search
// at 1024 inputs takes about 17 times one at 256 inputs and depth 8, at any
// depth bound (BenchmarkWidths).
const MaxAnnealWidth = 256

// Topology is the topology name the networks of Minimize carry.
const Topology = "optimizer"

// DefaultChains is the number of annealing chains Minimize runs when
// Options.Chains is 0.
const DefaultChains = 8

// Options are the bounds and settings of Minimize.
type Options struct {
	// Width is the number of inputs, 1 ≤ Width ≤ MaxWidth.
	Width int
	// MaxDepth bounds the depth; it must be at least ⌈log2 Width⌉.
	MaxDepth int
	// MaxFanout, when positive, bounds the logical fan-out of every signal
	// (the cells that read it, plus one if it is an output). 0 leaves the
	// fan-out free.
	MaxFanout int
	// Seed seeds the annealing chains: the same options give the same
	// network, whose parameters (ints) record it; at most math.MaxInt.
	Seed uint64
	// Steps is the number of moves of each annealing chain; 0 picks 500
	// times the width, and a negative number runs no annealing.
	Steps int
	// Chains is the number of annealing chains, run in parallel on every
	// core; 0 picks DefaultChains. The result does not depend on the number
	// of cores.
	Chains int
	// Progress, when not nil, is called with the steps done and the total,
	// from Minimize's goroutine: first with none done, then after each
	// constructive search and each annealing chain. In the flow
	// searches (MinimizeFlow and its kin) it counts each of the model's
	// searches and then each synthesis, every order of a design's gates
	// among them, one call at a time; the total is an estimate, which
	// moves as the search learns how many it will make.
	Progress func(done, total int)
	// MaxDelay, when positive, bounds the delay of the adder around the
	// network as package delay's model gives it on Model's cells, in FO4
	// delays.
	MaxDelay float64
	// Model is the library the delay model stands on (delay.Calibrate
	// measures one from a Liberty library); nil means delay.OSU018. The
	// flow searches rank their candidates by it.
	Model *delay.Library
	// Profile, when not nil, is the timing the adder meets in its design
	// (delay.Profile: when each bit arrives, when each output is needed):
	// the model's delay is then the worst lateness, and MaxDelay and the
	// delay objective bound and lower it. It must pass Profile.Check for
	// Width.
	Profile *delay.Profile
	// Objective is what Minimize makes least: Cells (the default) or
	// Delay. With MaxDelay or Delay the search scores every network by the
	// delay model (see the package documentation).
	Objective Objective
	// FlowSteps is the number of syntheses of the flow-in-the-loop search
	// that MinimizeFlow and MinimizeFlowSparse run after measuring their
	// candidates (see MinimizeFlowSparse); 0 runs none, and so do widths
	// above MaxAnnealWidth, whose spans the search's grid cannot hold.
	// Minimize ignores it.
	FlowSteps int
	// Adder is the architecture of every adder MinimizeFlow,
	// MinimizeFlowSparse and MinimizeFlowDelay measure, its sparseness
	// replaced by each one they try (their sparse argument) and its
	// carry-increment blocks (Increment) left out of the dense adders,
	// which have no blocks; nil means adder.Standard. With Ling they
	// measure Ling's pseudo-carries; with PGCells each bit's generate and
	// propagate as Cells; with FACells the bits a network adds one at a
	// time as Cells' full adder, and the two-segment carry-select networks
	// (topologies.CarrySelect) among the candidates they measure whatever
	// the model says; with Valency k,
	// gates of up to k inputs where a network chains spans (the radix-k
	// candidates then measure as topologies.Valency's adders); with Stages,
	// adders pipelined with that many register stages at balanced levels,
	// their delay the least clock period and their area the flip-flops'
	// too, leaving out the candidates whose carry tree is too shallow for
	// them (depth Stages − 2 or less). Minimize ignores it.
	Adder *adder.Architecture
	// Cells are the library cells of an Adder with PGCells or FACells
	// (physical.LibraryCells). Minimize ignores them.
	Cells *adder.Cells
	// Start are networks of the width that MinimizeFlow, MinimizeFlowSparse
	// and MinimizeFlowDelay measure besides their candidates, always (they
	// do not count against FlowCandidates), and each of which starts a
	// chain of the flow search (with FlowSteps > 0), within the bound or
	// not: a network an earlier search found, to go on from it. Each must
	// be within MaxDepth and MaxFanout. Minimize ignores it.
	Start []*network.Network
	// CarrySelect puts the carry-select networks (topologies.CarrySelect)
	// among the candidates MinimizeFlow, MinimizeFlowSparse and
	// MinimizeFlowDelay measure whatever the model says, as FACells does,
	// and makes every chain of their flow search that starts from a
	// carry-select network, a candidate or a Start, move bits between its
	// segments in most of its trials (a bit from a segment to another, a
	// segment split in two, two merged, a segment moved), so that it stays a
	// carry-select adder of other lengths; its other trials move spans as
	// from any network. Minimize ignores it.
	CarrySelect bool
}

// Result is the network Minimize found and how it compares.
type Result struct {
	// Network is the smallest network found. It carries the topology name
	// "optimizer" and the parameters max_depth, max_fanout (when bounded)
	// and seed.
	Network *network.Network
	// Figures are its figures; Figures.Deficiency is its distance to
	// Snir's bound.
	Figures network.Figures
	// Source says where the network came from: the constructive search, a
	// named family, and whether annealing improved it.
	Source string
	// LowerBound is Snir's lower bound on the size of a network of width n
	// and depth at most MaxDepth: 2n − 2 − MaxDepth, and never below n − 1.
	// Size equal to LowerBound proves the network optimal; below the least
	// depth of a zero-deficiency network no network meets it (at n = 32,
	// depth 5, the bound is 57 and the least size 74).
	LowerBound int
	// Named is the smallest network of the named families of package
	// topologies within the bounds as they are built, or nil if none is;
	// under MaxDelay or Delay, the best of them by the objective.
	Named *network.Network
	// Model and NamedModel are what the delay model says of Network and
	// Named.
	Model, NamedModel delay.Report
}

// InfeasibleError reports bounds that no network meets, or that Minimize
// could not meet, naming the least bound that can be met.
type InfeasibleError struct{ msg string }

// Error returns the one-line message.
func (e *InfeasibleError) Error() string { return e.msg }

func infeasible(format string, args ...any) error {
	return &InfeasibleError{msg: fmt.Sprintf(format, args...)}
}

// ceilLog2 returns ⌈log2 n⌉ for n ≥ 1.
func ceilLog2(n int) int { return bits.Len(uint(n - 1)) }

// LeastFanout returns the least fan-out bound that some network of width n
// (1 ≤ n ≤ MaxWidth) and depth at most depth (≥ ⌈log2 n⌉) meets, exactly:
//
//   - 1 for n = 1: input 0 is the only output and feeds nothing.
//   - 2 for n = 2, and for every n where depth ≥ n − 1: ripple.
//   - 3 otherwise.
//
// Fan-out 2 forces ripple: input 0 is output 0, so it feeds one cell, which
// can only be the one signal spanning [0, 1] (every such signal reads input
// 0); that signal is output 1 and feeds one cell, which can only be the one
// spanning [0, 2], and so on: the prefixes form a chain of depth n − 1, and
// no other cell can reach an output. Fan-out 1 leaves input 0 no reader,
// so only n = 1 meets it. Fan-out 3 is met at the least depth, ⌈log2 n⌉, by
// Sklansky's or Kogge–Stone's network with cells copied (limitFanout) for
// every n from 3 to MaxWidth, which TestLeastFanoutMet checks one by one;
// Minimize tries both, so under a bound of at least LeastFanout it finds a
// network.
func LeastFanout(n, depth int) int {
	switch {
	case n <= 1:
		return 1
	case n == 2 || depth >= n-1:
		return 2
	}
	return 3
}

// Check reports whether the options ask for something possible: a width in
// 1…MaxWidth, a depth of at least ⌈log2 n⌉, a fan-out bound of at least
// LeastFanout at that depth, and start networks of the width within the
// bounds. Its errors name what is allowed; the bounds no
// network meets are *InfeasibleError.
func Check(opt Options) error {
	n := opt.Width
	switch {
	case n < 1 || n > MaxWidth:
		return fmt.Errorf("optimize: width %d out of range: allowed 1…%d", n, MaxWidth)
	case opt.MaxDelay < 0 || math.IsNaN(opt.MaxDelay) || math.IsInf(opt.MaxDelay, 0):
		return fmt.Errorf("optimize: max delay %g out of range: allowed 0 (no bound) or a positive number of FO4 delays", opt.MaxDelay)
	case opt.Seed > math.MaxInt:
		return fmt.Errorf("optimize: seed %d out of range: allowed 0 to %d, which the network's parameters record", opt.Seed, math.MaxInt)
	case opt.Objective != Cells && opt.Objective != Delay:
		return fmt.Errorf("optimize: unknown objective %d: allowed Cells, Delay", opt.Objective)
	case opt.MaxDepth < ceilLog2(n):
		return infeasible("optimize: no network of width %d has depth %d or less: the least depth is ⌈log2 %d⌉ = %d", n, opt.MaxDepth, n, ceilLog2(n))
	case opt.MaxFanout < 0:
		return fmt.Errorf("optimize: max fan-out %d out of range: allowed 0 (no bound), or %d or more at width %d and depth ≤ %d", opt.MaxFanout, LeastFanout(n, opt.MaxDepth), n, opt.MaxDepth)
	case opt.adder().Stages < 0:
		return fmt.Errorf("optimize: %d register stages out of range: allowed 0 (combinational) or more", opt.adder().Stages)
	case opt.adder().Stages-1 > opt.MaxDepth:
		return infeasible("optimize: no adder of depth %d or less takes %d register stages: allowed 1 to %d (the depth + 1), or a deeper bound", opt.MaxDepth, opt.adder().Stages, opt.MaxDepth+1)
	case opt.adder().NoReset && opt.adder().Stages == 0:
		return errors.New("optimize: no reset asked for a combinational adder: allowed with register stages only")
	}
	if err := opt.Profile.Check(n); err != nil {
		return fmt.Errorf("optimize: %s", strings.TrimPrefix(err.Error(), "delay: "))
	}
	if opt.MaxDelay > 0 && n <= 2 {
		// Widths 1 and 2 have one network each (no cell, or the cell
		// [0,1]): a bound below its delay is one no network meets.
		only, err := topologies.Build("ripple", n, nil)
		if err != nil {
			return err
		}
		// The search keeps a network within 1e-9 of the bound.
		if fo4 := opt.analyze(only).FO4; opt.MaxDelay+1e-9 < fo4 {
			return infeasible("optimize: no network of width %d has a model delay ≤ %v FO4: the only one takes %.3f FO4; allowed a bound of %.2f FO4 or more", n, opt.MaxDelay, fo4, math.Ceil(fo4*100)/100)
		}
	}
	for i, net := range opt.Start {
		fig := net.Figures()
		name := startName(i, net)
		switch {
		case fig.Width != n:
			return fmt.Errorf("optimize: %s has width %d: allowed only the width searched, %d", name, fig.Width, n)
		case fig.Depth > opt.MaxDepth:
			return fmt.Errorf("optimize: %s has depth %d, above the depth bound %d: allowed a start of depth ≤ %d, or --max-depth %d or more", name, fig.Depth, opt.MaxDepth, opt.MaxDepth, fig.Depth)
		case opt.MaxFanout > 0 && fig.MaxFanout > opt.MaxFanout:
			return fmt.Errorf("optimize: %s has fan-out %d, above the fan-out bound %d: allowed a start of fan-out ≤ %d, or --max-fanout %d or more", name, fig.MaxFanout, opt.MaxFanout, opt.MaxFanout, fig.MaxFanout)
		}
	}
	f := opt.MaxFanout
	if f == 0 || f >= LeastFanout(n, opt.MaxDepth) {
		return nil
	}
	if f == 1 {
		return infeasible("optimize: no network of width %d has fan-out 1: input 0 is output 0 and feeds a cell; allowed --max-fanout %d or more at depth %d", n, LeastFanout(n, opt.MaxDepth), opt.MaxDepth)
	}
	return infeasible("optimize: no network of width %d, depth ≤ %d has fan-out ≤ 2: fan-out 2 forces ripple, of depth %d; allowed --max-fanout 3 or more at depth %d, or --max-depth %d for ripple", n, opt.MaxDepth, n-1, opt.MaxDepth, n-1)
}

// NotFoundError reports bounds that some network meets but Minimize found
// none within: a result, not bad input. LeastFanout says this cannot happen
// for the widths Minimize takes; the error is there so that it would be
// reported truthfully if it did.
type NotFoundError struct{ msg string }

// Error returns the one-line message.
func (e *NotFoundError) Error() string { return e.msg }

// candidate is a network and where it came from.
type candidate struct {
	net    *network.Network
	figs   network.Figures
	source string
}

// fits reports whether c is within the bounds.
func (c candidate) fits(opt Options) bool {
	return c.figs.Depth <= opt.MaxDepth && (opt.MaxFanout == 0 || c.figs.MaxFanout <= opt.MaxFanout)
}

// errNilContext refuses a nil context, which the searches' workers would
// otherwise dereference out of the caller's reach.
var errNilContext = errors.New("optimize: nil context: allowed a context such as context.Background()")

// better orders candidates: smaller, then shallower, then lower fan-out;
// ties keep the earlier.
func better(a, b candidate) bool {
	if a.figs.Size != b.figs.Size {
		return a.figs.Size < b.figs.Size
	}
	if a.figs.Depth != b.figs.Depth {
		return a.figs.Depth < b.figs.Depth
	}
	return a.figs.MaxFanout < b.figs.MaxFanout
}

// Minimize searches for the smallest network of width opt.Width with depth
// at most opt.MaxDepth and, if opt.MaxFanout > 0, fan-out at most
// opt.MaxFanout. It starts from the best of the named families and of a
// constructive search (see the package documentation), improves that by
// annealing chains run on every core, and returns the smallest network met,
// validated again from its description and checked by simulation.
func Minimize(ctx context.Context, opt Options) (Result, error) {
	if ctx == nil {
		return Result{}, errNilContext
	}
	if err := Check(opt); err != nil {
		return Result{}, err
	}
	if opt.modelAware() {
		return minimizeModel(ctx, opt)
	}
	n, depth := opt.Width, opt.MaxDepth
	res := Result{LowerBound: max(2*n-2-depth, n-1)}

	steps := &stepper{report: opt.Progress}
	steps.plan(len(searchLimits(opt.MaxFanout, n)))
	named := namedCandidates(n, depth)
	all := slices.Concat(named, constructiveCandidates(n, depth, opt.MaxFanout, steps.step))
	var best, start *candidate
	leastFanout := 0
	for i, c := range all {
		if c.figs.Depth > depth {
			continue
		}
		if leastFanout == 0 || c.figs.MaxFanout < leastFanout {
			leastFanout = c.figs.MaxFanout
		}
		if !c.fits(opt) {
			if more := limitFanout(c.net, opt.MaxFanout); more != nil {
				c = candidate{net: more, figs: more.Figures(), source: c.source + ", cells copied to bound the fan-out"}
			}
		}
		if !c.fits(opt) {
			continue
		}
		copied := c.figs.Size != all[i].figs.Size
		if i < len(named) && !copied && (res.Named == nil || better(c, candidate{net: res.Named, figs: res.Named.Figures()})) {
			res.Named = c.net
		}
		if best == nil || better(c, *best) {
			best = &c
		}
		if !copied && (start == nil || better(c, *start)) {
			// A network without copies can start the annealing.
			start = &c
		}
	}

	if best == nil || best.figs.Size > res.LowerBound {
		if _, chains, ok := opt.annealBudget(500); ok {
			opt.Progress = steps.chains(chains)
		}
		found, err := annealAll(ctx, opt, start, all)
		if err != nil {
			return Result{}, err
		}
		if found != nil && (best == nil || better(*found, *best)) {
			best = found
		}
	}
	if best == nil {
		return Result{}, &NotFoundError{fmt.Sprintf("optimize: found no network of width %d with depth ≤ %d and fan-out ≤ %d (the least fan-out of the networks it tried at that depth is %d)", n, depth, opt.MaxFanout, leastFanout)}
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

// ModelDepth is the depth bound Minimize is given by the optimize command
// under a delay bound or the delay objective when none is asked:
// 2⌈log2 n⌉, at least 1.
func ModelDepth(n int) int { return max(2*ceilLog2(max(n, 1)), 1) }

// AreaDepth is the depth bound the optimize command gives MinimizeFlowDelay
// when none is asked, and MinimizeFlow with full adders (adder.FACells):
// every network of width n (depth n − 1, ripple's), or ModelDepth where
// that is more. Within an area bound the smallest adders are the deepest
// networks (Snir's bound: size ≥ 2n − 2 − depth), and ModelDepth would
// leave them out of the search; with full adders a chain is nearly as
// fast as a level of gates, and the carry-select networks are deep.
func AreaDepth(n int) int { return max(n-1, ModelDepth(n)) }

// finish describes the network as the optimizer's, proves it again from its
// plain description, and checks it by simulation: over the interval monoid,
// over 2×2 matrices and as an adder against math/big.
func finish(net *network.Network, opt Options) (*network.Network, error) {
	spec := net.Spec()
	spec.Topology = Topology
	spec.Params = network.Params{"max_depth": opt.MaxDepth}
	if opt.MaxFanout > 0 {
		spec.Params["max_fanout"] = opt.MaxFanout
	}
	spec.Params["seed"] = int(opt.Seed) // Check: at most math.MaxInt
	out, err := network.New(spec)
	if err != nil {
		return nil, fmt.Errorf("optimize: the network found is not valid, a bug in package optimize: %w", err)
	}
	f := out.Figures()
	if f.Depth > opt.MaxDepth || opt.MaxFanout > 0 && f.MaxFanout > opt.MaxFanout {
		return nil, fmt.Errorf("optimize: the network found has depth %d and fan-out %d, beyond the bounds, a bug in package optimize", f.Depth, f.MaxFanout)
	}
	r, err := simulate.Verify(out, simulate.VerifyOptions{Vectors: 1000, Seed: opt.Seed})
	if err != nil {
		return nil, fmt.Errorf("optimize: %w", err)
	}
	if !r.OK() {
		return nil, fmt.Errorf("optimize: the network found fails simulation, a bug in package optimize: %s", r.Failure())
	}
	return out, nil
}

// namedCandidates builds every named family at every parameter setting that
// can meet the depth: all of them at the width, in a fixed order.
func namedCandidates(n, depth int) []candidate {
	levels := ceilLog2(n)
	var out []candidate
	try := func(name string, p network.Params) {
		net, err := topologies.Build(name, n, p)
		if err != nil {
			return
		}
		if net.Depth() > depth {
			return
		}
		source := name
		for _, q := range sortedKeys(p) {
			source += fmt.Sprintf(" %s=%d", q, p[q])
		}
		out = append(out, candidate{net: net, figs: net.Figures(), source: source})
	}
	for _, name := range []string{"ripple", "kogge-stone", "brent-kung", "sklansky", "han-carlson"} {
		try(name, nil)
	}
	for k := 0; k <= levels; k++ {
		try("ladner-fischer", network.Params{"k": k})
	}
	for s := range 1 << max(levels-1, 0) {
		try("knowles", network.Params{"s": s})
	}
	for l := 0; l < max(levels, 1); l++ {
		for f := 0; l+f <= max(levels-1, 0); f++ {
			try("harris", network.Params{"l": l, "f": f})
		}
	}
	lo := topologies.ZeroDeficiencyDepth(n)
	for d := lo; d <= min(depth, n-1); d++ {
		if d > lo+2 && d < depth {
			continue // between, each is larger than the one at depth
		}
		try("zero-deficiency", network.Params{"d": d})
	}
	return out
}

// flowNamedCandidates are the named networks the flow's searches measure:
// namedCandidates, and within an area bound (area) the zero-deficiency
// networks of every depth between too. Each is the smallest network of
// its depth (Snir's bound), so together they are the trade-off between
// size and depth that an area bound cuts, and the smallest adders of
// all; namedCandidates leaves them out because under a depth bound each
// is larger than the one at the bound.
func flowNamedCandidates(n, depth int, area bool) []candidate {
	out := namedCandidates(n, depth)
	if !area {
		return out
	}
	lo := topologies.ZeroDeficiencyDepth(n)
	return append(out, zeroDeficiencyCandidates(n, lo+3, depth-1, depth)...)
}

// zeroDeficiencyCandidates are the zero-deficiency networks of width n and
// of every depth from one to the other, those within depth.
func zeroDeficiencyCandidates(n, from, to, depth int) []candidate {
	var out []candidate
	for d := from; d <= min(to, n-1); d++ {
		net, err := topologies.Build("zero-deficiency", n, network.Params{"d": d})
		if err != nil || net.Depth() > depth {
			continue
		}
		out = append(out, candidate{net: net, figs: net.Figures(), source: fmt.Sprintf("zero-deficiency d=%d", d)})
	}
	return out
}

// radixCandidates builds the radix-3 and radix-4 networks of
// topologies.Valency that can meet the depth, as binary cells: through
// ABC a valency-k cell maps as its chain of binary cells would, and on
// Nangate45 and ASAP7 these are the fastest named adders
// (docs/libraries.md). The flow searches measure them; the model, which
// counts the binary cells' levels, does not rank them.
func radixCandidates(n, depth int) []candidate {
	var out []candidate
	for k := 3; k <= topologies.MaxValency; k++ {
		for _, name := range topologies.ValencyFamilies {
			net, err := topologies.Valency(name, n, k)
			if err != nil || net.Depth() > depth {
				continue
			}
			out = append(out, candidate{net: net, figs: net.Figures(), source: fmt.Sprintf("%s v=%d", name, k)})
		}
	}
	return out
}

// sortedKeys returns the names of p in order.
func sortedKeys(p network.Params) []string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// maxSolverDepth caps the depth the constructive search plans for: at width
// 256 a zero-deficiency network exists from depth 11 on, and is optimal.
const maxSolverDepth = 14

// constructiveCandidates runs the constructive search, and, under a fan-out
// bound, its variants that limit how many cells one carry feeds.
func constructiveCandidates(n, depth, fanout int, step func()) []candidate {
	d := min(depth, maxSolverDepth)
	if n > MaxAnnealWidth {
		// Wider, the search's time grows fast with the levels it plans:
		// at 1024 inputs about 17 times that of 256 inputs at depth 8 for
		// depth 11 (BenchmarkWidths). Deeper bounds add the named families
		// at the bound.
		d = min(d, ceilLog2(n)+1)
	}
	// The searches share nothing: under a fan-out bound they run side by
	// side, one a core, and are taken in the order of their limits. Wider
	// than MaxAnnealWidth one at a time: each holds hundreds of MB there
	// (at 1024 inputs, depth 11 and fan-out 4 the run's peak is 2.0 GB one
	// at a time, 3.2 GB side by side).
	limits := searchLimits(fanout, n)
	nets := make([]*network.Network, len(limits))
	done := make(chan struct{})
	side := runtime.GOMAXPROCS(0)
	if n > MaxAnnealWidth {
		side = 1
	}
	sem := make(chan struct{}, side)
	for i, lim := range limits {
		go func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			nets[i] = constructive(n, d, lim)
			done <- struct{}{}
		}()
	}
	for range limits {
		<-done
		if step != nil {
			step()
		}
	}
	var out []candidate
	for i, lim := range limits {
		net := nets[i]
		if net == nil {
			continue
		}
		source := "constructive search"
		if lim > 0 {
			source = fmt.Sprintf("constructive search, carries feeding ≤ %d cells", lim)
		}
		out = append(out, candidate{net: net, figs: net.Figures(), source: source})
	}
	return out
}

// searchLimits are the limits on the cells a carry feeds of the
// constructive searches constructiveCandidates runs at width n under a
// fan-out bound (0: none). No carry of n inputs feeds more than n − 2
// cells in a late-carry step, so a bound past n starts where n does: a
// looser one ran a search for each halving of it, each the unbounded one
// again (63 of them for 2^62).
func searchLimits(fanout, n int) []int {
	limits := []int{0}
	if fanout > 0 {
		for f := min(fanout, n) - 2; f >= 1; f /= 2 {
			limits = append(limits, f)
		}
	}
	return limits
}

// stepper counts a search's steps for Options.Progress: the constructive
// searches one by one, then the annealing chains. Its total grows as
// steps are planned, and is more than the steps done until finish: a
// bar takes a count at its total for the end.
type stepper struct {
	report      func(done, total int)
	done, total int
	finished    bool
}

// finish reports the search done, whatever it planned and did not need.
func (s *stepper) finish() {
	s.finished = true
	s.total = s.done
	s.show()
}

// plan adds k steps to the total.
func (s *stepper) plan(k int) {
	s.total += k
	s.show()
}

// step counts one step done.
func (s *stepper) step() {
	s.done++
	s.show()
}

// chains returns the Progress of k annealing chains, planned here, for
// runChains: each chain done is a step.
func (s *stepper) chains(k int) func(done, total int) {
	s.plan(k)
	base := s.done
	return func(done, _ int) {
		s.done = base + done
		s.show()
	}
}

// withChains returns opt with its Progress counting the annealing chains
// of one annealModel as steps of s.
func (s *stepper) withChains(opt Options) Options {
	if _, chains, ok := opt.annealBudget(200); ok {
		opt.Progress = s.chains(chains)
	}
	return opt
}

func (s *stepper) show() {
	if s.report != nil {
		total := s.total
		if !s.finished {
			total = max(total, s.done+1)
		}
		s.report(s.done, total)
	}
}

// annealAll runs the annealing chains from start, or, when no candidate
// meets the fan-out bound without copied cells, from the smallest candidate
// within the depth with the fan-out as a penalty, and returns the best
// network met, or nil. Under a fan-out bound, cells are copied where a
// chain's network still needs it.
func annealAll(ctx context.Context, opt Options, start *candidate, all []candidate) (*candidate, error) {
	steps, chains, ok := opt.annealBudget(500)
	if !ok {
		return nil, nil
	}
	soft := start == nil
	if soft {
		// The smallest network within the depth, fan-out aside.
		for i, c := range all {
			if c.figs.Depth <= opt.MaxDepth && (start == nil || better(c, *start)) {
				start = &all[i]
			}
		}
		if start == nil {
			return nil, nil
		}
	}
	g := fromNetwork(start.net)
	results, err := runChains(chains, opt.Seed, opt.Progress, func(rng *rand.Rand) (*graph, error) {
		if soft {
			return annealPenalty(ctx, g, opt.MaxDepth, opt.MaxFanout, steps, rng)
		}
		return anneal(ctx, g, opt.MaxDepth, opt.MaxFanout, steps, rng)
	})
	if err != nil {
		return nil, err
	}
	var best *candidate
	for _, r := range results {
		if r == nil {
			continue
		}
		net, err := r.network()
		if err != nil {
			return nil, fmt.Errorf("optimize: annealing built an invalid network, a bug in package optimize: %w", err)
		}
		c := candidate{net: net, figs: net.Figures(), source: start.source + ", improved by annealing"}
		if !c.fits(opt) && opt.MaxFanout > 0 {
			if more := limitFanout(net, opt.MaxFanout); more != nil {
				c = candidate{net: more, figs: more.Figures(), source: c.source + ", cells copied to bound the fan-out"}
			}
		}
		if !c.fits(opt) {
			continue
		}
		if best == nil || better(c, *best) {
			best = &c
		}
	}
	return best, nil
}

// runChains runs chains annealing chains, at most one per core at a time,
// chain c with its own generator seeded by (seed, c), so that the results
// do not depend on the number of cores. It calls progress, when not nil, as
// each chain ends, and returns the results in chain order, or the first
// error a chain returned.
func runChains[T any](chains int, seed uint64, progress func(done, total int), chain func(rng *rand.Rand) (T, error)) ([]T, error) {
	results := make([]T, chains)
	errs := make([]error, chains)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	done := make(chan int, chains)
	for c := range chains {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[c], errs[c] = chain(rand.New(rand.NewPCG(seed, uint64(c))))
			done <- c
		}()
	}
	for i := range chains {
		<-done
		if progress != nil {
			progress(i+1, chains)
		}
	}
	wg.Wait()
	// The chains fail only when the context ends, all of them alike: one
	// line says so.
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("optimize: %w", err)
		}
	}
	return results, nil
}

// startName names the start network of index i, with its topology where
// its file records one: "start network 2 (sklansky)".
func startName(i int, net *network.Network) string {
	if net.Topology() == "" {
		return fmt.Sprintf("start network %d", i+1)
	}
	return fmt.Sprintf("start network %d (%s)", i+1, net.Topology())
}
