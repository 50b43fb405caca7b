package toolcheck

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// InputError is the error of NewModuleDesign for a module that cannot be
// checked as the adder asked for, and for a check that cannot start (Yosys,
// which reads the module's ports, missing): the user's input, or the
// machine, must change, not the tools' verdict.
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

// ModuleOptions are the options of NewModuleDesign beyond Options.
type ModuleOptions struct {
	// Top is the module to check; empty means the file's one module.
	Top string
	// Liberty is a Liberty file whose cells the module instantiates (a
	// netlist after synthesis), or empty: Yosys reads the cells'
	// functions from it (read_liberty) and writes them as Verilog models,
	// which every check reads beside the module.
	Liberty string
	// LibraryName names the library in messages, as the user named it
	// (sky130hd, a file); empty means Liberty.
	LibraryName string
}

// NewModuleDesign returns a design of a user's own Verilog: the module
// mo.Top of src, checked as the adder opt.Adder describes (nil: {cout, sum}
// = a + b + cin), whose ports it must have, by name, direction and width;
// its width is the width of its input a. With opt.Adder's Stages K, the
// module is a pipeline of latency K whose clock input is clk and, unless
// NoReset, whose synchronous active-high rst clears it. Yosys reads the
// ports (it must be installed).
//
// Such a design has no network: the testbench, lint, equivalence and
// synthesis checks run on it; the $lcu techmap, the picture and the VHDL
// are skipped. Its equivalence proof of a pipeline with a reset asks that
// after one cycle of rst, from any state, the outputs equal the
// reference's at every cycle, the module's registers being its own.
//
// An error about the module, or about a check that cannot start (Yosys
// missing), is an *InputError. Yosys failing otherwise (a crash, its time
// limit, opt.ToolTimeout) is not: its error wraps toolrun's, as one that
// ctx ended wraps the context's.
func NewModuleDesign(ctx context.Context, src []byte, mo ModuleOptions, opt Options) (*Design, error) {
	top, err := emit.TopModule(src, mo.Top)
	if err != nil {
		return nil, &InputError{"toolcheck: " + err.Error()}
	}
	for _, m := range emit.ModuleNames(src) {
		if strings.HasPrefix(m, Namespace) {
			return nil, &InputError{fmt.Sprintf("toolcheck: module %s: names beginning %s are the checks' own: allowed any other name", m, Namespace)}
		}
	}
	yosys, err := toolrun.LookPath("yosys")
	if err != nil {
		return nil, &InputError{"toolcheck: a module of your own is read by yosys, which is not installed (apt-get install yosys)"}
	}
	dir, remove, err := cleanup.MkdirTemp("", "prefixgen-check-")
	if err != nil {
		return nil, fmt.Errorf("toolcheck: %w", err)
	}
	defer remove()
	d := &Design{Name: top, Module: top, Verilog: src, outside: true}
	if err := os.WriteFile(filepath.Join(dir, "design.v"), src, 0o644); err != nil {
		return nil, fmt.Errorf("toolcheck: %w", err)
	}
	script := "read_verilog design.v; "
	if mo.Liberty != "" {
		if d.Cells, err = cellModels(ctx, yosys, dir, mo.Liberty, opt.ToolTimeout); err != nil {
			return nil, err
		}
		script += "read_verilog " + cellsFile + "; "
	}
	script += "hierarchy -check -top " + top + "; proc; write_json ports.json"
	res, err := toolrun.Run(ctx, toolrun.Cmd{Path: yosys, Args: []string{"-q", "-p", script}, Dir: dir, Timeout: opt.ToolTimeout})
	if err != nil {
		return nil, yosysInputError(res, err, "read the module", "toolcheck: yosys: ", &mo)
	}
	ports, err := readPorts(filepath.Join(dir, "ports.json"), top)
	if err != nil {
		return nil, err
	}
	a, ok := ports["a"]
	if !ok || a.Dir != adder.In {
		return nil, &InputError{fmt.Sprintf("toolcheck: module %s has no input a (its ports: %s): allowed an adder's ports, inputs a and b and the outputs the adder asked for has", top, portList(ports))}
	}
	d.Width = max(a.Width, 1)
	if d.Width > MaxWidth {
		return nil, &InputError{fmt.Sprintf("toolcheck: module %s is %d bits wide: allowed 1 to %d", top, d.Width, MaxWidth)}
	}
	ao := adder.Standard
	if opt.Adder != nil {
		ao = *opt.Adder
	}
	if ao.Sparse > 1 || ao.Valency > 2 || ao.Ling || len(ao.PipelineAfter) > 0 {
		return nil, &InputError{"toolcheck: sparseness, valency, Ling's carries and pipeline levels describe a network's adder: allowed for a module of your own the operation, its flags, and its latency as stages"}
	}
	if ao.Stages > d.Width {
		return nil, &InputError{fmt.Sprintf("toolcheck: %d stages for a %d-bit module: allowed 1 to %d", ao.Stages, d.Width, d.Width)}
	}
	// Describe needs a network; a ripple chain is as deep as the widest
	// pipeline allowed above, and only the ports and latency are used.
	net, err := topologies.Ripple(d.Width)
	if err != nil {
		return nil, &InputError{"toolcheck: " + err.Error()}
	}
	desc, err := adder.Describe(net, ao, nil)
	if err != nil {
		return nil, &InputError{"toolcheck: " + strings.TrimPrefix(err.Error(), "adder: ")}
	}
	want := map[string]port{}
	for _, p := range desc.Ports {
		want[p.Name] = port{p.Dir, p.Width}
	}
	if !samePorts(ports, want) {
		hint := ""
		if _, clocked := ports["clk"]; clocked && ao.Stages == 0 {
			hint = " (a pipeline is checked with its latency, --stages K)"
		}
		return nil, &InputError{fmt.Sprintf("toolcheck: module %s has ports %s: allowed the ports of %s, %s%s", top, portList(ports), spec(ao), portList(want), hint)}
	}
	var tb bytes.Buffer
	if err := emit.VerilogTestbench(&tb, net, emit.TestbenchOptions{Module: top, Name: moduleTestbench, Vectors: opt.Vectors, Seed: opt.Seed, Adder: &ao}); err != nil {
		return nil, &InputError{err.Error()}
	}
	d.Testbench = tb.Bytes()
	d.Reference, d.Spec, d.Latency, d.NoReset = reference(desc), spec(ao), desc.Latency, ao.NoReset
	return d, nil
}

// port is a port's direction and width (0 for a scalar).
type port struct {
	Dir   adder.Dir
	Width int
}

// samePorts reports whether got and want have the same ports; a port of
// one bit matches a scalar.
func samePorts(got, want map[string]port) bool {
	if len(got) != len(want) {
		return false
	}
	for name, w := range want {
		g, ok := got[name]
		if !ok || g.Dir != w.Dir || max(g.Width, 1) != max(w.Width, 1) {
			return false
		}
	}
	return true
}

// portList lists ports by name, as "input a[7:0], output cout".
func portList(ports map[string]port) string {
	names := make([]string, 0, len(ports))
	for name := range ports {
		names = append(names, name)
	}
	slices.SortFunc(names, func(x, y string) int {
		// Inputs first, then outputs, each by name.
		if dx, dy := ports[x].Dir, ports[y].Dir; dx != dy {
			return int(dx) - int(dy)
		}
		return strings.Compare(x, y)
	})
	if len(names) == 0 {
		return "none"
	}
	const most = 10 // then counted
	var b strings.Builder
	for i, name := range names {
		if i == most {
			fmt.Fprintf(&b, " and %d more", len(names)-most)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		p := ports[name]
		dir := "input"
		if p.Dir == adder.Out {
			dir = "output"
		}
		fmt.Fprintf(&b, "%s %s", dir, network.Cut(name))
		if p.Width > 1 {
			fmt.Fprintf(&b, "[%d:0]", p.Width-1)
		}
	}
	return b.String()
}

// readPorts reads module top's ports from Yosys's write_json file.
func readPorts(path, top string) (map[string]port, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("toolcheck: yosys wrote no ports of module %s: %w", top, err)
	}
	var doc struct {
		Modules map[string]struct {
			Ports map[string]struct {
				Direction string `json:"direction"`
				Bits      []json.RawMessage
			} `json:"ports"`
		} `json:"modules"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("toolcheck: reading yosys's ports of %s: %w", top, err)
	}
	m, ok := doc.Modules[top]
	if !ok {
		return nil, fmt.Errorf("toolcheck: yosys wrote no module %s", top)
	}
	ports := map[string]port{}
	for name, p := range m.Ports {
		if p.Direction != "input" && p.Direction != "output" {
			return nil, &InputError{fmt.Sprintf("toolcheck: module %s has an %s port %s: allowed inputs and outputs", network.Cut(top), p.Direction, network.Cut(name))}
		}
		dir := adder.In
		if p.Direction == "output" {
			dir = adder.Out
		}
		w := len(p.Bits)
		if w == 1 {
			w = 0
		}
		ports[name] = port{dir, w}
	}
	return ports, nil
}

// libraryModels returns the Verilog models of the cells of the Liberty file
// opt.Liberty (cellModels), written by Yosys in a folder of its own.
func libraryModels(opt Options) ([]byte, error) {
	if opt.Liberty == "" {
		return nil, errors.New("toolcheck: an adder of library cells needs the Liberty file of its cells (Options.Liberty), a bug in the caller")
	}
	yosys, err := toolrun.LookPath("yosys")
	if err != nil {
		return nil, &InputError{"toolcheck: the models of the library's cells need yosys, which is not installed: allowed the adder without library cells, or Yosys installed"}
	}
	dir, remove, err := cleanup.MkdirTemp("", "prefixgen-cells-")
	if err != nil {
		return nil, fmt.Errorf("toolcheck: %w", err)
	}
	defer remove()
	return cellModels(context.Background(), yosys, dir, opt.Liberty, opt.ToolTimeout)
}

// vhdlModels returns the VHDL models of the library cells an adder of
// architecture ao instantiates (opt.Cells), from the functions of the
// Liberty file opt.Liberty (emit.VHDLCellModels).
func vhdlModels(opt Options, ao adder.Architecture) ([]byte, error) {
	cells, err := libertyCells(opt.Liberty)
	if err != nil {
		return nil, err
	}
	var names []string
	if ao.PGCells {
		names = append(names, opt.Cells.NAND2.Name, opt.Cells.OAI21.Name)
	}
	if ao.FACells {
		names = append(names, opt.Cells.FA.Name)
	}
	var b bytes.Buffer
	if err := emit.VHDLCellModels(&b, cells, names); err != nil {
		return nil, &InputError{"toolcheck: " + strings.TrimPrefix(err.Error(), "emit: ")}
	}
	return b.Bytes(), nil
}

// cellModels has Yosys read the functions of the cells of a Liberty file
// and write them as Verilog modules, into dir as cellsFile, and returns
// them.
func cellModels(ctx context.Context, yosys, dir, liberty string, limit time.Duration) ([]byte, error) {
	lib, err := filepath.Abs(liberty)
	if err != nil {
		return nil, &InputError{fmt.Sprintf("toolcheck: --liberty %s: %v", liberty, err)}
	}
	if _, err := os.Stat(lib); err != nil {
		if pe, ok := errors.AsType[*os.PathError](err); ok {
			err = pe.Err
		}
		return nil, &InputError{fmt.Sprintf("toolcheck: cannot read the Liberty file %s: %v", liberty, err)}
	}
	if err := os.Symlink(lib, filepath.Join(dir, "liberty.lib")); err != nil {
		return nil, fmt.Errorf("toolcheck: %w", err)
	}
	script := "read_liberty -ignore_miss_func liberty.lib; write_verilog -noattr " + cellsFile
	res, err := toolrun.Run(ctx, toolrun.Cmd{Path: yosys, Args: []string{"-q", "-p", script}, Dir: dir, Timeout: limit})
	if err != nil {
		return nil, yosysInputError(res, err, "read the Liberty file "+liberty, "toolcheck: yosys cannot read the Liberty file "+liberty+": ", nil)
	}
	models, err := os.ReadFile(filepath.Join(dir, cellsFile))
	if err != nil {
		return nil, fmt.Errorf("toolcheck: yosys wrote no models of the cells of %s: %w", liberty, err)
	}
	return models, nil
}

// yosysInputError returns the error of a Yosys run that failed to do what
// (read the module): an *InputError, prefix then Yosys's own error line,
// where it printed one (the input must change), or else Yosys's failure,
// wrapped (a crash, its time limit, the context's end). mo, for a run that
// read the module, says what it was read with: a module it instantiates
// that neither the file nor mo's library declares is named, in words.
func yosysInputError(res *toolrun.Result, err error, what, prefix string, mo *ModuleOptions) error {
	_, exited := errors.AsType[*toolrun.ExitError](err)
	var out string
	if res != nil {
		out = string(res.Output)
	}
	msg := toolrun.OneLine(yosysError.FindString(out))
	if !exited || msg == "" {
		return fmt.Errorf("toolcheck: yosys could not %s: %w", what, err)
	}
	if module, parent, ok := toolrun.YosysUndeclared(msg); mo != nil && ok {
		if mo.Liberty == "" {
			return &InputError{fmt.Sprintf("toolcheck: module %s instantiates %s, which the file does not declare: allowed a file that declares every module it uses, or --liberty naming the library of its cells", parent, module)}
		}
		return &InputError{fmt.Sprintf("toolcheck: module %s instantiates %s, which neither the file nor the library %s declares: allowed --liberty naming the library the netlist was mapped to", parent, module, cmp.Or(mo.LibraryName, mo.Liberty))}
	}
	return &InputError{prefix + msg}
}
