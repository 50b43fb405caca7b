package physical

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
)

// MaxOrders is the most reorderings Options.Orders may ask for.
const MaxOrders = 100

// Spread is what a design's area and delay do when nothing but the order of
// its gates changes: the design as written and Orders reorderings of its
// generic netlist (see Options.Orders), the median, least and greatest of
// each figure over all of them.
type Spread struct {
	Orders                          int
	AreaMedian, AreaMin, AreaMax    float64
	DelayMedian, DelayMin, DelayMax float64
}

// genericScript is the Yosys script that writes a design's generic netlist:
// the gates synth maps it onto without ABC, one assign each; with cells,
// Yosys reads the library's cells first, and the netlist keeps the
// design's instances of them. read is the line that reads design.v
// (Design.readVerilog).
func genericScript(top string, cells bool, read string) string {
	lib := ""
	if cells {
		lib = "read_liberty -lib liberty.lib\n"
	}
	return fmt.Sprintf("%s%ssynth -flatten -top %s -noabc\nopt_clean\nwrite_verilog -noattr generic.v\n", lib, read, top)
}

// orders measures the design d, which run has measured as written in dir
// (r), again in opt.Orders reorderings of its generic netlist, each in a
// folder order-K of dir, and returns the spread of all of them. The caller
// holds a slot of sem, Run's jobs: the reorderings are measured at once,
// each in a slot of its own, the caller's given up while they run and
// taken again after. It calls step after each reordering it measures.
func (t *tools) orders(ctx context.Context, d *Design, dir string, opt Options, r *Result, sem chan struct{}, step func()) (*Spread, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("physical: %s: "+format, append([]any{d.Name()}, args...)...)
	}
	read, err := d.readVerilog(dir)
	if err != nil {
		return nil, fail("%w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "generic.ys"), []byte(genericScript(d.Top, d.outside || d.Adder.InstantiatesCells(), read)), 0o644); err != nil {
		return nil, fail("%w", err)
	}
	if err := os.Remove(filepath.Join(dir, "generic.v")); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fail("%w", err)
	}
	if out, err := t.invoke(ctx, dir, t.yosys, "-q", "-l", "generic.log", "-s", "generic.ys"); err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("physical: %w", ctx.Err())
		case unfinished(err):
			return nil, fail("%w", err)
		case yosysError(out) != "":
			return nil, &flowError{msg: fail("yosys failed to write the generic netlist: %s", yosysError(out)).Error(), err: err}
		}
		return nil, fail("writing the generic netlist: %w", err)
	}
	generic, err := os.ReadFile(filepath.Join(dir, "generic.v"))
	if err != nil {
		return nil, fail("yosys wrote no generic netlist: %w", unwrapPath(err))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]*Result, opt.Orders+1)
	errs := make([]error, opt.Orders+1)
	results[0] = r
	var wg sync.WaitGroup
	<-sem
	for k := 1; k <= opt.Orders; k++ {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := ctx.Err(); err != nil {
				errs[k] = fmt.Errorf("physical: %w", err)
				return
			}
			shuffled := *d
			shuffled.Verilog = ShuffleAssigns(generic, uint64(k))
			results[k], errs[k] = t.run(ctx, &shuffled, filepath.Join(dir, fmt.Sprintf("order-%d", k)), opt)
			if errs[k] != nil {
				cancel()
				return
			}
			step()
		})
	}
	wg.Wait()
	sem <- struct{}{}
	// The first order's error that is not another's stopping it.
	var first error
	for _, err := range errs {
		if err != nil && (first == nil || errors.Is(first, context.Canceled) && !errors.Is(err, context.Canceled)) {
			first = err
		}
	}
	if first != nil {
		return nil, first
	}
	return spreadOf(results), nil
}

// MedianAreaUM2 returns the area to compare the design by: the median over
// the orders of its gates when the flow measured them (Options.Orders),
// otherwise the area of the design as written.
func (r *Result) MedianAreaUM2() float64 {
	if r.Spread != nil {
		return r.Spread.AreaMedian
	}
	return r.AreaUM2
}

// MedianDelayNS is MedianAreaUM2 for the delay.
func (r *Result) MedianDelayNS() float64 {
	if r.Spread != nil {
		return r.Spread.DelayMedian
	}
	return r.DelayNS
}

// OrdersPhrase says how many orders a spread is over, as in "3 orders" or
// "1 order".
func OrdersPhrase(k int) string {
	if k == 1 {
		return "1 order"
	}
	return fmt.Sprintf("%d orders", k)
}

// spreadOf returns the spread of the results, the first the design as
// written.
func spreadOf(results []*Result) *Spread {
	area := make([]float64, len(results))
	delay := make([]float64, len(results))
	for i, r := range results {
		area[i], delay[i] = r.AreaUM2, r.DelayNS
	}
	s := &Spread{Orders: len(results) - 1}
	s.AreaMedian, s.AreaMin, s.AreaMax = medianMinMax(area)
	s.DelayMedian, s.DelayMin, s.DelayMax = medianMinMax(delay)
	return s
}

// medianMinMax returns the median (the mean of the middle two of an even
// number, to twelve significant digits, so that it is written with the
// digits of the figures it comes from and not with the rounding error of
// their sum), least and greatest of xs, which it sorts.
func medianMinMax(xs []float64) (median, least, greatest float64) {
	slices.Sort(xs)
	n := len(xs)
	median = xs[n/2]
	if n%2 == 0 {
		median, _ = strconv.ParseFloat(strconv.FormatFloat((xs[n/2-1]+xs[n/2])/2, 'g', 12, 64), 64)
	}
	return median, xs[0], xs[n-1]
}

// ShuffleAssigns returns the Verilog netlist src with its assign statements
// in an order drawn from seed: the statements that start with "assign" trade
// places among themselves, every other statement (the module header, the
// declarations) and endmodule keep theirs. The logic is the same; only the
// order in which tools meet the gates changes. It is meant for a netlist
// Yosys's write_verilog wrote, where statements end in ';' and no string or
// comment holds one.
func ShuffleAssigns(src []byte, seed uint64) []byte {
	parts := bytes.SplitAfter(src, []byte(";"))
	var at [][]byte
	var where []int
	for i, p := range parts {
		if bytes.HasPrefix(bytes.TrimSpace(p), []byte("assign")) {
			at = append(at, bytes.TrimLeft(p, " \t\r\n"))
			where = append(where, i)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x70726566697867)) // "prefixg"
	rng.Shuffle(len(at), func(i, j int) { at[i], at[j] = at[j], at[i] })
	var out bytes.Buffer
	next := 0
	for i, p := range parts {
		if next < len(where) && where[next] == i {
			out.WriteString("\n  ")
			out.Write(at[next])
			next++
			continue
		}
		out.Write(p)
	}
	return out.Bytes()
}
