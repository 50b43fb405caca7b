package emit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// The built-in topologies are drawn the plain textbook way, as the comments
// of layout promise: one row per level, every Hi operand just above its cell
// in the column line, every Lo wire leaving its column line in the row just
// above the cell, every output at the foot of its column.
func TestLayoutBuiltins(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 8, 13, 16, 32, 33, 64, 100} {
		nets, err := topologies.Compare(n)
		require.NoError(t, err)
		for _, net := range nets {
			for _, left := range []bool{false, true} {
				l := newLayout(net, left)
				name := Name(net)
				require.Equal(t, net.Depth()+2, l.rows, "%s %d", name, n)
				kinds := carry.Kinds(net)
				seen := map[spot]bool{}
				for k, c := range l.cells {
					cell := net.Cell(k)
					s := net.CellSignal(k)
					assert.Equal(t, net.Level(s), c.at.row, "%s %d cell %d", name, n, k)
					assert.Equal(t, l.x(net.Column(s)), c.at.x)
					assert.Equal(t, kinds[k], c.kind)
					assert.Equal(t, l.at[cell.Lo], c.lo)
					assert.Equal(t, l.at[cell.Hi], c.hi)
					assert.Equal(t, c.at.x, c.hi.x, "Hi comes from the cell's own column")
					assert.Equal(t, spot{c.lo.x, c.at.row - 1}, c.tap, "%s %d cell %d", name, n, k)
					assert.False(t, c.hiSkips, "%s %d cell %d", name, n, k)
					assert.False(t, c.loSkips, "%s %d cell %d", name, n, k)
					assert.False(t, seen[c.at], "%s %d: two cells at %v", name, n, c.at)
					seen[c.at] = true
				}
				assert.NotContains(t, l.outSkips, true, "%s %d", name, n)
				for i := range n {
					assert.Equal(t, spot{l.x(i), 0}, l.at[i])
				}
			}
		}
	}
}

// oddNetwork is a correct network that the built-in topologies never make:
// level 3 has two cells in column 5, cells 6 and 10 read their Hi operand
// past a newer signal of their column, cell 6 reads its Lo operand from a
// column that holds a newer signal in the row above it, and output 5 is not
// the last signal of its column. Its name needs escaping in every format.
func oddNetwork(t testing.TB) *network.Network {
	var cells []network.Cell
	for _, c := range [][2]int{{0, 1}, {2, 3}, {4, 5}, {7, 8}, {10, 9}, {8, 4}, {12, 5}, {13, 6}, {7, 14}, {7, 2}, {10, 4}} {
		cells = append(cells, network.Cell{Lo: c[0], Hi: c[1]})
	}
	net, err := network.New(network.Spec{Width: 7, Cells: cells,
		Outputs: []int{0, 7, 16, 10, 17, 11, 15}, Topology: `odd "one" \ <&>`})
	require.NoError(t, err)
	return net
}

func TestLayoutOdd(t *testing.T) {
	net := oddNetwork(t)
	l := newLayout(net, false)
	assert.Equal(t, 8, l.rows, "level 3 takes two rows")
	assert.Equal(t, []int{0, 1, 2, 3, 5, 6}, l.levelRow)
	// Cells 4 ([0,5]) and 6 ([2,5]) are both at level 3 in column 5.
	assert.Equal(t, spot{1, 3}, l.cells[4].at)
	assert.Equal(t, spot{1, 4}, l.cells[6].at)
	c := l.cells[6]
	assert.True(t, c.hiSkips)
	assert.Equal(t, spot{1, 0}, c.hi)
	assert.Equal(t, c.lo, c.tap, "column 4 holds [0,4] in the row above: the wire starts at [2,4]")
	assert.Equal(t, spot{2, 2}, c.lo)
	assert.Equal(t, []bool{false, false, false, false, false, true, false}, l.outSkips)
	// Cell 10 ([0,4]) reads input 4 past [2,4].
	for k, c := range l.cells {
		assert.Equal(t, k == 6 || k == 10, c.hiSkips, "cell %d", k)
	}
	// Cell 6 reads its Lo operand [2,4] past [0,4]: its wire leaves [2,4]
	// itself and comes down beside column 4's line, on the side of the cell.
	for k, c := range l.cells {
		assert.Equal(t, k == 6, c.loSkips, "cell %d", k)
	}
	assert.InDelta(t, 2-skipBow, l.cells[6].besideLo(), 1e-9)
	assert.InDelta(t, 1+skipBow, l.cells[6].laneEnd(), 1e-9)
	// From an input down to an output: clear of both labels, and
	// skipBow beside the column line over every row in between.
	pts := l.bypass(spot{1, 0}, spot{1, 7})
	want := []point{
		{1, labelGap}, {1, 0.375}, {1.4, 0.375}, {1.4, 0.5},
		{1.4, 2.5}, {1.4, 4.5}, {1.4, 6.5},
		{1.4, 6.625}, {1, 6.625}, {1, 7 - labelGap},
	}
	require.Len(t, pts, len(want))
	for i := range want {
		assert.InDelta(t, want[i].x, pts[i].x, 1e-9)
		assert.InDelta(t, want[i].y, pts[i].y, 1e-9)
	}
}
