package physical

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical/bdd"
	"github.com/prefixgen/prefixgen/physical/netlist"
	"github.com/prefixgen/prefixgen/physical/redundant"
)

// PGCells finds, in the library that library names (as Options.Liberty:
// a name of pdk.Names, Liberty files, or "" for DefaultLibrary) with the
// cells dontUse names not to use (as Options.DontUse, added to its
// record's), the cells an adder.Architecture with PGCells instantiates for
// each bit's generate and propagate: the smallest cell computing !(A & B)
// of two inputs and the smallest computing !((A | B) & C) of three, by the
// functions the library gives their outputs, whatever their names and
// pins. Cells not to use (marked dont_use, or named by the record or
// dontUse), cells without an area, sequential cells and cells of more
// than one output are passed over; of cells of equal area the first by
// name is taken. A library that cannot be read, or that has no such cells
// (the error names those missing), is a *SetupError.
func PGCells(library string, dontUse ...string) (*adder.Cells, error) {
	lib, err := openLibrary(library, dontUse)
	if err != nil {
		return nil, err
	}
	cells := lib.Cells()
	nand := findCell(cells, 2, nandOf)
	oai := findCell(cells, 3, oaiOf)
	var missing, unused []string
	if nand == nil {
		missing = append(missing, "a two-input NAND, !(A & B)")
		unused = append(unused, notToUse(cells, 2, nandOf)...)
	}
	if oai == nil {
		missing = append(missing, "an OAI21, !((A | B) & C)")
		unused = append(unused, notToUse(cells, 3, oaiOf)...)
	}
	if len(missing) > 0 {
		what := "has no cell for "
		why := ""
		if len(unused) > 0 {
			what = "has no cell to use for "
			why = " (" + strings.Join(unused, ", ") + " marked not to use)"
			if len(unused) == 1 {
				why = " (" + unused[0] + " is marked not to use)"
			}
		}
		return nil, &SetupError{msg: fmt.Sprintf("physical: Liberty file %s %s%s%s: allowed a library with both, or the adder without library cells", lib.Name, what, strings.Join(missing, " nor "), why)}
	}
	found := &adder.Cells{NAND2: *nand, OAI21: *oai}
	if err := checkNames(lib.Name, found); err != nil {
		return nil, err
	}
	return found, nil
}

// checkNames refuses cells (of the library named lib) whose names or pins'
// names Verilog cannot write: an escaped identifier (\name) takes only
// characters that print, and ends at a space.
func checkNames(lib string, cells *adder.Cells) error {
	writable := func(s string) bool {
		for i := range len(s) {
			if s[i] <= ' ' || s[i] > '~' {
				return false
			}
		}
		return s != ""
	}
	for _, c := range []adder.Cell{cells.NAND2, cells.OAI21, cells.FA.Cell} {
		if c.Name == "" {
			continue
		}
		if !writable(c.Name) {
			return &SetupError{msg: fmt.Sprintf("physical: Liberty file %s: cell %s has a name Verilog cannot write, with a space or a character that does not print: allowed a library whose cell and pin names print without spaces", lib, network.Quote(c.Name))}
		}
		pins := append(slices.Clone(c.Inputs), c.Output)
		if c.Name == cells.FA.Name {
			pins = append(pins, cells.FA.Sum)
		}
		for _, p := range pins {
			if !writable(p) {
				return &SetupError{msg: fmt.Sprintf("physical: Liberty file %s: cell %s has a pin %s, a name Verilog cannot write, with a space or a character that does not print: allowed a library whose cell and pin names print without spaces", lib, network.Quote(c.Name), network.Quote(p))}
			}
		}
	}
	return nil
}

// nandOf and oaiOf are the functions of the cells PGCells finds.
func nandOf(b *bdd.BDD, x []bdd.Node) bdd.Node { return b.Not(b.And(x[0], x[1])) }
func oaiOf(b *bdd.BDD, x []bdd.Node) bdd.Node  { return b.Not(b.And(b.Or(x[0], x[1]), x[2])) }

// notToUse returns the cell of the function findCell would have taken
// were the cells not to use usable, none where there is none: what an
// error names when the library has the function only in such cells.
func notToUse(cells map[string]liberty.Cell, ins int, want func(b *bdd.BDD, x []bdd.Node) bdd.Node) []string {
	if c := findCell(markedNotToUse(cells), ins, want); c != nil {
		return []string{c.Name}
	}
	return nil
}

// markedNotToUse returns the cells of cells marked not to use, as if they
// were not.
func markedNotToUse(cells map[string]liberty.Cell) map[string]liberty.Cell {
	marked := map[string]liberty.Cell{}
	for name, c := range cells {
		if c.DontUse {
			c.DontUse = false
			marked[name] = c
		}
	}
	return marked
}

// FullAdderCell finds, in the library as PGCells does, the full adder an
// adder.Architecture with FACells instantiates: the smallest cell of three
// inputs and two outputs, one the majority of the inputs and the other
// their exclusive or, or both of them complemented, by the functions the
// library gives them, whatever their names. Its carry-in is the input
// named CI, CIN or C (any case), else the last one. Cells are passed over
// as PGCells passes them over. A library that cannot be read, or that has
// no full adder, is a *SetupError.
func FullAdderCell(library string, dontUse ...string) (*adder.Cells, error) {
	lib, err := openLibrary(library, dontUse)
	if err != nil {
		return nil, err
	}
	cells := lib.Cells()
	best := findFullAdder(cells)
	if best == nil {
		what := ""
		if fa := findFullAdder(markedNotToUse(cells)); fa != nil {
			what = fmt.Sprintf(" to use (%s is marked not to use)", fa.Name)
		}
		return nil, &SetupError{msg: fmt.Sprintf("physical: Liberty file %s has no full-adder cell%s, three inputs with their majority and exclusive or as outputs: allowed a library with one, or the adder without --fa-cells", lib.Name, what)}
	}
	found := &adder.Cells{FA: *best}
	if err := checkNames(lib.Name, found); err != nil {
		return nil, err
	}
	return found, nil
}

// findFullAdder returns the smallest full adder of cells, as
// FullAdderCell finds it, or nil.
func findFullAdder(cells map[string]liberty.Cell) *adder.FullAdder {
	var (
		best     *adder.FullAdder
		bestArea float64
	)
	for _, name := range slices.Sorted(maps.Keys(cells)) {
		c := cells[name]
		if c.DontUse || !c.HasArea || c.Clock != "" || c.Latch || len(c.Outputs) != 2 || len(c.Inputs) != 3 {
			continue
		}
		if fa := fullAdder(name, c); fa != nil && (best == nil || c.Area < bestArea) {
			best, bestArea = fa, c.Area
		}
	}
	return best
}

// CellNames returns the names of every cell of the library that library
// names (as PGCells reads it), sorted, those not to use among them: a
// module named as one is defined twice wherever the library is read
// beside it (Yosys's read_liberty -lib). A library that cannot be read is
// a *SetupError.
func CellNames(library string) ([]string, error) {
	lib, err := openLibrary(library, nil)
	if err != nil {
		return nil, err
	}
	return slices.Sorted(maps.Keys(lib.Cells())), nil
}

// fullAdder returns c as a full adder, or nil when it is not one.
func fullAdder(name string, c liberty.Cell) *adder.FullAdder {
	b := bdd.New(0)
	env := map[string]bdd.Node{}
	x := make([]bdd.Node, 3)
	for i, pin := range c.Inputs {
		x[i] = b.Var(int32(i))
		env[pin] = x[i]
	}
	maj := b.Or(b.And(x[0], x[1]), b.And(x[2], b.Or(x[0], x[1])))
	sum := b.Xor(b.Xor(x[0], x[1]), x[2])
	var carryPin, sumPin string
	inverted := map[string]bool{}
	for _, out := range slices.Sorted(maps.Keys(c.Outputs)) {
		f := c.Outputs[out]
		if f == nil {
			return nil
		}
		got, ok := liberty.Eval(f, b, env)
		if !ok {
			return nil
		}
		switch got {
		case maj, b.Not(maj):
			carryPin, inverted[out] = out, got != maj
		case sum, b.Not(sum):
			sumPin, inverted[out] = out, got != sum
		}
	}
	if carryPin == "" || sumPin == "" || inverted[carryPin] != inverted[sumPin] {
		return nil
	}
	ins := slices.Clone(c.Inputs)
	ci := len(ins) - 1
	for i, pin := range ins {
		if p := strings.ToUpper(pin); p == "CI" || p == "CIN" || p == "C" {
			ci = i
		}
	}
	ins = append(slices.Delete(ins, ci, ci+1), c.Inputs[ci])
	return &adder.FullAdder{Cell: adder.Cell{Name: name, Inputs: ins, Output: carryPin}, Sum: sumPin, Inverted: inverted[carryPin]}
}

// LibraryCells finds, in the library as PGCells does, the cells arch
// instantiates (adder.Architecture.InstantiatesCells): PGCells's for
// PGCells, FullAdderCell's for FACells, both for both; nil when it needs
// none.
func LibraryCells(library string, arch adder.Architecture, dontUse ...string) (*adder.Cells, error) {
	var cells *adder.Cells
	if arch.PGCells {
		c, err := PGCells(library, dontUse...)
		if err != nil {
			return nil, err
		}
		cells = c
	}
	if arch.FACells {
		c, err := FullAdderCell(library, dontUse...)
		if err != nil {
			return nil, err
		}
		if cells == nil {
			return c, nil
		}
		cells.FA = c.FA
	}
	return cells, nil
}

// findCell returns the smallest combinational cell of one output and ins
// inputs whose function is want's for some order of its input pins (the
// order is then the cell's Inputs), or nil.
func findCell(cells map[string]liberty.Cell, ins int, want func(b *bdd.BDD, x []bdd.Node) bdd.Node) *adder.Cell {
	var (
		best     *adder.Cell
		bestArea float64
	)
	for _, name := range slices.Sorted(maps.Keys(cells)) {
		c := cells[name]
		if c.DontUse || !c.HasArea || c.Clock != "" || c.Latch || len(c.Outputs) != 1 || len(c.Inputs) != ins {
			continue
		}
		out := slices.Sorted(maps.Keys(c.Outputs))[0]
		f := c.Outputs[out]
		if f == nil {
			continue
		}
		b := bdd.New(0)
		env := map[string]bdd.Node{}
		for i, pin := range c.Inputs {
			env[pin] = b.Var(int32(i))
		}
		got, ok := liberty.Eval(f, b, env)
		if !ok {
			continue
		}
		order := permutations(ins)
		for _, p := range order {
			x := make([]bdd.Node, ins)
			for i, k := range p {
				x[i] = env[c.Inputs[k]]
			}
			if want(b, x) != got {
				continue
			}
			if best == nil || c.Area < bestArea {
				pins := make([]string, ins)
				for i, k := range p {
					pins[i] = c.Inputs[k]
				}
				best, bestArea = &adder.Cell{Name: name, Inputs: pins, Output: out}, c.Area
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

// RedundantArea returns the area of the cells of a mapped netlist that
// compute a signal the netlist already carries, or its complement (see
// redundant.Area): lib is the text of the Liberty file the netlist was
// mapped onto, mapped the netlist as Yosys's write_verilog -noexpr writes
// it. A netlist or library it cannot read gives 0.
func RedundantArea(lib, mapped []byte) float64 {
	return redundant.Area(liberty.Cells(lib), netlist.Parse(mapped))
}
