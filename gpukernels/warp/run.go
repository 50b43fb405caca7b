package warp

import (
	"fmt"

	"github.com/prefixgen/prefixgen/simulate"
)

// Run emulates the program on a warp of 32 lanes over the monoid m and
// returns the values of lanes 0 … Width−1 in register 0 at the end: the
// prefixes of in for a program lowered from a correct network.
//
// Lane i < Width starts with in[i] in register 0; lanes from Width up, and
// every spare register of every lane, start with m.Identity(). Each step
// runs as Step describes: its copies, then the shuffle, in which every lane
// reads register FromReg of lane Source(lane) as CUDA's shuffles do (a lane
// below D of an SrcUp step reads its own value; a table lane is taken
// modulo 32), then the combine, r[ToReg] = m.Combine(shuffled, r[HiReg]) on
// the lanes where Fires holds. Source and Fires are the closed forms, not
// the tables, so that a run checks the forms a kernel would execute. The
// Final copies run last.
//
// Run panics if len(in) is not the program's width: that is a programming
// error.
func Run[T any](p *Program, m simulate.Monoid[T], in []T) []T {
	if len(in) != p.Width {
		panic(fmt.Sprintf("warp: Run of a width-%d program on %d inputs", p.Width, len(in)))
	}
	id := m.Identity()
	regs := make([][Lanes]T, p.Registers)
	for r := range regs {
		for lane := range Lanes {
			regs[r][lane] = id
		}
	}
	copy(regs[0][:], in)
	copies := func(cs []Copy) {
		for _, c := range cs {
			for lane := range Lanes {
				if c.Mask>>uint(lane)&1 == 1 {
					regs[c.To][lane] = regs[c.From][lane]
				}
			}
		}
	}
	for i := range p.Steps {
		s := &p.Steps[i]
		copies(s.Copies)
		var shuffled [Lanes]T
		for lane := range Lanes {
			shuffled[lane] = regs[s.FromReg][s.Source(lane)]
		}
		for lane := range Lanes {
			if s.Fires(lane) {
				regs[s.ToReg][lane] = m.Combine(shuffled[lane], regs[s.HiReg][lane])
			}
		}
	}
	copies(p.Final)
	out := make([]T, p.Width)
	copy(out, regs[0][:p.Width])
	return out
}

// RunExclusive emulates WarpExclusiveScan with an initial value on the
// program over the monoid m: Run's inclusive scan shifted up one lane and
// combined after initial (initial on lane 0), each lane's result passed
// through restart with its input and initial, as the kernel's
// detail::RestartHead does. restart is nil for a scan without segments;
// for simulate.Segmented it is block.RestartSegment, which gives an item
// that starts a segment initial: for add over [1, 2, 3, 4] with heads at 0
// and 2, [0, 1, 0, 3].
//
// RunExclusive panics as Run does.
func RunExclusive[T any](p *Program, m simulate.Monoid[T], in []T, initial T, restart func(exclusive, item, initial T) T) []T {
	inclusive := Run(p, m, in)
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
	return out
}
