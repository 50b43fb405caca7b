package toolcheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/topologies"
)

// VHDLSource is a VHDL file of the user's own, for VHDLToVerilog.
type VHDLSource struct {
	// Src is the file, and Top the entity to write (empty: its one entity).
	Src []byte
	Top string
	// Models, when not empty, is VHDL analysed before Src: the models of
	// the library cells a netlist instantiates (VHDLLibraryModels), whose
	// logic the Verilog then holds, as check needs.
	Models []byte
	// CellLibrary, when not empty, is the path of a Liberty file whose
	// cells Src may instantiate as components no entity declares: the
	// Verilog instantiates each by the library's name, a cell for a flow
	// that reads the library (synth), as gen -f verilog --pg-cells writes
	// them.
	CellLibrary string
}

// VHDLToVerilog returns the entity s.Top of s.Src as the Verilog netlist
// ghdl --synth writes of it (VHDL-2008), and the netlist's module, the
// entity's name as the file declares it. A file GHDL cannot analyse or
// synthesize, a top it does not declare, or a component no entity declares
// that is not a cell of s.CellLibrary, is an *InputError that says what is
// wrong; limit bounds each GHDL run.
func VHDLToVerilog(ctx context.Context, s VHDLSource, limit time.Duration) ([]byte, string, error) {
	top, err := emit.TopEntity(s.Src, s.Top)
	if err != nil {
		return nil, "", &InputError{"toolcheck: " + err.Error()}
	}
	if emit.IsVerilogKeyword(top) {
		return nil, "", &InputError{fmt.Sprintf("toolcheck: entity %s: ghdl --synth writes it as a Verilog module of its name, which is a Verilog or SystemVerilog keyword: allowed another name", top)}
	}
	var cells map[string]liberty.Cell
	if s.CellLibrary != "" {
		if cells, err = libertyCells(s.CellLibrary); err != nil {
			return nil, "", err
		}
	}
	ghdl, err := toolrun.LookPath("ghdl")
	if err != nil {
		return nil, "", &InputError{"toolcheck: a VHDL file is read by ghdl, which is not installed (apt-get install ghdl)"}
	}
	dir, remove, err := cleanup.MkdirTemp("", "prefixgen-vhdl-")
	if err != nil {
		return nil, "", fmt.Errorf("toolcheck: %w", err)
	}
	defer remove()
	if err := os.WriteFile(filepath.Join(dir, vhdlDesignFile), s.Src, 0o644); err != nil {
		return nil, "", fmt.Errorf("toolcheck: %w", err)
	}
	run := func(what string, args ...string) (*toolrun.Result, error) {
		res, err := toolrun.Run(ctx, toolrun.Cmd{Path: ghdl, Args: args, Dir: dir, Timeout: limit})
		if _, exited := errors.AsType[*toolrun.ExitError](err); exited && res != nil {
			// Only GHDL's own diagnostic of the file makes it bad input;
			// anything else is GHDL failing.
			if line, ok := ghdlError(string(res.Output)); ok {
				return nil, &InputError{fmt.Sprintf("toolcheck: ghdl cannot %s: %s", what, line)}
			}
			if line, ok := ghdlRefusal(string(res.Output)); ok {
				return nil, &InputError{fmt.Sprintf("toolcheck: ghdl cannot %s: %s", what, line)}
			}
			return nil, fmt.Errorf("toolcheck: ghdl failed to %s: %s", what, toolrun.FirstLine(string(res.Output)))
		}
		if err != nil {
			return nil, fmt.Errorf("toolcheck: %w", err)
		}
		return res, nil
	}
	files := []string{vhdlDesignFile}
	if len(s.Models) > 0 {
		if err := os.WriteFile(filepath.Join(dir, vhdlCellsFile), s.Models, 0o644); err != nil {
			return nil, "", fmt.Errorf("toolcheck: %w", err)
		}
		files = []string{vhdlCellsFile, vhdlDesignFile}
	}
	if _, err := run("analyse it", append([]string{"-a", "--std=08"}, files...)...); err != nil {
		return nil, "", err
	}
	res, err := run("synthesize entity "+top, "--synth", "--std=08", "--out=verilog", top)
	if err != nil {
		return nil, "", err
	}
	// An instance of a component no entity declares is a black box to
	// ghdl --synth, which only warns: allowed where it is a library cell.
	// GHDL's warnings come in no fixed order: the components it names
	// are sorted.
	unbound := map[string]string{}
	var missing []string
	for _, name := range unboundComponents(res) {
		if cell := cellOf(name, cells); cell != "" {
			unbound[vhdlKey(name)] = cell
		} else if !slices.Contains(missing, name) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		allowed := "the Liberty file of its library (--liberty)"
		if s.CellLibrary != "" || len(s.Models) > 0 {
			allowed = "a cell of the library given (--liberty)"
		}
		what, it := "component "+missing[0], "it"
		if len(missing) > 1 {
			what, it = "components "+strings.Join(missing, ", "), "them"
		}
		return nil, "", &InputError{fmt.Sprintf("toolcheck: the VHDL instantiates %s, which no entity declares: allowed a file that declares %s, or %s", what, it, allowed)}
	}
	netlist := instantiateCells(res.Stdout, unbound)
	// The module keeps the case the file declares the entity in.
	for _, m := range emit.ModuleNames(netlist) {
		if strings.EqualFold(m, top) {
			return netlist, m, nil
		}
	}
	return nil, "", fmt.Errorf("toolcheck: ghdl --synth wrote no module %s: %s", top, toolrun.FirstLine(string(res.Output)))
}

// ghdlUnbound matches GHDL's warning of an instance of a component that
// no entity binds.
var ghdlUnbound = regexp.MustCompile(`instance "[^"]*" of component "([^"]*)" is not bound`)

// unboundComponents returns the components of the instances ghdl --synth
// warns no entity binds, in the order of its warnings. They are read from
// its standard error alone: in its output together, a part of the netlist
// it writes to standard output at the same time can come between the
// halves of a warning.
func unboundComponents(res *toolrun.Result) []string {
	var names []string
	for _, m := range ghdlUnbound.FindAllSubmatch(res.Stderr, -1) {
		names = append(names, string(m[1]))
	}
	return names
}

// cellOf returns the cell of cells that a VHDL component named name
// stands for, or "" when none does: for an extended identifier (\name\)
// the cell of exactly that name, for a basic one the cell of that name in
// any case (VHDL does not tell them apart), the least in byte order where
// several differ only in case.
func cellOf(name string, cells map[string]liberty.Cell) string {
	if extended(name) {
		name = strings.ReplaceAll(name[1:len(name)-1], `\\`, `\`)
		if _, ok := cells[name]; ok {
			return name
		}
		return ""
	}
	if _, ok := cells[name]; ok {
		return name
	}
	var found []string
	for c := range cells {
		if strings.EqualFold(c, name) {
			found = append(found, c)
		}
	}
	if len(found) == 0 {
		return ""
	}
	return slices.Min(found)
}

// extended reports whether name is a VHDL extended identifier, \x\.
func extended(name string) bool {
	return len(name) >= 2 && name[0] == '\\' && name[len(name)-1] == '\\'
}

// vhdlKey is a VHDL name as VHDL compares it: a basic identifier in lower
// case, an extended one as it is.
func vhdlKey(name string) string {
	if extended(name) {
		return name
	}
	return strings.ToLower(name)
}

// ghdlModule matches a module of ghdl --synth's Verilog, from its first
// line to its endmodule: its name as a plain identifier or as an escaped
// one (GHDL writes an extended identifier \x\ as the escaped \x\ and a
// space).
var ghdlModule = regexp.MustCompile(`(?ms)^module (\\\S+|[A-Za-z_][A-Za-z0-9_$]*)\s.*?^endmodule\n*`)

// instantiateCells returns netlist, ghdl --synth's Verilog, with the
// module GHDL writes for each component of unbound (an empty black box, by
// vhdlKey of its VHDL name) left out, and its instances naming the
// library cell unbound gives for it.
func instantiateCells(netlist []byte, unbound map[string]string) []byte {
	if len(unbound) == 0 {
		return netlist
	}
	rename := map[string]string{}
	netlist = ghdlModule.ReplaceAllFunc(netlist, func(m []byte) []byte {
		// GHDL's escaped name is the extended identifier itself.
		name := string(ghdlModule.FindSubmatch(m)[1])
		cell, ok := unbound[vhdlKey(name)]
		if !ok {
			return m
		}
		if !emit.PlainIdentifier(cell) {
			cell = `\` + cell // an escaped Verilog name, which the space after it ends
		}
		rename[name] = cell
		return nil
	})
	return ghdlInstance.ReplaceAllFunc(netlist, func(m []byte) []byte {
		sub := ghdlInstance.FindSubmatch(m)
		cell, ok := rename[string(sub[2])]
		if !ok {
			return m
		}
		return []byte(string(sub[1]) + cell + string(sub[3]))
	})
}

// ghdlInstance matches the start of an instance in ghdl --synth's Verilog:
// the indent, the module's name, and the space before the instance's.
var ghdlInstance = regexp.MustCompile(`(?m)^(\s+)(\\\S+|[A-Za-z_][A-Za-z0-9_$]*)(\s+[^\s(]+\s*\()`)

// vhdlDesignFile is the file a VHDL design of the user's own is read from.
const vhdlDesignFile = "design.vhd"

// ghdlError returns GHDL's first diagnostic line of out, its file name
// left out ("12:5: ..." for "design.vhd:12:5: ..."), and whether out has
// one.
func ghdlError(out string) (string, bool) {
	for _, line := range strings.Split(out, "\n") {
		if ghdlSays.MatchString(line) {
			return strings.TrimPrefix(strings.TrimSpace(line), vhdlDesignFile+":"), true
		}
	}
	return "", false
}

// ghdlSaysOfDesign matches what GHDL says, under its own name, of a design
// it cannot take (an entity without an architecture, or one no file
// declares): "/usr/bin/ghdl-mcode: entity "e" has no architecture …".
var ghdlSaysOfDesign = regexp.MustCompile(`^(?:\S*/)?ghdl(?:-[a-z]+)?: ((?:entity|cannot find entity|unit|no architecture|architecture) .*)$`)

// ghdlRefusal returns the first line of out in which GHDL refuses the
// design under its own name (ghdlSaysOfDesign), that name left out, and
// whether out has one; its crashes and internal errors are not such lines.
func ghdlRefusal(out string) (string, bool) {
	for _, line := range strings.Split(out, "\n") {
		if m := ghdlSaysOfDesign.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			return m[1], true
		}
	}
	return "", false
}

// NewVHDLModuleDesign returns a design of a user's own VHDL: the entity
// mo.Top of src (empty: its one entity), checked as the adder opt.Adder
// describes, whose ports it must have. GHDL analyses the file and
// ghdl --synth writes the entity as a Verilog netlist (VHDLToVerilog),
// which every check of NewModuleDesign runs on; the VHDL row runs the VHDL
// testbench of the adder's ports (emit.VHDLTestbench) on the file itself.
// With mo.Liberty the file may instantiate the library's combinational
// cells (gen -f vhdl --pg-cells writes such a file): both runs read VHDL
// models of them (VHDLLibraryModels), and the netlist holds their logic.
func NewVHDLModuleDesign(ctx context.Context, src []byte, mo ModuleOptions, opt Options) (*Design, error) {
	var models []byte
	if mo.Liberty != "" {
		var err error
		if models, err = VHDLLibraryModels(mo.Liberty); err != nil {
			return nil, err
		}
	}
	top, err := emit.TopEntity(src, mo.Top)
	if err != nil {
		return nil, &InputError{"toolcheck: " + err.Error()}
	}
	if err := emit.CheckBenchEntityName(top); err != nil {
		return nil, &InputError{"toolcheck: " + strings.TrimPrefix(err.Error(), "emit: ")}
	}
	for _, e := range emit.EntityNames(src) {
		if strings.HasPrefix(strings.ToLower(e), Namespace) {
			return nil, &InputError{fmt.Sprintf("toolcheck: entity %s: names beginning %s are the checks' own (VHDL ignores case): allowed any other name", e, Namespace)}
		}
	}
	verilog, top, err := VHDLToVerilog(ctx, VHDLSource{Src: src, Top: top, Models: models}, opt.ToolTimeout)
	if err != nil {
		return nil, err
	}
	d, err := NewModuleDesign(ctx, verilog, ModuleOptions{Top: top}, opt)
	if err != nil {
		return nil, err
	}
	ao := adder.Standard
	if opt.Adder != nil {
		ao = *opt.Adder
	}
	// The testbench needs a network for the ports; a ripple chain of the
	// module's width stands in, as for the Verilog testbench.
	net, err := topologies.Ripple(d.Width)
	if err != nil {
		return nil, &InputError{"toolcheck: " + err.Error()}
	}
	var tb bytes.Buffer
	if err := emit.VHDLTestbench(&tb, net, emit.TestbenchOptions{Module: top, Name: moduleTestbench, Vectors: opt.Vectors, Seed: opt.Seed, Adder: &ao}); err != nil {
		return nil, &InputError{"toolcheck: " + strings.TrimPrefix(err.Error(), "emit: ")}
	}
	d.VHDL, d.VHDLTestbench, d.VHDLCells = src, tb.Bytes(), models
	return d, nil
}

// parsed caches the cells of the Liberty files libertyCells has read, by
// path, with the size and time of the file it read.
var parsed struct {
	sync.Mutex
	files map[string]parsedFile
}

// parsedFile is a Liberty file's cells as read at its size and time.
type parsedFile struct {
	size  int64
	mod   time.Time
	cells map[string]liberty.Cell
}

// libertyCells returns the cells of the Liberty file at path (gzip or
// not), read once per run of prefixgen while the file keeps its size and
// time: a check reads the same library for every design, and ASAP7's
// takes a quarter of a second.
func libertyCells(path string) (map[string]liberty.Cell, error) {
	info, err := os.Stat(path)
	if err != nil {
		if pe, ok := errors.AsType[*os.PathError](err); ok {
			err = pe.Err
		}
		return nil, &InputError{fmt.Sprintf("toolcheck: cannot read the Liberty file %s: %v", path, err)}
	}
	parsed.Lock()
	defer parsed.Unlock()
	if f, ok := parsed.files[path]; ok && f.size == info.Size() && f.mod.Equal(info.ModTime()) {
		return f.cells, nil
	}
	src, err := liberty.ReadFile(path)
	if err != nil {
		return nil, &InputError{"toolcheck: " + strings.TrimPrefix(err.Error(), "liberty: ")}
	}
	cells := liberty.Cells(src)
	if parsed.files == nil {
		parsed.files = map[string]parsedFile{}
	}
	parsed.files[path] = parsedFile{info.Size(), info.ModTime(), cells}
	return cells, nil
}

// VHDLLibraryModels returns the VHDL models (emit.VHDLCellModels) of every
// cell of the Liberty file at path that has one, in name order: the
// combinational cells, whose every output has a function of the cell's
// inputs, and the flip-flops of one clock pin.
func VHDLLibraryModels(path string) ([]byte, error) {
	cells, err := libertyCells(path)
	if err != nil {
		return nil, err
	}
	var names []string
	for name, c := range cells {
		if len(c.Outputs) > 0 && emit.VHDLCellModels(io.Discard, cells, []string{name}) == nil {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, &InputError{fmt.Sprintf("toolcheck: the Liberty file %s has no combinational cell or flip-flop: allowed a library of cells with functions", path)}
	}
	slices.Sort(names)
	var b bytes.Buffer
	if err := emit.VHDLCellModels(&b, cells, names); err != nil {
		return nil, fmt.Errorf("toolcheck: %w", err)
	}
	return b.Bytes(), nil
}
