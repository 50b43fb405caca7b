package report

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"regexp"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/prefixgen/prefixgen/topologies/explore"
)

// PlotFormats are the formats Plot writes.
var PlotFormats = []string{"svg", "png"}

// palette holds the family colours, from the colour-blind-safe palette of
// Wong (Nature Methods 8, 2011) less its pale yellow, and glyphs the marker
// shapes; family i takes colour i mod 7 and shape i mod 8, so no two of the
// first 56 families look alike.
var (
	palette = []color.RGBA{
		{0x00, 0x72, 0xb2, 0xff}, {0xd5, 0x5e, 0x00, 0xff}, {0x00, 0x9e, 0x73, 0xff},
		{0xcc, 0x79, 0xa7, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0x56, 0xb4, 0xe9, 0xff},
		{0x00, 0x00, 0x00, 0xff},
	}
	glyphs = []draw.GlyphDrawer{
		draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
		draw.PlusGlyph{}, draw.PyramidGlyph{}, draw.SquareGlyph{}, draw.RingGlyph{},
	}
)

// Plot writes the plot of size against depth of the points at width n, in
// format "svg" or "png": one marker per network, one shape and colour per
// family in the order the families first appear, the points of front ringed,
// and Snir's bound as a line. Depths run from the smallest to 2⌈log2 n⌉ + 2,
// where the trade-off lives; deeper networks (ripple, at n − 1) are counted
// in the title, not drawn.
func Plot(w io.Writer, n int, points, front []explore.Point, format string) error {
	if !slices.Contains(PlotFormats, format) {
		return fmt.Errorf("report: unknown plot format %q: allowed svg, png", format)
	}
	if len(points) == 0 {
		return fmt.Errorf("report: nothing to plot")
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Prefix networks of width %d: size against depth", n)
	p.X.Label.Text = "depth (levels)"
	p.Y.Label.Text = "size (cells)"
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.ThumbnailWidth = vg.Points(12)

	limit := 2*ceilLog2(n) + 2
	minD, maxD := points[0].Figures.Depth, 0
	hidden := 0
	for _, pt := range points {
		minD = min(minD, pt.Figures.Depth)
		if pt.Figures.Depth > limit {
			hidden++
			continue
		}
		maxD = max(maxD, pt.Figures.Depth)
	}
	maxD = max(maxD, minD)
	if hidden > 0 {
		p.Title.Text += fmt.Sprintf(" (%d deeper than %d not shown)", hidden, limit)
	}
	bound := make(plotter.XYs, 0, maxD-minD+1)
	for d := minD; d <= maxD; d++ {
		bound = append(bound, plotter.XY{X: float64(d), Y: float64(explore.SnirBound(n, d))})
	}
	line, err := plotter.NewLine(bound)
	if err != nil {
		return fmt.Errorf("report: %v", err)
	}
	line.Color = color.Gray{0x80}
	line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(line)
	p.Legend.Add("Snir's bound 2n − 2 − depth", line)

	var families []string
	byFamily := map[string]plotter.XYs{}
	for _, pt := range points {
		if _, ok := byFamily[pt.Family]; !ok {
			families = append(families, pt.Family)
			byFamily[pt.Family] = nil
		}
		if pt.Figures.Depth > maxD {
			continue
		}
		byFamily[pt.Family] = append(byFamily[pt.Family], plotter.XY{X: float64(pt.Figures.Depth), Y: float64(pt.Figures.Size)})
	}
	for i, fam := range families {
		if len(byFamily[fam]) == 0 {
			continue
		}
		s, err := plotter.NewScatter(byFamily[fam])
		if err != nil {
			return fmt.Errorf("report: %v", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: palette[i%len(palette)], Radius: vg.Points(3.5), Shape: glyphs[i%len(glyphs)]}
		p.Add(s)
		p.Legend.Add(fam, s)
	}
	var xy plotter.XYs
	for _, pt := range front {
		if pt.Figures.Depth <= maxD {
			xy = append(xy, plotter.XY{X: float64(pt.Figures.Depth), Y: float64(pt.Figures.Size)})
		}
	}
	if len(xy) > 0 {
		s, err := plotter.NewScatter(xy)
		if err != nil {
			return fmt.Errorf("report: %v", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6.5), Shape: draw.RingGlyph{}}
		p.Add(s)
		p.Legend.Add("Pareto front", s)
	}
	p.X.Min, p.X.Max = float64(minD)-0.5, float64(maxD)+0.5
	p.X.Tick.Marker = depthTicks{}
	p.Y.Tick.Marker = wholeTicks{}

	wt, err := p.WriterTo(vg.Points(560), vg.Points(380), format)
	if err != nil {
		return fmt.Errorf("report: %v", err)
	}
	if format == "svg" {
		var buf bytes.Buffer
		if _, err := wt.WriteTo(&buf); err != nil {
			return fmt.Errorf("report: %v", err)
		}
		_, err = w.Write(svgProlog.ReplaceAll(buf.Bytes(), nil))
		return err
	}
	_, err = wt.WriteTo(w)
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

// wholeTicks are gonum's default ticks labelled without decimals: sizes are
// whole numbers.
type wholeTicks struct{}

func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', -1, 64)
		}
	}
	return ticks
}
