// Package physical measures adders the way a hardware designer does: area and
// delay after synthesis onto a standard-cell library and static timing. It
// drives the real tools, Yosys and OpenSTA, and never re-implements them.
//
// A Design is a Verilog module (AdderDesign wraps the adder emit.Verilog
// builds around a network; ReferenceDesign is assign {cout, sum} = a + b +
// cin, which Yosys builds from its own $alu and Brent–Kung $lcu). Run takes
// each design through the flow, several at a time, and returns a Result per
// design: the number of standard cells from Yosys's stat and their area in
// µm² from the library, summed as stat -liberty does, the worst input-to-output delay in ns and the input and
// output bits where that path starts and ends from OpenSTA, and the library,
// the flow, the output load and the tool versions (yosys -V, sta -version)
// it was measured with. Synthesize, SynthesizeReference and SynthesizeVerilog
// run one design; VerilogDesign takes a user's own module, whose Verilog
// Yosys cannot read is bad input.
//
// # The library
//
// Options.Liberty names the library (package pdk reads it): osu018 (the
// default: the OSU 0.18 µm cells of Debian's qflow-tech-osu018,
// /usr/share/qflow/tech/osu018/osu018_stdcells.lib), osu035 (OSU 0.35 µm,
// qflow-tech-osu035), sky130hd and asap7 (carried in the repository), the
// path of any Liberty file, plain or gzip, such as a PDK's, paths
// separated by commas (the files of one library, as ASAP7's five), or a
// folder of them. A library of an OpenROAD-flow-scripts platform
// (sky130hd, nangate45, asap7, known by its library group's name however
// it is given) carries that platform's record (pdk.Record): its cells not
// to use, to which Options.DontUse adds, are marked dont_use : true, which
// ABC and dfflibmap honour, and the flow follows the record as below. Yosys
// and OpenSTA read one plain file (pdk.Library.File): the library's own
// where it is one plain file with nothing to mark, else one written once
// per process. Both tools must parse it before anything runs. Results are
// in ns and µm² whatever the library's units (ASAP7 counts in ps), and
// name the library as pdk.Library.Name does: sky130hd, asap7, osu018 or
// osu035, or the files as given.
//
// # The flows
//
// Yosys runs this script on the design, with T the top module and L the
// Liberty file; the flows differ in two lines:
//
//	read_verilog design.v
//	synth -flatten -top T -noabc                         (keep)
//	synth -flatten -top T                                (abc)
//	dfflibmap -liberty L                                 (registers)
//	abc -liberty L -script +strash;&get,-n;&nf,{D};&put  (keep)
//	abc -liberty L                                       (abc)
//	opt_clean
//	tee -q -o stat.txt stat
//	write_verilog -noattr -noexpr -simple-lhs mapped.v
//
// dfflibmap runs for a design that may have registers (a pipelined adder,
// a user's module) and is left out of the others, where it would only
// read the library once more; the area is summed from the library Run has
// read, for the same reason. For the others L is the file of the cells ABC
// maps onto (pdk.Library.MapFile), without those not to use and the
// sequential ones, which ABC would read and set aside for every design:
// the same mapping, read in less time.
//
// With a platform's record, as OpenROAD-flow-scripts' synthesis runs:
// abc reads -constr abc.constr (set_driving_cell, the record's driver cell,
// and set_load, its load in fF; with -constr Yosys's default script of the
// abc flow ends in buffer; upsize; dnsize), opt_clean is opt_clean -purge,
// and after it hilomap -singleton ties constants to the record's tie cells
// and insbuf buffers a wire that joins two ports with its buffer cell.
// Keep (the default) keeps the structure: synth maps the design onto Yosys's
// generic gates without ABC, and ABC only hashes them into an and-inverter
// graph (strash) and maps that graph onto the library with &nf, the mapper
// that ends ABC's own default script. Abc is what a user gets from plain
// synth -flatten; abc -liberty L: synth already runs abc -fast onto generic
// gates, and the second abc runs ABC's default Liberty script
// (strash; &get -n; &fraig -x; &put; scorr; dc2; dretime; strash; &get -n;
// &dch -f; &nf; &put), whose rewriting (dc2, &dch) reshapes the logic it is
// given. At 64 bits on OSU 0.18 µm it turns every parallel-prefix tree into
// long chains (Kogge–Stone 1.50 ns kept, 4.73 ns through abc): abc measures
// what ABC makes of a network, keep the network prefixgen built. That is why
// keep is the default.
//
// A design that instantiates the library's own cells (a netlist given to
// VerilogDesign, or an adder whose generate and propagate are the cells
// PGCells finds, Design.Adder.PGCells) is read after the cells, so that
// Yosys knows them and both flows keep them as they are: a netlist after
// read_liberty -lib L, an adder after read_verilog -lib cells.v, the
// ports of the cells it names as black boxes (what read_liberty -lib
// makes of them).
//
// OpenSTA then reads the mapped netlist and, of the library, the cells it
// uses (timing.lib, the library's header and templates and those cells, as
// pdk writes them: the same timing as the whole file, read in a fraction
// of the time), and runs:
//
//	link_design T
//	set_cmd_units -time ns -capacitance pF
//	create_clock -name virtual_clock -period 1000
//	set_input_delay 0 -clock virtual_clock [all_inputs]
//	set_output_delay 0 -clock virtual_clock [all_outputs]
//	set_load 0.01 [all_outputs]
//	report_checks -path_delay max -format full -digits 4
//
// so times are in ns and capacitances in pF whatever units the library
// counts in, every input arrives at time 0 with an ideal edge, every output
// drives 10 fF (Options.OutputLoadPF changes it), the flow adds no wire load (a Liberty file's own
// default_wire_load, which OpenSTA applies, still counts; the OSU libraries
// define none), and the delay is the arrival time of the worst path, which
// starts at an input and ends at an output. An ideal edge drives any load
// for free: a wide fan-out from an input (a pipeline's rst reaches a gate
// in front of every flip-flop) costs nothing before its first gate.
//
// # Modules with flip-flops
//
// A user's module may hold registers (prefixgen's own pipelined adders,
// gen --stages, among them). The flow then finds the input ports that clock
// its flip-flops in the mapped netlist and gives them a clock of the same
// period and edges as the virtual one,
//
//	create_clock -name clock -period 1000 [get_ports {clk}]
//	set_input_delay 0 -clock virtual_clock [delete_from_list [all_inputs] [get_ports {clk}]]
//
// so that every path, from an input or a flip-flop to an output or a
// flip-flop, is timed against one period, and Result.DelayNS is the least
// clock period: 1000 less the least slack, a flip-flop's setup time
// included, and at least twice the flip-flops' minimum pulse width
// (report_check_types -min_pulse_width; a clock high for half the period)
// (Result.Registers counts the flip-flops). A clock input Yosys escapes in
// the netlist (\clk$1) is given to OpenSTA by its plain name; a constraint
// OpenSTA cannot apply fails the run. A flip-flop a critical
// path starts or ends at is named by the register it holds. Latches,
// flip-flops on the falling edge, flip-flops clocked from anything but
// an input port, and a clock input read as data are bad input: one period
// does not time them.
//
// # One run is one draw
//
// ABC's netlist depends on the order in which it meets the gates, not only
// on the gates: the same adder, its generic netlist written with the
// statements in another order, comes out of flow abc several per cent
// larger or smaller and up to half again as slow (flow keep moves the delay
// by about 2 %). Options.Orders measures every design that many more times,
// its generic netlist (Yosys's synth -noabc, written by write_verilog) with
// the assign statements shuffled by ShuffleAssigns, and Result.Spread holds
// the median, least and greatest area and delay over the design as written
// and its reorderings; MedianAreaUM2 and MedianDelayNS are the figures to
// compare designs by.
//
// # Logic computed twice
//
// ABC's mapper works for the least delay: near the critical path it computes
// a signal again in the other polarity, or copies it, rather than put an
// inverter on the path. Result.RedundantUM2 is the area that went that way,
// from package redundant (RedundantArea): the mapped netlist's signals are
// built as binary decision diagrams over the Liberty file's cell functions
// (read by package liberty, the one reader of Liberty files; the netlist by
// package netlist), and a cell whose
// function, or its complement, an input or a larger cell already carries
// counts. It is a lower bound: cells the library does not describe plainly
// count as distinct.
//
// # The tools' runs
//
// Every run of Yosys and OpenSTA goes through internal/toolrun: in a
// process group of its own, killed when the context ends, when prefixgen is
// stopped by a signal, or when it runs past Options.ToolTimeout; with a
// private TMPDIR, removed after it with what the tool left there (Yosys's
// abc pass makes a folder holding the design). Yosys hands ABC the
// library's path in the design's folder unquoted, so the folders the flow
// makes lie under a plain path (toolrun.TempDir) whatever TMPDIR holds,
// and a work folder (Options.Workdir) whose path holds ; ' " or a control
// character is refused before anything is made or run. The flow works
// in a temporary folder beside the work folder (package internal/stage),
// and the designs' folders are moved into the work folder only when the
// whole run has succeeded: a run that fails, is refused or is stopped
// leaves it as it was.
//
// The figures are read from what the tools write: the area and the cells
// from the statistics Yosys writes (stat.txt, removed before it runs, so
// that an earlier run's never stand in), the delay and the critical path
// from OpenSTA's report. A tool that exits with a status other than 0,
// crashes, runs past its limit or prints no report is an error naming it
// ("yosys failed: ERROR: …", "sta failed (exit status 1): …", "yosys ran
// past its time limit of 1s …"), never a figure, and never taken for a
// verdict on the library or the design unless the tool said so in an error
// line of its own.
//
// Within a process, a design measured before with the same tools, library
// and options is not run again; with Options.Cache, nor is one measured by
// an earlier process, whose result a folder keeps under a hash of all the
// result depends on (the tools' versions, the library's files, the
// scripts, the options and the design's Verilog).
//
// # Errors
//
// A tool that is not installed, a Liberty file that cannot be read, does not
// parse or lacks the cells a design needs (Yosys leaves generic $_…_ cells
// unmapped), a user's module the flow cannot time (latches, and flip-flops
// but on the rising edge of an input port), a work folder or a cache the
// flow cannot use and an unknown flow are *SetupError values, which commands report as
// bad input (exit status 2). A tool that fails on a design is any other
// error. Every error is one line prefixed "physical: "; one caused by a
// tool wraps toolrun's error (errors.As a *toolrun.ExitError or
// *toolrun.TimeoutError), and one caused by the context wraps its error.
package physical
