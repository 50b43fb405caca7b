package adder

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// Op is the operation of the datapath.
type Op uint8

const (
	// Add computes {cout, sum} = a + b + cin.
	Add Op = iota
	// Sub computes {cout, sum} = a + ~b + cin: a − b when cin = 1.
	Sub
	// AddSub adds when its mode input is 0 and subtracts when it is 1.
	AddSub
	// Compare computes lt, ltu and eq of a and b.
	Compare
)

// opNames are the names of the operations, as ParseOp reads them.
var opNames = []string{Add: "add", Sub: "sub", AddSub: "addsub", Compare: "compare"}

// String returns "add", "sub", "addsub" or "compare".
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "Op(" + strconv.Itoa(int(o)) + ")"
}

// ParseOp returns the operation named s.
func ParseOp(s string) (Op, error) {
	if i := slices.Index(opNames, s); i >= 0 {
		return Op(i), nil
	}
	return 0, fmt.Errorf("adder: unknown operation %s: allowed %s", network.Quote(s), strings.Join(opNames, ", "))
}

// Flags is a set of status outputs.
type Flags uint8

const (
	// Carry is the carry out of the top bit, output cout.
	Carry Flags = 1 << iota
	// Overflow is signed overflow, output overflow.
	Overflow
	// Zero is set when every sum bit is 0, output zero.
	Zero
	// Negative is the top bit of the sum, output negative.
	Negative
)

// flagNames are the names of the flags in bit order, as ParseFlags reads
// them.
var flagNames = []string{"carry", "overflow", "zero", "negative"}

// String returns the flags as a comma-separated list in the order carry,
// overflow, zero, negative, or "none".
func (f Flags) String() string {
	var names []string
	for i, name := range flagNames {
		if f&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

// ParseFlags reads a comma-separated list of flag names, each at most
// once, or "none" alone.
func ParseFlags(s string) (Flags, error) {
	if s == "none" {
		return 0, nil
	}
	var f Flags
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		if name == "none" {
			return 0, fmt.Errorf("adder: flags %s: none stands alone: allowed a list of %s, or none", network.Quote(s), strings.Join(flagNames, ", "))
		}
		i := slices.Index(flagNames, name)
		if i < 0 {
			return 0, fmt.Errorf("adder: unknown flag %s: allowed %s, or none", network.Quote(name), strings.Join(flagNames, ", "))
		}
		if f&(1<<i) != 0 {
			return 0, fmt.Errorf("adder: flag %s given twice in %s: each flag once", network.Quote(name), network.Quote(s))
		}
		f |= 1 << i
	}
	return f, nil
}

// MaxValency is the most inputs of a prefix cell Describe emits.
const MaxValency = 4

// Sparseness lists the sparseness values Describe accepts.
var Sparseness = []int{1, 2, 4, 8}

// Cells are the standard-cell library cells that an adder with
// Architecture.PGCells or FACells instantiates: they belong to a library,
// not to the architecture, which maps onto any library (see the package
// documentation). A library's Cells may hold only those one of them needs.
type Cells struct {
	// NAND2 computes !(I0 & I1) and OAI21 !((I0 | I1) & I2), where Ik is
	// the cell's k-th input pin in Inputs.
	NAND2, OAI21 Cell
	// FA is the full adder of FACells.
	FA FullAdder
}

// FullAdder is a full-adder cell: Inputs are its two operands and its
// carry-in, in that order, Output its carry out, the majority of the
// three, and Sum the pin of their exclusive or. Inverted says that both
// outputs are the complements (ASAP7's FAx1: CON and SN).
type FullAdder struct {
	Cell
	Sum      string
	Inverted bool
}

// check reports a cell without a name or output, or with another number of
// inputs than its use needs, of those arch instantiates.
func (c *Cells) check(arch Architecture) error {
	type use struct {
		use  string
		cell Cell
		ins  int
	}
	var uses []use
	if arch.PGCells {
		uses = append(uses, use{"NAND2", c.NAND2, 2}, use{"OAI21", c.OAI21, 3})
	}
	if arch.FACells {
		uses = append(uses, use{"full adder", c.FA.Cell, 3})
		if c.FA.Sum == "" || c.FA.Sum == c.FA.Output {
			return fmt.Errorf("adder: the full adder %q has sum pin %q beside carry pin %q: allowed a sum pin of its own", c.FA.Name, c.FA.Sum, c.FA.Output)
		}
	}
	for _, x := range uses {
		if x.cell.Name == "" || x.cell.Output == "" || len(x.cell.Inputs) != x.ins || slices.Contains(x.cell.Inputs, "") {
			return fmt.Errorf("adder: the %s cell %q has inputs %q and output %q: allowed a name, %d inputs and an output", x.use, x.cell.Name, x.cell.Inputs, x.cell.Output, x.ins)
		}
	}
	return nil
}

// Cell is a library cell: its name, its input pins in the order its use
// gives them (see Cells), and its output pin.
type Cell struct {
	Name   string
	Inputs []string
	Output string
}

// Dir is the direction of a port.
type Dir uint8

const (
	// In is an input port.
	In Dir = iota
	// Out is an output port.
	Out
)

// String returns "in" or "out".
func (d Dir) String() string {
	if d == Out {
		return "out"
	}
	return "in"
}

// Signal is a named wire: a single bit when Width is 0, a bus
// [Lo+Width-1:Lo] otherwise. Lo is 0 but for a bus whose low bits no one
// reads (Ling's t without a carry-in).
type Signal struct {
	Name  string
	Width int
	Lo    int
}

// Port is a signal of the module's interface.
type Port struct {
	Signal
	Dir Dir
	// Comment says what the port is, in a few words.
	Comment string
}

// Ref names a signal, or one bit of a bus: Bit is the bit, or -1 for the
// whole signal.
type Ref struct {
	Name string
	Bit  int
}

// Whole refers to the whole signal name.
func Whole(name string) Ref { return Ref{Name: name, Bit: -1} }

// Bit refers to bit i of the bus name.
func Bit(name string, i int) Ref { return Ref{Name: name, Bit: i} }

// String returns the reference as name or name[bit].
func (r Ref) String() string {
	if r.Bit < 0 {
		return r.Name
	}
	return r.Name + "[" + strconv.Itoa(r.Bit) + "]"
}

// ExprOp is the operator at the root of an Expr.
type ExprOp uint8

const (
	// OpRef is a signal reference, Expr.Ref.
	OpRef ExprOp = iota
	// OpConst is the constant Expr.Value (a single bit).
	OpConst
	// OpNot is the complement of its one argument (bitwise on a bus).
	OpNot
	// OpAnd, OpOr and OpXor combine two or more arguments (bitwise on
	// buses of one width).
	OpAnd
	OpOr
	OpXor
	// OpMux is Args[0] ? Args[1] : Args[2], with a single-bit select.
	OpMux
	// OpReduceAnd and OpReduceOr are the AND and the OR of every bit of
	// their one bus argument.
	OpReduceAnd
	OpReduceOr
)

// Expr is a combinational expression over signals. Arguments of a bitwise
// operator are all single bits or all buses of one width.
type Expr struct {
	Op    ExprOp
	Args  []Expr
	Ref   Ref
	Value bool
}

// Assign drives Target with Expr.
type Assign struct {
	Target Ref
	Expr   Expr
	// Declare is set when the assignment declares its target, a wire of
	// Width bits (0: a single bit) that nothing else drives. Otherwise the
	// target is a port, or a bit of a bus declared by its section.
	Declare bool
	Width   int
	// Comment, when not empty, is one line that comes before the
	// assignment.
	Comment string
	// Cell, when not nil, says that an instance of this library cell drives
	// Target, a single bit, its inputs Cell.Inputs connected to CellArgs in
	// order; Expr is then the function the cell computes, for readers that
	// do not place cells.
	Cell     *Cell
	CellArgs []Ref
	// CellPin is the output pin of Cell that drives Target, Cell.Output
	// when empty. Instance, when not empty, names the instance: the
	// assignments in a row with one Instance are the outputs of one cell
	// (a full adder's carry and sum), with the same Cell and CellArgs.
	CellPin, Instance string
}

// Section is a group of assignments with a heading comment.
type Section struct {
	// Comment is the heading, one line per element.
	Comment []string
	// Buses are the buses driven bit by bit in this section, declared at its
	// top.
	Buses []Signal
	// Assigns are in topological order: each reads only ports, registers
	// and what earlier assignments (of this or earlier sections) drive.
	Assigns []Assign
}

// Register is one pipeline register: Q takes D at the rising edge of clk,
// and 0 while rst is 1 (Architecture.NoReset: no rst).
type Register struct {
	Q Signal
	D Ref
}

// Stage is one pipeline register stage.
type Stage struct {
	// After is the level the stage follows.
	After     int
	Registers []Register
}

// Figures are the counts a header states.
type Figures struct {
	// Depth is the number of levels of prefix cells; Cells, Black and Gray
	// count the cells the adder keeps, a cell of valency k counting once;
	// BinaryCells counts them as the binary cells of the network.
	Depth, Cells, Black, Gray, BinaryCells int
	// MaxFanout is the most gates of the carry tree reading one signal,
	// plus one where the signal is a carry the adder uses (the network's
	// logical fan-out, counted over the gates the adder keeps); WireTracks
	// is the network's wire tracks over those gates, every input of a gate
	// but the one in its own column counting as a Lo operand.
	MaxFanout, WireTracks int
	// Groups is the number of carry-select groups of a sparse tree (0 for a
	// dense one), Muxes the multiplexers that select their sums (or, with
	// full-adder cells, the sums of the bits whose full adders start from
	// a span above bit 0).
	Groups, Muxes int
	// FullAdders counts the full-adder cells (Architecture.FACells).
	FullAdders int
	// Latency is the number of register stages; RegisterBits counts the
	// bits they hold.
	Latency, RegisterBits int
}

// Description is the gate-level form of an adder.
type Description struct {
	// Width is the width of the operands.
	Width int
	// Architecture is the adder's, with PipelineAfter the levels its
	// register stages follow, Stages' placed by BalancedCuts among them.
	Architecture Architecture
	// LibraryCells are the cells the adder instantiates, nil without
	// PGCells and FACells.
	LibraryCells *Cells
	// Ports are the inputs, then the outputs, in declaration order.
	Ports []Port
	// Sections are the combinational logic, in order.
	Sections []Section
	// Stages are the register stages, in pipeline order (none for a
	// combinational adder); Registers lists their registers in one slice.
	Stages []Stage
	Figures
	// Summary says in one line per element what the module computes.
	Summary []string
}

// Clocked reports whether the adder has registers (and so a clk input,
// and rst unless Architecture.NoReset).
func (d *Description) Clocked() bool { return len(d.Stages) > 0 }

// Registers returns every register, stage by stage.
func (d *Description) Registers() []Register {
	var rs []Register
	for _, s := range d.Stages {
		rs = append(rs, s.Registers...)
	}
	return rs
}

// Inputs returns the input ports.
func (d *Description) Inputs() []Port { return d.ports(In) }

// Outputs returns the output ports.
func (d *Description) Outputs() []Port { return d.ports(Out) }

func (d *Description) ports(dir Dir) []Port {
	var ps []Port
	for _, p := range d.Ports {
		if p.Dir == dir {
			ps = append(ps, p)
		}
	}
	return ps
}
