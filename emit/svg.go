package emit

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
)

// SVGOptions controls the SVG picture.
type SVGOptions struct {
	// BitZeroLeft draws bit 0 in the leftmost column. The default draws it
	// rightmost, as Harris and most adder textbooks do.
	BitZeroLeft bool
}

// The geometry of the SVG picture, in user units (pixels at 100%).
const (
	svgColumn   = 28                // between columns
	svgRow      = 32                // between rows
	svgLeft     = 44                // from the left edge to the middle of the first column: room for the level labels
	svgTop      = 18                // from the top edge to the middle of the input row
	svgRadius   = 7                 // of a cell
	svgLabelGap = labelGap * svgRow // between the middle of a label and the end of a line
	svgFont     = 11                // bit and level labels
	svgCapFont  = 12                // the caption
	svgCapLine  = 18                // between the caption's lines
	svgMargin   = 12                // right and bottom
)

// svgFill is the fill of each kind of cell.
var svgFill = [...]string{carry.Gray: "#aaa", carry.Black: "#000"}

// SVG draws the network as an SVG 1.1 picture in the textbook layout,
// without Graphviz: bit numbers on top (bit 0 on the right unless
// opt.BitZeroLeft), level numbers on the left, one row per level, and the
// outputs, labelled i:0 after the span they carry, at the bottom. A vertical
// line carries each column's latest signal down. A cell is a circle in the
// column of its span's high end and the row of its level, of class
// "cell black" (filled black: it computes G and P) or "cell gray" (filled
// gray: G only), as carry.Kinds tells them apart, with a <title> giving its
// span and level, which browsers show on hover. Its Lo operand arrives from
// its column line in the row above: along a straight wire from the next
// column, and otherwise along a lane of its own between the two rows (the
// wires of one signal share a lane; the gap grows to hold a level's lanes,
// as the text diagram's extra rows do), so that Kogge–Stone's long wires
// can each be followed. Its Hi operand arrives from above in its own column. A read that skips a newer
// signal of the same column (never so in the built-in topologies) is drawn
// as a curve beside the column line. A Lo operand whose column line carries
// a newer signal into the row above the cell (a higher-valency network's
// cell reads such older signals) leaves the older signal's own node, comes
// down beside its column line, on the side of the cell, to a lane of its
// own and along it into the cell: no wire runs through a cell it does not
// connect. A caption gives the network's name, width and figures. The
// output is deterministic.
func SVG(w io.Writer, net *network.Network, opt SVGOptions) error {
	l := newLayout(net, opt.BitZeroLeft)
	bw := bufio.NewWriter(w)

	f := l.fig
	lanes, laneCount := wireLanes(l, true)
	// A row whose Lo wires need lanes gets room for them above it.
	rowY := make([]int, l.rows)
	for r := range l.rows {
		rowY[r] = svgTop + r*svgRow
		if r > 0 {
			rowY[r] = rowY[r-1] + svgRow + max(0, laneCount[r]-1)*svgLane
		}
	}
	x := func(gx int) int { return svgLeft + gx*svgColumn }
	y := func(row int) int { return rowY[row] }
	// yAt is the height of a point between rows, in grid units: rows that
	// lanes made taller stretch the space between them.
	rowYf := make([]float64, len(rowY))
	for r, v := range rowY {
		rowYf[r] = float64(v)
	}
	yAt := func(g float64) float64 { return stretchedY(rowYf, svgRow, g) }
	bottom := y(l.outRow())
	lines := []string{
		fmt.Sprintf("%s, width %d", l.name, f.Width),
		fmt.Sprintf("depth %d, size %d, max fan-out %d, wire tracks %d, deficiency %d",
			f.Depth, f.Size, f.MaxFanout, f.WireTracks, f.Deficiency),
	}
	const legendWidth = 290 // the legend's two entries, as drawn below
	capWidth := legendWidth
	// The name, in bold, may be any letters; the figures' line is
	// lower case and digits.
	capWidth = max(capWidth, captionAdvance(lines[0], svgCapFont)*11/10, utf8.RuneCountInString(lines[1])*svgCapFont*3/5)
	capTop := bottom + svgLabelGap + svgCapLine + 8
	width := max(x(l.width-1)+svgColumn/2, svgLeft-svgColumn/2+capWidth) + svgMargin
	height := capTop + 2*svgCapLine + 4 + svgMargin

	fmt.Fprintf(bw, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\">\n",
		width, height, width, height)
	fmt.Fprintf(bw, "<title>%s</title>\n", svgText(l.caption))
	bw.WriteString("<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n")

	// The bit numbers on top, the level numbers on the left.
	fmt.Fprintf(bw, "<g class=\"bits\" font-size=\"%d\" text-anchor=\"middle\">\n", svgFont)
	for i := range l.width {
		fmt.Fprintf(bw, "<text x=\"%d\" y=\"%d\">%d</text>\n", x(l.x(i)), y(0)+4, i)
	}
	bw.WriteString("</g>\n")
	fmt.Fprintf(bw, "<g class=\"levels\" font-size=\"%d\">\n", svgFont)
	fmt.Fprintf(bw, "<text x=\"4\" y=\"%d\">bit</text>\n", y(0)+4)
	for lv := 1; lv <= l.depth; lv++ {
		fmt.Fprintf(bw, "<text x=\"4\" y=\"%d\">L%d</text>\n", y(l.levelRow[lv])+4, lv)
		end := l.outRow()
		if lv < l.depth {
			end = l.levelRow[lv+1]
		}
		for r := l.levelRow[lv] + 1; r < end; r++ {
			// A level's further rows, as in Text.
			fmt.Fprintf(bw, "<text x=\"4\" y=\"%d\">·</text>\n", y(r)+4)
		}
	}
	bw.WriteString("</g>\n")

	// The column lines, then the wires, then the cells on top of both.
	bw.WriteString("<g class=\"columns\" stroke=\"#555\">\n")
	for gx := range l.width {
		// A column whose output is an older signal than its last ends at
		// its last: the output comes by a curve of its own.
		end := bottom - svgLabelGap
		if i := l.bit(gx); l.outSkips[i] {
			end = y(l.lastRow[i])
		}
		fmt.Fprintf(bw, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
			x(gx), y(0)+svgLabelGap, x(gx), end)
	}
	bw.WriteString("</g>\n")
	bw.WriteString("<g class=\"wires\" stroke=\"#000\" fill=\"none\">\n")
	curve := func(pts []point) {
		bw.WriteString("<path d=\"")
		for j, p := range pts {
			cmd := " "
			switch j {
			case 0:
				cmd = "M"
			case 1:
				cmd = "C"
			}
			bw.WriteString(cmd + num(svgLeft+p.x*svgColumn) + " " + num(yAt(p.y)))
		}
		bw.WriteString("\"/>\n")
	}
	gx := func(g float64) string { return num(svgLeft + g*svgColumn) }
	for k, c := range l.cells {
		if lane := lanes[k]; lane >= 0 {
			// Down the Lo column line to the wire's own lane, along it, and
			// into the cell.
			ly := y(c.at.row-1) + svgRow/2 + lane*svgLane
			if c.at.row-1 == 0 {
				ly += svgLabelGap / 2
			}
			if c.loSkips {
				// lo's column line carries a newer signal into the cells
				// below lo: leave lo, step aside of the line halfway to the
				// next row, come down beside it to the lane, along the lane,
				// and into the cell.
				from := y(c.lo.row)
				if c.lo.row == 0 {
					from += svgLabelGap // from below the bit number
				}
				fmt.Fprintf(bw, "<path d=\"M%d %d L%s %s V%d H%s L%d %d\"/>\n",
					x(c.lo.x), from, gx(c.besideLo()), num(yAt(float64(c.lo.row)+0.5)),
					ly, gx(c.laneEnd()), x(c.at.x), y(c.at.row))
			} else {
				end := x(c.at.x) + svgColumn*2/5
				if c.tap.x < c.at.x {
					end = x(c.at.x) - svgColumn*2/5
				}
				fmt.Fprintf(bw, "<path d=\"M%d %d H%d L%d %d\"/>\n", x(c.tap.x), ly, end, x(c.at.x), y(c.at.row))
			}
			if c.hiSkips {
				curve(l.bypass(c.hi, c.at))
			}
			continue
		}
		from := y(c.tap.row)
		if c.tap.row == 0 {
			from += svgLabelGap // from below the bit number
		}
		fmt.Fprintf(bw, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
			x(c.tap.x), from, x(c.at.x), y(c.at.row))
		if c.hiSkips {
			curve(l.bypass(c.hi, c.at))
		}
	}
	for i := range l.width {
		if l.outSkips[i] {
			curve(l.bypass(l.at[net.Output(i)], l.out(i)))
		}
	}
	bw.WriteString("</g>\n")
	bw.WriteString("<g class=\"cells\" stroke=\"#000\">\n")
	for _, c := range l.cells {
		fmt.Fprintf(bw, "<circle class=\"cell %v\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\"><title>%v level %d, %v</title></circle>\n",
			c.kind, x(c.at.x), y(c.at.row), svgRadius, svgFill[c.kind],
			net.Span(c.signal), net.Level(c.signal), c.kind)
	}
	bw.WriteString("</g>\n")

	// The outputs, then the caption and a legend of the two kinds of cell.
	fmt.Fprintf(bw, "<g class=\"outputs\" font-size=\"%d\" text-anchor=\"middle\">\n", outputFont(l.width))
	for i := range l.width {
		fmt.Fprintf(bw, "<text x=\"%d\" y=\"%d\">%d:0</text>\n", x(l.x(i)), bottom+4, i)
	}
	bw.WriteString("</g>\n")
	left := svgLeft - svgColumn/2
	fmt.Fprintf(bw, "<g class=\"caption\" font-size=\"%d\">\n", svgCapFont)
	fmt.Fprintf(bw, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n", left, capTop, svgText(lines[0]))
	fmt.Fprintf(bw, "<text x=\"%d\" y=\"%d\">%s</text>\n", left, capTop+svgCapLine, svgText(lines[1]))
	ly := capTop + 2*svgCapLine + 4
	for j, k := range []carry.Kind{carry.Black, carry.Gray} {
		lx := left + svgRadius + j*150
		about := "black cell: G and P"
		if k == carry.Gray {
			about = "gray cell: G only"
		}
		fmt.Fprintf(bw, "<circle class=\"legend %v\" cx=\"%d\" cy=\"%d\" r=\"%d\" fill=\"%s\" stroke=\"#000\"/>\n",
			k, lx, ly-4, svgRadius-1, svgFill[k])
		fmt.Fprintf(bw, "<text x=\"%d\" y=\"%d\">%s</text>\n", lx+svgRadius+5, ly, about)
	}
	bw.WriteString("</g>\n</svg>\n")
	return bw.Flush()
}

// svgLane is the distance between the lanes of the Lo wires of one row.
const svgLane = 6

// svgText escapes s for XML character data.
func svgText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// captionAdvance is a generous guess at the width of s in a sans-serif
// font of size font: 0.95 em for the widest letters (m, w, M, W, @, %),
// 0.75 for other capitals, 0.6 for the rest.
func captionAdvance(s string, font int) int {
	w := 0
	for _, r := range s {
		switch {
		case strings.ContainsRune("mwMW@%", r):
			w += 95
		case r >= 'A' && r <= 'Z':
			w += 75
		default:
			w += 60
		}
	}
	return (w*font + 99) / 100
}

// outputFont is the font size of the output labels of a picture of width
// columns: svgFont − 1, or less where the widest label, "width−1:0", at
// 0.6 em a character would not fit between two columns.
func outputFont(width int) int {
	chars := len(fmt.Sprintf("%d:0", max(width-1, 0)))
	return max(4, min(svgFont-1, (svgColumn-2)*5/(3*chars)))
}
