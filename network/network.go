package network

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// MaxWidth is the widest network this package represents. Signals are
// stored as 32-bit indices, so width plus size must stay below 2^31.
const MaxWidth = 1 << 30

// maxSignals bounds width + size, the number of signals.
const maxSignals = 1<<31 - 1

// Cell is one prefix cell: it combines signal Lo (the lower positions) with
// signal Hi (the higher positions) as op(Lo, Hi).
type Cell struct {
	Lo, Hi int
}

// Span is the contiguous range of positions a signal covers, both ends
// included.
type Span struct {
	From, To int
}

// String returns the span as "[From,To]".
func (s Span) String() string { return fmt.Sprintf("[%d,%d]", s.From, s.To) }

// Params are the named integer parameters a network was built with, such as
// Ladner–Fischer's k. They describe the network; they do not change it.
type Params map[string]int

// Format returns the parameters as name=value pairs in name order, joined by
// sep, as in "k=1" or "f=2 l=1"; "" when there are none. Names that differ
// only in their trailing number go in the numbers' order: l2 before l10.
func (p Params) Format(sep string) string {
	names := p.names()
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = name + "=" + strconv.Itoa(p[name])
	}
	return strings.Join(parts, sep)
}

// names returns the parameters' names in Format's order.
func (p Params) names() []string {
	names := make([]string, 0, len(p))
	for name := range p {
		names = append(names, name)
	}
	slices.SortFunc(names, compareNames)
	return names
}

// compareNames orders two parameter names by their stems (the text before
// any trailing digits), then by the numbers the digits make (none first),
// then by their text: l2 before l10, and a total order.
func compareNames(a, b string) int {
	sa, na := splitNumber(a)
	sb, nb := splitNumber(b)
	if c := strings.Compare(sa, sb); c != 0 {
		return c
	}
	// Without leading zeros the shorter run of digits is the smaller number.
	ta, tb := strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
	return cmp.Or(cmp.Compare(min(len(na), 1), min(len(nb), 1)), cmp.Compare(len(ta), len(tb)), strings.Compare(ta, tb), strings.Compare(a, b))
}

// splitNumber splits a name into its stem and its trailing digits.
func splitNumber(name string) (stem, digits string) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	return name[:i], name[i:]
}

// pair is the compact storage of a cell's operands or of a cell's span.
type pair struct{ a, b int32 }

// Network is an immutable, proven parallel-prefix network. The zero value is
// not usable; networks come from a Builder or from New.
type Network struct {
	width    int
	ops      []pair  // per cell: Lo and Hi signals
	spans    []pair  // per cell: From and To positions
	levels   []int32 // per cell
	outputs  []int32 // per position
	depth    int
	topology string
	params   Params
}

// Width returns the number of inputs (and outputs).
func (n *Network) Width() int { return n.width }

// Size returns the number of cells.
func (n *Network) Size() int { return len(n.ops) }

// Signals returns the number of signals: Width inputs followed by Size cell
// outputs.
func (n *Network) Signals() int { return n.width + len(n.ops) }

// Cell returns cell k, 0 ≤ k < Size.
func (n *Network) Cell(k int) Cell {
	p := n.ops[k]
	return Cell{Lo: int(p.a), Hi: int(p.b)}
}

// CellSignal returns the signal that carries the output of cell k.
func (n *Network) CellSignal(k int) int { return n.width + k }

// Span returns the positions covered by signal s.
func (n *Network) Span(s int) Span {
	if s < n.width {
		return Span{From: s, To: s}
	}
	p := n.spans[s-n.width]
	return Span{From: int(p.a), To: int(p.b)}
}

// Column returns the column signal s lives in: the highest position of its
// span. A cell sits in the column of its Hi operand.
func (n *Network) Column(s int) int {
	if s < n.width {
		return s
	}
	return int(n.spans[s-n.width].b)
}

// Level returns the level of signal s: 0 for an input, 1 + the larger level of
// its operands for a cell.
func (n *Network) Level(s int) int {
	if s < n.width {
		return 0
	}
	return int(n.levels[s-n.width])
}

// Output returns the signal that spans [0, i].
func (n *Network) Output(i int) int { return int(n.outputs[i]) }

// Outputs returns a copy of the output signals, one per position.
func (n *Network) Outputs() []int {
	out := make([]int, len(n.outputs))
	for i, s := range n.outputs {
		out[i] = int(s)
	}
	return out
}

// Depth returns the largest level of an output.
func (n *Network) Depth() int { return n.depth }

// Topology returns the name of the construction that built the network, or
// the name a network file gave; it may be empty.
func (n *Network) Topology() string { return n.topology }

// Params returns a copy of the parameters the network was built with.
func (n *Network) Params() Params {
	if n.params == nil {
		return Params{}
	}
	return maps.Clone(n.params)
}

// Spec returns the plain description of the network, the form New reads.
func (n *Network) Spec() Spec {
	cells := make([]Cell, len(n.ops))
	for k := range n.ops {
		cells[k] = n.Cell(k)
	}
	return Spec{
		Width:    n.width,
		Cells:    cells,
		Outputs:  n.Outputs(),
		Topology: n.topology,
		Params:   n.Params(),
	}
}

// Spec is the plain, unchecked description of a network: what a network file
// holds. New proves it and turns it into a Network.
type Spec struct {
	Width    int
	Cells    []Cell
	Outputs  []int
	Topology string
	Params   Params
}

// Validate reports whether s describes a correct prefix network: the width is
// in range, every operand refers to an earlier signal, the operands of every
// cell have adjacent spans in the right order, there is one output per
// position and output i spans [0, i], and every cell reaches an output. The
// error names the offending cell or output and the spans involved.
func (s Spec) Validate() error {
	_, err := New(s)
	return err
}

// New proves the network that s describes and returns it; see Spec.Validate
// for what is checked.
func New(s Spec) (*Network, error) {
	if s.Width < 1 || s.Width > MaxWidth {
		return nil, fmt.Errorf("network: width %d out of range: allowed 1…%d", s.Width, MaxWidth)
	}
	// Checked before anything of size Width is allocated, so that a bogus
	// width cannot ask for gigabytes.
	if len(s.Outputs) != s.Width {
		return nil, fmt.Errorf("network: %d outputs for width %d: want one output per position", len(s.Outputs), s.Width)
	}
	b, err := NewBuilder(s.Width)
	if err != nil {
		return nil, err
	}
	if len(s.Cells) > maxSignals-s.Width {
		return nil, fmt.Errorf("network: %d cells for width %d: at most %d signals are allowed", len(s.Cells), s.Width, maxSignals)
	}
	b.Grow(len(s.Cells))
	for _, c := range s.Cells {
		if b.Add(c.Lo, c.Hi); b.err != nil {
			return nil, b.err
		}
	}
	b.Describe(s.Topology, s.Params)
	return b.build(s.Outputs)
}

// Builder constructs a Network one cell at a time, refusing any cell whose
// operands are not earlier signals with adjacent spans. Its error is sticky:
// after the first refused cell, Add does nothing and Err and Build report that
// first error. Make one with NewBuilder: the zero Builder has no width, and
// Add and Build refuse it.
type Builder struct {
	width    int
	ops      []pair
	spans    []pair
	levels   []int32
	full     []int32 // per position i: the latest signal spanning [0, i], or -1
	topology string
	params   Params
	err      error
}

// NewBuilder returns a Builder for a network of the given width,
// 1 ≤ width ≤ MaxWidth.
func NewBuilder(width int) (*Builder, error) {
	if width < 1 || width > MaxWidth {
		return nil, fmt.Errorf("network: width %d out of range: allowed 1…%d", width, MaxWidth)
	}
	full := make([]int32, width)
	for i := range full {
		full[i] = -1
	}
	full[0] = 0
	return &Builder{width: width, full: full}, nil
}

// errZeroBuilder is what Add and Build say of a Builder NewBuilder did not
// make.
var errZeroBuilder = errors.New("network: the zero Builder has no width: make one with NewBuilder(width), width 1…" + strconv.Itoa(MaxWidth))

// Grow makes room for at least cells more cells, so that a builder that knows
// its size allocates once.
func (b *Builder) Grow(cells int) {
	if cells <= 0 {
		return
	}
	b.ops = slices.Grow(b.ops, cells)
	b.spans = slices.Grow(b.spans, cells)
	b.levels = slices.Grow(b.levels, cells)
}

// Width returns the width the builder was made for.
func (b *Builder) Width() int { return b.width }

// Size returns the number of cells added so far.
func (b *Builder) Size() int { return len(b.ops) }

// Describe records the topology name and parameters the network will carry.
func (b *Builder) Describe(topology string, params Params) {
	b.topology = topology
	b.params = maps.Clone(params)
}

// Span returns the positions covered by signal s, which must exist.
func (b *Builder) Span(s int) Span {
	if s < b.width {
		return Span{From: s, To: s}
	}
	p := b.spans[s-b.width]
	return Span{From: int(p.a), To: int(p.b)}
}

// Level returns the level of signal s, which must exist.
func (b *Builder) Level(s int) int {
	if s < b.width {
		return 0
	}
	return int(b.levels[s-b.width])
}

// Add appends the cell op(lo, hi) and returns its signal. If lo or hi is not an
// earlier signal, or their spans are not adjacent with lo below hi, Add
// records the error (see Err) and returns −1.
func (b *Builder) Add(lo, hi int) int {
	if b.err == nil && b.width < 1 {
		b.err = errZeroBuilder
	}
	if b.err != nil {
		return -1
	}
	k := len(b.ops)
	signals := b.width + k
	if signals >= maxSignals {
		b.err = fmt.Errorf("network: cell %d: more than %d signals", k, maxSignals)
		return -1
	}
	for _, s := range [2]int{lo, hi} {
		if s < 0 || s >= signals {
			b.err = fmt.Errorf("network: cell %d reads signal %d, which is not an earlier signal: allowed 0…%d", k, s, signals-1)
			return -1
		}
	}
	l, h := b.Span(lo), b.Span(hi)
	if l.To+1 != h.From {
		if h.To+1 == l.From {
			b.err = fmt.Errorf("network: cell %d joins %v and %v: operands swapped, the lower span must come first", k, l, h)
		} else {
			b.err = fmt.Errorf("network: cell %d joins %v and %v: spans not adjacent", k, l, h)
		}
		return -1
	}
	level := max(b.Level(lo), b.Level(hi)) + 1
	b.ops = append(b.ops, pair{int32(lo), int32(hi)})
	b.spans = append(b.spans, pair{int32(l.From), int32(h.To)})
	b.levels = append(b.levels, int32(level))
	if l.From == 0 {
		b.full[h.To] = int32(signals)
	}
	return signals
}

// Err returns the first error Add recorded, or nil.
func (b *Builder) Err() error { return b.err }

// Build proves and returns the network. Output i is the latest signal that
// spans [0, i]; Build fails if some position has none, if a cell reaches no
// output, or if Add recorded an error. The builder may go on adding cells
// afterwards without changing the returned network.
func (b *Builder) Build() (*Network, error) {
	if b.err == nil && b.width < 1 {
		b.err = errZeroBuilder
	}
	if b.err != nil {
		return nil, b.err
	}
	for i, s := range b.full {
		if s < 0 {
			return nil, fmt.Errorf("network: no signal spans [0,%d]: output %d is missing", i, i)
		}
	}
	return b.finish(slices.Clone(b.full))
}

// build checks explicit outputs and finishes the network.
func (b *Builder) build(outputs []int) (*Network, error) {
	if b.err != nil {
		return nil, b.err
	}
	outs := make([]int32, len(outputs))
	signals := b.width + len(b.ops)
	for i, s := range outputs {
		if s < 0 || s >= signals {
			return nil, fmt.Errorf("network: output %d is signal %d, which does not exist: allowed 0…%d", i, s, signals-1)
		}
		if sp := b.Span(s); sp.From != 0 || sp.To != i {
			return nil, fmt.Errorf("network: output %d is signal %d spanning %v: want [0,%d]", i, s, sp, i)
		}
		outs[i] = int32(s)
	}
	return b.finish(outs)
}

// finish refuses dead cells and freezes the network.
func (b *Builder) finish(outputs []int32) (*Network, error) {
	live := make([]bool, b.width+len(b.ops))
	depth := 0
	for _, s := range outputs {
		live[s] = true
		depth = max(depth, b.Level(int(s)))
	}
	for k := len(b.ops) - 1; k >= 0; k-- {
		if !live[b.width+k] {
			return nil, fmt.Errorf("network: cell %d %v reaches no output: dead cell", k, b.Span(b.width+k))
		}
		live[b.ops[k].a] = true
		live[b.ops[k].b] = true
	}
	k := len(b.ops)
	return &Network{
		width:    b.width,
		ops:      b.ops[:k:k],
		spans:    b.spans[:k:k],
		levels:   b.levels[:k:k],
		outputs:  outputs,
		depth:    depth,
		topology: b.topology,
		params:   maps.Clone(b.params),
	}, nil
}
