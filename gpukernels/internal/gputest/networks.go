package gputest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// Lanes is the width of a warp: the widest network a warp program holds.
const Lanes = 32

// Topology is one network family of the registry with its parameters.
type Topology struct {
	Name   string
	Params network.Params
}

// String returns the family's name, with k for Ladner–Fischer's parameter.
func (t Topology) String() string {
	if t.Params == nil {
		return t.Name
	}
	return fmt.Sprintf("%s k=%d", t.Name, t.Params["k"])
}

// Families returns every topology of the registry with its defaults, and
// Ladner–Fischer also with k = 1 and 2.
func Families() []Topology {
	var ts []Topology
	for _, name := range topologies.Names() {
		ts = append(ts, Topology{Name: name})
	}
	for _, k := range []int{1, 2} {
		ts = append(ts, Topology{Name: "ladner-fischer", Params: network.Params{"k": k}})
	}
	return ts
}

// Widths are the widths every family is lowered at.
var Widths = []int{1, 2, 3, 4, 5, 8, 16, 31, 32}

// Build builds a registry topology.
func Build(t testing.TB, name string, w int, p network.Params) *network.Network {
	t.Helper()
	net, err := topologies.Build(name, w, p)
	require.NoError(t, err)
	return net
}

// EveryTopology builds every registry topology at width w.
func EveryTopology(t testing.TB, w int) []*network.Network {
	t.Helper()
	var nets []*network.Network
	for _, name := range topologies.Names() {
		nets = append(nets, Build(t, name, w, nil))
	}
	return nets
}

// LoOld is a width-7 network whose cell [2,6] reads [2,3] as its Lo
// operand after [0,3] has replaced it in lane 3, one level earlier.
func LoOld(t testing.TB) *network.Network {
	t.Helper()
	b, err := network.NewBuilder(7)
	require.NoError(t, err)
	s23 := b.Add(2, 3)      // level 1, lane 3
	s01 := b.Add(0, 1)      // level 1
	s03 := b.Add(s01, s23)  // level 2, replaces [2,3] in lane 3
	s56 := b.Add(5, 6)      // level 1
	s46 := b.Add(4, s56)    // level 2
	s26 := b.Add(s23, s46)  // level 3: reads the old [2,3]
	b.Add(s01, 2)           // [0,2]
	b.Add(s03, 4)           // [0,4]
	b.Add(s03, b.Add(4, 5)) // [0,5]
	b.Add(s01, s26)         // [0,6]
	net, err := b.Build()
	require.NoError(t, err)
	return net
}

// HiOld is a width-6 network with two level-2 cells in lane 3: [1,3]
// replaces [2,3], which [0,3] then still reads as its Hi operand.
func HiOld(t testing.TB) *network.Network {
	t.Helper()
	b, err := network.NewBuilder(6)
	require.NoError(t, err)
	s23 := b.Add(2, 3)                // level 1, lane 3
	s13 := b.Add(1, s23)              // level 2, lane 3
	s01 := b.Add(0, 1)                // level 1
	b.Add(s01, 2)                     // [0,2], level 2
	s03 := b.Add(s01, s23)            // level 2, lane 3: Hi is the old [2,3]
	b.Add(s03, 4)                     // [0,4]
	b.Add(0, b.Add(s13, b.Add(4, 5))) // [0,5] through [1,3]
	net, err := b.Build()
	require.NoError(t, err)
	return net
}

// RandomNetwork builds a valid network from bytes, or returns nil for no
// bytes: the first byte picks the width, 1 to 32; each later pair of bytes
// picks any signal built so far and a signal whose span begins right after
// it, and joins them. Every signal can be picked, however old, so that
// cells read values their column has long replaced. A ripple chain
// completes the positions without a prefix, and the cells that reach no
// output are left out.
func RandomNetwork(t testing.TB, data []byte) *network.Network {
	t.Helper()
	if len(data) == 0 {
		return nil
	}
	w := 1 + int(data[0])%Lanes
	data = data[1:]
	spans := make([]network.Span, w)
	for i := range spans {
		spans[i] = network.Span{From: i, To: i}
	}
	var cells []network.Cell
	add := func(lo, hi int) {
		cells = append(cells, network.Cell{Lo: lo, Hi: hi})
		spans = append(spans, network.Span{From: spans[lo].From, To: spans[hi].To})
	}
	const maxCells = 256
	for ; len(data) >= 2 && len(cells) < maxCells; data = data[2:] {
		lo := int(data[0]) % len(spans)
		var his []int
		for s, sp := range spans {
			if sp.From == spans[lo].To+1 {
				his = append(his, s)
			}
		}
		if len(his) > 0 {
			add(lo, his[int(data[1])%len(his)])
		}
	}
	outputs := make([]int, w)
	for i := range outputs {
		outputs[i] = -1
	}
	for s, sp := range spans {
		if sp.From == 0 {
			outputs[sp.To] = s // the latest one
		}
	}
	for i := 1; i < w; i++ {
		if outputs[i] < 0 {
			add(outputs[i-1], i)
			outputs[i] = len(spans) - 1
		}
	}
	// Keep the cells that reach an output, renumbered.
	live := make([]bool, len(spans))
	for _, s := range outputs {
		live[s] = true
	}
	for k := len(cells) - 1; k >= 0; k-- {
		if live[w+k] {
			live[cells[k].Lo] = true
			live[cells[k].Hi] = true
		}
	}
	renum := make([]int, len(spans))
	for i := range w {
		renum[i] = i
	}
	spec := network.Spec{Width: w, Outputs: make([]int, w)}
	for k, c := range cells {
		if live[w+k] {
			renum[w+k] = w + len(spec.Cells)
			spec.Cells = append(spec.Cells, network.Cell{Lo: renum[c.Lo], Hi: renum[c.Hi]})
		}
	}
	for i, s := range outputs {
		spec.Outputs[i] = renum[s]
	}
	net, err := network.New(spec)
	require.NoError(t, err)
	return net
}
