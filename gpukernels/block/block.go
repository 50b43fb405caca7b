package block

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/prefixgen/prefixgen/network"
)

// MinWidth and MaxWidth bound the widths Lower takes: narrower networks fit
// a warp (package gpukernels), and 2048 is two elements for each of the
// 1024 threads a block may have.
const (
	MinWidth = 2
	MaxWidth = 2048
)

// MaxThreads is the most threads a CUDA block may have.
const MaxThreads = 1024

// Cell is one prefix cell of a round: it writes op(slot Lo, slot Hi) into
// slot Out, the lower positions on the left.
type Cell struct {
	Lo, Hi, Out int
}

// Program is a network lowered onto shared memory.
type Program struct {
	// Width is the network's width, and Threads the block's threads.
	Width, Threads int
	// Slots is the number of values the shared array holds.
	Slots int
	// Pad says whether slot s is stored at s + s>>5 (see Index).
	Pad bool
	// Inputs[j] is the slot column j's input is loaded into, and
	// Outputs[i] the slot prefix i is read from at the end.
	Inputs, Outputs []int
	// Rounds[r] are the cells of level r+1, in the network's order.
	Rounds [][]Cell
}

// Options are the options of Lower.
type Options struct {
	// Threads is the number of threads of the block, 1 to 1024; 0 means one
	// thread for every two columns, ⌈Width/2⌉ rounded up to a whole warp.
	Threads int
	// NoPad turns off the bank-conflict-free padding.
	NoPad bool
}

// Lower lowers net onto the shared memory of one block. The width must be
// 2 to 2048.
func Lower(net *network.Network, opt Options) (*Program, error) {
	n := net.Width()
	if n < MinWidth || n > MaxWidth {
		return nil, fmt.Errorf("block: width %d out of range: a shared-memory block scan takes %d to %d (narrower networks fit a warp)", n, MinWidth, MaxWidth)
	}
	threads := opt.Threads
	if threads == 0 {
		threads = min(MaxThreads, ((n+1)/2+31)/32*32)
	}
	if threads < 1 || threads > MaxThreads {
		return nil, fmt.Errorf("block: %d threads out of range: allowed 1 to %d", threads, MaxThreads)
	}
	p := &Program{Width: n, Threads: threads, Pad: !opt.NoPad, Inputs: make([]int, n), Outputs: make([]int, n)}

	// For every signal: the level of its last reader, and the one cell that
	// reads it at that level, if only one does (-1 if several).
	signals := net.Signals()
	lastRead := make([]int, signals)
	lastReader := make([]int, signals)
	isOutput := make([]bool, signals)
	for _, s := range net.Outputs() {
		isOutput[s] = true
	}
	for s := range lastRead {
		lastRead[s], lastReader[s] = -1, -1
	}
	for k := range net.Size() {
		c := net.Cell(k)
		l := net.Level(net.CellSignal(k))
		for _, s := range []int{c.Lo, c.Hi} {
			switch {
			case l > lastRead[s]:
				lastRead[s], lastReader[s] = l, k
			case l == lastRead[s] && lastReader[s] != k:
				lastReader[s] = -1
			}
		}
	}

	// slotOf[s] is signal s's slot; holder[slot] the signal in it;
	// columnSlots[c] the slots column c has used, its home slot first.
	slotOf := make([]int, signals)
	holder := make([]int, n, 2*n)
	columnSlots := make([][]int, n)
	for j := range n {
		slotOf[j], holder[j] = j, j
		columnSlots[j] = []int{j}
		p.Inputs[j] = j
	}
	// Cells are placed round by round, in the network's order within a
	// round, which is the order the block runs them in.
	order := make([]int, net.Size())
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(net.Level(net.CellSignal(a)), net.Level(net.CellSignal(b)))
	})
	written := map[int]bool{} // slots written in the current round
	round := -1
	for _, k := range order {
		s := net.CellSignal(k)
		l := net.Level(s)
		for len(p.Rounds) < l {
			p.Rounds = append(p.Rounds, nil)
		}
		if l != round {
			round = l
			clear(written)
		}
		// A slot can take the cell's value when its signal is no output,
		// is read at no later level, and at this level only by this cell;
		// and no other cell of the round writes it.
		free := func(slot int) bool {
			u := holder[slot]
			return !written[slot] && !isOutput[u] && (lastRead[u] < l || lastRead[u] == l && lastReader[u] == k)
		}
		col := net.Span(s).To
		out := -1
		for _, slot := range columnSlots[col] {
			if free(slot) {
				out = slot
				break
			}
		}
		if out < 0 {
			out = len(holder)
			holder = append(holder, s)
			columnSlots[col] = append(columnSlots[col], out)
		}
		holder[out] = s
		slotOf[s] = out
		written[out] = true
		c := net.Cell(k)
		p.Rounds[l-1] = append(p.Rounds[l-1], Cell{Lo: slotOf[c.Lo], Hi: slotOf[c.Hi], Out: out})
	}
	for i, o := range net.Outputs() {
		p.Outputs[i] = slotOf[o]
	}
	p.Slots = len(holder)
	return p, nil
}

// Index returns the array index of slot s: s + s>>5 with padding, s
// without.
func (p *Program) Index(s int) int {
	if p.Pad {
		return s + s>>5
	}
	return s
}

// ArrayLen returns the length of the shared array, in values.
func (p *Program) ArrayLen() int {
	if p.Slots == 0 {
		return 0
	}
	return p.Index(p.Slots-1) + 1
}

// Cells returns the number of cells of all rounds.
func (p *Program) Cells() int {
	c := 0
	for _, r := range p.Rounds {
		c += len(r)
	}
	return c
}

// Barriers returns the number of __syncthreads() a block runs: one after
// the loads and one after every round.
func (p *Program) Barriers() int { return 1 + len(p.Rounds) }

// Banks is the number of shared-memory banks of every CUDA GPU since Fermi,
// each 4 bytes wide.
const Banks = 32

// Conflicts returns the extra shared-memory transactions of all rounds for
// 4-byte values: for every warp's turn at a round (32 consecutive threads,
// each taking one cell) and each of its three accesses (the Lo read, the Hi
// read, the write), the number of distinct indices that share the busiest
// bank, less one. Zero means the program never waits on a bank; padding
// brings Brent–Kung's strided accesses down toward it.
func (p *Program) Conflicts() int {
	extra := 0
	for _, round := range p.Rounds {
		// Threads take cells t, t + Threads, …: turn i of warp w is the
		// cells i·Threads + 32w … i·Threads + 32w + 31.
		for base := 0; base < len(round); base += p.Threads {
			for w := base; w < min(base+p.Threads, len(round)); w += 32 {
				group := round[w:min(w+32, base+p.Threads, len(round))]
				for access := range 3 {
					extra += p.ways(group, access) - 1
				}
			}
		}
	}
	return extra
}

// ways returns the number of distinct indices in the busiest bank of one
// access of a warp's cells.
func (p *Program) ways(group []Cell, access int) int {
	var seen [Banks]map[int]bool
	most := 0
	for _, c := range group {
		s := [3]int{c.Lo, c.Hi, c.Out}[access]
		i := p.Index(s)
		b := i % Banks
		if seen[b] == nil {
			seen[b] = map[int]bool{}
		}
		seen[b][i] = true
		most = max(most, len(seen[b]))
	}
	return most
}
