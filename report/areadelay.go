package report

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"math/bits"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// PlotAreaDelay writes the plot of area against delay after synthesis of
// the measured points at width n, in format "svg" or "png": one marker per
// adder, one shape and colour per family as in Plot, a sparse adder's
// marker marked inside by its sparseness (one, two or three dots in a row
// for 2, 4 and 8: no family's shape), the area–delay front ringed and joined by a line, and
// Yosys's own a + b + cin (ref, when not nil) as a star under them, its
// outline over them. Adders measured at
// one point, and Yosys's adder at theirs, stand side by side in a row
// from it to the right, in the order of points and the star last, so that
// no glyph hides another (as the families of one depth in Plot), and the
// delay axis reaches the last of a row. The title
// names what the adders share (adder.Architecture.Name: "ling pgcells
// adders") and says when they are pipelined. Adders slower than four times the fastest one
// (ripple carry, long chains) are counted in the title, not drawn, unless
// an adder of a file (explore.FileFamily) is slower still: the plot then
// reaches it, and draws every adder up to its delay. A
// radix-k network (explore.Options.Valencies) has a marker of its own,
// named as "kogge-stone v=3". An adder of a file is a diamond over the
// other markers, with its name on a pale ground over everything, beside
// it where that hides the fewest markers, or a few lines up or down with a
// thin line back to it, which crosses the front's line as little as it
// can.
func PlotAreaDelay(w io.Writer, n int, points []explore.Measured, ref *physical.Result, format string) error {
	if !slices.Contains(PlotFormats, format) {
		return fmt.Errorf("report: unknown plot format %q: allowed svg, png", format)
	}
	if len(points) == 0 {
		return fmt.Errorf("report: nothing to plot")
	}
	r0 := points[0].Result
	// What every adder shares, named as synth names it (the sparseness
	// differs from point to point, the pipeline has a line of its own).
	shared := points[0].Adder
	shared.Sparse, shared.Stages, shared.NoReset = 1, 0, false
	// Ling's carries and library cells in the title only where every
	// adder has them; where some do, a mark says which (optionMarks).
	someLing, somePG, someFA, someInc := false, false, false, false
	for _, m := range points {
		shared.Ling = shared.Ling && m.Adder.Ling
		shared.PGCells = shared.PGCells && m.Adder.PGCells
		shared.FACells = shared.FACells && m.Adder.FACells
		shared.Increment = shared.Increment && m.Adder.Increment
		someLing = someLing || m.Adder.Ling
		somePG = somePG || m.Adder.PGCells
		someFA = someFA || m.Adder.FACells
		someInc = someInc || m.Adder.Increment
		if m.Adder.Normal().Valency != shared.Normal().Valency {
			// Radix-k networks among binary ones: the legend names each.
			shared.Valency = 2
		}
	}
	adders := ""
	if name := shared.Name(); name != "" {
		adders = ", " + name + " adders"
	}
	title := fmt.Sprintf("Adders of width %d after synthesis (%s, flow %s%s)", n, libraryName(r0.Liberty), r0.Flow, adders)
	// A pipelined adder's delay is another figure: a second line says so,
	// as the first is as wide as the plot allows.
	switch k := points[0].Adder.Stages; {
	case k == 1:
		title += "\npipelined, 1 register stage: delay = least clock period"
	case k > 1:
		title += fmt.Sprintf("\npipelined, %d register stages: delay = least clock period", k)
	}
	p, legend := newPlot(title, "delay (ns)", "area (µm²)")

	fastest := points[0].Result.MedianDelayNS()
	for _, m := range points {
		fastest = min(fastest, m.Result.MedianDelayNS())
	}
	// Those slower than four times the fastest are left out, but for the
	// adders of files, which the user asked to see: the plot reaches the
	// slowest of them.
	limit := 4 * fastest
	for _, m := range points {
		if m.Family == explore.FileFamily {
			limit = max(limit, m.Result.MedianDelayNS())
		}
	}
	shown := func(r *physical.Result) bool { return r.MedianDelayNS() <= limit }
	at := func(r *physical.Result) plotter.XY { return plotter.XY{X: r.MedianDelayNS(), Y: r.MedianAreaUM2()} }
	judged := slices.Clone(points)
	explore.AreaDelayFront(judged)

	// The glyphs drawn: the adders shown, in the order of points, then
	// Yosys's adder; those at one point stand side by side (sideBySide),
	// each as wide as its ring, star or marker.
	var drawn []int // the indices in points of the adders shown
	var xys plotter.XYs
	var halves []vg.Length
	hidden := 0
	var families []string
	byFamily := map[string][]int{} // family: indices in drawn
	for i, m := range points {
		fam := plotFamily(m)
		if !slices.Contains(families, fam) {
			families = append(families, fam)
		}
		if !shown(m.Result) {
			hidden++
			continue
		}
		byFamily[fam] = append(byFamily[fam], len(drawn))
		drawn = append(drawn, i)
		xys = append(xys, at(m.Result))
		half := vg.Points(familyRadius * markerWidth)
		if judged[i].OnFront {
			half = vg.Points(ringRadius)
		}
		halves = append(halves, half)
	}
	withRef := ref != nil && shown(ref)
	if withRef {
		xys = append(xys, at(ref))
		halves = append(halves, vg.Points(starRadius))
	}
	dx := sideBySide(xys, halves)
	if hidden > 0 {
		p.Title.Text += fmt.Sprintf("\n%d slower than %.2f ns not shown", hidden, limit)
	}
	// subset returns the points and offsets of the glyphs ks.
	subset := func(ks []int) (plotter.XYs, []vg.Length) {
		pts, off := make(plotter.XYs, len(ks)), make([]vg.Length, len(ks))
		for j, k := range ks {
			pts[j], off[j] = xys[k], dx[k]
		}
		return pts, off
	}

	// The front, fastest first, joined through its rings.
	var front []int
	for k, i := range drawn {
		if judged[i].OnFront {
			front = append(front, k)
		}
	}
	slices.SortStableFunc(front, func(a, b int) int {
		return cmp.Or(cmp.Compare(xys[a].X, xys[b].X), cmp.Compare(xys[a].Y, xys[b].Y))
	})
	if len(front) > 1 {
		pts, off := subset(front)
		line, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		line.Color = color.Gray{0x80}
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(nudgedLine{line, off})
	}
	// Yosys's star under the networks' markers and rings, so that it hides
	// none near it, and its outline over them, so that a cloud of markers
	// hides it neither; it is last in the legend.
	var star *plotter.Scatter
	var starOutline *nudgedScatter
	if withRef {
		pts, off := subset([]int{len(xys) - 1})
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{0xd5, 0x00, 0x00, 0xff}, Radius: vg.Points(starRadius), Shape: starGlyph{}}
		p.Add(nudgedScatter{s, off})
		star = s
		o := *s
		o.GlyphStyle.Shape = starGlyph{Outline: true}
		starOutline = &nudgedScatter{&o, off}
	}
	others := 0
	var files *nudgedScatter // the adders of files, drawn over the rest
	for _, fam := range families {
		col, shape := familyStyle(fam, others)
		if c, g, ok := radixStyle(fam); ok {
			col, shape = c, g
		} else if fam == explore.FileFamily {
			col, shape = fileColor, filledDiamondGlyph{}
		} else if !slices.Contains(familyOrder, fam) {
			others++
		}
		if len(byFamily[fam]) == 0 {
			continue
		}
		pts, off := subset(byFamily[fam])
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(familyRadius), Shape: shape}
		if fam == explore.FileFamily {
			files = &nudgedScatter{s, off}
		} else {
			p.Add(nudgedScatter{s, off})
		}
		legend.Add(fam, s)
	}
	// overlay marks the adders drawn that have a property with the glyph
	// of style over their markers; it returns nil where none has it. The
	// marks of the adders of files go into fileMarks too, to be drawn
	// again over their diamonds.
	var fileMarks []nudgedScatter
	overlay := func(has func(adder.Architecture) bool, style draw.GlyphStyle) (*plotter.Scatter, error) {
		var ks, fks []int
		for k, i := range drawn {
			if has(points[i].Adder) {
				ks = append(ks, k)
				if points[i].Family == explore.FileFamily {
					fks = append(fks, k)
				}
			}
		}
		if len(ks) == 0 {
			return nil, nil
		}
		var s *plotter.Scatter
		for j, set := range [][]int{ks, fks} {
			if len(set) == 0 {
				continue
			}
			pts, off := subset(set)
			m, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("report: %w", err)
			}
			m.GlyphStyle = style
			if j == 0 {
				p.Add(nudgedScatter{m, off})
				s = m
			} else {
				fileMarks = append(fileMarks, nudgedScatter{m, off})
			}
		}
		return s, nil
	}
	for _, sparse := range []int{2, 4, 8} {
		s, err := overlay(func(a adder.Architecture) bool { return a.Sparse == sparse }, sparseStyle(sparse))
		if err != nil {
			return err
		}
		if s != nil {
			legend.Add(fmt.Sprintf("sparse %d", sparse), s)
		}
	}
	for _, mark := range []struct {
		name string
		some bool
		has  func(adder.Architecture) bool
		side barSide
	}{
		{"ling", someLing && !shared.Ling, func(a adder.Architecture) bool { return a.Ling }, barAbove},
		{"pg cells", somePG && !shared.PGCells, func(a adder.Architecture) bool { return a.PGCells }, barUnder},
		{"full adders", someFA && !shared.FACells, func(a adder.Architecture) bool { return a.FACells }, barLeft},
		{"carry-increment blocks", someInc && !shared.Increment, func(a adder.Architecture) bool { return a.Increment }, barRight},
	} {
		if !mark.some {
			continue
		}
		style := draw.GlyphStyle{Color: color.Black, Radius: vg.Points(familyRadius), Shape: barGlyph{Side: mark.side}}
		s, err := overlay(mark.has, style)
		if err != nil {
			return err
		}
		if s != nil {
			legend.Add(mark.name, barThumbnail{style})
		}
	}
	// The adders read from files, each named beside its marker.
	var names plotter.XYLabels
	var namedOff []vg.Length
	for k, i := range drawn {
		if points[i].Family == explore.FileFamily {
			names.XYs = append(names.XYs, xys[k])
			names.Labels = append(names.Labels, points[i].Name)
			namedOff = append(namedOff, dx[k])
		}
	}
	var named *nudgedLabels
	if len(names.XYs) > 0 {
		labels, err := plotter.NewLabels(names)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		for j := range labels.TextStyle {
			labels.TextStyle[j].Color = fileColor
			labels.TextStyle[j].Font.Size = vg.Points(7)
			labels.TextStyle[j].XAlign = draw.XLeft
			labels.TextStyle[j].YAlign = draw.YCenter
		}
		labels.Offset = vg.Point{X: vg.Points(familyRadius*markerWidth + 2)}
		named = &nudgedLabels{Labels: labels, DX: namedOff, Avoid: xys, AvoidDX: dx}
		named.Front, named.FrontDX = subset(front)
	}
	if len(front) > 0 {
		pts, off := subset(front)
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(ringRadius), Shape: draw.RingGlyph{}}
		p.Add(nudgedScatter{s, off})
		legend.Add("area–delay front", s)
	}
	// The adders of files, Yosys's star's outline and the names last, over
	// everything.
	if files != nil {
		p.Add(*files)
		for _, m := range fileMarks {
			p.Add(m)
		}
	}
	if starOutline != nil {
		p.Add(*starOutline)
	}
	if named != nil {
		p.Add(*named)
	}
	if star != nil {
		legend.Add(physical.ReferenceName, star)
	}
	p.Y.Tick.Marker = sizeTicks{}

	return drawWithLegendWidth(w, format, p, legend, legendWidth, func(p *plot.Plot, area draw.Canvas) {
		widenForRows(p, area, xys, dx)
	})
}

// widenForRows widens p's x axis, drawn on area, until the centre of every
// glyph drawn dx right of its point at (sideBySide) lies over it: a row of
// adders that measure alike at the slowest delay shown otherwise runs
// past the axis's end. The room gonum leaves for glyphs changes with the
// axis's range, so the widening is repeated until it holds.
func widenForRows(p *plot.Plot, area draw.Canvas, at plotter.XYs, dx []vg.Length) {
	for range 16 {
		dc := p.DataCanvas(area)
		trX, _ := p.Transforms(&dc)
		var over vg.Length
		for i, pt := range at {
			if dx[i] > 0 {
				over = max(over, trX(pt.X)+dx[i]-dc.Max.X)
			}
		}
		width := dc.Max.X - dc.Min.X
		if over <= vg.Points(0.01) || width <= 0 {
			return
		}
		p.X.Max += float64(over/width) * (p.X.Max - p.X.Min)
	}
}

// libraryName returns a library's name for a title: the key of
// physical.Libraries for the OSU files, a carried library's name as it is
// (asap7), the name the Liberty library group of files gives
// (NangateOpenCellLibrary), and where they cannot be read the base name of
// each file.
func libraryName(file string) string {
	for name, f := range physical.Libraries {
		if f == file {
			return name
		}
	}
	if name, err := physical.LibraryName(file); err == nil && name != "" {
		return name
	}
	var names []string
	for f := range strings.SplitSeq(file, ",") {
		names = append(names, filepath.Base(f))
	}
	return strings.Join(names, ",")
}

// Sizes of the glyphs on the area–delay plot, in points: a family's
// marker's radius, the widest marker's half-width over that radius (the
// diamond's), the front's ring's radius, Yosys's star's, and the room
// between glyphs set side by side.
const (
	familyRadius = 3.5
	markerWidth  = 1.15
	ringRadius   = 6.5
	starRadius   = 7
	glyphGap     = 1.5
)

// sideBySide returns how far right of its point each glyph is drawn: the
// glyphs at one point (equal in at) stand side by side in a row, in their
// order, glyphGap apart, half[i] the half-width of glyph i, the first on
// the point itself and the others to its right, so that the first (the
// one the front counts, when the point is on it) and the front's line
// stay where they were measured; a glyph alone at its point stays on it.
func sideBySide(at plotter.XYs, half []vg.Length) []vg.Length {
	dx := make([]vg.Length, len(at))
	var points []plotter.XY
	groups := map[plotter.XY][]int{}
	for i, p := range at {
		if _, ok := groups[p]; !ok {
			points = append(points, p)
		}
		groups[p] = append(groups[p], i)
	}
	for _, p := range points {
		g := groups[p]
		for j := 1; j < len(g); j++ {
			dx[g[j]] = dx[g[j-1]] + half[g[j-1]] + vg.Points(glyphGap) + half[g[j]]
		}
	}
	return dx
}

// nudgedScatter is a scatter whose glyph i is drawn DX[i] right of its
// point (sideBySide); its legend thumbnail is the scatter's.
type nudgedScatter struct {
	*plotter.Scatter
	DX []vg.Length
}

// Plot implements plot.Plotter.
func (s nudgedScatter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, p := range s.XYs {
		sty := s.GlyphStyle
		if s.GlyphStyleFunc != nil {
			sty = s.GlyphStyleFunc(i)
		}
		// Drawn when its point is inside the axes, as a scatter's glyph;
		// the axes leave it room where it stands (GlyphBoxes).
		pt := vg.Point{X: trX(p.X), Y: trY(p.Y)}
		if c.Contains(pt) {
			c.DrawGlyphNoClip(sty, vg.Point{X: pt.X + s.DX[i], Y: pt.Y})
		}
	}
}

// GlyphBoxes implements plot.GlyphBoxer: the axes leave room for the
// glyphs where they are drawn.
func (s nudgedScatter) GlyphBoxes(plt *plot.Plot) []plot.GlyphBox {
	bs := s.Scatter.GlyphBoxes(plt)
	for i := range bs {
		bs[i].Rectangle = bs[i].Rectangle.Add(vg.Point{X: s.DX[i]})
	}
	return bs
}

// nudgedLine is a line whose point i is DX[i] right of where it is: the
// front's line through its rings where they stand side by side.
type nudgedLine struct {
	*plotter.Line
	DX []vg.Length
}

// Plot implements plot.Plotter.
func (l nudgedLine) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	ps := make([]vg.Point, len(l.XYs))
	var most vg.Length
	for i, p := range l.XYs {
		ps[i] = vg.Point{X: trX(p.X) + l.DX[i], Y: trY(p.Y)}
		most = max(most, l.DX[i], -l.DX[i])
	}
	// Clipped to the axes widened by the farthest nudge, so that the line
	// reaches a ring nudged past the last delay.
	wide := c
	wide.Min.X -= most
	wide.Max.X += most
	c.StrokeLines(l.LineStyle, wide.ClipLinesXY(ps)...)
}

// sparseStyle is the mark of a sparse adder of the given sparseness, 2, 4
// or 8: one, two or three black dots, drawn inside the family's marker.
func sparseStyle(sparse int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: color.Black, Radius: vg.Points(0.9), Shape: dotsGlyph{Count: bits.Len(uint(sparse)) - 1}}
}

// dotsGlyph draws Count filled dots of the style's radius in a row centred
// on the point: the mark of a sparse adder, inside its family's marker.
type dotsGlyph struct {
	Count int
}

// DrawGlyph implements draw.GlyphDrawer.
func (g dotsGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetColor(sty.Color)
	step := 2.4 * sty.Radius
	x := pt.X - step*vg.Length(g.Count-1)/2
	for range g.Count {
		var dot vg.Path
		dot.Move(vg.Point{X: x + sty.Radius, Y: pt.Y})
		dot.Arc(vg.Point{X: x, Y: pt.Y}, sty.Radius, 0, 2*math.Pi)
		dot.Close()
		c.Fill(dot)
		x += step
	}
}

// starGlyph draws a five-pointed star, which no family uses: filled, or
// its outline only.
type starGlyph struct {
	Outline bool
}

// DrawGlyph implements draw.GlyphDrawer.
func (g starGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	width := vg.Points(0.5)
	if g.Outline {
		width = vg.Points(1)
	}
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: width})
	c.SetColor(sty.Color)
	var path vg.Path
	for i := range 10 {
		r := sty.Radius
		if i%2 == 1 {
			r = sty.Radius * 0.4
		}
		a := float64(i)*math.Pi/5 - math.Pi/2
		q := vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y - r*vg.Length(math.Sin(a))}
		if i == 0 {
			path.Move(q)
		} else {
			path.Line(q)
		}
	}
	path.Close()
	if g.Outline {
		c.Stroke(path)
		return
	}
	c.Fill(path)
}

// plotFamily is the legend's entry of a measured point: its family, and for
// a radix-k network (explore --valency) the family with its valency, as
// "kogge-stone v=3", a marker of its own.
func plotFamily(m explore.Measured) string {
	if m.Network != nil {
		if k := topologies.ValencyOf(m.Network); k > 2 {
			return fmt.Sprintf("%s v=%d", m.Family, k)
		}
	}
	return m.Family
}

// radixStyle is the marker of a radix-k network's legend entry (see
// plotFamily): its family's colour, filled, a square for valency 3 and a
// triangle for 4.
func radixStyle(fam string) (color.Color, draw.GlyphDrawer, bool) {
	base, k, ok := strings.Cut(fam, " v=")
	if !ok || !slices.Contains(familyOrder, base) {
		return nil, nil, false
	}
	col, _ := familyStyle(base, 0)
	if k == "3" {
		return col, draw.BoxGlyph{}, true
	}
	return col, draw.PyramidGlyph{}, true
}

// fileColor is the colour of the adders read from files (explore --synth
// --with) and of their names: Tol's vibrant magenta, which no family has.
var fileColor = color.RGBA{0xee, 0x33, 0x77, 0xff}

// filledDiamondGlyph draws a filled diamond: an adder read from a file.
type filledDiamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (filledDiamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetColor(sty.Color)
	c.Fill(diamondPath(pt, sty.Radius*markerWidth))
}

// barSide is where a barGlyph draws its bar.
type barSide int

// The sides of a barGlyph's bar.
const (
	barUnder barSide = iota
	barAbove
	barLeft
	barRight
)

// barGlyph draws a short bar beside the marker of the style's radius: the
// mark of an adder with Ling's carries (above), library cells for
// generate and propagate (under), the library's full adders (left) or
// carry-increment blocks of them (right), where not every adder has them.
type barGlyph struct {
	Side barSide
}

// DrawGlyph implements draw.GlyphDrawer.
func (g barGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	line := draw.LineStyle{Color: sty.Color, Width: vg.Points(0.8)}
	d := sty.Radius*markerWidth + vg.Points(1.2)
	switch g.Side {
	case barAbove:
		c.StrokeLine2(line, pt.X-sty.Radius, pt.Y+d, pt.X+sty.Radius, pt.Y+d)
	case barLeft:
		c.StrokeLine2(line, pt.X-d, pt.Y-sty.Radius, pt.X-d, pt.Y+sty.Radius)
	case barRight:
		c.StrokeLine2(line, pt.X+d, pt.Y-sty.Radius, pt.X+d, pt.Y+sty.Radius)
	default:
		c.StrokeLine2(line, pt.X-sty.Radius, pt.Y-d, pt.X+sty.Radius, pt.Y-d)
	}
}

// barThumbnail is the legend's picture of a barGlyph: a grey ring for any
// family's marker, level with the text, and the bar beside it.
type barThumbnail struct {
	style draw.GlyphStyle
}

// Thumbnail implements plot.Thumbnailer.
func (b barThumbnail) Thumbnail(c *draw.Canvas) {
	pt := vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: (c.Min.Y + c.Max.Y) / 2}
	c.DrawGlyphNoClip(draw.GlyphStyle{Color: color.Gray{0xa0}, Radius: b.style.Radius, Shape: draw.RingGlyph{}}, pt)
	c.DrawGlyphNoClip(b.style, pt)
}

// nudgedLabels draws its labels DX right of their points, as nudgedScatter
// draws glyphs, each on a pale ground so that it reads over the cloud of
// markers, where it hides the fewest of the glyphs at Avoid (moved right
// by AvoidDX) and none of the labels drawn before it, and where a line
// back to its marker crosses the front's line (Front, its points moved
// right by FrontDX, fastest first) the fewest times.
type nudgedLabels struct {
	*plotter.Labels
	DX      []vg.Length
	Avoid   plotter.XYs
	AvoidDX []vg.Length
	Front   plotter.XYs
	FrontDX []vg.Length
}

// labelSteps is how many lines above or below its marker placeLabel may
// move a label.
const labelSteps = 12

// Plot implements plot.Plotter: each label beside its marker, on its right
// or its left, or up to labelSteps lines above or below with a thin line
// back to the marker (placeLabel).
func (l nudgedLabels) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	glyphs := make([]vg.Point, len(l.Avoid))
	for i, p := range l.Avoid {
		glyphs[i] = vg.Point{X: trX(p.X) + l.AvoidDX[i], Y: trY(p.Y)}
	}
	front := make([]vg.Point, len(l.Front))
	for i, p := range l.Front {
		front[i] = vg.Point{X: trX(p.X) + l.FrontDX[i], Y: trY(p.Y)}
	}
	var placed []vg.Rectangle
	for i, p := range l.XYs {
		pt := vg.Point{X: trX(p.X), Y: trY(p.Y)}
		if !c.Contains(pt) {
			continue
		}
		pt.X += l.DX[i]
		sty, text := l.TextStyle[i], l.Labels.Labels[i]
		size := vg.Point{X: sty.Width(text), Y: sty.Height(text)}
		box, moved := placeLabel(c.Rectangle, pt, l.Offset.X, size, glyphs, front, placed)
		placed = append(placed, box)
		if moved {
			end := leaderEnd(pt, box)
			c.StrokeLine2(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.4)}, pt.X, pt.Y, end.X, end.Y)
		}
		pad := vg.Points(1)
		ground := vg.Rectangle{Min: vg.Point{X: box.Min.X - pad, Y: box.Min.Y}, Max: vg.Point{X: box.Max.X + pad, Y: box.Max.Y}}
		c.FillPolygon(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xd8}, []vg.Point{ground.Min, {X: ground.Max.X, Y: ground.Min.Y}, ground.Max, {X: ground.Min.X, Y: ground.Max.Y}})
		at := vg.Point{X: box.Min.X, Y: (box.Min.Y + box.Max.Y) / 2}
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
		c.FillText(sty, at, text)
	}
}

// leaderEnd is where the line from a marker at pt to its label's box,
// moved off the marker's line, ends: the middle of the box's near side.
func leaderEnd(pt vg.Point, box vg.Rectangle) vg.Point {
	end := vg.Point{X: box.Min.X, Y: (box.Min.Y + box.Max.Y) / 2}
	if box.Max.X <= pt.X {
		end.X = box.Max.X
	}
	return end
}

// placeLabel returns where a label of size goes for the marker at pt,
// gap from its centre: the box inside area that overlaps none of placed
// and covers the fewest glyphs (each counted over its marker's radius),
// a line above or below the marker costing as much as two glyphs covered,
// as does each crossing of the line back to the marker with the polyline
// front, and the left side half of one; and whether it lies away from
// the marker's line, which then wants a line back to it. With no such box
// it is on the marker's right, where it overlaps what it must.
func placeLabel(area vg.Rectangle, pt vg.Point, gap vg.Length, size vg.Point, glyphs, front []vg.Point, placed []vg.Rectangle) (vg.Rectangle, bool) {
	at := func(left bool, step int) vg.Rectangle {
		y := pt.Y + vg.Length(step)*size.Y - size.Y/2
		x := pt.X + gap
		if left {
			x = pt.X - gap - size.X
		}
		return vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + size.X, Y: y + size.Y}}
	}
	best, bestCost, moved := at(false, 0), math.Inf(1), false
	r := vg.Points(familyRadius)
	for k := 0; k <= labelSteps; k++ {
		for _, step := range []int{k, -k} {
			if k == 0 && step < 0 {
				continue
			}
			for _, left := range []bool{false, true} {
				box := at(left, step)
				if box.Min.X < area.Min.X || box.Min.Y < area.Min.Y || box.Max.X > area.Max.X || box.Max.Y > area.Max.Y {
					continue
				}
				if slices.ContainsFunc(placed, func(q vg.Rectangle) bool { return overlap(q, box) }) {
					continue
				}
				cost := 2 * float64(k)
				if left {
					cost += 0.5
				}
				if k > 0 {
					end := leaderEnd(pt, box)
					for j := 1; j < len(front); j++ {
						if crosses(pt, end, front[j-1], front[j]) {
							cost += 2
						}
					}
				}
				for _, g := range glyphs {
					if g.X+r > box.Min.X && g.X-r < box.Max.X && g.Y+r > box.Min.Y && g.Y-r < box.Max.Y {
						cost++
					}
				}
				if cost < bestCost {
					best, bestCost, moved = box, cost, k > 0
				}
			}
		}
	}
	return best, moved
}

// crosses reports whether the segments ab and cd cross at a point inside
// both: segments that only touch, or lie on one line, do not.
func crosses(a, b, c, d vg.Point) bool {
	side := func(p, q, r vg.Point) int {
		v := float64((q.X-p.X)*(r.Y-p.Y) - (q.Y-p.Y)*(r.X-p.X))
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	return side(a, b, c)*side(a, b, d) < 0 && side(c, d, a)*side(c, d, b) < 0
}

// overlap reports whether two rectangles share more than an edge.
func overlap(a, b vg.Rectangle) bool {
	return a.Min.X < b.Max.X && b.Min.X < a.Max.X && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}
