package adder_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// faCells are full adders of both kinds: ASAP7's FAx1, whose outputs are
// complements, and Nangate45's FA_X1, whose are not.
var faCells = []adder.Cells{
	{FA: adder.FullAdder{Cell: adder.Cell{Name: "FAx1_ASAP7_75t_R", Inputs: []string{"A", "B", "CI"}, Output: "CON"}, Sum: "SN", Inverted: true}},
	{FA: adder.FullAdder{Cell: adder.Cell{Name: "FA_X1", Inputs: []string{"A", "B", "CI"}, Output: "CO"}, Sum: "S"}},
}

// carrySelect builds topologies.CarrySelect's network.
func carrySelect(t testing.TB, n int, segments ...int) *network.Network {
	t.Helper()
	net, err := topologies.CarrySelect(n, segments...)
	require.NoError(t, err)
	return net
}

// Every network, with full adders of either polarity, with and without a
// carry-in, with any flags, computes what math/big computes.
func TestFullAdderCellsCompute(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	type named struct {
		name string
		net  *network.Network
	}
	var nets []named
	for _, n := range []int{1, 2, 3, 5, 8, 13} {
		for _, topo := range []string{"ripple", "sklansky", "brent-kung", "kogge-stone", "han-carlson", "ladner-fischer", "knowles", "zero-deficiency"} {
			nets = append(nets, named{fmt.Sprintf("%s/%d", topo, n), build(t, topo, n)})
		}
		for _, segs := range [][]int{{n}, {n - n/2, n / 2}, {n - 2*(n/3), n / 3, n / 3}, {1, n - 1}} {
			var ok []int
			for _, l := range segs {
				if l > 0 {
					ok = append(ok, l)
				}
			}
			nets = append(nets, named{fmt.Sprintf("carry-select%v", ok), carrySelect(t, n, ok...)})
		}
	}
	for _, nn := range nets {
		for i, cells := range faCells {
			for trial := range 3 {
				arch := adder.Architecture{FACells: true, Flags: adder.Flags(rng.IntN(16)), NoCarryIn: trial == 2}
				t.Run(fmt.Sprintf("%s/%s/%+v", nn.name, cells.FA.Name, arch), func(t *testing.T) {
					d, err := adder.Describe(nn.net, arch, &faCells[i])
					require.NoError(t, err)
					checkDescription(t, d, rng, 48)
				})
			}
		}
	}
}

// A sparse adder of full-adder cells, of every network, sparseness,
// polarity, carry-in and flags, with carry-select blocks and with
// carry-increment blocks, computes what math/big computes.
func TestFullAdderCellsSparseCompute(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	for _, n := range []int{2, 5, 8, 13, 16} {
		for _, topo := range []string{"ripple", "sklansky", "brent-kung", "kogge-stone", "han-carlson", "zero-deficiency"} {
			net := build(t, topo, n)
			for _, s := range adder.Sparseness[1:] {
				if s > n {
					continue
				}
				for i := range faCells {
					for trial := range 6 {
						arch := adder.Architecture{FACells: true, Sparse: s, Flags: adder.Flags(rng.IntN(16)), NoCarryIn: trial%3 == 2, Increment: trial >= 3}
						t.Run(fmt.Sprintf("%s/%d/%s/%+v", topo, n, faCells[i].FA.Name, arch), func(t *testing.T) {
							d, err := adder.Describe(net, arch, &faCells[i])
							require.NoError(t, err)
							checkDescription(t, d, rng, 48)
						})
					}
				}
			}
		}
	}
}

// A sparse adder of full-adder cells beside a tree of Ling's carries, of
// library cells for the generate and propagate, of both, or of gates of
// three and four inputs, with carry-select or carry-increment blocks,
// computes what math/big computes.
func TestFullAdderCellsSparseWithOptions(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	for _, n := range []int{5, 16} {
		nets := map[string]*network.Network{}
		for _, topo := range []string{"ripple", "sklansky", "brent-kung", "han-carlson", "zero-deficiency"} {
			nets[topo] = build(t, topo, n)
		}
		for _, topo := range topologies.ValencyFamilies {
			for k := 3; k <= adder.MaxValency; k++ {
				net, err := topologies.Valency(topo, n, k)
				require.NoError(t, err)
				nets[fmt.Sprintf("%s v=%d", topo, k)] = net
			}
		}
		for _, name := range slices.Sorted(maps.Keys(nets)) {
			net := nets[name]
			for _, s := range adder.Sparseness[1:] {
				if s > n {
					continue
				}
				for i, opt := range []struct{ ling, pg bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
					// Either polarity of full adder, by turns.
					cells := faCells[(i+s)%len(faCells)]
					cells.NAND2 = adder.Cell{Name: "NAND2", Inputs: []string{"A", "B"}, Output: "Y"}
					cells.OAI21 = adder.Cell{Name: "OAI21", Inputs: []string{"A", "B", "C"}, Output: "Y"}
					arch := adder.Architecture{FACells: true, Sparse: s, Valency: topologies.ValencyOf(net), Ling: opt.ling, PGCells: opt.pg,
						Flags: adder.Flags(rng.IntN(16)), NoCarryIn: rng.IntN(3) == 0, Increment: rng.IntN(2) == 0}
					t.Run(fmt.Sprintf("%s/%d/%s/%+v", name, n, cells.FA.Name, arch), func(t *testing.T) {
						d, err := adder.Describe(net, arch, &cells)
						require.NoError(t, err)
						assert.Positive(t, d.FullAdders)
						checkDescription(t, d, rng, 48)
					})
				}
			}
		}
	}
}

// Beside full adders in a sparse adder's blocks, a bit's generate and
// propagate are library cells only where something reads them: without a
// carry out, the bits above the top block's lowest feed its full adders
// alone.
func TestFullAdderCellsSparseReadLeaves(t *testing.T) {
	net := build(t, "sklansky", 16)
	cells := faCells[0]
	cells.NAND2 = adder.Cell{Name: "NAND2", Inputs: []string{"A", "B"}, Output: "Y"}
	cells.OAI21 = adder.Cell{Name: "OAI21", Inputs: []string{"A", "B", "C"}, Output: "Y"}
	for _, tt := range []struct {
		flags adder.Flags
		want  int
	}{{adder.Carry, 16}, {0, 13}} {
		d, err := adder.Describe(net, adder.Architecture{FACells: true, PGCells: true, Sparse: 4, Flags: tt.flags}, &cells)
		require.NoError(t, err)
		count := map[string]int{}
		for _, sec := range d.Sections {
			for _, a := range sec.Assigns {
				if a.Cell != nil {
					count[a.Cell.Name]++
				}
			}
		}
		assert.Equal(t, tt.want, count["NAND2"], "flags %v", tt.flags)
		assert.Equal(t, tt.want, count["OAI21"], "flags %v", tt.flags)
		checkDescription(t, d, rand.New(rand.NewPCG(1, 2)), 64)
	}
}

// A sparse adder's blocks ripple through full adders: every bit of a
// block but its lowest is a full adder in the lowest block and two in the
// others, where a multiplexer selects its sum; the tree is the network's
// logic.
func TestFullAdderCellsSparseStructure(t *testing.T) {
	for _, tt := range []struct {
		topo          string
		n, s          int
		adders, muxes int
	}{
		// Blocks 0–3, 4–7: bits 1–3 one each, bits 5–7 two each.
		{"kogge-stone", 8, 4, 3 + 2*3, 3},
		// Blocks of two: bit 1 one, bits 3, 5, 7 two each.
		{"sklansky", 8, 2, 1 + 2*3, 3},
		// Blocks 0–7, 8–12: bits 1–7 one each, bits 9–12 two each.
		{"brent-kung", 13, 8, 7 + 2*4, 4},
		// One block: a ripple of full adders above bit 0.
		{"ripple", 8, 8, 7, 0},
	} {
		plain, err := adder.Describe(build(t, tt.topo, tt.n), adder.Architecture{Sparse: tt.s, Flags: adder.Carry}, nil)
		require.NoError(t, err)
		d, err := adder.Describe(build(t, tt.topo, tt.n), adder.Architecture{FACells: true, Sparse: tt.s, Flags: adder.Carry}, &faCells[0])
		require.NoError(t, err)
		assert.Equal(t, tt.adders, d.FullAdders, tt.topo)
		assert.Equal(t, tt.muxes, d.Muxes, tt.topo)
		assert.Equal(t, plain.Cells, d.Cells, "%s: the tree is the plain adder's", tt.topo)
		assert.Equal(t, plain.Depth, d.Depth, tt.topo)
		instances := 0
		for _, sec := range d.Sections {
			for _, a := range sec.Assigns {
				if a.Cell != nil {
					instances++
					require.Equal(t, "FAx1_ASAP7_75t_R", a.Cell.Name)
				}
			}
		}
		assert.Equal(t, 2*tt.adders, instances, "a carry and a sum per full adder")
	}
}

// A carry-increment block has one full adder a bit, not two: its sums for
// a carry of 1 are an XOR of those for 0 and the block's propagate, and
// the multiplexers are the carry-select block's.
func TestFullAdderCellsIncrementStructure(t *testing.T) {
	for _, tt := range []struct {
		topo          string
		n, s          int
		adders, muxes int
	}{
		// Blocks 0–3, 4–7: bits 1–3 and 5–7 one each.
		{"kogge-stone", 8, 4, 3 + 3, 3},
		// Blocks of two: bits 1, 3, 5, 7 one each.
		{"sklansky", 8, 2, 4, 3},
		// Blocks 0–7, 8–12: bits 1–7 and 9–12 one each.
		{"brent-kung", 13, 8, 7 + 4, 4},
	} {
		net := build(t, tt.topo, tt.n)
		sel, err := adder.Describe(net, adder.Architecture{FACells: true, Sparse: tt.s, Flags: adder.Carry}, &faCells[0])
		require.NoError(t, err)
		d, err := adder.Describe(net, adder.Architecture{FACells: true, Sparse: tt.s, Flags: adder.Carry, Increment: true}, &faCells[0])
		require.NoError(t, err)
		assert.Equal(t, tt.adders, d.FullAdders, tt.topo)
		assert.Equal(t, tt.muxes, d.Muxes, tt.topo)
		assert.Equal(t, sel.Cells, d.Cells, "%s: the tree is the carry-select adder's", tt.topo)
		assert.Equal(t, sel.FullAdders-d.FullAdders, tt.muxes, "%s: a full adder fewer a multiplexer", tt.topo)
	}
}

// A ripple network of full-adder cells is a ripple of full adders and
// nothing else; a carry-select network's upper segment has two a bit, and
// the carry into it selects the sums.
func TestFullAdderCellsStructure(t *testing.T) {
	for _, tt := range []struct {
		net                 *network.Network
		cin                 bool
		adders, muxes, cell int
		black, gray         int // a cell whose span starts at bit 0 needs no propagate: gray
	}{
		{build(t, "ripple", 8), true, 8, 0, 7, 0, 7},
		{build(t, "ripple", 8), false, 7, 0, 7, 0, 7},
		// Bits 0–4 ripple (5), bits 6 and 7 have two each (4); bit 5 starts
		// the segment with its own generate and propagate.
		{carrySelect(t, 8, 5, 3), true, 9, 2, 9, 2, 7},
		// Sklansky: every odd bit joins the bit below it alone.
		{build(t, "sklansky", 8), true, 1 + 1 + 2*3, 3, 12, 5, 7},
	} {
		arch := adder.Architecture{FACells: true, Flags: adder.Carry, NoCarryIn: !tt.cin}
		d, err := adder.Describe(tt.net, arch, &faCells[1])
		require.NoError(t, err)
		assert.Equal(t, tt.adders, d.FullAdders, tt.net.Topology())
		assert.Equal(t, tt.muxes, d.Muxes, tt.net.Topology())
		assert.Equal(t, tt.cell, d.Cells, tt.net.Topology())
		assert.Equal(t, [2]int{tt.black, tt.gray}, [2]int{d.Black, d.Gray}, "%s: black and gray cells", tt.net.Topology())
		instances, plain := 0, 0
		for _, sec := range d.Sections {
			for _, a := range sec.Assigns {
				if a.Cell != nil {
					instances++
					require.Equal(t, "FA_X1", a.Cell.Name)
					require.NotEmpty(t, a.Instance)
				} else if strings.HasPrefix(a.Target.Name, "g") || strings.HasPrefix(a.Target.Name, "p") {
					plain++
				}
			}
		}
		assert.Equal(t, 2*tt.adders, instances, "a carry and a sum per full adder")
		if tt.net.Topology() == "ripple" && tt.cin {
			assert.Zero(t, plain, "a ripple of full adders has no generate or propagate of its own")
		}
	}
}

// What full adders do not apply to is refused with a line that says what
// is allowed.
func TestFullAdderCellsRefused(t *testing.T) {
	ks8 := build(t, "kogge-stone", 8)
	for _, tt := range []struct {
		arch adder.Architecture
		want string
	}{
		{adder.Architecture{FACells: true, Op: adder.Sub}, "--op add only"},
		{adder.Architecture{FACells: true, Valency: 3}, "allowed --valency 2, or --sparse 2, 4 or 8"},
		{adder.Architecture{FACells: true, Ling: true}, "allowed one of --fa-cells and --ling, or both with --sparse 2, 4 or 8"},
		{adder.Architecture{FACells: true, PGCells: true}, "allowed one of --fa-cells and --pg-cells, or both with --sparse 2, 4 or 8"},
		{adder.Architecture{FACells: true, Stages: 1}, "allowed without --stages"},
		{adder.Architecture{FACells: true, Sparse: 2, Ling: true, Stages: 1}, "allowed without --stages"},
		{adder.Architecture{FACells: true, Sparse: 4, Op: adder.Sub}, "--op add only"},
		{adder.Architecture{Increment: true, Sparse: 4}, "--increment applies to the carry-select blocks of full adders: allowed with --fa-cells and --sparse 2, 4 or 8"},
		{adder.Architecture{Increment: true, FACells: true}, "--increment applies to the carry-select blocks of full adders: allowed with --fa-cells and --sparse 2, 4 or 8"},
	} {
		_, err := adder.Describe(ks8, tt.arch, nil)
		require.Error(t, err, "%+v", tt.arch)
		assert.Contains(t, err.Error(), tt.want)
		assert.NotContains(t, err.Error(), "\n")
		_, err = adder.ParseArgs(append(tt.arch.Args(), "--fa-cells"))
		if err == nil {
			_, err = adder.ParseArgs(tt.arch.Args())
		}
		require.Error(t, err, "%v", tt.arch.Args())
	}
	bad := adder.Cells{FA: adder.FullAdder{Cell: adder.Cell{Name: "FA", Inputs: []string{"A", "B", "CI"}, Output: "CO"}, Sum: "CO"}}
	_, err := adder.Describe(ks8, adder.Architecture{FACells: true}, &bad)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "allowed a sum pin of its own")
}

// Two cells at one column and level (a network that copies a cell) are
// two wires of their own, and every wire is declared once.
func TestFullAdderCellsDistinctWires(t *testing.T) {
	b, err := network.NewBuilder(6)
	require.NoError(t, err)
	s6 := b.Add(0, 1)  // [1:0]
	s7 := b.Add(0, 1)  // [1:0] again, the output
	s8 := b.Add(s6, 2) // [2:0], bit 2 a full adder
	s9 := b.Add(s8, 3) // [3:0], bit 3 a full adder
	b.Add(s9, 4)       // [4:0]
	x := b.Add(4, 5)   // [5:4], bit 5 a full adder of a segment from 4
	b.Add(s9, x)       // [5:0]
	net, err := b.Build()
	require.NoError(t, err)
	require.Equal(t, s7, net.Output(1))
	for i := range faCells {
		d, err := adder.Describe(net, adder.Architecture{FACells: true, Flags: adder.Carry}, &faCells[i])
		require.NoError(t, err)
		declared := map[string]bool{}
		for _, sec := range d.Sections {
			for _, a := range sec.Assigns {
				if a.Declare {
					require.False(t, declared[a.Target.Name], "%s declared twice", a.Target.Name)
					declared[a.Target.Name] = true
				}
			}
		}
		checkDescription(t, d, rand.New(rand.NewPCG(1, 2)), 64)
	}
}
