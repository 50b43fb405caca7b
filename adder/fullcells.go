package adder

import (
	"fmt"
	"strconv"
)

// faPlan is what buildFA decides of the network: which bits are full
// adders, and what each signal's K is where a full adder reads it.
type faPlan struct {
	// bitOf[k] is the bit whose full adders realize kept cell k, or -1.
	bitOf []int
	// bit0 says that bit 0 is a full adder from the carry-in.
	bit0 bool
	// kName[s] is K = G | P of signal s where a full adder reads it and
	// it has one (a leaf's a | b, or a full adder's carry from K).
	kName []Expr
	// inv[m] holds the wires of bit m's operands complemented, once made.
	inv map[int][2]Ref
}

// buildFA describes an adder of full-adder cells (Architecture.FACells):
// the generate and propagate of the bits that are not full adders, the
// tree with each full-adder bit's cell as one or two full adders, and the
// sums. The caller adds the flags.
func (b *builder) buildFA() {
	net, n := b.net, b.n
	w := n
	p := &faPlan{bitOf: make([]int, net.Size()), bit0: b.hasCin, kName: make([]Expr, net.Signals()), inv: map[int][2]Ref{}}
	for k := range p.bitOf {
		p.bitOf[k] = -1
	}
	// A bit is a full adder when its leaf is read by exactly one kept cell,
	// as the higher operand.
	readers := make([]int, net.Signals())
	hiReader := make([]int, w)
	for k := range net.Size() {
		if !b.needG[w+k] {
			continue
		}
		c := net.Cell(k)
		readers[c.Lo]++
		readers[c.Hi]++
		if c.Hi < w {
			hiReader[c.Hi] = k
		}
	}
	for m := 1; m < n; m++ {
		if readers[m] == 1 && net.Cell(hiReader[m]).Hi == m {
			p.bitOf[hiReader[m]] = m
		}
	}
	b.faLiveness(p)
	b.sum = "sum"
	if b.arch.Flags&(Zero|Negative) != 0 {
		b.sum = "sum_int"
	}

	b.section("Pre-processing: bit i generates g_i = a[i] & b[i] and propagates p_i = a[i] ^ b[i],",
		"and t_i = a[i] | b[i] where a full adder's span starts at bit i; bits that are",
		"full adders need none of them.")
	if b.sum != "sum" {
		b.bus(b.sum, w, 0)
	}
	sumBit := make([]bool, n) // bit i's sum comes from its full adders
	sumBit[0] = p.bit0
	base := make([]int, n) // the lowest bit of a full-adder bit's span
	for k, m := range p.bitOf {
		if m >= 0 {
			sumBit[m] = true
			base[m] = net.Span(net.Cell(k).Lo).From
			if j := base[m]; j > 0 && net.Cell(k).Lo == j {
				p.kName[j] = b.wire("t"+strconv.Itoa(j), or(bit("a", j), bit("b", j)), 0, "")
			}
		}
	}
	b.gName = make([]Expr, net.Signals())
	b.pName = make([]Expr, net.Signals())
	for i := range n {
		if b.needG[i] && !(i == 0 && p.bit0) {
			g := and(bit("a", i), bit("b", i))
			if i == 0 {
				// The carry-in folds into bit 0's generate.
				g = or(g, and(xor(bit("a", 0), bit("b", 0)), b.ci))
			}
			b.gName[i] = b.wire("g"+strconv.Itoa(i), g, 0, "")
		}
		if b.needP[i] || !sumBit[i] {
			b.pName[i] = b.wire("p"+strconv.Itoa(i), xor(bit("a", i), bit("b", i)), 0, "")
		}
	}

	b.section("Prefix cells, in topological order: [hi:lo] = [hi:m+1] o [m:lo]. A cell that",
		"joins bit m to [m-1:j] is a full adder of a[m], b[m] and G[m-1:j], its carry",
		"G[m:j] and its sum bit m's for a carry of 0 into bit j; for j > 0 a second",
		"full adder from K[m-1:j] = G | P gives K[m:j], read as P, and the sum for a",
		"carry of 1. (Where a cell's carry-in is a complement it takes a and b",
		"complemented, and its outputs are the complements.)")
	if p.bit0 {
		b.gName[0], _ = b.fullAdder(p, 0, b.ci, "G_c0_l0", "s0_fa", true, 1, "bit 0, a full adder from the carry-in")
	}
	type selected struct {
		m, j   int
		s1, s0 Expr
	}
	var muxes []selected
	level := make([]int, net.Signals())
	tree := treeFigures{readers: make([]int, net.Signals())}
	seen := cellNames{}
	for k := range net.Size() {
		sg := w + k
		if !b.needG[sg] {
			continue
		}
		c := net.Cell(k)
		lv := max(level[c.Lo], level[c.Hi]) + 1
		level[sg] = lv
		col := net.Column(sg)
		suffix := seen.suffix(col, lv)
		b.d.Depth = max(b.d.Depth, lv)
		b.d.BinaryCells++
		tree.add(net, []int{c.Lo, c.Hi}, col, lv)
		span, lo, hi := net.Span(sg), net.Span(c.Lo), net.Span(c.Hi)
		m := p.bitOf[k]
		black := b.needP[sg]
		if m >= 0 {
			black = base[m] > 0
		}
		kind := "gray"
		if black {
			kind = "black"
			b.d.Black++
		} else {
			b.d.Gray++
		}
		comment := fmt.Sprintf("cell %d, column %d, level %d, %s: [%d:%d] = [%d:%d] o [%d:%d]", k, col, lv, kind, span.To, span.From, hi.To, hi.From, lo.To, lo.From)
		g := fmt.Sprintf("G_c%d_l%d%s", col, lv, suffix)
		switch {
		case m < 0:
			b.gName[sg] = b.wire(g, or(b.gName[c.Hi], and(b.pName[c.Hi], b.gName[c.Lo])), lv, comment)
			if b.needP[sg] {
				b.pName[sg] = b.wire(fmt.Sprintf("P_c%d_l%d%s", col, lv, suffix), and(b.pName[c.Hi], b.pName[c.Lo]), lv, "")
			}
		case base[m] == 0:
			b.gName[sg], _ = b.fullAdder(p, m, b.gName[c.Lo], g, "s"+strconv.Itoa(m)+"_fa", true, lv, comment+", a full adder")
		default:
			kIn := p.kName[c.Lo]
			if kIn.Op == OpRef && kIn.Ref.Name == "" {
				// K = G | P of a cell that is not a full adder.
				kIn = b.wire("K_in"+strconv.Itoa(m), or(b.gName[c.Lo], b.pName[c.Lo]), lv, "")
			}
			carry0, sum0 := b.fullAdder(p, m, b.gName[c.Lo], g, "s0_b"+strconv.Itoa(m), false, lv, comment+", two full adders")
			carry1, sum1 := b.fullAdder(p, m, kIn, fmt.Sprintf("K_c%d_l%d%s", col, lv, suffix), "s1_b"+strconv.Itoa(m), false, lv, "")
			b.gName[sg], b.pName[sg], p.kName[sg] = carry0, carry1, carry1
			muxes = append(muxes, selected{m, base[m], sum1, sum0})
		}
	}
	b.d.Cells = b.d.Black + b.d.Gray
	b.d.MaxFanout, b.d.WireTracks = tree.figures(b.needOut, net)
	b.post = b.d.Depth + 1

	b.section("Post-processing: the sums of the bits whose full adders start at bit j > 0,",
		"selected by the carry into bit j, G[j-1:0]; the other bits' sums, p_i ^ the carry",
		"into bit i, G[i-1:0].")
	for _, x := range muxes {
		b.assign(Assign{Target: Bit(b.sum, x.m), Expr: mux(b.gName[net.Output(x.j-1)], x.s1, x.s0)}, b.post)
		b.d.Muxes++
	}
	for i := range n {
		if sumBit[i] {
			continue
		}
		c := b.ci
		if i > 0 {
			c = b.gName[net.Output(i-1)]
		}
		b.assign(Assign{Target: Bit(b.sum, i), Expr: xor(b.pName[i], c)}, b.post)
	}
	b.carryTop = b.ci
	if n > 1 {
		b.carryTop = b.gName[net.Output(n-2)]
	}
	if b.needCout {
		b.cout = b.gName[net.Output(n-1)]
	}
}

// faLiveness redoes plan's liveness for the full adders p marks: a full
// adder reads a and b, not its bit's generate and propagate, and G of the
// span below it, and K = G | P of that span as well where the span does
// not start at bit 0.
func (b *builder) faLiveness(p *faPlan) {
	net, w := b.net, b.n
	b.needG = make([]bool, net.Signals())
	b.needP = make([]bool, net.Signals())
	for i, need := range b.needOut {
		if need {
			b.needG[net.Output(i)] = true
		}
	}
	for k := net.Size() - 1; k >= 0; k-- {
		c := net.Cell(k)
		if p.bitOf[k] >= 0 {
			if b.needG[w+k] {
				b.needG[c.Lo] = true
				if net.Span(c.Lo).From > 0 {
					b.needP[c.Lo] = true
				}
			}
			continue
		}
		if b.needG[w+k] {
			b.needG[c.Lo], b.needG[c.Hi], b.needP[c.Hi] = true, true, true
		}
		if b.needP[w+k] {
			b.needP[c.Lo], b.needP[c.Hi] = true, true
		}
	}
}

// fullAdder declares a full adder of bit m's operands and carry-in ci, its
// carry on the wire carry and its sum on the wire sum, and returns them as
// the values they hold: where ci is a complement, the adder takes a[m] and
// b[m] complemented too, and its outputs are the complements of what the
// cell's would be (a full adder is self-dual). With final the sum is bit
// m's: it drives the bit itself where it is not a complement, and the bit
// is driven either way.
func (b *builder) fullAdder(p *faPlan, m int, ci Expr, carry, sum string, final bool, level int, comment string) (Expr, Expr) {
	fa := &b.cells.FA
	in := ci
	flip := false
	if ci.Op == OpNot {
		in, flip = ci.Args[0], true
	}
	if in.Op != OpRef {
		in = b.wire(carry+"_ci", in, level, "")
	}
	x, y := Bit("a", m), Bit("b", m)
	if flip {
		ops, ok := p.inv[m]
		if !ok {
			ops = [2]Ref{Whole("a_n" + strconv.Itoa(m)), Whole("b_n" + strconv.Itoa(m))}
			b.assign(Assign{Target: ops[0], Expr: not(bit("a", m)), Declare: true}, 0)
			b.assign(Assign{Target: ops[1], Expr: not(bit("b", m)), Declare: true}, 0)
			p.inv[m] = ops
		}
		x, y = ops[0], ops[1]
	}
	args := []Ref{x, y, in.Ref}
	cy := or(and(ref(x), ref(y)), and(ref(in.Ref), or(ref(x), ref(y))))
	sm := xor(xor(ref(x), ref(y)), ref(in.Ref))
	if fa.Inverted {
		cy, sm = not(cy), not(sm)
	}
	outInv := flip != fa.Inverted
	inst := "u_" + carry
	b.assign(Assign{Target: Whole(carry), Expr: cy, Declare: true, Comment: comment,
		Cell: &fa.Cell, CellArgs: args, Instance: inst}, level)
	direct := final && !outInv
	st := Whole(sum)
	if direct {
		st = Bit(b.sum, m)
	}
	b.assign(Assign{Target: st, Expr: sm, Declare: !direct,
		Cell: &fa.Cell, CellArgs: args, CellPin: fa.Sum, Instance: inst}, level)
	b.d.FullAdders++
	c, s := sig(carry), sig(sum)
	if outInv {
		c, s = not(c), not(s)
	}
	if final && !direct {
		b.assign(Assign{Target: Bit(b.sum, m), Expr: s}, level)
	}
	return c, s
}
