package simulate

import (
	"fmt"
	"strconv"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/carry"
)

// VerifyDescription checks an adder's gate-level description (package
// adder: its sparse tree, valency, Ling carries, register stages and the
// functions of its library cells) as VerifyAdder checks the adder around a
// network: corner vectors, every vector up to MaxExhaustiveWidth bits and
// opt.Vectors random ones, 64 at a time, each gate of the description
// evaluated on 64 vectors at once. A pipeline is evaluated with its
// inputs held until every stage holds what they make, rst low. The
// description must compute {cout, sum} = a + b + cin, the operation an
// adder document records; the error is for another operation and for bad
// options.
func VerifyDescription(d *adder.Description, opt VerifyOptions) (AdderReport, error) {
	if opt.Vectors < 0 {
		return AdderReport{}, fmt.Errorf("simulate: %d vectors: want 0 or more", opt.Vectors)
	}
	arch := d.Architecture
	if arch.Op != adder.Add || arch.NoCarryIn || arch.Flags != adder.Carry {
		return AdderReport{}, fmt.Errorf("simulate: VerifyDescription checks {cout, sum} = a + b + cin: not %s", arch.Name())
	}
	p, err := compileDescription(d)
	if err != nil {
		return AdderReport{}, err
	}
	return verify(d.Width, p.add, carry.Ripple, opt), nil
}

// lane is one instruction of a compiled description: dst = op(args) on 64
// vectors at once, each slot a bit of a signal.
type lane struct {
	op   adder.ExprOp // OpRef copies args[0]; OpMux is args[0] ? args[1] : args[2]
	dst  int
	args []int
}

// program is a description compiled to instructions over slots.
type program struct {
	slots      []uint64
	code       []lane
	regQ, regD []int // each register bit's slot and its input's
	passes     int   // the latency + 1: how often the registers load
	a, b, sum  []int
	cin, cout  int
}

// Slots 0 and 1 hold the constants.
const (
	zeroSlot = 0
	onesSlot = 1
)

// arities are the counts of arguments each operator takes: its name in a
// message, the least count and the most (0: no most).
var arities = map[adder.ExprOp]struct {
	name     string
	min, max int
}{
	adder.OpNot: {"a NOT", 1, 1}, adder.OpReduceAnd: {"a reducing AND", 1, 1}, adder.OpReduceOr: {"a reducing OR", 1, 1},
	adder.OpMux: {"a multiplexer", 3, 3}, adder.OpAnd: {"an AND", 2, 0}, adder.OpOr: {"an OR", 2, 0}, adder.OpXor: {"an XOR", 2, 0},
}

// arity refuses an expression with a count of arguments its operator
// does not take.
func arity(e adder.Expr) error {
	a, ok := arities[e.Op]
	n := len(e.Args)
	if !ok || n >= a.min && (a.max == 0 || n <= a.max) {
		return nil
	}
	allowed := strconv.Itoa(a.min)
	if a.max == 0 {
		allowed += " or more"
	}
	args := "arguments"
	if n == 1 {
		args = "argument"
	}
	return fmt.Errorf("simulate: the description has %s of %d %s: allowed %s", a.name, n, args, allowed)
}

// compileDescription lays every signal of d out in slots and its
// assignments out as instructions, a bus bit by bit.
func compileDescription(d *adder.Description) (*program, error) {
	p := &program{passes: d.Latency + 1}
	next := 2
	signals := map[string][]int{}
	lows := map[string]int{} // a bus's lowest bit, adder.Signal.Lo
	declare := func(name string, width, lo int) {
		if _, ok := signals[name]; ok {
			return
		}
		lows[name] = lo
		s := make([]int, max(width, 1))
		for i := range s {
			s[i] = next
			next++
		}
		signals[name] = s
	}
	for _, port := range d.Ports {
		declare(port.Name, port.Width, 0)
	}
	for _, r := range d.Registers() {
		declare(r.Q.Name, r.Q.Width, r.Q.Lo)
	}
	for _, sec := range d.Sections {
		for _, b := range sec.Buses {
			declare(b.Name, b.Width, b.Lo)
		}
		for _, a := range sec.Assigns {
			if a.Declare {
				declare(a.Target.Name, a.Width, 0)
			}
		}
	}
	ref := func(r adder.Ref) ([]int, error) {
		s, ok := signals[r.Name]
		lo := lows[r.Name]
		switch {
		case r.Bit < -1:
			return nil, fmt.Errorf("simulate: the description reads bit %d of %s: allowed a bit from 0, or -1 for the whole signal", r.Bit, r.Name)
		case !ok:
			return nil, fmt.Errorf("simulate: the description reads %s, which it does not declare", r)
		case r.Bit >= 0 && (r.Bit < lo || r.Bit >= lo+len(s)):
			return nil, fmt.Errorf("simulate: the description reads %s of a signal of bits %d to %d", r, lo, lo+len(s)-1)
		case r.Bit >= 0:
			return s[r.Bit-lo : r.Bit-lo+1], nil
		}
		return s, nil
	}
	emit := func(op adder.ExprOp, args ...int) int {
		p.code = append(p.code, lane{op: op, dst: next, args: args})
		next++
		return next - 1
	}
	var expr func(e adder.Expr) ([]int, error)
	expr = func(e adder.Expr) ([]int, error) {
		if err := arity(e); err != nil {
			return nil, err
		}
		args := make([][]int, len(e.Args))
		for i, a := range e.Args {
			var err error
			if args[i], err = expr(a); err != nil {
				return nil, err
			}
		}
		switch e.Op {
		case adder.OpRef:
			return ref(e.Ref)
		case adder.OpConst:
			if e.Value {
				return []int{onesSlot}, nil
			}
			return []int{zeroSlot}, nil
		case adder.OpNot:
			out := make([]int, len(args[0]))
			for i, x := range args[0] {
				out[i] = emit(adder.OpNot, x)
			}
			return out, nil
		case adder.OpAnd, adder.OpOr, adder.OpXor:
			out := make([]int, len(args[0]))
			for i := range out {
				bits := make([]int, len(args))
				for j, a := range args {
					if len(a) != len(out) {
						return nil, fmt.Errorf("simulate: the description combines signals of %d and %d bits", len(out), len(a))
					}
					bits[j] = a[i]
				}
				out[i] = emit(e.Op, bits...)
			}
			return out, nil
		case adder.OpMux:
			if len(args[0]) != 1 || len(args[1]) != len(args[2]) {
				return nil, fmt.Errorf("simulate: the description selects with %d bits between %d and %d", len(args[0]), len(args[1]), len(args[2]))
			}
			out := make([]int, len(args[1]))
			for i := range out {
				out[i] = emit(adder.OpMux, args[0][0], args[1][i], args[2][i])
			}
			return out, nil
		case adder.OpReduceAnd, adder.OpReduceOr:
			op := adder.OpAnd
			if e.Op == adder.OpReduceOr {
				op = adder.OpOr
			}
			return []int{emit(op, args[0]...)}, nil
		}
		return nil, fmt.Errorf("simulate: the description has an operator %d this package does not know", e.Op)
	}
	for _, sec := range d.Sections {
		for _, a := range sec.Assigns {
			v, err := expr(a.Expr)
			if err != nil {
				return nil, err
			}
			dst, err := ref(a.Target)
			if err != nil {
				return nil, err
			}
			if len(v) != len(dst) {
				return nil, fmt.Errorf("simulate: the description drives %s of %d bits with %d", a.Target, len(dst), len(v))
			}
			for i := range dst {
				p.code = append(p.code, lane{op: adder.OpRef, dst: dst[i], args: []int{v[i]}})
			}
		}
	}
	for _, r := range d.Registers() {
		q := signals[r.Q.Name]
		dv, err := ref(r.D)
		if err != nil {
			return nil, err
		}
		if len(dv) != len(q) {
			return nil, fmt.Errorf("simulate: register %s of %d bits loads %d", r.Q.Name, len(q), len(dv))
		}
		p.regQ, p.regD = append(p.regQ, q...), append(p.regD, dv...)
	}
	port := func(name string, width int) ([]int, error) {
		s, ok := signals[name]
		if !ok || len(s) != width {
			return nil, fmt.Errorf("simulate: the description has no port %s of %d bits", name, width)
		}
		return s, nil
	}
	var err error
	var cin, cout []int
	if p.a, err = port("a", d.Width); err != nil {
		return nil, err
	}
	if p.b, err = port("b", d.Width); err != nil {
		return nil, err
	}
	if p.sum, err = port("sum", d.Width); err != nil {
		return nil, err
	}
	if cin, err = port("cin", 1); err != nil {
		return nil, err
	}
	if cout, err = port("cout", 1); err != nil {
		return nil, err
	}
	p.cin, p.cout = cin[0], cout[0]
	p.slots = make([]uint64, next)
	p.slots[onesSlot] = ^uint64(0)
	return p, nil
}

// add runs the program on 64 vectors, as carry.Adder.Add does: x and y the
// operands bit by bit, cin their carries-in; every other input (clk, rst)
// stays low.
func (p *program) add(sum, x, y []uint64, cin uint64) uint64 {
	s := p.slots
	for i, slot := range p.a {
		s[slot] = x[i]
	}
	for i, slot := range p.b {
		s[slot] = y[i]
	}
	s[p.cin] = cin
	for pass := range p.passes {
		p.run()
		if pass == p.passes-1 {
			break
		}
		for i, q := range p.regQ {
			s[q] = s[p.regD[i]]
		}
	}
	for i, slot := range p.sum {
		sum[i] = s[slot]
	}
	return s[p.cout]
}

// run evaluates every instruction once, in order.
func (p *program) run() {
	s := p.slots
	for _, l := range p.code {
		var v uint64
		switch l.op {
		case adder.OpRef:
			v = s[l.args[0]]
		case adder.OpNot:
			v = ^s[l.args[0]]
		case adder.OpAnd:
			v = ^uint64(0)
			for _, a := range l.args {
				v &= s[a]
			}
		case adder.OpOr:
			for _, a := range l.args {
				v |= s[a]
			}
		case adder.OpXor:
			for _, a := range l.args {
				v ^= s[a]
			}
		case adder.OpMux:
			sel := s[l.args[0]]
			v = sel&s[l.args[1]] | ^sel&s[l.args[2]]
		}
		s[l.dst] = v
	}
}
