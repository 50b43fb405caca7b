package adder

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// builder holds the state of Describe.
type builder struct {
	net  *network.Network
	arch Architecture
	// cells are the library cells of the pre-processing, nil unless
	// arch.PGCells.
	cells *Cells
	d     *Description
	n     int
	// levels[name] is the level at which a signal is made: 0 for inputs and
	// the pre-processing, the cell's level for a prefix cell, post for the
	// post-processing; widths[name] is its width, and lows[name] the
	// index of its lowest bit where that is not 0 (Signal.Lo).
	levels map[string]int
	widths map[string]int
	lows   map[string]int
	// assignLevel[i][j] is the level of Sections[i].Assigns[j].
	assignLevel [][]int
	post        int

	// What plan decides: whether the adder is a comparator, has a cin
	// input and needs the carry out; the carries the network must deliver
	// (needOut[i]: G[i:0]) and the G and P of every signal they depend on;
	// the carry into bit 0.
	compare, hasCin, needCout bool
	needOut, needG, needP     []bool
	ci                        Expr
	// gName and pName are the G and P of each signal of the network as the
	// pre-processing and the tree declare them; cout is the carry out.
	gName, pName []Expr
	cout         Expr
	// sum is the bus that holds the sums (sum, or sum_int where a flag
	// reads them), carryTop the carry into the top bit.
	sum      string
	carryTop Expr
}

// Describe builds the adder around net that arch asks for. With
// arch.PGCells, cells are the library's NAND2 and OAI21 that the
// pre-processing instantiates (Assign.Cell); nil stands for cells named
// NAND2 and OAI21 with inputs A, B (and C) and output Y, enough for what
// reads the adder's logic and ports but places no cell (Check, a
// testbench). With arch.FACells they hold the full adder, nil standing
// for FA with inputs A, B, CI and outputs CO, S. Without either cells are
// ignored.
//
// It returns an error, naming what is allowed, for an architecture that
// does not fit the network: an unknown operation, flags on a comparator, a
// sparseness other than 1, 2, 4 or 8 or wider than the network, library
// cells for another operation than Add or of another shape than a NAND2
// and an OAI21, pipeline levels out of order or beyond the depth of the
// carry tree, a reset left out of a combinational adder.
func Describe(net *network.Network, arch Architecture, cells *Cells) (*Description, error) {
	n := net.Width()
	if int(arch.Op) >= len(opNames) {
		return nil, fmt.Errorf("adder: unknown operation %d: allowed %s", arch.Op, strings.Join(opNames, ", "))
	}
	if arch.Op == Compare && arch.Flags != 0 {
		return nil, fmt.Errorf("adder: flags (%s) do not apply to compare, which outputs lt, ltu and eq: allowed none", arch.Flags)
	}
	if arch.Flags >= 1<<len(flagNames) {
		return nil, fmt.Errorf("adder: unknown flags %#x: allowed %s", uint8(arch.Flags), strings.Join(flagNames, ", "))
	}
	if v := arch.Valency; v != 0 && (v < 2 || v > MaxValency) {
		return nil, fmt.Errorf("adder: valency %d not allowed: allowed 2, 3, 4", v)
	}
	s := arch.sparse()
	if arch.Sparse < 0 || !slices.Contains(Sparseness, s) {
		return nil, fmt.Errorf("adder: sparseness %d not allowed: allowed 1, 2, 4, 8", arch.Sparse)
	}
	if s > 1 && s > n {
		var fit []string
		for _, k := range Sparseness {
			if k <= n {
				fit = append(fit, strconv.Itoa(k))
			}
		}
		return nil, fmt.Errorf("adder: sparseness %d exceeds the width %d: allowed at most the width, %s", s, n, strings.Join(fit, ", "))
	}
	if arch.Op == Compare && s > 1 {
		return nil, fmt.Errorf("adder: sparseness %d does not apply to compare, which uses only the carry out: allowed 1", s)
	}
	if arch.PGCells && arch.Op != Add {
		return nil, fmt.Errorf("adder: library cells for the pre-processing do not apply to %s: allowed add", arch.Op)
	}
	if arch.FACells {
		if why := arch.faCellsFit(); why != "" {
			return nil, fmt.Errorf("adder: --%s %s", FlagFACells, why)
		}
	}
	if arch.Increment {
		if why := arch.incrementFit(); why != "" {
			return nil, fmt.Errorf("adder: --%s %s", FlagIncrement, why)
		}
	}
	if !arch.PGCells && !arch.FACells {
		cells = nil
	} else {
		if cells == nil {
			cells = &standInCells
		}
		if err := cells.check(arch); err != nil {
			return nil, err
		}
	}
	arch.PipelineAfter = slices.Clone(arch.PipelineAfter)
	b := &builder{net: net, arch: arch, cells: cells, n: n, levels: map[string]int{}, widths: map[string]int{},
		lows: map[string]int{}, d: &Description{Width: n, Architecture: arch, LibraryCells: cells}}
	b.build()
	b.prune()
	if err := b.pipeline(); err != nil {
		return nil, err
	}
	return b.d, nil
}

// standInCells are the cells Describe instantiates for PGCells and
// FACells without a library's.
var standInCells = Cells{
	NAND2: Cell{Name: "NAND2", Inputs: []string{"A", "B"}, Output: "Y"},
	OAI21: Cell{Name: "OAI21", Inputs: []string{"A", "B", "C"}, Output: "Y"},
	FA:    FullAdder{Cell: Cell{Name: "FA", Inputs: []string{"A", "B", "CI"}, Output: "CO"}, Sum: "S"},
}

// section starts a new section.
func (b *builder) section(comment ...string) {
	b.d.Sections = append(b.d.Sections, Section{Comment: comment})
	b.assignLevel = append(b.assignLevel, nil)
}

// bus declares a bus driven bit by bit in the current section.
func (b *builder) bus(name string, width, level int) {
	sec := &b.d.Sections[len(b.d.Sections)-1]
	sec.Buses = append(sec.Buses, Signal{Name: name, Width: width})
	b.levels[name], b.widths[name] = level, width
}

// assign appends an assignment at level to the current section.
func (b *builder) assign(a Assign, level int) {
	sec := &b.d.Sections[len(b.d.Sections)-1]
	sec.Assigns = append(sec.Assigns, a)
	i := len(b.assignLevel) - 1
	b.assignLevel[i] = append(b.assignLevel[i], level)
	if a.Declare {
		b.levels[a.Target.Name], b.widths[a.Target.Name] = level, a.Width
	}
}

// wire declares a single-bit wire driven by e at level and returns its
// reference; an e that is already a reference or a constant is returned
// unchanged, with no wire.
func (b *builder) wire(name string, e Expr, level int, comment string) Expr {
	if e.Op == OpRef || e.Op == OpConst {
		return e
	}
	b.assign(Assign{Target: Whole(name), Expr: e, Declare: true, Comment: comment}, level)
	return sig(name)
}

// port adds a port.
func (b *builder) port(name string, width int, dir Dir, comment string) {
	b.d.Ports = append(b.d.Ports, Port{Signal: Signal{Name: name, Width: width}, Dir: dir, Comment: comment})
	if dir == In {
		b.levels[name], b.widths[name] = 0, width
	}
}

// build describes the adder, one stage after the other: what it needs, its
// ports, the pre-processing, the carry tree, then a comparator's outputs,
// or the sums and the flags. Describe adds the registers (pipeline) after.
func (b *builder) build() {
	b.plan()
	b.ports()
	if b.arch.FACells && b.arch.sparse() == 1 {
		b.buildFA()
		b.flags()
		b.summary()
		return
	}
	b.preprocess()
	b.tree()
	if b.compare {
		b.compareOutputs()
	} else {
		b.sums()
		b.flags()
	}
	b.summary()
}

// plan decides what the adder needs of the network: the carries it outputs
// (every s-th one of a sparse tree, the carry out where an output reads
// it), the G and P of every signal that those depend on, and the carry into
// bit 0.
func (b *builder) plan() {
	arch, n := b.arch, b.n
	b.compare = arch.Op == Compare
	b.hasCin = !b.compare && !arch.NoCarryIn
	b.needCout = b.compare || arch.Flags&(Carry|Overflow) != 0

	// Which carries the network must deliver: out[i] is G[i:0], the carry
	// into bit i+1.
	b.needOut = make([]bool, n)
	if !b.compare {
		for i := arch.sparse(); i < n; i += arch.sparse() {
			b.needOut[i-1] = true
		}
	}
	if b.needCout {
		b.needOut[n-1] = true
	}
	b.needG, b.needP = liveness(b.net, b.needOut)

	// The carry into bit 0.
	switch {
	case b.hasCin:
		b.ci = sig("cin")
	case arch.Op == AddSub:
		b.ci = sig("mode")
	default:
		b.ci = konst(arch.Op != Add)
	}
}

// ports declares the inputs and outputs.
func (b *builder) ports() {
	arch, w := b.arch, b.n
	b.port("a", w, In, "first operand")
	b.port("b", w, In, "second operand")
	if b.hasCin {
		b.port("cin", 0, In, "carry into bit 0")
	}
	if arch.Op == AddSub {
		b.port("mode", 0, In, "0 adds, 1 subtracts")
	}
	if b.compare {
		b.port("lt", 0, Out, "a < b, signed")
		b.port("ltu", 0, Out, "a < b, unsigned")
		b.port("eq", 0, Out, "a = b")
		return
	}
	b.port("sum", w, Out, "the sum")
	if arch.Flags&Carry != 0 {
		b.port("cout", 0, Out, "carry out of the top bit")
	}
	if arch.Flags&Overflow != 0 {
		b.port("overflow", 0, Out, "signed overflow")
	}
	if arch.Flags&Zero != 0 {
		b.port("zero", 0, Out, "every sum bit is 0")
	}
	if arch.Flags&Negative != 0 {
		b.port("negative", 0, Out, "the top sum bit")
	}
}

// operandB returns bit i of operand b as the operation uses it (inverted
// for Sub and Compare, b_op for AddSub), or the whole bus for i < 0.
func (b *builder) operandB(i int) Expr {
	x := sig("b")
	if i >= 0 {
		x = bit("b", i)
	}
	switch b.arch.Op {
	case Sub, Compare:
		return not(x)
	case AddSub:
		return bit("b_op", i)
	}
	return x
}

// preprocess declares each bit's generate g and propagate p (as library
// cells with PGCells), Ling's t with Ling, and the leaves of
// the carry tree: gName and pName of the inputs, bit 0's generate folding
// in the carry-in.
func (b *builder) preprocess() {
	arch, n, w := b.arch, b.n, b.n
	switch arch.Op {
	case Add:
		if arch.PGCells {
			b.section("Pre-processing in the library's cells: bit i generates g[i] and propagates",
				"p[i], their complements g_n[i] = NAND2(a[i], b[i]) and p_n[i] =",
				"OAI21(a[i], b[i], g_n[i]) = !((a[i] | b[i]) & g_n[i]); the carry-in is folded",
				"into bit 0's generate.")
			break
		}
		b.section("Pre-processing: bit i generates g[i] and propagates p[i]; the",
			"carry-in is folded into bit 0's generate.")
	case AddSub:
		b.section("Pre-processing: b is inverted when mode is 1 (a + ~b + 1 = a - b); bit i",
			"generates g[i] and propagates p[i]; the carry-in is folded into bit 0's generate.")
	default:
		b.section("Pre-processing: b is inverted (a + ~b + 1 = a - b); bit i generates g[i]",
			"and propagates p[i]; the carry-in is folded into bit 0's generate.")
	}
	if arch.Op == AddSub {
		b.bus("b_op", w, 0)
		for i := range n {
			b.assign(Assign{Target: Bit("b_op", i), Expr: xor(bit("b", i), sig("mode"))}, 0)
		}
	}
	// g[n-1] is read only for the carry out.
	gWidth := n
	if !b.needCout {
		gWidth = n - 1
	}
	if arch.PGCells {
		b.cellLeaves(gWidth)
	} else if gWidth == n && arch.Op != AddSub {
		b.assign(Assign{Target: Whole("g"), Expr: and(sig("a"), b.operandB(-1)), Declare: true, Width: w}, 0)
	} else if gWidth > 0 {
		b.bus("g", gWidth, 0)
		for i := range gWidth {
			b.assign(Assign{Target: Bit("g", i), Expr: and(bit("a", i), b.operandB(i))}, 0)
		}
	}
	if arch.PGCells {
		b.assign(Assign{Target: Whole("p"), Expr: not(sig("p_n")), Declare: true, Width: w}, 0)
	} else if arch.Op == AddSub {
		b.assign(Assign{Target: Whole("p"), Expr: xor(sig("a"), sig("b_op")), Declare: true, Width: w}, 0)
	} else {
		b.assign(Assign{Target: Whole("p"), Expr: xor(sig("a"), b.operandB(-1)), Declare: true, Width: w}, 0)
	}
	b.gName = make([]Expr, b.net.Signals())
	b.pName = make([]Expr, b.net.Signals())
	for i := range n {
		b.gName[i], b.pName[i] = bit("g", i), bit("p", i)
	}
	if arch.Ling {
		b.lingLeaves()
	} else if b.needG[0] {
		b.assign(Assign{Target: Whole("g0_cin"), Expr: or(bit("g", 0), and(bit("p", 0), b.ci)), Declare: true}, 0)
		b.gName[0] = sig("g0_cin")
	}
}

// tree declares the prefix cells the adder keeps, or the valency-k gates
// made of chains of them, level by level, counts them in the figures, and
// finds the carry out.
func (b *builder) tree() {
	net, arch, n := b.net, b.arch, b.n
	if arch.Ling {
		b.section("Ling's pseudo-carries: each cell computes H = H_hi | Q_hi & H_lo and Q = Q_hi & Q_lo,",
			"where bit i enters as (g[i], t[i-1]); H[i:0] = g[i] | carry into bit i. The wires",
			"G_cC_lL and P_cC_lL hold H and Q.")
	}
	if v := arch.valency(); v > 2 {
		b.section(fmt.Sprintf("Prefix cells of valency up to %d, in topological order: [hi:lo] = [hi:..] o … o [..:lo];", v),
			"a cell of k inputs computes G = G1 | P1 & G2 | P1 & P2 & G3 … (input 1 the highest span).")
	} else {
		b.section("Prefix cells, in topological order: [hi:lo] = [hi:m+1] o [m:lo].")
	}
	leaves := groupCells(net, b.needG, b.needOut, arch.valency())
	level := make([]int, net.Signals())
	tree := treeFigures{readers: make([]int, net.Signals())}
	seen := cellNames{}
	for k := range net.Size() {
		sg := net.CellSignal(k)
		if !b.needG[sg] || leaves[k] == nil {
			continue
		}
		in := leaves[k] // low to high
		lv := 0
		for _, x := range in {
			lv = max(lv, level[x])
		}
		lv++
		level[sg] = lv
		c := net.Column(sg)
		suffix := seen.suffix(c, lv)
		kind := "gray"
		if b.needP[sg] {
			kind = "black"
			b.d.Black++
		} else {
			b.d.Gray++
		}
		b.d.Depth = max(b.d.Depth, lv)
		b.d.BinaryCells += len(in) - 1
		tree.add(net, in, c, lv)
		span := net.Span(sg)
		spans := make([]string, len(in))
		for i, x := range in {
			sp := net.Span(x)
			spans[len(in)-1-i] = fmt.Sprintf("[%d:%d]", sp.To, sp.From)
		}
		comment := fmt.Sprintf("cell %d, column %d, level %d, %s: [%d:%d] = %s", k, c, lv, kind, span.To, span.From, strings.Join(spans, " o "))
		if len(in) > 2 {
			comment = fmt.Sprintf("cell %d and %d below it, valency %d, column %d, level %d, %s: [%d:%d] = %s",
				k, len(in)-2, len(in), c, lv, kind, span.To, span.From, strings.Join(spans, " o "))
		}
		// G = G1 | P1 & G2 | P1 & P2 & G3 …, input 1 the highest.
		var terms, ps []Expr
		for i := len(in) - 1; i >= 0; i-- {
			factors, gi := slices.Clone(ps), b.gName[in[i]]
			if arch.Ling && i+1 < len(in) && in[i+1] < n && in[i] < n {
				// Ling: the last propagate, t_j, of a single bit j+1 above
				// the single bit j is implied by g_j; above bit 0 it meets
				// H[0:0] = g_0 | cin as g_0 | t_0 & cin.
				factors = factors[:len(factors)-1]
				if in[i] == 0 {
					gi = or(bit("g", 0), and(bit("t", 0), b.ci))
				}
			}
			terms = append(terms, andN(append(factors, gi)...))
			ps = append(ps, b.pName[in[i]])
		}
		g := fmt.Sprintf("G_c%d_l%d%s", c, lv, suffix)
		b.assign(Assign{Target: Whole(g), Expr: orN(terms...), Declare: true, Comment: comment}, lv)
		b.gName[sg] = sig(g)
		if b.needP[sg] {
			p := fmt.Sprintf("P_c%d_l%d%s", c, lv, suffix)
			b.assign(Assign{Target: Whole(p), Expr: andN(ps...), Declare: true}, lv)
			b.pName[sg] = sig(p)
		}
	}
	b.d.Cells = b.d.Black + b.d.Gray
	b.d.MaxFanout, b.d.WireTracks = tree.figures(b.needOut, net)
	b.post = b.d.Depth + 1
	if b.needCout {
		b.cout = b.carry(n - 1)
	}
}

// carry returns the carry out of bit i, G[i:0]; in a Ling adder the tree's
// H[i:0] and t_i, on a wire of its own.
func (b *builder) carry(i int) Expr {
	g := b.gName[b.net.Output(i)]
	if !b.arch.Ling {
		return g
	}
	return b.wire("c_ling"+strconv.Itoa(i), and(bit("t", i), g), b.post, "")
}

// compareOutputs declares a comparator's outputs, read off the carry out
// and the propagates.
func (b *builder) compareOutputs() {
	n, post := b.n, b.post
	b.section("Post-processing: a + ~b + 1 carries out exactly when a >= b unsigned; the",
		"signed a < b is the sign of a - b corrected by its overflow, p[n-1] ^ cout;",
		"a = b when every bit propagates.")
	b.assign(Assign{Target: Whole("ltu"), Expr: not(b.cout)}, post)
	b.assign(Assign{Target: Whole("lt"), Expr: xor(bit("p", n-1), b.cout)}, post)
	b.assign(Assign{Target: Whole("eq"), Expr: reduce(OpReduceAnd, sig("p"))}, post)
}

// sums declares the sum bits: p xor the carry into each bit from the
// network, or with a sparse tree the carry-select blocks. It sets the bus
// that holds them (sum, or sum_int when a flag reads them) and the carry
// into the top bit, which overflow reads.
func (b *builder) sums() {
	net, arch, n, w, post := b.net, b.arch, b.n, b.n, b.post
	s := arch.sparse()
	b.sum = "sum"
	if arch.Flags&(Zero|Negative) != 0 {
		b.sum = "sum_int"
	}
	sum := b.sum
	if s == 1 {
		into0 := "cin"
		if !b.hasCin {
			into0 = fmt.Sprintf("the constant carry-in, %v,", map[bool]int{false: 0, true: 1}[arch.Op == Sub])
			if arch.Op == AddSub {
				into0 = "mode"
			}
		}
		if arch.Ling {
			b.section(fmt.Sprintf("Post-processing: the carry into bit i is t[i-1] & H[i-1:0] (%s into bit 0).", into0))
		} else {
			b.section(fmt.Sprintf("Post-processing: the carry into bit i is G[i-1:0] (%s into bit 0).", into0))
		}
		b.bus("carry", w, post)
		for i := range n {
			c := b.ci
			if i > 0 {
				c = b.gName[net.Output(i-1)]
				if arch.Ling {
					c = and(bit("t", i-1), c)
				}
			}
			b.assign(Assign{Target: Bit("carry", i), Expr: c}, post)
		}
		b.carryTop = bit("carry", n-1)
		if sum != "sum" {
			b.assign(Assign{Target: Whole(sum), Expr: xor(sig("p"), sig("carry")), Declare: true, Width: w}, post)
		} else {
			b.assign(Assign{Target: Whole(sum), Expr: xor(sig("p"), sig("carry"))}, post)
		}
		return
	}
	if arch.Increment {
		b.section(fmt.Sprintf("Carry-increment blocks of %d bits: while the tree computes the carry into", s),
			"each block, one ripple chain of full adders computes its sums for a block",
			"carry-in of 0 (c0_bI, the carry into bit I, s0_bI); those for a carry-in of 1",
			"are s1_bI = s0_bI ^ pp_bI, pp_bI the AND of the block's propagates below bit I;",
			"the tree's carry selects one. The lowest block ripples from the carry-in",
			"itself (c_bI); a block's lowest bit is the XOR of its propagate and carry.")
	} else if arch.FACells {
		b.section(fmt.Sprintf("Carry-select blocks of %d bits: while the tree computes the carry into", s),
			"each block, two ripple chains of full adders compute its sums for a block",
			"carry-in of 0 (c0_bI, the carry into bit I, s0_bI) and of 1 (c1_bI, s1_bI);",
			"the tree's carry selects one. The lowest block ripples from the carry-in",
			"itself (c_bI); a block's lowest bit is the XOR of its propagate and carry.")
	} else {
		b.section(fmt.Sprintf("Carry-select blocks of %d bits: while the tree computes the carry into", s),
			"each block, two ripple chains compute its sums for a block carry-in of 0",
			"(c0_bI, s0_bI) and of 1 (c1_bI, s1_bI); the tree's carry selects one. The",
			"lowest block ripples from the carry-in itself (c_bI).")
	}
	b.bus(sum, w, post)
	if sum == "sum" {
		sec := &b.d.Sections[len(b.d.Sections)-1]
		sec.Buses = sec.Buses[:len(sec.Buses)-1] // the port itself
	}
	var fa *faPlan
	if arch.FACells {
		fa = &faPlan{inv: map[int][2]Ref{}}
	}
	for lo := 0; lo < n; lo += s {
		hi := min(lo+s, n) - 1
		b.d.Groups++
		if lo == 0 {
			b.rippleBlock(hi, fa)
		} else {
			b.selectBlock(lo, hi, fa)
		}
	}
}

// rippleBlock declares the lowest block of a sparse tree, bits 0 to hi,
// which ripples from the carry-in: through logic, or with fa through a
// full adder for each bit above bit 0.
func (b *builder) rippleBlock(hi int, fa *faPlan) {
	n, sum, post := b.n, b.sum, b.post
	c := b.ci // the carry into bit i
	for i := 0; i <= hi; i++ {
		if i == 1 || i > 1 && fa == nil {
			name := "c_b" + strconv.Itoa(i)
			if i == 1 && b.needG[0] && !b.arch.Ling {
				c = b.gName[0]
			} else {
				c = b.wire(name, or(bit("g", i-1), and(bit("p", i-1), c)), post, "")
			}
		}
		if i == n-1 {
			b.carryTop = c
		}
		if i > 0 && fa != nil {
			c, _ = b.fullAdder(fa, i, c, "c_b"+strconv.Itoa(i+1), "s"+strconv.Itoa(i)+"_fa", true, post, "")
			continue
		}
		comment := "rippling from the carry-in"
		if fa != nil {
			comment += ", a full adder a bit above bit 0"
		}
		b.assign(Assign{Target: Bit(sum, i), Expr: xor(bit("p", i), c),
			Comment: commentIf(i == 0, fmt.Sprintf("block 0, bits %d to %d, %s", 0, hi, comment))}, post)
	}
}

// selectBlock declares the carry-select block of bits lo to hi: two ripple
// chains from a block carry-in of 0 and of 1, of logic or with fa of full
// adders, and the multiplexers the tree's carry G[lo-1:0] drives. With
// Increment the chain of full adders from a carry-in of 1 is left out:
// the sum of bit i for it is s0 ^ P[i-1:lo], for the carry into bit i is
// c0 | P[i-1:lo], of which at most one holds.
func (b *builder) selectBlock(lo, hi int, fa *faPlan) {
	n, sum, post := b.n, b.sum, b.post
	gc := b.carry(lo - 1)
	inc := b.arch.Increment
	var c0, c1 Expr // the carries into bit i
	var pp Expr     // with inc, P[i-1:lo]
	for i := lo; i <= hi; i++ {
		comment := commentIf(i == lo, fmt.Sprintf("block %d, bits %d to %d, selected by the carry G[%d:0]", lo/b.arch.sparse(), lo, hi, lo-1))
		if i == lo {
			c0, c1 = konst(false), konst(true)
			if i == n-1 {
				b.carryTop = gc
			}
			b.assign(Assign{Target: Bit(sum, i), Expr: xor(bit("p", i), gc), Comment: comment}, post)
			continue
		}
		var s0, s1 Expr
		if fa != nil {
			switch {
			case i == lo+1:
				c0 = bit("g", lo)
				if inc {
					pp = bit("p", lo)
				} else {
					c1 = b.wire("c1_b"+strconv.Itoa(i), or(bit("g", lo), bit("p", lo)), post, "")
				}
			case inc:
				pp = b.wire("pp_b"+strconv.Itoa(i), and(pp, bit("p", i-1)), post, "")
			}
			if i == n-1 && b.arch.Flags&Overflow != 0 {
				if inc {
					b.carryTop = b.wire("carry_top", or(c0, and(gc, pp)), post, "")
				} else {
					b.carryTop = b.wire("carry_top", mux(gc, c1, c0), post, "")
				}
			}
			c0, s0 = b.fullAdder(fa, i, c0, "c0_b"+strconv.Itoa(i+1), "s0_b"+strconv.Itoa(i), false, post, "")
			if inc {
				s1 = b.wire("s1_b"+strconv.Itoa(i), xor(s0, pp), post, "")
			} else {
				c1, s1 = b.fullAdder(fa, i, c1, "c1_b"+strconv.Itoa(i+1), "s1_b"+strconv.Itoa(i), false, post, "")
			}
		} else {
			c0 = b.wire("c0_b"+strconv.Itoa(i), or(bit("g", i-1), and(bit("p", i-1), c0)), post, comment)
			c1 = b.wire("c1_b"+strconv.Itoa(i), or(bit("g", i-1), and(bit("p", i-1), c1)), post, commentIf(c0.Op != OpRef, comment))
			s0 = b.wire("s0_b"+strconv.Itoa(i), xor(bit("p", i), c0), post, "")
			s1 = b.wire("s1_b"+strconv.Itoa(i), xor(bit("p", i), c1), post, "")
			if i == n-1 && b.arch.Flags&Overflow != 0 {
				b.carryTop = b.wire("carry_top", mux(gc, c1, c0), post, "")
			}
		}
		b.assign(Assign{Target: Bit(sum, i), Expr: mux(gc, s1, s0)}, post)
		b.d.Muxes++
	}
}

// flags declares the status outputs: cout, then the sum read through
// sum_int, overflow, zero and negative.
func (b *builder) flags() {
	arch, n, sum, post := b.arch, b.n, b.sum, b.post
	if arch.Flags&Carry != 0 {
		b.assign(Assign{Target: Whole("cout"), Expr: b.cout}, post)
	}
	if arch.Flags&^Carry != 0 {
		b.section("Flags.")
	}
	if sum != "sum" {
		b.assign(Assign{Target: Whole("sum"), Expr: sig(sum)}, post)
	}
	if arch.Flags&Overflow != 0 {
		b.assign(Assign{Target: Whole("overflow"), Expr: xor(b.carryTop, b.cout), Comment: "the carry into the top bit differs from the carry out"}, post)
	}
	if arch.Flags&Zero != 0 {
		b.assign(Assign{Target: Whole("zero"), Expr: not(reduce(OpReduceOr, sig(sum)))}, post)
	}
	if arch.Flags&Negative != 0 {
		b.assign(Assign{Target: Whole("negative"), Expr: bit(sum, n-1)}, post)
	}
}

// commentIf returns c when cond holds, and "" otherwise.
func commentIf(cond bool, c string) string {
	if cond {
		return c
	}
	return ""
}

// summary fills the one-line description of what the module computes.
func (b *builder) summary() {
	arch := b.arch
	ci := "cin"
	if arch.NoCarryIn {
		ci = map[Op]string{Add: "0", Sub: "1", AddSub: "mode"}[arch.Op]
	}
	var what string
	switch arch.Op {
	case Add:
		what = "sum = a + b + " + ci
	case Sub:
		what = "sum = a + ~b + " + ci
	case AddSub:
		what = "sum = mode ? a + ~b + " + ci + " : a + b + " + ci
	case Compare:
		what = "lt = a < b signed, ltu = a < b unsigned, eq = a == b"
	}
	if arch.Flags&Carry != 0 {
		what = strings.Replace(what, "sum = ", "{cout, sum} = ", 1)
		if arch.Op == AddSub {
			what = "{cout, sum} = mode ? a + ~b + " + ci + " : a + b + " + ci
		}
	}
	b.d.Summary = []string{fmt.Sprintf("%s over %d bits", what, b.n)}
	if f := arch.Flags &^ Carry; f != 0 && arch.Op != Compare {
		b.d.Summary = append(b.d.Summary, "flags: "+f.String())
	}
	if s := arch.sparse(); s > 1 {
		b.d.Summary = append(b.d.Summary, fmt.Sprintf("sparse tree: the carries into every %s bit from the network, %d-bit carry-select blocks", ordinal(s), s))
	}
}

// liveness returns, for every signal of net, whether the adder needs its G
// and its P, when it needs the G of the outputs marked in needOut: a cell
// needing G needs G of both operands and P of the higher one, a cell
// needing P the P of both. A cell is kept when its G is needed, black when
// its P is too.
func liveness(net *network.Network, needOut []bool) (needG, needP []bool) {
	needG = make([]bool, net.Signals())
	needP = make([]bool, net.Signals())
	for i, need := range needOut {
		if need {
			needG[net.Output(i)] = true
		}
	}
	w := net.Width()
	for k := net.Size() - 1; k >= 0; k-- {
		c := net.Cell(k)
		if needG[w+k] {
			needG[c.Lo], needG[c.Hi], needP[c.Hi] = true, true, true
		}
		if needP[w+k] {
			needP[c.Lo], needP[c.Hi] = true, true
		}
	}
	return needG, needP
}

// pipeline inserts the register stages after the levels arch asks for, or
// chooses them for arch.Stages.
func (b *builder) pipeline() error {
	cuts := b.arch.PipelineAfter
	depth := b.d.Depth
	if b.arch.Stages != 0 {
		if len(cuts) > 0 {
			return fmt.Errorf("adder: both pipeline levels %v and %d stages given: use one", cuts, b.arch.Stages)
		}
		var err error
		if cuts, err = BalancedCuts(depth, b.arch.Stages); err != nil {
			return err
		}
		b.arch.PipelineAfter = cuts
		b.d.Architecture.PipelineAfter = cuts
	}
	for i, c := range cuts {
		if c < 0 || c > depth {
			return fmt.Errorf("adder: pipeline level %d beyond the carry tree: allowed 0 (after the pre-processing) to %d (its depth)", c, depth)
		}
		if i > 0 && c <= cuts[i-1] {
			return fmt.Errorf("adder: pipeline levels %v not in increasing order: allowed distinct levels from 0 to %d, smallest first", cuts, depth)
		}
	}
	if len(cuts) == 0 {
		if b.arch.NoReset {
			return errors.New("adder: no reset given for a combinational adder: allowed only with register stages")
		}
		return nil
	}
	stage := func(level int) int {
		st := 0
		for _, c := range cuts {
			if c < level {
				st++
			}
		}
		return st
	}
	b.d.Latency = len(cuts)
	// A signal read in a later stage than it is made in passes through one
	// register per stage. need records the latest stage that reads each
	// signal whole, and each bit of a bus read bit by bit, so that a stage
	// registers only the bits some later stage reads.
	type needs struct {
		whole int         // latest stage reading the whole signal, or -1
		bits  map[int]int // bit → latest stage reading it
	}
	need := map[string]*needs{}
	b.eachRef(func(r *Ref, st int) {
		from := stage(b.levels[r.Name])
		if st <= from {
			return
		}
		nd := need[r.Name]
		if nd == nil {
			nd = &needs{whole: -1, bits: map[int]int{}}
			need[r.Name] = nd
		}
		if r.Bit < 0 {
			nd.whole = max(nd.whole, st)
		} else {
			nd.bits[r.Bit] = max(nd.bits[r.Bit], st)
		}
	})
	b.d.Stages = make([]Stage, len(cuts))
	for k, c := range cuts {
		b.d.Stages[k].After = c
	}
	// whole[name][st] says whether stage st registers the whole signal
	// (named NAME_sST), or only some of its bits (NAME_sST_bI).
	whole := map[string]map[int]bool{}
	staged := func(name string, st, bit int) Ref {
		q := name + "_s" + strconv.Itoa(st)
		if whole[name][st] {
			return Ref{Name: q, Bit: bit}
		}
		return Whole(q + "_b" + strconv.Itoa(bit))
	}
	for _, name := range b.madeOrder() {
		nd := need[name]
		if nd == nil {
			continue
		}
		width, lo := b.widths[name], b.lows[name]
		whole[name] = map[int]bool{}
		first := stage(b.levels[name]) + 1
		last := nd.whole
		for _, st := range nd.bits {
			last = max(last, st)
		}
		for st := first; st <= last; st++ {
			regs := &b.d.Stages[st-1].Registers
			var bits []int
			for i := lo; i < lo+max(width, 1); i++ {
				if nd.whole >= st || nd.bits[i] >= st {
					bits = append(bits, i)
				}
			}
			if width == 0 || len(bits) == width {
				whole[name][st] = true
				d := Whole(name)
				if st > first {
					d = Whole(name + "_s" + strconv.Itoa(st-1))
				}
				*regs = append(*regs, Register{Q: Signal{Name: name + "_s" + strconv.Itoa(st), Width: width, Lo: lo}, D: d})
				b.d.RegisterBits += max(width, 1)
				continue
			}
			for _, i := range bits {
				d := Bit(name, i)
				if st > first {
					d = staged(name, st-1, i)
				}
				*regs = append(*regs, Register{Q: Signal{Name: staged(name, st, i).Name}, D: d})
				b.d.RegisterBits++
			}
		}
	}
	b.eachRef(func(r *Ref, st int) {
		if st > stage(b.levels[r.Name]) {
			if r.Bit < 0 {
				*r = Whole(r.Name + "_s" + strconv.Itoa(st))
			} else {
				*r = staged(r.Name, st, r.Bit)
			}
		}
	})
	clocks := []Port{{Signal: Signal{Name: "clk"}, Dir: In, Comment: "clock: registers take their inputs at its rising edge"}}
	if !b.arch.NoReset {
		clocks = append(clocks, Port{Signal: Signal{Name: "rst"}, Dir: In, Comment: "synchronous reset: registers clear to 0 at a rising edge while it is 1"})
	}
	b.d.Ports = slices.Insert(b.d.Ports, 0, clocks...)
	b.d.Summary = append(b.d.Summary, fmt.Sprintf("pipelined: register stages after levels %s, latency %d %s",
		strings.Trim(fmt.Sprint(cuts), "[]"), len(cuts), plural(len(cuts), "cycle")))
	return nil
}

// StagesError is the error of more register stages (or fewer than one)
// than a carry tree of Depth levels takes: 1 to Depth + 1.
type StagesError struct {
	Stages, Depth int
}

func (e *StagesError) Error() string {
	return fmt.Sprintf("adder: %d pipeline stages for a carry tree of depth %d: allowed 1 to %d", e.Stages, e.Depth, e.Depth+1)
}

// Shallowest returns, of errs, the StagesError of the shallowest carry tree
// and its index: the range every adder of a run takes. It returns nil and
// -1 where errs hold none.
func Shallowest(errs []error) (*StagesError, int) {
	var best *StagesError
	at := -1
	for i, err := range errs {
		if se, ok := errors.AsType[*StagesError](err); ok && (best == nil || se.Depth < best.Depth) {
			best, at = se, i
		}
	}
	return best, at
}

// BalancedCuts returns the levels after which k register stages split an
// adder whose carry tree has the given depth into k + 1 runs of logic as
// even as levels allow. The adder has depth + 2 levels of logic: the
// pre-processing, the depth levels of prefix cells, and the
// post-processing; a stage after level L has L + 1 of them before it. k may
// be 1 to depth + 1; depth 0 to network.MaxWidth − 1, the deepest a
// network is.
func BalancedCuts(depth, k int) ([]int, error) {
	if depth < 0 || depth >= network.MaxWidth {
		return nil, fmt.Errorf("adder: a carry tree of depth %d: allowed 0 to %d", depth, network.MaxWidth-1)
	}
	if k < 1 || k > depth+1 {
		return nil, &StagesError{Stages: k, Depth: depth}
	}
	logic := depth + 2
	cuts := make([]int, k)
	for j := 1; j <= k; j++ {
		// Round j·logic/(k+1) to the nearest whole level.
		c := (2*j*logic+k+1)/(2*(k+1)) - 1
		c = max(c, 0)
		if j > 1 {
			c = max(c, cuts[j-2]+1)
		}
		cuts[j-1] = min(c, depth-(k-j))
	}
	return cuts, nil
}

// eachRef calls fn on every reference of every assignment, with the stage
// the assignment is in, and lets fn change it.
func (b *builder) eachRef(fn func(r *Ref, stage int)) {
	cuts := b.arch.PipelineAfter
	for i := range b.d.Sections {
		sec := &b.d.Sections[i]
		for j := range sec.Assigns {
			st := 0
			for _, c := range cuts {
				if c < b.assignLevel[i][j] {
					st++
				}
			}
			walk(&sec.Assigns[j].Expr, func(r *Ref) { fn(r, st) })
		}
	}
}

// madeOrder lists the signals in the order they are made: the inputs, then
// the section's buses and declared wires, section by section.
func (b *builder) madeOrder() []string {
	var order []string
	for _, p := range b.d.Ports {
		if p.Dir == In {
			order = append(order, p.Name)
		}
	}
	for _, sec := range b.d.Sections {
		for _, bus := range sec.Buses {
			order = append(order, bus.Name)
		}
		for _, a := range sec.Assigns {
			if a.Declare {
				order = append(order, a.Target.Name)
			}
		}
	}
	return order
}

// ordinal returns "2nd", "4th", "8th": the sparseness as an ordinal.
func ordinal(s int) string {
	if s == 2 {
		return "2nd"
	}
	return strconv.Itoa(s) + "th"
}

// plural returns word, with an s unless k is 1.
func plural(k int, word string) string {
	if k == 1 {
		return word
	}
	return word + "s"
}

// groupCells returns, for each kept cell k that makes a gate, the signals
// the gate reads, lowest span first; cells absorbed into a gate of a later
// cell get nil. With valency v ≤ 2 every kept cell is a gate of its two
// operands. Otherwise, from the last cell back, a cell starts a gate and
// absorbs an operand that is a kept cell read by nothing else and not an
// output the adder reads (its higher operand first), then that cell's
// operand, and so on, until the gate has v inputs: a chain of binary cells
// over adjacent spans, which computes the same (G, P) as one cell of v
// inputs.
func groupCells(net *network.Network, needG []bool, needOut []bool, v int) [][]int {
	w := net.Width()
	leaves := make([][]int, net.Size())
	if v <= 2 {
		for k := range net.Size() {
			c := net.Cell(k)
			leaves[k] = []int{c.Lo, c.Hi}
		}
		return leaves
	}
	readers := make([]int, net.Signals())
	for k := range net.Size() {
		if needG[w+k] {
			c := net.Cell(k)
			readers[c.Lo]++
			readers[c.Hi]++
		}
	}
	for i, need := range needOut {
		if need {
			readers[net.Output(i)]++
		}
	}
	absorbed := make([]bool, net.Size())
	for k := net.Size() - 1; k >= 0; k-- {
		if !needG[w+k] || absorbed[k] {
			continue
		}
		inGate := map[int]bool{w + k: true}
		x, cells := w+k, 1
		for cells < v-1 {
			c := net.Cell(x - w)
			next := -1
			for _, o := range []int{c.Hi, c.Lo} {
				if o >= w && readers[o] == 1 && !absorbed[o-w] {
					next = o
					break
				}
			}
			if next < 0 {
				break
			}
			absorbed[next-w], inGate[next] = true, true
			x, cells = next, cells+1
		}
		var flat func(s int) []int
		flat = func(s int) []int {
			if !inGate[s] {
				return []int{s}
			}
			c := net.Cell(s - w)
			return append(flat(c.Lo), flat(c.Hi)...)
		}
		leaves[k] = flat(w + k)
	}
	return leaves
}

// cellNames counts the cells named at each column and level.
type cellNames map[[2]int]int

// suffix returns what the name of the next cell at column col and level lv
// ends in: nothing for the first, "_2" for the second, and so on.
func (s cellNames) suffix(col, lv int) string {
	at := [2]int{col, lv}
	s[at]++
	if m := s[at]; m > 1 {
		return "_" + strconv.Itoa(m)
	}
	return ""
}

// treeFigures gathers the fan-out and wire tracks of the gates an adder
// keeps.
type treeFigures struct {
	readers []int // per signal, the gates reading it
	// wires[l] holds, per gate of level l+1, the Lo operands' wires as
	// column spans [from, to): the boundaries they cross.
	wires [][]wire
}

// wire is a Lo operand's wire, from its signal's column to its reader's.
type wire struct{ signal, from, to int }

// add records a gate of level lv at column col reading in, low to high.
func (t *treeFigures) add(net *network.Network, in []int, col, lv int) {
	for len(t.wires) < lv {
		t.wires = append(t.wires, nil)
	}
	for i, x := range in {
		t.readers[x]++
		if i < len(in)-1 {
			t.wires[lv-1] = append(t.wires[lv-1], wire{x, net.Column(x), col})
		}
	}
}

// figures returns the largest fan-out, counting a carry the adder uses as
// one more reader, and the wire tracks: the most distinct signals whose
// wires cross one column boundary within one level.
func (t *treeFigures) figures(needOut []bool, net *network.Network) (fanout, tracks int) {
	for i, need := range needOut {
		if need {
			t.readers[net.Output(i)]++
		}
	}
	for _, r := range t.readers {
		fanout = max(fanout, r)
	}
	for _, ws := range t.wires {
		tracks = max(tracks, levelTracks(ws))
	}
	return fanout, tracks
}

// levelTracks returns the most distinct signals whose wires of one level
// cross one column boundary: each signal's wires merged into the spans
// they cover, then a sweep over where the spans start and end, in
// O(w log w) for w wires (a map of the boundaries each wire crosses took
// n² for Kogge–Stone, and ran a 65 536-bit adder out of memory).
func levelTracks(ws []wire) int {
	ws = slices.Clone(ws)
	slices.SortFunc(ws, func(a, b wire) int {
		return cmp.Or(cmp.Compare(a.signal, b.signal), cmp.Compare(a.from, b.from))
	})
	type event struct{ at, delta int }
	var events []event
	for i := 0; i < len(ws); {
		sig, from, to := ws[i].signal, ws[i].from, ws[i].to
		for i++; i < len(ws) && ws[i].signal == sig && ws[i].from <= to; i++ {
			to = max(to, ws[i].to)
		}
		if from < to {
			events = append(events, event{from, 1}, event{to, -1})
		}
	}
	// A span ends before the next one starts at the same boundary: [a, b)
	// and [b, c) do not cross one boundary together.
	slices.SortFunc(events, func(a, b event) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.delta, b.delta)) })
	most, now := 0, 0
	for _, e := range events {
		now += e.delta
		most = max(most, now)
	}
	return most
}

// cellLeaves declares the pre-processing of PGCells: the buses g_n and
// p_n, driven bit by bit by the library's NAND2 and OAI21 cells, and g, the
// first gWidth bits of the generate, their complement (the caller declares
// p). Only Add takes Cells, so b is the operand as it is.
func (b *builder) cellLeaves(gWidth int) {
	n, cells := b.n, b.cells
	b.bus("g_n", n, 0)
	b.bus("p_n", n, 0)
	for i := range n {
		a, bb, gn := Bit("a", i), Bit("b", i), Bit("g_n", i)
		nand := Assign{Target: gn, Expr: not(and(ref(a), ref(bb)))}
		oai := Assign{Target: Bit("p_n", i), Expr: not(and(or(ref(a), ref(bb)), ref(gn)))}
		if b.leafRead(i) {
			nand.Cell, nand.CellArgs = &cells.NAND2, []Ref{a, bb}
			oai.Cell, oai.CellArgs = &cells.OAI21, []Ref{a, bb, gn}
		}
		b.assign(nand, 0)
		b.assign(oai, 0)
	}
	if gWidth == n {
		b.assign(Assign{Target: Whole("g"), Expr: not(sig("g_n")), Declare: true, Width: n}, 0)
	} else if gWidth > 0 {
		b.bus("g", gWidth, 0)
		for i := range gWidth {
			b.assign(Assign{Target: Bit("g", i), Expr: not(bit("g_n", i))}, 0)
		}
	}
}

// leafRead reports whether the adder reads bit i's generate or propagate.
// Every bit's propagate makes its sum, but in the blocks of a sparse adder
// of full adders only the lowest bit's does, and the others' are read as
// far as the tree needs them: a library cell no one reads would stay in
// the netlist, so cellLeaves writes such a bit's as logic, which synthesis
// removes.
func (b *builder) leafRead(i int) bool {
	s := b.arch.sparse()
	return !b.arch.FACells || s == 1 || i%s == 0 || b.needG[i] || b.needP[i]
}

// lingLeaves declares t = a | b (b as the operation uses it) and makes the
// leaves of the tree Ling's: the pair of bit i is (g_i, t_(i-1)), and bit 0's
// is g_0 | the carry-in, H[0:0], whose propagate no cell reads.
func (b *builder) lingLeaves() {
	n, s := b.n, b.arch.sparse()
	// t[n-1] is read only for the carry out, as g[n-1] is.
	tWidth := n
	if !b.needCout {
		tWidth = n - 1
	}
	switch {
	case tWidth == n && b.arch.Op == AddSub:
		b.assign(Assign{Target: Whole("t"), Expr: or(sig("a"), sig("b_op")), Declare: true, Width: n, Comment: lingComment}, 0)
	case tWidth == n:
		b.assign(Assign{Target: Whole("t"), Expr: or(sig("a"), b.operandB(-1)), Declare: true, Width: n, Comment: lingComment}, 0)
	case tWidth > 0:
		b.bus("t", tWidth, 0)
		for i := range tWidth {
			b.assign(Assign{Target: Bit("t", i), Expr: or(bit("a", i), b.operandB(i)), Comment: commentIf(i == 0, lingComment)}, 0)
		}
	}
	for i := 1; i < n; i++ {
		b.pName[i] = bit("t", i-1)
	}
	// H[0:0] gets a wire only where something reads it: a cell whose next
	// input is the single bit 1 reads g_0 | t_0 & cin instead, and a sparse
	// tree's blocks ripple from cin itself.
	read := (s == 1 && b.arch.Op != Compare && n > 1) || (b.needCout && n == 1)
	for k, in := range groupCells(b.net, b.needG, b.needOut, b.arch.valency()) {
		if b.needG[n+k] && len(in) > 1 && in[0] == 0 && in[1] >= n {
			read = true
		}
	}
	b.gName[0] = or(bit("g", 0), b.ci)
	if isConst(b.ci, true) {
		// H[0:0] = 1, but every reader masks it with t_0 (a propagate
		// Q[i:1] = … & t_0, or the carry t_0 & H[0:0]), so g_0 | t_0 serves
		// and g_0 stays read, as the plain adder reads it.
		b.gName[0] = or(bit("g", 0), bit("t", 0))
	}
	if read {
		b.gName[0] = b.wire("h0_cin", b.gName[0], 0, "")
	}
}

// lingComment says what t is for.
const lingComment = "bit i propagates t[i] = a | b into Ling's pseudo-carries"
