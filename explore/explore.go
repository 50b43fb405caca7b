package explore

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/optimize"
	"github.com/prefixgen/prefixgen/topologies"
)

// Point is one network of the exploration.
type Point struct {
	// Network is the network, proven like every network.Network.
	Network *network.Network
	// Figures are its figures.
	Figures network.Figures
	// Family names where it came from: a topology name ("ladner-fischer")
	// or "optimizer".
	Family string
	// Name names the point within its family, as in "ladner-fischer k=2" or
	// "optimizer max_depth=8 seed=1".
	Name string
	// Command is the prefixgen command line that rebuilds the network.
	Command string
}

// Optimizer finds a small network of width n with depth at most maxDepth
// and, when maxFanout > 0, fan-out at most maxFanout. It returns the network
// and the prefixgen command that reproduces it. An Optimizer that cannot meet
// the bounds returns an error, and Enumerate leaves that depth out.
type Optimizer func(ctx context.Context, n, maxDepth, maxFanout int) (net *network.Network, command string, err error)

// Options are the options of Enumerate.
type Options struct {
	// MaxFanout, when positive, keeps only networks whose maximum fan-out is
	// at most MaxFanout.
	MaxFanout int
	// Optimizer, when set, is run for every depth from ⌈log2 n⌉ to
	// 2⌈log2 n⌉ − 2 (at least ⌈log2 n⌉), and each network it finds joins
	// the families'.
	Optimizer Optimizer
	// CarrySelect adds the carry-select networks (topologies.Others) of
	// every first segment from 1 to n − 1 bits, with segments growing by
	// 0, 1 and 2 bits (CarrySelectGrowths): the uniform, the square-root
	// and a faster-growing carry-select adder, each a network of binary
	// cells. They are not among the families, whose named sets the claims
	// of docs/libraries.md are recorded against.
	CarrySelect bool
	// Valencies lists the valencies of the networks to build (nil: 2
	// alone). 2 builds the families' networks, of binary cells, and the
	// optimizer's; each k > 2 the radix-k forms of
	// topologies.ValencyFamilies (topologies.Valency), whose adders have
	// cells of k inputs (see SynthesizeAdders).
	Valencies []int
}

// CarrySelectGrowths is the number of segment growths, 0 up, at which
// Options.CarrySelect builds the carry-select networks.
const CarrySelectGrowths = 3

// MaxWidth is the widest width Enumerate explores: every family at every
// setting is built, and above a thousand inputs that takes minutes.
const MaxWidth = 1024

// maxSettings bounds the parameter settings tried per topology, and
// maxValues the values tried of a parameter that does not say which are
// worth trying (topologies.Topology.Useful).
const (
	maxSettings = 4096
	maxValues   = 64
)

// Enumerate builds every topology of package topologies at width n at every
// setting of its parameters (each parameter from its minimum to the largest
// value worth trying at the width, topologies.Topology.Useful, or to its 64th
// value where that is not known; at most 4096 settings per topology), skips
// settings the topology refuses, and keeps the first of any networks with
// the same cells (in any order). With an Optimizer it adds the optimizer's
// networks, with CarrySelect the carry-select ones, and with Valencies the
// radix-k ones (without 2 in Valencies, only those). Points come in
// registry order, then the carry-select ones by growth and first segment,
// then the radix-k ones in the order of Valencies, then the optimizer's by
// depth.
func Enumerate(ctx context.Context, n int, opt Options) ([]Point, error) {
	if n < 1 || n > MaxWidth {
		return nil, fmt.Errorf("explore: width %d out of range: allowed 1…%d", n, MaxWidth)
	}
	// A network is seen when its width, valency and cells are: a radix-k
	// network is built of binary cells that its adder merges into k-input
	// ones (as many as the width allows).
	type seenNet struct {
		width, valency int
		keys           [][4]int
	}
	seen := map[uint64][]seenNet{}
	var points []Point
	add := func(net *network.Network, family, name, command string) {
		f := net.Figures()
		if opt.MaxFanout > 0 && f.MaxFanout > opt.MaxFanout {
			return
		}
		keys := cellKeys(net)
		h := fingerprint(net, keys)
		v := min(topologies.ValencyOf(net), net.Width())
		for _, old := range seen[h] {
			if old.width == net.Width() && old.valency == v && slices.Equal(old.keys, keys) {
				return
			}
		}
		seen[h] = append(seen[h], seenNet{net.Width(), v, keys})
		points = append(points, Point{Network: net, Figures: f, Family: family, Name: name, Command: command})
	}
	binary := len(opt.Valencies) == 0
	for _, k := range opt.Valencies {
		if k < 2 || k > topologies.MaxValency {
			return nil, fmt.Errorf("explore: valency %d not allowed: allowed 2 to %d", k, topologies.MaxValency)
		}
		binary = binary || k == 2
	}
	if binary {
		for _, topo := range topologies.All() {
			for _, p := range settings(topo, n) {
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("explore: %w", err)
				}
				if topo.EstimateCells(n, p) > topologies.MaxCells {
					continue
				}
				net, err := topo.Build(n, p)
				if err != nil {
					continue // a setting the family does not allow at this width
				}
				add(net, topo.Name, emit.Name(net), command(topo.Name, n, net.Params()))
			}
		}
	}
	if binary && opt.CarrySelect {
		for g := range CarrySelectGrowths {
			for l := 1; l < n; l++ {
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("explore: %w", err)
				}
				p := network.Params{"l": l, "g": g}
				net, err := topologies.Build("carry-select", n, p)
				if err != nil {
					return nil, fmt.Errorf("explore: %w", err)
				}
				add(net, "carry-select", emit.Name(net), command("carry-select", n, net.Params()))
			}
		}
	}
	for _, k := range opt.Valencies {
		if k == 2 {
			continue
		}
		for _, name := range topologies.ValencyFamilies {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("explore: %w", err)
			}
			net, err := topologies.Valency(name, n, k)
			if err != nil {
				return nil, fmt.Errorf("explore: %w", err)
			}
			add(net, name, emit.Name(net), fmt.Sprintf("prefixgen gen -t %s -n %d --valency %d", name, n, k))
		}
	}
	if binary && opt.Optimizer != nil && n <= MaxOptimizeWidth {
		lo := ceilLog2(n)
		hi := max(lo, 2*lo-2)
		for d := lo; d <= hi; d++ {
			net, cmd, err := opt.Optimizer(ctx, n, d, opt.MaxFanout)
			if err != nil {
				if ctx.Err() != nil {
					return nil, fmt.Errorf("explore: %w", ctx.Err())
				}
				continue
			}
			add(net, "optimizer", optimizerName(net, fmt.Sprintf("optimizer max_depth=%d", d)), cmd)
		}
	}
	return points, nil
}

// settings lists the parameter settings Enumerate tries for topo at width n,
// in order: the odometer over each parameter's values worth trying, the
// first parameter fastest.
func settings(topo topologies.Topology, n int) []network.Params {
	if len(topo.Params) == 0 {
		return []network.Params{nil}
	}
	var out []network.Params
	cur := make([]int, len(topo.Params))
	top := make([]int, len(topo.Params))
	for i, q := range topo.Params {
		cur[i] = q.Min
		top[i] = topo.Useful(q, n)
		if top[i] == q.Max {
			top[i] = q.Min + min(q.Max-q.Min, maxValues-1)
		}
	}
	for len(out) < maxSettings {
		p := network.Params{}
		for i, q := range topo.Params {
			p[q.Name] = cur[i]
		}
		out = append(out, p)
		i := 0
		for ; i < len(cur); i++ {
			if cur[i] < top[i] {
				cur[i]++
				break
			}
			cur[i] = topo.Params[i].Min
		}
		if i == len(cur) {
			break
		}
	}
	return out
}

// Front returns the points that no other point dominates over (depth, size,
// maximum fan-out, wire tracks): one point dominates another when it is no
// worse in all four and better in one. Of points with equal figures only the
// first is kept. The front is sorted by depth, then size, fan-out and tracks.
func Front(points []Point) []Point {
	var front []Point
	for i, p := range points {
		keep := true
		for j, q := range points {
			if i == j {
				continue
			}
			if dominates(q.Figures, p.Figures) || j < i && equal(q.Figures, p.Figures) {
				keep = false
				break
			}
		}
		if keep {
			front = append(front, p)
		}
	}
	slices.SortStableFunc(front, func(a, b Point) int {
		return cmp.Or(
			cmp.Compare(a.Figures.Depth, b.Figures.Depth),
			cmp.Compare(a.Figures.Size, b.Figures.Size),
			cmp.Compare(a.Figures.MaxFanout, b.Figures.MaxFanout),
			cmp.Compare(a.Figures.WireTracks, b.Figures.WireTracks))
	})
	return front
}

func objectives(f network.Figures) [4]int {
	return [4]int{f.Depth, f.Size, f.MaxFanout, f.WireTracks}
}

func equal(a, b network.Figures) bool { return objectives(a) == objectives(b) }

func dominates(a, b network.Figures) bool {
	oa, ob := objectives(a), objectives(b)
	better := false
	for i := range oa {
		if oa[i] > ob[i] {
			return false
		}
		better = better || oa[i] < ob[i]
	}
	return better
}

// SnirBound returns Snir's lower bound on the size of a prefix network of
// width n and depth d: 2n − 2 − d (never below n − 1, the size of every
// network: each output but the first needs its own cell).
func SnirBound(n, d int) int {
	return max(2*n-2-d, n-1)
}

// cellKeys describes a network by its cells whatever their order: each
// cell's span, where it splits and its level, sorted. Two networks with the
// same keys and width are the same circuit.
func cellKeys(net *network.Network) [][4]int {
	keys := make([][4]int, net.Size())
	for k := range keys {
		s := net.CellSignal(k)
		span, lo := net.Span(s), net.Span(net.Cell(k).Lo)
		keys[k] = [4]int{span.From, span.To, lo.To, net.Level(s)}
	}
	slices.SortFunc(keys, func(a, b [4]int) int { return slices.Compare(a[:], b[:]) })
	return keys
}

// fingerprint hashes a network's width and cell keys.
func fingerprint(net *network.Network, keys [][4]int) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(v int) {
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	put(net.Width())
	for _, k := range keys {
		for _, v := range k {
			put(v)
		}
	}
	return h.Sum64()
}

// command is the gen command that rebuilds a family member.
func command(topo string, n int, p network.Params) string {
	var b strings.Builder
	fmt.Fprintf(&b, "prefixgen gen -t %s -n %d", topo, n)
	for _, kv := range strings.Fields(p.Format(" ")) {
		b.WriteString(" --param " + kv)
	}
	return b.String()
}

func ceilLog2(n int) int {
	d := 0
	for 1<<d < n {
		d++
	}
	return d
}

// MinFanout returns the smallest maximum fan-out of any network of width n:
// 1 for n = 1, else 2 (input 0 is output 0 and is read by a cell; ripple
// meets it).
func MinFanout(n int) int {
	if n <= 1 {
		return 1
	}
	return 2
}

// Bounded runs the optimizer under the fan-out bound at every depth
// Enumerate runs it at (up to MaxOptimizeWidth), and returns what it finds
// as points of the family BoundedFamily(fanout), named "optimizer
// max_depth=D max_fanout=F". A depth the optimizer cannot meet is left out.
// Plots draw them beside the unbounded optimizer's, so that the price of a
// fan-out bound shows.
func Bounded(ctx context.Context, n int, opt Optimizer, fanout int) ([]Point, error) {
	if opt == nil || n > MaxOptimizeWidth || fanout <= 0 {
		return nil, nil
	}
	lo := ceilLog2(n)
	var points []Point
	for d := lo; d <= max(lo, 2*lo-2); d++ {
		net, cmd, err := opt(ctx, n, d, fanout)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("explore: %w", ctx.Err())
			}
			continue
		}
		points = append(points, Point{Network: net, Figures: net.Figures(), Family: BoundedFamily(fanout),
			Name: optimizerName(net, fmt.Sprintf("optimizer max_depth=%d max_fanout=%d", d, fanout)), Command: cmd})
	}
	return points, nil
}

// optimizerName names an optimizer's network as optimize names it, by
// every parameter its document records (max_depth, max_fanout, seed), or
// as bounds says where the network records none of the optimizer's.
func optimizerName(net *network.Network, bounds string) string {
	if net.Topology() != optimize.Topology {
		return bounds
	}
	return emit.Name(net)
}

// BoundedFamily is the family of Bounded's points under the fan-out bound.
func BoundedFamily(fanout int) string { return fmt.Sprintf("optimizer, fan-out ≤ %d", fanout) }

// OptimizerRuns returns how many times Enumerate, and Bounded likewise,
// run an Optimizer at width n: once per depth from ⌈log2 n⌉ to
// 2⌈log2 n⌉ − 2 (at least once) up to MaxOptimizeWidth, else none. A
// caller counts its Optimizer's runs against it to show progress.
func OptimizerRuns(n int) int {
	if n < 1 || n > MaxOptimizeWidth {
		return 0
	}
	lo := ceilLog2(n)
	return max(lo, 2*lo-2) - lo + 1
}

// MaxOptimizeWidth is the widest width at which Enumerate runs its
// Optimizer, once per depth from ⌈log2 n⌉ to 2⌈log2 n⌉ − 2: wider, that
// would take minutes (prefixgen optimize itself goes to optimize.MaxWidth).
const MaxOptimizeWidth = 256

// Optimize returns an Optimizer that runs optimize.Minimize with the given
// seed: the smallest network it finds within the bounds, and the optimize
// command that finds it again. Enumerate runs it up to MaxOptimizeWidth.
// The seed is at most math.MaxInt, as optimize.Check allows: with a
// larger one every depth fails, and Enumerate leaves them all out.
func Optimize(seed uint64) Optimizer {
	return func(ctx context.Context, n, maxDepth, maxFanout int) (*network.Network, string, error) {
		res, err := optimize.Minimize(ctx, optimize.Options{Width: n, MaxDepth: maxDepth, MaxFanout: maxFanout, Seed: seed})
		if err != nil {
			return nil, "", err
		}
		cmd := fmt.Sprintf("prefixgen optimize -n %d --max-depth %d", n, maxDepth)
		if maxFanout > 0 {
			cmd += fmt.Sprintf(" --max-fanout %d", maxFanout)
		}
		return res.Network, fmt.Sprintf("%s --seed %d -f json", cmd, seed), nil
	}
}

// ParseValencies reads a list of valencies, such as "2,3,4", as explore
// --valency takes it: each 2 to topologies.MaxValency, repeats dropped.
func ParseValencies(text string) ([]int, error) {
	var list []int
	for item := range strings.SplitSeq(text, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil || k < 2 || k > topologies.MaxValency {
			return nil, fmt.Errorf("explore: --valency %s: valency %s not allowed: allowed 2, 3, 4, or a comma-separated list of them", network.Quote(text), network.Quote(item))
		}
		if !slices.Contains(list, k) {
			list = append(list, k)
		}
	}
	return list, nil
}
