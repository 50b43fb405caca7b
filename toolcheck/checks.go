package toolcheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// check is one kind of check.
type check struct {
	tool, check string
	run         func(ctx context.Context, dir string, d *Design, r Result) Result
}

// checks are the checks of every design, in the order Check reports them.
var checks = []check{
	{"iverilog", "testbench", testbench},
	{"verilator", "lint -Wall", lint},
	{"yosys", "equivalence", equivalence},
	{"yosys", "synthesis", synthesis},
	{"yosys", "$lcu techmap", lcuTechmap},
	{"neato", "layout", layout},
	{"ghdl", "VHDL", vhdl},
}

// sources are the Verilog files of d's module: the module, and the models
// of the library cells it instantiates where it has them.
func sources(d *Design) []string {
	if d.Cells != nil {
		return []string{d.Module + ".v", "cells.v"}
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

// testbench compiles the testbench with Icarus, which must be silent on
// the emitted adder (a module of the user's own may draw warnings: Verilator
// reports them), and runs it.
func testbench(ctx context.Context, dir string, d *Design, r Result) Result {
	args := append([]string{"-g2005", "-Wall", "-o", "sim"}, sources(d)...)
	out, err, ok := run(ctx, dir, &r, "iverilog", append(args, d.Module+"_tb.v")...)
	if !ok {
		return r
	}
	if err != nil || (!d.outside && strings.TrimSpace(out) != "") {
		return fail(r, out, err)
	}
	out, err, ok = run(ctx, dir, &r, "vvp", "-n", "sim")
	if !ok {
		return r
	}
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "FAIL ") {
			r.Status, r.Detail = Fail, strings.TrimSpace(line)
			return r
		}
		if strings.HasPrefix(line, "PASS ") && err == nil {
			r.Status, r.Detail = Pass, strings.TrimSpace(line)
			return r
		}
	}
	return fail(r, out, err)
}

// lint runs verilator --lint-only -Wall on the adder alone, then on its
// testbench with the adder (--timing: the testbench waits with #1).
func lint(ctx context.Context, dir string, d *Design, r Result) Result {
	args := []string{"--lint-only", "-Wall"}
	if d.outside || d.Cells != nil {
		// The user's file may declare other modules than the one checked,
		// and the library's models are modules of their own.
		args = append(args, "-Wno-DECLFILENAME", "--top-module", d.Module)
	}
	if d.Cells != nil {
		// A netlist keeps wires that synthesis left driving nothing, and
		// the library's models share one file.
		args = append(args, "-Wno-UNUSED", "-Wno-UNDRIVEN", "-Wno-DECLFILENAME")
	}
	out, err, ok := run(ctx, dir, &r, "verilator", append(args, sources(d)...)...)
	if !ok {
		return r
	}
	if err != nil || strings.TrimSpace(out) != "" {
		return fail(r, out, err)
	}
	args = append(args[:2:2], "--timing", "--top-module", d.Module+"_tb")
	if d.outside {
		args = append(args, "-Wno-DECLFILENAME")
	}
	if d.Cells != nil {
		args = append(args, "-Wno-UNUSED", "-Wno-UNDRIVEN", "-Wno-DECLFILENAME")
	}
	args = append(append(args, sources(d)...), d.Module+"_tb.v")
	out, err, _ = run(ctx, dir, &r, "verilator", args...)
	if err != nil || strings.TrimSpace(out) != "" {
		return fail(r, out, err)
	}
	r.Status, r.Detail = Pass, "no warnings in the adder or its testbench"
	if d.Cells != nil {
		r.Detail += " (a netlist's unused and undriven wires not counted)"
	}
	return r
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
	return fmt.Sprintf("sat -verify -prove trigger 0 %s-seq %d -prove-skip %d miter", rst, d.Latency+1, d.Latency)
}

func equivalence(ctx context.Context, dir string, d *Design, r Result) Result {
	if d.Width > MaxProofWidth {
		r.Status, r.Detail = Skipped, fmt.Sprintf("proofs run up to %d bits", MaxProofWidth)
		return r
	}
	prove := "sat -verify -prove trigger 0 miter"
	if d.Latency > 0 {
		prove = pipelineProof(d)
	}
	script := fmt.Sprintf("read_verilog %s reference.v; proc; "+
		"miter -equiv -flatten -make_outputs reference %s miter; hierarchy -top miter; %s",
		strings.Join(sources(d), " "), d.Module, prove)
	out, err, ok := run(ctx, dir, &r, "yosys", "-q", "-p", script)
	if !ok {
		return r
	}
	if err != nil {
		return disproved(r, out, "not equal to "+d.Spec)
	}
	r.Status, r.Detail = Pass, "proven equal to "+d.Spec
	if d.Latency > 0 {
		r.Detail += fmt.Sprintf(" delayed %d cycles", d.Latency)
	}
	if !resets(d) {
		return r
	}
	if d.outside {
		// The module's registers are its own: its reset is proven by
		// what it does, outputs equal to the reference's at every cycle
		// after one cycle of rst, from any state.
		out, err, _ = run(ctx, dir, &r, "yosys", "-q", "-p", fmt.Sprintf("read_verilog %s reference.v; proc; "+
			"miter -equiv -flatten -make_outputs reference %s miter; hierarchy -top miter; flatten; "+
			"sat -verify -prove trigger 0 -seq %d -set-at 1 in_rst 1 -prove-skip 1 miter",
			strings.Join(sources(d), " "), d.Module, d.Latency+1))
		if err != nil {
			return disproved(r, out, "after a cycle of rst its outputs are not those of a cleared pipeline")
		}
		r.Detail += "; after a cycle of rst, from any state, proven equal at every cycle"
		return r
	}
	// The proof above holds rst at 0; the reset's own promise, that one
	// cycle of rst clears every register, is proven here.
	var b strings.Builder
	fmt.Fprintf(&b, "read_verilog %s\nproc\nflatten\nsat -verify -seq 2 -set-at 1 rst 1 -prove-skip 1", strings.Join(sources(d), " "))
	for _, reg := range d.Registers {
		fmt.Fprintf(&b, " -prove %s 0", reg)
	}
	fmt.Fprintf(&b, " %s\n", d.Module)
	if err := os.WriteFile(filepath.Join(dir, "reset.ys"), []byte(b.String()), 0o644); err != nil {
		return fail(r, "", err)
	}
	out, err, ok = run(ctx, dir, &r, "yosys", "-q", "-s", "reset.ys")
	if !ok {
		return r
	}
	if err != nil {
		return disproved(r, out, "a cycle of rst does not clear every register")
	}
	r.Detail += "; a cycle of rst proven to clear every register"
	return r
}

// resets reports whether d is a pipeline with a reset: its reset is then
// proven too.
func resets(d *Design) bool { return d.Latency > 0 && !d.NoReset }

// disproved returns r failed with detail, what the proof that failed
// means, or with Yosys's own error where Yosys failed before the proof.
func disproved(r Result, out, detail string) Result {
	r.Status, r.Detail = Fail, detail
	if m := yosysError.FindString(out); m != "" && !strings.Contains(m, "SAT proof") && !strings.Contains(m, "proof did fail") {
		r.Detail = m
	}
	return r
}

// Yosys's messages.
var (
	yosysError   = regexp.MustCompile(`ERROR: .*`)
	yosysCells   = regexp.MustCompile(`Number of cells:\s+(\d+)`)
	yosysLongest = regexp.MustCompile(`Longest topological path in \S+ \(length=(\d+)\)`)
)

func synthesis(ctx context.Context, dir string, d *Design, r Result) Result {
	script := fmt.Sprintf("read_verilog %s; hierarchy -top %s; proc; flatten; techmap; opt; stat; ltp -noff", strings.Join(sources(d), " "), d.Module)
	out, err, ok := run(ctx, dir, &r, "yosys", "-p", script)
	if !ok {
		return r
	}
	cells, longest := yosysCells.FindAllStringSubmatch(out, -1), yosysLongest.FindStringSubmatch(out)
	if err != nil || cells == nil || longest == nil {
		if m := yosysError.FindString(out); m != "" {
			return fail(r, m, err)
		}
		return fail(r, "", errors.Join(err, errors.New("yosys printed no gate count or longest path")))
	}
	r.Gates, _ = strconv.Atoi(cells[len(cells)-1][1])
	r.LongestPath, _ = strconv.Atoi(longest[1])
	r.Status, r.Detail = Pass, fmt.Sprintf("%d gates, longest path %d gates", r.Gates, r.LongestPath)
	return r
}

// lcuTechmap synthesizes lcuTop with the design's $lcu techmap beside
// Yosys's own techmap.v, checks from the log that Yosys chose the prefixgen
// template for the adder's carries, and proves the result equal to a copy of
// the design taken before synthesis.
func lcuTechmap(ctx context.Context, dir string, d *Design, r Result) Result {
	if r, ok := notForModule(d, r, "network to make a $lcu of"); !ok {
		return r
	}
	if d.Width > MaxProofWidth {
		r.Status, r.Detail = Skipped, fmt.Sprintf("proofs run up to %d bits", MaxProofWidth)
		return r
	}
	script := "read_verilog lcu_top.v; hierarchy -top top; proc; copy top gold; alumacc top; " +
		"techmap -map +/techmap.v -map lcu.v top; opt top; stat top; ltp -noff top; " +
		"miter -equiv -flatten -make_outputs gold top miter; sat -verify -prove trigger 0 miter"
	out, err, ok := run(ctx, dir, &r, "yosys", "-p", script)
	if !ok {
		return r
	}
	if err != nil {
		if m := yosysError.FindString(out); m != "" && !strings.Contains(m, "SAT proof") && !strings.Contains(m, "proof did fail") {
			return fail(r, m, err)
		}
		return fail(r, "a + b through the $lcu techmap is not equal to a + b", nil)
	}
	if !strings.Contains(out, `Using template $paramod\`+d.LCUModule+`\`) {
		return fail(r, "yosys did not use "+d.LCUModule+" for the $lcu of a + b", nil)
	}
	cells, longest := yosysCells.FindAllStringSubmatch(out, -1), yosysLongest.FindStringSubmatch(out)
	if cells == nil || longest == nil {
		return fail(r, "yosys printed no gate count or longest path", nil)
	}
	r.Gates, _ = strconv.Atoi(cells[len(cells)-1][1])
	r.LongestPath, _ = strconv.Atoi(longest[1])
	r.Status = Pass
	r.Detail = fmt.Sprintf("a + b maps through %s: %d gates, longest path %d, proven", d.LCUModule, r.Gates, r.LongestPath)
	return r
}

func layout(ctx context.Context, dir string, d *Design, r Result) Result {
	if r, ok := notForModule(d, r, "network to draw"); !ok {
		return r
	}
	out, err, ok := run(ctx, dir, &r, "neato", "-n2", "-Tsvg", "-o", "adder.svg", "adder.dot")
	if !ok {
		return r
	}
	if err != nil || strings.TrimSpace(out) != "" {
		return fail(r, out, err)
	}
	r.Status, r.Detail = Pass, "neato -n2 draws it"
	return r
}

// vhdl runs the VHDL testbench with GHDL (VHDL-2008) where the design has
// one. Otherwise it analyses the VHDL adder, synthesizes it with
// ghdl --synth, and proves the netlist equal to the Verilog adder with Yosys
// (from any state, cycle Latency + 1, for a pipeline).
func vhdl(ctx context.Context, dir string, d *Design, r Result) Result {
	if r, ok := notForModule(d, r, "VHDL emitted"); !ok {
		return r
	}
	if d.VHDL == nil {
		r.Status, r.Detail = Skipped, "an adder of library cells has no VHDL"
		return r
	}
	files := []string{d.Module + ".vhd"}
	if d.VHDLTestbench != nil {
		files = append(files, d.Module+"_tb.vhd")
	}
	out, err, ok := run(ctx, dir, &r, "ghdl", append([]string{"-a", "--std=08"}, files...)...)
	if !ok {
		return r
	}
	if err != nil || strings.TrimSpace(out) != "" {
		return fail(r, out, err)
	}
	if d.VHDLTestbench != nil {
		if out, err, _ = run(ctx, dir, &r, "ghdl", "-e", "--std=08", d.Module+"_tb"); err != nil {
			return fail(r, out, err)
		}
		out, err, _ = run(ctx, dir, &r, "ghdl", "-r", "--std=08", d.Module+"_tb")
		passed := ""
		for line := range strings.Lines(out) {
			if strings.HasPrefix(line, "FAIL ") {
				r.Status, r.Detail = Fail, strings.TrimSpace(line)
				return r
			}
			if strings.HasPrefix(line, "PASS ") && err == nil {
				passed = strings.TrimSpace(line)
				break
			}
		}
		if passed == "" {
			return fail(r, out, err)
		}
		r.Status, r.Detail = Pass, passed
		// The testbench resets the pipeline but compares nothing under
		// rst: the reset is proven against the Verilog's below.
		if !resets(d) || d.Width > MaxProofWidth {
			return r
		}
	}
	if d.Width > MaxProofWidth {
		r.Status, r.Detail = Skipped, fmt.Sprintf("proofs run up to %d bits", MaxProofWidth)
		return r
	}
	out, err, _ = run(ctx, dir, &r, "ghdl", "--synth", "--std=08", "--out=verilog", d.Module)
	if err != nil {
		return fail(r, out, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "vhdl_synth.v"), []byte(out), 0o644); err != nil {
		return fail(r, "", err)
	}
	miter := fmt.Sprintf("read_verilog %[1]s.v; rename %[1]s verilog; read_verilog vhdl_synth.v; rename %[1]s vhdl; proc; "+
		"miter -equiv -flatten -make_outputs verilog vhdl miter; hierarchy -top miter; flatten; ", d.Module)
	if d.VHDLTestbench == nil {
		prove := "sat -verify -prove trigger 0 miter"
		if d.Latency > 0 {
			prove = pipelineProof(d)
		}
		out, err, ok = run(ctx, dir, &r, "yosys", "-q", "-p", miter+prove)
		if !ok {
			return r
		}
		if err != nil {
			return disproved(r, out, "the VHDL, through ghdl --synth, is not equal to the Verilog")
		}
		r.Status, r.Detail = Pass, "ghdl --synth of the VHDL proven equal to the Verilog"
	}
	if !resets(d) {
		return r
	}
	// After a cycle of rst, from any state of either: the two agree at
	// every cycle of the pipeline only if the VHDL's rst leaves its
	// registers as the Verilog's does (cleared, as its equivalence row
	// proves).
	prove := fmt.Sprintf("sat -verify -prove trigger 0 -seq %d -set-at 1 in_rst 1 -prove-skip 1 miter", d.Latency+1)
	out, err, ok = run(ctx, dir, &r, "yosys", "-q", "-p", miter+prove)
	if !ok {
		return r
	}
	if err != nil {
		return disproved(r, out, "the VHDL's rst does not leave its registers as the Verilog's does")
	}
	r.Detail += "; its rst proven to act as the Verilog's"
	return r
}
