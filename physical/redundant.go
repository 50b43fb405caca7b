package physical

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// libCell is what RedundantArea needs of a Liberty cell: its area and the
// function of each output pin, nil where the file gives none that
// parseFunction reads (a flip-flop's state, a pin it does not name).
type libCell struct {
	area    float64
	hasArea bool // the file gives the cell an area
	outputs map[string]*function
	// clock is the pin a flip-flop's state changes on (its ff group's
	// clocked_on, as written: "CLK", or "(!CLK)" for the falling edge);
	// latch reports a latch.
	clock string
	latch bool
	// inputs are the input pins, in the file's order; dontUse reports a
	// cell marked dont_use.
	inputs  []string
	dontUse bool
}

// maxBDDNodes bounds the decision diagrams RedundantArea builds: a cell
// whose function would take it past the bound counts as distinct logic.
const maxBDDNodes = 1 << 20

// bdd is a reduced ordered binary decision diagram store: node 0 is false,
// node 1 true, and every other node tests a variable. Two signals compute
// the same function exactly when they are the same node.
type bdd struct {
	nodes  []bddNode
	unique map[bddNode]int32
	memo   map[[3]int32]int32
}

type bddNode struct{ v, lo, hi int32 }

func newBDD() *bdd {
	return &bdd{nodes: []bddNode{{v: 1 << 30}, {v: 1 << 30}}, unique: map[bddNode]int32{}, memo: map[[3]int32]int32{}}
}

// variable returns the node of variable v.
func (b *bdd) variable(v int32) int32 { return b.node(v, 0, 1) }

func (b *bdd) node(v, lo, hi int32) int32 {
	if lo == hi {
		return lo
	}
	n := bddNode{v, lo, hi}
	if id, ok := b.unique[n]; ok {
		return id
	}
	b.nodes = append(b.nodes, n)
	id := int32(len(b.nodes) - 1)
	b.unique[n] = id
	return id
}

// ite returns if f then g else h.
func (b *bdd) ite(f, g, h int32) int32 {
	switch {
	case f == 1:
		return g
	case f == 0:
		return h
	case g == h:
		return g
	case g == 1 && h == 0:
		return f
	}
	key := [3]int32{f, g, h}
	if r, ok := b.memo[key]; ok {
		return r
	}
	v := min(b.nodes[f].v, b.nodes[g].v, b.nodes[h].v)
	f0, f1 := b.cofactors(f, v)
	g0, g1 := b.cofactors(g, v)
	h0, h1 := b.cofactors(h, v)
	r := b.node(v, b.ite(f0, g0, h0), b.ite(f1, g1, h1))
	b.memo[key] = r
	return r
}

func (b *bdd) cofactors(f, v int32) (int32, int32) {
	if n := b.nodes[f]; n.v == v {
		return n.lo, n.hi
	}
	return f, f
}

func (b *bdd) not(f int32) int32 { return b.ite(f, 0, 1) }

// canonical returns the smaller of f and its complement, so that a signal
// and its complement share a key.
func (b *bdd) canonical(f int32) int32 { return min(f, b.not(f)) }

// RedundantArea returns the area of the cells of a mapped netlist that
// compute a signal the netlist already carries, or its complement: logic
// the mapper computed twice (a gate duplicated in both polarities to save an
// inverter's delay, the inverter itself, a buffer). lib is the Liberty file
// the netlist was mapped onto, mapped the netlist as Yosys's
// write_verilog -noexpr writes it. Every signal's function of the inputs
// is built as a binary decision diagram (inputs ordered by bit, a[0] b[0]
// a[1] b[1] …), so equal functions are found exactly; signals with the same
// function, or complementary ones, form a class. A class that holds an
// input or a constant is all redundant; otherwise every cell of it but the
// largest is (of a NAND and the inverter after it, the inverter). Cells whose function the Liberty file does not state
// plainly, cells of several outputs and functions too large for the
// diagrams count as distinct logic, so the figure is a lower bound; a
// netlist or library it cannot read at all gives 0. The result is the same
// for the same files.
func RedundantArea(lib, mapped []byte) float64 {
	cells := libertyCells(string(lib))
	insts, assigns := netlistCells(string(mapped))
	if len(insts) == 0 {
		return 0
	}
	driven := map[string]bool{}
	for _, in := range insts {
		for pin, net := range in.pins {
			if c, ok := cells[in.cell]; ok && hasOutput(c, pin) {
				driven[net] = true
			}
		}
	}
	for _, a := range assigns {
		driven[a[0]] = true
	}
	// The inputs, in the order of their variables.
	var inputs []string
	seen := map[string]bool{}
	for _, in := range insts {
		for _, net := range in.pins {
			if !driven[net] && !seen[net] && !isConstant(net) {
				seen[net] = true
				inputs = append(inputs, net)
			}
		}
	}
	for _, a := range assigns {
		if net := a[1]; !driven[net] && !seen[net] && !isConstant(net) {
			seen[net] = true
			inputs = append(inputs, net)
		}
	}
	slices.SortFunc(inputs, func(x, y string) int {
		if c := bitIndex(x) - bitIndex(y); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	b := newBDD()
	value := map[string]int32{}
	free := map[string]bool{} // inputs, constants, outputs of opaque or multi-output cells
	next := int32(0)
	fresh := func() int32 {
		next++
		return b.variable(next - 1)
	}
	for _, net := range inputs {
		value[net], free[net] = fresh(), true
	}
	get := func(net string) (int32, bool) {
		if v, ok := value[net]; ok {
			return v, true
		}
		switch net {
		case "1'h0", "1'b0":
			return 0, true
		case "1'h1", "1'b1":
			return 1, true
		}
		return 0, false
	}
	type member struct {
		area float64
		free bool
	}
	classes := map[int32][]member{}
	var order []int32
	add := func(f int32, m member) {
		k := b.canonical(f)
		if _, ok := classes[k]; !ok {
			order = append(order, k)
		}
		classes[k] = append(classes[k], m)
	}
	// Evaluate in rounds until nothing more can be: the netlist is
	// combinational once opaque cells cut it.
	pending := slices.Clone(insts)
	for len(pending) > 0 {
		var rest []instance
		for _, in := range pending {
			c, known := cells[in.cell]
			if !known {
				continue // its outputs are inputs here
			}
			outs := 0
			env := map[string]int32{}
			ready := true
			for _, pin := range sortedKeys(in.pins) {
				if hasOutput(c, pin) {
					outs++
					continue
				}
				v, ok := get(in.pins[pin])
				if !ok {
					ready = false
					break
				}
				env[pin] = v
			}
			if !ready {
				rest = append(rest, in)
				continue
			}
			for _, pin := range sortedKeys(in.pins) {
				if !hasOutput(c, pin) {
					continue
				}
				net := in.pins[pin]
				v, ok := int32(0), false
				if f := c.outputs[pin]; f != nil && len(b.nodes) < maxBDDNodes {
					v, ok = f.eval(b, env)
				}
				if !ok || outs > 1 {
					if !ok {
						v = fresh()
					}
					value[net], free[net] = v, true
					continue
				}
				value[net] = v
				add(v, member{area: c.area})
			}
		}
		for _, a := range assigns {
			if _, done := value[a[0]]; done {
				continue
			}
			if v, ok := get(a[1]); ok {
				value[a[0]] = v
			}
		}
		if len(rest) == len(pending) {
			break // a loop through cells the library describes: give up on them
		}
		pending = rest
	}
	// Inputs, opaque outputs and the constants (class 0) cost nothing:
	// a cell that computes one of them, or its complement, is redundant.
	keys := []int32{0}
	for _, net := range sortedKeys(free) {
		keys = append(keys, b.canonical(value[net]))
	}
	for _, k := range keys {
		if _, ok := classes[k]; ok {
			classes[k] = append(classes[k], member{free: true})
		}
	}
	total := 0.0
	for _, k := range order {
		ms := classes[k]
		sum, largest, anyFree := 0.0, 0.0, false
		for _, m := range ms {
			if m.free {
				anyFree = true
				continue
			}
			sum += m.area
			largest = max(largest, m.area)
		}
		if anyFree {
			total += sum
		} else {
			total += sum - largest
		}
	}
	return total
}

// isConstant reports whether a netlist connection is a constant bit.
func isConstant(net string) bool { return strings.HasPrefix(net, "1'") }

// bitIndex returns the index of a bit-select such as a[12], or -1.
func bitIndex(net string) int {
	net = strings.TrimSuffix(strings.TrimSpace(net), " ]")
	if !strings.HasSuffix(net, "]") {
		return -1
	}
	i := strings.LastIndexByte(net, '[')
	if i < 0 {
		return -1
	}
	k, err := strconv.Atoi(net[i+1 : len(net)-1])
	if err != nil {
		return -1
	}
	return k
}

// hasOutput reports whether pin is an output of c.
func hasOutput(c libCell, pin string) bool {
	_, ok := c.outputs[pin]
	return ok
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// instance is one cell of a mapped netlist: its library cell and the net on
// each pin.
type instance struct {
	cell, name string
	pins       map[string]string
}

var (
	netlistInstance = regexp.MustCompile(`(?s)(?:^|;|\n)\s*([A-Za-z_\\][^\s(]*)\s+([A-Za-z_\\][^\s(]*)\s*\(\s*(\..*?)\);`)
	netlistPin      = regexp.MustCompile(`\.([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([^()\s]+(?: \]| \[\d+\])?)\s*\)`)
	netlistAssign   = regexp.MustCompile(`(?m)^\s*assign\s+([^=;]+?)\s*=\s*([^=;]+?)\s*;`)
	netlistRange    = regexp.MustCompile(`(?m)^\s*(?:input|output|inout|wire|reg)\s+(?:signed\s+)?\[\s*(\d+)\s*:\s*(\d+)\s*\]\s*([A-Za-z_][A-Za-z0-9_$]*)\s*;`)
	netlistPart     = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_$]*)\s*\[\s*(\d+)\s*(?::\s*(\d+)\s*)?\]$`)
	netlistConstant = regexp.MustCompile(`^(\d+)'([bhdBHD])([0-9a-fA-FxXzZ_]+)$`)
)

// netlistCells reads the cell instances (named pin connections) and the
// assignments of a netlist Yosys wrote with write_verilog -noexpr, the
// assignments bit by bit: assign y[1:0] = { x, 1'h0 } is the two
// assignments y[1] = x and y[0] = 1'h0 (x one bit wide).
func netlistCells(src string) ([]instance, [][2]string) {
	var insts []instance
	for _, m := range netlistInstance.FindAllStringSubmatch(src, -1) {
		if m[1] == "module" {
			continue
		}
		in := instance{cell: m[1], name: m[2], pins: map[string]string{}}
		for _, p := range netlistPin.FindAllStringSubmatch(m[3], -1) {
			in.pins[p[1]] = p[2]
		}
		insts = append(insts, in)
	}
	ranges := map[string][2]int{}
	for _, m := range netlistRange.FindAllStringSubmatch(src, -1) {
		hi, _ := strconv.Atoi(m[1])
		lo, _ := strconv.Atoi(m[2])
		ranges[m[3]] = [2]int{hi, lo}
	}
	var assigns [][2]string
	for _, m := range netlistAssign.FindAllStringSubmatch(src, -1) {
		lhs, rhs := netlistBits(m[1], ranges), netlistBits(m[2], ranges)
		if lhs == nil || len(lhs) != len(rhs) {
			continue // a form Yosys does not write: leave it out
		}
		for i := range lhs {
			assigns = append(assigns, [2]string{lhs[i], rhs[i]})
		}
	}
	return insts, assigns
}

// maxNetlistBits bounds the bits one side of an assignment may expand to.
const maxNetlistBits = 1 << 16

// netlistBits expands one side of an assignment into its bits, the most
// significant first, each named as the cells' pins name it: name[i] for a
// bit of a bus declared with a range, name for a single wire, 1'h0 and
// 1'h1 for constant bits. It returns nil for what it cannot read.
func netlistBits(side string, ranges map[string][2]int) []string {
	side = strings.TrimSpace(side)
	items := []string{side}
	if strings.HasPrefix(side, "{") && strings.HasSuffix(side, "}") {
		items = strings.Split(side[1:len(side)-1], ",")
	}
	var bits []string
	bus := func(name string, hi, lo int) bool {
		if hi < 0 || lo < 0 || max(hi, lo)-min(hi, lo) >= maxNetlistBits-len(bits) {
			return false
		}
		step := 1
		if hi < lo {
			step = -1
		}
		for i := hi; ; i -= step {
			bits = append(bits, name+"["+strconv.Itoa(i)+"]")
			if i == lo {
				return true
			}
		}
	}
	for _, item := range items {
		item = strings.TrimSpace(item)
		if m := netlistConstant.FindStringSubmatch(item); m != nil {
			c, ok := constantBits(m[1], m[2], m[3])
			if !ok || len(bits)+len(c) > maxNetlistBits {
				return nil
			}
			bits = append(bits, c...)
			continue
		}
		if m := netlistPart.FindStringSubmatch(item); m != nil {
			hi, err := strconv.Atoi(m[2])
			if err != nil {
				return nil
			}
			lo := hi
			if m[3] != "" {
				if lo, err = strconv.Atoi(m[3]); err != nil {
					return nil
				}
			}
			if !bus(m[1], hi, lo) {
				return nil
			}
			continue
		}
		if item == "" || strings.ContainsAny(item, " {}[]'") {
			return nil
		}
		if r, ok := ranges[item]; ok {
			if !bus(item, r[0], r[1]) {
				return nil
			}
			continue
		}
		bits = append(bits, item)
	}
	return bits
}

// constantBits returns the bits of a sized constant, such as 2'h1, most
// significant first, as 1'h0 and 1'h1; x and z bits, decimal constants
// wider than 63 bits and widths over maxNetlistBits are not read.
func constantBits(width, base, digits string) ([]string, bool) {
	w, err := strconv.Atoi(width)
	if err != nil || w < 1 || w > maxNetlistBits {
		return nil, false
	}
	digits = strings.ReplaceAll(digits, "_", "")
	var value []byte // bits, least significant first
	switch strings.ToLower(base) {
	case "b", "h":
		per := 1
		if strings.ToLower(base) == "h" {
			per = 4
		}
		for i := len(digits) - 1; i >= 0; i-- {
			d, err := strconv.ParseUint(digits[i:i+1], 16, 8)
			if err != nil || d>>per != 0 {
				return nil, false
			}
			for k := range per {
				value = append(value, byte(d>>k&1))
			}
		}
	default:
		d, err := strconv.ParseUint(digits, 10, 63)
		if err != nil {
			return nil, false
		}
		for ; d != 0; d >>= 1 {
			value = append(value, byte(d&1))
		}
	}
	bits := make([]string, w)
	for i := range w {
		bits[w-1-i] = "1'h0"
		if i < len(value) && value[i] == 1 {
			bits[w-1-i] = "1'h1"
		}
	}
	return bits, true
}

// libertyCells reads every cell's area and its output pins' functions from
// a Liberty file. It reads what it can: a cell or pin it cannot make out is
// left out or left without a function.
func libertyCells(src string) map[string]libCell {
	cells := map[string]libCell{}
	g := parseLiberty(src)
	var walk func(*libGroup)
	walk = func(g *libGroup) {
		if g.kind == "cell" && len(g.args) == 1 {
			c := libCell{outputs: map[string]*function{}}
			if a, err := strconv.ParseFloat(g.attrs["area"], 64); err == nil && a >= 0 && !math.IsInf(a, 0) {
				c.area, c.hasArea = a, true
			}
			c.dontUse = strings.TrimSpace(g.attrs["dont_use"]) == "true"
			for _, p := range g.groups {
				if p.kind == "pin" && p.attrs["direction"] == "input" {
					c.inputs = append(c.inputs, p.args...)
				}
				switch p.kind {
				case "ff", "ff_bank":
					c.clock = strings.TrimSpace(p.attrs["clocked_on"])
				case "latch", "latch_bank":
					c.latch = true
				}
				if p.kind != "pin" || p.attrs["direction"] != "output" {
					continue
				}
				f, err := parseFunction(p.attrs["function"])
				if err != nil {
					f = nil
				}
				for _, name := range p.args {
					c.outputs[name] = f
				}
			}
			cells[g.args[0]] = c
			return
		}
		for _, c := range g.groups {
			walk(c)
		}
	}
	walk(g)
	return cells
}

// libGroup is a Liberty group, name (args) { … }: its simple attributes,
// name : value;, and the groups inside it.
type libGroup struct {
	kind   string
	args   []string
	attrs  map[string]string
	groups []*libGroup
}

// parseLiberty reads the groups and simple attributes of a Liberty file,
// skipping what it does not understand. Comments and line continuations
// are dropped; quoted values lose their quotes.
func parseLiberty(src string) *libGroup {
	toks := libertyTokens(src)
	root := &libGroup{attrs: map[string]string{}}
	stack := []*libGroup{root}
	for i := 0; i < len(toks); i++ {
		top := stack[len(stack)-1]
		switch t := toks[i]; {
		case t == "}":
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case i+1 < len(toks) && toks[i+1] == ":":
			// name : value ;
			j := i + 2
			var val []string
			for ; j < len(toks) && toks[j] != ";" && toks[j] != "}" && toks[j] != "\n"; j++ {
				val = append(val, toks[j])
			}
			top.attrs[t] = strings.Join(val, " ")
			i = j
			if j < len(toks) && toks[j] == "}" {
				i--
			}
		case i+1 < len(toks) && toks[i+1] == "(":
			j := i + 2
			var args []string
			for ; j < len(toks) && toks[j] != ")"; j++ {
				if toks[j] != "," && toks[j] != "\n" {
					args = append(args, toks[j])
				}
			}
			j++
			for j < len(toks) && toks[j] == "\n" {
				j++
			}
			if j < len(toks) && toks[j] == "{" {
				g := &libGroup{kind: t, args: args, attrs: map[string]string{}}
				top.groups = append(top.groups, g)
				stack = append(stack, g)
			} else if j < len(toks) && toks[j] != ";" {
				j--
			}
			i = j
		}
	}
	return root
}

// libertyTokens splits a Liberty file into words, quoted strings (without
// their quotes), punctuation and newlines (which end an attribute whose
// semicolon is missing).
func libertyTokens(src string) []string {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return toks
			}
			i += end + 4
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
		case c == '\n':
			toks = append(toks, "\n")
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '"':
			end := strings.IndexByte(src[i+1:], '"')
			if end < 0 {
				return append(toks, src[i+1:])
			}
			toks = append(toks, src[i+1:i+1+end])
			i += end + 2
		case strings.IndexByte("(){}:;,", c) >= 0:
			toks = append(toks, string(c))
			i++
		default:
			j := i
			for j < len(src) && strings.IndexByte("(){}:;,\" \t\r\n", src[j]) < 0 {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		}
	}
	return toks
}

// function is a Liberty boolean function: an operator over operands, a pin
// name or a constant.
type function struct {
	op   byte // 0 pin, '0' or '1' constant, '!' not, '&', '|', '^'
	pin  string
	args []*function
}

// eval builds the function's diagram from its pins' in b; false if it
// names a pin env lacks or the diagrams outgrow maxBDDNodes.
func (f *function) eval(b *bdd, env map[string]int32) (int32, bool) {
	switch f.op {
	case 0:
		v, ok := env[f.pin]
		return v, ok
	case '0':
		return 0, true
	case '1':
		return 1, true
	case '!':
		v, ok := f.args[0].eval(b, env)
		return b.not(v), ok
	}
	acc, ok := f.args[0].eval(b, env)
	if !ok {
		return 0, false
	}
	for _, a := range f.args[1:] {
		v, ok := a.eval(b, env)
		if !ok || len(b.nodes) > maxBDDNodes {
			return 0, false
		}
		switch f.op {
		case '&':
			acc = b.ite(acc, v, 0)
		case '|':
			acc = b.ite(acc, 1, v)
		case '^':
			acc = b.ite(acc, b.not(v), v)
		}
	}
	return acc, true
}

// parseFunction reads a Liberty function such as "(!((A B)+C))": ! and a
// trailing ' invert, ^ is exclusive or, & * or juxtaposition and, + | or,
// in that order of precedence; 0 and 1 are constants.
func parseFunction(s string) (*function, error) {
	p := funcParser{s: s}
	f, err := p.or()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("physical: function %q: unexpected %q at %d", s, p.s[p.i:], p.i)
	}
	return f, nil
}

type funcParser struct {
	s string
	i int
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

func (p *funcParser) or() (*function, error) {
	return p.binary('|', "+|", p.and)
}

func (p *funcParser) and() (*function, error) {
	f, err := p.xor()
	if err != nil {
		return nil, err
	}
	args := []*function{f}
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
	return &function{op: '&', args: args}, nil
}

func (p *funcParser) xor() (*function, error) {
	return p.binary('^', "^", p.unary)
}

// binary parses next { one of ops next }.
func (p *funcParser) binary(op byte, ops string, next func() (*function, error)) (*function, error) {
	f, err := next()
	if err != nil {
		return nil, err
	}
	args := []*function{f}
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
	return &function{op: op, args: args}, nil
}

func (p *funcParser) unary() (*function, error) {
	var f *function
	switch c := p.peek(); {
	case c == '!':
		p.i++
		g, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &function{op: '!', args: []*function{g}}, nil
	case c == '(':
		p.i++
		g, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, fmt.Errorf("physical: function %q: missing ) at %d", p.s, p.i)
		}
		p.i++
		f = g
	case c == '0' || c == '1':
		p.i++
		f = &function{op: c}
	case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
		j := p.i
		for j < len(p.s) && (p.s[j] == '_' || p.s[j] == '[' || p.s[j] == ']' || p.s[j] == '.' ||
			p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= '0' && p.s[j] <= '9') {
			j++
		}
		f = &function{pin: p.s[p.i:j]}
		p.i = j
	default:
		return nil, fmt.Errorf("physical: function %q: unexpected %q at %d", p.s, string(c), p.i)
	}
	for p.i < len(p.s) && p.s[p.i] == '\'' {
		p.i++
		f = &function{op: '!', args: []*function{f}}
	}
	return f, nil
}
