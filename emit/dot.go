package emit

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/emicklei/dot"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
)

// DOTOptions controls the Graphviz drawing.
type DOTOptions struct {
	// BitZeroLeft draws bit 0 in the leftmost column. The default draws it
	// rightmost, as Harris and most adder textbooks do.
	BitZeroLeft bool
}

// The grid of the DOT drawing, in points (1/72 inch), the unit of pos under
// neato -n2.
const (
	dotColumn = 36 // between columns
	dotRow    = 40 // between rows
)

// DOT writes the network as a Graphviz digraph in the textbook layout: the
// inputs on top, labelled with their bit, one row per level, the outputs at
// the bottom, labelled i:0 after the span they carry. A cell is a small
// circle, filled black for a black cell (it computes G and P) and gray for a
// gray cell (G only), as carry.Kinds tells them apart; its tooltip gives its
// span, level and kind. Every edge runs from the node that produces an
// operand to the cell or output that reads it; a Lo edge from a row further
// up carries its own route (an edge pos) down its column line and into the
// cell, as textbooks draw it. A Lo edge that reaches two columns or more
// from the row above its cell runs down its column line to a lane of its
// own in the gap above the cell's row (the edges of one signal into one row
// share a lane; the gap grows to hold its lanes, as in the SVG picture),
// along the lane and into the cell, so that Kogge–Stone's long wires do not
// pass over the cells of their row. A Lo edge whose column line carries a
// newer signal into the row above the cell (a higher-valency network's cell
// reads such older signals) comes down beside the column line instead, on
// the side of the cell, to its lane; a read that skips a newer signal of its
// own column (never so in the built-in topologies) steps out beside the
// column line. No edge runs through a cell it does not connect. The graph's
// label names the network and gives its width and figures.
//
// Every node's position is pinned with pos="x,y!" (in points, y up), so
// that Graphviz's neato in its no-op mode draws the grid exactly as laid
// out here:
//
//	prefixgen gen -t sklansky -n 16 -f dot | neato -n2 -Tsvg > sk16.svg
//	prefixgen gen -t sklansky -n 16 -f dot | neato -n2 -Tpng > sk16.png
//
// Plain dot (dot -Tsvg) ignores the positions and lays the graph out
// itself. It keeps the rows (a rank=same subgraph per row) and the order of
// the inputs and outputs (invisible edges along those rows), and each
// column's nodes share a group, so sparse networks such as Sklansky and
// Brent–Kung come out as the same grid; where many long wires cross, as in
// Kogge–Stone, it moves columns. Use neato -n2 for the exact picture. The
// output is deterministic.
func DOT(w io.Writer, net *network.Network, opt DOTOptions) error {
	l := newLayout(net, opt.BitZeroLeft)
	g := dot.NewGraph(dot.Directed)
	g.ID("prefix")
	g.Attr("label", dotString(l.caption))
	g.Attr("labelloc", "t")
	g.Attr("fontname", "Helvetica")
	g.Attr("fontsize", "12")
	g.Attr("outputorder", "edgesfirst")
	g.Attr("splines", "line")
	g.Attr("nodesep", "0.1")

	// One subgraph per row keeps plain dot's ranks equal to the rows; the
	// keys sort in row order, and so do the node keys within a row.
	digits := len(strconv.Itoa(max(l.rows, net.Signals())))
	key := func(prefix byte, i int) string { return fmt.Sprintf("%c%0*d", prefix, digits, i) }
	rows := make([]*dot.Graph, l.rows)
	for r := range rows {
		rows[r] = g.Subgraph(key('r', r))
		rows[r].Delete("label")
		rows[r].Attr("rank", "same")
	}
	// A row whose Lo wires need lanes gets room for them above it: rowY
	// is each row's distance from the top, in points.
	lanes, laneCount := wireLanes(l, true)
	rowY := make([]float64, l.rows)
	for r := 1; r < l.rows; r++ {
		rowY[r] = rowY[r-1] + dotRow + float64(max(0, laneCount[r]-1)*dotLane)
	}
	height := rowY[l.rows-1]
	// yAt is the distance from the top of a height in grid units: rows that
	// lanes made taller stretch the space between them.
	yAt := func(g float64) float64 { return stretchedY(rowY, dotRow, g) }
	// coord gives the coordinates of a point; Graphviz's y axis points up.
	coord := func(p point) string {
		return num(p.x*dotColumn) + "," + num(height-yAt(p.y))
	}
	// laneY is the height, in grid units, of a lane in the gap above row:
	// the gap's lanes dotLane apart and centred in it (below the input
	// labels above row 1), lane 0 on top.
	laneY := func(row, lane int) float64 {
		top, bottom := rowY[row-1], rowY[row]
		if row == 1 {
			top = yAt(labelGap)
		}
		y := (top+bottom)/2 + (float64(lane)-float64(laneCount[row]-1)/2)*dotLane
		return float64(row-1) + (y-rowY[row-1])/(bottom-rowY[row-1])
	}
	place := func(n dot.Node, at spot, col int) dot.Node {
		n.Attrs("pos", coord(at.pt())+"!", "group", "c"+strconv.Itoa(col))
		return n
	}
	text := func(n dot.Node, label string) dot.Node {
		n.Attrs("shape", "plaintext", "label", label, "fontname", "Helvetica", "fontsize", "10",
			"width", "0.3", "height", "0.2", "margin", "0")
		return n
	}

	nodes := make([]dot.Node, net.Signals())
	for i := range net.Width() {
		nodes[i] = text(place(rows[0].Node(key('s', i)), l.at[i], i), strconv.Itoa(i))
	}
	for _, c := range l.cells {
		fill := "gray70"
		if c.kind == carry.Black {
			fill = "black"
		}
		sp := net.Span(c.signal)
		n := place(rows[c.at.row].Node(key('s', c.signal)), c.at, sp.To)
		n.Attrs("shape", "circle", "label", "", "fixedsize", "true",
			"width", "0.2", "height", "0.2", "style", "filled", "fillcolor", fill, "color", "black",
			"tooltip", fmt.Sprintf("%v level %d, %v", sp, net.Level(c.signal), c.kind))
		nodes[c.signal] = n
	}
	// An edge that must not run straight from its producer gets its own
	// route (pos, a cubic B-spline, which neato -n2 draws as given): a Lo
	// wire that travels down its column before it turns to the cell, one
	// that passes a newer signal of its column, or a read that bypasses a
	// newer signal of the same column.
	edge := func(from, to dot.Node, route ...point) {
		e := g.Edge(from, to).Attr("arrowhead", "none")
		if len(route) == 0 {
			return
		}
		pts := make([]string, len(route))
		for i, p := range route {
			pts[i] = coord(p)
		}
		e.Attr("pos", strings.Join(pts, " "))
	}
	for k, c := range l.cells {
		cell := net.Cell(k)
		if c.loSkips {
			// lo's column line carries a newer signal into the cells below
			// lo: step aside of the line halfway to the next row, come down
			// beside it to the wire's own lane in the gap above the cell,
			// along the lane, and into the cell.
			a := c.lo.pt()
			if c.lo.row == 0 {
				a.y += labelGap
			}
			side, ly := c.besideLo(), laneY(c.at.row, lanes[k])
			edge(nodes[cell.Lo], nodes[c.signal], polyline(a,
				point{side, float64(c.lo.row) + 0.5}, point{side, ly},
				point{c.laneEnd(), ly}, c.at.pt())...)
		} else if lanes[k] >= 0 {
			// Down the Lo column line to the wire's own lane in the gap
			// above the cell, along the lane, and into the cell. From an
			// input, start below its label.
			a, ly := c.lo.pt(), laneY(c.at.row, lanes[k])
			if c.lo.row == 0 {
				a.y += labelGap
			}
			edge(nodes[cell.Lo], nodes[c.signal], polyline(a,
				point{a.x, ly}, point{c.laneEnd(), ly}, c.at.pt())...)
		} else if c.tap != c.lo {
			// Straight down to the tap, then straight to the cell. From an
			// input, start below its label.
			a, t, b := c.lo.pt(), c.tap.pt(), c.at.pt()
			if c.lo.row == 0 {
				a.y += labelGap
			}
			edge(nodes[cell.Lo], nodes[c.signal], polyline(a, t, b)...)
		} else {
			edge(nodes[cell.Lo], nodes[c.signal])
		}
		if c.hiSkips {
			edge(nodes[cell.Hi], nodes[c.signal], l.bypass(c.hi, c.at)...)
		} else {
			edge(nodes[cell.Hi], nodes[c.signal])
		}
	}
	for i := range net.Width() {
		out := text(place(rows[l.outRow()].Node(key('t', i)), l.out(i), i), strconv.Itoa(i)+":0")
		if s := net.Output(i); l.outSkips[i] {
			edge(nodes[s], out, l.bypass(l.at[s], l.out(i))...)
		} else {
			edge(nodes[s], out)
		}
	}

	// Invisible edges from left to right along the input and output rows
	// keep plain dot's columns in bit order; neato does not need them.
	for _, prefix := range []byte{'s', 't'} {
		row := rows[0]
		if prefix == 't' {
			row = rows[l.outRow()]
		}
		for x := 1; x < net.Width(); x++ {
			left, right := l.bit(x-1), l.bit(x)
			g.Edge(row.Node(key(prefix, left)), row.Node(key(prefix, right))).Attr("style", "invis")
		}
	}

	var buf bytes.Buffer
	g.Write(&buf)
	// The library ends every block with an indented empty line; drop them.
	var out bytes.Buffer
	for line := range bytes.Lines(buf.Bytes()) {
		if len(bytes.TrimSpace(line)) > 0 {
			out.Write(line)
		}
	}
	_, err := w.Write(out.Bytes())
	return err
}

// dotLane is the distance, in points, between the lanes of the Lo wires
// of one row: the gap above a row grows by dotLane for every lane past
// its first.
const dotLane = 6

// polyline returns the control points of a cubic B-spline that runs
// straight from corner to corner, as neato -n2 draws an edge's pos: each
// straight piece is a cubic whose inner control points lie on its ends.
func polyline(corners ...point) []point {
	pts := []point{corners[0]}
	for i := 1; i < len(corners); i++ {
		pts = append(pts, corners[i-1], corners[i], corners[i])
	}
	return pts
}

// dotString quotes s as a DOT string whose label shows s as it is:
// backslashes and quotes are escaped, control characters become spaces.
func dotString(s string) dot.Literal {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < ' ' || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return dot.Literal(b.String())
}

// num formats a coordinate compactly: no exponent, no trailing zeros, and
// at most two decimals.
func num(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		return "0" // not "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
