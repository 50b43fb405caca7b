package warp

import (
	"fmt"
	"math/bits"
	"strings"
)

// Lanes is the number of lanes of a warp, and the widest network Lower
// accepts.
const Lanes = 32

// SrcKind names the closed form of a step's source-lane function.
type SrcKind int

const (
	// SrcTable is the fallback: lane reads lane SrcTable[lane], as
	// __shfl_sync(mask, r, src) with src set by a few selects or computed
	// from bit planes of 32-bit immediates (LaneExpr), never read from
	// memory.
	SrcTable SrcKind = iota
	// SrcUp reads lane − D, as __shfl_up_sync(mask, r, D); a lane below D
	// gets its own value back and is never active.
	SrcUp
	// SrcBroadcast reads lane (lane &^ (2D−1)) | (D−1): the last lane of the
	// lower half of the lane's block of 2D lanes, as
	// __shfl_sync(mask, r, D−1, 2D), a shuffle within segments of width 2D.
	// It is Sklansky's pattern, and Brent–Kung's up-sweep.
	SrcBroadcast
)

// Src is the closed form of a step's source-lane function: which lane each
// lane's shuffle reads.
type Src struct {
	// Kind is the form.
	Kind SrcKind
	// D is the distance of SrcUp and the half block of SrcBroadcast (a power
	// of two); it is 0 for SrcTable.
	D int
}

// String returns the form as "up 4", "bcast 4" or "table".
func (s Src) String() string {
	switch s.Kind {
	case SrcUp:
		return fmt.Sprintf("up %d", s.D)
	case SrcBroadcast:
		return fmt.Sprintf("bcast %d", s.D)
	default:
		return "table"
	}
}

// lane returns the lane the closed form reads for lane, with CUDA's shuffle
// semantics; the table is used by SrcTable only.
func (s Src) lane(lane int, table *[Lanes]int) int {
	switch s.Kind {
	case SrcUp:
		// __shfl_up_sync: a lane below D keeps its own value.
		if lane < s.D {
			return lane
		}
		return lane - s.D
	case SrcBroadcast:
		// __shfl_sync(mask, r, D−1, 2D): srcLane D−1 within the lane's
		// segment of 2D lanes.
		w := 2 * s.D
		return lane/w*w + (s.D-1)%w
	default:
		// __shfl_sync takes srcLane modulo the warp size.
		return table[lane] & (Lanes - 1)
	}
}

// PredKind names the closed form of a step's predicate: which lanes combine.
type PredKind int

const (
	// PredMask is the fallback: lane combines when (Active >> lane) & 1 is
	// set.
	PredMask PredKind = iota
	// PredRange holds for From ≤ lane < To.
	PredRange
	// PredBit holds when lane & Bit ≠ 0 and From ≤ lane < To: Sklansky's
	// upper half of every block of 2·Bit lanes.
	PredBit
	// PredMod holds when lane % Mod = Rem and From ≤ lane < To, such as
	// Han–Carlson's last level, on the even columns.
	PredMod
)

// Pred is the closed form of a step's predicate. Every form but PredMask
// is bounded by From ≤ lane < To; a bound that constrains nothing is 0 or
// Lanes.
type Pred struct {
	// Kind is the form.
	Kind PredKind
	// Bit is the lane bit PredBit tests, a power of two.
	Bit int
	// Mod and Rem are the modulus and the residue of PredMod.
	Mod, Rem int
	// From and To bound the lanes of every form but PredMask.
	From, To int
}

// holds reports whether the closed form holds for lane; the mask is used by
// PredMask only.
func (p Pred) holds(lane int, mask uint32) bool {
	switch p.Kind {
	case PredRange:
		return p.From <= lane && lane < p.To
	case PredBit:
		return lane&p.Bit != 0 && p.From <= lane && lane < p.To
	case PredMod:
		return lane%p.Mod == p.Rem && p.From <= lane && lane < p.To
	default:
		return mask>>uint(lane)&1 == 1
	}
}

// String returns the predicate as a condition on lane, such as
// "lane in [1,8)", "lane & 2 != 0" or "lane % 4 == 3 && lane >= 7", and
// "mask" for PredMask, whose mask is the step's Active.
func (p Pred) String() string {
	switch p.Kind {
	case PredRange:
		if p.From == 0 && p.To == Lanes {
			return "every lane"
		}
		return strings.TrimPrefix(bounds(p.From, p.To), " && ")
	case PredBit:
		return fmt.Sprintf("lane & %d != 0%s", p.Bit, bounds(p.From, p.To))
	case PredMod:
		return fmt.Sprintf("lane %% %d == %d%s", p.Mod, p.Rem, bounds(p.From, p.To))
	default:
		return "mask"
	}
}

// bounds writes the bounds From ≤ lane < To that constrain something, each
// preceded by " && ".
func bounds(from, to int) string {
	switch {
	case from > 0 && to < Lanes:
		return fmt.Sprintf(" && lane in [%d,%d)", from, to)
	case from > 0:
		return fmt.Sprintf(" && lane >= %d", from)
	case to < Lanes:
		return fmt.Sprintf(" && lane < %d", to)
	}
	return ""
}

// Copy copies register From into register To on the lanes of Mask, all at
// once.
type Copy struct {
	// From and To are the registers read and written.
	From, To int
	// Mask has bit lane set for every lane that copies.
	Mask uint32
}

// String returns the copy as "r1 = r0 on mask 0x00000008".
func (c Copy) String() string {
	return fmt.Sprintf("r%d = r%d on mask 0x%08x", c.To, c.From, c.Mask)
}

// Step is one step of a warp program. Every lane of the warp runs it in
// lockstep, in three phases:
//
//  1. Copies, in order: each lane of a copy's mask copies a register into a
//     spare (Lower uses them to save a value about to be overwritten that
//     is still needed);
//  2. the shuffle: every lane, active or not, reads register FromReg of lane
//     Source(lane) — the lower span, the left operand;
//  3. the combine: each lane for which Fires holds sets
//     r[ToReg] = op(shuffled, r[HiReg]).
//
// SrcTable and Active record the step exactly, lane by lane; Src and Pred
// are the closed forms that compute them, equal on all 32 lanes. Lower
// fills SrcTable from Src on lanes that do not combine, so that the two
// always agree, and Src is SrcTable only where no closed form fits.
type Step struct {
	// Level is the level of the network (as soon as possible) whose cells
	// the step computes. One level gives one step unless its cells need
	// different registers or two of them share a column.
	Level int
	// Copies run before the shuffle.
	Copies []Copy
	// Src is the closed form of the source-lane function.
	Src Src
	// SrcTable[lane] is the lane whose register FromReg lane reads.
	SrcTable [Lanes]int
	// FromReg is the register every lane offers to the shuffle.
	FromReg int
	// Pred is the closed form of the predicate.
	Pred Pred
	// Active has bit lane set when lane combines. It is never 0, and
	// only lanes below the program's width are ever set.
	Active uint32
	// HiReg is the register holding the higher span, the right operand, on
	// the active lanes.
	HiReg int
	// ToReg is the register the combine writes. Lower always writes
	// register 0, so that register 0 holds every lane's newest value.
	ToReg int
}

// Source returns the lane whose register FromReg lane reads, as the closed
// form Src computes it with CUDA's shuffle semantics.
func (s *Step) Source(lane int) int { return s.Src.lane(lane, &s.SrcTable) }

// Fires reports whether lane combines, as the closed form Pred computes it.
func (s *Step) Fires(lane int) bool { return s.Pred.holds(lane, s.Active) }

// Combines returns the number of lanes that combine.
func (s *Step) Combines() int { return bits.OnesCount32(s.Active) }

// String describes the step on one line (its copies on lines of their own
// before it), such as
//
//	r0 = op(shfl(r0, up 2), r0) on lane in [2,8)
//
// A table source lists the lanes read by all 32 lanes (Program.String
// lists those below the width); a mask predicate is written as its mask.
func (s *Step) String() string { return s.Describe(Lanes) }

// Describe describes the step as String does, but lists a table source
// for the first width lanes only, as Program.String and the comments of
// the generated CUDA do.
func (s *Step) Describe(width int) string {
	var b strings.Builder
	for _, c := range s.Copies {
		fmt.Fprintf(&b, "save %v\n", c)
	}
	src := s.Src.String()
	if s.Src.Kind == SrcTable {
		src = fmt.Sprint(s.SrcTable[:width])
		src = "table " + src
	}
	pred := s.Pred.String()
	if s.Pred.Kind == PredMask {
		pred = fmt.Sprintf("mask 0x%08x", s.Active)
	}
	fmt.Fprintf(&b, "r%d = op(shfl(r%d, %s), r%d) on %s", s.ToReg, s.FromReg, src, s.HiReg, pred)
	return b.String()
}

// Program is a prefix network lowered to a warp program: Steps run in
// order by the 32 lanes of a warp, lane i holding column i's running value
// in register 0. Lanes from Width up hold values no result reads. Programs
// come from Lower: Run and the emitters read one Lower made, and the zero
// Program is not one.
type Program struct {
	// Width is the width of the network, 1 to 32.
	Width int
	// Registers is the number of registers each lane holds: register 0,
	// the running value v, and Registers − 1 spares.
	Registers int
	// Steps are the steps, in order.
	Steps []Step
	// Final are the copies run after the last step, so that register 0 of
	// lane i holds output i. Lower emits them only for networks that leave
	// an output in a spare register.
	Final []Copy
}

// Combines returns the number of combines the program makes over lanes
// 0 … Width−1: the size of the network it was lowered from.
func (p *Program) Combines() int {
	c := 0
	for i := range p.Steps {
		c += p.Steps[i].Combines()
	}
	return c
}

// String describes the program, one line per step and per copy, the same
// way every time:
//
//	warp program: width 4, 2 steps, 1 register
//	step 1 (level 1): r0 = op(shfl(r0, up 1), r0) on lane in [1,4)
//	step 2 (level 2): r0 = op(shfl(r0, up 2), r0) on lane in [2,4)
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "warp program: width %d, %d %s, %d %s\n",
		p.Width, len(p.Steps), plural(len(p.Steps), "step"), p.Registers, plural(p.Registers, "register"))
	for i := range p.Steps {
		s := &p.Steps[i]
		for _, c := range s.Copies {
			fmt.Fprintf(&b, "step %d (level %d): save %v\n", i+1, s.Level, c)
		}
		t := *s
		t.Copies = nil
		fmt.Fprintf(&b, "step %d (level %d): %s\n", i+1, s.Level, t.Describe(p.Width))
	}
	for _, c := range p.Final {
		fmt.Fprintf(&b, "final: %v\n", c)
	}
	return b.String()
}

// plural returns word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
