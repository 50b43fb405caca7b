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
// the registers and the adders' inputs and outputs pair by name (the
// probes generic keeps; rename -hide first hides the names Yosys made up,
// so that they do not pair wrong), equiv_simple proves each pair from the pairs before it, and
// equiv_induct what needs an induction over the registers. It returns an
// error naming what is not proven.
//
// A choice on the design with its chains of sums merged is proven equal
// to that design with Yosys's own networks, and the merged design equal
// to the design as written, both before alumacc (sums.json, merged.json),
// where each copy of a sum pairs with the sum it copies: the carry-save
// trees of different chains, bit by bit, are beyond equiv_simple.
func (r *run) check(ctx context.Context, c choice) (bool, error) {
	gold, err := r.generic(ctx, choice{design: c.design}, true)
	if err != nil {
		return false, err
	}
	gate, err := r.generic(ctx, c, true)
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
		"rename -hide w:_*_",
		"async2sync",
		"equiv_make prefixgen_gold prefixgen_gate prefixgen_equiv",
		"hierarchy -top prefixgen_equiv",
		"equiv_simple -seq 2",
		"equiv_induct -seq 2",
		"tee -q -o status.txt equiv_status",
		"",
	)
	if files == nil {
		files = map[string]string{}
	}
	files["check.ys"] = strings.Join(lines, "\n")
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
	against := "Yosys's own mapping"
	if what != "" {
		against = "the design as written (" + what + ")"
	}
	if m := equivCounts.FindStringSubmatch(string(status)); m != nil {
		return false, fmt.Errorf("designmap: check: %s of the %s and %s pairs of signals not proven equal to %s", m[2], m[1], m[2], against)
	}
	return false, fmt.Errorf("designmap: check: yosys's equiv_status says neither proven nor how many are not")
}
