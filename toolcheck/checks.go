package toolcheck

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/prefixgen/prefixgen/internal/toolrun"
)

// Namespace is the prefix of the names of the modules and files the checks
// write around a design: the reference, the miter, the testbench of a
// module of the user's own, the $lcu techmap's design. NewModuleDesign
// refuses a module whose name takes it, so that no name of the user's
// clashes with the checks' own.
const Namespace = "prefixgen_check_"

// The checks' own modules and files.
const (
	referenceModule = Namespace + "reference"
	miterModule     = Namespace + "miter"
	moduleTestbench = Namespace + "tb"
	lcuTopModule    = Namespace + "top"
	lcuGoldModule   = Namespace + "gold"
	verilogModule   = Namespace + "verilog"
	vhdlModule      = Namespace + "vhdl"

	referenceFile = Namespace + "reference.v"
	cellsFile     = Namespace + "cells.v"
	vhdlCellsFile = Namespace + "cells.vhd"
	lcuFile       = Namespace + "lcu.v"
	lcuTopFile    = Namespace + "lcu_top.v"
	resetScript   = Namespace + "reset.ys"
	vhdlSynthFile = Namespace + "vhdl_synth.v"
	dotFile       = "adder.dot"
	svgFile       = "adder.svg"
)

// check is one kind of check, and log the file that keeps what its
// tools printed (Options.Keep).
type check struct {
	tool, check string
	run         func(j *job, r Result) Result
	log         string
}

// checks are the checks of every design, in the order Check reports them.
var checks = []check{
	{"iverilog", "testbench", testbench, "testbench.log"},
	{"verilator", "lint -Wall", lint, "lint.log"},
	{"yosys", "equivalence", equivalence, "equivalence.log"},
	{"yosys", "synthesis", synthesis, "synthesis.log"},
	{"yosys", "$lcu techmap", lcuTechmap, "lcu.log"},
	{"neato", "layout", layout, "layout.log"},
	{"ghdl", "VHDL", vhdl, "vhdl.log"},
}

// What the tools say of a design that is wrong, in the first words of a
// line: Icarus's "file:line: …" (and its "error: …"), Verilator's
// "%Error…" (its "%Warning-…" is a warning, not a verdict), Graphviz's "Warning: …" and "Error: …", and
// GHDL's "file:line:column: …".
var (
	iverilogSays     = regexp.MustCompile(`^(\S+:\d+: |error: |warning: )`)
	verilatorError   = regexp.MustCompile(`^%Error`)
	verilatorWarning = regexp.MustCompile(`^%Warning`)
	// verilatorExiting is the last line of a run that warned.
	verilatorExiting = regexp.MustCompile(`^%Error: Exiting due to \d+ warning`)
	neatoSays        = regexp.MustCompile(`^(Warning|Error): `)
	ghdlSays         = regexp.MustCompile(`^\S+:\d+:\d+: ?`)
	ghdlWarning      = regexp.MustCompile(`^\S+:\d+:\d+: ?warning:`)
)

// yosys are the options of every Yosys run of the checks: no banner and
// no footer, so that the log is what the script did.
var yosys = []string{"-Q", "-T", "-p"}

// sources are the Verilog files of d's module: the module, and the models
// of the library cells it instantiates where it has them.
func sources(d *Design) []string {
	if d.Cells != nil {
		return []string{d.Module + ".v", cellsFile}
	}
	return []string{d.Module + ".v"}
}

// notForModule returns r skipped, for a check that needs a network, when d
// is a module of the user's own; ok is false then.
func notForModule(d *Design, r Result, what string) (Result, bool) {
	if !d.outside {
		return r, true
	}
	r.Status, r.Detail = Skipped, "a module of your own has no "+what
	return r, false
}

// quiet reads the run of a tool that prints nothing when all is well
// (verilator --lint-only, ghdl -a): ok says it exited 0 silent; a line
// that says what is wrong fails the design (diagnosed); anything else is
// no verdict.
func quiet(r Result, o *ran, says *regexp.Regexp) (Result, bool) {
	r, ok := diagnosed(r, o, says)
	if ok && strings.TrimSpace(o.out()) != "" {
		return broke(r, o, ""), false
	}
	return r, ok
}

// ghdlQuiet reads a run of ghdl -a or -e as quiet does, but for a file of
// the user's own (outside): there GHDL's warnings (file:line:col:warning:)
// with exit status 0 are not a verdict, as Verilator's are not; warning
// is the first. prefixgen's own VHDL must be silent.
func ghdlQuiet(r Result, o *ran, outside bool) (_ Result, warning string, ok bool) {
	if outside && o.exited() && o.err == nil {
		others := false
		for line := range strings.Lines(o.out()) {
			switch {
			case strings.TrimSpace(line) == "":
			case line[0] == ' ' || line[0] == '\t':
				// The source line and the caret under a diagnostic.
			case ghdlWarning.MatchString(line):
				line = strings.TrimSpace(line)
				if warning == "" {
					warning = line
				}
			default:
				others = true
			}
		}
		if !others {
			return r, warning, true
		}
	}
	r, ok = quiet(r, o, ghdlSays)
	return r, "", ok
}

// testbench compiles the testbench with Icarus, which must be silent on
// the emitted adder (a module of the user's own may draw warnings: Verilator
// reports them), and runs it: its PASS line passes.
func testbench(j *job, r Result) Result {
	d := j.d
	tb := d.testbenchModule()
	args := append([]string{"-g2005", "-Wall", "-s", tb, "-o", "sim"}, sources(d)...)
	o, ok := j.run(&r, "iverilog", append(args, tb+".v")...)
	if !ok {
		return r
	}
	if !o.exited() {
		return broke(r, o, "")
	}
	// A module of the user's own may draw warnings with exit status 0.
	if line := firstMatch(iverilogSays, o.out()); line != "" && (o.err != nil || !d.outside) {
		return failed(r, line)
	}
	if o.err != nil || (!d.outside && strings.TrimSpace(o.out()) != "") {
		return broke(r, o, "")
	}
	if o, ok = j.run(&r, "vvp", "-n", "sim"); !ok {
		return r
	}
	var line string
	if r, line, ok = verdict(r, o, d.Module); !ok {
		return r
	}
	return passed(r, line)
}

// lint runs verilator --lint-only -Wall on the adder alone, then on its
// testbench with the adder (--timing: the testbench waits with #1): both
// silent pass, an error of Verilator's fails, and a warning gives Warn,
// naming the first.
func lint(j *job, r Result) Result {
	d := j.d
	args := []string{"--lint-only", "-Wall"}
	if d.outside || d.Cells != nil {
		// The user's file may declare other modules than the one checked,
		// and the library's models are modules of their own.
		args = append(args, "-Wno-DECLFILENAME", "--top-module", d.Module)
	}
	if d.outside && d.Cells != nil || d.unread {
		// A netlist keeps wires that synthesis left driving nothing; an
		// adder of full adders, as measured, some of its own.
		args = append(args, "-Wno-UNUSED", "-Wno-UNDRIVEN")
	}
	o, ok := j.run(&r, "verilator", append(args, sources(d)...)...)
	if !ok {
		return r
	}
	r, warning, ok := linted(r, o)
	if !ok {
		return r
	}
	tb := d.testbenchModule()
	args = append(args[:2:2], "--timing", "--top-module", tb)
	if d.outside || d.Cells != nil {
		args = append(args, "-Wno-DECLFILENAME")
	}
	if d.outside && d.Cells != nil || d.unread {
		args = append(args, "-Wno-UNUSED", "-Wno-UNDRIVEN")
	}
	args = append(append(args, sources(d)...), tb+".v")
	if o, ok = j.run(&r, "verilator", args...); !ok {
		return r
	}
	r, tbWarning, ok := linted(r, o)
	if !ok {
		return r
	}
	if warning == "" {
		warning = tbWarning
	}
	if warning != "" {
		r.Status, r.Detail = Warn, toolrun.OneLine(warning)
		return r
	}
	detail := "no warnings in the adder or its testbench"
	switch {
	case d.outside && d.Cells != nil:
		detail += " (a netlist's unused and undriven wires not counted)"
	case d.unread:
		detail += " (unused wires of full adders not counted)"
	}
	return passed(r, detail)
}

// linted reads a run of verilator --lint-only: an error of Verilator's on
// the design (a %Error line but its closing "Exiting due to …") fails it;
// warning is its first %Warning line, if any, which is not a verdict; a
// crash, or an exit status or output without either, is no verdict. ok says
// the run went through, warned of or silent.
func linted(r Result, o *ran) (_ Result, warning string, ok bool) {
	if !o.exited() {
		return broke(r, o, ""), "", false
	}
	for line := range strings.Lines(o.out()) {
		if verilatorError.MatchString(line) && !verilatorExiting.MatchString(line) {
			return failed(r, strings.TrimSpace(line)), "", false
		}
	}
	warning = firstMatch(verilatorWarning, o.out())
	if warning == "" && (o.err != nil || strings.TrimSpace(o.out()) != "") {
		return broke(r, o, ""), "", false
	}
	return r, warning, true
}

// pipelineProof is the SAT command that proves a pipelined design's miter:
// a pipeline of L stages holds no state older than L cycles, so checking
// cycle L + 1 from any state and any inputs covers every cycle of every run
// (with rst low, where the adder has one: reset clears the registers of the
// two designs differently).
func pipelineProof(d *Design) string {
	rst := ""
	if !d.NoReset {
		rst = "-set in_rst 0 "
	}
	return fmt.Sprintf("sat -verify -prove trigger 0 %s-seq %d -prove-skip %d %s", rst, d.Latency+1, d.Latency, miterModule)
}

// prove runs a Yosys script that ends in one sat -prove and reads its
// verdict (yosysProof); ok is false when Yosys is not installed, and r is
// then Missing.
func (j *job) prove(r *Result, script string) (proof, bool) {
	o, ok := j.run(r, "yosys", append(yosys, script)...)
	if !ok {
		return noProof, false
	}
	var p proof
	*r, p = yosysProof(*r, o, 1)
	return p, true
}

// equivalence proves the adder equal to its reference with a miter, and
// a pipeline's reset.
func equivalence(j *job, r Result) Result {
	d := j.d
	if d.Width > MaxProofWidth {
		r.Status, r.Detail = Skipped, fmt.Sprintf("proofs run up to %d bits", MaxProofWidth)
		return r
	}
	prove := "sat -verify -prove trigger 0 " + miterModule
	if d.Latency > 0 {
		prove = pipelineProof(d)
	}
	// SAT takes no flip-flop with an asynchronous clear or preset (a
	// library's, in a netlist of its cells). async2sync rewrites each so
	// that the clear or preset acts at once on the flip-flop's output and
	// at the next edge on its state, as SymbiYosys does.
	miter := fmt.Sprintf("read_verilog %s %s; proc; async2sync; miter -equiv -flatten -make_outputs %s %s %s; hierarchy -top %s; ",
		strings.Join(sources(d), " "), referenceFile, referenceModule, d.Module, miterModule, miterModule)
	switch p, ok := j.prove(&r, miter+prove); {
	case !ok || p == noProof:
		return r
	case p == disproved:
		return failed(r, "not equal to "+d.Spec)
	}
	detail := "proven equal to " + d.Spec
	if d.Latency > 0 {
		detail += fmt.Sprintf(" delayed %d cycles", d.Latency)
	}
	if !resets(d) {
		return passed(r, detail)
	}
	if d.outside {
		// The module's registers are its own: its reset is proven by
		// what it does, outputs equal to the reference's at every cycle
		// after one cycle of rst, from any state.
		switch p, _ := j.prove(&r, miter+fmt.Sprintf("flatten; sat -verify -prove trigger 0 -seq %d -set-at 1 in_rst 1 -prove-skip 1 %s", d.Latency+1, miterModule)); p {
		case noProof:
			return r
		case disproved:
			return failed(r, "after a cycle of rst its outputs are not those of a cleared pipeline")
		}
		return passed(r, detail+"; after a cycle of rst, from any state, proven equal at every cycle")
	}
	// The proof above holds rst at 0; the reset's own promise, that one
	// cycle of rst clears every register, is proven here.
	var b strings.Builder
	fmt.Fprintf(&b, "read_verilog %s\nproc\nflatten\nsat -verify -seq 2 -set-at 1 rst 1 -prove-skip 1", strings.Join(sources(d), " "))
	for _, reg := range d.Registers {
		fmt.Fprintf(&b, " -prove %s 0", reg)
	}
	fmt.Fprintf(&b, " %s\n", d.Module)
	if err := os.WriteFile(filepath.Join(j.dir, resetScript), []byte(b.String()), 0o644); err != nil {
		return unwritten(r, err)
	}
	o, ok := j.run(&r, "yosys", "-Q", "-T", "-s", resetScript)
	if !ok {
		return r
	}
	var p proof
	switch r, p = yosysProof(r, o, 1); p {
	case noProof:
		return r
	case disproved:
		return failed(r, "a cycle of rst does not clear every register")
	}
	return passed(r, detail+"; a cycle of rst proven to clear every register")
}

// unwritten returns r with status Error for a file of the check's own
// that could not be written.
func unwritten(r Result, err error) Result {
	r.Status, r.Err, r.Detail = Error, err, toolrun.OneLine("toolcheck: "+err.Error())
	return r
}

// resets reports whether d is a pipeline with a reset: its reset is then
// proven too.
func resets(d *Design) bool { return d.Latency > 0 && !d.NoReset }

// synthesis maps the adder to gates with Yosys and reads their count and
// the longest path.
func synthesis(j *job, r Result) Result {
	d := j.d
	script := fmt.Sprintf("read_verilog %s; hierarchy -top %s; proc; flatten; techmap; opt; stat; ltp -noff", strings.Join(sources(d), " "), d.Module)
	o, ok := j.run(&r, "yosys", append(yosys, script)...)
	if !ok {
		return r
	}
	if o.err != nil {
		return broke(r, o, yosysError.FindString(o.out()))
	}
	gates, longest, ok := yosysFigures(o.out())
	if !ok {
		return silent(r, "yosys printed no gate count or longest path", toolrun.LastLine(o.out()))
	}
	r.Gates, r.LongestPath = gates, longest
	return passed(r, fmt.Sprintf("%d gates, longest path %d gates", gates, longest))
}

// lcuSums names what lcuTop computes, for lcuTechmap's verdicts.
const lcuSums = "a + b + cin, a - b and a < b"

// lcuTechmap synthesizes lcuTop with the design's $lcu techmap beside
// Yosys's own techmap.v, checks from the log that Yosys chose the prefixgen
// template for the adder's carries, and proves the result equal to a copy of
// the design taken before synthesis.
func lcuTechmap(j *job, r Result) Result {
	d := j.d
	if r, ok := notForModule(d, r, "network to make a $lcu of"); !ok {
		return r
	}
	if d.Width > MaxProofWidth {
		r.Status, r.Detail = Skipped, fmt.Sprintf("proofs run up to %d bits", MaxProofWidth)
		return r
	}
	script := fmt.Sprintf("read_verilog %[1]s; hierarchy -top %[2]s; proc; copy %[2]s %[3]s; alumacc %[2]s; "+
		"techmap -map +/techmap.v -map %[4]s %[2]s; opt %[2]s; stat %[2]s; ltp -noff %[2]s; "+
		"miter -equiv -flatten -make_outputs %[3]s %[2]s %[5]s; sat -verify -prove trigger 0 %[5]s",
		lcuTopFile, lcuTopModule, lcuGoldModule, lcuFile, miterModule)
	o, ok := j.run(&r, "yosys", append(yosys, script)...)
	if !ok {
		return r
	}
	var p proof
	switch r, p = yosysProof(r, o, 1); p {
	case noProof:
		return r
	case disproved:
		return failed(r, lcuSums+" through the $lcu techmap are not equal to "+lcuSums)
	}
	if !strings.Contains(o.out(), `Using template $paramod\`+d.LCUModule+`\`) {
		return failed(r, "yosys did not use "+d.LCUModule+" for the $lcu of "+lcuSums)
	}
	gates, longest, ok := yosysFigures(o.out())
	if !ok {
		return silent(r, "yosys printed no gate count or longest path", toolrun.LastLine(o.out()))
	}
	r.Gates, r.LongestPath = gates, longest
	return passed(r, fmt.Sprintf("%s map through %s: %d gates, longest path %d, proven", lcuSums, d.LCUModule, gates, longest))
}

// layout has neato draw the picture with its pinned positions: it must be
// silent and write the SVG.
func layout(j *job, r Result) Result {
	if r, ok := notForModule(j.d, r, "network to draw"); !ok {
		return r
	}
	o, ok := j.run(&r, "neato", "-n2", "-Tsvg", "-o", svgFile, dotFile)
	if !ok {
		return r
	}
	if r, ok = quiet(r, o, neatoSays); !ok {
		return r
	}
	if svg, err := os.ReadFile(filepath.Join(j.dir, svgFile)); err != nil || !bytes.Contains(svg, []byte("<svg")) {
		return silent(r, "neato wrote no "+svgFile, "")
	}
	return passed(r, "neato -n2 draws it")
}

// vhdl runs the VHDL testbench with GHDL (VHDL-2008) where the design has
// one. Otherwise it analyses the VHDL adder, synthesizes it with
// ghdl --synth, and proves the netlist equal to the Verilog adder with Yosys
// (from any state, cycle Latency + 1, for a pipeline).
func vhdl(j *job, r Result) Result {
	d := j.d
	if d.VHDL == nil {
		r, _ = notForModule(d, r, "VHDL emitted")
		return r
	}
	var files []string
	if d.VHDLCells != nil {
		files = append(files, vhdlCellsFile)
	}
	files = append(files, d.Module+".vhd")
	if d.VHDLTestbench != nil {
		files = append(files, d.testbenchModule()+".vhd")
	}
	args := []string{"-a", "--std=08"}
	if !d.outside {
		// prefixgen's own VHDL declares nothing it does not use.
		args = append(args, "-Wunused")
	}
	o, ok := j.run(&r, "ghdl", append(args, files...)...)
	if !ok {
		return r
	}
	var warning string
	if r, warning, ok = ghdlQuiet(r, o, d.outside); !ok {
		return r
	}
	if d.VHDLTestbench != nil {
		if o, ok = j.run(&r, "ghdl", "-e", "--std=08", d.testbenchModule()); !ok {
			return r
		}
		var more string
		if r, more, ok = ghdlQuiet(r, o, d.outside); !ok {
			return r
		}
		if warning == "" {
			warning = more
		}
		if o, ok = j.run(&r, "ghdl", "-r", "--std=08", d.testbenchModule()); !ok {
			return r
		}
		var line string
		if r, line, ok = verdict(r, o, d.Module); !ok {
			return r
		}
		r = passed(r, line)
		// The proofs below compare the VHDL with the Verilog: a VHDL file
		// of the user's own has no Verilog but ghdl --synth's, and wider
		// adders are left to the testbench.
		if d.Width > MaxProofWidth || d.outside {
			if warning != "" {
				r.Status, r.Detail = Warn, toolrun.OneLine(warning)
			}
			return r
		}
	}
	if d.Width > MaxProofWidth {
		r.Status, r.Detail = Skipped, fmt.Sprintf("proofs run up to %d bits", MaxProofWidth)
		return r
	}
	tested := r.Detail
	if o, ok = j.run(&r, "ghdl", "--synth", "--std=08", "--out=verilog", d.Module); !ok {
		return r
	}
	if o.err != nil {
		// Its warnings, with exit status 0, are left to the proof below.
		r, _ = diagnosed(r, o, ghdlSays)
		return r
	}
	netlist := o.stdout()
	if !strings.Contains(netlist, "module "+d.Module) {
		return silent(r, "ghdl --synth wrote no module "+d.Module, toolrun.FirstLine(o.out()))
	}
	if err := os.WriteFile(filepath.Join(j.dir, vhdlSynthFile), []byte(netlist), 0o644); err != nil {
		return unwritten(r, err)
	}
	verilogSide := fmt.Sprintf("read_verilog %[1]s.v; rename %[1]s %[2]s; ", d.Module, verilogModule)
	if d.Cells != nil {
		// The Verilog's cells are the models Yosys wrote of the library,
		// flattened in and dropped before ghdl --synth's netlist, which
		// has the VHDL models' logic, is read.
		verilogSide = fmt.Sprintf("read_verilog %[1]s.v; read_verilog %[3]s; rename %[1]s %[2]s; hierarchy -top %[2]s; proc; flatten; ",
			d.Module, verilogModule, cellsFile)
	}
	miter := verilogSide + fmt.Sprintf("read_verilog %[3]s; rename %[1]s %[4]s; proc; "+
		"miter -equiv -flatten -make_outputs %[2]s %[4]s %[5]s; hierarchy -top %[5]s; flatten; ",
		d.Module, verilogModule, vhdlSynthFile, vhdlModule, miterModule)
	prove := "sat -verify -prove trigger 0 " + miterModule
	if d.Latency > 0 {
		prove = pipelineProof(d)
	}
	switch p, ok := j.prove(&r, miter+prove); {
	case !ok || p == noProof:
		return r
	case p == disproved:
		return failed(r, "the VHDL, through ghdl --synth, is not equal to the Verilog")
	}
	detail := "ghdl --synth of the VHDL proven equal to the Verilog"
	if tested != "" {
		detail = tested + "; " + detail
	}
	r = passed(r, detail)
	if !resets(d) {
		return r
	}
	// The testbench resets the pipeline but compares nothing under rst.
	// After a cycle of rst, from any state of either: the two agree at
	// every cycle of the pipeline only if the VHDL's rst leaves its
	// registers as the Verilog's does (cleared, as its equivalence row
	// proves).
	switch p, ok := j.prove(&r, miter+fmt.Sprintf("sat -verify -prove trigger 0 -seq %d -set-at 1 in_rst 1 -prove-skip 1 %s", d.Latency+1, miterModule)); {
	case !ok || p == noProof:
		return r
	case p == disproved:
		return failed(r, "the VHDL's rst does not leave its registers as the Verilog's does")
	}
	return passed(r, detail+"; its rst proven to act as the Verilog's")
}
