package emit

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
)

// VHDLOptions are the options of VHDL.
type VHDLOptions struct {
	// Entity is the name of the VHDL entity; empty means ModuleName(net).
	// It must pass CheckEntityName.
	Entity string
}

// VHDL writes the adder built around net as a synthesizable VHDL entity and
// architecture, the same circuit as Verilog writes, with the same names and
// comments:
//
//	entity NAME is port (a, b : in std_logic_vector(N-1 downto 0); cin : in std_logic;
//	                     sum : out std_logic_vector(N-1 downto 0); cout : out std_logic);
//
// with cout & sum = a + b + cin: the pre-processing row (g = a and b,
// p = a xor b, the carry-in folded into bit 0's generate), one signal per
// prefix cell named by its column and level (G_c5_l2, and P_c5_l2 for a
// black cell), and the sum row. It uses only std_logic_1164 and is VHDL-93
// that is also VHDL-2008: one file for both, which GHDL analyses with
// --std=93 and --std=08 alike. VHDL identifiers ignore case; no two names
// the adder declares differ only in case.
func VHDL(w io.Writer, net *network.Network, opt VHDLOptions) error {
	d, err := newVHDLData(net, opt.Entity)
	if err != nil {
		return err
	}
	return execute(w, "adder.vhd.tmpl", d)
}

// VHDLTestbench writes a self-checking testbench for the entity that VHDL
// writes for net (opt.Module names it; the testbench entity is
// Module + "_tb"). It runs the vectors that VerilogTestbench runs, in the
// same order, from the same seed: every input for widths up to 6; above,
// the corner vectors and opt.Vectors random vectors drawn by the same
// generator, each operand ⌈n/32⌉ words from bit 0 up. Its arithmetic is
// numeric_std unsigned of n+1 bits, so any width works. It prints
// "PASS NAME: V vectors, 0 mismatches" or, after at most ten MISMATCH lines,
// "FAIL NAME: E of V vectors wrong" followed by an assertion of severity
// failure, which makes the simulator exit non-zero.
func VHDLTestbench(w io.Writer, net *network.Network, opt TestbenchOptions) error {
	if opt.Vectors < 0 || opt.Vectors > MaxTestbenchVectors {
		return fmt.Errorf("emit: %d testbench vectors out of range: allowed 0 to %d", opt.Vectors, MaxTestbenchVectors)
	}
	d, err := newVHDLData(net, opt.Module)
	if err != nil {
		return err
	}
	n := net.Width()
	td := &vhdlTestbenchData{
		vhdlData:   d,
		Vectors:    opt.Vectors,
		Seed:       fmt.Sprintf("x\"%08x\"", opt.Seed),
		SeedValue:  opt.Seed,
		Exhaustive: n <= maxExhaustiveWidth,
		LastCase:   1<<(2*n+1) - 1,
		CaseMSB:    2 * n,
		Chunks:     testbenchChunks(n),
		Alternate:  vhdlBits(n, func(i int) bool { return i%2 == 0 }),
	}
	return execute(w, "testbench.vhd.tmpl", td)
}

// vhdlData is what the VHDL templates read.
type vhdlData struct {
	Entity  string
	Width   int
	MSB     int
	Header  []string
	Cells   []vhdlCell
	Carries []string
	Cout    string
}

// vhdlCell is one prefix cell: its comment and its G (and, if black, P)
// assignment.
type vhdlCell struct {
	Comment  string
	G, GExpr string
	P, PExpr string // empty for a gray cell
}

// vhdlTestbenchData is what the VHDL testbench template reads.
type vhdlTestbenchData struct {
	*vhdlData
	Vectors    int
	Seed       string
	SeedValue  uint32
	Exhaustive bool
	LastCase   int
	CaseMSB    int
	Chunks     []testbenchChunk
	Alternate  string
}

// newVHDLData names every signal of net and fills the template data, in
// the names and comments of the Verilog adder.
func newVHDLData(net *network.Network, entity string) (*vhdlData, error) {
	if entity == "" {
		entity = ModuleName(net)
	}
	if err := CheckEntityName(entity); err != nil {
		return nil, err
	}
	n := net.Width()
	kinds := carry.Kinds(net)
	d := &vhdlData{Entity: entity, Width: n, MSB: n - 1}
	gName := make([]string, net.Signals())
	pName := make([]string, net.Signals())
	for i := range n {
		gName[i] = fmt.Sprintf("g(%d)", i)
		pName[i] = fmt.Sprintf("p(%d)", i)
	}
	gName[0] = "g0_cin"
	seen := make(map[[2]int]int)
	black, gray := 0, 0
	d.Cells = make([]vhdlCell, net.Size())
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
		vc := vhdlCell{G: gName[s], GExpr: fmt.Sprintf("%s or (%s and %s)", gName[cell.Hi], pName[cell.Hi], gName[cell.Lo])}
		kind := "gray"
		if kinds[k] == carry.Black {
			kind = "black"
			vc.P, vc.PExpr = pName[s], fmt.Sprintf("%s and %s", pName[cell.Hi], pName[cell.Lo])
			black++
		} else {
			gray++
		}
		vc.Comment = fmt.Sprintf("cell %d, column %d, level %d, %s: [%d:%d] = [%d:%d] o [%d:%d]",
			k, c, lv, kind, hi.To, lo.From, hi.To, hi.From, lo.To, lo.From)
		d.Cells[k] = vc
	}
	d.Carries = make([]string, n)
	d.Carries[0] = "cin"
	for i := range n - 1 {
		d.Carries[i+1] = gName[net.Output(i)]
	}
	d.Cout = gName[net.Output(n-1)]
	f := net.Figures()
	d.Header = []string{
		"topology:   " + CommentText(net.Topology()),
		"parameters: " + CommentText(net.Params().Format(" ")),
		fmt.Sprintf("width:      %d bits", n),
		fmt.Sprintf("depth:      %d levels of prefix cells", f.Depth),
		fmt.Sprintf("size:       %d cells (%d black, %d gray)", f.Size, black, gray),
		fmt.Sprintf("max fan-out %d (logical: cells reading a signal, +1 if it is an output)", f.MaxFanout),
		fmt.Sprintf("wire tracks %d, deficiency %d", f.WireTracks, f.Deficiency),
	}
	return d, nil
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

// vhdlInternal are the names the adder and its testbench declare beside
// the entity, which an entity name must not repeat (VHDL ignores case).
var vhdlInternal = strings.Fields("a b cin sum cout g p g0_cin carry prefix bench dut stimulus")

// CheckEntityName returns an error unless name is a legal VHDL basic
// identifier (a letter, then letters, digits and single underscores, not
// ending in one; at most 1024 characters) that is neither a reserved word
// of VHDL-2008 (which includes VHDL-93's) nor one of the names the adder
// declares inside, in any case: VHDL identifiers ignore case.
func CheckEntityName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("emit: entity name %q is not a legal VHDL identifier: %s", name, why)
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
	for _, s := range vhdlInternal {
		if lower == s {
			return bad(fmt.Sprintf("the adder declares %q inside (VHDL ignores case)", s))
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
