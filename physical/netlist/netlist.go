package netlist

import (
	"regexp"
	"strconv"
	"strings"
)

// Netlist is what Parse reads of a netlist.
type Netlist struct {
	// Instances are the cell instances, in the file's order.
	Instances []Instance
	// Assigns are the assignments, bit by bit, in the file's order.
	Assigns []Assign
	// Inputs and Outputs are the ports, in the order of their
	// declarations.
	Inputs, Outputs []Port
}

// Instance is one cell of a netlist: its cell, its name and the net on
// each pin it connects by name.
type Instance struct {
	Cell, Name string
	Pins       map[string]string
}

// Assign is one bit's assignment, assign Left = Right.
type Assign struct{ Left, Right string }

// Port is an input or output of a netlist: a bus of Width bits from bit
// Lo up, or a single wire (Width 0).
type Port struct {
	Name      string
	Lo, Width int
}

// MaxBits bounds the bits one side of an assignment, and a port, expand
// to.
const MaxBits = 1 << 16

// Bits returns the names of the port's bits as the cells' pins name them:
// name[i], or for an escaped name (Yosys escapes a name with a $),
// \name [i]; at most MaxBits.
func (p Port) Bits() []string {
	if p.Width == 0 {
		return []string{p.Name}
	}
	open := "["
	if strings.HasPrefix(p.Name, `\`) {
		open = " ["
	}
	bits := make([]string, min(p.Width, MaxBits))
	for i := range bits {
		bits[i] = p.Name + open + strconv.Itoa(p.Lo+i) + "]"
	}
	return bits
}

// Input returns the input port name, if there is one.
func (n *Netlist) Input(name string) (Port, bool) {
	for _, p := range n.Inputs {
		if p.Name == name {
			return p, true
		}
	}
	return Port{}, false
}

var (
	instanceRE = regexp.MustCompile(`(?s)(?:^|;|\n)\s*([A-Za-z_\\][^\s(]*)\s+([A-Za-z_\\][^\s(]*)\s*\(\s*(\..*?)\);`)
	pinRE      = regexp.MustCompile(`\.([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([^()\s]+(?: \]| \[\d+\])?)\s*\)`)
	assignRE   = regexp.MustCompile(`(?m)^\s*assign\s+([^=;]+?)\s*=\s*([^=;]+?)\s*;`)
	rangeRE    = regexp.MustCompile(`(?m)^\s*(?:input|output|inout|wire|reg)\s+(?:signed\s+)?\[\s*(\d+)\s*:\s*(\d+)\s*\]\s*([A-Za-z_][A-Za-z0-9_$]*)\s*;`)
	partRE     = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_$]*)\s*\[\s*(\d+)\s*(?::\s*(\d+)\s*)?\]$`)
	constantRE = regexp.MustCompile(`^(\d+)'([bhdBHD])([0-9a-fA-FxXzZ_]+)$`)
	portRE     = regexp.MustCompile(`(?m)^\s*(input|output)\s+(?:\[\s*(\d+)\s*:\s*(\d+)\s*\]\s*)?([A-Za-z_][A-Za-z0-9_$]*|\\[^\s;]+)\s*;`)
)

// Parse reads the cell instances (named pin connections), the assignments
// and the ports of a netlist Yosys wrote with write_verilog -noexpr, the
// assignments bit by bit: assign y[1:0] = { x, 1'h0 } is the two
// assignments y[1] = x and y[0] = 1'h0 (x one bit wide). An assignment
// whose sides it cannot expand to the same width is left out.
func Parse(src []byte) *Netlist {
	s := string(src)
	n := &Netlist{}
	for _, m := range instanceRE.FindAllStringSubmatch(s, -1) {
		if m[1] == "module" {
			continue
		}
		in := Instance{Cell: m[1], Name: m[2], Pins: map[string]string{}}
		for _, p := range pinRE.FindAllStringSubmatch(m[3], -1) {
			in.Pins[p[1]] = p[2]
		}
		n.Instances = append(n.Instances, in)
	}
	ranges := map[string][2]int{}
	for _, m := range rangeRE.FindAllStringSubmatch(s, -1) {
		hi, _ := strconv.Atoi(m[1])
		lo, _ := strconv.Atoi(m[2])
		ranges[m[3]] = [2]int{hi, lo}
	}
	for _, m := range assignRE.FindAllStringSubmatch(s, -1) {
		lhs, rhs := bits(m[1], ranges), bits(m[2], ranges)
		if lhs == nil || len(lhs) != len(rhs) {
			continue // a form Yosys does not write: leave it out
		}
		for i := range lhs {
			n.Assigns = append(n.Assigns, Assign{lhs[i], rhs[i]})
		}
	}
	for _, m := range portRE.FindAllStringSubmatch(s, -1) {
		p := Port{Name: m[4]}
		if m[2] != "" {
			hi, _ := strconv.Atoi(m[2])
			lo, _ := strconv.Atoi(m[3])
			p.Lo, p.Width = min(hi, lo), max(hi, lo)-min(hi, lo)+1
		}
		if m[1] == "input" {
			n.Inputs = append(n.Inputs, p)
		} else {
			n.Outputs = append(n.Outputs, p)
		}
	}
	return n
}

// IsConstant reports whether a net is a constant bit, as 1'h0.
func IsConstant(net string) bool { return strings.HasPrefix(net, "1'") }

// BitIndex returns the index of a bit-select such as a[12] or \ck$b [1],
// or -1 for a net that is not one.
func BitIndex(net string) int {
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

// bits expands one side of an assignment into its bits, the most
// significant first, each named as the cells' pins name it: name[i] for a
// bit of a bus declared with a range, name for a single wire, 1'h0 and
// 1'h1 for constant bits. It returns nil for what it cannot read.
func bits(side string, ranges map[string][2]int) []string {
	side = strings.TrimSpace(side)
	items := []string{side}
	if strings.HasPrefix(side, "{") && strings.HasSuffix(side, "}") {
		items = strings.Split(side[1:len(side)-1], ",")
	}
	var out []string
	bus := func(name string, hi, lo int) bool {
		if hi < 0 || lo < 0 || max(hi, lo)-min(hi, lo) >= MaxBits-len(out) {
			return false
		}
		step := 1
		if hi < lo {
			step = -1
		}
		for i := hi; ; i -= step {
			out = append(out, name+"["+strconv.Itoa(i)+"]")
			if i == lo {
				return true
			}
		}
	}
	for _, item := range items {
		item = strings.TrimSpace(item)
		if m := constantRE.FindStringSubmatch(item); m != nil {
			c, ok := constantBits(m[1], m[2], m[3])
			if !ok || len(out)+len(c) > MaxBits {
				return nil
			}
			out = append(out, c...)
			continue
		}
		if m := partRE.FindStringSubmatch(item); m != nil {
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
		out = append(out, item)
	}
	return out
}

// constantBits returns the bits of a sized constant, such as 2'h1, most
// significant first, as 1'h0 and 1'h1; x and z bits, decimal constants
// wider than 63 bits and widths over MaxBits are not read.
func constantBits(width, base, digits string) ([]string, bool) {
	w, err := strconv.Atoi(width)
	if err != nil || w < 1 || w > MaxBits {
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
	out := make([]string, w)
	for i := range w {
		out[w-1-i] = "1'h0"
		if i < len(value) && value[i] == 1 {
			out[w-1-i] = "1'h1"
		}
	}
	return out, true
}
