// Package toolcheck runs the outside tools on what package emit writes and
// reports what they say: the truth about emitted hardware is what real tools
// say, not what prefixgen believes.
//
// For each network, Check emits the adder (emit.Verilog), its testbench
// (emit.VerilogTestbench), the VHDL adder and testbench (emit.VHDL,
// emit.VHDLTestbench), its $lcu techmap (emit.YosysLCU) and its picture
// (emit.DOT) into a temporary folder and runs whichever of these tools are
// installed:
//
//   - Icarus Verilog (iverilog, vvp): the self-checking testbench must print
//     PASS, naming the adder's module, and exit 0.
//   - Verilator: verilator --lint-only -Wall must print nothing, for the
//     adder alone and for its testbench with it. An error fails the design;
//     a warning is status Warn, which is not a verdict (pass and fail come
//     from simulation and proofs) and which Failed does not count.
//   - Yosys, equivalence: a miter of the adder against a behavioural
//     {cout, sum} = a + b + cin, proven by sat -prove (for widths up to
//     MaxProofWidth; wider proofs take minutes and are skipped); for a
//     pipeline with a reset, which that proof holds at 0, sat proves too
//     that one cycle of rst clears every register (Design.Registers).
//   - Yosys, synthesis: techmap; opt, then stat and ltp -noff give the gate
//     count and the longest topological path in gates.
//   - Yosys, $lcu techmap: y = a + b synthesized with alumacc and techmap,
//     the design's emit.YosysLCU module beside Yosys's techmap.v; the log
//     must show Yosys using it for the $lcu, and the result is proven equal
//     to a + b.
//   - Graphviz: neato -n2 must draw the DOT file with its pinned positions,
//     silent, and write the SVG.
//   - GHDL: the VHDL testbench, analysed, elaborated and run as VHDL-2008,
//     must print PASS and exit 0, and up to MaxProofWidth bits ghdl
//     --synth of the VHDL must be proven equal to the Verilog adder by
//     Yosys; for a pipeline with a reset, whose testbench compares
//     nothing under rst, the two must be proven equal at every cycle
//     after one cycle of rst, from any state.
//     An adder of library cells (adder.Architecture.PGCells, FACells) is
//     simulated with the cells' models from the Liberty file
//     (Options.Liberty): Verilog models written by Yosys, which every other
//     check reads, and VHDL models (emit.VHDLCellModels), which GHDL
//     analyses before the adder and ghdl --synth makes logic of, proven
//     equal to the Verilog with its models as for any other adder.
//
// NewModuleDesign makes a Design of a module of the user's own (an adder
// written by hand, or a netlist after synthesis with the Liberty file of its
// cells): its ports are read by Yosys and must be the adder's; the
// testbench, lint, equivalence and synthesis checks run on it, and the
// checks that need a network are Skipped. NewVHDLModuleDesign does the same
// for a VHDL entity of the user's own, on the Verilog netlist ghdl --synth
// writes of it (VHDLToVerilog), and runs the VHDL testbench on the file.
//
// A verdict is read from what the tool says, never from its exit status
// alone. A check passes only on the words of its success (Yosys's "SAT proof
// finished - no model found: SUCCESS!" for each proof, the testbench's PASS
// line, a silent lint). It fails (status Fail) only on the tool's word that
// the design is wrong: a proof the log shows failing, a testbench's FAIL
// line, an error naming the design's file. A tool that exits
// otherwise than its check expects, crashes, runs past its time limit
// (Options.ToolTimeout) or ends without a verdict gives status Error ("yosys
// failed: …", "yosys gave no proof"): nothing is known of the design.
// Every tool runs through package toolrun, in a process group of its own
// with a private TMPDIR, and what it printed reaches a result escaped, on
// one line.
//
// The modules and files the checks write around a design (the reference,
// the miter, the testbench of a module of the user's own) are named under
// Namespace, so that no name of the user's clashes with them.
//
// A tool that is not installed gives a result with status Missing, not a
// failure; MissingTools lists them so that a command can say so. Check works on
// Designs, so that a test can plant a bug in a design's Verilog and watch a
// check fail.
package toolcheck
