package delay_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

func build(t testing.TB, name string, n int, p network.Params) *network.Network {
	t.Helper()
	net, err := topologies.Build(name, n, p)
	require.NoError(t, err)
	return net
}

// TestTwoBits works the model out by hand on the 2-bit adder: one gray
// cell joining bit 0 (Lo) to bit 1 (Hi).
func TestTwoBits(t *testing.T) {
	lib := delay.OSU018
	net := build(t, "ripple", 2, nil)
	g0 := lib.Generate.Parasitic + lib.Generate.Drive*(lib.CellG.Pins[0]+lib.Sum.Pins[1]) // G_lo of the cell, carry into sum_1
	p0 := lib.Propagate.Parasitic + lib.Propagate.Drive*lib.Sum.Pins[0]
	g1 := lib.Generate.Parasitic + lib.Generate.Drive*lib.CellG.Pins[2]                     // G_hi
	p1 := lib.Propagate.Parasitic + lib.Propagate.Drive*(lib.CellG.Pins[1]+lib.Sum.Pins[0]) // P_hi, sum_1
	cell := max(g0, p1, g1) + lib.CellG.Parasitic + lib.CellG.Drive*lib.OutputLoad          // the carry-out
	out := lib.Sum.Parasitic + lib.Sum.Drive*lib.OutputLoad
	want := max(p0+out, max(p1, g0)+out, cell)

	r := lib.Analyze(net)
	assert.InDelta(t, want, r.Tau, 1e-9)
	assert.InDelta(t, want/lib.FO4, r.FO4, 1e-9)
	assert.InDelta(t, want*lib.TauNS, r.NS, 1e-12)
	assert.InDelta(t, 2*(lib.Generate.Area+lib.Propagate.Area+lib.Sum.Area)+lib.CellG.Area, r.Area, 1e-9, "one gray cell: no P gate")
	assert.Equal(t, delay.Path{From: 1, Signals: []int{1}, To: 1}, r.Path, "p_1 into sum_1 is the latest")
}

// TestAnalyzePinned pins the model's whole report on 8-bit adders, each case
// leaning on one part of it: which pin of a cell a signal loads, a black
// cell's P gate (its area, its pins, its arrival from both operands), the
// inputs' arrival and the outputs' required times of a profile, how a Lo
// wire's length is charged, the library's own FO4, and which of two equally
// late outputs names the path (the first). The figures are the model's own,
// read off it; Tau and FO4 to 1e-6.
func TestAnalyzePinned(t *testing.T) {
	ks8 := build(t, "kogge-stone", 8, nil)
	wired := delay.OSU018
	wired.WireCap = 1
	ownFO4 := delay.OSU018
	ownFO4.FO4 = 5
	lateBit1 := &delay.Profile{Arrival: []float64{0, 1, 0, 0, 0, 0, 0, 0}}
	tests := []struct {
		name string
		lib  delay.Library
		net  *network.Network
		p    *delay.Profile
		want delay.Report
	}{
		{
			name: "kogge-stone 8",
			lib:  delay.OSU018, net: ks8,
			want: delay.Report{Tau: 39.149153, FO4: 6.049004, Area: 1872, Path: delay.Path{From: 2, Signals: []int{2, 13, 20, 22}, To: 7}},
		},
		{
			// Bit 1's P reaches [1,2]'s P gate as its Lo.
			name: "kogge-stone 8, bit 1 a nanosecond late",
			lib:  delay.OSU018, net: ks8, p: lateBit1,
			want: delay.Report{Tau: 92.807533, FO4: 14.339854, Area: 1872, Path: delay.Path{From: 1, Signals: []int{1, 13, 20, 22}, To: 7}},
		},
		{
			// The carry-out is held to its own time, the last of the list.
			name: "kogge-stone 8, carry-out required 0.3 ns early",
			lib:  delay.OSU018, net: ks8, p: &delay.Profile{Required: []float64{0, 0, 0, 0, 0, 0, 0, 0, -0.3}},
			want: delay.Report{Tau: 50.237334, FO4: 7.762258, Area: 1872, Path: delay.Path{From: 0, Signals: []int{0, 14, 19, 21}, To: 8}},
		},
		{
			// g_0 as well as p_0 arrives late: the path runs from it along
			// the chain.
			name: "ripple 4, bit 0 half a nanosecond late",
			lib:  delay.OSU018, net: build(t, "ripple", 4, nil), p: &delay.Profile{Arrival: []float64{0.5, 0, 0, 0}},
			want: delay.Report{Tau: 58.386142, FO4: 9.021345, Area: 640, Path: delay.Path{From: 0, Signals: []int{0, 4, 5}, To: 3}},
		},
		{
			// sum_5 and sum_7 are equally late; the path names the first.
			name: "sklansky 8",
			lib:  delay.OSU018, net: build(t, "sklansky", 8, nil),
			want: delay.Report{Tau: 45.372898, FO4: 7.010646, Area: 1592, Path: delay.Path{From: 1, Signals: []int{1, 8, 13, 16}, To: 5}},
		},
		{
			name: "kogge-stone 8, a library with FO4 = 5 τ",
			lib:  ownFO4, net: ks8,
			want: delay.Report{Tau: 39.149153, FO4: 39.149153 / 5, Area: 1872, Path: delay.Path{From: 2, Signals: []int{2, 13, 20, 22}, To: 7}},
		},
		{
			// p_1's wire runs to the farthest black cell that reads it.
			name: "kogge-stone 8, wire 1 a column, bit 1 a nanosecond late",
			lib:  wired, net: ks8, p: lateBit1,
			want: delay.Report{Tau: 98.810533, FO4: 15.267388, Area: 1872, Path: delay.Path{From: 1, Signals: []int{1, 13, 20, 22}, To: 7}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.lib.AnalyzeProfile(tt.net, tt.p)
			assert.InDelta(t, tt.want.Tau, got.Tau, 1e-6)
			assert.InDelta(t, tt.want.FO4, got.FO4, 1e-6)
			assert.InDelta(t, got.Tau*tt.lib.TauNS, got.NS, 1e-12)
			assert.Equal(t, tt.want.Area, got.Area)
			assert.Equal(t, tt.want.Path, got.Path)
		})
	}
}

// TestStructure checks what the model must get right for the ranks to mean
// anything: a ripple chain's delay grows with its length, cell by cell; at
// the least depth, fan-out costs (Sklansky's n/2 + 1 against Kogge–Stone's
// ⌈log2 n⌉ + 1) and so do levels (Brent–Kung's 2⌈log2 n⌉ − 2); wire load
// slows a network with long Lo wires and leaves one without cells alone.
func TestStructure(t *testing.T) {
	lib := delay.OSU018
	r16 := lib.Analyze(build(t, "ripple", 16, nil))
	r32 := lib.Analyze(build(t, "ripple", 32, nil))
	step := lib.CellG.Parasitic + lib.CellG.Drive*(lib.CellG.Pins[0]+lib.Sum.Pins[1])
	assert.InDelta(t, 16*step, r32.Tau-r16.Tau, 1e-9, "each cell of the chain adds one AOI21 driving the next cell and a sum")
	// p_1, an XOR, arrives after g_0; the sum's XOR is slower than the
	// carry-out's last cell.
	assert.Equal(t, 1, r32.Path.From, "the worst path starts at p_1")
	assert.Equal(t, 31, len(r32.Path.Signals), "it runs the whole chain")
	assert.Equal(t, 31, r32.Path.To, "it ends at sum_31")

	for _, n := range []int{16, 64, 128} {
		ks := lib.Analyze(build(t, "kogge-stone", n, nil)).Tau
		sk := lib.Analyze(build(t, "sklansky", n, nil)).Tau
		bk := lib.Analyze(build(t, "brent-kung", n, nil)).Tau
		assert.Less(t, ks, sk, "n=%d: Sklansky's fan-out", n)
		assert.Less(t, ks, bk, "n=%d: Brent–Kung's levels", n)
	}

	wired := lib
	wired.WireCap = 0.5
	ks := build(t, "kogge-stone", 64, nil)
	assert.Greater(t, wired.Analyze(ks).Tau, lib.Analyze(ks).Tau, "Kogge–Stone's wires span up to 32 columns")
	one := build(t, "ripple", 1, nil)
	assert.Equal(t, lib.Analyze(one), wired.Analyze(one), "one bit has no wires")
}

// TestPathIsWorst checks, on every family at 32 bits, that the path the
// model reports is a chain of operands and as long, in levels, as the
// depth at most.
func TestPathIsWorst(t *testing.T) {
	for _, topo := range topologies.All() {
		net := build(t, topo.Name, 32, nil)
		r := delay.OSU018.Analyze(net)
		p := r.Path.Signals
		require.NotEmpty(t, p, topo.Name)
		assert.Less(t, p[0], net.Width(), "%s: the path starts at an input", topo.Name)
		assert.Equal(t, r.Path.From, p[0])
		for i := 1; i < len(p); i++ {
			c := net.Cell(p[i] - net.Width())
			assert.Contains(t, []int{c.Lo, c.Hi}, p[i-1], "%s: signal %d does not read %d", topo.Name, p[i], p[i-1])
		}
		assert.LessOrEqual(t, len(p)-1, net.Depth(), topo.Name)
		assert.Positive(t, r.FO4, topo.Name)
	}
}

// The model's delays of three 64-bit adders, in FO4 delays of the OSU
// 0.18 µm cells.
func ExampleFO4() {
	for _, name := range []string{"kogge-stone", "brent-kung", "ripple"} {
		net, _ := topologies.Build(name, 64, nil)
		fmt.Printf("%-12s %5.1f FO4\n", name, delay.FO4(net))
	}
	// Output:
	// kogge-stone   12.4 FO4
	// brent-kung    20.2 FO4
	// ripple        81.4 FO4
}

// TestCopiesMerge checks that a copy of a cell, which synthesis merges,
// changes nothing: 4-bit Sklansky with [0, 1] computed twice, once for each
// of its readers, costs what Sklansky costs. (Were the copies kept, [0, 1]
// would drive half the load.)
func TestCopiesMerge(t *testing.T) {
	spec := network.Spec{Width: 4, Cells: []network.Cell{
		{Lo: 0, Hi: 1}, // 4: [0,1]
		{Lo: 4, Hi: 2}, // 5: [0,2]
		{Lo: 2, Hi: 3}, // 6: [2,3]
		{Lo: 4, Hi: 6}, // 7: [0,3]
	}, Outputs: []int{0, 4, 5, 7}}
	net, err := network.New(spec)
	require.NoError(t, err)
	// 4: [0,1], 5: its copy, 6: [2,3], 7: [0,2] from 4, 8: [0,3] from 5.
	spec.Cells = []network.Cell{{Lo: 0, Hi: 1}, {Lo: 0, Hi: 1}, {Lo: 2, Hi: 3}, {Lo: 4, Hi: 2}, {Lo: 5, Hi: 6}}
	spec.Outputs = []int{0, 4, 7, 8}
	copied, err := network.New(spec)
	require.NoError(t, err)
	require.Equal(t, 5, copied.Size())
	want, got := delay.OSU018.Analyze(net), delay.OSU018.Analyze(copied)
	assert.Equal(t, want.Tau, got.Tau)
	assert.Equal(t, want.Area, got.Area)
	assert.Equal(t, len(want.Path.Signals), len(got.Path.Signals))
}

// TestLibraryCopy: a copy of OSU018 changed, as a user describing another
// library starts, leaves OSU018 and FO4 as they were.
func TestLibraryCopy(t *testing.T) {
	net, err := topologies.Build("brent-kung", 16, nil)
	require.NoError(t, err)
	before := delay.FO4(net)
	lib := delay.OSU018
	lib.CellG.Pins[0] *= 3
	lib.Sum.Pins[1] *= 3
	assert.Greater(t, lib.Analyze(net).FO4, before, "the copy is slower")
	assert.Equal(t, before, delay.FO4(net), "OSU018 is unchanged")
}

// A Lo operand's wire loads the drivers its readers read: the cell of bit 1
// in a ripple chain is gray, so it reads G_0 and no wire of P_0 crosses to
// it. sum_0 = p_0 ⊕ cin, alone required, is timed the same whatever the wire
// costs; the carry-out, through G_0's wire, is not.
func TestWireLoadsItsReaders(t *testing.T) {
	net, err := topologies.Ripple(2)
	require.NoError(t, err)
	sum0 := &delay.Profile{Required: []float64{0, 1000, 1000}}
	cout := &delay.Profile{Required: []float64{1000, 1000, 0}}
	bare, wired := delay.OSU018, delay.OSU018
	wired.WireCap = 10
	assert.InDelta(t, bare.AnalyzeProfile(net, sum0).Tau, wired.AnalyzeProfile(net, sum0).Tau, 1e-9)
	assert.Greater(t, wired.AnalyzeProfile(net, cout).Tau, bare.AnalyzeProfile(net, cout).Tau+1)
}
