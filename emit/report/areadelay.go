package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"math/bits"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies/explore"
)

// PlotAreaDelay writes the plot of area against delay after synthesis of
// the measured points at width n, in format "svg" or "png": one marker per
// adder, one shape and colour per family as in Plot, a sparse adder's
// marker marked inside by its sparseness (one, two or three dots in a row
// for 2, 4 and 8: no family's shape), the area–delay front ringed and joined by a line, and
// Yosys's own a + b + cin (ref, when not nil) as a star. The title says
// when the adders are Ling's and when they are pipelined. Adders slower than four times the fastest one
// (ripple carry, long chains) are counted in the title, not drawn.
func PlotAreaDelay(w io.Writer, n int, points []explore.Measured, ref *physical.Result, format string) error {
	if !slices.Contains(PlotFormats, format) {
		return fmt.Errorf("report: unknown plot format %q: allowed svg, png", format)
	}
	if len(points) == 0 {
		return fmt.Errorf("report: nothing to plot")
	}
	r0 := points[0].Result
	ling := ""
	if points[0].Ling {
		ling = ", Ling adders"
	}
	title := fmt.Sprintf("Adders of width %d after synthesis (%s, flow %s%s)", n, libraryName(r0.Liberty), r0.Flow, ling)
	// A pipelined adder's delay is another figure: a second line says so,
	// as the first is as wide as the plot allows.
	switch k := points[0].Stages; {
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
	limit := 4 * fastest
	shown := func(r *physical.Result) bool { return r.MedianDelayNS() <= limit }
	hidden := 0
	var families []string
	byFamily := map[string]plotter.XYs{}
	bySparse := map[int]plotter.XYs{}
	for _, m := range points {
		if m.Sparse > 1 && shown(m.Result) {
			bySparse[m.Sparse] = append(bySparse[m.Sparse], plotter.XY{X: m.Result.MedianDelayNS(), Y: m.Result.MedianAreaUM2()})
		}
		if _, ok := byFamily[m.Family]; !ok {
			families = append(families, m.Family)
			byFamily[m.Family] = nil
		}
		if !shown(m.Result) {
			hidden++
			continue
		}
		byFamily[m.Family] = append(byFamily[m.Family], plotter.XY{X: m.Result.MedianDelayNS(), Y: m.Result.MedianAreaUM2()})
	}
	if hidden > 0 {
		p.Title.Text += fmt.Sprintf("\n%d slower than %.2f ns not shown", hidden, limit)
	}

	var front plotter.XYs
	for _, m := range explore.AreaDelayFront(slices.Clone(points)) {
		if shown(m.Result) {
			front = append(front, plotter.XY{X: m.Result.MedianDelayNS(), Y: m.Result.MedianAreaUM2()})
		}
	}
	if len(front) > 1 {
		line, err := plotter.NewLine(front)
		if err != nil {
			return fmt.Errorf("report: %v", err)
		}
		line.Color = color.Gray{0x80}
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(line)
	}
	others := 0
	for _, fam := range families {
		col, shape := familyStyle(fam, others)
		if !slices.Contains(familyOrder, fam) {
			others++
		}
		if len(byFamily[fam]) == 0 {
			continue
		}
		s, err := plotter.NewScatter(byFamily[fam])
		if err != nil {
			return fmt.Errorf("report: %v", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(familyRadius), Shape: shape}
		p.Add(s)
		legend.Add(fam, s)
	}
	for _, sparse := range []int{2, 4, 8} {
		if len(bySparse[sparse]) == 0 {
			continue
		}
		s, err := plotter.NewScatter(bySparse[sparse])
		if err != nil {
			return fmt.Errorf("report: %v", err)
		}
		s.GlyphStyle = sparseStyle(sparse)
		p.Add(s)
		legend.Add(fmt.Sprintf("sparse %d", sparse), s)
	}
	if len(front) > 0 {
		s, err := plotter.NewScatter(front)
		if err != nil {
			return fmt.Errorf("report: %v", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(6.5), Shape: draw.RingGlyph{}}
		p.Add(s)
		legend.Add("area–delay front", s)
	}
	if ref != nil && shown(ref) {
		s, err := plotter.NewScatter(plotter.XYs{{X: ref.MedianDelayNS(), Y: ref.MedianAreaUM2()}})
		if err != nil {
			return fmt.Errorf("report: %v", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{0xd5, 0x00, 0x00, 0xff}, Radius: vg.Points(7), Shape: starGlyph{}}
		p.Add(s)
		legend.Add(physical.ReferenceName, s)
	}
	p.Y.Tick.Marker = sizeTicks{}

	return drawWithLegend(w, format, p, legend)
}

// libraryName returns a Liberty file's name for a title: the key of
// physical.Libraries for the OSU files, the file's base name otherwise.
func libraryName(file string) string {
	for name, f := range physical.Libraries {
		if f == file {
			return name
		}
	}
	return filepath.Base(file)
}

// familyRadius is the radius of a family's marker on the area–delay plot.
const familyRadius = 3.5

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

// starGlyph draws a five-pointed star, which no family uses.
type starGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (starGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.5)})
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
	c.Fill(path)
}
