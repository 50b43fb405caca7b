package liberty

import (
	"fmt"
	"strconv"
	"strings"
)

// Function is a Liberty Boolean function, as an output pin's function
// attribute states it: an operator over operands, a pin name or a
// constant. ParseFunction makes one; Eval evaluates it.
type Function struct {
	op   byte // 0 pin, '0' or '1' constant, '!' not, '&', '|', '^'
	pin  string
	args []*Function
}

// Algebra is a Boolean algebra a Function is evaluated in: a bdd.BDD (of
// bdd.Node), truth tables, plain bools.
type Algebra[T any] interface {
	// Const returns the constant v.
	Const(v bool) T
	// Not, And, Or and Xor are the operations.
	Not(x T) T
	And(x, y T) T
	Or(x, y T) T
	Xor(x, y T) T
	// Full reports that the algebra has grown past its bound (a store of
	// decision diagrams past its size): Eval then gives up.
	Full() bool
}

// Eval returns f's value in a, each pin's value given by env; ok is false
// when f names a pin env lacks, or a grows Full on the way (it is asked
// after each operand of an operator but the first). The operations are
// made in the function's order, left to right.
func Eval[T any](f *Function, a Algebra[T], env map[string]T) (v T, ok bool) {
	var zero T
	switch f.op {
	case 0:
		v, ok := env[f.pin]
		return v, ok
	case '0':
		return a.Const(false), true
	case '1':
		return a.Const(true), true
	case '!':
		v, ok := Eval(f.args[0], a, env)
		if !ok {
			return zero, false
		}
		return a.Not(v), true
	}
	acc, ok := Eval(f.args[0], a, env)
	if !ok {
		return zero, false
	}
	for _, g := range f.args[1:] {
		v, ok := Eval(g, a, env)
		if !ok || a.Full() {
			return zero, false
		}
		switch f.op {
		case '&':
			acc = a.And(acc, v)
		case '|':
			acc = a.Or(acc, v)
		case '^':
			acc = a.Xor(acc, v)
		}
	}
	return acc, true
}

// ParseFunction reads a Liberty function such as "(!((A B)+C))": ! and a
// trailing ' invert, ^ is exclusive or, & * or juxtaposition and, + | or,
// in that order of precedence; 0 and 1 are constants, and a pin is a
// name of letters, digits, _ . [ and ].
func ParseFunction(s string) (*Function, error) {
	p := funcParser{s: s}
	f, err := p.or()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("liberty: function %s: unexpected %s at %d", quoteCut(s), quoteCut(p.s[p.i:]), p.i)
	}
	return f, nil
}

// MaxFunctionDepth is how deep parentheses and ! may nest in a function:
// far past any cell's, and the parser and Eval recurse on each.
const MaxFunctionDepth = 256

// quoteCut quotes s for an error, cut after 60 bytes: a function may be
// as long as its file.
func quoteCut(s string) string {
	if len(s) > 60 {
		return strconv.Quote(s[:60]) + "…"
	}
	return strconv.Quote(s)
}

type funcParser struct {
	s     string
	i     int
	depth int // of the ( and ! open
}

// nest enters one more ( or !, and refuses one past MaxFunctionDepth.
func (p *funcParser) nest() error {
	if p.depth++; p.depth > MaxFunctionDepth {
		return fmt.Errorf("liberty: function %s: nested deeper than %d parentheses and !: allowed %d", quoteCut(p.s), MaxFunctionDepth, MaxFunctionDepth)
	}
	return nil
}

func (p *funcParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *funcParser) peek() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *funcParser) or() (*Function, error) {
	return p.binary('|', "+|", p.and)
}

func (p *funcParser) and() (*Function, error) {
	f, err := p.xor()
	if err != nil {
		return nil, err
	}
	args := []*Function{f}
	for {
		c := p.peek()
		if c == '&' || c == '*' {
			p.i++
		} else if c == 0 || strings.IndexByte("+|)", c) >= 0 {
			break
		}
		g, err := p.xor()
		if err != nil {
			return nil, err
		}
		args = append(args, g)
	}
	if len(args) == 1 {
		return f, nil
	}
	return &Function{op: '&', args: args}, nil
}

func (p *funcParser) xor() (*Function, error) {
	return p.binary('^', "^", p.unary)
}

// binary parses next { one of ops next }.
func (p *funcParser) binary(op byte, ops string, next func() (*Function, error)) (*Function, error) {
	f, err := next()
	if err != nil {
		return nil, err
	}
	args := []*Function{f}
	for c := p.peek(); c != 0 && strings.IndexByte(ops, c) >= 0; c = p.peek() {
		p.i++
		g, err := next()
		if err != nil {
			return nil, err
		}
		args = append(args, g)
	}
	if len(args) == 1 {
		return f, nil
	}
	return &Function{op: op, args: args}, nil
}

func (p *funcParser) unary() (*Function, error) {
	var f *Function
	switch c := p.peek(); {
	case c == '!':
		p.i++
		if err := p.nest(); err != nil {
			return nil, err
		}
		g, err := p.unary()
		if err != nil {
			return nil, err
		}
		p.depth--
		return &Function{op: '!', args: []*Function{g}}, nil
	case c == '(':
		p.i++
		if err := p.nest(); err != nil {
			return nil, err
		}
		g, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, fmt.Errorf("liberty: function %s: missing ) at %d", quoteCut(p.s), p.i)
		}
		p.i++
		p.depth--
		f = g
	case c == '0' || c == '1':
		p.i++
		f = &Function{op: c}
	case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
		j := p.i
		for j < len(p.s) && (p.s[j] == '_' || p.s[j] == '[' || p.s[j] == ']' || p.s[j] == '.' ||
			p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= '0' && p.s[j] <= '9') {
			j++
		}
		f = &Function{pin: p.s[p.i:j]}
		p.i = j
	default:
		return nil, fmt.Errorf("liberty: function %s: unexpected %q at %d", quoteCut(p.s), string(c), p.i)
	}
	for p.i < len(p.s) && p.s[p.i] == '\'' {
		p.i++
		f = &Function{op: '!', args: []*Function{f}}
	}
	return f, nil
}
