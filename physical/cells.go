package physical

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/adder"
)

// PGCells finds, in the Liberty file that liberty names (as
// Options.Liberty: a key of Libraries, a path, or "" for DefaultLibrary),
// the cells an adder.Architecture with PGCells instantiates for each bit's generate and
// propagate: the smallest cell computing !(A & B) of two inputs and the
// smallest computing !((A | B) & C) of three, by the functions the file
// gives their outputs, whatever their names and pins. Cells marked
// dont_use, cells without an area, sequential cells and cells of more than
// one output are passed over; of cells of equal area the first by name is
// taken. A file that
// cannot be read, or that has no such cells, is a *SetupError.
func PGCells(liberty string) (*adder.Cells, error) {
	file := LibertyFile(liberty)
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, &SetupError{msg: fmt.Sprintf("physical: Liberty file %s cannot be read: %v (allowed: osu018, osu035 or a Liberty file)", file, unwrapPath(err))}
	}
	cells := libertyCells(string(src))
	nand := findCell(cells, 2, func(b *bdd, x []int32) int32 { return b.not(b.ite(x[0], x[1], 0)) })
	oai := findCell(cells, 3, func(b *bdd, x []int32) int32 { return b.not(b.ite(b.ite(x[0], 1, x[1]), x[2], 0)) })
	var missing []string
	if nand == nil {
		missing = append(missing, "a two-input NAND, !(A & B)")
	}
	if oai == nil {
		missing = append(missing, "an OAI21, !((A | B) & C)")
	}
	if len(missing) > 0 {
		return nil, &SetupError{msg: fmt.Sprintf("physical: Liberty file %s has no cell for %s: allowed a library with both, or the adder without library cells", file, strings.Join(missing, " nor "))}
	}
	return &adder.Cells{NAND2: *nand, OAI21: *oai}, nil
}

// findCell returns the smallest combinational cell of one output and ins
// inputs whose function is want's for some order of its input pins (the
// order is then the cell's Inputs), or nil.
func findCell(cells map[string]libCell, ins int, want func(b *bdd, x []int32) int32) *adder.Cell {
	var (
		best     *adder.Cell
		bestArea float64
	)
	for _, name := range sortedKeys(cells) {
		c := cells[name]
		if c.dontUse || !c.hasArea || c.clock != "" || c.latch || len(c.outputs) != 1 || len(c.inputs) != ins {
			continue
		}
		out := sortedKeys(c.outputs)[0]
		f := c.outputs[out]
		if f == nil {
			continue
		}
		b := newBDD()
		env := map[string]int32{}
		for i, pin := range c.inputs {
			env[pin] = b.variable(int32(i))
		}
		got, ok := f.eval(b, env)
		if !ok {
			continue
		}
		order := permutations(ins)
		for _, p := range order {
			x := make([]int32, ins)
			for i, k := range p {
				x[i] = env[c.inputs[k]]
			}
			if want(b, x) != got {
				continue
			}
			if best == nil || c.area < bestArea {
				pins := make([]string, ins)
				for i, k := range p {
					pins[i] = c.inputs[k]
				}
				best, bestArea = &adder.Cell{Name: name, Inputs: pins, Output: out}, c.area
			}
			break
		}
	}
	return best
}

// permutations returns every order of 0 … n-1, the identity first.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := len(p); i >= 0; i-- {
			q := slices.Insert(slices.Clone(p), i, n-1)
			out = append(out, q)
		}
	}
	return out
}
