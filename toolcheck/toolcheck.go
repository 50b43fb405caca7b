package toolcheck

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/stage"
	"github.com/prefixgen/prefixgen/internal/toolrun"
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
	// Fail means the tool ran and said the design is wrong: a failed
	// proof, a testbench's FAIL line, an error, a warning of Icarus or
	// Graphviz on an emitted design (Verilator's lint warnings are Warn).
	Fail
	// Missing means the tool is not installed; nothing was checked.
	Missing
	// Skipped means the check does not apply, as a proof wider than
	// MaxProofWidth.
	Skipped
	// Error means the tool failed, not the design: it crashed, ran past
	// its time limit, stopped with an error of its own, or ended without
	// the words that give its verdict. Nothing is known of the design.
	Error
	// Warn means a lint tool warned of the design (Verilator's -Wall), and
	// said nothing worse: a warning is not a verdict, which comes from
	// simulation and proofs, and Failed does not count it.
	Warn
)

// WarnFooter is the line Table writes under a table that holds a Warn row.
const WarnFooter = "WARN: a lint warning, not a verdict: pass and FAIL come from the testbenches and the proofs, and warnings alone leave the exit status 0"

// String returns "pass", "FAIL", "missing", "skipped", "ERROR" or "WARN".
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
	case Error:
		return "ERROR"
	case Warn:
		return "WARN"
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
	// Err is, for a result of status Error, the tool's failure as package
	// toolrun gave it (a *toolrun.ExitError, a *toolrun.TimeoutError, the
	// context's error), or nil where the tool exited 0 without its
	// verdict; nil for every other status.
	Err error
}

// Design is what Check checks: one adder, its testbench and its picture, as
// text. NewDesign makes one from a network; a test may change its Verilog.
type Design struct {
	// Name names the design in results; Width is the adder's width.
	Name  string
	Width int
	// Module is the adder's module name. The testbench module (and VHDL
	// entity) is Module + "_tb" for a design from NewDesign, and
	// Namespace + "tb" for a module of the user's own, whose file may hold
	// a module Module + "_tb" of its own.
	Module string
	// LCUModule is the module name of the Yosys $lcu techmap.
	LCUModule string
	// Verilog, Testbench, LCU and DOT are the files the checks run on: the
	// adder, its testbench, the $lcu techmap (emit.YosysLCU) and the
	// picture.
	Verilog, Testbench, LCU, DOT []byte
	// VHDL is the adder in VHDL (emit.VHDL), and VHDLTestbench its
	// testbench (emit.VHDLTestbench); up to MaxProofWidth bits the VHDL
	// is also proven equal to the Verilog. VHDLCells are the VHDL models of the library cells
	// an adder of library cells instantiates (emit.VHDLCellModels, from
	// the functions of the Liberty file), nil for other designs.
	VHDL, VHDLTestbench, VHDLCells []byte
	// Reference is the behavioural module Namespace + "reference" with
	// the adder's ports that the equivalence proof compares it with, Spec says what it
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
	// unread says the design may declare wires nothing reads: a netlist
	// from outside, or an adder of full adders, which adder leaves as
	// measured (see its prune).
	unread bool

	// cells, set by NewDesign, lists the network's cells as the spans they
	// join, sorted, and emitted is the digest of the files as NewDesign
	// wrote them: designs of the same cells whose files are as emitted are
	// checked once.
	cells   string
	emitted [sha256.Size]byte
}

// testbenchModule returns the name of the module of d's testbench.
func (d *Design) testbenchModule() string {
	if d.outside {
		return moduleTestbench
	}
	return d.Module + "_tb"
}

// digest returns the digest of the design's files.
func (d *Design) digest() [sha256.Size]byte {
	h := sha256.New()
	for _, f := range [][]byte{d.Verilog, d.Testbench, d.LCU, d.DOT, d.Reference, d.VHDL, d.VHDLTestbench, d.VHDLCells} {
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
	// ToolTimeout is the time limit of each run of a tool; 0 means
	// toolrun.DefaultTimeout.
	ToolTimeout time.Duration
	// Adder is the adder NewDesign emits around the network (operation,
	// flags, sparseness, pipeline); nil means adder.Standard,
	// {cout, sum} = a + b + cin.
	Adder *adder.Architecture
	// Cells are the library cells of an Adder with PGCells or FACells.
	Cells *adder.Cells
	// Liberty is the Liberty file of the cells Cells names, which
	// NewDesign then reads Verilog and VHDL models of (Design.Cells and
	// VHDLCells).
	Liberty string
	// Keep, when not empty, is a folder that keeps every design's files
	// (the sources, what the tools wrote, and a log of each check's tool
	// runs, such as testbench.log) in a subfolder named after the design's
	// module, moved there at the end of a Check that succeeds; otherwise
	// they go into a temporary folder that is removed. CheckKeep checks it
	// before any work.
	Keep string
	// Progress, when not nil, is called with 0 and the checks' total
	// before the first starts, then after each check ends with the checks
	// done and their total; it may be called from several goroutines at
	// once.
	Progress func(done, total int)
}

// CheckKeep refuses, making nothing, a folder Options.Keep cannot be: one
// under a file, or under a folder this process may not write. Its error
// is an *InputError.
func CheckKeep(dir string) error {
	cannot := func(err error) error {
		return &InputError{fmt.Sprintf("toolcheck: cannot make the folder %s to keep the checks' files in: %v: allowed a folder, or a path where one can be made", dir, err)}
	}
	if dir == "" {
		return cannot(syscall.ENOENT)
	}
	// The deepest folder of the path that exists must take a file of this
	// process's.
	if err := stage.Check(dir); err != nil {
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			err = pe.Err
		}
		return cannot(err)
	}
	return nil
}

// keepFolders names the folder of each design under Options.Keep: its
// module, with characters a folder's name should not hold replaced by _,
// made unique.
func keepFolders(designs []*Design) []string {
	names := make([]string, len(designs))
	seen := map[string]int{}
	for i, d := range designs {
		b := []byte(d.Module)
		for k, c := range b {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				b[k] = '_'
			}
		}
		name := string(b)
		if name == "" {
			name = "design"
		}
		seen[name]++
		if k := seen[name]; k > 1 {
			name = fmt.Sprintf("%s-%d", name, k)
		}
		names[i] = name
	}
	return names
}

// NewDesign emits the adder, testbench and DOT picture of net.
func NewDesign(net *network.Network, opt Options) (*Design, error) {
	ao := adder.Standard
	if opt.Adder != nil {
		ao = *opt.Adder
	}
	desc, err := adder.Describe(net, ao, opt.Cells)
	if err != nil {
		return nil, fmt.Errorf("toolcheck: %w", err)
	}
	d := &Design{Name: emit.AdderName(net.Topology(), net.Params(), ao), Width: net.Width(), Module: emit.AdderModuleName(net, ao), LCUModule: emit.LCUModuleName(net)}
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
	// A techmap is tried up to MaxProofWidth, and written up to
	// emit.MaxLCUWidth.
	if net.Width() <= emit.MaxLCUWidth {
		if err := emit.YosysLCU(&lcu, net, emit.YosysLCUOptions{Module: d.LCUModule}); err != nil {
			return nil, err
		}
	}
	if err := emit.DOT(&dot, net, emit.DOTOptions{}); err != nil {
		return nil, err
	}
	key := cellKey(net) + " " + ao.Suffix()
	d.unread = ao.FACells
	if ao.InstantiatesCells() {
		// Adders of other libraries' cells, or of other pins, differ.
		if d.Cells, err = libraryModels(opt); err != nil {
			return nil, err
		}
		if d.VHDLCells, err = vhdlModels(opt, ao); err != nil {
			return nil, err
		}
		key = fmt.Sprint(key, " ", *opt.Cells, " ", opt.Liberty)
	}
	if err := d.addVHDL(net, ao, opt); err != nil {
		return nil, err
	}
	d.Verilog, d.Testbench, d.LCU, d.DOT = v.Bytes(), tb.Bytes(), lcu.Bytes(), dot.Bytes()
	d.cells, d.emitted = key, d.digest()
	return d, nil
}

// addVHDL sets d.VHDL to the adder in VHDL and d.VHDLTestbench to its
// testbench; up to MaxProofWidth the VHDL is also proven equal to the
// Verilog.
func (d *Design) addVHDL(net *network.Network, ao adder.Architecture, opt Options) error {
	var vhdl, vhdlTB bytes.Buffer
	if err := emit.VHDL(&vhdl, net, emit.VHDLOptions{Entity: d.Module, Adder: &ao, Cells: opt.Cells}); err != nil {
		return err
	}
	if err := emit.VHDLTestbench(&vhdlTB, net, emit.TestbenchOptions{Module: d.Module, Vectors: opt.Vectors, Seed: opt.Seed, Adder: &ao}); err != nil {
		return err
	}
	d.VHDL, d.VHDLTestbench = vhdl.Bytes(), vhdlTB.Bytes()
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
// naming it in Detail, without a time. Every tool runs under
// opt.ToolTimeout. An error is returned only when that folder cannot be
// made or written, or when ctx ends (the context's error, wrapped);
// everything a tool says is in the results. With opt.Keep, the designs'
// folders are kept under it, each with a log of every check's tool runs,
// moved there when Check ends without an error (one that ends with one
// leaves opt.Keep as it was, and does not make it); a folder opt.Keep
// names that cannot be made is an *InputError.
func Check(ctx context.Context, designs []*Design, opt Options) ([]Result, error) {
	dir, commit, remove, err := checkFolder(opt.Keep)
	if err != nil {
		return nil, err
	}
	defer remove()
	names := keepFolders(designs)

	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	type task struct {
		i   int
		run func() Result
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
		if opt.Keep != "" {
			sub = filepath.Join(dir, names[di])
		}
		if err := writeDesign(sub, d); err != nil {
			return nil, fmt.Errorf("toolcheck: %w", err)
		}
		for _, c := range checks {
			j := &job{ctx: ctx, dir: sub, d: d, timeout: opt.ToolTimeout}
			if opt.Keep != "" {
				j.log = c.log
			}
			r := Result{Design: d.Name, Width: d.Width, Tool: c.tool, Check: c.check}
			results = append(results, r)
			tasks = append(tasks, task{len(results) - 1, func() Result { return c.run(j, r) }})
		}
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	if opt.Progress != nil {
		opt.Progress(0, len(tasks)) // the total, before the first check ends
	}
	next := make(chan task)
	for range min(jobs, len(tasks)) {
		wg.Go(func() {
			for t := range next {
				results[t.i] = t.run()
				if opt.Progress != nil {
					mu.Lock()
					done++
					opt.Progress(done, len(tasks))
					mu.Unlock()
				}
			}
		})
	}
	for _, t := range tasks {
		next <- t
	}
	close(next)
	wg.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("toolcheck: the checks stopped: %w", ctx.Err())
	}
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
	if err := commit(); err != nil {
		return nil, err
	}
	return results, nil
}

// checkFolder returns the folder Check writes the designs into, the
// function that ends a Check that succeeded (commit) and the one that
// removes the folder (remove, for every Check). With keep empty it is a
// temporary folder and commit does nothing. Otherwise nothing is written
// into keep before commit: Check works in a stage.Folder beside it, and
// commit moves the designs' folders into keep, made then, all or none,
// replacing an earlier run's logs.
func checkFolder(keep string) (dir string, commit func() error, remove func(), err error) {
	if keep == "" {
		dir, remove, err = cleanup.MkdirTemp("", "prefixgen-check-")
		if err != nil {
			return "", nil, nil, fmt.Errorf("toolcheck: %w", err)
		}
		return dir, func() error { return nil }, remove, nil
	}
	if err := CheckKeep(keep); err != nil {
		return "", nil, nil, err
	}
	f, err := stage.New(keep, "")
	if err != nil {
		return "", nil, nil, fmt.Errorf("toolcheck: %w", err)
	}
	commit = func() error {
		if err := f.Commit(staleLog); err != nil {
			if pe, ok := errors.AsType[*fs.PathError](err); ok {
				err = pe.Err
			}
			return &InputError{fmt.Sprintf("toolcheck: cannot move the checks' files into the folder %s: %v: allowed a folder, or a path where one can be made", keep, err)}
		}
		return nil
	}
	return f.Dir, commit, f.Remove, nil
}

// staleLog reports whether rel, a path under Options.Keep, is the log of a
// check in a design's folder that this run did not write again.
func staleLog(rel string) bool {
	dir, name := path.Split(rel)
	return dir != "" && slices.ContainsFunc(checks, func(c check) bool { return c.log == name })
}

// writeDesign writes a design's files into dir.
func writeDesign(dir string, d *Design) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		d.Module + ".v":            d.Verilog,
		d.testbenchModule() + ".v": d.Testbench,
		lcuFile:                    d.LCU,
		lcuTopFile:                 lcuTop(d.Width),
		dotFile:                    d.DOT,
		referenceFile:              d.Reference,
		d.Module + ".vhd":          d.VHDL,
	}
	if d.VHDLTestbench != nil {
		files[d.testbenchModule()+".vhd"] = d.VHDLTestbench
	}
	if d.Cells != nil {
		files[cellsFile] = d.Cells
	}
	if d.VHDLCells != nil {
		files[vhdlCellsFile] = d.VHDLCells
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
	fmt.Fprintf(&b, "module %s (%s);\n", referenceModule, strings.Join(ports, ", "))
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

// lcuTop is the design the $lcu techmap is tried on: a + b + cin, a − b
// and a < b, which Yosys's alumacc turns into $alu cells and techmap into
// $lcu cells of the same width: a live carry-in (cin; 1 for the
// difference) and, for the comparison, the top bit's carry out, which an
// n-bit sum never reads.
func lcuTop(n int) []byte {
	return fmt.Appendf(nil, "module %[2]s (input wire [%[1]d:0] a, input wire [%[1]d:0] b, input wire cin,\n"+
		"        output wire [%[1]d:0] y, output wire [%[1]d:0] d, output wire lt);\n"+
		"    assign y = a + b + cin;\n    assign d = a - b;\n    assign lt = a < b;\nendmodule\n", n-1, lcuTopModule)
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
		if _, err := toolrun.LookPath(t.Program); err != nil {
			lines = append(lines, fmt.Sprintf("%s is not installed: its checks are skipped (apt-get install %s)", t.Program, t.Package))
		}
	}
	return lines
}

// Failed reports whether any result is a Fail or an Error; a Warn is
// neither.
func Failed(rs []Result) bool {
	for _, r := range rs {
		if r.Status == Fail || r.Status == Error {
			return true
		}
	}
	return false
}

// ToolError is the error of a check whose tool failed (status Error), as
// FirstToolError returns it. Its message is the result's Detail, which
// names the tool; it wraps the tool's failure (Result.Err), so that
// errors.As finds a *toolrun.TimeoutError or *toolrun.ExitError in it.
type ToolError struct{ Result Result }

func (e *ToolError) Error() string { return e.Result.Detail }

func (e *ToolError) Unwrap() error { return e.Result.Err }

// FirstToolError returns the first result of status Error as a
// *ToolError, or nil when every tool gave its verdict.
func FirstToolError(rs []Result) error {
	for _, r := range rs {
		if r.Status == Error {
			return &ToolError{Result: r}
		}
	}
	return nil
}

// Table writes the results as a table with left-aligned columns: network,
// width, tool, check, result and detail; not the time, so that the same
// checks print the same bytes (Result.Time keeps it). Each row is one line whatever the results hold: a
// line break or tab in one becomes a space, and control characters are
// escaped (toolrun.Escape), so that nothing reaches the terminal raw. A
// table with a Warn row ends with the line WarnFooter.
func Table(w io.Writer, rs []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "network\twidth\ttool\tcheck\tresult\tdetail")
	warned := false
	for _, r := range rs {
		warned = warned || r.Status == Warn
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", cell(r.Design), r.Width, cell(r.Tool), cell(r.Check), r.Status, cell(r.Detail))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if warned {
		_, err := fmt.Fprintln(w, WarnFooter)
		return err
	}
	return nil
}

// cell is s as one cell of the table: escaped, its line breaks and tabs
// spaces.
func cell(s string) string {
	return strings.NewReplacer("\n", " ", "\t", " ").Replace(toolrun.Escape(s))
}
