package topologies

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/internal/suggest"
	"github.com/prefixgen/prefixgen/network"
)

// MaxCells is the largest number of cells a topology is built with. Build
// refuses, before allocating anything, a request whose estimated size is
// larger.
const MaxCells = 1 << 26

// Param describes one integer parameter of a topology.
type Param struct {
	// Name is the parameter's name, as written in network.Params.
	Name string
	// Default is the value used when the parameter is not given.
	Default int
	// Min and Max bound the allowed values, both included.
	Min, Max int
	// Doc says in one line what the parameter does.
	Doc string
}

// Topology is one family of prefix networks: its name, what it is, where it
// comes from, its parameters, and how to build it at any width. Topology
// values come from All and Lookup; the zero value builds nothing.
type Topology struct {
	// Name is the registry name, such as "kogge-stone".
	Name string
	// Summary describes the family in one line.
	Summary string
	// Reference is the literature reference of the construction.
	Reference string
	// Params are the parameters the family takes, in a fixed order.
	Params []Param

	// build makes the network for a valid width and complete, valid
	// parameters.
	build func(n int, p network.Params) (*network.Network, error)
	// cells returns an upper bound of the size for 1 ≤ n ≤ network.MaxWidth
	// and complete, valid parameters, without building anything.
	cells func(n int, p network.Params) int64
	// useful holds, by parameter name, the largest value worth trying at
	// width n, where it is known; see Useful.
	useful map[string]func(n int) int
}

// registry lists the topologies in their fixed order.
var registry = []Topology{
	{
		Name:      "ripple",
		Summary:   "serial chain: each prefix extends the previous one by one input; size n−1, depth n−1",
		Reference: "the serial prefix (ripple-carry) chain; see D. Harris, A Taxonomy of Parallel Prefix Networks, 37th Asilomar Conference on Signals, Systems and Computers, 2003",
		build:     buildRipple,
		cells:     func(n int, _ network.Params) int64 { return int64(n) - 1 },
	},
	{
		Name:      "kogge-stone",
		Summary:   "recursive doubling: at level j+1 every column combines with the one 2^j below it; minimum depth ⌈log2 n⌉, the most cells and wires",
		Reference: "P. M. Kogge and H. S. Stone, A Parallel Algorithm for the Efficient Solution of a General Class of Recurrence Equations, IEEE Trans. Computers C-22(8), 1973",
		build:     buildKoggeStone,
		cells:     koggeStoneBound,
	},
	{
		Name:      "brent-kung",
		Summary:   "up-sweep tree of block prefixes, then a down-sweep that fills in the rest; size below 2n, depth 2k−2 at n = 2^k ≥ 8, one wire track",
		Reference: "R. P. Brent and H. T. Kung, A Regular Layout for Parallel Adders, IEEE Trans. Computers C-31(3), 1982",
		build:     buildBrentKung,
		cells:     brentKungCells,
	},
	{
		Name:      "sklansky",
		Summary:   "divide and conquer: the upper half of every block of 2^(j+1) columns reads the lower half's last prefix; minimum depth, fan-out up to n/2+1",
		Reference: "J. Sklansky, Conditional-Sum Addition Logic, IRE Trans. Electronic Computers EC-9(2), 1960",
		build:     buildSklansky,
		cells:     sklanskyCells,
	},
	{
		Name:      "han-carlson",
		Summary:   "Kogge–Stone on the odd columns, then one extra level for the even columns; depth k+1 at n = 2^k ≥ 8, half the wires of Kogge–Stone",
		Reference: "T. Han and D. A. Carlson, Fast Area-Efficient VLSI Adders, 8th IEEE Symposium on Computer Arithmetic (ARITH-8), 1987",
		build:     buildHanCarlson,
		cells:     hanCarlsonCells,
	},
	{
		Name:      "ladner-fischer",
		Summary:   "the recursive P_k(n) of Ladner and Fischer: k levels of pairing, then halves; depth ≤ ⌈log2 n⌉+k, size ≤ 2(1+2^−k)n",
		Reference: "R. E. Ladner and M. J. Fischer, Parallel Prefix Computation, JACM 27(4), 1980",
		Params: []Param{{
			Name: "k", Default: 0, Min: 0, Max: 63,
			Doc: "levels of pairing before the halving recursion: depth ≤ ⌈log2 n⌉+k, size and fan-out shrink as k grows; every k ≥ ⌈log2 n⌉−1 gives the same network",
		}},
		useful: map[string]func(int) int{"k": func(n int) int { return ceilLog2(int64(n)) - 1 }},
		build:  buildLadnerFischer,
		cells:  ladnerFischerCells,
	},
	{
		Name:      "knowles",
		Summary:   "Knowles's minimum-depth family [f_L,…,f_1] between Kogge–Stone [1,…,1] and Sklansky [2^(L−1),…,1]: lateral fan-out f_j at level j; s marks where the list doubles",
		Reference: "S. Knowles, A Family of Adders, 14th IEEE Symposium on Computer Arithmetic (ARITH-14), 1999; reprinted in ARITH-15, 2001",
		Params: []Param{{
			Name: "s", Default: 0, Min: 0, Max: knowlesMaxS,
			Doc: "bit j−1 set when f_(j+1) = 2·f_j, so [4,2,1,1] is s=6 (0b110): 0 is Kogge–Stone, 2^(L−1)−1 Sklansky; bits L−1 and above change nothing",
		}},
		useful: map[string]func(int) int{"s": func(n int) int { return 1<<max(ceilLog2(int64(n))-1, 0) - 1 }},
		build:  buildKnowles,
		cells:  knowlesCells,
	},
	{
		Name:      "harris",
		Summary:   "Harris's taxonomy point (l, f, t), t = ⌈log2 n⌉−1−l−f: at most ⌈log2 n⌉+l levels, lateral fan-out ≤ 2^f+1 at l=0 (exact at n = 2^k), ≤ 2^t wire tracks; l=1 f=L−2 is the hardware \"Ladner–Fischer\"",
		Reference: "D. Harris, A Taxonomy of Parallel Prefix Networks, 37th Asilomar Conference on Signals, Systems and Computers, 2003",
		Params: []Param{
			{Name: "l", Default: 0, Min: 0, Max: harrisMax, Doc: "extra logic levels: Brent–Kung up- and down-sweep levels around a network on every 2^l-th column"},
			{Name: "f", Default: 0, Min: 0, Max: harrisMax, Doc: "fan-out: lateral fan-out at most 2^f + 1 at l = 0 (exactly at n = 2^k); t = ⌈log2 n⌉−1−l−f wire-track exponent must not be negative"},
		},
		useful: map[string]func(int) int{"l": harrisUseful, "f": harrisUseful},
		build:  buildHarris,
		cells:  harrisCells,
	},
	{
		Name:      "zero-deficiency",
		Summary:   "size + depth = 2n − 2, Snir's bound met: a chain of d blocks, each a tree that completes its prefixes from the chain; depth d from the least possible (n ≤ F(d+3)−1) up to n−1",
		Reference: "H. Zhu, C.-K. Cheng and R. Graham, On the Construction of Zero-Deficiency Parallel Prefix Circuits with Minimum Depth, ACM TODAES 11(2), 2006",
		Params: []Param{{
			Name: "d", Default: 0, Min: 0, Max: network.MaxWidth,
			Doc: "depth, from the least with n ≤ F(d+3)−1 up to n−1; 0 for the least",
		}},
		useful: map[string]func(int) int{"d": func(n int) int { return n - 1 }},
		build:  buildZeroDeficiency,
		cells:  zeroDeficiencyCells,
	},
}

// All returns every topology, in the fixed order ripple, kogge-stone,
// brent-kung, sklansky, han-carlson, ladner-fischer, knowles, harris,
// zero-deficiency. The slice is a copy.
func All() []Topology { return clones(registry) }

// Names returns the names of all topologies, in the order of All.
func Names() []string { return names(registry) }

// others are the topologies Lookup knows besides the named families.
var others = []Topology{carrySelect}

// Others returns the topologies that Lookup and Build know besides those
// of All: constructions that the named families' enumerations (every
// topology, explore's searches, the GPU tables) leave out. Today that is
// carry-select, whose chains are what a library's full adders make small
// (adder.Architecture.FACells), while the named families are measured as
// logic. The slice is a copy.
func Others() []Topology { return clones(others) }

// Known returns the names of every topology Lookup knows: those of All,
// then those of Others.
func Known() []string { return names(slices.Concat(registry, others)) }

// clones returns a copy of ts whose topologies have their own Params.
func clones(ts []Topology) []Topology {
	out := make([]Topology, len(ts))
	for i, t := range ts {
		out[i] = t.clone()
	}
	return out
}

// names returns the names of ts, in their order.
func names(ts []Topology) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// Lookup returns the topology with the given name, one of All or of
// Others. The error for an unknown name suggests the close one that was
// likely meant (Suggest).
func Lookup(name string) (Topology, error) {
	for _, t := range slices.Concat(registry, others) {
		if t.Name == name {
			return t.clone(), nil
		}
	}
	var meant string
	if s := Suggest(name); s != "" {
		meant = " (did you mean " + s + "?)"
	}
	return Topology{}, fmt.Errorf("topologies: unknown topology %s%s: known are %s", network.Quote(name), meant, strings.Join(Known(), ", "))
}

// Suggest returns the name of the topology a user likely meant by name, a
// name no topology has ("kogge-stne": kogge-stone), or "" where none is
// close.
func Suggest(name string) string {
	return suggest.Closest(name, Known())
}

// Build builds the topology with the given name at width n with parameters
// p; see Topology.Build.
func Build(name string, n int, p network.Params) (*network.Network, error) {
	t, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return t.Build(n, p)
}

// AtWidth builds the network of net's family at width n with net's
// parameters: the family a kernel builds its other networks from (the
// totals of a block's warps). A zero-deficiency network at its least depth
// gives the least depth at n, which is what its d meant; a network of no
// registered family is an error.
func AtWidth(net *network.Network, n int) (*network.Network, error) {
	p := net.Params()
	if net.Topology() == "zero-deficiency" && p["d"] == ZeroDeficiencyDepth(net.Width()) {
		p["d"] = 0
	}
	return Build(net.Topology(), n, p)
}

// clone returns t with its own copy of Params.
func (t Topology) clone() Topology {
	t.Params = slices.Clone(t.Params)
	return t
}

// Build builds the network of width n, 1 ≤ n ≤ network.MaxWidth. Parameters
// missing from p take their defaults; a name the topology does not take, or
// a value out of its range, is an error that lists what is allowed. A request
// whose EstimateCells exceeds MaxCells is refused before anything is
// allocated. The network carries the topology's name and the complete
// parameters.
func (t Topology) Build(n int, p network.Params) (*network.Network, error) {
	if t.build == nil || t.cells == nil {
		return nil, fmt.Errorf("topologies: topology %q cannot be built: take topologies from All or Lookup", t.Name)
	}
	if n < 1 || n > network.MaxWidth {
		return nil, fmt.Errorf("topologies: %s: width %d out of range: allowed 1…%d", t.Name, n, network.MaxWidth)
	}
	full, err := t.fill(p)
	if err != nil {
		return nil, err
	}
	if c := t.cells(n, full); c > MaxCells {
		widest := widestWithin(func(w int) int64 { return t.cells(w, full) })
		return nil, fmt.Errorf("topologies: %s at width %d needs about %d cells, more than the %d allowed: allowed widths up to %d", t.Name, n, about(c), MaxCells, widest)
	}
	return t.build(n, full)
}

// widestWithin returns the widest width, 1 to network.MaxWidth, whose
// count of cells (cells, growing with the width) is at most MaxCells.
func widestWithin(cells func(n int) int64) int {
	lo, hi := 1, network.MaxWidth // cells(lo) ≤ MaxCells, as every width 1 is
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if cells(mid) <= MaxCells {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// EstimateCells returns an upper bound of the number of cells of the network
// of width n, computed without building it; for every topology but
// kogge-stone, harris and carry-select it is the exact size (knowles counts its cells in
// O(n) time up to MaxCells). Parameters missing from p take their defaults,
// and values out of range are clamped into it. It returns 0 for n < 1 and
// math.MaxInt for n > network.MaxWidth.
func (t Topology) EstimateCells(n int, p network.Params) int {
	switch {
	case t.cells == nil || n < 1:
		return 0
	case n > network.MaxWidth:
		return math.MaxInt
	}
	full := network.Params{}
	for _, q := range t.Params {
		v, ok := p[q.Name]
		if !ok {
			v = q.Default
		}
		full[q.Name] = min(max(v, q.Min), q.Max)
	}
	return int(min(t.cells(n, full), int64(math.MaxInt)))
}

// Useful returns the largest value of the parameter q of t worth trying at
// width n: every larger value up to q.Max, the other parameters held, builds
// a network that some value from q.Min to Useful builds, or is refused at
// that width. Where no such value is known it returns q.Max. An explorer that
// tries q.Min … Useful meets every network of the family.
func (t Topology) Useful(q Param, n int) int {
	f := t.useful[q.Name]
	if f == nil {
		return q.Max
	}
	return min(max(f(n), q.Min), q.Max)
}

// fill checks p against the topology's parameters and returns it completed
// with the defaults.
func (t Topology) fill(p network.Params) (network.Params, error) {
	names := make([]string, 0, len(p))
	for name := range p {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !slices.ContainsFunc(t.Params, func(q Param) bool { return q.Name == name }) {
			if len(t.Params) == 0 {
				return nil, fmt.Errorf("topologies: %s has no parameter %s: it takes none", t.Name, network.Quote(name))
			}
			return nil, fmt.Errorf("topologies: %s has no parameter %s: allowed are %s", t.Name, network.Quote(name), strings.Join(t.paramNames(), ", "))
		}
	}
	full := network.Params{}
	for _, q := range t.Params {
		v, ok := p[q.Name]
		if !ok {
			v = q.Default
		}
		if v < q.Min || v > q.Max {
			return nil, fmt.Errorf("topologies: %s parameter %s=%d out of range: allowed %d…%d", t.Name, q.Name, v, q.Min, q.Max)
		}
		full[q.Name] = v
	}
	return full, nil
}

// paramNames returns the names of the topology's parameters.
func (t Topology) paramNames() []string {
	names := make([]string, len(t.Params))
	for i, q := range t.Params {
		names[i] = q.Name
	}
	return names
}

// about rounds a cell count to two significant digits for an error message,
// unless rounding would bring it down to MaxCells or below.
func about(c int64) int64 {
	p := int64(1)
	for c/p >= 100 {
		p *= 10
	}
	r := (c + p/2) / p * p
	if r <= MaxCells {
		return c
	}
	return r
}

// lookupBuiltin returns the registry entry of a name the package itself
// uses; the exported constructors go through it.
func lookupBuiltin(name string) Topology {
	for _, t := range registry {
		if t.Name == name {
			return t
		}
	}
	panic("topologies: no built-in topology " + name)
}

// newBuilder returns a builder of width n with room for cells cells.
func newBuilder(n int, cells int64) *network.Builder {
	b, err := network.NewBuilder(n)
	if err != nil {
		// Build checked the width already.
		panic(err)
	}
	b.Grow(int(cells))
	return b
}

// add appends the cell op(lo, hi) to b and returns its signal.
func add(b *network.Builder, lo, hi int32) int32 {
	return int32(b.Add(int(lo), int(hi)))
}

// finish describes and builds the network, turning a failed proof, which
// would be a bug of this package, into a one-line error.
func finish(b *network.Builder, name string, p network.Params) (*network.Network, error) {
	b.Describe(name, p)
	net, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("topologies: %s at width %d is not a prefix network, a bug in package topologies: %w", name, b.Width(), err)
	}
	return net, nil
}

// ceilLog2 returns ⌈log2 n⌉ for n ≥ 1.
func ceilLog2(n int64) int {
	if n <= 1 {
		return 0
	}
	return bits.Len64(uint64(n - 1))
}
