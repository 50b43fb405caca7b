package emit

import (
	"embed"
	"fmt"
	"hash/fnv"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
)

//go:embed templates/*.tmpl
var templateFiles embed.FS

// templates holds the Verilog templates, parsed once.
var templates = template.Must(template.New("").ParseFS(templateFiles, "templates/*.tmpl"))

// VerilogOptions are the options of Verilog.
type VerilogOptions struct {
	// Module is the name of the Verilog module; empty means ModuleName(net).
	// It must pass CheckModuleName.
	Module string
	// Adder is the adder's architecture: operation, flags, sparseness,
	// valency, Ling's carries, library cells, pipeline (see package adder);
	// nil means adder.Standard, {cout, sum} = a + b + cin. The default
	// module name then gets its Suffix.
	Adder *adder.Architecture
	// Cells are the library's NAND2 and OAI21 that an adder with PGCells
	// instantiates, or the full adder of FACells; such an adder needs them.
	Cells *adder.Cells
}

// Verilog writes the adder built around net as a synthesizable Verilog-2005
// module:
//
//	module NAME (input wire [N-1:0] a, input wire [N-1:0] b, input wire cin,
//	             output wire [N-1:0] sum, output wire cout);
//
// with {cout, sum} = a + b + cin. It is laid out as a datapath designer draws
// it: a pre-processing row (g = a & b, p = a ^ b, the carry-in folded into
// bit 0's generate), one assign group per prefix cell named by its column
// and level (G_c5_l2; a second cell at the same column and level gets a
// suffix), and the sum row (sum_i = p_i ^ carry_i, where the carry into bit i
// is cin for i = 0 and G[i-1:0] otherwise; cout = G[N-1:0]). Black cells
// compute G = G_hi | P_hi & G_lo and P = P_hi & P_lo; gray cells, whose P
// nothing reads (carry.Kinds), compute G only. The header names the
// generator, topology, parameters and width and gives the figures.
//
// The output is plain Verilog-2005 that Icarus, Verilator (lint -Wall) and
// Yosys accept without warnings, for every width, 1 included; an adder of
// full adders (FACells) still declares wires it does not read, as the
// goal records measured it (see adder's prune).
func Verilog(w io.Writer, net *network.Network, opt VerilogOptions) error {
	arch := adderOptions(opt.Adder)
	if arch.PGCells && opt.Cells == nil {
		return fmt.Errorf("emit: an adder of library cells (Architecture.PGCells) needs the library's cells: allowed VerilogOptions.Cells, as physical.PGCells finds them")
	}
	if arch.FACells && opt.Cells == nil {
		return fmt.Errorf("emit: an adder of full-adder cells (Architecture.FACells) needs the library's full adder: allowed VerilogOptions.Cells, as physical.FullAdderCell finds it")
	}
	if err := checkAdderModuleName(opt.Module); err != nil {
		return err
	}
	d, _, err := newAdderData(net, opt.Module, arch, opt.Cells)
	if err != nil {
		return err
	}
	return execute(w, "adder.v.tmpl", d)
}

// adderPorts are the adder's ports, which its module name must not repeat.
var adderPorts = strings.Fields("a b cin sum cout mode overflow zero negative lt ltu eq clk rst")

// checkAdderModuleName refuses a module name the adder also gives a port,
// a wire, a register or a cell's instance inside it: Verilator (lint
// -Wall) warns that the inner one hides the module. A testbench's module
// under test, a user's, is not checked so.
func checkAdderModuleName(name string) error {
	lower := strings.ToLower(name)
	if slices.Contains(adderPorts, lower) || slices.Contains(vhdlInternal, lower) || vhdlGenerated.MatchString(lower) {
		return fmt.Errorf("emit: module name %s is a name the adder declares inside (a port, a wire, a cell or an instance; G_cC_lL, gI, c_bB, NAME_sK, u_… so): allowed another name", network.Quote(name))
	}
	return nil
}

// YosysLCUOptions are the options of YosysLCU.
type YosysLCUOptions struct {
	// Module is the name of the techmap module; empty means
	// LCUModuleName(net). It must pass CheckModuleName.
	Module string
	// CellType is the cell type the module maps; empty means $lcu. A
	// type of one's own, such as $__prefixgen_lcu_3 given to one cell by
	// Yosys's chtype, maps that cell alone: one network per adder of a
	// design. It must be $ followed by letters, digits and _.
	CellType string
	// Plain writes an ordinary module with the same ports and networks,
	// marked keep_hierarchy, for a design to instantiate as a block of its
	// own, which synthesis maps without merging it into the logic around
	// it (prefixgen map keeps each adder's network whole this way); it
	// covers one width, and CellType does not apply.
	Plain bool
}

// YosysLCU writes a Yosys techmap module for the $lcu cell (the lookahead
// carry unit: inputs P, G, CI, output CO, parameter WIDTH) built from net.
// Yosys lowers every $alu (adders, subtractors, comparisons) to an $lcu and
// maps that, by default, to the Brent–Kung network of module _90_lcu in its
// techmap.v. Techmap tries the modules that map a cell type in the order of
// their names, so this module, named _80_… by default (LCUModuleName), is
// tried first; it maps the $lcu cells of exactly net's width and sets
// _TECHMAP_FAIL_ for every other width, which falls back to _90_lcu:
//
//	yosys -p 'synth -run begin:fine; techmap -map +/techmap.v -map ks_lcu.v; ...'
//
// CO[i] is the carry out of bit i, G[i:0] with CI folded into bit 0, computed
// by the cells of net. YosysLCUWidths covers several widths in one module.
func YosysLCU(w io.Writer, net *network.Network, opt YosysLCUOptions) error {
	return YosysLCUWidths(w, []*network.Network{net}, opt)
}

// execute runs a template into w, returning the first write error.
func execute(w io.Writer, name string, data any) error {
	if err := templates.ExecuteTemplate(w, name, data); err != nil {
		return fmt.Errorf("emit: %w", err)
	}
	return nil
}

// ModuleName returns the default name of the adder module around net:
// prefix_adder_<topology>[_<param><value>…]_<width>, with every character
// that may not appear in a Verilog identifier turned into an underscore, as in
// prefix_adder_ladner_fischer_k1_32.
func ModuleName(net *network.Network) string {
	return "prefix_adder_" + moduleStem(net)
}

// LCUModuleName returns the default name of the Yosys $lcu techmap module of
// net: _80_prefixgen_lcu_<topology>[_<param><value>…]_<width>, which sorts
// before Yosys's own _90_lcu.
func LCUModuleName(net *network.Network) string {
	return "_80_prefixgen_lcu_" + moduleStem(net)
}

// maxStem is the most characters of a module's name that its topology and
// parameters take before the rest is hashed (moduleStem).
const maxStem = 120

// moduleStem names net for a module: topology, parameters and width. Past
// maxStem characters (carry-select's hundreds of segments), the name keeps
// its first maxStem, then _h and a hash of the whole, then the width, so
// that it stays well within Verilog's 1 024 and still tells networks apart.
func moduleStem(net *network.Network) string {
	topo := net.Topology()
	if topo == "" {
		topo = "network"
	}
	stem := Identifier(topo, strings.ReplaceAll(net.Params().Format("_"), "=", ""))
	if len(stem) > maxStem {
		h := fnv.New32a()
		h.Write([]byte(stem))
		stem = fmt.Sprintf("%s_h%08x", strings.TrimRight(stem[:maxStem], "_"), h.Sum32())
	}
	return Identifier(stem, strconv.Itoa(net.Width()))
}

// Identifier joins parts with underscores into a name that Verilog, C++ and
// CUDA all accept as an identifier: every run of characters other than ASCII
// letters and digits becomes one underscore, underscores at either end are
// dropped, and a name that would start with a digit or be empty gets
// "network_" in front. Identifier("ladner-fischer", "k1", "32") is
// "ladner_fischer_k1_32".
func Identifier(parts ...string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.Join(parts, "_") {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	s := strings.Trim(b.String(), "_")
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "network_" + s
	}
	return s
}

// maxIdentifier is the longest identifier Verilog-2005 requires tools to
// accept (IEEE 1364-2005, 3.7).
const maxIdentifier = 1024

// CheckModuleName returns an error unless name is a legal Verilog-2005 simple
// identifier that is not a keyword of Verilog or SystemVerilog: a letter or
// underscore, then letters, digits, underscores or dollar signs, at most 1024
// characters.
func CheckModuleName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("emit: module name %s is not a legal Verilog identifier: %s", network.Quote(name), why)
	}
	switch {
	case name == "":
		return bad("it is empty; allowed: a letter or _, then letters, digits, _ or $")
	case len(name) > maxIdentifier:
		return bad(fmt.Sprintf("longer than %d characters", maxIdentifier))
	case verilogKeywords[name]:
		return bad("it is a Verilog or SystemVerilog keyword")
	}
	for i, r := range name {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if i == 0 && !letter {
			return bad("allowed: a letter or _ first, then letters, digits, _ or $")
		}
		if !letter && !(r >= '0' && r <= '9') && r != '$' {
			return bad(fmt.Sprintf("%q is not allowed; allowed: letters, digits, _ and $", r))
		}
	}
	return nil
}

// verilogData is what the templates read.
type verilogData struct {
	Module  string
	Width   int
	MSB     int
	Header  []string
	Cells   []verilogCell
	Carries []string // Carries[i] is the carry into bit i
	Outputs []string // Outputs[i] is G[i:0]
	Cout    string
	Black   int
	Gray    int
	Range   string // "[N-1:0]"
}

// verilogCell is one prefix cell: its comment, its G assignment and, for a
// black cell, its P assignment.
type verilogCell struct {
	Comment      string
	G, GExpr     string
	P, PExpr     string // empty for a gray cell
	Black        bool
	Column, Span string
}

// newVerilogData names every signal of net and fills the template data.
// module is the name asked for, or empty for def(net).
func newVerilogData(net *network.Network, module string, def func(*network.Network) string) (*verilogData, error) {
	if module == "" {
		module = def(net)
	}
	if err := CheckModuleName(module); err != nil {
		return nil, err
	}
	n := net.Width()
	kinds := carry.Kinds(net)
	d := &verilogData{Module: module, Width: n, MSB: n - 1, Range: fmt.Sprintf("[%d:0]", n-1)}

	// Signal names: input i is g[i]/p[i], except that bit 0's generate has
	// the carry-in folded in; cell k at column c and level l is G_cc_ll (and
	// P_cc_ll), with _2, _3, … for further cells at the same place.
	gName := make([]string, net.Signals())
	pName := make([]string, net.Signals())
	for i := range n {
		gName[i] = fmt.Sprintf("g[%d]", i)
		pName[i] = fmt.Sprintf("p[%d]", i)
	}
	gName[0] = "g0_cin"
	seen := make(map[[2]int]int)
	d.Cells = make([]verilogCell, net.Size())
	for k := range net.Size() {
		s := net.CellSignal(k)
		c, lv := net.Column(s), net.Level(s)
		at := [2]int{c, lv}
		seen[at]++
		suffix := ""
		if m := seen[at]; m > 1 {
			suffix = "_" + strconv.Itoa(m)
		}
		gName[s] = fmt.Sprintf("G_c%d_l%d%s", c, lv, suffix)
		pName[s] = fmt.Sprintf("P_c%d_l%d%s", c, lv, suffix)
		cell := net.Cell(k)
		lo, hi := net.Span(cell.Lo), net.Span(cell.Hi)
		vc := verilogCell{
			G:     gName[s],
			GExpr: fmt.Sprintf("%s | (%s & %s)", gName[cell.Hi], pName[cell.Hi], gName[cell.Lo]),
			Black: kinds[k] == carry.Black,
		}
		kind := "gray"
		if vc.Black {
			kind = "black"
			vc.P = pName[s]
			vc.PExpr = fmt.Sprintf("%s & %s", pName[cell.Hi], pName[cell.Lo])
			d.Black++
		} else {
			d.Gray++
		}
		vc.Comment = fmt.Sprintf("cell %d, column %d, level %d, %s: [%d:%d] = [%d:%d] o [%d:%d]",
			k, c, lv, kind, hi.To, lo.From, hi.To, hi.From, lo.To, lo.From)
		d.Cells[k] = vc
	}
	d.Outputs = make([]string, n)
	d.Carries = make([]string, n)
	d.Carries[0] = "cin"
	for i := range n {
		d.Outputs[i] = gName[net.Output(i)]
		if i+1 < n {
			d.Carries[i+1] = d.Outputs[i]
		}
	}
	d.Cout = d.Outputs[n-1]

	f := net.Figures()
	d.Header = []string{
		"topology:   " + CommentText(net.Topology()),
		"parameters: " + CommentText(net.Params().Format(" ")),
		fmt.Sprintf("width:      %d bits", n),
		fmt.Sprintf("depth:      %d levels of prefix cells", f.Depth),
		fmt.Sprintf("size:       %d cells (%d black, %d gray)", f.Size, d.Black, d.Gray),
		fmt.Sprintf("max fan-out %d (logical: cells reading a signal, +1 if it is an output)", f.MaxFanout),
		fmt.Sprintf("wire tracks %d, deficiency %d", f.WireTracks, f.Deficiency),
	}
	return d, nil
}

// CommentText returns s for a one-line comment in generated code: "(none)"
// when s is empty, s itself when it holds only ASCII letters, digits and
// "-_.=,: ", and s quoted as an ASCII Go string otherwise, so that no name
// can end the comment or the line.
func CommentText(s string) string {
	if s == "" {
		return "(none)"
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.=,: ", r)) {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}

// IsVerilogKeyword reports whether name is a reserved word of Verilog or
// SystemVerilog, which no module or signal may be named.
func IsVerilogKeyword(name string) bool { return verilogKeywords[name] }

// verilogKeywords are the reserved words of Verilog-2005 (IEEE 1364-2005,
// annex B) and SystemVerilog (IEEE 1800-2017, annex B), which Verilator
// reserves by default.
var verilogKeywords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(`
always and assign automatic begin buf bufif0 bufif1 case casex casez cell cmos
config deassign default defparam design disable edge else end endcase
endconfig endfunction endgenerate endmodule endprimitive endspecify endtable
endtask event for force forever fork function generate genvar highz0 highz1
if ifnone incdir include initial inout input instance integer join large
liblist library localparam macromodule medium module nand negedge nmos nor
noshowcancelled not notif0 notif1 or output parameter pmos posedge primitive
pull0 pull1 pulldown pullup pulsestyle_ondetect pulsestyle_onevent rcmos real
realtime reg release repeat rnmos rpmos rtran rtranif0 rtranif1 scalared
showcancelled signed small specify specparam strong0 strong1 supply0 supply1
table task time tran tranif0 tranif1 tri tri0 tri1 triand trior trireg
unsigned use uwire vectored wait wand weak0 weak1 while wire wor xnor xor
accept_on alias always_comb always_ff always_latch assert assume before bind
bins binsof bit break byte chandle checker class clocking const constraint
context continue cover covergroup coverpoint cross dist do endchecker
endclass endclocking endgroup endinterface endpackage endprogram endproperty
endsequence enum eventually expect export extends extern final first_match
foreach forkjoin global iff ignore_bins illegal_bins implements implies
import inside int interconnect interface intersect join_any join_none let
local logic longint matches modport nettype new nexttime null package packed
priority program property protected pure rand randc randcase randsequence ref
reject_on restrict return s_always s_eventually s_nexttime s_until
s_until_with sequence shortint shortreal soft solve static string strong
struct super sync_accept_on sync_reject_on tagged this throughout timeprecision
timeunit type typedef union unique unique0 until until_with untyped var
virtual void wait_order weak wildcard with within`) {
		m[w] = true
	}
	return m
}()

// MaxTestbenchVectors is the largest number of random vectors a testbench
// runs.
const MaxTestbenchVectors = 1 << 30

// TestbenchOptions are the options of VerilogTestbench.
type TestbenchOptions struct {
	// Module is the name of the adder module under test; empty means
	// AdderModuleName(net, Adder), the name Verilog and VHDL give it.
	Module string
	// Name is the testbench module's (VerilogTestbench) or entity's
	// (VHDLTestbench) name; empty means Module + "_tb".
	Name string
	// Vectors is the number of random vectors, 0 … MaxTestbenchVectors.
	Vectors int
	// Seed seeds the testbench's random generator, so that a testbench
	// runs the same vectors every time.
	Seed uint32
	// Adder is the adder under test, as in VerilogOptions: nil means
	// adder.Standard. A testbench reads the adder's ports, not its cells.
	Adder *adder.Architecture
}

// testbenchData is what the testbench template reads.
type testbenchData struct {
	Module     string
	Name       string
	Header     []string
	Summary    []string
	Width      int
	MSB        int
	Range      string
	Vectors    int
	Seed       uint32
	Exhaustive bool
	Cases      int
	CaseMSB    int
	Chunks     []testbenchChunk
	Alternate  string
	One        string
	Ones       string

	// Regs and Wires declare the testbench's signals; Connect lists the
	// port connections; Inputs is the concatenation the exhaustive loop
	// assigns.
	Regs, Wires []string
	Connect     string
	Inputs      string
	// HasCin and HasMode say which control inputs there are; Controls is
	// the number of their combinations the corners loop over.
	HasCin, HasMode bool
	Controls        int
	// Got is the concatenation of the outputs, Want the register that
	// holds what they should be, WantRange its range; Expect are the
	// statements that set want from the inputs, Spec says it in words.
	Got, WantRange string
	Expect         []string
	Spec           string
	// Latency is the number of register stages; Shift shifts the expected
	// values along the pipe. Reset says whether the adder has rst.
	Latency, LastPipe int
	Shift             []string
	Reset             bool
}

// testbenchChunk is one 32-bit draw of a random operand: bits Hi … Lo of
// the operand take bits Top … 0 of the word.
type testbenchChunk struct{ Hi, Lo, Top int }

// VerilogTestbench writes a self-checking Icarus testbench for the adder
// that Verilog writes for net and opt.Adder. When the adder's inputs (a, b,
// and cin and mode where it has them) hold at most 13 bits it tries every
// input; otherwise corner vectors (no carry, all ones, alternating bits, a
// carry chain starting at every bit, with and without carry-in) and
// opt.Vectors random vectors. The random bits come from a generator written
// out in the testbench (a Weyl sequence through the MurmurHash3 finalizer,
// seeded with opt.Seed), not from $random, so that every simulator, and the
// VHDL testbench, draws the same vectors from the same seed: each operand
// takes ⌈n/32⌉ words from bit 0 up, a, then b, then, where the adder has cin
// or mode, one more word whose bit 0 is cin and bit 1 mode. It compares
// every output with a behavioural model of the operation (a + b + cin,
// a + ~b + cin, the flags, the comparisons); a pipelined adder is clocked
// once per vector, held in reset for two cycles first (when it has rst), and its outputs are
// compared with the model's answer for the inputs of Latency cycles before.
// It prints one line, "PASS NAME: V vectors, 0 mismatches" or "FAIL NAME:
// E of V vectors wrong" after at most ten MISMATCH lines, and ends with
// $fatal, a non-zero exit status, on failure. It is clean under
// verilator --lint-only -Wall --timing.
func VerilogTestbench(w io.Writer, net *network.Network, opt TestbenchOptions) error {
	if opt.Vectors < 0 || opt.Vectors > MaxTestbenchVectors {
		return fmt.Errorf("emit: %d testbench vectors out of range: allowed 0 to %d", opt.Vectors, MaxTestbenchVectors)
	}
	ad, d, err := newAdderData(net, opt.Module, adderOptions(opt.Adder), nil)
	if err != nil {
		return err
	}
	n := net.Width()
	name := opt.Name
	if name == "" {
		name = ad.Module + "_tb"
	} else if err := CheckModuleName(name); err != nil {
		return err
	}
	td := &testbenchData{
		Module:    ad.Module,
		Name:      name,
		Header:    ad.Header,
		Summary:   ad.Summary,
		Width:     n,
		MSB:       n - 1,
		Range:     fmt.Sprintf("[%d:0]", n-1),
		Vectors:   opt.Vectors,
		Seed:      opt.Seed,
		Chunks:    testbenchChunks(n),
		Alternate: fmt.Sprintf("%d'h%x", n, alternating(n)),
		One:       fmt.Sprintf("%d'd1", n),
		Ones:      fmt.Sprintf("{%d{1'b1}}", n),
		Latency:   d.Latency,
	}
	testbenchPorts(td, d)
	return execute(w, "testbench.v.tmpl", td)
}

// testbenchPorts fills the parts of td that depend on the adder's ports and
// operation.
func testbenchPorts(td *testbenchData, d *adder.Description) {
	n, opt := d.Width, d.Architecture
	rng := func(w int) string {
		if w == 0 {
			return strings.Repeat(" ", len(td.Range))
		}
		return fmt.Sprintf("%-*s", len(td.Range), fmt.Sprintf("[%d:0]", w-1))
	}
	var conn, ins, outs []string
	inBits, outBits := 0, 0
	var scalars []string
	for _, p := range d.Inputs() {
		conn = append(conn, fmt.Sprintf(".%[1]s(%[1]s)", p.Name))
		switch p.Name {
		case "clk", "rst":
			scalars = append(scalars, p.Name)
			continue
		case "cin":
			td.HasCin = true
		case "mode":
			td.HasMode = true
		}
		ins = append(ins, p.Name)
		inBits += max(p.Width, 1)
	}
	td.Regs = append(td.Regs, fmt.Sprintf("reg  %s a, b;", td.Range))
	var ctl []string
	for _, name := range []string{"cin", "mode"} {
		if name == "cin" && td.HasCin || name == "mode" && td.HasMode {
			ctl = append(ctl, name)
		}
	}
	ctl = append(ctl, scalars...)
	td.Reset = slices.Contains(scalars, "rst")
	if len(ctl) > 0 {
		td.Regs = append(td.Regs, fmt.Sprintf("reg  %s %s;", rng(0), strings.Join(ctl, ", ")))
	}
	for _, p := range d.Outputs() {
		conn = append(conn, fmt.Sprintf(".%[1]s(%[1]s)", p.Name))
		outs = append(outs, p.Name)
		outBits += max(p.Width, 1)
		td.Wires = append(td.Wires, fmt.Sprintf("wire %s %s;", rng(p.Width), p.Name))
	}
	td.Connect = strings.Join(conn, ", ")
	td.Inputs = "{" + strings.Join(ins, ", ") + "}"
	td.Got = "{" + strings.Join(outs, ", ") + "}"
	td.WantRange = fmt.Sprintf("[%d:0]", outBits-1)
	td.Exhaustive = inBits <= 13
	td.Cases, td.CaseMSB = 1<<inBits, inBits-1
	td.Controls = 1 << (len(ctl) - len(scalars))
	if td.Controls < 2 {
		td.Controls = 2
	}

	// The model's answers wait Latency cycles in pipe, for every operation.
	td.LastPipe = td.Latency - 1
	for k := td.Latency - 1; k > 0; k-- {
		td.Shift = append(td.Shift, fmt.Sprintf("pipe[%d] = pipe[%d];", k, k-1))
	}

	ci := "cin"
	if !td.HasCin {
		ci = map[adder.Op]string{adder.Add: "1'b0", adder.Sub: "1'b1", adder.AddSub: "mode", adder.Compare: "1'b1"}[opt.Op]
	}
	switch opt.Op {
	case adder.Compare:
		td.Expect = []string{"want = {$signed(a) < $signed(b), a < b, a == b};"}
		td.Spec = "lt = a < b signed, ltu = a < b unsigned, eq = a == b"
		return
	case adder.Add:
		td.Expect = append(td.Expect, "bx = b;")
		td.Spec = "a + b + " + ci
	case adder.Sub:
		td.Expect = append(td.Expect, "bx = ~b;")
		td.Spec = "a + ~b + " + ci
	case adder.AddSub:
		td.Expect = append(td.Expect, "bx = mode ? ~b : b;")
		td.Spec = "a + (mode ? ~b : b) + " + ci
	}
	td.Regs = append(td.Regs, fmt.Sprintf("reg  %s bx;", td.Range), fmt.Sprintf("reg  [%d:0] full;", n))
	td.Expect = append(td.Expect, fmt.Sprintf("full = {1'b0, a} + {1'b0, bx} + {%d'd0, %s};", n, ci))
	want := []string{fmt.Sprintf("full[%d:0]", n-1)}
	if opt.Flags&adder.Carry != 0 {
		want = append(want, fmt.Sprintf("full[%d]", n))
	} else {
		td.Regs = append(td.Regs[:len(td.Regs)-1],
			"// The carry out is not an output: only the sum bits of full are compared.",
			"/* verilator lint_off UNUSEDSIGNAL */",
			fmt.Sprintf("reg  [%d:0] full;", n),
			"/* verilator lint_on UNUSEDSIGNAL */")
	}
	if opt.Flags&adder.Overflow != 0 {
		want = append(want, fmt.Sprintf("(a[%[1]d] == bx[%[1]d]) && (full[%[1]d] != a[%[1]d])", n-1))
		td.Spec += ", overflow"
	}
	if opt.Flags&adder.Zero != 0 {
		want = append(want, fmt.Sprintf("full[%d:0] == %d'd0", n-1, n))
		td.Spec += ", zero"
	}
	if opt.Flags&adder.Negative != 0 {
		want = append(want, fmt.Sprintf("full[%d]", n-1))
		td.Spec += ", negative"
	}
	td.Expect = append(td.Expect, "want = {"+strings.Join(want, ", ")+"};")
}

// testbenchChunks splits an n-bit operand into 32-bit draws, bit 0 first.
func testbenchChunks(n int) []testbenchChunk {
	var cs []testbenchChunk
	for lo := 0; lo < n; lo += 32 {
		hi := min(lo+31, n-1)
		cs = append(cs, testbenchChunk{Hi: hi, Lo: lo, Top: hi - lo})
	}
	return cs
}

// alternating returns the n-bit number …0101 whose even bits are set.
func alternating(n int) *big.Int {
	x := new(big.Int)
	for i := 0; i < n; i += 2 {
		x.SetBit(x, i, 1)
	}
	return x
}
