package optimize

import "github.com/prefixgen/prefixgen/network"

// instance is one copy of a signal in limitFanout: an input, or a cell whose
// operands are instances too.
type instance struct {
	signal int
	lo, hi *instance
	id     int
}

// use is one read of a signal: operand slot 0 (Lo) or 1 (Hi) of a cell
// instance, or an output (reader nil).
type use struct {
	reader *instance
	slot   int
}

// limitFanout returns net with copies of cells added until no signal feeds
// more than fanout cells and outputs, or nil if an input feeds more, which
// copying cells cannot help. Copies keep their cell's operands, so the
// depth does not change; every copy adds one read to each operand, which the
// sweep, from the last signal to the first, then splits in turn.
func limitFanout(net *network.Network, fanout int) *network.Network {
	w, signals := net.Width(), net.Signals()
	uses := make([][]use, signals)
	first := make([]*instance, signals)
	for s := range signals {
		first[s] = &instance{signal: s}
	}
	for k := range net.Size() {
		c := net.Cell(k)
		r := first[w+k]
		uses[c.Lo] = append(uses[c.Lo], use{r, 0})
		uses[c.Hi] = append(uses[c.Hi], use{r, 1})
	}
	for i := range w {
		uses[net.Output(i)] = append(uses[net.Output(i)], use{nil, 2})
	}
	copies := make([][]*instance, signals)
	outputs := make([]*instance, w)
	for s := signals - 1; s >= 0; s-- {
		us := uses[s]
		if s < w && len(us) > fanout {
			return nil
		}
		insts := []*instance{first[s]}
		if s >= w {
			c := net.Cell(s - w)
			for g := 1; g*fanout < len(us); g++ {
				in := &instance{signal: s}
				insts = append(insts, in)
				uses[c.Lo] = append(uses[c.Lo], use{in, 0})
				uses[c.Hi] = append(uses[c.Hi], use{in, 1})
			}
		}
		for j, u := range us {
			in := insts[j/fanout]
			switch {
			case u.reader == nil:
				outputs[net.Span(s).To] = in
			case u.slot == 0:
				u.reader.lo = in
			default:
				u.reader.hi = in
			}
		}
		copies[s] = insts
	}
	// Number the instances in signal order, which is topological, and build.
	var cells []network.Cell
	next := 0
	for s := range signals {
		for _, in := range copies[s] {
			in.id = next
			next++
			if s >= w {
				cells = append(cells, network.Cell{Lo: in.lo.id, Hi: in.hi.id})
			}
		}
	}
	outs := make([]int, w)
	for i, in := range outputs {
		outs[i] = in.id
	}
	out, err := network.New(network.Spec{Width: w, Cells: cells, Outputs: outs})
	if err != nil {
		panic("optimize: limitFanout built an invalid network: " + err.Error())
	}
	return out
}
