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
