package adder

import (
	"cmp"
	"strconv"
	"strings"
)

// unusedPrefix begins the name of a wire that a library cell's output
// drives and nothing reads.
const unusedPrefix = "unused_"

// prune drops what the adder declares and nothing reads, so that the HDL
// written from it lints clean (Verilator -Wall warns of every unread bit):
// the bits at either end of a bus that no one reads, such as Ling's t_0
// beside a sparse tree without a carry-in, whose lowest block ripples from
// the carry-in itself, or the bits of the top block without a carry out;
// and a wire no one reads. The output of a library cell no one reads, the
// carry of a full adder at the top of a block, drives a wire named
// unused_NAME, as Verilator's -Wall expects of a wire left unread on
// purpose. A bus keeps the bits between the lowest and the highest that
// something reads, so that none of its bits is left undriven. Dropping one
// wire can leave another unread, so prune runs until nothing changes.
//
// An adder of full adders is left as it is, for now: the goal adders of
// docs/goals and the named adders they are judged against were measured
// from its text (optimize's TestLibraryGoalsFlowsRecorded), and its
// unread wires go when those sets are measured again.
func (b *builder) prune() {
	if b.arch.FACells {
		return
	}
	for b.pruneOnce() {
	}
}

// pruneOnce is one pass of prune; it reports whether it changed anything.
func (b *builder) pruneOnce() bool {
	whole := map[string]bool{}
	read := map[Ref]bool{}
	note := func(r Ref) {
		if r.Bit < 0 {
			whole[r.Name] = true
		}
		read[r] = true
	}
	b.eachRead(func(r *Ref) { note(*r) })
	// bitsRead returns which of the bits from lo to lo+w−1 of a bus are
	// read, from the lowest to the highest read; none, all of them, or
	// with gaps between.
	bitsRead := func(name string, lo, w int) (from, to int, gaps bool) {
		if whole[name] {
			return lo, lo + w, false
		}
		from, to = lo+w, lo
		n := 0
		for i := lo; i < lo+w; i++ {
			if read[Bit(name, i)] {
				from, to, n = min(from, i), i+1, n+1
			}
		}
		return from, max(from, to), n < to-from
	}
	changed := false
	split := map[string]bool{} // buses now wires, a bit each
	for i := range b.d.Sections {
		sec := &b.d.Sections[i]
		keep := map[string][2]int{} // bus → the bits it keeps
		var buses []Signal
		for _, bus := range sec.Buses {
			from, to, gaps := bitsRead(bus.Name, bus.Lo, bus.Width)
			switch {
			case gaps:
				split[bus.Name] = true
				changed = true
				continue
			case from != bus.Lo || to != bus.Lo+bus.Width:
				bus.Lo, bus.Width = from, to-from
				b.widths[bus.Name], b.lows[bus.Name] = to-from, from
				changed = true
			}
			keep[bus.Name] = [2]int{from, to}
			if bus.Width > 0 {
				buses = append(buses, bus)
			}
		}
		sec.Buses = buses
		var assigns []Assign
		var levels []int
		comment := ""
		add := func(a Assign, level int) {
			if comment != "" && a.Comment == "" {
				a.Comment, comment = comment, ""
			}
			assigns, levels = append(assigns, a), append(levels, level)
		}
		for j, a := range sec.Assigns {
			level := b.assignLevel[i][j]
			name := a.Target.Name
			if k, ok := keep[name]; ok && a.Target.Bit >= 0 && (a.Target.Bit < k[0] || a.Target.Bit >= k[1]) ||
				split[name] && a.Target.Bit >= 0 && !read[a.Target] {
				comment = cmp.Or(comment, a.Comment)
				changed = true
				continue
			}
			if !a.Declare || whole[name] {
				add(a, level)
				continue
			}
			switch {
			case a.Cell != nil:
				// The cell stays, for its other output. An open pin would
				// draw Verilator's PINCONNECTEMPTY warning; a wire whose
				// name holds "unused" draws none.
				if !strings.HasPrefix(name, unusedPrefix) {
					a.Target.Name = unusedPrefix + name
					b.levels[a.Target.Name] = level
					changed = true
				}
			case a.Width == 0:
				// Its comment, if any, is its own.
				changed = true
				continue
			default:
				from, to, gaps := bitsRead(name, 0, a.Width)
				bits, ok := splitBits(a, from, to, func(i int) bool { return read[Bit(name, i)] })
				if !ok {
					break
				}
				if gaps {
					split[name] = true
				} else {
					sec.Buses = append(sec.Buses, Signal{Name: name, Width: to - from, Lo: from})
					b.widths[name], b.lows[name] = to-from, from
				}
				for _, s := range bits {
					add(s, level)
				}
				changed = true
				continue
			}
			add(a, level)
		}
		sec.Assigns, b.assignLevel[i] = assigns, levels
	}
	if len(split) > 0 {
		b.splitBuses(split)
	}
	return changed
}

// eachRead calls fn on every reference that an assignment reads: in its
// expression, and a cell's inputs.
func (b *builder) eachRead(fn func(r *Ref)) {
	for i := range b.d.Sections {
		for j := range b.d.Sections[i].Assigns {
			a := &b.d.Sections[i].Assigns[j]
			walk(&a.Expr, fn)
			for k := range a.CellArgs {
				fn(&a.CellArgs[k])
			}
		}
	}
}

// splitBuses makes each bit of the named buses, whose bits are read with
// gaps between, a wire of its own, NAME_I, so that no bit is declared
// that no one reads.
func (b *builder) splitBuses(split map[string]bool) {
	wire := func(r *Ref) {
		if split[r.Name] && r.Bit >= 0 {
			name := r.Name + "_" + strconv.Itoa(r.Bit)
			b.levels[name] = b.levels[r.Name]
			*r = Whole(name)
		}
	}
	for i := range b.d.Sections {
		for j := range b.d.Sections[i].Assigns {
			a := &b.d.Sections[i].Assigns[j]
			if split[a.Target.Name] && a.Target.Bit >= 0 {
				wire(&a.Target)
				a.Declare, a.Width = true, 0
			}
		}
	}
	b.eachRead(wire)
}

// splitBits returns the assignments, bit by bit, of the bits from to to−1
// that keep says to keep of a declared bus that a bitwise expression of
// whole signals drives (p = a ^ b, t = a | b). It reports false where the
// bus keeps all its bits, or its expression is not bitwise.
func splitBits(a Assign, from, to int, keep func(int) bool) ([]Assign, bool) {
	all := from == 0 && to == a.Width
	for i := from; i < to && all; i++ {
		all = keep(i)
	}
	if all || a.Cell != nil || !bitwise(a.Expr) {
		return nil, false
	}
	out := make([]Assign, 0, to-from)
	for i := from; i < to; i++ {
		if !keep(i) {
			continue
		}
		e := cloneExpr(a.Expr)
		walk(&e, func(r *Ref) { r.Bit = i })
		s := Assign{Target: Bit(a.Target.Name, i), Expr: e}
		if len(out) == 0 {
			s.Comment = a.Comment
		}
		out = append(out, s)
	}
	return out, true
}

// bitwise reports whether e computes each bit of its result from the same
// bit of whole signals: references to whole signals, constants, and the
// bitwise operators.
func bitwise(e Expr) bool {
	switch e.Op {
	case OpRef:
		return e.Ref.Bit < 0
	case OpConst:
		return true
	case OpNot, OpAnd, OpOr, OpXor:
		for _, x := range e.Args {
			if !bitwise(x) {
				return false
			}
		}
		return true
	}
	return false
}

// cloneExpr returns a deep copy of e.
func cloneExpr(e Expr) Expr {
	c := e
	c.Args = make([]Expr, len(e.Args))
	for i, x := range e.Args {
		c.Args[i] = cloneExpr(x)
	}
	return c
}
