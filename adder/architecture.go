package adder

import (
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// Architecture says what adder surrounds a parallel-prefix network: the one
// value every package that builds, measures, searches or names an adder
// carries whole. The zero value is a + b + cin with the sum as its only
// output; Standard adds cout. Sparse 0 reads as 1 and Valency 0 as 2, as
// Normal writes them.
//
// Its one spelling of each part is Args (the flags of prefixgen gen), Name
// (as results print it, "sparse=4 ling stages=2 noreset pgcells"), Suffix
// (of a module's name, "sparse4_ling_pgcells_pipe2_noreset") and the JSON
// of the adder document (Fields, MarshalJSON: "pg_cells"). The library cells
// that PGCells instantiates are not part of it: they are a library's, and
// go beside it (Describe's cells).
type Architecture struct {
	// Op is the operation.
	Op Op
	// NoCarryIn drops the cin input: the carry into bit 0 is 0 for Add, 1
	// for Sub and the mode input for AddSub. Compare never has cin.
	NoCarryIn bool
	// Flags are the status outputs of Add, Sub and AddSub; Compare takes
	// none.
	Flags Flags
	// Sparse is the sparseness of the carry tree: 1 computes every carry,
	// 2, 4 or 8 every s-th one with s-bit carry-select blocks.
	Sparse int
	// Valency is the most inputs of a prefix cell: 2 emits every binary
	// cell of the network as a gate, 3 or 4 emits each chain of binary
	// cells over adjacent spans whose intermediate results nothing else
	// reads (as topologies.Valency builds them) as one gate of up to
	// Valency inputs, one level of logic.
	Valency int
	// Ling computes Ling's pseudo-carries in the tree instead of the
	// carries (H. Ling, High-Speed Binary Adder, IBM J. Res. Dev. 25(3),
	// 1981): the network runs over the pairs (g_i, t_(i-1)), t_i = a_i | b_i,
	// so that H[i:0] = g_i | c_(i-1), and the carry into bit i+1 is
	// t_i & H[i:0]. A first-level cell of two single bits is then g_i | g_(i-1)
	// (t_(i-1) & g_(i-1) = g_(i-1)), and every propagate the tree reads is an
	// OR where the plain adder reads an XOR.
	Ling bool
	// PGCells writes each bit's generate and propagate as two cells of a
	// standard-cell library instead of logic: g_n[i] = NAND2(a[i], b[i])
	// is the generate's complement, and p_n[i] = OAI21(a[i], b[i], g_n[i])
	// = !((a[i] | b[i]) & !g[i]) the propagate's, so that the XNOR the
	// propagate needs costs one OAI21 beside the NAND2 that the generate
	// has anyway. A synthesis flow keeps a library's cells as they are;
	// ABC's mapper does not find this form by itself (the cut {a[i], b[i]}
	// of the propagate hides the NAND2 from it). It applies to Add only;
	// the cells are the library's (Cells), given to Describe.
	PGCells bool
	// FACells makes each bit that one prefix cell joins to the span just
	// below it, and that no other cell reads, a full adder of the library
	// (Cells.FA): its carry out is the cell's generate and its sum the bit's
	// sum. Where that span starts at bit j > 0, a second full adder from the
	// span's G | P gives K = G | P of the longer span, which the tree reads
	// in P's place, and the bit's sum for a carry of 1 into bit j; the carry
	// into bit j selects one of the two sums. A chain of such cells is a
	// ripple of full adders, or a carry-select segment (see the package
	// documentation). With a carry-in, bit 0 is a full adder too. In a
	// sparse adder the network is logic, and the carry-select blocks ripple
	// through full adders instead: every bit of a block but its lowest is
	// a full adder in the lowest block, which ripples from the carry-in,
	// and two in the others, one for each carry into the block; the tree
	// may then be of any valency, with Ling's carries or PGCells. It
	// applies to Add without a pipeline, and in a dense adder to binary
	// cells without Ling's carries or PGCells.
	FACells bool
	// Increment, with FACells in a sparse adder, makes each carry-select
	// block one ripple of full adders, from a block carry-in of 0, and
	// takes its sums for a carry-in of 1 from those by an exclusive or
	// with the block's propagate up to the bit, s1 = s0 ^ P[i-1:lo] (the
	// carry-increment adder's block), instead of a second ripple: a full
	// adder a bit fewer for an AND and an XOR. It applies to nothing else:
	// a block of logic costs no less so (ABC maps both chains alike).
	Increment bool
	// PipelineAfter lists the levels after which a register stage is
	// inserted, in increasing order: 0 is the pre-processing, 1 … depth the
	// levels of prefix cells.
	PipelineAfter []int
	// Stages, when PipelineAfter is empty, asks for that many register
	// stages placed to balance the levels of logic between them (see
	// BalancedCuts).
	Stages int
	// NoReset leaves a pipelined adder's registers without a reset: the
	// module has no rst input, and every register loads at every rising
	// edge of clk. A pipeline's registers hold data that the next inputs
	// replace, so they need none, and a synchronous reset puts a gate in
	// front of every flip-flop, all driven by one input. It applies only
	// with PipelineAfter or Stages.
	NoReset bool
}

// Standard is the adder {cout, sum} = a + b + cin, every carry from the
// network, binary cells, combinational: the adder of a network document and
// of every command without architecture flags.
var Standard = Architecture{Flags: Carry, Sparse: 1, Valency: 2}

// valency returns the valency, 2 for the zero value.
func (a Architecture) valency() int { return max(a.Valency, 2) }

// sparse returns the sparseness, 1 for the zero value.
func (a Architecture) sparse() int { return max(a.Sparse, 1) }

// faCellsFit returns what keeps FACells from a, in words that follow the
// flag's name ("applies to …"), or "" when it fits.
func (a Architecture) faCellsFit() string {
	if why := a.faCellsFitAnySparse(); why != "" {
		return why
	}
	if a.sparse() > 1 {
		return ""
	}
	// A dense adder's full adders are cells of its network.
	switch {
	case a.valency() > 2:
		return "applies to binary cells in a dense adder: allowed --valency 2, or --sparse 2, 4 or 8, whose blocks take the full adders"
	case a.Ling:
		return "does not apply to Ling's carries in a dense adder: allowed one of --fa-cells and --ling, or both with --sparse 2, 4 or 8"
	case a.PGCells:
		return "does not apply with library cells for the generate and propagate in a dense adder: allowed one of --fa-cells and --pg-cells, or both with --sparse 2, 4 or 8"
	}
	return ""
}

// incrementFit returns what keeps Increment from a, in words that follow
// the flag's name ("applies to …"), or "" when it fits.
func (a Architecture) incrementFit() string {
	if !a.FACells || a.sparse() == 1 {
		return "applies to the carry-select blocks of full adders: allowed with --" + FlagFACells + " and --" + FlagSparse + " 2, 4 or 8"
	}
	return ""
}

// faCellsFitAnySparse is faCellsFit for what no sparseness changes: the
// operation and a pipeline.
func (a Architecture) faCellsFitAnySparse() string {
	switch {
	case a.Op != Add:
		return "applies to --op add only: the cells take a and b as they are; allowed with add"
	case a.pipelined():
		return "applies to a combinational adder: allowed without --stages and --pipeline-after"
	}
	return ""
}

// InstantiatesCells reports whether the adder instantiates a library's
// cells (Cells): PGCells or FACells.
func (a Architecture) InstantiatesCells() bool { return a.PGCells || a.FACells }

// pipelined reports whether a asks for register stages.
func (a Architecture) pipelined() bool { return a.Stages != 0 || len(a.PipelineAfter) > 0 }

// Normal returns a written one way: Sparse 0 as 1, Valency 0 as 2, an
// empty PipelineAfter as nil, and NoCarryIn dropped from Compare, which
// has no carry-in. Two architectures that build the same adder have the
// same normal form; the readers of this package (ReadDocument, ParseArgs,
// ReadFlags) return it.
func (a Architecture) Normal() Architecture {
	a.Sparse, a.Valency = a.sparse(), a.valency()
	if len(a.PipelineAfter) == 0 {
		a.PipelineAfter = nil
	} else {
		a.PipelineAfter = slices.Clone(a.PipelineAfter)
	}
	if a.Op == Compare {
		a.NoCarryIn = false
	}
	return a
}

// Equal reports whether a and b have the same normal form.
func (a Architecture) Equal(b Architecture) bool {
	a, b = a.Normal(), b.Normal()
	return a.Op == b.Op && a.NoCarryIn == b.NoCarryIn && a.Flags == b.Flags &&
		a.Sparse == b.Sparse && a.Valency == b.Valency && a.Ling == b.Ling && a.PGCells == b.PGCells && a.FACells == b.FACells && a.Increment == b.Increment &&
		slices.Equal(a.PipelineAfter, b.PipelineAfter) && a.Stages == b.Stages && a.NoReset == b.NoReset
}

// IsStandard reports whether a is Standard.
func (a Architecture) IsStandard() bool { return a.Equal(Standard) }

// Check reports whether the architecture fits net, as Describe would build
// it: an allowed sparseness no wider than the network, an allowed valency,
// register stages within the carry tree's depth, and the rest that
// Describe checks. The library cells of PGCells are not needed. Standard
// fits every network, and is not described to say so: a network of
// millions of inputs is checked at once.
func (a Architecture) Check(net *network.Network) error {
	if a.IsStandard() {
		return nil
	}
	_, err := Describe(net, a, nil)
	return err
}

// Suffix names the architecture for a module name: empty for Standard,
// otherwise parts such as "sub", "nocin", "flags_cozn", "valency3",
// "sparse4", "ling", "pgcells", "facells", "increment", "pipe2" (Stages: 2, placed by
// BalancedCuts), "pipe2_at0_4" (PipelineAfter: 0, 4) and "noreset", in
// that order, joined by underscores.
func (a Architecture) Suffix() string {
	var parts []string
	if a.Op != Add {
		parts = append(parts, a.Op.String())
	}
	if a.NoCarryIn && a.Op != Compare {
		parts = append(parts, "nocin")
	}
	if a.Op != Compare && a.Flags != Carry {
		s := "flags_"
		for i, name := range flagNames {
			if a.Flags&(1<<i) != 0 {
				s += name[:1]
			}
		}
		if a.Flags == 0 {
			s += "none"
		}
		parts = append(parts, s)
	}
	if a.valency() > 2 {
		parts = append(parts, "valency"+strconv.Itoa(a.valency()))
	}
	if a.sparse() > 1 {
		parts = append(parts, "sparse"+strconv.Itoa(a.sparse()))
	}
	if a.Ling {
		parts = append(parts, "ling")
	}
	if a.PGCells {
		parts = append(parts, "pgcells")
	}
	if a.FACells {
		parts = append(parts, "facells")
	}
	if a.Increment {
		parts = append(parts, "increment")
	}
	if k := max(len(a.PipelineAfter), a.Stages); k > 0 {
		pipe := "pipe" + strconv.Itoa(k)
		if a.Stages == 0 {
			// Levels of one's own: two pipelines of k stages cut at other
			// levels are other circuits, and need other names.
			pipe += "_at" + joinInts(a.PipelineAfter, "_")
		}
		parts = append(parts, pipe)
		if a.NoReset {
			parts = append(parts, "noreset")
		}
	}
	return strings.Join(parts, "_")
}

// Name names the architecture as results print it after a network's name:
// empty for Standard, otherwise parts such as "sub", "nocin",
// "flags=carry,zero", "sparse=4", "valency=3", "ling", "stages=2" (or
// "pipeline-after=0,4"), "noreset", "pgcells", "facells" and "increment",
// in that order, joined by spaces, as in "sparse=4 ling stages=2 noreset
// pgcells".
func (a Architecture) Name() string {
	var parts []string
	if a.Op != Add {
		parts = append(parts, a.Op.String())
	}
	if a.NoCarryIn && a.Op != Compare {
		parts = append(parts, "nocin")
	}
	if a.Op != Compare && a.Flags != Carry {
		parts = append(parts, "flags="+a.Flags.String())
	}
	if a.sparse() > 1 {
		parts = append(parts, "sparse="+strconv.Itoa(a.sparse()))
	}
	if a.valency() > 2 {
		parts = append(parts, "valency="+strconv.Itoa(a.valency()))
	}
	if a.Ling {
		parts = append(parts, "ling")
	}
	switch {
	case a.Stages != 0:
		parts = append(parts, "stages="+strconv.Itoa(a.Stages))
	case len(a.PipelineAfter) > 0:
		parts = append(parts, "pipeline-after="+joinInts(a.PipelineAfter, ","))
	}
	if a.NoReset {
		parts = append(parts, "noreset")
	}
	if a.PGCells {
		parts = append(parts, "pgcells")
	}
	if a.FACells {
		parts = append(parts, "facells")
	}
	if a.Increment {
		parts = append(parts, "increment")
	}
	return strings.Join(parts, " ")
}

// Args returns the command-line flags that build the architecture again, as
// prefixgen gen takes them, each flag and each value one element: none
// for Standard, otherwise --op, --no-cin, --flags, --sparse, --valency,
// --ling, --pg-cells, --fa-cells, --increment, --stages (or --pipeline-after) and
// --no-reset, in that order, where a differs from Standard, as in
// ["--sparse", "4", "--ling", "--stages", "2"]. ParseArgs reads them back.
// The library of the cells of --pg-cells and --fa-cells is the caller's to
// add (--liberty).
func (a Architecture) Args() []string {
	var args []string
	if a.Op != Add {
		args = append(args, "--"+FlagOp, a.Op.String())
	}
	if a.NoCarryIn && a.Op != Compare {
		args = append(args, "--"+FlagNoCarryIn)
	}
	if a.Op != Compare && a.Flags != Carry {
		args = append(args, "--"+FlagFlags, a.Flags.String())
	}
	if a.sparse() > 1 {
		args = append(args, "--"+FlagSparse, strconv.Itoa(a.sparse()))
	}
	if a.valency() > 2 {
		args = append(args, "--"+FlagValency, strconv.Itoa(a.valency()))
	}
	if a.Ling {
		args = append(args, "--"+FlagLing)
	}
	if a.PGCells {
		args = append(args, "--"+FlagPGCells)
	}
	if a.FACells {
		args = append(args, "--"+FlagFACells)
	}
	if a.Increment {
		args = append(args, "--"+FlagIncrement)
	}
	switch {
	case a.Stages != 0:
		args = append(args, "--"+FlagStages, strconv.Itoa(a.Stages))
	case len(a.PipelineAfter) > 0:
		args = append(args, "--"+FlagPipelineAfter, joinInts(a.PipelineAfter, ","))
	}
	if a.NoReset {
		args = append(args, "--"+FlagNoReset)
	}
	return args
}

// joinInts writes xs joined by sep.
func joinInts(xs []int, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

// EachOption returns every architecture of list four times, in order: as
// it is, with Ling's carries, with library cells for each bit's generate
// and propagate, and with both; and then as many times again with the
// library's full adders where they apply (FACells: a combinational adder,
// of binary cells without the other two when dense); the named set of an
// exploration that asks for every architecture option.
// Ling, PGCells and FACells already set in an architecture are cleared
// first, so that no architecture is listed twice. Only an adder (Op Add)
// takes library cells for its generate and propagate, and carry-increment
// blocks (Increment) stay with the full adders' sparse architectures
// alone: every architecture listed is one Describe builds.
func EachOption(list []Architecture) []Architecture {
	out := make([]Architecture, 0, 8*len(list))
	for _, a := range list {
		increment := a.Increment
		a.FACells, a.Increment = false, false
		pgs := []bool{false, true}
		if a.Op != Add {
			pgs = pgs[:1]
		}
		for _, pg := range pgs {
			for _, ling := range []bool{false, true} {
				b := a
				b.PipelineAfter = slices.Clone(a.PipelineAfter)
				b.Ling, b.PGCells = ling, pg
				out = append(out, b)
			}
		}
		for _, pg := range pgs {
			for _, ling := range []bool{false, true} {
				b := a
				b.PipelineAfter = slices.Clone(a.PipelineAfter)
				b.Ling, b.PGCells, b.FACells = ling, pg, true
				b.Increment = increment && b.incrementFit() == ""
				if b.faCellsFit() == "" {
					out = append(out, b)
				}
			}
		}
	}
	return out
}

// EachIncrement returns list with, after each sparse adder of full adders
// (FACells, Sparse above 1) without Increment, the same adder with
// carry-increment blocks (Increment): what explore --every-option
// --increment measures.
func EachIncrement(list []Architecture) []Architecture {
	out := make([]Architecture, 0, 2*len(list))
	for _, a := range list {
		out = append(out, a)
		if a.FACells && !a.Increment && a.sparse() > 1 {
			b := a
			b.PipelineAfter = slices.Clone(a.PipelineAfter)
			b.Increment = true
			out = append(out, b)
		}
	}
	return out
}
