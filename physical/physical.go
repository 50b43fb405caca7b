package physical

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/synthmem"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical/pdk"
)

// Flow names how Yosys maps a design onto the library.
type Flow string

const (
	// Keep maps the design as written: Yosys's generic synthesis without
	// ABC, then ABC's structural hashing and its Liberty mapper &nf alone,
	// with none of the rewriting (dc2, &dch, &fraig) that reshapes a carry
	// tree. What is measured is the network prefixgen built.
	Keep Flow = "keep"
	// ABC is what a user gets from synth -flatten; abc -liberty: ABC's full
	// default script, which rewrites the logic (dc2, &dch) before mapping
	// and may turn a parallel-prefix tree into long chains.
	ABC Flow = "abc"
)

// DefaultFlow is the flow used when Options.Flow is empty.
const DefaultFlow = Keep

// Flows lists the flows in the order help texts name them.
var Flows = []Flow{Keep, ABC}

// ParseFlow returns the flow named s.
func ParseFlow(s string) (Flow, error) {
	for _, f := range Flows {
		if string(f) == s {
			return f, nil
		}
	}
	return "", &SetupError{msg: fmt.Sprintf("physical: unknown flow %q: allowed keep, abc", s)}
}

// Libraries maps the names of the Liberty libraries that Debian ships (the
// OSU standard cells of packages qflow-tech-osu018 and qflow-tech-osu035) to
// their files (pdk.Debian).
var Libraries = pdk.Debian

// DefaultLibrary names the library used when Options.Liberty is empty: OSU
// 0.18 µm.
const DefaultLibrary = pdk.Default

// DefaultOutputLoadPF is the load on every output, in picofarads, when
// Options.OutputLoadPF is 0: 10 fF.
const DefaultOutputLoadPF = 0.01

// LibertyFile returns the name results give the library that names: for a
// key of Libraries its file, for "" DefaultLibrary's; any other name, a
// library the project carries (sky130hd, asap7) or the files given, as it
// is.
func LibertyFile(name string) string {
	if name == "" {
		name = DefaultLibrary
	}
	if f, ok := Libraries[name]; ok {
		return f
	}
	return name
}

// RemoveLibraries removes the Liberty files written for the tools (a
// library the project carries, one split across files, one with cells not
// to use: see LibertyPath), which stay in a temporary folder for the
// process's later runs. A program that uses this package, or those above
// it, calls it once its flows are done, as prefixgen's command does when it
// ends; a run after it writes them again.
func RemoveLibraries() { pdk.RemoveWritten() }

// LibertyPath returns the one plain Liberty file that Yosys and OpenSTA
// read for the library spec (as Options.Liberty) with the cells dontUse
// names not to use (as Options.DontUse), written once per process where
// the library is not one plain file (see pdk.Library.File). A spec that
// names no library, or files that are not one, is a *SetupError.
func LibertyPath(spec string, dontUse []string) (string, error) {
	lib, err := openLibrary(spec, dontUse)
	if err != nil {
		return "", err
	}
	p, err := lib.File()
	if err != nil {
		return "", fmt.Errorf("physical: %w", err)
	}
	return p, nil
}

// CheckLibrary reports, before any work, whether the library spec names
// (as Options.Liberty) with the cells dontUse names not to use (as
// Options.DontUse) can be read, as Run would read it: a *SetupError where
// it cannot. Run checks it again, at no cost (pdk reads a library once
// per process), with the tools.
func CheckLibrary(spec string, dontUse []string) error {
	_, err := openLibrary(spec, dontUse)
	return err
}

// LibraryName returns the name an adder document records of the library
// spec names (adder.Target.Library): for a library prefixgen knows by name
// (osu018, osu035, sky130hd, asap7; "" is DefaultLibrary) that name, which
// any --liberty takes again; for one read from files, the name its Liberty
// library group gives (NangateOpenCellLibrary), which names no files, or
// where it gives none or a carried library's name the base names of its
// files. A spec that names no library is a *SetupError.
func LibraryName(spec string) (string, error) {
	if spec == "" {
		spec = DefaultLibrary
	}
	if IsLibraryName(spec) {
		return spec, nil
	}
	lib, err := openLibrary(spec, nil)
	if err != nil {
		return "", err
	}
	name := lib.Liberty().Name()
	if name != "" && !slices.ContainsFunc(pdk.Names, func(n string) bool { return strings.EqualFold(n, name) }) {
		return name, nil
	}
	// No name, or a carried library's: a later --from would take the
	// carried library, or the default, for the user's cells.
	names := make([]string, len(lib.Files))
	for i, f := range lib.Files {
		names[i] = filepath.Base(f)
	}
	return strings.Join(names, ","), nil
}

// IsLibraryName reports whether name is one of the libraries prefixgen
// knows by name, which a spec may be: osu018, osu035, sky130hd, asap7.
func IsLibraryName(name string) bool { return slices.Contains(pdk.Names, name) }

// openLibrary opens the library spec names (pdk.Open), every error of it
// bad input.
func openLibrary(spec string, dontUse []string) (*pdk.Library, error) {
	lib, err := pdk.Open(spec, dontUse)
	if err != nil {
		// pdk is how physical reads a library, not something a user
		// names: its word goes, as in "physical: Liberty file … cannot be
		// read".
		return nil, &SetupError{msg: "physical: " + strings.TrimPrefix(err.Error(), "pdk: "), err: err}
	}
	return lib, nil
}

// Options are the options of the flow.
type Options struct {
	// Liberty is the library: a name of pdk.Names ("osu018", "osu035",
	// "sky130hd", "asap7"), the path of a Liberty file (plain or gzip),
	// paths separated by commas (the files of one library) or a folder of
	// them (see pdk.Open); "" means DefaultLibrary. The record of its
	// platform (pdk.Record) applies.
	Liberty string
	// DontUse are globs of cells not to use, added to the record's (as
	// OpenROAD-flow-scripts' DONT_USE_CELLS; an element may hold several,
	// separated by spaces).
	DontUse []string
	// Flow is Keep or ABC; "" means DefaultFlow.
	Flow Flow
	// OutputLoadPF is the capacitance on every output in picofarads,
	// whatever unit the library counts in; 0 means DefaultOutputLoadPF.
	OutputLoadPF float64
	// Profile, when not nil, is the timing every adder meets in its
	// design (delay.Profile): a_i and b_i arrive at Arrival[i] ns (cin with
	// bit 0), and sum_i and then cout are required at Required; the delay
	// reported is then the worst output's lateness, its arrival less its
	// required time. It must pass Profile.Check for every design's width;
	// a user's own module (VerilogDesign) is timed without it.
	Profile *delay.Profile
	// Workdir, when not empty, is a folder that keeps every design's files
	// (the Verilog, the Yosys script, the mapped netlist, the OpenSTA
	// script and the tools' logs) in a subfolder named after the design,
	// moved there, with a copy of the library where pdk wrote one (which
	// goes at the end of the process), only once the whole Run has
	// succeeded (a Run that fails leaves the folder as it was, and does not
	// make it); otherwise they go into a temporary folder that is removed.
	Workdir string
	// Yosys and STA are the programs run; "" means "yosys" and "sta" looked
	// up in PATH.
	Yosys, STA string
	// Jobs is the number of designs Run synthesizes at once; 0 means
	// runtime.NumCPU().
	Jobs int
	// Memory, when above 0, is the memory in bytes the syntheses Run has
	// going at once may take together, the largest design's as package
	// synthmem estimates it counted for each: fewer than Jobs run at once
	// where they would take more, and one at least.
	Memory int64
	// Orders, when above 0, measures every design Orders more times, its
	// generic netlist (the gates Yosys's synth -noabc maps it onto) written
	// with the gates in as many orders (ShuffleAssigns, seeds 1 to Orders),
	// and sets Result.Spread: ABC's result depends on the order it meets
	// the gates in, so one measurement of a design is one draw. At most
	// MaxOrders.
	Orders int
	// ToolTimeout is the time limit of each run of Yosys and OpenSTA (a
	// design's synthesis, its timing, one order of its gates); a tool that
	// runs past it is stopped and the run fails with a
	// *toolrun.TimeoutError naming it. 0 means toolrun.DefaultTimeout, and
	// for asking a tool its version toolrun.VersionTimeout.
	ToolTimeout time.Duration
	// Cache, when not empty, is a folder of results kept between runs (made
	// if need be): a design whose result it holds, measured with the same
	// tools, library, scripts and options, is not run again (unless
	// Workdir is set, which keeps the files of every design), and each
	// design Run measures is added. An entry is named by a hash of all
	// that, the design's Verilog without its comments and the name of its
	// module; the folder can be shared by runs at once, and removed
	// whole at any time.
	Cache string
	// Progress, when not nil, is called with 0 done once Run knows the
	// syntheses it will run (when there are any: a cache's or this
	// process's results run none), then after each synthesis finishes,
	// with the number done and the number in all, from one goroutine at a
	// time: a synthesis is a design as written, and with Orders each of
	// its reorderings, so that the count moves while the reorderings of
	// many designs run.
	Progress func(done, total int)
}

func (o Options) flow() Flow {
	if o.Flow == "" {
		return DefaultFlow
	}
	return o.Flow
}

func (o Options) load() float64 {
	if o.OutputLoadPF == 0 {
		return DefaultOutputLoadPF
	}
	return o.OutputLoadPF
}

// Design is one Verilog design for the flow: a module whose inputs and
// outputs are the ports timed, combinational or with rising-edge
// flip-flops clocked from its inputs (a pipelined adder, Adder.Stages
// above 0, or a user's module), whose delay is then the least clock
// period.
type Design struct {
	// Topology, Params and Width describe the design in its Result.
	Topology string
	Params   network.Params
	Width    int
	// Adder is the adder's architecture (see ArchitectureDesign), in its
	// normal form: adder.Standard for AdderDesign, and for the designs that
	// are not a network's adder. It is not a parameter of the topology.
	// With PGCells or FACells, Yosys reads the library's cells before the
	// design.
	Adder adder.Architecture
	// Verilog is the source and Top the name of its top module.
	Verilog []byte
	Top     string
	// Includes are the folders, in order, where Yosys looks for the files
	// a user's Verilog `includes (read_verilog -I), and Defines its
	// macros, NAME or NAME=VALUE (read_verilog -D); see CheckSources.
	// Neither applies to the designs prefixgen writes.
	Includes, Defines []string

	// outside, set by VerilogDesign, says the Verilog came from a user:
	// Yosys failing on it is bad input, not a failed tool.
	outside bool
	// toolNames, set by NetlistDesign, says that a tool named the wires
	// other than the ports.
	toolNames bool

	// mem is the memory its synthesis takes, as package synthmem
	// estimates it (Options.Memory).
	mem int64

	// cells, set by AdderDesign, is the network's width and cells as the
	// spans they join, sorted: adders of the same cells (Kogge–Stone is
	// knowles s=0 and harris f=0 l=0 too) are synthesized once. For
	// ArchitectureDesign it is a hash of the Verilog without its comments
	// and with the top module's name left out: two networks whose adders
	// emit writes the same (a sparse tree of networks that differ only in
	// the carries it leaves out) are synthesized once too.
	cells string
}

// Name returns the design's topology and parameters, and its
// architecture's name (adder.Architecture.Name) where it is not the
// standard adder's, as in "ladner-fischer k=1", "kogge-stone sparse=4",
// "sklansky stages=2 noreset" or "brent-kung pgcells"; a network of no
// topology is a "network", as stats names it, and a user's module its top.
func (d *Design) Name() string {
	if d.Topology == Reference {
		return ReferenceName
	}
	if d.Topology == "" && d.outside {
		return d.Top
	}
	return emit.AdderName(d.Topology, d.Params, d.Adder)
}

// Reference is the topology of the design ReferenceDesign makes, and
// ReferenceName the name rows print for it.
const (
	Reference     = "yosys"
	ReferenceName = "yosys a+b+cin"
)

// AdderDesign returns the adder {cout, sum} = a + b + cin that emit.Verilog
// builds around net.
func AdderDesign(net *network.Network) (*Design, error) {
	var v bytes.Buffer
	top := emit.ModuleName(net)
	if err := emit.Verilog(&v, net, emit.VerilogOptions{Module: top}); err != nil {
		return nil, fmt.Errorf("physical: %v", err)
	}
	return &Design{Topology: net.Topology(), Params: net.Params(), Width: net.Width(), Adder: adder.Standard, Verilog: v.Bytes(), Top: top, mem: synthmem.Adder(net.Size(), net.Width()), cells: cellKey(net)}, nil
}

// cellKey lists the width and cells of net as the spans they join, sorted,
// so that networks whose builders add the same cells in another order
// match.
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

// ArchitectureDesign returns the adder that emit.Verilog builds around net
// with the architecture arch (see package adder): with a sparse tree the
// network computes the carry into every s-th bit and s-bit carry-select
// blocks the sums; with valency k each chain of binary cells is one
// k-input gate; with Ling the tree computes Ling's pseudo-carries; with
// Stages K, K register stages balance the logic (the flow then gives the
// least clock period as the delay); with PGCells each bit's generate and
// propagate are cells, the library's NAND2 and OAI21 that PGCells finds,
// and with FACells bits are the full adder FullAdderCell finds, cells the
// flow keeps. Its Adder says so, and results name it
// "kogge-stone sparse=4 ling". The standard adder gives AdderDesign.
func ArchitectureDesign(net *network.Network, arch adder.Architecture, cells *adder.Cells) (*Design, error) {
	arch = arch.Normal()
	if arch.IsStandard() {
		return AdderDesign(net)
	}
	var v bytes.Buffer
	top := emit.AdderModuleName(net, arch)
	if err := emit.Verilog(&v, net, emit.VerilogOptions{Module: top, Adder: &arch, Cells: cells}); err != nil {
		return nil, fmt.Errorf("physical: %w", err)
	}
	return &Design{Topology: net.Topology(), Params: net.Params(), Width: net.Width(), Adder: arch, Verilog: v.Bytes(), Top: top, mem: synthmem.Adder(net.Size(), net.Width()), cells: textKey(v.Bytes(), top)}, nil
}

// textKey returns a hash of the Verilog src of an adder emit wrote, its
// comment lines left out and its top module's name top made one name
// where it stands whole (not in topa or xtop): adders of the same key are
// the same logic, and the flow gives them the same figures.
func textKey(src []byte, top string) string {
	h := sha256.New()
	for line := range bytes.Lines(src) {
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("//")) {
			continue
		}
		h.Write(renameWhole(line, top, "\x00top")) // no identifier
	}
	return fmt.Sprintf("verilog %x", h.Sum(nil))
}

// renameWhole returns line with the identifier from, where it stands
// whole, made to.
func renameWhole(line []byte, from, to string) []byte {
	if from == "" {
		return line
	}
	var out []byte
	last := 0 // line[:last] is in out
	for at := 0; ; {
		i := bytes.Index(line[at:], []byte(from))
		if i < 0 {
			return append(out, line[last:]...)
		}
		i += at
		end := i + len(from)
		if (i == 0 || !identByte(line[i-1])) && (end == len(line) || !identByte(line[end])) {
			out = append(append(out, line[last:i]...), to...)
			last = end
		}
		at = i + 1
	}
}

// identByte reports whether c may stand in a Verilog identifier.
func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// ReferenceDesign returns the adder a designer writes without prefixgen,
// assign {cout, sum} = a + b + cin, which Yosys builds from its own $alu and
// $lcu cells (a Brent–Kung carry tree in Yosys's techmap.v).
func ReferenceDesign(width int) (*Design, error) {
	if width < 1 {
		return nil, fmt.Errorf("physical: width %d out of range: allowed 1 or more", width)
	}
	top := fmt.Sprintf("yosys_adder_%d", width)
	src := fmt.Sprintf(`// Code generated by prefixgen; DO NOT EDIT.
// %s: {cout, sum} = a + b + cin over %d bits, as Yosys builds it.
module %s (
    input  wire [%d:0] a,
    input  wire [%d:0] b,
    input  wire        cin,
    output wire [%d:0] sum,
    output wire        cout
);
    assign {cout, sum} = a + b + cin;
endmodule
`, top, width, top, width-1, width-1, width-1)
	return &Design{Topology: Reference, Params: network.Params{}, Width: width, Adder: adder.Standard, Verilog: []byte(src), Top: top, mem: synthmem.Reference(width)}, nil
}

// Synthesize runs the adder that emit.Verilog builds around net through the
// flow.
func Synthesize(ctx context.Context, net *network.Network, opt Options) (*Result, error) {
	d, err := AdderDesign(net)
	if err != nil {
		return nil, err
	}
	return one(ctx, d, opt)
}

// SynthesizeReference runs assign {cout, sum} = a + b + cin of the given
// width through the flow (see ReferenceDesign).
func SynthesizeReference(ctx context.Context, width int, opt Options) (*Result, error) {
	d, err := ReferenceDesign(width)
	if err != nil {
		return nil, err
	}
	return one(ctx, d, opt)
}

// SynthesizeVerilog runs the module top of the Verilog src through the flow
// (see VerilogDesign).
func SynthesizeVerilog(ctx context.Context, src []byte, top string, opt Options) (*Result, error) {
	d, err := VerilogDesign(src, top)
	if err != nil {
		return nil, err
	}
	return one(ctx, d, opt)
}

// VerilogDesign returns a design of a user's own Verilog: the module top of
// src, or with top empty the one module src declares. Its Topology is the
// module's name, its Width 0 (set it when known; left 0, its Result
// gives the width of the module's input a, if it has one). Yosys failing to read or
// synthesize it is bad input, as a *SetupError, like a top module src does
// not declare.
func VerilogDesign(src []byte, top string) (*Design, error) {
	top, err := emit.TopModule(src, top)
	if err != nil {
		return nil, &SetupError{msg: "physical: " + err.Error()}
	}
	if top == Reference {
		return nil, &SetupError{msg: fmt.Sprintf("physical: module %s: the name of Yosys's own a + b + cin in the rows: allowed a module of another name", top)}
	}
	return &Design{Topology: top, Params: network.Params{}, Adder: adder.Standard, Verilog: src, Top: top, outside: true, mem: synthmem.Verilog(int64(len(src)))}, nil
}

// NetlistDesign returns a design of a netlist that a tool wrote of a user's
// own design (ghdl --synth's Verilog of VHDL), as VerilogDesign does, but
// whose wires other than the ports bear the tool's names, not the user's:
// after ABC the flow makes them Yosys's own (rename -hide), so that each
// output is the net that drives it, as in a flow that reads the source
// itself (ghdl-yosys-plugin), where Yosys would keep the tool's wire
// joined to the port and insbuf would buffer it.
func NetlistDesign(src []byte, top string) (*Design, error) {
	d, err := VerilogDesign(src, top)
	if err != nil {
		return nil, err
	}
	d.toolNames = true
	return d, nil
}

func one(ctx context.Context, d *Design, opt Options) (*Result, error) {
	opt.Progress = nil
	res, err := Run(ctx, []*Design{d}, opt)
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

// Run synthesizes and times every design, opt.Jobs at a time, and returns
// the results in the order of designs. It checks first that the tools are
// installed and that the Liberty file parses; then the first error of any
// design stops the rest. An adder from AdderDesign whose network has the
// cells of an earlier one, or one from ArchitectureDesign whose Verilog is
// an earlier one's but for comments and names, is not run again (nor given
// a folder under Workdir): its result is the earlier one's, under its own
// name. Nor is a design this process has measured before with the same
// tools, library and options, unless Workdir is set: the tools give the
// same figures for the same design. With Options.Cache, nor is one any
// earlier run kept there.
func Run(ctx context.Context, designs []*Design, opt Options) ([]*Result, error) {
	if opt.Flow != "" {
		if _, err := ParseFlow(string(opt.Flow)); err != nil {
			return nil, err
		}
	}
	if opt.OutputLoadPF < 0 {
		return nil, &SetupError{msg: fmt.Sprintf("physical: output load %g pF out of range: allowed 0 or more", opt.OutputLoadPF)}
	}
	if opt.Orders < 0 || opt.Orders > MaxOrders {
		return nil, &SetupError{msg: fmt.Sprintf("physical: %d orders out of range: allowed 0 to %d", opt.Orders, MaxOrders)}
	}
	for _, d := range designs {
		if !emit.PlainIdentifier(d.Top) {
			return nil, &SetupError{msg: fmt.Sprintf("physical: top module %q: allowed a letter or _, then letters, digits or _", d.Top)}
		}
		if err := CheckSources(d.Includes, d.Defines); err != nil {
			return nil, err
		}
	}
	for _, d := range designs {
		if d.outside {
			continue
		}
		if err := opt.Profile.Check(d.Width); err != nil {
			return nil, &SetupError{msg: "physical: " + strings.TrimPrefix(err.Error(), "delay: "), err: err}
		}
	}
	if opt.ToolTimeout < 0 {
		return nil, &SetupError{msg: fmt.Sprintf("physical: tool timeout %v out of range: allowed 0 (the default) or more", opt.ToolTimeout)}
	}
	if err := checkWorkdir(opt.Workdir); err != nil {
		return nil, err
	}
	if opt.Cache != "" {
		if err := CheckCache(opt.Cache); err != nil {
			return nil, err
		}
	}
	t, err := setup(ctx, opt)
	if err != nil {
		return nil, err
	}
	names := folders(designs)
	dir, commit, remove, err := workdir(opt.Workdir, names)
	if err != nil {
		return nil, err
	}
	defer remove()
	if opt.Workdir != "" {
		// The files pdk wrote go at the end of the process: the work
		// folder's scripts read copies that stay.
		own := t.liberty // the library's file where pdk wrote none
		if t.lib.Written() {
			if t.liberty, err = keepLiberty(t.liberty, dir); err != nil {
				return nil, err
			}
		}
		if t.mapping != own {
			if t.mapping, err = keepLiberty(t.mapping, dir); err != nil {
				return nil, err
			}
		}
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	// same[i] is the earlier design with the cells of design i, which is
	// not run again, or -1.
	same := make([]int, len(designs))
	first := map[string]int{}
	unique := 0
	for i, d := range designs {
		same[i] = -1
		if j, ok := first[d.cells]; ok && d.cells != "" {
			same[i] = j
			continue
		}
		first[d.cells] = i
		unique++
	}
	results := make([]*Result, len(designs))
	// Designs this process has measured with the same tools, library and
	// options take their earlier result, unless the work folder is to
	// keep their files.
	keys := make([]string, len(designs))
	base, err := memoBase(t, opt)
	if err != nil {
		return nil, err
	}
	var store *cache
	if opt.Cache != "" {
		if store, err = openCache(opt.Cache, t, opt); err != nil {
			return nil, err
		}
	}
	blank := &Result{Liberty: t.name, Flow: opt.flow(), OutputLoadPF: opt.load(), YosysVersion: t.yosysVersion, STAVersion: t.staVersion}
	for i, d := range designs {
		if same[i] >= 0 {
			continue
		}
		keys[i] = base + "\x00" + d.key()
		if opt.Workdir != "" {
			continue
		}
		if r, ok := memo.Load(keys[i]); ok {
			results[i] = r.(*Result).copyFor(d)
			unique--
			continue
		}
		if store == nil {
			continue
		}
		if r, ok := store.load(d, blank); ok {
			results[i] = r
			memo.Store(keys[i], r.copyFor(d))
			unique--
		}
	}
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	total := unique * (opt.Orders + 1)
	step := func() {
		mu.Lock()
		defer mu.Unlock()
		done++
		if opt.Progress != nil {
			opt.Progress(done, total)
		}
	}
	if total > 0 && opt.Progress != nil {
		opt.Progress(0, total)
	}
	var largest int64
	for i, d := range designs {
		if same[i] < 0 && results[i] == nil {
			largest = max(largest, d.mem)
		}
	}
	sem := make(chan struct{}, synthmem.Jobs(jobs, opt.Memory, largest))
	// admit lets as many designs in as there are jobs: a design's
	// reorderings take jobs of sem beside the designs admitted with it,
	// not behind every design of the run, so that each design is done,
	// and in the cache, soon after it starts, and a run stopped part of
	// the way keeps what it finished.
	admit := make(chan struct{}, cap(sem))
	for i, d := range designs {
		if same[i] >= 0 || results[i] != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			admit <- struct{}{}
			defer func() { <-admit }()
			sem <- struct{}{}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			r, err := t.run(ctx, d, filepath.Join(dir, names[i]), opt)
			if err == nil {
				step()
			}
			if err == nil && opt.Orders > 0 {
				r.Spread, err = t.orders(ctx, d, filepath.Join(dir, names[i]), opt, r, sem, step)
			}
			if err == nil && store != nil {
				store.store(d, r)
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
					cancel()
				}
				return
			}
			results[i] = r
			memo.Store(keys[i], r.copyFor(d))
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("physical: %w", err)
	}
	if err := commit(); err != nil {
		return nil, err
	}
	for i, j := range same {
		if j >= 0 {
			results[i] = results[j].copyFor(designs[i])
		}
	}
	return results, nil
}

// memo holds the result of every design Run has measured in this
// process, by memoBase and Design.key: the tools give the same figures for
// the same design, so that a design measured again (a search's named
// adders, a candidate met twice) costs nothing.
var memo sync.Map

// memoBase returns what the results of a Run depend on besides the
// design: the tools, the library file as it is now, the platform's record
// as the scripts follow it (the tie and buffer cells a --dont-use leaves,
// ABC's driver and load), and the options.
func memoBase(t *tools, opt Options) (string, error) {
	st, err := os.Stat(t.liberty)
	if err != nil {
		return "", fmt.Errorf("physical: %w", err)
	}
	var prof string
	if opt.Profile != nil {
		prof = fmt.Sprint(opt.Profile.Arrival, opt.Profile.Required)
	}
	record := YosysScript(opt.flow(), "top", "liberty.lib", t.lib.Record, true) + ABCConstraints(t.lib.Record)
	return fmt.Sprint(t.yosys, t.yosysVersion, t.sta, t.staVersion, t.name, t.liberty, st.Size(), st.ModTime().UnixNano(),
		opt.flow(), opt.load(), prof, opt.Orders, record), nil
}

// key returns what tells the design from another for Run's results: the
// network's cells (AdderDesign), the Verilog but for comments and names
// (ArchitectureDesign), or a hash of the Verilog, the top module and the
// width given.
func (d *Design) key() string {
	if d.cells != "" {
		return d.cells
	}
	return fmt.Sprintf("%x %s %d %v %v %s%s", sha256.Sum256(d.Verilog), d.Top, d.Width, d.outside, d.toolNames, d.Adder.Name(), d.sources())
}

// sources returns what the design's Includes and Defines add to its keys:
// nothing where there are none, so that the keys of designs without them
// are as they were.
func (d *Design) sources() string {
	if len(d.Includes) == 0 && len(d.Defines) == 0 {
		return ""
	}
	return fmt.Sprintf(" -I %q -D %q", d.Includes, d.Defines)
}

// architectural says the design is an adder of prefixgen's architecture,
// not a user's module or Yosys's a + b + cin.
func (d *Design) architectural() bool { return !d.outside && d.Topology != Reference }

// copyFor returns a copy of r, another design's result of the same
// figures, under the name of d.
func (r *Result) copyFor(d *Design) *Result {
	c := *r
	c.Topology, c.Params, c.Adder, c.noArch = d.Topology, d.Params, d.Adder, !d.architectural()
	if d.Width != 0 {
		// A user's module has the width the flow read from its ports.
		c.Width = d.Width
	}
	c.Cells = maps.Clone(r.Cells)
	return &c
}

// keepLiberty copies the library file lib, which pdk wrote and removes at
// the end of the process, into the work folder dir under its own name
// (the library's and a hash of its files and cells not to use), unless a
// copy of it is there already (the same size, written since), and returns
// the copy's path.
func keepLiberty(lib, dir string) (string, error) {
	dst := filepath.Join(dir, filepath.Base(lib))
	src, err := os.Stat(lib)
	if err != nil {
		return "", fmt.Errorf("physical: %w", err)
	}
	if st, err := os.Stat(dst); err == nil && st.Mode().IsRegular() && st.Size() == src.Size() && !st.ModTime().Before(src.ModTime()) {
		return dst, nil
	}
	data, err := os.ReadFile(lib)
	if err != nil {
		return "", fmt.Errorf("physical: %w", err)
	}
	if err := writeWhole(dst, data); err != nil {
		return "", &SetupError{msg: fmt.Sprintf("physical: cannot write the library's copy %s: %v", dst, unwrapPath(err)), err: err}
	}
	return dst, nil
}

// writeWhole writes data to the file dst, whole or not at all: a
// temporary file beside it (removed if the process is stopped) is renamed
// over it once written, with mode 0666 less the umask.
func writeWhole(dst string, data []byte) error {
	tmp, drop, err := cleanup.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*.tmp")
	if err != nil {
		return err
	}
	defer drop()
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// folders names each design's folder: its top module, made unique.
func folders(designs []*Design) []string {
	names := make([]string, len(designs))
	seen := map[string]int{}
	for i, d := range designs {
		name := safeName(d.Top)
		if d.Topology != "" && d.Topology != Reference {
			name = safeName(d.Name())
		}
		seen[name]++
		if k := seen[name]; k > 1 {
			name = fmt.Sprintf("%s-%d", name, k)
		}
		names[i] = name
	}
	return names
}

// safeName keeps letters, digits, '-', '_' and '.' of s, replacing the rest
// with '_', so that it can name a folder.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		default:
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] == '.' {
		sum := sha256.Sum256([]byte(s))
		return "design-" + hex.EncodeToString(sum[:4])
	}
	return string(b)
}

// SetupError reports that the flow cannot run as asked: a tool that is not
// installed, a Liberty file that cannot be read, does not parse or lacks the
// cells the design needs, an unknown flow. Commands treat it as bad input
// (exit status 2); every other error is the flow failing on a design.
type SetupError struct {
	msg string
	err error // the cause, if any, for errors.Is and errors.As
}

// Error returns the one-line message.
func (e *SetupError) Error() string { return e.msg }

// Unwrap returns the error that caused it, if any: the tool's
// (*toolrun.ExitError), the file system's.
func (e *SetupError) Unwrap() error { return e.err }

// IsSetup reports whether err is, or wraps, a *SetupError.
func IsSetup(err error) bool {
	var s *SetupError
	return errors.As(err, &s)
}

// oneLine joins the lines of s with "; ", trimmed.
func oneLine(s string) string {
	var parts []string
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, "; ")
}
