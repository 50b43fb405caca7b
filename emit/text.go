package emit

import (
	"bufio"
	"container/heap"
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

// TextSize returns the bytes Text writes for n, at most and within a few
// hundred, in time linear in the cells and the width times the depth: it
// counts the rows Text lays the levels' wires out on without drawing
// them. A diagram takes about four bytes a column (a three-byte line and
// a space) on every row, and a level whose wires overlap takes a row for
// each (Kogge–Stone's last level has as many rows as half its columns), so
// that its size grows as the width times the rows, not the depth.
func TextSize(n *network.Network) int64 {
	w := int64(n.Width())
	digits := int64(len(strconv.Itoa(n.Width() - 1)))
	const lineBytes = 128 // the caption's figures and the legend of ◆, at most
	size := int64(len(Name(n))) + 2*lineBytes + digits*(2*w+6)
	// The cells by level (a counting sort).
	start := make([]int, n.Depth()+2)
	for k := range n.Size() {
		start[n.Level(n.CellSignal(k))+1]++
	}
	for l := 1; l < len(start); l++ {
		start[l] += start[l-1]
	}
	order := make([]int32, n.Size())
	next := slices.Clone(start)
	for k := range n.Size() {
		l := n.Level(n.CellSignal(k))
		order[next[l]] = int32(k)
		next[l]++
	}
	// far[lo] is the column of signal lo's farthest reader in level
	// farAt[lo], and seen[col] the last level with a cell in column col.
	far := make([]int, n.Signals())
	farAt := make([]int, n.Signals())
	seen := make([]int, n.Width())
	cover := make([]int, n.Width()+1) // +1 at a wire's src, -1 after its far
	var los []int
	var intervals [][2]int
	for l := 1; l <= n.Depth(); l++ {
		cells := order[start[l]:start[l+1]]
		intervals = intervals[:0]
		los = los[:0]
		simple := true // one cell a column: no copies, one wire a Lo
		for _, k := range cells {
			c := n.Cell(int(k))
			col := n.Column(n.CellSignal(int(k)))
			if seen[col] == l {
				simple = false
				break
			}
			seen[col] = l
			if farAt[c.Lo] != l {
				farAt[c.Lo], far[c.Lo] = l, 0
				los = append(los, c.Lo)
			}
			far[c.Lo] = max(far[c.Lo], col)
		}
		if simple {
			for _, lo := range los {
				intervals = append(intervals, [2]int{n.Column(lo), far[lo]})
			}
		} else {
			ks := make([]int, len(cells))
			for i, k := range cells {
				ks[i] = int(k)
			}
			for _, wr := range levelWires(n, ks, nil) {
				intervals = append(intervals, [2]int{wr.src, wr.far})
			}
		}
		for _, iv := range intervals {
			size += 2 * int64(iv[1]-iv[0]) // a three-byte ─ for a space
		}
		// A row: its label (the first "L<l>" and spaces, the others "·"
		// and five spaces), a three-byte line in every column, a space
		// between two, and the newline.
		rows := mostOver(intervals, cover)
		size += max(6, int64(len(strconv.Itoa(l)))+2) + (rows-1)*7 + rows*4*w
	}
	return size
}

// mostOver returns the most intervals (closed, of columns) over one
// column: the rows greedy colouring (tracks) puts them on. cover, zero,
// has a place for every column and one more; it is left zero. It counts
// over the columns where there are as many intervals as columns, else
// over the intervals' ends sorted (a ripple adder's levels have one wire
// each).
func mostOver(intervals [][2]int, cover []int) int64 {
	var most, on int64
	if len(intervals)*8 >= len(cover) {
		for _, iv := range intervals {
			cover[iv[0]]++
			cover[iv[1]+1]--
		}
		for col := range cover {
			on += int64(cover[col])
			most = max(most, on)
			cover[col] = 0
		}
		return most
	}
	starts, ends := make([]int, len(intervals)), make([]int, len(intervals))
	for i, iv := range intervals {
		starts[i], ends[i] = iv[0], iv[1]+1
	}
	slices.Sort(starts)
	slices.Sort(ends)
	e := 0
	for i, s := range starts {
		for e < len(ends) && ends[e] <= s {
			e++
		}
		most = max(most, int64(i+1-e))
	}
	return most
}

// wire is one Lo signal of one level and the columns of the cells reading it.
type wire struct {
	src     int    // the column the Lo signal ends in
	far     int    // the column of its farthest reader
	readers []int  // the columns of its readers
	stale   []bool // whether each reader reads an older signal than its lines carry
}

// levelWires returns the wires of one level's cells; stale[k] marks a cell
// k that reads an older signal than its lines carry. A copy of a cell (the
// same operands, as copies made to bound the fan-out are) reads the same
// Lo in the same column: it gets a wire of its own, so that every cell is
// drawn.
func levelWires(n *network.Network, cells []int, stale map[int]bool) []*wire {
	type read struct{ lo, col int }
	bySignal := map[int][]*wire{}
	copies := map[read]int{} // the readers of a Lo in a column so far
	var wires []*wire
	for _, k := range cells {
		c := n.Cell(k)
		col := n.Column(n.CellSignal(k))
		// The i-th reader of c.Lo in col is on c.Lo's i-th wire.
		i := copies[read{c.Lo, col}]
		copies[read{c.Lo, col}] = i + 1
		if i == len(bySignal[c.Lo]) {
			wr := &wire{src: n.Column(c.Lo)}
			bySignal[c.Lo] = append(bySignal[c.Lo], wr)
			wires = append(wires, wr)
		}
		wr := bySignal[c.Lo][i]
		wr.far = max(wr.far, col)
		wr.readers = append(wr.readers, col)
		wr.stale = append(wr.stale, stale[k])
	}
	return wires
}

// tracks puts the wires of one level on rows: taken in order of src, each
// goes on the first row whose wires all end before its src (greedy
// colouring of the closed column intervals [src, far], which uses the
// fewest rows). It runs in time w log w for w wires: Kogge–Stone's wide
// levels have as many rows as wires.
func tracks(wires []*wire) [][]*wire {
	slices.SortStableFunc(wires, func(a, b *wire) int { return a.src - b.src })
	var rows [][]*wire
	var busy endHeap // the rows in use, by the end of their last wire
	var free intHeap // the rows whose wires all end before the src reached
	for _, wr := range wires {
		for len(busy) > 0 && busy[0].end < wr.src {
			free.push(heap.Pop(&busy).(rowEnd).row)
		}
		r := len(rows)
		if len(free) > 0 {
			r = free.pop()
		} else {
			rows = append(rows, nil)
		}
		rows[r] = append(rows[r], wr)
		heap.Push(&busy, rowEnd{end: wr.far, row: r})
	}
	return rows
}

// rowEnd is a row of tracks and the column its last wire ends in.
type rowEnd struct{ end, row int }

// endHeap is a min-heap of rows by their end.
type endHeap []rowEnd

func (h endHeap) Len() int           { return len(h) }
func (h endHeap) Less(i, j int) bool { return h[i].end < h[j].end }
func (h endHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *endHeap) Push(x any)        { *h = append(*h, x.(rowEnd)) }
func (h *endHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// intHeap is a min-heap of row numbers.
type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
func (h *intHeap) push(r int) { heap.Push(h, r) }
func (h *intHeap) pop() int   { return heap.Pop(h).(int) }

// levelRows draws the cells of one level, one row per track of wires; the
// cells in stale are drawn ◆.
func levelRows(n *network.Network, cells []int, stale map[int]bool, x func(int) int, bitZeroLeft bool) [][]rune {
	rows := tracks(levelWires(n, cells, stale))
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
