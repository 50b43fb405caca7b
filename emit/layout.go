package emit

import (
	"fmt"
	"math"
	"slices"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
)

// spot is a place on the textbook grid: x counts columns from the left of
// the picture, row counts rows from the top.
type spot struct{ x, row int }

// placed is one cell of the network on the grid.
type placed struct {
	signal int
	at     spot
	kind   carry.Kind
	// lo is where the Lo operand is produced: an input or a cell in another
	// column, at its own row.
	lo spot
	// tap is where the Lo wire leaves the column line of lo: the row just
	// above the cell, where lo is still that column's latest signal, or lo
	// itself when a newer signal has replaced it there.
	tap spot
	// loSkips is true when a newer signal has replaced lo in its column
	// above the cell's row, so the column line does not carry lo down to
	// the row above the cell: the Lo wire must leave lo itself and keep
	// clear of the column's newer cells. Higher-valency networks do this
	// (a valency-k cell reads k spans of one level, some of whose columns
	// have moved on); the binary built-in topologies never do.
	loSkips bool
	// hi is where the Hi operand is produced, above the cell in its column.
	hi spot
	// hiSkips is true when hi is not the node just above the cell in its
	// column, so the column line does not carry it into the cell. The
	// built-in topologies never do this; a network read from a file may.
	hiSkips bool
}

// layout is the textbook picture of a network, shared by the pictures
// (DOT, SVG): one column per bit, bit 0 on the right unless bitZeroLeft;
// row 0 holds the inputs, then each level 1…depth takes a row, and the
// outputs take the last row. Every cell sits in the column of its span's
// high end, in the row of its level. A level in which two cells share a
// column (never so for the built-in topologies) takes one row per such cell,
// so that no cell hides another.
type layout struct {
	name     string // emit.Name of the network
	fig      network.Figures
	caption  string // the name, the width and the figures, on one line
	width    int
	depth    int
	rows     int      // all rows, the input and output rows included
	levelRow []int    // levelRow[l]: the first row of level l, 0 ≤ l ≤ depth
	at       []spot   // per signal: where it is produced
	cells    []placed // per cell
	// outSkips[i] is true when output i is not the last signal of column i,
	// so the column line does not carry it down to the output.
	outSkips []bool
	// lastRow[i] is the row of the last signal of column i, where its
	// column line ends when outSkips[i].
	lastRow     []int
	bitZeroLeft bool
}

// newLayout places the network on the grid.
func newLayout(n *network.Network, bitZeroLeft bool) *layout {
	f := n.Figures()
	width, depth := n.Width(), n.Depth()
	l := &layout{
		name:        Name(n),
		fig:         f,
		caption:     caption(n, f),
		width:       width,
		depth:       depth,
		levelRow:    make([]int, depth+1),
		at:          make([]spot, n.Signals()),
		cells:       make([]placed, n.Size()),
		outSkips:    make([]bool, width),
		lastRow:     make([]int, width),
		bitZeroLeft: bitZeroLeft,
	}

	// Cells sharing a column within a level go to successive rows of that
	// level, in cell order.
	sub := make([]int, n.Size()) // the cell's row within its level
	taken := map[[2]int]int{}    // (level, column) → cells placed there
	levelRows := make([]int, depth+1)
	for k := range n.Size() {
		s := n.CellSignal(k)
		key := [2]int{n.Level(s), n.Column(s)}
		sub[k] = taken[key]
		taken[key]++
		levelRows[key[0]] = max(levelRows[key[0]], taken[key])
	}
	row := 1
	for lv := 1; lv <= depth; lv++ {
		l.levelRow[lv] = row
		row += levelRows[lv]
	}
	l.rows = row + 1

	for i := range width {
		l.at[i] = spot{l.x(i), 0}
	}
	for k := range n.Size() {
		s := n.CellSignal(k)
		l.at[s] = spot{l.x(n.Column(s)), l.levelRow[n.Level(s)] + sub[k]}
	}

	// next[s] is the row of the node just below signal s in its column: the
	// next cell there, or the output row.
	next := make([]int, n.Signals())
	byColumn := make([][]int, width)
	for s := range n.Signals() {
		c := n.Column(s)
		byColumn[c] = append(byColumn[c], s)
	}
	for c, sigs := range byColumn {
		slices.SortFunc(sigs, func(a, b int) int { return l.at[a].row - l.at[b].row })
		l.lastRow[c] = l.at[sigs[len(sigs)-1]].row
		for j, s := range sigs {
			next[s] = l.outRow()
			if j+1 < len(sigs) {
				next[s] = l.at[sigs[j+1]].row
			}
		}
	}

	kinds := carry.Kinds(n)
	for k := range n.Size() {
		c := n.Cell(k)
		s := n.CellSignal(k)
		p := placed{signal: s, at: l.at[s], kind: kinds[k], lo: l.at[c.Lo], hi: l.at[c.Hi]}
		p.tap = p.lo
		if next[c.Lo] >= p.at.row {
			p.tap.row = p.at.row - 1
		} else {
			p.loSkips = true
		}
		p.hiSkips = next[c.Hi] != p.at.row
		l.cells[k] = p
	}
	for i := range width {
		l.outSkips[i] = next[n.Output(i)] != l.outRow()
	}
	return l
}

// x returns the picture column of bit col.
func (l *layout) x(col int) int {
	if l.bitZeroLeft {
		return col
	}
	return l.width - 1 - col
}

// bit returns the bit drawn in picture column x.
func (l *layout) bit(x int) int { return l.x(x) }

// outRow returns the row of the outputs, the last one.
func (l *layout) outRow() int { return l.rows - 1 }

// out returns where output i is drawn.
func (l *layout) out(i int) spot { return spot{l.x(i), l.outRow()} }

// caption names the network and gives its width and figures on one line,
// as the first line of Text does.
func caption(n *network.Network, f network.Figures) string {
	return fmt.Sprintf("%s, width %d: depth %d, size %d, max fan-out %d, wire tracks %d, deficiency %d",
		Name(n), f.Width, f.Depth, f.Size, f.MaxFanout, f.WireTracks, f.Deficiency)
}

// point is a place in grid units, between spots: x counts columns from the
// left, y rows from the top.
type point struct{ x, y float64 }

// pt returns the point of a spot.
func (s spot) pt() point { return point{float64(s.x), float64(s.row)} }

// labelGap is how far, in rows, wires keep from the middle of an input's
// or an output's label.
const labelGap = 0.25

// skipBow is how far, in columns, a wire that passes the newer cells of a
// column runs beside that column's line: clear of the cells in it (a cell's
// radius is about a quarter of a column) and of those in the next column.
const skipBow = 0.4

// bypass returns the control points of a chain of three cubic Bézier curves
// from a down to b, in the same column, that steps out to the side: it
// leaves a heading down, turns out to skipBow columns beside the column line
// halfway to the next row, runs straight down beside the line, and turns
// back into b halfway from the row above. A wire drawn along it does not run
// through the nodes of the column between them, whose signals it skips, nor
// through a node of the next column. It keeps clear of the labels of the
// inputs and outputs.
func (l *layout) bypass(a, b spot) []point {
	da, db := a.pt(), b.pt()
	if a.row == 0 {
		da.y += labelGap
	}
	if b.row == l.outRow() {
		db.y -= labelGap
	}
	x := da.x + skipBow
	top, bottom := float64(a.row)+0.5, float64(b.row)-0.5
	turnA, turnB := (da.y+top)/2, (bottom+db.y)/2
	third := (bottom - top) / 3
	return []point{
		da, {da.x, turnA}, {x, turnA}, {x, top},
		{x, top + third}, {x, bottom - third}, {x, bottom},
		{x, turnB}, {db.x, turnB}, db,
	}
}

// besideLo returns the picture column, between two columns, along which
// the Lo wire of a cell that skips (loSkips) runs down past the newer cells
// of lo's column: skipBow columns beside its line, on the side of the cell.
func (c placed) besideLo() float64 {
	if c.at.x < c.lo.x {
		return float64(c.lo.x) - skipBow
	}
	return float64(c.lo.x) + skipBow
}

// laneEnd returns the picture column where a Lo wire that runs along a lane
// between two rows leaves it to drop into its cell: skipBow columns short
// of the cell, on the side of lo.
func (c placed) laneEnd() float64 {
	if c.lo.x < c.at.x {
		return float64(c.at.x) - skipBow
	}
	return float64(c.at.x) + skipBow
}

// wireLane is a Lo wire that runs along a lane of its own in the gap above
// a row: the wires of one Lo signal into one row, which share it.
type wireLane struct {
	lo, hi int   // picture columns covered, from lo's column to the furthest cell
	cells  []int // the cells the wire feeds
}

// wireLanes gives Lo wires that run along the gap above their cell's row a
// lane of their own within that gap, so that long wires of one level
// (Kogge–Stone's last levels) do not merge into a band: a wire reaches its
// lane, runs along it and drops into its cell. The wires that take a lane
// are those of cells that skip (loSkips: such a wire leaves lo itself and
// comes down beside its column line) and, when ordinary, those of a Lo
// signal that runs two columns or more from the row just above its cell
// (and the other wires of that signal into that row). Wires of one Lo
// signal share a lane; wires whose columns overlap get different lanes, as
// few as the overlaps need (the level's wire tracks), longest wires nearest
// the row above. lanes[k] is cell k's lane, or −1 for a wire drawn without
// one (one column, or from further up); count[r] is how many lanes the gap
// above row r holds.
func wireLanes(l *layout, ordinary bool) (lanes []int, count []int) {
	lanes = make([]int, len(l.cells))
	count = make([]int, l.rows)
	// A wire is known by its Lo signal, where that is produced, and the row
	// it feeds.
	type key struct {
		lo  spot
		row int
	}
	byRow := map[int][]*wireLane{}
	byKey := map[key]*wireLane{}
	long := map[key]bool{}
	for _, c := range l.cells {
		if d := c.tap.x - c.at.x; ordinary && !c.loSkips && d*d >= 4 {
			long[key{c.lo, c.at.row}] = true
		}
	}
	for k, c := range l.cells {
		lanes[k] = -1
		id := key{c.lo, c.at.row}
		if !c.loSkips && !long[id] {
			continue
		}
		w := byKey[id]
		if w == nil {
			w = &wireLane{lo: c.lo.x, hi: c.lo.x}
			byKey[id] = w
			byRow[c.at.row] = append(byRow[c.at.row], w)
		}
		w.lo, w.hi = min(w.lo, c.at.x), max(w.hi, c.at.x)
		w.cells = append(w.cells, k)
	}
	for row, ws := range byRow {
		slices.SortStableFunc(ws, func(a, b *wireLane) int {
			if la, lb := a.hi-a.lo, b.hi-b.lo; la != lb {
				return lb - la
			}
			return a.lo - b.lo
		})
		var ends [][]*wireLane // per lane, the wires on it
		for _, w := range ws {
			lane := 0
			for ; lane < len(ends); lane++ {
				free := true
				for _, o := range ends[lane] {
					if w.lo <= o.hi && o.lo <= w.hi {
						free = false
						break
					}
				}
				if free {
					break
				}
			}
			if lane == len(ends) {
				ends = append(ends, nil)
			}
			ends[lane] = append(ends[lane], w)
			for _, k := range w.cells {
				lanes[k] = lane
			}
		}
		count[row] = len(ends)
	}
	return lanes, count
}

// stretchedY returns how far below the top a height of g rows lies when row
// r is drawn rowY[r] below the top (rows that hold wire lanes are taller):
// between two rows in proportion, above the first and below the last pitch
// a row.
func stretchedY(rowY []float64, pitch, g float64) float64 {
	r := int(math.Floor(g))
	switch {
	case r < 0:
		return rowY[0] + g*pitch
	case r >= len(rowY)-1:
		return rowY[len(rowY)-1] + (g-float64(len(rowY)-1))*pitch
	}
	return rowY[r] + (g-float64(r))*(rowY[r+1]-rowY[r])
}
