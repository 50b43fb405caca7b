package toolcheck

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/network"
)

// MaxProofWidth is the widest adder whose equivalence Check proves with
// Yosys. The proof of a 128-bit Kogge–Stone adder takes about a second, of a
// 256-bit one eight, of a 1024-bit one six minutes.
const MaxProofWidth = 128

// MaxWidth is the widest adder Check runs the tools on.
const MaxWidth = 4096

// Status is the outcome of one check.
type Status int

const (
	// Pass means the tool ran and found nothing wrong.
	Pass Status = iota
	// Fail means the tool ran and found the design wrong, or could not run it.
	Fail
	// Missing means the tool is not installed; nothing was checked.
	Missing
	// Skipped means the check does not apply, as a proof wider than
	// MaxProofWidth.
	Skipped
)

// String returns "pass", "FAIL", "missing" or "skipped".
func (s Status) String() string {
	switch s {
	case Pass:
		return "pass"
	case Fail:
		return "FAIL"
	case Missing:
		return "missing"
	case Skipped:
		return "skipped"
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// Result is the outcome of one check of one design.
type Result struct {
	// Design names the network, as emit.Name does, and Width is its width.
	Design string
	Width  int
	// Tool is the program that ran ("iverilog", "verilator", "yosys",
	// "neato"), and Check what it checked ("testbench", "lint -Wall",
	// "equivalence", "synthesis", "layout").
	Tool, Check string
	Status      Status
	// Detail is one line: what the tool said (the testbench's PASS line,
	// the gate count, the first warning, why it failed).
	Detail string
	// Time is how long the tool ran.
	Time time.Duration
	// Gates and LongestPath are the figures of the synthesis and $lcu
	// checks: the number of gates after techmap; opt, and the longest
	// topological path in gates (ltp -noff). Both are 0 for other checks.
	Gates, LongestPath int
}

// Design is what Check checks: one adder, its testbench and its picture, as
// text. NewDesign makes one from a network; a test may change its Verilog.
type Design struct {
	// Name names the design in results; Width is the adder's width.
	Name  string
	Width int
	// Module is the adder's module name; the testbench module is
	// Module + "_tb".
	Module string
	// LCUModule is the module name of the Yosys $lcu techmap.
	LCUModule string
	// Verilog, Testbench, LCU and DOT are the files the checks run on: the
	// adder, its testbench, the $lcu techmap (emit.YosysLCU) and the
	// picture.
	Verilog, Testbench, LCU, DOT []byte
	// VHDL is the adder in VHDL (emit.VHDL), nil for an adder of library
	// cells, and VHDLTestbench its testbench (emit.VHDLTestbench), nil for
	// an adder the VHDL testbench does not cover.
	VHDL, VHDLTestbench []byte
	// Reference is the behavioural module "reference" with the adder's
	// ports that the equivalence proof compares it with, Spec says what it
	// computes, and Latency is the number of register stages of both;
	// NoReset says that their registers have no rst input.
	Reference []byte
	Spec      string
	Latency   int
	NoReset   bool
	// Registers names the adder's registers, in the Verilog and the VHDL
	// alike: the reset proof holds every one at 0 after a cycle of rst.
	Registers []string
	// Cells are Verilog models of the library cells the design
	// instantiates (a module of the user's own given NewModuleDesign with a
	// Liberty file, or an adder of library cells from NewDesign), read
	// beside it by every check; nil for other designs.
	Cells []byte

	// outside says the design is a module of the user's own
	// (NewModuleDesign): it has no network, and the checks that need one
	// are skipped.
	outside bool

	// cells, set by NewDesign, lists the network's cells as the spans they
	// join, sorted, and emitted is the digest of the files as NewDesign
	// wrote them: designs of the same cells whose files are as emitted are
	// checked once.
	cells   string
	emitted [sha256.Size]byte
}

// digest returns the digest of the design's files.
func (d *Design) digest() [sha256.Size]byte {
	h := sha256.New()
	for _, f := range [][]byte{d.Verilog, d.Testbench, d.LCU, d.DOT, d.Reference, d.VHDL, d.VHDLTestbench} {
		fmt.Fprintf(h, "%d:", len(f))
		h.Write(f)
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// Options are the options of Check.
type Options struct {
	// Vectors is the number of random vectors of each testbench; Seed seeds
	// them (see emit.TestbenchOptions).
	Vectors int
	Seed    uint32
	// Jobs is the number of tools run at once; 0 means runtime.NumCPU().
	Jobs int
	// Adder is the adder NewDesign emits around the network (operation,
	// flags, sparseness, pipeline); nil means adder.Standard,
	// {cout, sum} = a + b + cin.
	Adder *adder.Architecture
	// Cells are the library cells of an Adder with PGCells.
	Cells *adder.Cells
	// Liberty is the Liberty file of the cells Cells names, which
	// NewDesign then reads Verilog models of (Design.Cells); the adder has
	// no VHDL.
	Liberty string
}

// NewDesign emits the adder, testbench and DOT picture of net.
func NewDesign(net *network.Network, opt Options) (*Design, error) {
	ao := adder.Standard
	if opt.Adder != nil {
		ao = *opt.Adder
	}
	desc, err := adder.Describe(net, ao, opt.Cells)
	if err != nil {
		return nil, fmt.Errorf("toolcheck: %v", err)
	}
	d := &Design{Name: emit.Name(net), Width: net.Width(), Module: emit.AdderModuleName(net, ao), LCUModule: emit.LCUModuleName(net)}
	if s := ao.Name(); s != "" {
		d.Name += " " + s
	}
	var v, tb, lcu, dot bytes.Buffer
	if err := emit.Verilog(&v, net, emit.VerilogOptions{Module: d.Module, Adder: &ao, Cells: opt.Cells}); err != nil {
		return nil, err
	}
	if err := emit.VerilogTestbench(&tb, net, emit.TestbenchOptions{Module: d.Module, Vectors: opt.Vectors, Seed: opt.Seed, Adder: &ao}); err != nil {
		return nil, err
	}
	d.Reference, d.Spec, d.Latency, d.NoReset = reference(desc), spec(ao), desc.Latency, ao.NoReset
	for _, st := range desc.Stages {
		for _, reg := range st.Registers {
			d.Registers = append(d.Registers, reg.Q.Name)
		}
	}
	if err := emit.YosysLCU(&lcu, net, emit.YosysLCUOptions{Module: d.LCUModule}); err != nil {
		return nil, err
	}
	if err := emit.DOT(&dot, net, emit.DOTOptions{}); err != nil {
		return nil, err
	}
	key := cellKey(net) + " " + ao.Suffix()
	if ao.PGCells {
		// An adder of library cells has no VHDL, and adders of other
		// libraries' cells, or of other pins, differ.
		if d.Cells, err = libraryModels(opt.Liberty); err != nil {
			return nil, err
		}
		key = fmt.Sprint(key, " ", *opt.Cells, " ", opt.Liberty)
	} else if err := d.addVHDL(net, ao, opt); err != nil {
		return nil, err
	}
	d.Verilog, d.Testbench, d.LCU, d.DOT = v.Bytes(), tb.Bytes(), lcu.Bytes(), dot.Bytes()
	d.cells, d.emitted = key, d.digest()
	return d, nil
}

// addVHDL sets d.VHDL to the adder in VHDL and, where the VHDL testbench
// covers the adder, d.VHDLTestbench to its testbench.
func (d *Design) addVHDL(net *network.Network, ao adder.Architecture, opt Options) error {
	var vhdl, vhdlTB bytes.Buffer
	if err := emit.VHDL(&vhdl, net, emit.VHDLOptions{Entity: d.Module, Adder: &ao}); err != nil {
		return err
	}
	if emit.CheckVHDLTestbench(ao) == nil {
		if err := emit.VHDLTestbench(&vhdlTB, net, emit.TestbenchOptions{Module: d.Module, Vectors: opt.Vectors, Seed: opt.Seed, Adder: &ao}); err != nil {
			return err
		}
		d.VHDLTestbench = vhdlTB.Bytes()
	}
	d.VHDL = vhdl.Bytes()
	return nil
}

// cellKey lists the cells of net as the spans they join, sorted, so that
// networks whose builders add the same cells in another order match.
func cellKey(net *network.Network) string {
	cells := make([][4]int, net.Size())
	for k := range cells {
		c := net.Cell(k)
		lo, hi := net.Span(c.Lo), net.Span(c.Hi)
		cells[k] = [4]int{lo.From, lo.To, hi.From, hi.To}
	}
	slices.SortFunc(cells, func(a, b [4]int) int { return slices.Compare(a[:], b[:]) })
	return fmt.Sprint(net.Width(), cells)
}

// Check runs every check on every design and returns the results in order:
// design by design, and for each the checks in the order the package
// documentation lists them. Designs are written into a temporary folder that
// Check removes. A design from NewDesign whose network has the cells of an
// earlier one (check -t all builds Kogge–Stone as knowles s=0 and harris
// l=0 f=0 too) is not run again: its results are the earlier design's,
// naming it in Detail, without a time. An error is returned only when that
// folder cannot be made; everything a tool says is in the results.
func Check(ctx context.Context, designs []*Design, opt Options) ([]Result, error) {
	dir, remove, err := cleanup.MkdirTemp("", "prefixgen-check-")
	if err != nil {
		return nil, fmt.Errorf("toolcheck: %v", err)
	}
	defer remove()

	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	type task struct {
		i   int
		run func(context.Context) Result
	}
	var tasks []task
	results := make([]Result, 0, len(designs)*len(checks))
	// first maps a design's cells to the first design with them; same[di]
	// is that design's index for a later one, which is not run again.
	first := map[string]int{}
	same := make([]int, len(designs))
	for di, d := range designs {
		same[di] = -1
		if d.cells != "" && d.digest() == d.emitted {
			if dj, ok := first[d.cells]; ok {
				same[di] = dj
				for _, c := range checks {
					results = append(results, Result{Design: d.Name, Width: d.Width, Tool: c.tool, Check: c.check})
				}
				continue
			}
			first[d.cells] = di
		}
		sub := filepath.Join(dir, strconv.Itoa(di))
		if err := writeDesign(sub, d); err != nil {
			return nil, fmt.Errorf("toolcheck: %v", err)
		}
		for _, c := range checks {
			r := Result{Design: d.Name, Width: d.Width, Tool: c.tool, Check: c.check}
			results = append(results, r)
			c := c
			tasks = append(tasks, task{len(results) - 1, func(ctx context.Context) Result {
				return c.run(ctx, sub, d, r)
			}})
		}
	}

	var wg sync.WaitGroup
	next := make(chan task)
	for range min(jobs, len(tasks)) {
		wg.Go(func() {
			for t := range next {
				results[t.i] = t.run(ctx)
			}
		})
	}
	for _, t := range tasks {
		next <- t
	}
	close(next)
	wg.Wait()
	for di, dj := range same {
		if dj < 0 {
			continue
		}
		for c := range checks {
			r := results[dj*len(checks)+c]
			r.Design = designs[di].Name
			r.Time = 0
			r.Detail = "the network of " + designs[dj].Name + ", checked above: " + r.Detail
			results[di*len(checks)+c] = r
		}
	}
	return results, nil
}

// writeDesign writes a design's files into dir.
func writeDesign(dir string, d *Design) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		d.Module + ".v":    d.Verilog,
		d.Module + "_tb.v": d.Testbench,
		"lcu.v":            d.LCU,
		"lcu_top.v":        lcuTop(d.Width),
		"adder.dot":        d.DOT,
		"reference.v":      d.Reference,
		d.Module + ".vhd":  d.VHDL,
	}
	if d.VHDLTestbench != nil {
		files[d.Module+"_tb.vhd"] = d.VHDLTestbench
	}
	if d.Cells != nil {
		files["cells.v"] = d.Cells
	}
	for name, data := range files {
		if data == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// spec says what the reference of an adder built with opt computes.
func spec(opt adder.Architecture) string {
	ci := "cin"
	if opt.NoCarryIn {
		ci = map[adder.Op]string{adder.Add: "0", adder.Sub: "1", adder.AddSub: "mode"}[opt.Op]
	}
	var s string
	switch opt.Op {
	case adder.Add:
		s = "a + b + " + ci
	case adder.Sub:
		s = "a + ~b + " + ci
	case adder.AddSub:
		s = "a + (mode ? ~b : b) + " + ci
	case adder.Compare:
		return "lt, ltu, eq of a and b"
	}
	if f := opt.Flags &^ adder.Carry; f != 0 {
		s += " with " + f.String()
	}
	return s
}

// reference is the behavioural module the equivalence proof compares an
// adder with: the same ports, the outputs written with Verilog's + and
// comparison operators, and for a pipelined adder as many registers after
// them as the adder has stages.
func reference(d *adder.Description) []byte {
	n, opt := d.Width, d.Architecture
	var b bytes.Buffer
	var ports, outs, want []string
	for _, p := range d.Ports {
		dir := "input"
		if p.Dir == adder.Out {
			dir = "output"
			outs = append(outs, p.Name)
		}
		r := ""
		if p.Width > 0 {
			r = fmt.Sprintf("[%d:0] ", p.Width-1)
		}
		ports = append(ports, fmt.Sprintf("%s wire %s%s", dir, r, p.Name))
	}
	ci := "cin"
	if opt.NoCarryIn || opt.Op == adder.Compare {
		ci = map[adder.Op]string{adder.Add: "1'b0", adder.Sub: "1'b1", adder.AddSub: "mode", adder.Compare: "1'b1"}[opt.Op]
	}
	bx := map[adder.Op]string{adder.Add: "b", adder.Sub: "~b", adder.AddSub: "mode ? ~b : b", adder.Compare: "~b"}[opt.Op]
	fmt.Fprintf(&b, "module reference (%s);\n", strings.Join(ports, ", "))
	if opt.Op == adder.Compare {
		want = []string{"$signed(a) < $signed(b)", "a < b", "a == b"}
	} else {
		fmt.Fprintf(&b, "    wire [%d:0] bx = %s;\n", n-1, bx)
		fmt.Fprintf(&b, "    wire [%d:0] full = {1'b0, a} + {1'b0, bx} + {%d'd0, %s};\n", n, n, ci)
		want = append(want, fmt.Sprintf("full[%d:0]", n-1))
		if opt.Flags&adder.Carry != 0 {
			want = append(want, fmt.Sprintf("full[%d]", n))
		}
		if opt.Flags&adder.Overflow != 0 {
			want = append(want, fmt.Sprintf("(a[%[1]d] == bx[%[1]d]) && (full[%[1]d] != a[%[1]d])", n-1))
		}
		if opt.Flags&adder.Zero != 0 {
			want = append(want, fmt.Sprintf("full[%d:0] == %d'd0", n-1, n))
		}
		if opt.Flags&adder.Negative != 0 {
			want = append(want, fmt.Sprintf("full[%d]", n-1))
		}
	}
	y := "{" + strings.Join(want, ", ") + "}"
	for k := 1; k <= d.Latency; k++ {
		fmt.Fprintf(&b, "    reg [%d:0] delay%d;\n", outputBits(d)-1, k)
		if d.Architecture.NoReset {
			fmt.Fprintf(&b, "    always @(posedge clk) delay%d <= %s;\n", k, y)
		} else {
			fmt.Fprintf(&b, "    always @(posedge clk) delay%d <= rst ? 0 : %s;\n", k, y)
		}
		y = fmt.Sprintf("delay%d", k)
	}
	fmt.Fprintf(&b, "    assign {%s} = %s;\nendmodule\n", strings.Join(outs, ", "), y)
	return b.Bytes()
}

// outputBits is the number of output bits of d.
func outputBits(d *adder.Description) int {
	bits := 0
	for _, p := range d.Outputs() {
		bits += max(p.Width, 1)
	}
	return bits
}

// lcuTop is the design the $lcu techmap is tried on: a plain a + b, which
// Yosys's alumacc turns into an $alu and techmap into an $lcu of the same
// width.
func lcuTop(n int) []byte {
	return fmt.Appendf(nil, "module top (input wire [%[1]d:0] a, input wire [%[1]d:0] b, output wire [%[1]d:0] y);\n"+
		"    assign y = a + b;\nendmodule\n", n-1)
}

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

// Tools are the programs Check runs, each with the Debian package that
// installs it.
var Tools = []struct{ Program, Package string }{
	{"iverilog", "iverilog"},
	{"vvp", "iverilog"},
	{"verilator", "verilator"},
	{"yosys", "yosys"},
	{"neato", "graphviz"},
	{"ghdl", "ghdl"},
}

// MissingTools returns a line for each tool Check needs that is not installed,
// naming the package that installs it.
func MissingTools() []string {
	var lines []string
	for _, t := range Tools {
		if _, err := exec.LookPath(t.Program); err != nil {
			lines = append(lines, fmt.Sprintf("%s is not installed: its checks are skipped (apt-get install %s)", t.Program, t.Package))
		}
	}
	return lines
}

// run runs a program in dir, filling r's time, and returns its combined
// output; a missing program sets r to Missing and returns ok false.
func run(ctx context.Context, dir string, r *Result, name string, args ...string) (out string, err error, ok bool) {
	path, lerr := exec.LookPath(name)
	if lerr != nil {
		r.Status = Missing
		r.Detail = name + " is not installed"
		return "", nil, false
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	// The tools' own temporary files (Yosys's abc pass makes a folder)
	// go into dir, which goes when the check ends or is interrupted: a
	// tool killed by the interrupt cannot remove them itself.
	if abs, err := filepath.Abs(dir); err == nil {
		cmd.Env = append(os.Environ(), "TMPDIR="+abs)
	}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err = cmd.Run()
	r.Time += time.Since(start)
	return buf.String(), err, true
}

// fail sets r to Fail with the first meaningful line of out, or err.
func fail(r Result, out string, err error) Result {
	r.Status = Fail
	r.Detail = firstLine(out)
	if r.Detail == "" && err != nil {
		r.Detail = err.Error()
	}
	return r
}

// firstLine returns the first line of out that says something, trimmed.
func firstLine(out string) string {
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "VCD") {
			return line
		}
	}
	return ""
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

// Failed reports whether any result is a Fail.
func Failed(rs []Result) bool {
	for _, r := range rs {
		if r.Status == Fail {
			return true
		}
	}
	return false
}

// Table writes the results as a table with left-aligned columns: network,
// width, tool, check, result, time and detail. Times are rounded to
// milliseconds; a check that did not run, or whose result is an earlier
// design's, has none.
func Table(w io.Writer, rs []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "network\twidth\ttool\tcheck\tresult\ttime\tdetail")
	for _, r := range rs {
		t := "-"
		if (r.Status == Pass || r.Status == Fail) && r.Time > 0 {
			t = r.Time.Round(time.Millisecond).String()
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", r.Design, r.Width, r.Tool, r.Check, r.Status, t, r.Detail)
	}
	return tw.Flush()
}
