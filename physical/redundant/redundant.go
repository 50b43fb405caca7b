package redundant

import (
	"maps"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/physical/bdd"
	"github.com/prefixgen/prefixgen/physical/netlist"
)

// MaxNodes bounds the decision diagrams Area builds: a cell whose function
// would take them past the bound counts as distinct logic.
const MaxNodes = 1 << 20

// Area returns the area of the cells of the mapped netlist n that compute
// a signal the netlist already carries, or its complement: logic the
// mapper computed twice (a gate duplicated in both polarities to save an
// inverter's delay, the inverter itself, a buffer). cells are the cells
// of the Liberty file the netlist was mapped onto (liberty.Cells), n the
// netlist as Yosys's write_verilog -noexpr writes it (netlist.Parse).
//
// Every signal's function of the inputs is built as a binary decision
// diagram (inputs ordered by bit, a[0] b[0] a[1] b[1] …), so equal
// functions are found exactly; signals with the same function, or
// complementary ones, form a class. A class that holds an input or a
// constant is all redundant; otherwise every cell of it but the largest
// is (of a NAND and the inverter after it, the inverter). Cells whose
// function the library does not state plainly, cells of several outputs
// and functions too large for the diagrams (MaxNodes) count as distinct
// logic, so the figure is a lower bound; a netlist without cells, or of
// cells the library lacks, gives 0. The result is the same for the same
// cells and netlist.
func Area(cells map[string]liberty.Cell, n *netlist.Netlist) float64 {
	insts, assigns := n.Instances, n.Assigns
	if len(insts) == 0 {
		return 0
	}
	driven := map[string]bool{}
	for _, in := range insts {
		for pin, net := range in.Pins {
			if c, ok := cells[in.Cell]; ok && c.IsOutput(pin) {
				driven[net] = true
			}
		}
	}
	for _, a := range assigns {
		driven[a.Left] = true
	}
	// The inputs, in the order of their variables.
	var inputs []string
	seen := map[string]bool{}
	for _, in := range insts {
		for _, net := range in.Pins {
			if !driven[net] && !seen[net] && !netlist.IsConstant(net) {
				seen[net] = true
				inputs = append(inputs, net)
			}
		}
	}
	for _, a := range assigns {
		if net := a.Right; !driven[net] && !seen[net] && !netlist.IsConstant(net) {
			seen[net] = true
			inputs = append(inputs, net)
		}
	}
	slices.SortFunc(inputs, func(x, y string) int {
		if c := netlist.BitIndex(x) - netlist.BitIndex(y); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	b := bdd.New(MaxNodes)
	value := map[string]bdd.Node{}
	free := map[string]bool{} // inputs, constants, outputs of opaque or multi-output cells
	next := int32(0)
	fresh := func() bdd.Node {
		next++
		return b.Var(next - 1)
	}
	for _, net := range inputs {
		value[net], free[net] = fresh(), true
	}
	get := func(net string) (bdd.Node, bool) {
		if v, ok := value[net]; ok {
			return v, true
		}
		switch net {
		case "1'h0", "1'b0":
			return bdd.False, true
		case "1'h1", "1'b1":
			return bdd.True, true
		}
		return bdd.False, false
	}
	type member struct {
		area float64
		free bool
	}
	classes := map[bdd.Node][]member{}
	var order []bdd.Node
	add := func(f bdd.Node, m member) {
		k := b.Canonical(f)
		if _, ok := classes[k]; !ok {
			order = append(order, k)
		}
		classes[k] = append(classes[k], m)
	}
	// Evaluate in rounds until nothing more can be: the netlist is
	// combinational once opaque cells cut it.
	pending := slices.Clone(insts)
	for len(pending) > 0 {
		var rest []netlist.Instance
		for _, in := range pending {
			c, known := cells[in.Cell]
			if !known {
				continue // its outputs are inputs here
			}
			outs := 0
			env := map[string]bdd.Node{}
			ready := true
			for _, pin := range slices.Sorted(maps.Keys(in.Pins)) {
				if c.IsOutput(pin) {
					outs++
					continue
				}
				v, ok := get(in.Pins[pin])
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
			for _, pin := range slices.Sorted(maps.Keys(in.Pins)) {
				if !c.IsOutput(pin) {
					continue
				}
				net := in.Pins[pin]
				v, ok := bdd.False, false
				if f := c.Outputs[pin]; f != nil && b.Len() < MaxNodes {
					v, ok = liberty.Eval(f, b, env)
				}
				if !ok || outs > 1 {
					if !ok {
						v = fresh()
					}
					value[net], free[net] = v, true
					continue
				}
				value[net] = v
				add(v, member{area: c.Area})
			}
		}
		for _, a := range assigns {
			if _, done := value[a.Left]; done {
				continue
			}
			if v, ok := get(a.Right); ok {
				value[a.Left] = v
			}
		}
		if len(rest) == len(pending) {
			break // a loop through cells the library describes: give up on them
		}
		pending = rest
	}
	// Inputs, opaque outputs and the constants (class 0) cost nothing:
	// a cell that computes one of them, or its complement, is redundant.
	keys := []bdd.Node{bdd.False}
	for _, net := range slices.Sorted(maps.Keys(free)) {
		keys = append(keys, b.Canonical(value[net]))
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
