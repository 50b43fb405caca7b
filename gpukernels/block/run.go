package block

import (
	"fmt"

	"github.com/prefixgen/prefixgen/simulate"
)

// Run emulates the program over the monoid m on the inputs in and returns
// the prefixes it leaves in the output slots. Every slot starts as
// m.Identity(); column j's input is loaded into Inputs[j]. Each round runs
// as a block runs it between two barriers: thread t takes cells t,
// t + Threads, … of the round, and since the threads run in any order, Run
// reads every operand of the round before writing any result, after checking
// that no cell reads a slot another cell of the round writes and no two
// cells write one slot. A program that breaks that rule has a race, and Run
// returns an error naming the round and the slot instead of a result.
func Run[T any](p *Program, m simulate.Monoid[T], in []T) ([]T, error) {
	if len(in) != p.Width {
		return nil, fmt.Errorf("block: %d inputs to a width-%d program", len(in), p.Width)
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	mem := make([]T, p.ArrayLen())
	for i := range mem {
		mem[i] = m.Identity()
	}
	for j, s := range p.Inputs {
		mem[p.Index(s)] = in[j]
	}
	var vals []T
	for _, round := range p.Rounds {
		vals = vals[:0]
		for _, c := range round {
			vals = append(vals, m.Combine(mem[p.Index(c.Lo)], mem[p.Index(c.Hi)]))
		}
		for i, c := range round {
			mem[p.Index(c.Out)] = vals[i]
		}
	}
	out := make([]T, p.Width)
	for i, s := range p.Outputs {
		out[i] = mem[p.Index(s)]
	}
	return out, nil
}

// Check reports the first race of the program, if it has one: a slot that
// one cell of a round writes and another cell of the same round reads or
// writes, or a slot out of range. A program from Lower has none.
func (p *Program) Check() error {
	inRange := func(s int) bool { return s >= 0 && s < p.Slots }
	for _, s := range append(append([]int{}, p.Inputs...), p.Outputs...) {
		if !inRange(s) {
			return fmt.Errorf("block: slot %d out of range: the program has %d", s, p.Slots)
		}
	}
	writer := map[int]int{}
	for r, round := range p.Rounds {
		clear(writer)
		for i, c := range round {
			for _, s := range []int{c.Lo, c.Hi, c.Out} {
				if !inRange(s) {
					return fmt.Errorf("block: round %d cell %d: slot %d out of range: the program has %d", r+1, i, s, p.Slots)
				}
			}
			if w, ok := writer[c.Out]; ok {
				return fmt.Errorf("block: race in round %d: cells %d and %d both write slot %d", r+1, w, i, c.Out)
			}
			writer[c.Out] = i
		}
		for i, c := range round {
			for _, s := range []int{c.Lo, c.Hi} {
				if w, ok := writer[s]; ok && w != i {
					return fmt.Errorf("block: race in round %d: cell %d reads slot %d, which cell %d writes", r+1, i, s, w)
				}
			}
		}
	}
	return nil
}

// RunExclusive emulates the exclusive block scan with an initial value
// over one item per column: Run's prefixes shifted up one column and
// combined after initial (initial for column 0), each column's result
// passed through restart with its input and initial, as the kernel's
// detail::RestartHead does. restart is nil for a scan without segments,
// and RestartSegment for simulate.Segmented.
func RunExclusive[T any](p *Program, m simulate.Monoid[T], in []T, initial T, restart func(exclusive, item, initial T) T) ([]T, error) {
	inclusive, err := Run(p, m, in)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(in))
	for i := range out {
		out[i] = initial
		if i > 0 {
			out[i] = m.Combine(initial, inclusive[i-1])
		}
		if restart != nil {
			out[i] = restart(out[i], in[i], initial)
		}
	}
	return out, nil
}

// RestartSegment is the restart of an exclusive scan over
// simulate.Segmented, as the kernels' detail::RestartHead makes it: an
// item that starts a segment gets initial's value with the head flag set,
// since the scan restarts there (Thrust's exclusive_scan_by_key gives the
// same: add over [1, 2, 3, 4] with heads at 0 and 2 gives [0, 1, 0, 3], not
// the previous segment's running value, [0, 1, 3, 3]); any other item
// keeps exclusive. With a non-identity initial value, only the first
// segment and every head see it: the items after a head continue from the
// head's input, as the segmented lift combines them.
func RestartSegment[T any](exclusive, item, initial simulate.Seg[T]) simulate.Seg[T] {
	if item.Head {
		return simulate.Seg[T]{Head: true, Value: initial.Value}
	}
	return exclusive
}
