package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/prefixgen/prefixgen/gpukernels/bench"
)

// NamedBenchReport is a GPU benchmark report and the name it is drawn
// under.
type NamedBenchReport struct {
	Name   string
	Report *bench.BenchReport
}

// ThroughputPlot writes the inclusive device-wide scans of the reports,
// aligned, as throughput (GB/s, every item read and written once) against
// the number of items on a log2 axis, in format "svg" or "png": one line
// per series, cudaMemcpy (where the report timed it beside the scans of
// each size), CUB, and every network's single-pass and three-pass scan.
// Several reports share the axes, each series named after its report.
func ThroughputPlot(w io.Writer, reports []NamedBenchReport, format string) error {
	if !slices.Contains(PlotFormats, format) {
		return fmt.Errorf("report: unknown plot format %q: allowed svg, png", format)
	}
	type series struct {
		label  string
		family string // the colour's key: memcpy, cub, or the topology's family
		report int    // the marker's key
		dashed bool
		xy     plotter.XYs
	}
	var all []series
	minN, maxN := math.Inf(1), math.Inf(-1)
	for k, nr := range reports {
		r := nr.Report
		prefix := ""
		if len(reports) > 1 {
			// Each report's series are named after it; two reports of one
			// name are told apart by their place.
			name := nr.Name
			if slices.ContainsFunc(reports, func(o NamedBenchReport) bool { return o.Name == name && o.Report != nr.Report }) {
				name = fmt.Sprintf("%d. %s", k+1, name)
			}
			prefix = name + ": "
		}
		add := func(label, family string, dashed bool, kernel, topology string) {
			// A topology's name may carry its parameters ("ladner-fischer
			// k=1"): its family alone picks the colour.
			family, _, _ = strings.Cut(family, " ")
			s := series{label: prefix + label, family: family, report: k, dashed: dashed}
			for _, n := range r.DeviceScanSizes() {
				if n < 2 || n&(n-1) != 0 {
					continue // the odd sizes check the edges; the lines join powers of two
				}
				if v, ok := r.Throughput(kernel, topology, n); ok && v > 0 { // untimed (--sanitize) runs are 0
					s.xy = append(s.xy, plotter.XY{X: math.Log2(float64(n)), Y: v})
					minN, maxN = min(minN, float64(n)), max(maxN, float64(n))
				}
			}
			if len(s.xy) > 0 {
				all = append(all, s)
			}
		}
		add("cudaMemcpy", "memcpy", false, "memcpy", "")
		add("CUB", "cub", false, "cub-device-scan", "cub")
		for _, t := range r.Topologies() {
			add(t+", 1 pass", t, false, "device-scan", t)
			add(t+", 3 passes", t, true, "device-scan-3pass", t)
		}
	}
	if len(all) == 0 {
		return fmt.Errorf("report: no timed device-wide scan to plot")
	}
	title := "Inclusive device-wide scans: throughput against size"
	if len(reports) == 1 {
		r := reports[0].Report
		title += fmt.Sprintf("\n%s, nvcc %s", r.Device, r.NVCC)
		if r.CUB != "" {
			title += ", CUB " + r.CUB
		}
	}
	p, legend := newPlot(title, "items (log2)", "GB/s (items read and written)")
	legend.ThumbnailWidth = vg.Points(22)
	ymax := 0.0
	longest := 0
	for i, s := range all {
		longest = max(longest, utf8.RuneCountInString(s.label))
		line, points, err := plotter.NewLinePoints(s.xy)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		var c color.Color
		var shape draw.GlyphDrawer
		switch s.family {
		case "memcpy":
			c, shape = color.Gray{0x80}, draw.CircleGlyph{}
		case "cub":
			c, shape = color.Black, draw.BoxGlyph{}
		default:
			c, shape = familyStyle(s.family, i)
		}
		line.Color = c
		line.Width = vg.Points(1.2)
		if s.dashed {
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		if s.report > 0 {
			// Another report: the same colours, other markers.
			shape = reportGlyphs[(s.report-1)%len(reportGlyphs)]
		}
		points.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(3), Shape: shape}
		p.Add(line, points)
		legend.Add(s.label, line, points)
		for _, xy := range s.xy {
			ymax = max(ymax, xy.Y)
		}
	}
	p.X.Min, p.X.Max = math.Log2(minN)-0.5, math.Log2(maxN)+0.5
	p.X.Tick.Marker = log2Ticks{}
	p.Y.Min, p.Y.Max = 0, ymax*1.08
	p.Y.Tick.Marker = sizeTicks{} // round steps, five to ten labels
	// The legend's strip is as wide as its longest label needs (about
	// 0.55 em a character at 9.5 points, beside a 22-point thumbnail).
	width := max(legendWidth, 22+10+int(math.Ceil(0.55*9.5*float64(longest))))
	return drawWithLegendWidth(w, format, p, legend, width, nil)
}

// reportGlyphs mark the series of the second and later reports of a
// throughput plot.
var reportGlyphs = []draw.GlyphDrawer{draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, diamondGlyph{}}

// log2Ticks marks every whole power of two on a log2 axis, labelling up to
// about eight of them as 2^k, so that the labels stay apart however narrow
// the legend leaves the axes.
type log2Ticks struct{}

func (log2Ticks) Ticks(lo, hi float64) []plot.Tick {
	first, last := int(math.Ceil(lo)), int(math.Floor(hi))
	step := max(1, (last-first+7)/8)
	var ticks []plot.Tick
	for k := first; k <= last; k++ {
		t := plot.Tick{Value: float64(k)}
		if (k-first)%step == 0 {
			t.Label = fmt.Sprintf("2^%d", k)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
