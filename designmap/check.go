package designmap

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/prefixgen/prefixgen/internal/toolrun"
)

// check proves gate, the design with choice c's networks as generic
// gates (what --generic-out writes), equal to the design with Yosys's own
// networks, and returns an error naming what is not proven.
//
// A choice on the design with its chains of sums merged is proven equal
// to that design with Yosys's own networks, and the merged design equal
// to the design as written, both before alumacc (sums.json, merged.json).
func (r *run) check(ctx context.Context, c choice, gate []byte) (bool, error) {
	gold, err := r.generic(ctx, choice{design: c.design})
	if err != nil {
		return false, err
	}
	ok, err := r.equivalent(ctx, gold, gate)
	if !ok || c.design == asExtracted {
		return ok, err
	}
	return r.prove(ctx, nil, "sums merged", "read_json ../sums.json", "read_json ../merged.json", "memory_map")
}

// equivalent proves gate equal to gold, two generic netlists of the top.
func (r *run) equivalent(ctx context.Context, gold, gate []byte) (bool, error) {
	files := map[string]string{"gold.v": string(gold), "gate.v": string(gate)}
	return r.prove(ctx, files, "", "read_verilog gold.v", "read_verilog gate.v")
}

// prove proves the top that readGate reads equal to the one readGold
// reads, with files in a folder of its own and the lines prep after proc;
// what, if not empty, names the gate in an error.
//
// Yosys flattens both into one miter (miter -equiv), every register
// starting at 0 (async2sync first, so that a reset is logic), and writes
// it as AIGER; ABC's dprove proves that the miter's output never rises
// (registers paired by induction, then bounded and unbounded model
// checking). Yosys's own equiv_simple and equiv_induct, which pair
// signals by name, took minutes on SHA-256 and did not finish on SHA-512
// (docs/map.md gives the figures).
func (r *run) prove(ctx context.Context, files map[string]string, what, readGold, readGate string, prep ...string) (bool, error) {
	dir, err := r.subdir("check")
	if err != nil {
		return false, err
	}
	top := r.opt.Top
	lines := []string{
		readGold,
		"rename " + top + " prefixgen_gold",
		readGate,
		"rename " + top + " prefixgen_gate",
		"proc",
	}
	lines = append(lines, prep...)
	lines = append(lines,
		"async2sync",
		"miter -equiv -flatten prefixgen_gold prefixgen_gate prefixgen_miter",
		"hierarchy -top prefixgen_miter",
		"flatten",
		"techmap",
		"opt -fast",
		"dffunmap",
		"setundef -zero -init",
		"aigmap",
		"write_aiger -zinit miter.aig",
		"",
	)
	if files == nil {
		files = map[string]string{}
	}
	files["miter.ys"] = strings.Join(lines, "\n")
	if _, err := r.yosysRun(ctx, dir, files, "miter.ys", false); err != nil {
		return false, err
	}
	verdict, frame, err := r.dprove(ctx, dir)
	if err != nil || verdict == "equivalent" {
		return err == nil, err
	}
	against := "Yosys's own mapping"
	if what != "" {
		against = "the design as written (" + what + ")"
	}
	how := "ABC's dprove cannot decide"
	if verdict == "not equivalent" {
		how = "ABC's dprove finds an input where they differ"
		if frame != "" {
			how += " " + frame + " cycles after the registers start at 0"
		}
	}
	return false, fmt.Errorf("designmap: check: not proven equal to %s: %s", against, how)
}

// dprove runs ABC's dprove on dir's miter.aig and returns its verdict
// (equivalent, not equivalent or undecided) and, where it found them
// different, the cycle it found.
func (r *run) dprove(ctx context.Context, dir string) (verdict, frame string, err error) {
	if r.abc == "" {
		if r.abc, err = lookPath("yosys-abc"); err != nil {
			return "", "", err
		}
	}
	res, err := toolrun.Run(ctx, toolrun.Cmd{Path: r.abc, Args: []string{"-c", "read_aiger miter.aig; dprove"}, Dir: dir, Timeout: r.opt.timeout()})
	out := ""
	if res != nil {
		out = string(res.Output)
	}
	if werr := os.WriteFile(filepath.Join(dir, "dprove.log"), []byte(out), 0o644); werr != nil {
		return "", "", werr
	}
	if err != nil {
		if _, exited := errors.AsType[*toolrun.ExitError](err); !exited {
			return "", "", fmt.Errorf("designmap: %w", err)
		}
	}
	return dproveVerdict(out)
}

// dproveVerdict reads dprove's verdict from what it printed, and the cycle
// (frame) of the first difference where it says.
func dproveVerdict(out string) (verdict, frame string, err error) {
	if f := abcFrame.FindStringSubmatch(out); f != nil {
		frame = f[1]
	}
	if v := abcVerdict.FindStringSubmatch(out); v != nil {
		return strings.ToLower(v[1]), frame, nil
	}
	// Without registers dprove runs a combinational check, which says
	// whether the miter's output can rise.
	if v := cecVerdict.FindStringSubmatch(out); v != nil {
		return map[string]string{"UNSATISFIABLE": "equivalent", "SATISFIABLE": "not equivalent", "UNDECIDED": "undecided"}[v[1]], "", nil
	}
	return "", "", fmt.Errorf("designmap: abc's dprove printed no verdict: %s", toolrun.OneLine(toolrun.LastLine(out)))
}

var (
	// abcVerdict matches dprove's verdict on a miter with registers.
	abcVerdict = regexp.MustCompile(`(?i)Networks are (not equivalent|equivalent|undecided)`)
	// abcFrame matches the cycle of a difference dprove found.
	abcFrame = regexp.MustCompile(`was asserted in frame (\d+)`)
	// cecVerdict matches it on one without.
	cecVerdict = regexp.MustCompile(`(?m)^(UNSATISFIABLE|SATISFIABLE|UNDECIDED)\b`)
)
