package pdk

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/liberty"
)

// basic are the functions a dont-use list may not take every cell of
// from a library that has one: what ABC and dfflibmap map any design onto.
// want is the function's truth table over its inputs (bit k is its value
// where input i is k>>i&1); a D flip-flop has none.
var basic = []struct {
	name string
	ins  int
	want []uint8 // any of these
}{
	{"an inverter", 1, []uint8{0b01}},
	{"a buffer", 1, []uint8{0b10}},
	{"a two-input NAND", 2, []uint8{0b0111}},
	{"a two-input NOR", 2, []uint8{0b0001}},
	{"a two-input AND", 2, []uint8{0b1000}},
	{"a two-input OR", 2, []uint8{0b1110}},
	{"a two-input XOR or XNOR", 2, []uint8{0b0110, 0b1001}},
	{"a D flip-flop", 0, nil},
}

// computes reports whether c is a combinational cell of one output and
// ins inputs whose function has one of the truth tables want.
func computes(c liberty.Cell, ins int, want []uint8) bool {
	if c.Clock != "" || c.Latch || len(c.Outputs) != 1 || len(c.Inputs) != ins {
		return false
	}
	var f *liberty.Function
	for _, g := range c.Outputs {
		f = g
	}
	if f == nil {
		return false
	}
	env := map[string]uint8{}
	for i, pin := range c.Inputs {
		env[pin] = inputs[i]
	}
	v, ok := liberty.Eval(f, truth{}, env)
	mask := uint8(1)<<(1<<ins) - 1
	return ok && slices.Contains(want, v&mask)
}

// inputs are the truth tables of the first three inputs: bit k of input
// i is k>>i&1.
var inputs = []uint8{0b10101010, 0b11001100, 0b11110000}

// isDFF reports whether c is a D flip-flop on the rising edge: its next
// state is one of its inputs.
func isDFF(c liberty.Cell) bool {
	return c.Clock != "" && !strings.HasPrefix(c.ClockPin(), "!") && slices.Contains(c.Inputs, strings.Trim(c.NextState, "() "))
}

// checkBasic returns an error naming the first basic function for which
// cells has cells but dontUse leaves none, and the globs that took them;
// cells the library marks dont_use itself do not count. lib names the
// library in the error.
func checkBasic(lib string, cells map[string]liberty.Cell, dontUse func(string) bool, globs []string) error {
	for _, b := range basic {
		var had []string
		kept := false
		for name, c := range cells {
			if c.DontUse {
				continue
			}
			if b.ins == 0 && !isDFF(c) || b.ins > 0 && !computes(c, b.ins, b.want) {
				continue
			}
			had = append(had, name)
			if !dontUse(name) {
				kept = true
			}
		}
		if len(had) > 0 && !kept {
			slices.Sort(had)
			// Only the patterns that took some of them: the platform's
			// record alone holds dozens.
			var took []string
			for _, g := range globs {
				if slices.ContainsFunc(had, func(name string) bool { return matchAny([]string{g}, name) }) {
					took = append(took, g)
				}
			}
			return fmt.Errorf("pdk: the cells not to use (%s) leave library %s no cell for %s, which it has (%s): allowed a dont-use list that keeps one",
				strings.Join(took, " "), lib, b.name, strings.Join(had, ", "))
		}
	}
	return nil
}

// truth is the algebra of truth tables over three inputs.
type truth struct{}

func (truth) Const(v bool) uint8 {
	if v {
		return 0xff
	}
	return 0
}
func (truth) Not(x uint8) uint8    { return ^x }
func (truth) And(x, y uint8) uint8 { return x & y }
func (truth) Or(x, y uint8) uint8  { return x | y }
func (truth) Xor(x, y uint8) uint8 { return x ^ y }
func (truth) Full() bool           { return false }
