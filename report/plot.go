package report

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// PlotFormats are the formats Plot writes.
var PlotFormats = []string{"svg", "png"}

// familyOrder fixes each family's style, so that a family looks the same
// in every plot whatever else is drawn: the built-in topologies in the
// order of topologies.Names, then carry-select (explore's CarrySelect),
// then the optimizer.
var familyOrder = append(topologies.Names(), "carry-select", "optimizer", explore.BoundedFamily(PlotFanoutBound))

// PlotFanoutBound is the fan-out bound under which the plots show the
// optimizer's networks too (explore.Bounded), beside its unbounded ones.
const PlotFanoutBound = 4

// palette holds the family colours and glyphs their marker shapes: entry i
// of both is one family's, so no two of the first len(palette) families
// share a colour or a shape. The colours are Paul Tol's colour-blind-safe
// "muted" scheme, its two pale ones replaced by black and Wong's orange,
// and Tol's vibrant red for the optimizer; most shapes are hollow, so that
// markers drawn over one another stay visible.
var (
	palette = []color.RGBA{
		{0x00, 0x00, 0x00, 0xff}, // ripple: black
		{0x88, 0x22, 0x55, 0xff}, // kogge-stone: wine
		{0x11, 0x77, 0x33, 0xff}, // brent-kung: green
		{0x33, 0x22, 0x88, 0xff}, // sklansky: indigo
		{0x99, 0x99, 0x33, 0xff}, // han-carlson: olive
		{0x44, 0xaa, 0x99, 0xff}, // ladner-fischer: teal
		{0x88, 0xcc, 0xee, 0xff}, // knowles: cyan
		{0xaa, 0x44, 0x99, 0xff}, // harris: purple
		{0xe6, 0x9f, 0x00, 0xff}, // zero-deficiency: orange
		{0x00, 0x77, 0xbb, 0xff}, // carry-select: blue, a hollow hexagon
		{0xcc, 0x33, 0x11, 0xff}, // optimizer: red
		{0xcc, 0x33, 0x11, 0xff}, // optimizer under a fan-out bound: red, a hollow pentagon
	}
	glyphs = []draw.GlyphDrawer{
		draw.PlusGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
		diamondGlyph{}, invertedTriangleGlyph{}, draw.RingGlyph{}, asteriskGlyph{},
		draw.CircleGlyph{}, hexagonGlyph{}, draw.BoxGlyph{}, pentagonGlyph{},
	}
)

// familyStyle returns the colour and shape of the family: its own for the
// families of familyOrder, else by i, its place among the families drawn
// that are not in familyOrder.
func familyStyle(family string, i int) (color.Color, draw.GlyphDrawer) {
	k := slices.Index(familyOrder, family)
	if k < 0 {
		k = len(familyOrder) + i
	}
	return palette[k%len(palette)], glyphs[k%len(glyphs)]
}

// fanoutRadius is the marker radius of a network of the given maximum
// fan-out: the area grows with log2 of the fan-out.
func fanoutRadius(fanout int) vg.Length {
	return vg.Points(2.2 + 1.1*math.Log2(float64(max(fanout, 1))))
}

// Sizes of the plot: the width fits a page's text width (7.8 inches), the
// legend stands right of the axes, where it hides no point.
const (
	plotWidth   = 560
	plotHeight  = 400
	legendWidth = 138
)

// Plot writes the plot of size against depth of the points at width n, in
// format "svg" or "png": one marker per network, one colour and shape per
// family, its size growing with the network's maximum fan-out (a key in the
// legend says how), the families of one depth set side by side so that no
// marker hides another, the points of front ringed, and Snir's bound as a
// line. Depths run from the smallest to 2⌈log2 n⌉ + 2, where the trade-off
// lives; deeper networks (ripple, at n − 1) are counted in the title, not
// drawn. The legend stands right of the axes.
func Plot(w io.Writer, n int, points, front []explore.Point, format string) error {
	if !slices.Contains(PlotFormats, format) {
		return fmt.Errorf("report: unknown plot format %q: allowed svg, png", format)
	}
	if len(points) == 0 {
		return fmt.Errorf("report: nothing to plot")
	}
	p, legend := newPlot(fmt.Sprintf("Prefix networks of width %d: size against depth", n), "depth (levels)", "size (cells)")

	// Networks deeper than limit are counted, not drawn, unless every one
	// is (a fan-out bound leaves only the ripple chain): then all are.
	limit := 2*ceilLog2(n) + 2
	minD := slices.MinFunc(points, func(a, b explore.Point) int { return a.Figures.Depth - b.Figures.Depth }).Figures.Depth
	if minD > limit {
		limit = slices.MaxFunc(points, func(a, b explore.Point) int { return a.Figures.Depth - b.Figures.Depth }).Figures.Depth
	}
	maxD, hidden := minD, 0
	for _, pt := range points {
		if pt.Figures.Depth > limit {
			hidden++
			continue
		}
		maxD = max(maxD, pt.Figures.Depth)
	}
	if hidden > 0 {
		p.Title.Text += fmt.Sprintf("\n(%d deeper than %d not shown)", hidden, limit)
	}
	bound := make(plotter.XYs, 0, maxD-minD+1)
	for d := minD; d <= maxD; d++ {
		bound = append(bound, plotter.XY{X: float64(d), Y: float64(explore.SnirBound(n, d))})
	}
	line, err := plotter.NewLine(bound)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	line.Color = color.Gray{0x60}
	line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(line)
	legend.Add("Snir: 2n − 2 − depth", line)

	// The families drawn, in the order they first appear, and their points.
	var families []string
	byFamily := map[string][]explore.Point{}
	for _, pt := range points {
		if pt.Figures.Depth > maxD {
			continue
		}
		if _, ok := byFamily[pt.Family]; !ok {
			families = append(families, pt.Family)
		}
		byFamily[pt.Family] = append(byFamily[pt.Family], pt)
	}
	// The families at one depth stand side by side, in the order of
	// families, each a little off the depth.
	atDepth := map[int][]string{}
	for _, fam := range families {
		for _, d := range depthsOf(byFamily[fam]) {
			atDepth[d] = append(atDepth[d], fam)
		}
	}
	offset := func(fam string, d int) float64 {
		k := atDepth[d]
		return 0.13 * (float64(slices.Index(k, fam)) - float64(len(k)-1)/2)
	}
	where := map[*network.Network]plotter.XY{}
	others := 0
	for _, fam := range families {
		pts := byFamily[fam]
		xy := make(plotter.XYs, len(pts))
		for j := range pts {
			xy[j] = plotter.XY{X: float64(pts[j].Figures.Depth) + offset(fam, pts[j].Figures.Depth), Y: float64(pts[j].Figures.Size)}
		}
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		c, shape := familyStyle(fam, others)
		if !slices.Contains(familyOrder, fam) {
			others++
		}
		s.GlyphStyleFunc = func(j int) draw.GlyphStyle {
			return draw.GlyphStyle{Color: c, Radius: fanoutRadius(pts[j].Figures.MaxFanout), Shape: shape}
		}
		p.Add(s)
		thumb, _ := plotter.NewScatter(plotter.XYs{{}})
		thumb.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(4), Shape: shape}
		legend.Add(fam, thumb)
		for j := range pts {
			where[pts[j].Network] = xy[j]
		}
	}
	// The front: a ring around each of its points.
	var ring plotter.XYs
	var ringR []vg.Length
	for _, pt := range front {
		if xy, ok := where[pt.Network]; ok {
			ring = append(ring, xy)
			ringR = append(ringR, fanoutRadius(pt.Figures.MaxFanout)+vg.Points(3))
		}
	}
	if len(ring) > 0 {
		s, err := plotter.NewScatter(ring)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		s.GlyphStyleFunc = func(j int) draw.GlyphStyle {
			return draw.GlyphStyle{Color: color.Black, Radius: ringR[j], Shape: draw.RingGlyph{}}
		}
		p.Add(s)
		thumb, _ := plotter.NewScatter(plotter.XYs{{}})
		thumb.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6), Shape: draw.RingGlyph{}}
		legend.Add("Pareto front", thumb)
	}
	// The key of the marker sizes.
	legend.Add("marker size:")
	for _, f := range []int{2, 8, 32} {
		thumb, _ := plotter.NewScatter(plotter.XYs{{}})
		thumb.GlyphStyle = draw.GlyphStyle{Color: color.Gray{0x40}, Radius: fanoutRadius(f), Shape: draw.RingGlyph{}}
		legend.Add(fmt.Sprintf("max fan-out %d", f), thumb)
	}

	p.X.Min, p.X.Max = float64(minD)-0.5, float64(maxD)+0.5
	p.X.Tick.Marker = depthTicks{}
	p.Y.Tick.Marker = sizeTicks{}
	// Room above and below the points for the largest markers.
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, pts := range byFamily {
		for _, pt := range pts {
			ylo, yhi = min(ylo, float64(pt.Figures.Size)), max(yhi, float64(pt.Figures.Size))
		}
	}
	for _, b := range bound {
		ylo, yhi = min(ylo, b.Y), max(yhi, b.Y)
	}
	pad := max(1, (yhi-ylo)*0.06)
	p.Y.Min, p.Y.Max = ylo-pad, yhi+pad

	return drawWithLegend(w, format, p, legend)
}

// newPlot returns a plot in the style every plot here shares (the title,
// the axis labels, a light grid) and the legend that stands right of it.
func newPlot(title, x, y string) (*plot.Plot, plot.Legend) {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(10)
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text = x
	p.Y.Label.Text = y
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font.Size = vg.Points(11)
		a.Tick.Label.Font.Size = vg.Points(10)
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{0xdd}
	grid.Horizontal.Color = color.Gray{0xdd}
	p.Add(grid)
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = vg.Points(18)
	legend.Padding = vg.Points(5)
	legend.TextStyle.Font.Size = vg.Points(9.5)
	return p, legend
}

// drawWithLegend writes p in format with its legend in a strip to its
// right.
func drawWithLegend(w io.Writer, format string, p *plot.Plot, legend plot.Legend) error {
	return drawWithLegendWidth(w, format, p, legend, legendWidth, nil)
}

// drawWithLegendWidth is drawWithLegend with a strip of width points; fit,
// where not nil, is given the plot and the area it is drawn in before it
// is drawn, to set its axes by the room the glyphs take there.
func drawWithLegendWidth(w io.Writer, format string, p *plot.Plot, legend plot.Legend, width int, fit func(*plot.Plot, draw.Canvas)) error {
	return drawPlot(w, format, func(c draw.Canvas) {
		plotArea := draw.Crop(c, 0, -vg.Points(float64(width)), 0, 0)
		p.Title.Text = fitTitle(p.Title.Text, p.Title.TextStyle, plotArea.Max.X-plotArea.Min.X-2*p.Title.Padding)
		if fit != nil {
			fit(p, plotArea)
		}
		p.Draw(plotArea)
		legendArea := draw.Crop(c, c.Max.X-c.Min.X-vg.Points(float64(width))+vg.Points(10), 0, 0, -vg.Points(34))
		legend.Draw(legendArea)
	})
}

// depthsOf returns the distinct depths of the points.
func depthsOf(pts []explore.Point) []int {
	var ds []int
	for _, pt := range pts {
		if !slices.Contains(ds, pt.Figures.Depth) {
			ds = append(ds, pt.Figures.Depth)
		}
	}
	return ds
}

// drawPlot draws through fn onto a canvas of the plot's size in format and
// writes it: SVG without its prolog, PNG at 150 dots per inch.
func drawPlot(w io.Writer, format string, fn func(draw.Canvas)) error {
	width, height := vg.Points(plotWidth), vg.Points(plotHeight)
	var wt io.WriterTo
	var cv vg.CanvasSizer
	if format == "svg" {
		c := vgsvg.New(width, height)
		wt, cv = c, c
	} else {
		c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(150))
		wt, cv = vgimg.PngCanvas{Canvas: c}, c
	}
	dc := draw.New(cv)
	// The whole picture on white, the legend's strip too: the plot fills
	// only its own axes, and a page with a dark background showed the
	// legend's black text on it.
	r := dc.Rectangle
	dc.FillPolygon(color.White, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
	fn(dc)
	if format == "svg" {
		var buf bytes.Buffer
		if _, err := wt.WriteTo(&buf); err != nil {
			return fmt.Errorf("report: %w", err)
		}
		_, err := w.Write(svgProlog.ReplaceAll(buf.Bytes(), nil))
		return err
	}
	_, err := wt.WriteTo(w)
	return err
}

// svgProlog matches what may come before the <svg> element of gonum's SVG
// (an XML declaration, a doctype, the generator's comment), which a page that
// inlines the SVG does not want and a standalone file does not need.
var svgProlog = regexp.MustCompile(`^(?:\s*(?:<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--.*?-->))*\s*`)

// depthTicks marks every whole depth, labelling up to about 16 of them.
type depthTicks struct{}

func (depthTicks) Ticks(lo, hi float64) []plot.Tick {
	first, last := int(lo+0.5), int(hi)
	step := max(1, (last-first+15)/16)
	var ticks []plot.Tick
	for d := first; d <= last; d++ {
		t := plot.Tick{Value: float64(d)}
		if (d-first)%step == 0 {
			t.Label = fmt.Sprint(d)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

func ceilLog2(n int) int {
	d := 0
	for 1<<d < n {
		d++
	}
	return d
}

// sizeTicks marks sizes at a round step that gives five to ten labelled
// ticks (1, 2 or 5 times a power of ten), with unlabelled ticks between.
type sizeTicks struct{}

func (sizeTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if span <= 0 {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'f', -1, 64)}}
	}
	step := 1.0
	pow := math.Pow(10, math.Floor(math.Log10(span/5)))
	for _, mul := range []float64{1, 2, 5, 10} {
		step = mul * pow
		if span/step <= 10 {
			break
		}
	}
	step = max(step, 1)
	var ticks []plot.Tick
	minor := step / 2
	if step == 1 {
		minor = 0
	}
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		if v < 0 {
			continue // the room below a size of 0 is not a size
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		if minor > 0 && v+minor <= hi {
			ticks = append(ticks, plot.Tick{Value: v + minor})
		}
	}
	if minor > 0 && math.Ceil(lo/step)*step-minor >= lo {
		ticks = append(ticks, plot.Tick{Value: math.Ceil(lo/step)*step - minor})
	}
	return ticks
}

// diamondGlyph draws a hollow diamond.
type diamondGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (diamondGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.6)})
	c.Stroke(diamondPath(pt, sty.Radius*1.15))
}

// diamondPath is the outline of a diamond centred on pt, r from the centre
// to each corner.
func diamondPath(pt vg.Point, r vg.Length) vg.Path {
	var path vg.Path
	path.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	path.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	path.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	path.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	path.Close()
	return path
}

// invertedTriangleGlyph draws a hollow triangle pointing down.
type invertedTriangleGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (invertedTriangleGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.6)})
	r := sty.Radius + (sty.Radius-sty.Radius*vg.Length(math.Sin(math.Pi/6)))/2
	var path vg.Path
	path.Move(vg.Point{X: pt.X, Y: pt.Y - r})
	path.Line(vg.Point{X: pt.X - r*vg.Length(math.Cos(math.Pi/6)), Y: pt.Y + r*vg.Length(math.Sin(math.Pi/6))})
	path.Line(vg.Point{X: pt.X + r*vg.Length(math.Cos(math.Pi/6)), Y: pt.Y + r*vg.Length(math.Sin(math.Pi/6))})
	path.Close()
	c.Stroke(path)
}

// hexagonGlyph draws a hollow hexagon.
type hexagonGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (hexagonGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	polygon(c, sty, pt, 6, 0)
}

// pentagonGlyph draws a hollow pentagon.
type pentagonGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (pentagonGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	polygon(c, sty, pt, 5, math.Pi/2)
}

// polygon strokes a regular polygon of the given sides around pt, a
// tenth wider than the glyph's radius, its first corner at angle phase.
func polygon(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point, sides int, phase float64) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.8)})
	var path vg.Path
	for i := range sides {
		a := float64(i)*2*math.Pi/float64(sides) + phase
		q := vg.Point{X: pt.X + sty.Radius*1.1*vg.Length(math.Cos(a)), Y: pt.Y + sty.Radius*1.1*vg.Length(math.Sin(a))}
		if i == 0 {
			path.Move(q)
		} else {
			path.Line(q)
		}
	}
	path.Close()
	c.Stroke(path)
}

// asteriskGlyph draws a six-armed asterisk.
type asteriskGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (asteriskGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.8)})
	for i := range 3 {
		a := float64(i)*math.Pi/3 + math.Pi/2
		dx, dy := sty.Radius*vg.Length(math.Cos(a)), sty.Radius*vg.Length(math.Sin(a))
		var path vg.Path
		path.Move(vg.Point{X: pt.X - dx, Y: pt.Y - dy})
		path.Line(vg.Point{X: pt.X + dx, Y: pt.Y + dy})
		c.Stroke(path)
	}
}

// fitTitle breaks each line of title at spaces, so that no line drawn in
// style is wider than width; a word wider than width keeps a line of its
// own.
func fitTitle(title string, style text.Style, width vg.Length) string {
	var out []string
	for line := range strings.SplitSeq(title, "\n") {
		cur := ""
		for _, word := range strings.Fields(line) {
			if cur != "" && style.Width(cur+" "+word) > width {
				out = append(out, cur)
				cur = word
				continue
			}
			cur = strings.TrimPrefix(cur+" "+word, " ")
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}
