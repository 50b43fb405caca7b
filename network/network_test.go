package network_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
)

// koggeStone8 builds the 8-wide Kogge–Stone network by hand, so that these
// tests do not depend on package topologies.
func koggeStone8(t testing.TB) *network.Network {
	t.Helper()
	b, err := network.NewBuilder(8)
	require.NoError(t, err)
	cur := []int{0, 1, 2, 3, 4, 5, 6, 7}
	for d := 1; d < 8; d *= 2 {
		for i := 7; i >= d; i-- {
			cur[i] = b.Add(cur[i-d], cur[i])
		}
	}
	b.Describe("kogge-stone", nil)
	n, err := b.Build()
	require.NoError(t, err)
	return n
}

// sklansky4 is the 4-wide Sklansky network: [0,1], [0,2], [2,3], [0,3].
func sklansky4(t testing.TB) *network.Network {
	t.Helper()
	b, err := network.NewBuilder(4)
	require.NoError(t, err)
	s01 := b.Add(0, 1)
	b.Add(s01, 2)
	b.Add(s01, b.Add(2, 3))
	b.Describe("sklansky", network.Params{"x": 3})
	n, err := b.Build()
	require.NoError(t, err)
	return n
}

// buildCells adds the cells to a Builder of the given width in order and
// builds the network, with the outputs the Builder picks.
func buildCells(t testing.TB, width int, cells ...network.Cell) *network.Network {
	t.Helper()
	b, err := network.NewBuilder(width)
	require.NoError(t, err)
	for _, c := range cells {
		b.Add(c.Lo, c.Hi)
	}
	n, err := b.Build()
	require.NoError(t, err)
	return n
}

func TestBuilderSpansAndLevels(t *testing.T) {
	n := sklansky4(t)
	assert.Equal(t, 4, n.Width())
	assert.Equal(t, 4, n.Size())
	assert.Equal(t, 8, n.Signals())
	assert.Equal(t, network.Cell{Lo: 4, Hi: 6}, n.Cell(3))
	assert.Equal(t, 7, n.CellSignal(3))
	assert.Equal(t, network.Span{From: 2, To: 3}, n.Span(6))
	assert.Equal(t, "[0,3]", n.Span(7).String())
	assert.Equal(t, []int{0, 4, 5, 7}, n.Outputs())
	assert.Equal(t, []int{0, 0, 0, 0, 1, 2, 1, 2}, levels(n))
	assert.Equal(t, 3, n.Column(6))
	assert.Equal(t, 2, n.Depth())
	assert.Equal(t, "sklansky", n.Topology())
	assert.Equal(t, network.Params{"x": 3}, n.Params())
}

func levels(n *network.Network) []int {
	out := make([]int, n.Signals())
	for s := range out {
		out[s] = n.Level(s)
	}
	return out
}

func TestBuilderRefuses(t *testing.T) {
	tests := []struct {
		name  string
		cells [][2]int
		want  string
	}{
		{"forward reference", [][2]int{{0, 5}}, "network: cell 0 reads signal 5, which is not an earlier signal: allowed 0…3"},
		{"negative signal", [][2]int{{-1, 1}}, "network: cell 0 reads signal -1, which is not an earlier signal: allowed 0…3"},
		{"not adjacent", [][2]int{{0, 2}}, "network: cell 0 joins [0,0] and [2,2]: spans not adjacent"},
		{"swapped", [][2]int{{1, 0}}, "network: cell 0 joins [1,1] and [0,0]: operands swapped, the lower span must come first"},
		{"overlapping", [][2]int{{0, 1}, {4, 1}}, "network: cell 1 joins [0,1] and [1,1]: spans not adjacent"},
		{"self", [][2]int{{1, 1}}, "network: cell 0 joins [1,1] and [1,1]: spans not adjacent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := network.NewBuilder(4)
			require.NoError(t, err)
			var last int
			for _, c := range tt.cells {
				last = b.Add(c[0], c[1])
			}
			assert.Equal(t, -1, last)
			require.EqualError(t, b.Err(), tt.want)
			// The error is sticky: later cells are ignored, Build reports it.
			assert.Equal(t, -1, b.Add(2, 3))
			_, err = b.Build()
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestNewBuilderWidth(t *testing.T) {
	for _, w := range []int{0, -3, network.MaxWidth + 1} {
		_, err := network.NewBuilder(w)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "network: width")
		assert.Contains(t, err.Error(), "allowed 1…1073741824")
	}
}

// TestZeroBuilder: a Builder NewBuilder did not make has no width, and
// both Add and Build say so rather than build a network of width 0.
func TestZeroBuilder(t *testing.T) {
	const want = "network: the zero Builder has no width: make one with NewBuilder(width), width 1…1073741824"
	var b network.Builder
	net, err := b.Build()
	assert.Nil(t, net)
	require.EqualError(t, err, want)

	var c network.Builder
	assert.Equal(t, -1, c.Add(0, 1))
	require.EqualError(t, c.Err(), want)
}

func TestBuildMissingOutput(t *testing.T) {
	b, err := network.NewBuilder(3)
	require.NoError(t, err)
	b.Add(1, 2)
	_, err = b.Build()
	require.EqualError(t, err, "network: no signal spans [0,1]: output 1 is missing")
}

func TestBuildDeadCell(t *testing.T) {
	b, err := network.NewBuilder(3)
	require.NoError(t, err)
	b.Add(0, 1)        // 3 = [0,1], read by nothing once 5 exists? no: 3 is output 1
	b.Add(1, 2)        // 4 = [1,2], read by nothing: dead
	b.Add(3, 2)        // 5 = [0,2]
	_, err = b.Build() // outputs 0, 3, 5
	require.EqualError(t, err, "network: cell 1 [1,2] reaches no output: dead cell")
}

// TestBuildDeadFirstCell: the dead-cell sweep runs down to cell 0 too. Two
// cells both span [0,1]; output 1 is the later one, so cell 0 is dead.
func TestBuildDeadFirstCell(t *testing.T) {
	b, err := network.NewBuilder(2)
	require.NoError(t, err)
	b.Add(0, 1) // 2 = [0,1], replaced as output 1 by 3: dead
	b.Add(0, 1) // 3 = [0,1]
	_, err = b.Build()
	require.EqualError(t, err, "network: cell 0 [0,1] reaches no output: dead cell")
}

// TestBuildLatestFullPrefix: output i is the latest signal spanning [0, i],
// not the first. Cells 3 and 4 both span [0,1]; cell 5 = [0,2] reads 3, so
// both are live only if output 1 is 4.
func TestBuildLatestFullPrefix(t *testing.T) {
	n := buildCells(t, 3, network.Cell{Lo: 0, Hi: 1}, network.Cell{Lo: 0, Hi: 1}, network.Cell{Lo: 3, Hi: 2})
	assert.Equal(t, []int{0, 4, 5}, n.Outputs())
}

// The builder may go on after Build without changing the network it built.
func TestBuildIsImmutable(t *testing.T) {
	b, err := network.NewBuilder(2)
	require.NoError(t, err)
	b.Add(0, 1)
	n, err := b.Build()
	require.NoError(t, err)
	b.Add(0, 1)
	b.Add(0, 1)
	assert.Equal(t, 1, n.Size())
	assert.Equal(t, network.Cell{Lo: 0, Hi: 1}, n.Cell(0))
	p := n.Params()
	p["k"] = 9
	assert.Empty(t, n.Params())
}

func TestNewRefuses(t *testing.T) {
	good := network.Spec{Width: 3, Cells: []network.Cell{{0, 1}, {3, 2}}, Outputs: []int{0, 3, 4}}
	require.NoError(t, good.Validate())
	tests := []struct {
		name string
		edit func(s *network.Spec)
		want string
	}{
		{"width zero", func(s *network.Spec) { s.Width = 0 }, "network: width 0 out of range: allowed 1…1073741824"},
		{"width mismatch", func(s *network.Spec) { s.Width = 4 }, "network: 3 outputs for width 4: want one output per position"},
		{"forward reference", func(s *network.Spec) { s.Cells[0] = network.Cell{Lo: 0, Hi: 4} }, "network: cell 0 reads signal 4, which is not an earlier signal: allowed 0…2"},
		{"not adjacent", func(s *network.Spec) { s.Cells[1] = network.Cell{Lo: 0, Hi: 2} }, "network: cell 1 joins [0,0] and [2,2]: spans not adjacent"},
		{"missing output", func(s *network.Spec) { s.Outputs = s.Outputs[:2] }, "network: 2 outputs for width 3: want one output per position"},
		{"wrong output", func(s *network.Spec) { s.Outputs[2] = 2 }, "network: output 2 is signal 2 spanning [2,2]: want [0,2]"},
		{"output out of range", func(s *network.Spec) { s.Outputs[2] = 9 }, "network: output 2 is signal 9, which does not exist: allowed 0…4"},
		// One past the last signal is out of range too, and is refused
		// rather than read.
		{"output one past the end", func(s *network.Spec) { s.Outputs[2] = 5 }, "network: output 2 is signal 5, which does not exist: allowed 0…4"},
		{"dead cell", func(s *network.Spec) { s.Cells = append(s.Cells, network.Cell{Lo: 1, Hi: 2}) }, "network: cell 2 [1,2] reaches no output: dead cell"},
		// Cell 0 is checked too: here it is [1,2] and nothing reads it.
		{"dead first cell", func(s *network.Spec) {
			s.Cells = []network.Cell{{Lo: 1, Hi: 2}, {Lo: 0, Hi: 1}, {Lo: 4, Hi: 2}}
			s.Outputs = []int{0, 4, 5}
		}, "network: cell 0 [1,2] reaches no output: dead cell"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := network.Spec{Width: good.Width, Cells: append([]network.Cell(nil), good.Cells...), Outputs: append([]int(nil), good.Outputs...)}
			tt.edit(&s)
			require.EqualError(t, s.Validate(), tt.want)
			_, err := network.New(s)
			require.EqualError(t, err, tt.want)
		})
	}
}

func TestSpecRoundTrip(t *testing.T) {
	n := koggeStone8(t)
	m, err := network.New(n.Spec())
	require.NoError(t, err)
	assert.Equal(t, n.Spec(), m.Spec())
	assert.Equal(t, n.Figures(), m.Figures())
}

func TestFiguresHandComputed(t *testing.T) {
	tests := []struct {
		name string
		net  *network.Network
		want network.Figures
	}{
		{
			// Sklansky 4: [0,1] is read by two cells and is output 1; both
			// read it as Lo at level 2: lateral fan-out 2 + 1.
			name: "sklansky4",
			net:  sklansky4(t),
			want: network.Figures{Width: 4, Depth: 2, Size: 4, MaxFanout: 3, WireTracks: 1, LateralFanout: 3, Deficiency: 0,
				FanoutHistogram: []int{0, 5, 2, 1}, CellsPerLevel: []int{0, 2, 2}},
		},
		{
			// Kogge–Stone 8: size 8·3 − 8 + 1 = 17, depth 3; the level-3 wires
			// from columns 0…3 to 4…7 all cross boundary 3: 4 tracks. Input 0
			// is read at every level and is an output: fan-out 4, but by one
			// cell per level: lateral fan-out 1 + 1.
			name: "kogge-stone8",
			net:  koggeStone8(t),
			want: network.Figures{Width: 8, Depth: 3, Size: 17, MaxFanout: 4, WireTracks: 4, LateralFanout: 2, Deficiency: 17 + 3 - 14,
				FanoutHistogram: []int{0, 11, 12, 1, 1}, CellsPerLevel: []int{0, 7, 6, 4}},
		},
		{
			// Width 2, one cell: its only wire, input 0 read in column 1,
			// crosses boundary 0 at level 1: one track.
			name: "ripple2",
			net:  buildCells(t, 2, network.Cell{Lo: 0, Hi: 1}),
			want: network.Figures{Width: 2, Depth: 1, Size: 1, MaxFanout: 2, WireTracks: 1, LateralFanout: 2, Deficiency: 0,
				FanoutHistogram: []int{0, 2, 1}, CellsPerLevel: []int{0, 1}},
		},
		{
			// A ripple to [0,4] at level 4, then output 5 from [0,1] and a
			// level-2 [2,5]: the last output is at level 3, but the depth
			// is the deepest output's level, 4.
			name: "deepest output not last",
			net: buildCells(t, 6, network.Cell{Lo: 0, Hi: 1}, network.Cell{Lo: 6, Hi: 2}, network.Cell{Lo: 7, Hi: 3},
				network.Cell{Lo: 8, Hi: 4}, network.Cell{Lo: 2, Hi: 3}, network.Cell{Lo: 4, Hi: 5},
				network.Cell{Lo: 10, Hi: 11}, network.Cell{Lo: 6, Hi: 12}),
			want: network.Figures{Width: 6, Depth: 4, Size: 8, MaxFanout: 3, WireTracks: 2, LateralFanout: 2, Deficiency: 2,
				FanoutHistogram: []int{0, 7, 6, 1}, CellsPerLevel: []int{0, 3, 2, 2, 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want.Depth, tt.net.Depth())
			got := tt.net.Figures()
			assert.Equal(t, tt.want, got)
			sum := 0
			for _, c := range got.FanoutHistogram {
				sum += c
			}
			assert.Equal(t, tt.net.Signals(), sum)
			for s := range tt.net.Signals() {
				assert.LessOrEqual(t, tt.net.Fanout(s), got.MaxFanout)
			}
		})
	}
}

func TestWireTracksAt(t *testing.T) {
	n := koggeStone8(t)
	for l, want := range []int{0, 1, 2, 4, 0} {
		assert.Equal(t, want, n.WireTracksAt(l), "level %d", l)
	}
}

// A single input needs no cell: depth 0, size 0, deficiency 0.
func TestWidthOne(t *testing.T) {
	b, err := network.NewBuilder(1)
	require.NoError(t, err)
	n, err := b.Build()
	require.NoError(t, err)
	assert.Equal(t, network.Figures{Width: 1, MaxFanout: 1, FanoutHistogram: []int{0, 1}, CellsPerLevel: []int{0}}, n.Figures())
}

func TestFanout(t *testing.T) {
	n := koggeStone8(t)
	// Input 0 is read at levels 1, 2 and 3 and is output 0.
	assert.Equal(t, 4, n.Fanout(0))
	// Input 7 is read only by the level-1 cell in column 7.
	assert.Equal(t, 1, n.Fanout(7))
	// The last cell is output 7 and read by nothing.
	assert.Equal(t, 1, n.Fanout(n.Signals()-1))
}
