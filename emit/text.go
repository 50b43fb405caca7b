package emit

import (
	"bufio"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// TextOptions controls the plain-text diagram.
type TextOptions struct {
	// BitZeroLeft draws bit 0 in the leftmost column. The default draws it
	// rightmost, as Harris and most adder textbooks do.
	BitZeroLeft bool
}

// Text draws the network as the textbook diagram in plain text: one column
// per bit, levels from top to bottom. A cell is drawn as ● in its column; its
// Hi operand arrives from above and its Lo operand along a horizontal wire
// from the column where the Lo signal ends, marked ┤ (or ├ with bit 0 on the
// left). Cells of one level that read the same Lo signal share its wire.
// When the wires of one level would overlap, the level takes more than one
// row (the rows after the first are labelled with a dot), so Kogge–Stone's
// wire cost is visible. Vertical lines │ carry each column's latest signal
// down; a wire crossing one is drawn ┼. A cell that reads an older signal
// than the line it sits on or draws its Lo operand from carries (a cell of a
// higher-valency network, or of a network of one's own, may) is drawn ◆,
// and a line under the diagram says so: the text cannot show which signal
// that is, and -f svg draws it.
func Text(w io.Writer, n *network.Network, opt TextOptions) error {
	bw := bufio.NewWriter(w)
	f := n.Figures()
	bw.WriteString(caption(n, f) + "\n")

	width := n.Width()
	x := func(col int) int { // character offset of a column
		if opt.BitZeroLeft {
			return 2 * col
		}
		return 2 * (width - 1 - col)
	}
	const label = 6
	// Bit numbers, one digit row per decimal place, so that columns stay two
	// characters wide.
	digits := len(strconv.Itoa(width - 1))
	for d := digits - 1; d >= 0; d-- {
		row := blank(2*width - 1)
		for col := range width {
			v := col
			for range d {
				v /= 10
			}
			if d == 0 || col >= pow10(d) {
				row[x(col)] = rune('0' + v%10)
			}
		}
		head := ""
		if d == 0 {
			head = "bit"
		}
		writeRow(bw, head, label, row)
	}

	byLevel := make([][]int, f.Depth+1)
	for k := range n.Size() {
		l := n.Level(n.CellSignal(k))
		byLevel[l] = append(byLevel[l], k)
	}
	// latest[col] is the signal the line of column col carries down to the
	// level being drawn.
	latest := make([]int, width)
	for col := range latest {
		latest[col] = col
	}
	older := 0
	for l := 1; l <= f.Depth; l++ {
		stale := map[int]bool{}
		for _, k := range byLevel[l] {
			c := n.Cell(k)
			if c.Lo != latest[n.Column(c.Lo)] || c.Hi != latest[n.Column(c.Hi)] {
				stale[k] = true
				older++
			}
		}
		for i, row := range levelRows(n, byLevel[l], stale, x, opt.BitZeroLeft) {
			head := "·"
			if i == 0 {
				head = "L" + strconv.Itoa(l)
			}
			writeRow(bw, head, label, row)
		}
		for _, k := range byLevel[l] {
			s := n.CellSignal(k)
			latest[n.Column(s)] = s
		}
	}
	if older > 0 {
		what := " cells read an older signal than the lines drawn to them carry; -f svg shows which\n"
		if older == 1 {
			what = " cell reads an older signal than the lines drawn to it carry; -f svg shows which\n"
		}
		bw.WriteString("◆ " + strconv.Itoa(older) + what)
	}
	return bw.Flush()
}

// wire is one Lo signal of one level and the columns of the cells reading it.
type wire struct {
	src     int    // the column the Lo signal ends in
	far     int    // the column of its farthest reader
	readers []int  // the columns of its readers
	stale   []bool // whether each reader reads an older signal than its lines carry
}

// levelRows draws the cells of one level, one row per track of wires; the
// cells in stale are drawn ◆.
func levelRows(n *network.Network, cells []int, stale map[int]bool, x func(int) int, bitZeroLeft bool) [][]rune {
	// A copy of a cell (the same operands, as copies made to bound the
	// fan-out are) reads the same Lo in the same column: it gets a wire of
	// its own, on another row, so that every cell is drawn.
	bySignal := map[int][]*wire{}
	var wires []*wire
	for _, k := range cells {
		c := n.Cell(k)
		col := n.Column(n.CellSignal(k))
		i := slices.IndexFunc(bySignal[c.Lo], func(w *wire) bool { return !slices.Contains(w.readers, col) })
		if i < 0 {
			bySignal[c.Lo] = append(bySignal[c.Lo], &wire{src: n.Column(c.Lo)})
			wires = append(wires, bySignal[c.Lo][len(bySignal[c.Lo])-1])
			i = len(bySignal[c.Lo]) - 1
		}
		wr := bySignal[c.Lo][i]
		wr.far = max(wr.far, col)
		wr.readers = append(wr.readers, col)
		wr.stale = append(wr.stale, stale[k])
	}
	// Greedy colouring of the closed column intervals [src, far], taken in
	// order of src, uses the fewest rows.
	slices.SortStableFunc(wires, func(a, b *wire) int { return a.src - b.src })
	var rows [][]*wire
	var ends []int
	for _, wr := range wires {
		placed := false
		for r := range rows {
			if ends[r] < wr.src {
				rows[r] = append(rows[r], wr)
				ends[r] = wr.far
				placed = true
				break
			}
		}
		if !placed {
			rows = append(rows, []*wire{wr})
			ends = append(ends, wr.far)
		}
	}
	width := n.Width()
	src := '┤'
	if bitZeroLeft {
		src = '├'
	}
	out := make([][]rune, len(rows))
	for r, ws := range rows {
		row := blank(2*width - 1)
		for col := range width {
			row[x(col)] = '│'
		}
		for _, wr := range ws {
			a, b := x(wr.src), x(wr.far)
			for i := min(a, b); i <= max(a, b); i++ {
				if row[i] == '│' {
					row[i] = '┼'
				} else {
					row[i] = '─'
				}
			}
			row[a] = src
			for i, col := range wr.readers {
				row[x(col)] = '●'
				if wr.stale[i] {
					row[x(col)] = '◆'
				}
			}
		}
		out[r] = row
	}
	return out
}

// writeRow writes a labelled row without trailing spaces.
func writeRow(w *bufio.Writer, head string, label int, row []rune) {
	line := head + strings.Repeat(" ", max(1, label-len([]rune(head)))) + string(row)
	w.WriteString(strings.TrimRight(line, " "))
	w.WriteByte('\n')
}

// blank returns n spaces.
func blank(n int) []rune {
	row := make([]rune, n)
	for i := range row {
		row[i] = ' '
	}
	return row
}

// pow10 returns 10^d.
func pow10(d int) int {
	p := 1
	for range d {
		p *= 10
	}
	return p
}
