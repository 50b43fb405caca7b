package warp

import (
	"fmt"
	"math/bits"

	"github.com/prefixgen/prefixgen/network"
)

// Lower lowers a prefix network of width 1 to 32 to a warp program: one
// step per level of the network (as soon as possible), split only where the
// level's cells need different registers or two of them share a column, and
// spare registers wherever a value still needed would be overwritten. The
// package documentation describes the lowering.
func Lower(net *network.Network) (*Program, error) {
	w := net.Width()
	if w < 1 || w > Lanes {
		return nil, fmt.Errorf("warp: width %d out of range: a warp program allows 1 to %d", w, Lanes)
	}
	l := newLowering(net)
	for lv, cells := range l.levels() {
		for len(cells) > 0 {
			var step []int
			cells, step = l.take(cells)
			l.emit(lv, step)
		}
	}
	l.finish()
	return &l.prog, nil
}

// lowering is the state of Lower: where every signal lives, and which are
// still needed.
type lowering struct {
	net  *network.Network
	prog Program
	// uses[s] is the number of reads of signal s by cells not yet lowered.
	uses []int
	// output[s] is set when s is an output.
	output []bool
	// reg[s] is the register holding signal s in lane Column(s), or −1.
	reg []int
	// hold[lane][r] is the signal register r of lane holds, or −1.
	hold [][]int
}

// newLowering returns the state before the first step: the inputs in
// register 0 of their lanes.
func newLowering(net *network.Network) *lowering {
	w, n := net.Width(), net.Signals()
	l := &lowering{
		net:    net,
		prog:   Program{Width: w, Registers: 1},
		uses:   make([]int, n),
		output: make([]bool, n),
		reg:    make([]int, n),
		hold:   make([][]int, w),
	}
	for k := range net.Size() {
		c := net.Cell(k)
		l.uses[c.Lo]++
		l.uses[c.Hi]++
	}
	for i := range w {
		l.output[net.Output(i)] = true
	}
	for s := range l.reg {
		l.reg[s] = -1
	}
	for i := range w {
		l.reg[i] = 0
		l.hold[i] = []int{i}
	}
	return l
}

// levels returns the cells grouped by level, in cell order within a level.
func (l *lowering) levels() [][]int {
	var by [][]int
	for k := range l.net.Size() {
		lv := l.net.Level(l.net.CellSignal(k))
		for len(by) <= lv {
			by = append(by, nil)
		}
		by[lv] = append(by[lv], k)
	}
	return by
}

// live reports whether signal s is still needed: a cell not yet lowered
// reads it, or it is an output.
func (l *lowering) live(s int) bool { return l.uses[s] > 0 || l.output[s] }

// take splits off the cells of one step from the pending cells of a level:
// the first pending cell and every later one that reads its operands from
// the same registers and has a column of its own. It returns the cells left
// and the step's cells, both in cell order.
func (l *lowering) take(pending []int) (rest, step []int) {
	net := l.net
	first := net.Cell(pending[0])
	from, hi := l.reg[first.Lo], l.reg[first.Hi]
	var cols uint32
	for _, k := range pending {
		c := net.Cell(k)
		col := uint32(1) << net.Column(c.Hi)
		if cols&col == 0 && l.reg[c.Lo] == from && l.reg[c.Hi] == hi {
			step = append(step, k)
			cols |= col
		} else {
			rest = append(rest, k)
		}
	}
	return rest, step
}

// emit appends the step that computes the given cells, one per column, all
// reading their Lo operand from one register and their Hi operand from one
// register, and saves every overwritten value that is still needed.
func (l *lowering) emit(level int, cells []int) {
	net := l.net
	first := net.Cell(cells[0])
	st := Step{Level: level, FromReg: l.reg[first.Lo], HiReg: l.reg[first.Hi]}
	var src [Lanes]int
	for i := range src {
		src[i] = -1
	}
	for _, k := range cells {
		c := net.Cell(k)
		lane := net.Column(c.Hi)
		src[lane] = net.Column(c.Lo)
		st.Active |= 1 << lane
		l.uses[c.Lo]--
		l.uses[c.Hi]--
	}
	// Save, before the shuffle, every value the combine will overwrite that
	// a later cell or the result still needs.
	saves := make(map[int]uint32)
	for _, k := range cells {
		lane := net.Column(net.CellSignal(k))
		old := l.hold[lane][0]
		if old >= 0 && l.live(old) {
			r := l.spare(lane, st.FromReg, st.HiReg)
			if prev := l.hold[lane][r]; prev >= 0 {
				l.reg[prev] = -1
			}
			l.hold[lane][r] = old
			l.reg[old] = r
			saves[r] |= 1 << lane
		} else if old >= 0 {
			l.reg[old] = -1
		}
		s := net.CellSignal(k)
		l.hold[lane][0] = s
		l.reg[s] = 0
	}
	for r := 1; r < l.prog.Registers; r++ {
		if m := saves[r]; m != 0 {
			st.Copies = append(st.Copies, Copy{From: 0, To: r, Mask: m})
		}
	}
	st.Src, st.SrcTable = classifySrc(&src)
	st.Pred = classifyPred(st.Active)
	l.prog.Steps = append(l.prog.Steps, st)
}

// spare returns the lowest spare register of lane that holds nothing still
// needed and is neither of the registers the step reads, growing the
// program's registers when there is none.
func (l *lowering) spare(lane, from, hi int) int {
	for r := 1; ; r++ {
		if r == from || r == hi {
			continue
		}
		for len(l.hold[lane]) <= r {
			l.hold[lane] = append(l.hold[lane], -1)
		}
		if s := l.hold[lane][r]; s < 0 || !l.live(s) {
			l.prog.Registers = max(l.prog.Registers, r+1)
			return r
		}
	}
}

// finish appends the copies that bring every output left in a spare back to
// register 0.
func (l *lowering) finish() {
	moves := make(map[int]uint32)
	for i := range l.prog.Width {
		if r := l.reg[l.net.Output(i)]; r != 0 {
			moves[r] |= 1 << i
		}
	}
	for r := 1; r < l.prog.Registers; r++ {
		if m := moves[r]; m != 0 {
			l.prog.Final = append(l.prog.Final, Copy{From: r, To: 0, Mask: m})
		}
	}
}

// classifySrc finds the closed form of a source-lane function given on the
// active lanes (−1 elsewhere): SrcBroadcast, else SrcUp, else SrcTable. It
// returns the form and its table on all lanes: the form's own lanes where it
// is closed, each lane's own lane where no lane is given.
func classifySrc(src *[Lanes]int) (Src, [Lanes]int) {
	fits := func(s Src) bool {
		for lane, from := range src {
			if from >= 0 && s.lane(lane, nil) != from {
				return false
			}
		}
		return true
	}
	form := Src{Kind: SrcTable}
	for d := 1; d < Lanes && form.Kind == SrcTable; d *= 2 {
		if s := (Src{Kind: SrcBroadcast, D: d}); fits(s) {
			form = s
		}
	}
	for d := 1; d < Lanes && form.Kind == SrcTable; d++ {
		if s := (Src{Kind: SrcUp, D: d}); fits(s) {
			form = s
		}
	}
	var table [Lanes]int
	for lane, from := range src {
		switch {
		case form.Kind != SrcTable:
			table[lane] = form.lane(lane, nil)
		case from >= 0:
			table[lane] = from
		default:
			table[lane] = lane
		}
	}
	return form, table
}

// classifyPred finds the closed form of a nonzero mask of active lanes:
// PredRange, else PredBit, else PredMod, else PredMask. The bounds of PredBit
// and PredMod are left out (0 and Lanes) where they constrain nothing.
func classifyPred(mask uint32) Pred {
	lo := bits.TrailingZeros32(mask)
	hi := Lanes - bits.LeadingZeros32(mask) // one past the highest lane
	fits := func(p Pred) bool {
		for lane := range Lanes {
			if p.holds(lane, 0) != (mask>>uint(lane)&1 == 1) {
				return false
			}
		}
		return true
	}
	if p := (Pred{Kind: PredRange, From: lo, To: hi}); fits(p) {
		return p
	}
	// Each form with the loosest bounds that fit.
	bounded := func(p Pred) (Pred, bool) {
		for _, b := range [][2]int{{0, Lanes}, {lo, Lanes}, {0, hi}, {lo, hi}} {
			p.From, p.To = b[0], b[1]
			if fits(p) {
				return p, true
			}
		}
		return p, false
	}
	for b := 1; b < Lanes; b *= 2 {
		if p, ok := bounded(Pred{Kind: PredBit, Bit: b}); ok {
			return p
		}
	}
	for m := 2; m <= Lanes; m++ {
		if p, ok := bounded(Pred{Kind: PredMod, Mod: m, Rem: lo % m}); ok {
			return p
		}
	}
	return Pred{Kind: PredMask}
}
