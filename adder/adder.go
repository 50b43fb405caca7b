package adder

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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
	return 0, fmt.Errorf("adder: unknown operation %q: allowed %s", s, strings.Join(opNames, ", "))
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
			return 0, fmt.Errorf("adder: flags %q: none stands alone: allowed a list of %s, or none", s, strings.Join(flagNames, ", "))
		}
		i := slices.Index(flagNames, name)
		if i < 0 {
			return 0, fmt.Errorf("adder: unknown flag %q: allowed %s, or none", name, strings.Join(flagNames, ", "))
		}
		if f&(1<<i) != 0 {
			return 0, fmt.Errorf("adder: flag %q given twice in %q: each flag once", name, s)
		}
		f |= 1 << i
	}
	return f, nil
}

// MaxValency is the most inputs of a prefix cell Describe emits.
const MaxValency = 4

// Sparseness lists the sparseness values Describe accepts.
var Sparseness = []int{1, 2, 4, 8}

// Options choose the adder Describe builds. The zero value is an adder
// a + b + cin with the sum as its only output; Standard adds cout.
type Options struct {
	// Op is the operation.
	Op Op
	// NoCarryIn drops the cin input: the carry into bit 0 is 0 for Add, 1
	// for Sub and the mode input for AddSub. Compare never has cin.
	NoCarryIn bool
	// Flags are the status outputs of Add, Sub and AddSub; Compare takes
	// none.
	Flags Flags
	// Sparse is the sparseness of the carry tree: 0 or 1 computes every
	// carry, 2, 4 or 8 every s-th one with s-bit carry-select blocks.
	Sparse int
	// PipelineAfter lists the levels after which a register stage is
	// inserted, in increasing order: 0 is the pre-processing, 1 … depth the
	// levels of prefix cells.
	PipelineAfter []int
	// Valency is the most inputs of a prefix cell: 0 or 2 emits every
	// binary cell of the network as a gate, 3 or 4 emits each chain of
	// binary cells over adjacent spans whose intermediate results nothing
	// else reads (as topologies.Valency builds them) as one gate of up to
	// Valency inputs, one level of logic.
	Valency int
	// Stages, when PipelineAfter is empty, asks for that many register
	// stages placed to balance the levels of logic between them (see
	// BalancedCuts).
	Stages int
	// Ling computes Ling's pseudo-carries in the tree instead of the
	// carries (H. Ling, High-Speed Binary Adder, IBM J. Res. Dev. 25(3),
	// 1981): the network runs over the pairs (g_i, t_(i-1)), t_i = a_i | b_i,
	// so that H[i:0] = g_i | c_(i-1), and the carry into bit i+1 is
	// t_i & H[i:0]. A first-level cell of two single bits is then g_i | g_(i-1)
	// (t_(i-1) & g_(i-1) = g_(i-1)), and every propagate the tree reads is an
	// OR where the plain adder reads an XOR.
	Ling bool
	// NoReset leaves a pipelined adder's registers without a reset: the
	// module has no rst input, and every register loads at every rising
	// edge of clk. A pipeline's registers hold data that the next inputs
	// replace, so they need none, and a synchronous reset puts a gate in
	// front of every flip-flop, all driven by one input. It applies only
	// with PipelineAfter or Stages.
	NoReset bool
	// Cells, when not nil, writes each bit's generate and propagate as two
	// cells of a standard-cell library instead of logic: g_n[i] =
	// NAND2(a[i], b[i]) is the generate's complement, and p_n[i] =
	// OAI21(a[i], b[i], g_n[i]) = !((a[i] | b[i]) & !g[i]) the propagate's,
	// so that the XNOR the propagate needs costs one OAI21 beside the NAND2
	// that the generate has anyway. A synthesis flow keeps a library's
	// cells as they are; ABC's mapper does not find this form by itself (the
	// cut {a[i], b[i]} of the propagate hides the NAND2 from it). It
	// applies to Add only.
	Cells *Cells
}

// Cells are the standard-cell library cells Options.Cells instantiates.
type Cells struct {
	// NAND2 computes !(I0 & I1) and OAI21 !((I0 | I1) & I2), where Ik is
	// the cell's k-th input pin in Inputs.
	NAND2, OAI21 Cell
}

// check reports a cell without a name or output, or with another number of
// inputs than its use needs.
func (c *Cells) check() error {
	for _, x := range []struct {
		use  string
		cell Cell
		ins  int
	}{{"NAND2", c.NAND2, 2}, {"OAI21", c.OAI21, 3}} {
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

// Standard is today's adder: {cout, sum} = a + b + cin, every carry from the
// network, combinational.
var Standard = Options{Flags: Carry}

// valency returns the valency, 2 for the zero value.
func (o Options) valency() int { return max(o.Valency, 2) }

// sparse returns the sparseness, 1 for the zero value.
func (o Options) sparse() int { return max(o.Sparse, 1) }

// Suffix names the options for a module name: empty for Standard, otherwise
// parts such as "sub", "nocin", "flags_cozn", "sparse4", "ling", "pipe2"
// (Stages: 2, placed by BalancedCuts), "pipe2_at0_4" (PipelineAfter: 0, 4),
// "pgcells" (Cells), "noreset" joined by underscores.
func (o Options) Suffix() string {
	var parts []string
	if o.Op != Add {
		parts = append(parts, o.Op.String())
	}
	if o.NoCarryIn && o.Op != Compare {
		parts = append(parts, "nocin")
	}
	if o.Op != Compare && o.Flags != Carry {
		s := "flags_"
		for i, name := range flagNames {
			if o.Flags&(1<<i) != 0 {
				s += name[:1]
			}
		}
		if o.Flags == 0 {
			s += "none"
		}
		parts = append(parts, s)
	}
	if o.valency() > 2 {
		parts = append(parts, "valency"+strconv.Itoa(o.valency()))
	}
	if o.sparse() > 1 {
		parts = append(parts, "sparse"+strconv.Itoa(o.sparse()))
	}
	if o.Ling {
		parts = append(parts, "ling")
	}
	if o.Cells != nil {
		parts = append(parts, "pgcells")
	}
	if k := max(len(o.PipelineAfter), o.Stages); k > 0 {
		pipe := "pipe" + strconv.Itoa(k)
		if o.Stages == 0 {
			// Levels of one's own: two pipelines of k stages cut at other
			// levels are other circuits, and need other names.
			pipe += "_at"
			for i, l := range o.PipelineAfter {
				if i > 0 {
					pipe += "_"
				}
				pipe += strconv.Itoa(l)
			}
		}
		parts = append(parts, pipe)
		if o.NoReset {
			parts = append(parts, "noreset")
		}
	}
	return strings.Join(parts, "_")
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

// Signal is a named wire: a single bit when Width is 0, a bus [Width-1:0]
// otherwise.
type Signal struct {
	Name  string
	Width int
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
// and 0 while rst is 1 (Options.NoReset: no rst).
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
	// dense one), Muxes the multiplexers that select their sums.
	Groups, Muxes int
	// Latency is the number of register stages; RegisterBits counts the
	// bits they hold.
	Latency, RegisterBits int
}

// Description is the gate-level form of an adder.
type Description struct {
	// Width is the width of the operands.
	Width   int
	Options Options
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
// and rst unless Options.NoReset).
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
