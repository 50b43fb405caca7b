package designmap

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// equivCounts matches equiv_status's count of proven and unproven cells.
var equivCounts = regexp.MustCompile(`Of those cells (\d+) are proven and (\d+) are unproven`)

// check proves the design with choice c's networks equal to the design
// with Yosys's own, as generic gates, by Yosys's sequential equivalence:
// the registers and the adders' inputs and outputs pair by name (rename
// -hide first hides the names Yosys made up, so that they do not pair
// wrong), equiv_simple proves each pair from the pairs before it, and
// equiv_induct what needs an induction over the registers. It returns an
// error naming what is not proven.
func (r *run) check(ctx context.Context, c choice) (bool, error) {
	gold, err := r.generic(ctx, yosysChoice())
	if err != nil {
		return false, err
	}
	gate, err := r.generic(ctx, c)
	if err != nil {
		return false, err
	}
	return r.equivalent(ctx, gold, gate)
}

// equivalent proves gate equal to gold, two generic netlists of the top.
func (r *run) equivalent(ctx context.Context, gold, gate []byte) (bool, error) {
	dir, err := r.subdir("check")
	if err != nil {
		return false, err
	}
	top := r.opt.Top
	script := strings.Join([]string{
		"read_verilog gold.v",
		"rename " + top + " prefixgen_gold",
		"read_verilog gate.v",
		"rename " + top + " prefixgen_gate",
		"proc",
		"rename -hide w:_*_",
		"async2sync",
		"equiv_make prefixgen_gold prefixgen_gate prefixgen_equiv",
		"hierarchy -top prefixgen_equiv",
		"equiv_simple -seq 2",
		"equiv_induct -seq 2",
		"tee -q -o status.txt equiv_status",
		"",
	}, "\n")
	files := map[string]string{"check.ys": script, "gold.v": string(gold), "gate.v": string(gate)}
	if _, err := r.yosysRun(ctx, dir, files, "check.ys", false); err != nil {
		return false, err
	}
	status, err := os.ReadFile(filepath.Join(dir, "status.txt"))
	if err != nil {
		return false, fmt.Errorf("designmap: yosys wrote no equivalence status: %w", err)
	}
	if strings.Contains(string(status), "Equivalence successfully proven!") {
		return true, nil
	}
	if m := equivCounts.FindStringSubmatch(string(status)); m != nil {
		return false, fmt.Errorf("designmap: check: %s of the %s and %s pairs of signals not proven equal to Yosys's own mapping", m[2], m[1], m[2])
	}
	return false, fmt.Errorf("designmap: check: yosys's equiv_status says neither proven nor how many are not")
}
