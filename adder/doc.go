// Package adder builds the gate-level description of a whole adder around a
// parallel-prefix network: the form that the Verilog and VHDL emitters of
// package emit render, so that both write the same circuit.
//
// A Description is a small netlist in the order a datapath designer draws
// it: ports; sections of combinational assignments in topological order
// (pre-processing with the operation's operand inversion, the prefix cells,
// the carry-select blocks of a sparse tree, the post-processing with the
// sum and the flags); and the pipeline registers. Every assignment drives
// one signal or one bit of a bus with an Expr, a tree of a few operators
// (NOT, AND, OR, XOR, a 2-to-1 multiplexer, AND- and OR-reductions of a
// bus) over signal references and constants; an emitter spells each
// operator in its language. Names are plain identifiers legal in Verilog and
// VHDL alike (letters, digits, single underscores, no leading or trailing
// underscore), unique without regard to case.
//
// Describe builds the description from a *network.Network and an
// Architecture, the one value that says what adder surrounds the network
// (see "The architecture" below):
//
//   - Op: the operation. Add is {cout, sum} = a + b + cin; Sub is
//     a + ~b + cin, a − b when cin = 1 (cout is then "no borrow", 1 when
//     a ≥ b unsigned); AddSub adds when the mode input is 0 and subtracts
//     when it is 1; Compare has no sum and no carry-in and outputs
//     lt (a < b signed), ltu (a < b unsigned) and eq (a = b), all read off
//     the carry tree of a + ~b + 1: ltu = ¬cout, lt = p[n−1] ⊕ cout, and
//     eq = the AND of every propagate bit (the group propagate of the whole
//     word).
//   - NoCarryIn drops the cin port; the carry into bit 0 is then the
//     constant the operation needs: 0 for Add, 1 for Sub, mode for AddSub.
//   - Flags: the status outputs of Add, Sub and AddSub: cout (the carry
//     out), overflow (signed overflow: the carry into the top bit differs
//     from the carry out), zero (sum = 0) and negative (the top sum bit).
//   - Sparse s > 1: a sparse tree. The network computes only the carries
//     into every s-th bit (and the carry out): the cells outside the cones of
//     those outputs are left out. The sum bits of each s-bit group come from
//     a carry-select block: two ripple chains compute the group's
//     conditional sums for a group carry-in of 0 and of 1 while the tree
//     works, and the tree's carry into the group selects one of them with a
//     multiplexer. The lowest group ripples from the carry-in itself, which
//     is there from the start. For Kogge–Stone, Sklansky and Brent–Kung at
//     powers of two, the cone of every s-th carry is exactly Harris's
//     sparse tree: log2 s levels that form s-bit group (G, P) pairs, then
//     the same family over ⌈n/s⌉ groups (Han–Carlson's cone is
//     Kogge–Stone's). Any width is allowed;
//     when s does not divide n the last group is shorter; s may not exceed
//     n.
//   - Valency k > 2: each chain of binary cells over adjacent spans whose
//     intermediate results nothing else reads (and the adder does not
//     output) becomes one gate of up to k inputs, G = G1 | P1 & G2 |
//     P1 & P2 & G3 …, P = P1 & P2 & … (input 1 the highest span), counted as
//     one level; topologies.Valency builds radix-k Kogge–Stone and Sklansky
//     networks made of such chains, which then have ⌈log_k n⌉ levels. The
//     grouping is found from the network, from the last cell back, so a
//     network file needs no new field to carry it (the adder document
//     below records the valency to build it with).
//   - PipelineAfter or Stages: register stages. Level 0 is the
//     pre-processing, level L ≥ 1 the L-th level of prefix cells (of gates,
//     with Valency); a register stage after level L registers every signal
//     made at or before level L that a later level reads, bit by bit, a
//     signal read several stages later passing through one register per
//     stage, so that every path from an input to an output crosses the same
//     number of registers, the latency. The post-processing (sums,
//     carry-select blocks, flags) follows the last level of cells. Stages
//     places K stages by BalancedCuts. Registers take the clk input's rising
//     edge and clear to 0 while rst is 1 (synchronous reset).
//   - PGCells: each bit's generate and propagate as two cells of a
//     standard-cell library, the Cells given to Describe beside the
//     architecture, named in the description (Assign.Cell), which the
//     emitters instantiate: g_n = NAND2(a, b) and p_n = OAI21(a, b, g_n),
//     the propagate's XNOR for one OAI21 beside the NAND2 the generate
//     needs anyway. Add only.
//   - FACells: each bit that one cell joins alone to the span below it,
//     and that nothing else reads, as the library's full adder (Cells.FA,
//     an instance of two outputs: Assign.CellPin and Assign.Instance), two
//     where the span starts above bit 0, the carry into the span then
//     selecting the bit's sum; the tree reads the second adder's K = G | P
//     where it reads P. A ripple network becomes a ripple of full adders,
//     topologies.CarrySelect's a carry-select adder. In a sparse adder the
//     network stays logic and the carry-select blocks ripple through full
//     adders, two a bit but for each block's lowest bit (one in the lowest
//     block). Add, binary, combinational, without Ling or PGCells.
//   - Increment: in such a sparse adder, one ripple of full adders a block
//     (from a block carry of 0), the sums for a carry of 1 being those XOR
//     the block's propagate up to the bit: carry-increment blocks.
//
// The network is not changed: its proof by spans stands. The description
// keeps the cells the outputs it needs depend on (a comparator needs only the
// carry out, an adder without cout not that), and decides black (G and P)
// and gray (G only) cells among those, as carry.Kinds does for the whole
// network.
//
// # The architecture
//
// Architecture is the one value that says what adder surrounds a network:
// operation, carry-in, flags, sparseness, valency, Ling's carries, library
// cells for the generate and propagate, and register stages with or without
// a reset. Every package that builds, measures, searches or names an adder
// holds it whole (emit's options, physical's Design and Result, explore's
// rows, optimize's options, the command), so that a new part of the
// architecture is a field here, spelled here, and carried everywhere
// without a change there. It has one spelling per part, written here
// only: Args and ParseArgs (the flags of prefixgen gen: --pg-cells), Name
// (as results print it: "sparse=4 ling stages=2 noreset pgcells"), Suffix
// (of a module's name: "sparse4_ling_pgcells_pipe2_noreset") and the adder
// document's JSON (Fields, MarshalJSON: "pg_cells"). ReadFlags and
// ReadFlagList turn a command line's flags into architectures, with the
// rules of which flag goes with which, and refuse a flag that contradicts
// the architecture a document records.
//
// Two things a datapath designer chooses with it are not part of it, and
// one is:
//
//   - The library cells of PGCells and FACells (Cells) are a library's, not the
//     adder's: the same architecture maps onto any library, and flags
//     spell it without one (--pg-cells, with the library in --liberty); a
//     document may say which library the adder was made for (Target),
//     beside the architecture, not in it. PGCells says that the
//     generate and propagate are cells; the cells themselves go to
//     Describe beside the architecture, as the Liberty file goes to the
//     flow beside the design.
//   - PipelineAfter is part of it: the levels after which the registers
//     stand are the adder's, whatever network it surrounds, and are
//     spelled as flags (--pipeline-after), a name and a module suffix. The
//     adder document records Stages only, and refuses an architecture of
//     pipeline levels, as it refuses another operation than add or other
//     flags than cout: it records the adders that the searches and the
//     flow build.
//
// The zero value is the adder a + b + cin with no output but the sum
// (Flags is a set, and none is a set); Standard is {cout, sum} =
// a + b + cin, the adder of a network document and of every command
// without architecture flags. Sparse 0 reads as 1 and Valency 0 as 2;
// Normal writes them out, and the readers return that form.
//
// # The adder document
//
// A prefixgen.network/v1 document records a network, which is the plain
// adder's carry tree. The prefixgen.adder/v1 document (DocumentFormat)
// records an adder: the network and the Architecture around it, its
// sparseness, valency, Ling carries, pipeline and library cells, so that a
// search's result or a user's choice can be built again without its flags.
// It may also say what the adder was made for (Target): the library and
// flow a search measured it through, which commands that read it take as
// their defaults. MarshalDocument and WriteDocument write it, and
// MarshalDocumentFor and WriteDocumentFor with a Target (WriteDocument
// writes the network document for the standard adder made for nothing in
// particular); ReadDocument and ReadDocumentFor read either document,
// proving the network and checking that the architecture fits it.
package adder
