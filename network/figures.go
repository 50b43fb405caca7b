package network

import "slices"

// Figures are the measurements of a network, as the package documentation
// defines them.
type Figures struct {
	// Width is the number of inputs.
	Width int
	// Depth is the largest level of an output.
	Depth int
	// Size is the number of cells.
	Size int
	// MaxFanout is the largest logical fan-out of any signal: cells reading
	// it, plus one if it is an output.
	MaxFanout int
	// WireTracks is the largest number of distinct Lo wires that cross one
	// column boundary within one level.
	WireTracks int
	// LateralFanout is Harris's per-level fan-out: the largest number of
	// cells of one level that read one signal as their Lo operand, plus one
	// for the signal's own column; 0 for a network without cells.
	LateralFanout int
	// Deficiency is Size + Depth − (2·Width − 2); Snir proved it is never
	// negative.
	Deficiency int
	// FanoutHistogram[f] is the number of signals with fan-out f.
	FanoutHistogram []int
	// CellsPerLevel[l] is the number of cells at level l, for 0 ≤ l ≤ Depth;
	// CellsPerLevel[0] is always 0, since level 0 holds only the inputs.
	CellsPerLevel []int
}

// Figures measures the network.
func (n *Network) Figures() Figures {
	f := Figures{
		Width:         n.width,
		Depth:         n.depth,
		Size:          len(n.ops),
		Deficiency:    len(n.ops) + n.depth - (2*n.width - 2),
		CellsPerLevel: make([]int, n.depth+1),
	}
	for _, l := range n.levels {
		f.CellsPerLevel[l]++
	}
	fanout := n.fanouts()
	for _, c := range fanout {
		f.MaxFanout = max(f.MaxFanout, int(c))
	}
	f.FanoutHistogram = make([]int, f.MaxFanout+1)
	for _, c := range fanout {
		f.FanoutHistogram[c]++
	}
	f.WireTracks = n.wireTracks(f.CellsPerLevel)
	f.LateralFanout = n.lateralFanout()
	return f
}

// lateralFanout returns the largest number of cells of one level reading
// one signal as Lo, plus one, or 0 without cells.
func (n *Network) lateralFanout() int {
	if len(n.ops) == 0 {
		return 0
	}
	// One key per Lo read: the signal above, the reader's level below;
	// sorted, equal keys lie together.
	keys := make([]uint64, len(n.ops))
	for k, p := range n.ops {
		keys[k] = uint64(p.a)<<32 | uint64(n.levels[k])
	}
	slices.Sort(keys)
	best, run := 0, 0
	for i, key := range keys {
		if i > 0 && keys[i-1] == key {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	return best + 1
}

// Fanout returns the logical fan-out of signal s: the number of cells that
// read it, plus one if it is an output.
func (n *Network) Fanout(s int) int {
	c := 0
	for _, p := range n.ops {
		if int(p.a) == s {
			c++
		}
		if int(p.b) == s {
			c++
		}
	}
	if n.Output(n.Span(s).To) == s {
		c++
	}
	return c
}

// fanouts returns the fan-out of every signal.
func (n *Network) fanouts() []int32 {
	fanout := make([]int32, n.width+len(n.ops))
	for _, p := range n.ops {
		fanout[p.a]++
		fanout[p.b]++
	}
	for _, s := range n.outputs {
		fanout[s]++
	}
	return fanout
}

// WireTracksAt returns the wire tracks needed at level l alone: the largest
// number of distinct Lo wires of level-l cells that cross one column boundary.
func (n *Network) WireTracksAt(l int) int {
	var cells []int32
	for k, lv := range n.levels {
		if int(lv) == l {
			cells = append(cells, int32(k))
		}
	}
	return n.tracks(cells, &scratch{})
}

// wireTracks returns the largest wire-track count over all levels, visiting
// the cells level by level through a counting sort.
func (n *Network) wireTracks(perLevel []int) int {
	start := make([]int, len(perLevel)+1)
	for l, c := range perLevel {
		start[l+1] = start[l] + c
	}
	order := make([]int32, len(n.ops))
	next := slices.Clone(start[:len(perLevel)])
	for k, l := range n.levels {
		order[next[l]] = int32(k)
		next[l]++
	}
	// Sized for the widest level up front: growing them by appends would
	// allocate several times over for a million-cell network.
	most := 0
	for _, c := range perLevel {
		most = max(most, c)
	}
	sc := scratch{keys: make([]uint64, 0, most), events: make([]uint64, 0, 2*most)}
	best := 0
	for l := 1; l < len(perLevel); l++ {
		best = max(best, n.tracks(order[start[l]:start[l+1]], &sc))
	}
	return best
}

// scratch is the memory tracks reuses from one level to the next.
type scratch struct{ keys, events []uint64 }

// tracks returns the largest number of distinct Lo wires, read by the given
// cells, that cross one column boundary.
func (n *Network) tracks(cells []int32, sc *scratch) int {
	if len(cells) == 0 {
		return 0
	}
	keys := sc.keys[:0]
	// One key per reader: the Lo signal above, the reader's column below, so
	// that sorting groups the readers of one wire with the farthest last.
	for _, k := range cells {
		lo := n.ops[k].a
		keys = append(keys, uint64(lo)<<32|uint64(n.spans[k].b))
	}
	slices.Sort(keys)
	// Each distinct wire crosses the boundaries [c, far−1], where c is the
	// column its signal ends in and far the column of its farthest reader.
	// Turn them into +1 events at c and −1 events at far, and sweep.
	events := sc.events[:0]
	for i, key := range keys {
		if i+1 < len(keys) && keys[i+1]>>32 == key>>32 {
			continue
		}
		lo := int(key >> 32)
		far := uint64(uint32(key))
		events = append(events, uint64(n.Column(lo))<<1|1, far<<1)
	}
	// At equal positions a −1 (bit 0 clear) sorts before a +1: a wire that
	// ends at boundary far−1 and one that starts at boundary far do not meet.
	slices.Sort(events)
	best, cur := 0, 0
	for _, e := range events {
		if e&1 == 1 {
			cur++
			best = max(best, cur)
		} else {
			cur--
		}
	}
	sc.keys, sc.events = keys, events
	return best
}
