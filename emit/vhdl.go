package emit

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
)

// VHDLOptions are the options of VHDL.
type VHDLOptions struct {
	// Entity is the name of the VHDL entity; empty means
	// AdderModuleName(net, *Adder). It must pass CheckEntityName.
	Entity string
	// Adder chooses the adder (operation, flags, sparse tree, pipeline: see
	// package adder); nil means adder.Standard, {cout, sum} = a + b + cin.
	Adder *adder.Architecture
	// Cells are the library's NAND2 and OAI21 that an adder with PGCells
	// instantiates, or the full adder of FACells, as for Verilog: each is
	// a component, declared in the architecture, and an instance. A name
	// that is not a VHDL basic identifier (sky130_fd_sc_hd__nand2_1 has
	// two underscores in a row) is written as an extended identifier,
	// \sky130_fd_sc_hd__nand2_1\. nil stands for cells named NAND2, OAI21
	// and FA (adder.Describe).
	Cells *adder.Cells
}

// VHDL writes the adder built around net that opt.Adder asks for as a
// synthesizable VHDL entity and architecture: the circuit Verilog writes,
// rendered from the same adder.Description, with the same names and
// comments. For the standard adder:
//
//	entity NAME is port (a, b : in std_logic_vector(N-1 downto 0); cin : in std_logic;
//	                     sum : out std_logic_vector(N-1 downto 0); cout : out std_logic);
//
// with cout & sum = a + b + cin: the pre-processing row, one signal per
// prefix cell named by its column and level (G_c5_l2, and P_c5_l2 for a
// black cell), and the sum row. Every operation, the flags, sparse trees and
// pipelines (one clocked process per register stage, synchronous reset)
// come out as they do in Verilog. It uses only std_logic_1164 and is VHDL-93
// that is also VHDL-2008: one file for both, which GHDL analyses with
// --std=93 and --std=08 alike. VHDL identifiers ignore case; the
// description's names are unique without regard to case.
func VHDL(w io.Writer, net *network.Network, opt VHDLOptions) error {
	d, _, err := newVHDLData(net, opt.Entity, adderOptions(opt.Adder), opt.Cells)
	if err != nil {
		return err
	}
	return execute(w, "adder.vhd.tmpl", d)
}

// VHDLTestbench writes a self-checking testbench for the entity that VHDL
// writes for net (opt.Module names it; opt.Name names the testbench
// entity, Module + "_tb" where empty). It covers every adder VerilogTestbench covers and runs
// the same vectors, in the same order, from the same seed: every input
// where the adder's inputs (a, b, and cin and mode where it has them) hold
// at most 13 bits; otherwise the corner vectors and opt.Vectors random
// vectors drawn by the same generator, each operand ⌈n/32⌉ words from bit
// 0 up, then, where the adder has cin or mode, one more word whose bit 0
// is cin and bit 1 mode. It compares every output, in port order, with
// the same model in numeric_std arithmetic of n+1 bits (a + b + cin,
// a + ~b + cin, the flags, the comparisons), so any width works. It prints
// "PASS NAME: V vectors, 0 mismatches" or, after at most ten MISMATCH
// lines (the Verilog testbench's lines), "FAIL NAME: E of V vectors wrong"
// followed by an assertion of severity failure, which makes the simulator
// exit non-zero. A pipelined adder gets one reset cycle (when it has rst),
// then a new vector at each rising edge of clk, the outputs compared with
// those of the vector as many edges before as it has register stages, as
// the Verilog testbench does.
func VHDLTestbench(w io.Writer, net *network.Network, opt TestbenchOptions) error {
	if opt.Vectors < 0 || opt.Vectors > MaxTestbenchVectors {
		return fmt.Errorf("emit: %d testbench vectors out of range: allowed 0 to %d", opt.Vectors, MaxTestbenchVectors)
	}
	ao := adderOptions(opt.Adder)
	d, desc, err := newVHDLData(net, opt.Module, ao, nil)
	if err != nil {
		return err
	}
	bench := opt.Name
	if bench == "" {
		bench = d.Entity + "_tb"
	} else if err := CheckBenchEntityName(bench); err != nil {
		return err
	} else if strings.EqualFold(bench, d.Entity) {
		return fmt.Errorf("emit: testbench entity name %s is the adder's (VHDL ignores case): allowed another name", network.Quote(bench))
	}
	n := net.Width()
	td := &vhdlTestbenchData{
		vhdlData:  d,
		Bench:     bench,
		Latency:   len(d.Stages),
		LastPipe:  len(d.Stages) - 1,
		Reset:     len(d.Stages) > 0 && !ao.NoReset,
		Width:     n,
		MSB:       n - 1,
		Vectors:   opt.Vectors,
		Seed:      fmt.Sprintf("x\"%08x\"", opt.Seed),
		SeedValue: opt.Seed,
		Chunks:    testbenchChunks(n),
		Alternate: vhdlBits(n, func(i int) bool { return i%2 == 0 }),
	}
	vhdlTestbenchPorts(td, desc)
	return execute(w, "testbench.vhd.tmpl", td)
}

// vhdlTestbenchPorts fills the parts of td that depend on the adder's
// ports and operation, as testbenchPorts does for Verilog.
func vhdlTestbenchPorts(td *vhdlTestbenchData, d *adder.Description) {
	n, opt := d.Width, d.Architecture
	var conn, vectors, scalars, outs, ctl []string
	inBits, outBits := 0, 0
	for _, p := range d.Ports {
		conn = append(conn, p.Name+" => "+p.Name)
		switch {
		case p.Name == "clk" || p.Name == "rst":
			continue
		case p.Width > 0:
			vectors = append(vectors, p.Name)
		default:
			scalars = append(scalars, p.Name)
		}
		if p.Dir == adder.In {
			inBits += max(p.Width, 1)
			if p.Name == "cin" || p.Name == "mode" {
				ctl = append(ctl, p.Name)
			}
			continue
		}
		outs = append(outs, p.Name)
		outBits += max(p.Width, 1)
	}
	td.PortMap = strings.Join(conn, ", ")
	td.VectorSignals, td.ScalarSignals = strings.Join(vectors, ", "), strings.Join(scalars, ", ")
	td.Got, td.OutMSB = strings.Join(outs, " & "), outBits-1
	td.HasCin, td.HasMode = slices.Contains(ctl, "cin"), slices.Contains(ctl, "mode")
	td.Exhaustive = inBits <= 13
	td.CaseBits, td.CaseMSB, td.LastCase = inBits, inBits-1, 1<<inBits-1
	// The exhaustive loop's bits: a, then b, then the controls, from the
	// top down, as the Verilog testbench's {a, b, cin, mode} = i.
	hi := inBits - 1
	for _, name := range append([]string{"a", "b"}, ctl...) {
		if name == "a" || name == "b" {
			td.CaseLines = append(td.CaseLines, fmt.Sprintf("%s <= std_logic_vector(v(%d downto %d));", name, hi, hi-n+1))
			hi -= n
			continue
		}
		td.CaseLines = append(td.CaseLines, fmt.Sprintf("%s <= v(%d);", name, hi))
		hi--
	}
	td.Controls = max(1<<len(ctl), 2) - 1
	for k, name := range ctl {
		bit := "i mod 2"
		if k > 0 {
			bit = fmt.Sprintf("(i / %d) mod 2", 1<<k)
		}
		td.ControlLines = append(td.ControlLines, fmt.Sprintf("if %s = 0 then %s <= '0'; else %s <= '1'; end if;", bit, name, name))
		td.Mismatch += fmt.Sprintf(" & \" %s=\" & std_logic'image(%s)(2)", name, name)
	}

	if opt.Op == adder.Compare {
		td.Flag = true
		td.Spec = "lt = a < b signed, ltu = a < b unsigned, eq = a == b"
		td.Expect = []string{"want := flag(signed(a) < signed(b)) & flag(unsigned(a) < unsigned(b)) & flag(a = b);"}
		return
	}
	td.Full = true
	b, bText := "b", "b"
	switch opt.Op {
	case adder.Sub:
		b, bText, td.BX = "bx", "~b", true
		td.Expect = append(td.Expect, "bx := not b;")
	case adder.AddSub:
		b, bText, td.BX = "bx", "(mode ? ~b : b)", true
		td.Expect = append(td.Expect, "if mode = '1' then", "    bx := not b;", "else", "    bx := b;", "end if;")
	}
	ci, ciText := "cin", "cin"
	if !td.HasCin {
		ci = map[adder.Op]string{adder.Add: "'0'", adder.Sub: "'1'", adder.AddSub: "mode"}[opt.Op]
		ciText = map[adder.Op]string{adder.Add: "0", adder.Sub: "1", adder.AddSub: "mode"}[opt.Op]
	}
	td.Spec = "a + " + bText + " + " + ciText
	td.Expect = append(td.Expect, fmt.Sprintf("full := resize(unsigned(a), %[1]d + 1) + resize(unsigned(%[2]s), %[1]d + 1);", n, b))
	switch ci {
	case "'0'":
	case "'1'":
		td.Expect = append(td.Expect, "full := full + 1;")
	default:
		td.Expect = append(td.Expect, fmt.Sprintf("if %s = '1' then", ci), "    full := full + 1;", "end if;")
	}
	want := []string{fmt.Sprintf("std_logic_vector(full(%d downto 0))", n-1)}
	if opt.Flags&adder.Carry != 0 {
		want = append(want, fmt.Sprintf("full(%d)", n))
	}
	if opt.Flags&adder.Overflow != 0 {
		td.Flag = true
		want = append(want, fmt.Sprintf("flag(a(%[1]d) = %[2]s(%[1]d) and full(%[1]d) /= a(%[1]d))", n-1, b))
		td.Spec += ", overflow"
	}
	if opt.Flags&adder.Zero != 0 {
		td.Flag = true
		want = append(want, fmt.Sprintf("flag(full(%d downto 0) = 0)", n-1))
		td.Spec += ", zero"
	}
	if opt.Flags&adder.Negative != 0 {
		want = append(want, fmt.Sprintf("full(%d)", n-1))
		td.Spec += ", negative"
	}
	td.Expect = append(td.Expect, "want := "+strings.Join(want, " & ")+";")
}

// reductions says which reduction functions an architecture calls, each
// declared only where called (GHDL's -Wunused warns of the other).
type reductions struct{ And, Or bool }

// vhdlData is what adder.vhd.tmpl reads: the description rendered into
// VHDL lines.
type vhdlData struct {
	Entity     string
	Header     []string
	Summary    []string
	Cells      bool
	Ports      []string
	Components []vhdlComponent // the library cells the adder instantiates
	Signals    []string
	Reduce     reductions // the functions the architecture calls
	Sections   []adderSection
	Stages     []vhdlStage
}

// vhdlComponent is the declaration of a library cell: its name and its
// ports, each "PIN : in std_logic" or "PIN : out std_logic".
type vhdlComponent struct {
	Name  string
	Ports []string
}

// vhdlStage is one register stage: a clocked process.
type vhdlStage struct {
	Title, Label string
	Reset, Load  []string
}

// vhdlTestbenchData is what the VHDL testbench template reads.
type vhdlTestbenchData struct {
	*vhdlData
	// Bench is the testbench entity's name.
	Bench      string
	Width, MSB int
	// Latency is the number of register stages (0: combinational), and
	// LastPipe the last index of the expected outputs in flight; Reset
	// says whether the adder has rst.
	Latency   int
	LastPipe  int
	Reset     bool
	Vectors   int
	Seed      string
	SeedValue uint32
	Chunks    []testbenchChunk
	Alternate string

	// PortMap connects the entity's ports to the testbench's signals of
	// the same names; VectorSignals and ScalarSignals name those signals
	// but clk and rst, operands and buses, then single bits.
	PortMap, VectorSignals, ScalarSignals string
	// HasCin and HasMode say which control inputs there are; Controls is
	// the last of their combinations the corners loop over, and
	// ControlLines set them from the loop's i. Mismatch adds them to a
	// MISMATCH line.
	HasCin, HasMode bool
	Controls        int
	ControlLines    []string
	Mismatch        string
	// Exhaustive says every input is tried: CaseBits bits, the loop's
	// last case LastCase, CaseLines setting the inputs from v.
	Exhaustive        bool
	CaseBits, CaseMSB int
	LastCase          int
	CaseLines         []string
	// Got concatenates the outputs in port order, OutMSB + 1 bits; Expect
	// are the statements that set want, Spec the model in words. Full,
	// BX and Flag say that they need the variables full and bx and the
	// function flag.
	Got            string
	OutMSB         int
	Expect         []string
	Spec           string
	Full, BX, Flag bool
}

// vhdlType is the VHDL type of a signal of width w (0: one bit).
func vhdlType(w int) string { return vhdlBusType(w, 0) }

// vhdlBusType is the VHDL type of a bus of width w whose lowest bit is lo.
func vhdlBusType(w, lo int) string {
	if w == 0 {
		return "std_logic"
	}
	return fmt.Sprintf("std_logic_vector(%d downto %d)", lo+w-1, lo)
}

// newVHDLData describes the adder around net and renders it in VHDL.
func newVHDLData(net *network.Network, entity string, opt adder.Architecture, cells *adder.Cells) (*vhdlData, *adder.Description, error) {
	if entity == "" {
		entity = AdderModuleName(net, opt)
	}
	if err := CheckEntityName(entity); err != nil {
		return nil, nil, err
	}
	if err := CheckModuleCells(entity, cells, true); err != nil {
		return nil, nil, err
	}
	d, err := adder.Describe(net, opt, cells)
	if err != nil {
		return nil, nil, fmt.Errorf("emit: %w", err)
	}
	vd := &vhdlData{Entity: entity, Header: vhdlComments(adderHeader(net, d)), Summary: vhdlComments(d.Summary), Cells: d.Cells > 0}
	pad := 0
	for _, p := range d.Ports {
		pad = max(pad, len(p.Name))
	}
	for i, p := range d.Ports {
		dir := "in "
		if p.Dir == adder.Out {
			dir = "out"
		}
		line := fmt.Sprintf("%-*s : %s %s", pad, p.Name, dir, vhdlType(p.Width))
		if i < len(d.Ports)-1 {
			line += ";"
		}
		vd.Ports = append(vd.Ports, line)
	}
	for _, r := range d.Registers() {
		vd.Signals = append(vd.Signals, fmt.Sprintf("signal %s : %s;", r.Q.Name, vhdlBusType(r.Q.Width, r.Q.Lo)))
	}
	for _, sec := range d.Sections {
		as := adderSection{Comment: vhdlComments(sec.Comment)}
		for _, b := range sec.Buses {
			vd.Signals = append(vd.Signals, fmt.Sprintf("signal %s : %s;", b.Name, vhdlBusType(b.Width, b.Lo)))
		}
		for i := 0; i < len(sec.Assigns); i++ {
			a := sec.Assigns[i]
			if a.Cell != nil {
				// The outputs of one instance are assignments in a row.
				first := i
				for a.Instance != "" && i+1 < len(sec.Assigns) && sec.Assigns[i+1].Instance == a.Instance {
					i++
				}
				outs := sec.Assigns[first : i+1]
				for _, o := range outs {
					if o.Declare {
						vd.Signals = append(vd.Signals, fmt.Sprintf("signal %s : %s;", o.Target.Name, vhdlType(o.Width)))
					}
				}
				code, err := vd.instance(outs)
				if err != nil {
					return nil, nil, err
				}
				as.Lines = append(as.Lines, adderLine{Comment: vhdlComment(a.Comment), Code: code})
				continue
			}
			if a.Declare {
				vd.Signals = append(vd.Signals, fmt.Sprintf("signal %s : %s;", a.Target.Name, vhdlType(a.Width)))
			}
			code, err := vhdlAssign(vhdlRef(a.Target), a.Expr, &vd.Reduce)
			if err != nil {
				return nil, nil, err
			}
			as.Lines = append(as.Lines, adderLine{Comment: vhdlComment(a.Comment), Code: code})
		}
		vd.Sections = append(vd.Sections, as)
	}
	for k, st := range d.Stages {
		vs := vhdlStage{Title: fmt.Sprintf("Register stage %d, after level %d.", k+1, st.After), Label: fmt.Sprintf("pipeline_stage_%d", k+1)}
		for _, r := range st.Registers {
			zero := "'0'"
			if r.Q.Width > 0 {
				zero = "(others => '0')"
			}
			if !d.Architecture.NoReset {
				vs.Reset = append(vs.Reset, fmt.Sprintf("%s <= %s;", r.Q.Name, zero))
			}
			vs.Load = append(vs.Load, fmt.Sprintf("%s <= %s;", r.Q.Name, vhdlRef(r.D)))
		}
		vd.Stages = append(vd.Stages, vs)
	}
	return vd, d, nil
}

// instance returns the instance of a library cell that drives the targets
// of outs (adder.Assign.Cell), the assignments of one instance, labelled
// outs[0].Instance or u_ and the target's name and bit, and declares the
// cell's component on its first use, with the pins the adder connects.
func (vd *vhdlData) instance(outs []adder.Assign) (string, error) {
	a := outs[0]
	cell, err := VHDLName(a.Cell.Name)
	if err != nil {
		return "", err
	}
	var ports, pins []string
	for i, arg := range a.CellArgs {
		pin, err := VHDLName(a.Cell.Inputs[i])
		if err != nil {
			return "", err
		}
		ports = append(ports, pin+" : in std_logic")
		pins = append(pins, fmt.Sprintf("%s => %s", pin, vhdlRef(arg)))
	}
	for _, o := range outs {
		name := o.CellPin
		if name == "" {
			name = o.Cell.Output
		}
		pin, err := VHDLName(name)
		if err != nil {
			return "", err
		}
		ports = append(ports, pin+" : out std_logic")
		pins = append(pins, fmt.Sprintf("%s => %s", pin, vhdlRef(o.Target)))
	}
	k := slices.IndexFunc(vd.Components, func(c vhdlComponent) bool { return c.Name == cell })
	if k < 0 {
		vd.Components = append(vd.Components, vhdlComponent{Name: cell, Ports: ports})
	} else if !slices.Equal(vd.Components[k].Ports, ports) {
		return "", fmt.Errorf("emit: library cell %s is instantiated with the pins %s and %s: allowed one set of pins per cell",
			a.Cell.Name, strings.Join(vd.Components[k].Ports, ", "), strings.Join(ports, ", "))
	}
	label := a.Instance
	if label == "" {
		label = "u_" + a.Target.Name
		if a.Target.Bit >= 0 {
			label += "_" + strconv.Itoa(a.Target.Bit)
		}
	}
	return fmt.Sprintf("%s : %s port map (%s);", label, cell, strings.Join(pins, ", ")), nil
}

// VHDLName returns name as a VHDL identifier: itself where it is a basic
// identifier and no reserved word, otherwise the extended identifier
// \name\ (a backslash in name doubled), which keeps its case. A name
// with a character other than printable ASCII is an error: an extended
// identifier holds printable Latin-1, and the file is written in UTF-8.
func VHDLName(name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("emit: an empty name cannot be a VHDL identifier")
	}
	for _, r := range name {
		if r < ' ' || r > '~' {
			return "", fmt.Errorf("emit: name %q cannot be a VHDL identifier: %q is not allowed; allowed: printable ASCII characters", name, r)
		}
	}
	if basicIdentifier(name) && !vhdlKeywords[strings.ToLower(name)] {
		return name, nil
	}
	return `\` + strings.ReplaceAll(name, `\`, `\\`) + `\`, nil
}

// vhdlASCII spells the non-ASCII characters of the description's comments
// in ASCII: a VHDL-93 file is ISO 8859-1, and UTF-8 is not.
var vhdlASCII = strings.NewReplacer("…", "...", "–", "-", "−", "-", "→", "->", "≤", "<=", "≥", ">=",
	"¬", "not ", "∧", " and ", "∨", " or ", "⊕", " xor ", "·", "*", "⌈", "ceil(", "⌉", ")")

// vhdlComment returns s for a VHDL comment: in ASCII, any character the
// replacer does not know turned into '?'.
func vhdlComment(s string) string {
	s = vhdlASCII.Replace(s)
	return strings.Map(func(r rune) rune {
		if r >= 0x80 {
			return '?'
		}
		return r
	}, s)
}

// vhdlComments applies vhdlComment to every line.
func vhdlComments(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = vhdlComment(l)
	}
	return out
}

// vhdlRef spells a reference: name or name(bit).
func vhdlRef(r adder.Ref) string {
	if r.Bit < 0 {
		return r.Name
	}
	return fmt.Sprintf("%s(%d)", r.Name, r.Bit)
}

// vhdlAssign spells target <= e as a concurrent assignment: a multiplexer
// at the root becomes a conditional assignment (x1 when s = '1' else x0).
func vhdlAssign(target string, e adder.Expr, reduce *reductions) (string, error) {
	if e.Op == adder.OpMux {
		s, err := vhdlExpr(e.Args[0], reduce)
		if err != nil {
			return "", err
		}
		x1, err := vhdlExpr(e.Args[1], reduce)
		if err != nil {
			return "", err
		}
		x0, err := vhdlExpr(e.Args[2], reduce)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s <= %s when %s = '1' else %s;", target, x1, vhdlOperand(e.Args[0], s), x0), nil
	}
	x, err := vhdlExpr(e, reduce)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s <= %s;", target, x), nil
}

// vhdlOperand puts s, the spelling of x, in parentheses unless x is a
// reference or a constant.
func vhdlOperand(x adder.Expr, s string) string {
	if x.Op == adder.OpRef || x.Op == adder.OpConst {
		return s
	}
	return "(" + s + ")"
}

// vhdlExpr spells e in VHDL-93, with parentheses around every operand that
// is not a reference or a constant: VHDL does not let and, or and xor mix
// without them. It sets *reduce when e uses reduce_and or reduce_or.
func vhdlExpr(e adder.Expr, reduce *reductions) (string, error) {
	raw := make([]string, len(e.Args))
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		s, err := vhdlExpr(a, reduce)
		if err != nil {
			return "", err
		}
		raw[i], args[i] = s, vhdlOperand(a, s)
	}
	switch e.Op {
	case adder.OpRef:
		return vhdlRef(e.Ref), nil
	case adder.OpConst:
		if e.Value {
			return "'1'", nil
		}
		return "'0'", nil
	case adder.OpNot:
		return "not " + args[0], nil
	case adder.OpAnd, adder.OpOr, adder.OpXor:
		sep := map[adder.ExprOp]string{adder.OpAnd: " and ", adder.OpOr: " or ", adder.OpXor: " xor "}[e.Op]
		return strings.Join(args, sep), nil
	case adder.OpReduceAnd:
		reduce.And = true
		return "reduce_and(" + raw[0] + ")", nil
	case adder.OpReduceOr:
		reduce.Or = true
		return "reduce_or(" + raw[0] + ")", nil
	}
	return "", fmt.Errorf("emit: the VHDL emitter cannot write operator %d inside an expression: allowed a multiplexer at the root, not, and, or, xor and reductions", e.Op)
}

// vhdlBits writes an n-bit std_logic_vector literal, bit i set when set(i).
func vhdlBits(n int, set func(int) bool) string {
	b := make([]byte, n)
	for i := range n {
		b[n-1-i] = '0'
		if set(i) {
			b[n-1-i] = '1'
		}
	}
	return `"` + string(b) + `"`
}

// vhdlInternal are the names the adder declares beside the entity, and
// vhdlBenchInternal those its testbench declares, which an entity name
// must not repeat (VHDL ignores case): GHDL warns that the inner one hides
// the entity.
var (
	vhdlInternal      = strings.Fields("g p t c i r v g0_cin h0_cin b_op g_n p_n carry prefix sum_int")
	vhdlBenchInternal = strings.Fields("a b cin mode sum cout overflow zero negative lt ltu eq clk rst bench dut stimulus reduce_and reduce_or " +
		"alternate bx check d digits errors filled flag full got hex l n next_word one ones operand pipe pipeline r random s state v vectors w want word x")
)

// vhdlGenerated matches, lower case, the names the adder gives its cells
// (G_cC_lL, P_cC_lL), its registers (NAME_sK, g_sK_bB) and its register
// stages (pipeline_stage_K).
var vhdlGenerated = regexp.MustCompile(`^(` + adderGenerated + `)$`)

// adderGenerated matches, lower case, the names an adder's Verilog and VHDL
// give their cells (G_cC_lL, P_cC_lL, K_cC_lL; gI, pI, tI of single bits),
// the carries of its blocks (c_bB, cK_bB, pp_bB, sK_bB), Ling's carries
// (c_lingI), bit 0's with the carry-in (g0_cin, h0_cin), its registers
// (NAME_sK, g_sK_bB), its register stages (pipeline_stage_K) and the
// instances of library cells (u_…).
const adderGenerated = `[gpk]_c\d+_l\d+(_\d+)?|[gptk]\d+|.*_s\d+(_b\d+)?|s\d+_b\d+|c\d*_b\d+|pp_b\d+|c_ling\d+|[gh]\d+_cin|pipeline_stage_\d+|u_.*`

// vhdlVisible are the libraries and types the adder names, which an entity
// of the same name would hide: GHDL refuses such an entity.
var vhdlVisible = strings.Fields("work std ieee std_logic std_logic_vector rising_edge")

// CheckEntityName returns an error unless name is a legal VHDL basic
// identifier (a letter, then letters, digits and single underscores, not
// ending in one; at most 1024 characters) that is neither a reserved word
// of VHDL-2008 (which includes VHDL-93's) nor one of the names the adder
// or its testbench declares inside or uses (the libraries work, std and
// ieee, the types std_logic and std_logic_vector), in any case: VHDL
// identifiers ignore case.
func CheckEntityName(name string) error {
	if err := CheckBenchEntityName(name); err != nil {
		return err
	}
	lower := strings.ToLower(name)
	for _, s := range vhdlInternal {
		if lower == s {
			return fmt.Errorf("emit: entity name %s is not a legal VHDL identifier: the adder declares %q inside (VHDL ignores case)", network.Quote(name), s)
		}
	}
	if vhdlGenerated.MatchString(lower) {
		return fmt.Errorf("emit: entity name %s is not a legal VHDL identifier: the adder names its cells G_cC_lL, P_cC_lL and gI, its blocks' carries c_bB, its registers NAME_sK, its register stages pipeline_stage_K and its cells' instances u_… so (VHDL ignores case)", network.Quote(name))
	}
	return nil
}

// CheckBenchEntityName is CheckEntityName for an entity of the user's own
// that the adder's testbench instantiates: the names only the adder
// declares inside are allowed.
func CheckBenchEntityName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("emit: entity name %s is not a legal VHDL identifier: %s", network.Quote(name), why)
	}
	lower := strings.ToLower(name)
	switch {
	case name == "":
		return bad("it is empty; allowed: a letter, then letters, digits and single underscores")
	case len(name) > maxIdentifier:
		return bad(fmt.Sprintf("longer than %d characters", maxIdentifier))
	case vhdlKeywords[lower]:
		return bad("it is a VHDL reserved word")
	case strings.Contains(name, "__"):
		return bad("two underscores in a row; allowed: a letter, then letters, digits and single underscores")
	case strings.HasSuffix(name, "_"):
		return bad("it ends in an underscore; allowed: a letter, then letters, digits and single underscores")
	}
	for i, r := range name {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if i == 0 && !letter {
			return bad("allowed: a letter first, then letters, digits and single underscores")
		}
		if !letter && !(r >= '0' && r <= '9') && r != '_' {
			return bad(fmt.Sprintf("%q is not allowed; allowed: letters, digits and _", r))
		}
	}
	for _, s := range vhdlVisible {
		if lower == s {
			return bad(fmt.Sprintf("the adder uses the library or type %q (VHDL ignores case)", s))
		}
	}
	for _, s := range vhdlBenchInternal {
		if lower == s {
			return bad(fmt.Sprintf("the testbench declares %q inside (VHDL ignores case)", s))
		}
	}
	return nil
}

// vhdlKeywords are the reserved words of VHDL-2008 (IEEE 1076-2008, 15.10),
// which hold those of VHDL-93, lower case.
var vhdlKeywords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(`
abs access after alias all and architecture array assert assume
assume_guarantee attribute begin block body buffer bus case component
configuration constant context cover default disconnect downto else elsif
end entity exit fairness file for force function generate generic group
guarded if impure in inertial inout is label library linkage literal loop
map mod nand new next nor not null of on open or others out package
parameter port postponed procedure process property protected pure range
record register reject release rem report restrict restrict_guarantee
return rol ror select sequence severity shared signal sla sll sra srl
strong subtype then to transport type unaffected units until use variable
vmode vprop vunit wait when while with xnor xor`) {
		m[w] = true
	}
	return m
}()
