// Package emit turns a network into the files people read and tools consume.
//
// The formats are JSON (the prefixgen.network/v1 document of package
// network); a plain-text textbook diagram (Text); the textbook picture as
// Graphviz DOT with pinned positions for neato -n2 (DOT) and as SVG drawn
// without Graphviz (SVG), both in one layout (one column per bit, bit 0 on the
// right unless asked otherwise, one row per level); a synthesizable
// Verilog-2005 adder {cout, sum} = a + b + cin built around the network
// (Verilog), its self-checking testbench (VerilogTestbench), the same adder
// and testbench in VHDL-93 that is also VHDL-2008 (VHDL, VHDLTestbench,
// which run the Verilog testbench's vectors from the same seed), and a Yosys
// $lcu techmap module (YosysLCU, or YosysLCUWidths for one topology at many
// widths in one module, the widths read by ParseWidths) that gives any
// design Yosys synthesizes the network's carry tree; and the tables of
// figures that the stats and compare commands print (Table, CSV,
// StatsJSON). WriteFile writes any of them to a
// file whole or not at all.
//
// Every emitter takes a *network.Network and never knows which topology made
// it, and every one is deterministic: the same network gives the same bytes.
// The Verilog is generated from text/template files embedded in the package;
// black cells (G and P) appear only where a later cell reads P, as
// carry.Kinds decides, and gray cells (G only) everywhere else. Package
// toolcheck runs Icarus, Verilator, Yosys, Graphviz and GHDL on what this
// package writes.
//
// The Verilog adder is rendered from the gate-level description that
// package adder builds (adder.Describe), so that the operation (add, sub,
// addsub, compare), --no-cin, the flags, sparse trees with carry-select
// blocks, cells of valency 3 and 4 and pipeline registers come out the same
// in every language that renders it; the adder.Architecture of
// VerilogOptions.Adder, VHDLOptions.Adder and TestbenchOptions.Adder
// chooses them, nil meaning adder.Standard, and AdderModuleName names the
// module after it (its Suffix). The library cells of an architecture with
// PGCells go beside it, in VerilogOptions.Cells.
//
// The fan-out printed everywhere is the logical, unbuffered fan-out of package
// network (cells reading a signal, plus one if it is an output), not Harris's
// per-level lateral fan-out with buffers: Kogge–Stone gets log2 n + 1 here
// where Harris's taxonomy gets 2.
package emit
