package toolcheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
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

// VHDLToVerilog returns the entity top of src, a VHDL file of the user's
// own (empty top: its one entity), as the Verilog netlist ghdl --synth
// writes of it (VHDL-2008), and the netlist's module, the entity's name as
// the file declares it. models, when not empty, is VHDL analysed before
// src: the models of the library cells a netlist instantiates
// (VHDLLibraryModels), whose logic the Verilog then holds. A file GHDL
// cannot analyse or synthesize, or a top it does not declare, is an
// *InputError that quotes GHDL's first error line; limit bounds each GHDL
// run.
func VHDLToVerilog(ctx context.Context, src, models []byte, top string, limit time.Duration) ([]byte, string, error) {
	top, err := emit.TopEntity(src, top)
	if err != nil {
		return nil, "", &InputError{"toolcheck: " + err.Error()}
	}
	ghdl, err := exec.LookPath("ghdl")
	if err != nil {
		return nil, "", &InputError{"toolcheck: a VHDL file is read by ghdl, which is not installed (apt-get install ghdl)"}
	}
	dir, remove, err := cleanup.MkdirTemp("", "prefixgen-vhdl-")
	if err != nil {
		return nil, "", fmt.Errorf("toolcheck: %w", err)
	}
	defer remove()
	if err := os.WriteFile(filepath.Join(dir, vhdlDesignFile), src, 0o644); err != nil {
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
			return nil, fmt.Errorf("toolcheck: ghdl failed to %s: %s", what, toolrun.FirstLine(string(res.Output)))
		}
		if err != nil {
			return nil, fmt.Errorf("toolcheck: %w", err)
		}
		return res, nil
	}
	files := []string{vhdlDesignFile}
	if len(models) > 0 {
		if err := os.WriteFile(filepath.Join(dir, vhdlCellsFile), models, 0o644); err != nil {
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
	// ghdl --synth, which only warns.
	if m := ghdlUnbound.FindSubmatch(res.Output); m != nil {
		return nil, "", &InputError{fmt.Sprintf("toolcheck: the VHDL instantiates component %s, which no entity declares: allowed a file that declares it, or for check the Liberty file of its library (--liberty)", m[1])}
	}
	// The module keeps the case the file declares the entity in.
	for _, m := range emit.ModuleNames(res.Stdout) {
		if strings.EqualFold(m, top) {
			return res.Stdout, m, nil
		}
	}
	return nil, "", fmt.Errorf("toolcheck: ghdl --synth wrote no module %s: %s", top, toolrun.FirstLine(string(res.Output)))
}

// ghdlUnbound matches GHDL's warning of an instance of a component that
// no entity binds.
var ghdlUnbound = regexp.MustCompile(`instance "[^"]*" of component "([^"]*)" is not bound`)

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
	if err := emit.CheckEntityName(top); err != nil {
		return nil, &InputError{"toolcheck: " + strings.TrimPrefix(err.Error(), "emit: ")}
	}
	verilog, top, err := VHDLToVerilog(ctx, src, models, top, opt.ToolTimeout)
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
	if err := emit.VHDLTestbench(&tb, net, emit.TestbenchOptions{Module: top, Vectors: opt.Vectors, Seed: opt.Seed, Adder: &ao}); err != nil {
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
// combinational cell of the Liberty file at path, in name order: those
// whose every output has a function of the cell's inputs.
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
		return nil, &InputError{fmt.Sprintf("toolcheck: the Liberty file %s has no combinational cell: allowed a library of cells with functions", path)}
	}
	slices.Sort(names)
	var b bytes.Buffer
	if err := emit.VHDLCellModels(&b, cells, names); err != nil {
		return nil, fmt.Errorf("toolcheck: %w", err)
	}
	return b.Bytes(), nil
}
