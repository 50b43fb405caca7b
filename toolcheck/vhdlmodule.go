package toolcheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/topologies"
)

// VHDLToVerilog returns the entity top of src, a VHDL file of the user's
// own (empty top: its one entity), as the Verilog netlist ghdl --synth
// writes of it (VHDL-2008), and the netlist's module, the entity's name as
// the file declares it. A file GHDL cannot analyse or synthesize, or a top
// it does not declare, is an *InputError that quotes GHDL's first error
// line; limit bounds each GHDL run.
func VHDLToVerilog(ctx context.Context, src []byte, top string, limit time.Duration) ([]byte, string, error) {
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
		if _, exited := errors.AsType[*toolrun.ExitError](err); exited {
			line := ""
			if res != nil {
				line = ghdlError(string(res.Output))
			}
			return nil, &InputError{fmt.Sprintf("toolcheck: ghdl cannot %s: %s", what, line)}
		}
		if err != nil {
			return nil, fmt.Errorf("toolcheck: %w", err)
		}
		return res, nil
	}
	if _, err := run("analyse it", "-a", "--std=08", vhdlDesignFile); err != nil {
		return nil, "", err
	}
	res, err := run("synthesize entity "+top, "--synth", "--std=08", "--out=verilog", top)
	if err != nil {
		return nil, "", err
	}
	// The module keeps the case the file declares the entity in.
	for _, m := range emit.ModuleNames(res.Stdout) {
		if strings.EqualFold(m, top) {
			return res.Stdout, m, nil
		}
	}
	return nil, "", fmt.Errorf("toolcheck: ghdl --synth wrote no module %s: %s", top, toolrun.FirstLine(string(res.Output)))
}

// vhdlDesignFile is the file a VHDL design of the user's own is read from.
const vhdlDesignFile = "design.vhd"

// ghdlError returns GHDL's first error line of out, its file name left
// out ("12:5: ..." for "design.vhd:12:5: ..."), or out's first line.
func ghdlError(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if ghdlSays.MatchString(line) {
			return strings.TrimPrefix(strings.TrimSpace(line), vhdlDesignFile+":")
		}
	}
	return toolrun.FirstLine(out)
}

// NewVHDLModuleDesign returns a design of a user's own VHDL: the entity
// mo.Top of src (empty: its one entity), checked as the adder opt.Adder
// describes, whose ports it must have. GHDL analyses the file and
// ghdl --synth writes the entity as a Verilog netlist (VHDLToVerilog),
// which every check of NewModuleDesign runs on; the VHDL row runs the VHDL
// testbench of the adder's ports (emit.VHDLTestbench) on the file itself.
// A VHDL netlist of library cells is not read: mo.Liberty must be empty.
func NewVHDLModuleDesign(ctx context.Context, src []byte, mo ModuleOptions, opt Options) (*Design, error) {
	if mo.Liberty != "" {
		return nil, &InputError{"toolcheck: a VHDL file is read as logic, not as a netlist of library cells: allowed a Liberty file with a Verilog module"}
	}
	top, err := emit.TopEntity(src, mo.Top)
	if err != nil {
		return nil, &InputError{"toolcheck: " + err.Error()}
	}
	if err := emit.CheckEntityName(top); err != nil {
		return nil, &InputError{"toolcheck: " + strings.TrimPrefix(err.Error(), "emit: ")}
	}
	verilog, top, err := VHDLToVerilog(ctx, src, top, opt.ToolTimeout)
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
	d.VHDL, d.VHDLTestbench = src, tb.Bytes()
	return d, nil
}
