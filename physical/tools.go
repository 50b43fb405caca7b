package physical

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical/netlist"
	"github.com/prefixgen/prefixgen/physical/pdk"
	"github.com/prefixgen/prefixgen/physical/redundant"
)

// Result is what the flow measured of one design.
type Result struct {
	// Topology, Params and Width are the design's (see Design).
	Topology string
	Params   network.Params
	Width    int
	// Adder is the adder's architecture, the design's (see Design.Adder).
	Adder adder.Architecture
	// noArch says the design had no architecture of prefixgen's (a
	// user's module, Yosys's a + b + cin): Record leaves Adder's fields
	// out.
	noArch bool
	// AreaUM2 is the area of the mapped cells in µm², as Yosys's
	// stat -liberty sums it (the library's area unit, µm² for the OSU
	// cells), and StdCells their number.
	AreaUM2  float64
	StdCells int
	// RedundantUM2 is the part of AreaUM2 in cells that compute a signal
	// the netlist already carries, or its complement (RedundantArea): logic
	// the mapper duplicated, in both polarities, to shorten a path.
	RedundantUM2 float64
	// Cells counts the mapped cells by library cell name.
	Cells map[string]int
	// DelayNS is the worst input-to-output arrival time OpenSTA reports, in
	// ns whatever unit the library counts time in, and CriticalFrom and
	// CriticalTo the input and output bits where that path starts and
	// ends, as in "a[3]" and "sum[63]". For a design with flip-flops
	// (Registers above 0) DelayNS is the least clock period: the worst of
	// the paths from an input or a flip-flop to an output or a flip-flop,
	// a flip-flop's setup time included, and no shorter than twice the
	// flip-flops' minimum pulse width (a clock high half the period); a
	// flip-flop at either end is named by the register it holds (its output
	// net), or by its instance where the netlist names no net after it:
	// the design left it unnamed, or the flip-flop drives only an inverted
	// output (ASAP7's DFFHQNx1), whose net Yosys names. Where the
	// pulse width sets the period, CriticalFrom is "clock pulse width" and
	// CriticalTo the flip-flop.
	DelayNS                  float64
	CriticalFrom, CriticalTo string
	// Registers is the number of flip-flops in the mapped netlist: 0 for a
	// combinational adder, above 0 for a pipelined one (Design.Adder.Stages) and
	// for a user's module with flip-flops (Design.Verilog).
	Registers int
	// Liberty names the library (pdk.Library.Name: a library's name, as
	// sky130hd or osu018; else the files as given), Flow the flow and OutputLoadPF the load on every output.
	Liberty      string
	Flow         Flow
	OutputLoadPF float64
	// YosysVersion and STAVersion are what yosys -V and sta -version print.
	YosysVersion, STAVersion string
	// Spread, set when Options.Orders is above 0, is the area and delay
	// over the design as written and its reorderings; AreaUM2 and DelayNS
	// stay the design's as written.
	Spread *Spread
}

// Name returns the design's topology and parameters, as in
// "ladner-fischer k=1", or "yosys a+b+cin" for the reference.
func (r *Result) Name() string {
	d := Design{Topology: r.Topology, Params: r.Params, Adder: r.Adder}
	return d.Name()
}

// tools are the programs and library of one Run, checked by setup.
type tools struct {
	yosys, sta               string
	yosysVersion, staVersion string
	// lib is the library, name its name in results and messages, and
	// liberty the plain Liberty file the tools read, and mapping the
	// one ABC maps a design without registers onto (pdk.Library.MapFile).
	lib     *pdk.Library
	name    string
	liberty string
	mapping string
	// cells are the library's cells, those not to use marked.
	cells map[string]liberty.Cell
	// timeout is each tool run's time limit (Options.ToolTimeout).
	timeout time.Duration
}

// setup opens the library, finds the tools and checks that they read the
// library.
func setup(ctx context.Context, opt Options) (*tools, error) {
	lib, err := openLibrary(opt.Liberty, opt.DontUse)
	if err != nil {
		return nil, err
	}
	t := &tools{lib: lib, name: lib.Name, cells: lib.Cells(), timeout: opt.ToolTimeout}
	if t.liberty, err = lib.File(); err != nil {
		return nil, fmt.Errorf("physical: %w", err)
	}
	if t.mapping, err = lib.MapFile(); err != nil {
		return nil, fmt.Errorf("physical: %w", err)
	}
	if t.yosys, err = lookPath(opt.Yosys, "yosys", "Yosys (Debian package yosys)"); err != nil {
		return nil, err
	}
	if t.sta, err = lookPath(opt.STA, "sta", "OpenSTA (Debian package opensta)"); err != nil {
		return nil, err
	}
	if t.yosysVersion, err = version(ctx, t.yosys, "-V", t.timeout); err != nil {
		return nil, err
	}
	if t.staVersion, err = version(ctx, t.sta, "-version", t.timeout); err != nil {
		return nil, err
	}
	if err := checkLiberty(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// lookPath finds the program path, or name in PATH when path is empty.
func lookPath(path, name, what string) (string, error) {
	if path == "" {
		path = name
	}
	p, err := toolrun.LookPath(path)
	if err != nil {
		return "", &SetupError{msg: fmt.Sprintf("physical: %s is not installed: %s not found (install it, or put it in PATH)", what, path), err: err}
	}
	return p, nil
}

// version returns the first line prog prints when asked its version with
// flag (toolrun.Version, once per process), within limit (0 means
// toolrun.VersionTimeout). A program that fails to say
// is not the tool asked for (bad input); one that does not answer in
// time, or a context that ends, is a failure.
func version(ctx context.Context, prog, flag string, limit time.Duration) (string, error) {
	v, err := toolrun.Version(ctx, prog, flag, limit)
	if err == nil {
		return v, nil
	}
	if _, exit := errors.AsType[*toolrun.ExitError](err); exit {
		return "", &SetupError{msg: fmt.Sprintf("physical: %s %s: %v", prog, flag, err), err: err}
	}
	return "", fmt.Errorf("physical: %s %s: %w", prog, flag, err)
}

// invoke runs prog, one of the flow's tools, in dir under the run's time
// limit, and returns what it printed (stdout and stderr as they came) and
// toolrun's error.
func (t *tools) invoke(ctx context.Context, dir, prog string, args ...string) (string, error) {
	res, err := toolrun.Run(ctx, toolrun.Cmd{Path: prog, Args: args, Dir: dir, Timeout: t.timeout})
	if res == nil {
		return "", err
	}
	return string(res.Output), err
}

// unfinished reports whether err is that of a tool that gave no answer:
// it ran past its time limit, the context ended, or it could not start.
// A tool that exited, whatever its status, answered (*toolrun.ExitError).
func unfinished(err error) bool {
	_, exited := errors.AsType[*toolrun.ExitError](err)
	return err != nil && !exited
}

// libertyChecked caches the Liberty files that Yosys and OpenSTA parsed,
// by path, size and modification time.
var libertyChecked sync.Map

// checkLiberty makes sure the Liberty file exists and that both Yosys and
// OpenSTA parse it. A file either tool says it cannot read is bad input;
// a tool that fails without saying so, or gives no answer, is a failure.
// yosysOnOwnFiles reads each of the library's own files, as they are
// (decompressed), with Yosys where the tools read a copy prefixgen wrote
// (of a .gz file, of several, or with cells marked not to use), whose
// line numbers are not the files': the first file Yosys refuses, and what
// it says; "" where the library is one plain file the tools read as it is,
// or Yosys refuses none.
func yosysOnOwnFiles(ctx context.Context, t *tools, dir string) (file, said string) {
	if len(t.lib.Files) == 1 && t.lib.Files[0] == t.liberty {
		return "", ""
	}
	for _, f := range t.lib.Files {
		src, err := liberty.ReadFile(f)
		if err != nil {
			return "", ""
		}
		if err := os.WriteFile(filepath.Join(dir, "own.lib"), src, 0o644); err != nil {
			return "", ""
		}
		out, err := t.invoke(ctx, dir, t.yosys, "-q", "-p", "read_liberty -lib own.lib")
		if err != nil && yosysError(out) != "" {
			return f, yosysError(out)
		}
	}
	return "", ""
}

func checkLiberty(ctx context.Context, t *tools) error {
	st, err := os.Stat(t.liberty)
	if err != nil {
		return &SetupError{msg: fmt.Sprintf("physical: Liberty file %s cannot be read: %v (allowed: osu018, osu035, sky130hd, asap7 or Liberty files)", t.name, unwrapPath(err)), err: err}
	}
	key := fmt.Sprint(t.liberty, st.Size(), st.ModTime().UnixNano(), t.yosys, t.sta)
	if _, ok := libertyChecked.Load(key); ok {
		return nil
	}
	dir, remove, err := cleanup.MkdirTemp(toolrun.TempDir(), "prefixgen-liberty-")
	if err != nil {
		return fmt.Errorf("physical: %w", err)
	}
	defer remove()
	if err := linkLiberty(dir, t.liberty); err != nil {
		return fmt.Errorf("physical: %w", err)
	}
	checking := func(err error) error {
		if ctx.Err() != nil {
			return fmt.Errorf("physical: %w", ctx.Err())
		}
		return fmt.Errorf("physical: checking Liberty file %s: %w", t.name, err)
	}
	out, err := t.invoke(ctx, dir, t.yosys, "-q", "-p", "read_liberty -lib "+libertyLink)
	switch exit, _ := errors.AsType[*toolrun.ExitError](err); {
	case err == nil:
	case unfinished(err):
		return checking(err)
	case yosysError(out) != "":
		name, said := t.name, yosysError(out)
		if file, fileSaid := yosysOnOwnFiles(ctx, t, dir); fileSaid != "" {
			// Its line numbers are the user's file's, not the copy's.
			name, said = file, fileSaid
		}
		return &SetupError{msg: fmt.Sprintf("physical: Liberty file %s does not parse: yosys says %s", name, said), err: err}
	case exit.Signal == syscall.SIGABRT:
		// Yosys's Liberty reader runs out of memory on a file cut
		// short, and aborts without a word. Any other crash is Yosys's.
		return &SetupError{msg: fmt.Sprintf("physical: Liberty file %s does not parse: yosys died reading it (signal: %v), as it does on a file cut short: allowed a whole Liberty file", t.name, exit.Signal), err: err}
	default:
		return checking(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "check.tcl"), []byte("read_liberty "+libertyLink+"\n"), 0o644); err != nil {
		return fmt.Errorf("physical: %w", err)
	}
	out, err = t.invoke(ctx, dir, t.sta, "-no_init", "-no_splash", "-exit", "check.tcl")
	switch {
	case unfinished(err):
		return checking(err)
	case staFailed(out):
		return &SetupError{msg: fmt.Sprintf("physical: Liberty file %s does not parse: sta says %s", t.name, staError(out)), err: err}
	case err != nil:
		return checking(err)
	}
	libertyChecked.Store(key, true)
	return nil
}

func unwrapPath(err error) error {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err
	}
	return err
}

// legalizeType matches the cell type in Yosys's error for a flip-flop
// dfflibmap found no library cell for.
var legalizeType = regexp.MustCompile(`\(type (\$\w+)\) cannot be legalized`)

// abcError matches ABC's first error in Yosys's log.
var abcError = regexp.MustCompile(`(?m)^ABC: Error: (.*)$`)

// yosysError returns Yosys's first ERROR line, where in design.v first
// when it names a line of the design, or "" when it printed none.
func yosysError(out string) string {
	for line := range strings.SplitSeq(out, "\n") {
		if m := sourceLine.FindStringSubmatch(line); m != nil {
			return toolrun.OneLine(oneLine(m[0])) // where in design.v, then what
		}
		if i := strings.Index(line, "ERROR:"); i >= 0 {
			return toolrun.OneLine(oneLine(line[i:]))
		}
	}
	return ""
}

// sourceLine matches Yosys's error about a line of the design's Verilog.
var sourceLine = regexp.MustCompile(`design\.v:(\d+): (ERROR: .*)`)

// staFailed reports whether OpenSTA printed an error: a line starting
// "Error", which a path report (instance and port names) never does, or a
// warning that an object of the script was not found (the constraint on
// it was not applied, and the figures would not be those asked for).
func staFailed(out string) bool {
	for line := range strings.SplitSeq(out, "\n") {
		if staErrorLine(line) {
			return true
		}
	}
	return false
}

// staErrorLine reports whether a line of OpenSTA's output is an error.
func staErrorLine(line string) bool {
	return strings.HasPrefix(line, "Error") || (strings.HasPrefix(line, "Warning") && strings.HasSuffix(line, " not found."))
}

// staError returns OpenSTA's first error line (staErrorLine), or "".
func staError(out string) string {
	for line := range strings.SplitSeq(out, "\n") {
		if staErrorLine(line) {
			return toolrun.OneLine(line)
		}
	}
	return ""
}

// toolFailed returns the error of a tool that exited and failed (err, a
// *toolrun.ExitError, under it): "yosys failed: " and what the tool said
// was wrong (said, its first error line) where it said, else toolrun's
// own words, the first line the tool printed and how it ended. fail
// formats the message as run's errors are.
func toolFailed(fail func(format string, args ...any) error, tool, said string, err error) error {
	if said == "" {
		return fail("%w", err)
	}
	return &flowError{msg: fail("%s failed: %s", tool, said).Error(), err: err}
}

// flowError is an error of the flow that wraps the tool's error under it,
// for a caller to test (errors.As a *toolrun.ExitError), without its words.
type flowError struct {
	msg string
	err error
}

func (e *flowError) Error() string { return e.msg }
func (e *flowError) Unwrap() error { return e.err }

// libertyLink is the name under which the tools read the Liberty file: a
// symbolic link in the design's folder, since OpenSTA cannot read a file
// whose path has a space.
const libertyLink = "liberty.lib"

// linkLiberty links libertyLink in dir to the Liberty file lib.
//
// A library beside dir (the copy a work folder keeps, in the folder above
// each design's) is linked by a relative path, so that the link still
// holds when the run's folders are moved into the work folder at its end.
func linkLiberty(dir, lib string) error {
	target, err := libertyTarget(dir, lib)
	if err != nil {
		return err
	}
	link := filepath.Join(dir, libertyLink)
	if err := os.Remove(link); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Symlink(target, link)
}

// libertyTarget returns what the link liberty.lib in dir names: the
// library lib by its absolute path, or beside dir by a relative one, so
// that a work folder moved into place, the library's copy with it, still
// reads it.
func libertyTarget(dir, lib string) (string, error) {
	abs, err := filepath.Abs(lib)
	if err != nil {
		return "", err
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if filepath.Dir(abs) == filepath.Dir(absDir) {
		return filepath.Join("..", filepath.Base(abs)), nil
	}
	return abs, nil
}

// keepABCScript is the ABC script of the Keep flow: structural hashing into
// an and-inverter graph and the Liberty mapper &nf, the last step of ABC's
// default script, without the rewriting before it.
const keepABCScript = "+strash;&get,-n;&nf,{D};&put"

// unkeepHierarchy is the Yosys command that takes the keep_hierarchy
// attribute off every module and cell, so that synth -flatten flattens
// them too.
const unkeepHierarchy = "setattr -mod -unset keep_hierarchy; setattr -unset keep_hierarchy"

// YosysScript returns the Yosys script of the flow for the module top of
// design.v and the Liberty file liberty.lib (a link to lib): it writes the
// mapped netlist to mapped.v and the cells it counts to stat.txt (Run sums
// their areas from the library it has read, rather than have Yosys read
// the file again). Where registers says the design may have registers,
// dfflibmap maps them onto the library's flip-flops first; a design
// without would only make it read the library once more. With a
// platform's record (nil for none), as OpenROAD-flow-scripts' synthesis
// does: ABC reads the driver cell and the output load from abc.constr
// (ABCConstraints), and after ABC, hilomap ties constants to the tie cells
// and insbuf buffers the wires that join two ports with the buffer cell.
func YosysScript(flow Flow, top, lib string, rec *pdk.Record, registers bool) string {
	return yosysScript(flow, top, lib, rec, registers, false)
}

// commentPath returns path for a script's comment: as it is, or quoted
// where it holds a line break, a control character or a backslash, which
// would end the comment (the rest of the path read as commands) or, last
// in a line, continue a Tcl comment over the next command.
func commentPath(path string) string {
	if strings.ContainsFunc(path, func(r rune) bool { return r == '\\' || unicode.IsControl(r) || r == utf8.RuneError }) {
		return strconv.Quote(path)
	}
	return path
}

// yosysScript is YosysScript, for a design of the user's own (outside)
// with its modules and instances marked keep_hierarchy flattened too: the
// design is measured whole. prefixgen's adders mark none.
func yosysScript(flow Flow, top, lib string, rec *pdk.Record, registers, outside bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s flow; liberty.lib is %s\n", flow, commentPath(lib))
	fmt.Fprintf(&b, "read_verilog design.v\n")
	if outside {
		b.WriteString(unkeepHierarchy + "\n")
	}
	constr := ""
	if ABCConstraints(rec) != "" {
		constr = " -constr abc.constr"
	}
	dff := ""
	if registers {
		dff = "dfflibmap -liberty liberty.lib\n"
	}
	switch flow {
	case ABC:
		fmt.Fprintf(&b, "synth -flatten -top %s\n", top)
		b.WriteString(dff)
		b.WriteString("abc -liberty liberty.lib" + constr + "\n")
	default:
		fmt.Fprintf(&b, "synth -flatten -top %s -noabc\n", top)
		b.WriteString(dff)
		b.WriteString("abc -liberty liberty.lib" + constr + " -script " + keepABCScript + "\n")
	}
	if rec != nil {
		// The wires that only rename another go first, as
		// OpenROAD-flow-scripts' opt_clean -purge does: insbuf would
		// buffer each.
		b.WriteString("opt_clean -purge\n")
	} else {
		b.WriteString("opt_clean\n")
	}
	for _, cmd := range PlatformCommands(rec, true) {
		b.WriteString(cmd + "\n")
	}
	b.WriteString("tee -q -o stat.txt stat\n")
	fmt.Fprintf(&b, "write_verilog -noattr -noexpr -simple-lhs mapped.v\n")
	return b.String()
}

// hideToolNames is the Yosys command that makes the names of a design's
// wires other than its ports Yosys's own (NetlistDesign).
const hideToolNames = "rename -hide w:* x:* %d"

// PlatformCommands returns the Yosys commands that follow ABC for a
// platform's record (none for nil), as OpenROAD-flow-scripts runs them:
// hilomap ties constants to the tie cells and, where buffer says so,
// insbuf buffers the wires that join two ports with the buffer cell.
func PlatformCommands(rec *pdk.Record, buffer bool) []string {
	var cmds []string
	if rec != nil && rec.TieHigh.Cell != "" && rec.TieLow.Cell != "" {
		cmds = append(cmds, fmt.Sprintf("hilomap -singleton -hicell %s %s -locell %s %s", rec.TieHigh.Cell, rec.TieHigh.Pin, rec.TieLow.Cell, rec.TieLow.Pin))
	}
	if rec != nil && rec.Buffer.Cell != "" && buffer {
		cmds = append(cmds, fmt.Sprintf("insbuf -buf %s %s %s", rec.Buffer.Cell, rec.Buffer.In, rec.Buffer.Out))
	}
	return cmds
}

// ABCConstraints returns the constraints file abc -constr reads for a
// platform's record: the cell that drives every input and the load on
// every output in fF, as OpenROAD-flow-scripts writes its abc.constr; ""
// where the record (nil for none) gives neither.
func ABCConstraints(rec *pdk.Record) string {
	if rec == nil {
		return ""
	}
	var b strings.Builder
	if rec.DriverCell != "" {
		fmt.Fprintf(&b, "set_driving_cell %s\n", rec.DriverCell)
	}
	if rec.LoadFF > 0 {
		fmt.Fprintf(&b, "set_load %s\n", strconv.FormatFloat(rec.LoadFF, 'g', -1, 64))
	}
	return b.String()
}

// checkWidth refuses a user's module (d.outside) that was given a width
// its operand a does not have: its result would stand beside Yosys's adder
// of another width. A module without an input a is not checked.
func checkWidth(d *Design, mapped *netlist.Netlist) error {
	if !d.outside || d.Width == 0 {
		return nil
	}
	for _, p := range mapped.Inputs {
		if p.Name != "a" {
			continue
		}
		if w := max(p.Width, 1); w != d.Width {
			return &SetupError{msg: fmt.Sprintf("physical: module %s has an input a of %d bits, not the width %d given: allowed its own width, %d", d.Top, w, d.Width, w)}
		}
	}
	return nil
}

// inputWidth returns the bits of the mapped netlist's input port name, 0
// if it has none: a user's module given no width is as wide as its a.
func inputWidth(mapped *netlist.Netlist, name string) int {
	if p, ok := mapped.Input(name); ok {
		return max(p.Width, 1)
	}
	return 0
}

// staPeriod is the period of the clocks the timing script constrains the
// design with, in ns: long enough for any path.
const staPeriod = 1000

// STAScript returns the OpenSTA script of the flow: times in ns and
// capacitances in pF whatever the library's units, every input and output
// constrained to a virtual clock with no delay outside the design, load pF
// on every output, the worst input-to-output path reported. It reads the
// library as liberty.lib, a link to lib. A design with flip-flops names the
// input ports that clock them, as the netlist names them (an escaped name
// such as \clk$1 is given to OpenSTA as clk$1): they carry a clock of the
// same period and edges, so that the paths into, between and out of the
// flip-flops are timed against one period.
func STAScript(top, lib string, load float64, clocks ...string) string {
	return staScript(top, lib, libertyLink, load, nil, clocks...)
}

// staScript is STAScript in the timing prof gives the adder (nil: every
// input at 0, every output required at 0): a_i and b_i arrive at
// prof.Arrival[i], cin with bit 0, and sum_i and then cout are required at
// prof.Required, an output delay of minus that, so that the worst slack's
// path is the latest against its required time. OpenSTA reads the library
// lib from the file read: liberty.lib, a link to it, or timing.lib, the
// cells of mapped.v that Run writes from it (timingLib).
func staScript(top, lib, read string, load float64, prof *delay.Profile, clocks ...string) string {
	var b strings.Builder
	if read == timingLib {
		fmt.Fprintf(&b, "# %s is the cells of mapped.v from %s\n", read, commentPath(lib))
	} else {
		fmt.Fprintf(&b, "# %s is %s\n", read, commentPath(lib))
	}
	fmt.Fprintf(&b, "read_liberty %s\n", read)
	fmt.Fprintf(&b, "read_verilog mapped.v\n")
	fmt.Fprintf(&b, "link_design %s\n", top)
	// Times in ns and capacitances in pF, whatever units the library
	// counts in: the period, the load and every figure read back.
	fmt.Fprintf(&b, "set_cmd_units -time ns -capacitance pF\n")
	fmt.Fprintf(&b, "create_clock -name virtual_clock -period %d\n", staPeriod)
	inputs := "[all_inputs]"
	if len(clocks) > 0 {
		names := make([]string, len(clocks))
		for i, c := range clocks {
			names[i] = staPortName(c)
		}
		ports := "[get_ports {" + strings.Join(names, " ") + "}]"
		fmt.Fprintf(&b, "create_clock -name clock -period %d %s\n", staPeriod, ports)
		inputs = "[delete_from_list [all_inputs] " + ports + "]"
	}
	fmt.Fprintf(&b, "set_input_delay 0 -clock virtual_clock %s\n", inputs)
	fmt.Fprintf(&b, "set_output_delay 0 -clock virtual_clock [all_outputs]\n")
	if prof != nil {
		ns := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		for i, at := range prof.Arrival {
			ports := fmt.Sprintf("a[%d] b[%d]", i, i)
			if i == 0 {
				ports += " cin"
			}
			fmt.Fprintf(&b, "set_input_delay %s -clock virtual_clock [get_ports -quiet {%s}]\n", ns(at), ports)
		}
		for i, req := range prof.Required {
			port := fmt.Sprintf("sum[%d]", i)
			if i == len(prof.Required)-1 {
				port = "cout"
			}
			fmt.Fprintf(&b, "set_output_delay %s -clock virtual_clock [get_ports -quiet {%s}]\n", ns(-req), port)
		}
	}
	fmt.Fprintf(&b, "set_load %s [all_outputs]\n", strconv.FormatFloat(load, 'g', -1, 64))
	fmt.Fprintf(&b, "report_checks -path_delay max -format full -digits 4\n")
	if len(clocks) > 0 {
		// The flip-flops' minimum pulse width bounds the period too.
		fmt.Fprintf(&b, "report_check_types -min_pulse_width -verbose -digits 4\n")
	}
	return b.String()
}

// staPortName returns the name OpenSTA gives a port of a netlist: an
// escaped name (\clk$1 , \ck$b [1]) without its backslash and the space
// that ends it (clk$1, ck$b[1]).
func staPortName(name string) string {
	if !strings.HasPrefix(name, `\`) {
		return name
	}
	return strings.Replace(name[1:], " [", "[", 1)
}

// outsideError returns err, which the tools' output caused, as bad input
// when the design is a user's own Verilog: a module without logic, or
// without a path from an input to an output, is not something to time.
func (d *Design) outsideError(err error) error {
	if !d.outside {
		return err
	}
	return &SetupError{msg: err.Error() + ": allowed a module with logic from its inputs to its outputs", err: err}
}

// designFolder makes a design's folder dir, held off a stop's removal
// (cleanup.Hold): once a signal has removed the run's folders, a design
// that starts then blocks here, the process ending, rather than making
// them again.
func designFolder(dir string) error {
	return cleanup.Hold(func() error { return os.MkdirAll(dir, 0o755) })
}

// run synthesizes and times one design in dir.
func (t *tools) run(ctx context.Context, d *Design, dir string, opt Options) (*Result, error) {
	name := d.Name()
	fail := func(format string, args ...any) error {
		return fmt.Errorf("physical: %s: "+format, append([]any{name}, args...)...)
	}
	if err := designFolder(dir); err != nil {
		// Only a user's --workdir can hold something in the way.
		return nil, &SetupError{msg: fmt.Sprintf("physical: cannot make the design's folder %s: %v: allowed a work folder where it can be made", dir, unwrapPath(err)), err: err}
	}
	// A design that may have registers, or a user's that may instantiate
	// any of the library's cells, reads the whole library; an adder
	// without registers only the cells ABC maps onto.
	registers := d.outside || d.Adder.Stages > 0 || len(d.Adder.PipelineAfter) > 0
	lib := t.liberty
	if !registers {
		lib = t.mapping
	}
	lib, err := filepath.Abs(lib)
	if err != nil {
		return nil, fail("%w", err)
	}
	if err := linkLiberty(dir, lib); err != nil {
		return nil, fail("%w", err)
	}
	// The scripts name the library as the link does.
	if lib, err = libertyTarget(dir, lib); err != nil {
		return nil, fail("%w", err)
	}
	flow := opt.flow()
	script := yosysScript(flow, d.Top, lib, t.lib.Record, registers, d.outside)
	files := map[string]string{"design.v": string(d.Verilog)}
	switch {
	case d.outside:
		// A user's module may be a netlist of the library's own cells
		// (another tool's, or the flow's mapped.v): Yosys reads them as
		// cells first, and maps the rest around them.
		read, err := d.readVerilog(dir)
		if err != nil {
			return nil, fail("%w", err)
		}
		script = strings.Replace(script, "read_verilog design.v\n", "read_liberty -lib liberty.lib\n"+read, 1)
		if d.toolNames {
			// The wires other than ports are named by the tool that wrote
			// the netlist: hidden after ABC, they give way to the ports
			// they drive, where Yosys would keep each and insbuf buffer it.
			script = strings.Replace(script, "\nopt_clean", "\n"+hideToolNames+"\nopt_clean", 1)
		}
	case d.Adder.InstantiatesCells():
		// The adder's cells (its generate and propagate, or its full
		// adders) are the library's: Yosys reads them as black boxes from
		// their ports alone, which is what read_liberty -lib makes of the
		// whole file, without reading it.
		files["cells.v"] = cellStubs(d.Verilog, t.cells)
		script = strings.Replace(script, "read_verilog design.v\n", "read_verilog -lib cells.v\nread_verilog design.v\n", 1)
	}
	files["synth.ys"] = script
	if c := ABCConstraints(t.lib.Record); c != "" {
		files["abc.constr"] = c
	}
	for f, text := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
			return nil, fail("%w", err)
		}
	}
	// The figures are what the tools write now: nothing an earlier run
	// left in a work folder.
	for _, f := range []string{"stat.txt", "mapped.v", "sta.log"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fail("%w", err)
		}
	}
	out, err := t.invoke(ctx, dir, t.yosys, "-q", "-l", "yosys.log", "-s", "synth.ys")
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("physical: %w", ctx.Err())
		}
		if unfinished(err) {
			return nil, fail("%w", err)
		}
		said := yosysError(out)
		if strings.Contains(out, "ABC: execution of command") || strings.Contains(out, "Can't open ABC output file") {
			// The Liberty file parsed, so ABC failing to map is nearly
			// always a library it cannot map onto; ABC's own first error,
			// in the log, says what it missed. The message names the
			// library, not the design, so that every design says the same.
			if log, err := os.ReadFile(filepath.Join(dir, "yosys.log")); err == nil {
				if m := abcError.FindSubmatch(log); m != nil {
					return nil, &SetupError{msg: fmt.Sprintf("physical: ABC could not map onto Liberty file %s: ABC says %s", t.name, toolrun.OneLine(string(m[1]))), err: err}
				}
			}
			return nil, &SetupError{msg: fmt.Sprintf("physical: ABC could not map onto Liberty file %s, which may lack the cells it needs (an inverter, a buffer and two-input gates): yosys says %s", t.name, said), err: err}
		}
		if strings.Contains(out, "cannot be legalized") {
			// dfflibmap found no flip-flop for a register: the library's
			// lack, named without the design, so that every design says
			// the same.
			kind := "register"
			if m := legalizeType.FindStringSubmatch(out); m != nil {
				kind = m[1]
			}
			return nil, &SetupError{msg: fmt.Sprintf("physical: Liberty file %s has no flip-flop Yosys can map a %s onto: allowed a library with a rising-edge D flip-flop", t.name, kind), err: err}
		}
		if module, parent, ok := toolrun.YosysUndeclared(said); d.outside && ok {
			return nil, &SetupError{msg: fmt.Sprintf("physical: module %s instantiates %s, which neither the file nor the library %s declares: allowed --liberty naming the library the netlist was mapped to", parent, module, t.name), err: err}
		}
		if (d.outside || d.Adder.InstantiatesCells()) && said != "" {
			return nil, &SetupError{msg: fmt.Sprintf("physical: yosys cannot synthesize module %s of the Verilog given: %s", d.Top, sourceLine.ReplaceAllString(said, "line $1: $2")), err: err}
		}
		return nil, toolFailed(fail, "yosys", said, err)
	}
	stat, err := os.ReadFile(filepath.Join(dir, "stat.txt"))
	if err != nil {
		return nil, fail("yosys wrote no statistics: %w", unwrapPath(err))
	}
	r := &Result{
		Topology: d.Topology, Params: d.Params, Width: d.Width, Adder: d.Adder, noArch: !d.architectural(),
		Liberty: t.name, Flow: flow, OutputLoadPF: opt.load(),
		YosysVersion: t.yosysVersion, STAVersion: t.staVersion,
	}
	statErr := parseStat(string(stat), r)
	var generic, latches []string
	nLatches := 0
	for c, k := range r.Cells {
		if strings.HasPrefix(c, "$") {
			generic = append(generic, c)
		}
		if strings.Contains(c, "DLATCH") || strings.HasPrefix(c, "$_SR_") {
			latches = append(latches, c)
			nLatches += k
		}
	}
	if len(latches) > 0 && d.outside {
		slices.Sort(latches)
		return nil, &SetupError{msg: fmt.Sprintf("physical: module %s has %s (%s): %s", d.Top, counted(nLatches, "latch", "latches"), strings.Join(latches, ", "), sequentialRule)}
	}
	if len(generic) > 0 {
		slices.Sort(generic)
		return nil, &SetupError{msg: fmt.Sprintf("physical: Liberty file %s lacks the cells to map %s: Yosys left %s unmapped", t.name, name, strings.Join(generic, ", "))}
	}
	libCells := t.cells
	// A cell without an area counts 0 in Yosys's sum: an area that looks
	// right and is not. The message names the library, not the design, so
	// that every design that fails says the same.
	var noArea []string
	for c := range r.Cells {
		if lc, ok := libCells[c]; ok && !lc.HasArea {
			noArea = append(noArea, c)
		}
	}
	if len(noArea) > 0 {
		// Every cell of the library without one: the same message from
		// every design, whichever cells it uses.
		noArea = noArea[:0]
		for c, lc := range libCells {
			if !lc.HasArea {
				noArea = append(noArea, c)
			}
		}
		slices.Sort(noArea)
		return nil, &SetupError{msg: fmt.Sprintf("physical: Liberty file %s gives no area for %s, and the mapped netlist uses some of them: allowed a library with an area for every cell", t.name, strings.Join(noArea, ", "))}
	}
	if statErr == nil && r.StdCells == 0 {
		statErr = errors.New("the flow mapped it onto no cells")
	}
	if statErr != nil {
		return nil, d.outsideError(fail("%w", statErr))
	}
	if r.AreaUM2, err = cellArea(r.Cells, libCells); err != nil {
		return nil, &SetupError{msg: fmt.Sprintf("physical: module %s instantiates %v", d.Top, err), err: err}
	}
	src, err := os.ReadFile(filepath.Join(dir, "mapped.v"))
	if err != nil {
		return nil, fail("yosys wrote no netlist: %w", unwrapPath(err))
	}
	mapped := netlist.Parse(src)
	if err := checkWidth(d, mapped); err != nil {
		return nil, err
	}
	if d.outside && r.Width == 0 {
		r.Width = inputWidth(mapped, "a")
	}
	regs, err := netlistRegisters(libCells, mapped, d.Top)
	if err != nil {
		if d.outside || d.Adder.InstantiatesCells() {
			return nil, &SetupError{msg: "physical: " + err.Error(), err: err}
		}
		if d.Adder.Stages > 0 {
			// A pipeline's registers are rising-edge flip-flops on clk:
			// what dfflibmap made of them is the library's doing.
			var flops []string
			for c := range r.Cells {
				if lc := libCells[c]; lc.Clock != "" {
					flops = append(flops, fmt.Sprintf("%s, clocked on %s", c, lc.Clock))
				}
			}
			slices.Sort(flops)
			if len(opt.DontUse) > 0 {
				return nil, &SetupError{msg: fmt.Sprintf("physical: Liberty file %s with --dont-use %s has no rising-edge D flip-flop left for a pipeline's registers (Yosys mapped them onto %s): allowed a --dont-use that keeps one", t.name, strings.Join(opt.DontUse, " "), strings.Join(flops, "; ")), err: err}
			}
			return nil, &SetupError{msg: fmt.Sprintf("physical: Liberty file %s has no rising-edge D flip-flop for a pipeline's registers (Yosys mapped them onto %s): allowed a library with one", t.name, strings.Join(flops, "; ")), err: err}
		}
		return nil, fail("%w", err)
	}
	r.Registers = regs.flops
	var prof *delay.Profile
	if !d.outside {
		prof = opt.Profile
	}
	regs.bySlack = prof != nil && prof.Required != nil
	// OpenSTA reads the cells the netlist uses, not the whole library: on
	// ASAP7 reading all of it took most of OpenSTA's time.
	var cells bytes.Buffer
	if err := t.lib.WriteCells(&cells, slices.Sorted(maps.Keys(r.Cells))); err != nil {
		return nil, fail("%w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, timingLib), cells.Bytes(), 0o644); err != nil {
		return nil, fail("%w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "timing.tcl"), []byte(staScript(d.Top, lib, timingLib, opt.load(), prof, regs.clocks...)), 0o644); err != nil {
		return nil, fail("%w", err)
	}
	out, err = t.invoke(ctx, dir, t.sta, "-no_init", "-no_splash", "-exit", "timing.tcl")
	if werr := os.WriteFile(filepath.Join(dir, "sta.log"), []byte(out), 0o644); werr != nil && err == nil {
		return nil, fail("%w", werr)
	}
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("physical: %w", ctx.Err())
	case unfinished(err):
		return nil, fail("%w", err)
	case err != nil || staFailed(out):
		return nil, toolFailed(fail, "sta", staError(out), err)
	case strings.TrimSpace(out) == "":
		return nil, fail("sta printed no timing report")
	}
	if err := parseTiming(out, r, regs); err != nil {
		return nil, d.outsideError(fail("%w", err))
	}
	r.RedundantUM2 = redundant.Area(libCells, mapped)
	return r, nil
}

var (
	statCells = regexp.MustCompile(`(?m)^\s*Number of cells:\s+(\d+)\s*$`)
	statCell  = regexp.MustCompile(`^\s{5,}(\S+)\s+(\d+)\s*$`)
)

// timingLib is the file of the library's cells that a design's mapped
// netlist uses, which OpenSTA reads.
const timingLib = "timing.lib"

// cellStubs returns the Verilog black boxes, ports only, of the cells of
// lib that src names, in name order: what Yosys's read_liberty -lib
// makes of them.
func cellStubs(src []byte, lib map[string]liberty.Cell) string {
	used := map[string]bool{}
	for _, id := range identifier.FindAll(src, -1) {
		if _, ok := lib[string(id)]; ok {
			used[string(id)] = true
		}
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(used)) {
		c := lib[name]
		outs := slices.Sorted(maps.Keys(c.Outputs))
		fmt.Fprintf(&b, "module %s(%s);\n", name, strings.Join(append(slices.Clone(c.Inputs), outs...), ", "))
		for _, in := range c.Inputs {
			fmt.Fprintf(&b, "  input %s;\n", in)
		}
		for _, out := range outs {
			fmt.Fprintf(&b, "  output %s;\n", out)
		}
		b.WriteString("endmodule\n")
	}
	return b.String()
}

// identifier matches a Verilog simple identifier.
var identifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_$]*`)

// parseStat reads the cell count and the cells by name from Yosys's stat.
func parseStat(s string, r *Result) error {
	m := statCells.FindStringSubmatch(s)
	if m == nil {
		return errors.New("no cell count in Yosys's statistics")
	}
	r.StdCells, _ = strconv.Atoi(m[1])
	r.Cells = map[string]int{}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		if !statCells.MatchString(line) {
			continue
		}
		for _, l := range lines[i+1:] {
			c := statCell.FindStringSubmatch(l)
			if c == nil {
				break
			}
			k, _ := strconv.Atoi(c[2])
			r.Cells[c[1]] += k
		}
		break
	}
	return nil
}

// cellArea returns the area in µm² of cells, counted by library cell
// name, as Yosys's stat -liberty sums it from the same file: each cell's
// area from lib, the sum given to Yosys's six decimals. A cell lib lacks
// is an error that names it.
func cellArea(cells map[string]int, lib map[string]liberty.Cell) (float64, error) {
	area := 0.0
	for _, c := range slices.Sorted(maps.Keys(cells)) {
		lc, ok := lib[c]
		if !ok {
			return 0, fmt.Errorf("%s, which is neither a module of the design nor a cell of the library", c)
		}
		area += float64(cells[c]) * lc.Area
	}
	return math.Round(area*1e6) / 1e6, nil
}

var (
	staStart   = regexp.MustCompile(`(?m)^Startpoint:\s+(\S+)`)
	staEnd     = regexp.MustCompile(`(?m)^Endpoint:\s+(\S+)`)
	staArrival = regexp.MustCompile(`(?m)^\s*([0-9.eE+-]+)\s+data arrival time\s*$`)
	staSlack   = regexp.MustCompile(`(?m)^\s*([0-9.eE+-]+)\s+slack \((?:MET|VIOLATED)\)\s*$`)
	staPulse   = regexp.MustCompile(`(?m)^\s*([0-9.eE+-]+)\s+required pulse width \((?:high|low)\)\s*$`)
	staPin     = regexp.MustCompile(`^Pin:\s+(\S+)/`)
)

// staDelayLine matches a line of a path's table with both its Delay and
// its Time: DELAY TIME [^|v] DESCRIPTION.
var staDelayLine = regexp.MustCompile(`^\s*([0-9.eE+-]+)\s+([0-9.eE+-]+)\s+(.*)$`)

// staRequiredOffset returns what the capture side of a path's report adds
// to the clock edge that captures it (the network delay, a flip-flop's
// setup time, an output's external delay, each with its sign as the Delay
// column gives it): the data required time less the edge. ok is false
// where the block has no required time after its arrival.
func staRequiredOffset(block string) (off float64, ok bool) {
	_, rest, found := strings.Cut(block, "data arrival time")
	if !found {
		return 0, false
	}
	edge := false
	for line := range strings.Lines(rest) {
		if strings.Contains(line, "data required time") {
			return off, edge
		}
		m := staDelayLine.FindStringSubmatch(strings.TrimRight(line, "\r\n"))
		if m == nil {
			continue
		}
		if !edge {
			edge = strings.HasSuffix(strings.TrimSpace(m[3]), " edge)")
			continue
		}
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			return 0, false
		}
		off += v
	}
	return 0, false
}

// parseTiming reads the worst path's start, end and delay from OpenSTA's
// report_checks. The delay of a combinational design is the path's arrival
// time; a design with flip-flops (regs) has a path for each clock that
// captures, and its delay is the least clock period, staPeriod less the
// least slack: the setup time of a flip-flop the path ends at included
// (the arrival less staRequiredOffset, which is the same figure without
// the single precision of times near staPeriod).
// The flip-flops a path starts or ends at are named by regs. The period is
// at least twice the worst minimum pulse width report_check_types gives
// after the paths (a clock high for half the period).
func parseTiming(s string, r *Result, regs registers) error {
	s, pulse, _ := strings.Cut(s, "\nPin: ")
	if strings.Contains(s, "No paths found") {
		return errors.New("OpenSTA found no path from an input to an output")
	}
	blocks := strings.Split(s, "\nStartpoint:")
	if len(blocks) < 2 && !strings.HasPrefix(s, "Startpoint:") {
		return fmt.Errorf("no worst path in OpenSTA's report: %s", toolrun.FirstLine(s))
	}
	best, bestSlack := "", math.Inf(1)
	for i, b := range blocks {
		if i > 0 {
			b = "Startpoint:" + b
		} else if !strings.HasPrefix(b, "Startpoint:") {
			continue
		}
		if regs.flops == 0 && !regs.bySlack {
			best = b
			break
		}
		sl := staSlack.FindStringSubmatch(b)
		if sl == nil {
			return fmt.Errorf("no slack in OpenSTA's report: %s", toolrun.FirstLine(b))
		}
		v, err := strconv.ParseFloat(sl[1], 64)
		if err != nil {
			return fmt.Errorf("slack %q in OpenSTA's report: %w", sl[1], err)
		}
		if v < bestSlack {
			best, bestSlack = b, v
		}
	}
	st, en, ar := staStart.FindStringSubmatch(best), staEnd.FindStringSubmatch(best), staArrival.FindStringSubmatch(best)
	if st == nil || en == nil || ar == nil {
		return fmt.Errorf("no worst path in OpenSTA's report: %s", toolrun.FirstLine(s))
	}
	d, err := strconv.ParseFloat(ar[1], 64)
	if err != nil {
		return fmt.Errorf("arrival time %q in OpenSTA's report: %w", ar[1], err)
	}
	if regs.flops > 0 || regs.bySlack {
		// staPeriod less the slack: the arrival less what the capture
		// side adds to its edge, read from the small figures, as the
		// times near the period are printed in single precision.
		off, ok := staRequiredOffset(best)
		if !ok {
			return fmt.Errorf("no data required time in OpenSTA's report: %s", toolrun.FirstLine(best))
		}
		d = math.Round((d-off)*1e4) / 1e4
	}
	name := func(point string) string {
		if reg, ok := regs.names[point]; ok {
			return reg
		}
		return point
	}
	r.DelayNS, r.CriticalFrom, r.CriticalTo = d, name(st[1]), name(en[1])
	if regs.flops == 0 || pulse == "" {
		return nil
	}
	pw := staPulse.FindStringSubmatch(pulse)
	if pw == nil {
		return fmt.Errorf("no required pulse width in OpenSTA's report: %s", toolrun.FirstLine(pulse))
	}
	w, err := strconv.ParseFloat(pw[1], 64)
	if err != nil {
		return fmt.Errorf("pulse width %q in OpenSTA's report: %w", pw[1], err)
	}
	if p := math.Round(2*w*1e4) / 1e4; p > r.DelayNS {
		inst := ""
		if m := staPin.FindStringSubmatch("Pin: " + pulse); m != nil {
			inst = name(m[1])
		}
		r.DelayNS, r.CriticalFrom, r.CriticalTo = p, "clock pulse width", inst
	}
	return nil
}
