package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/prefixgen/prefixgen/gpukernels"
)

// NamedBenchReport is a GPU benchmark report and the name it is drawn
// under.
type NamedBenchReport struct {
	Name   string
	Report *gpukernels.BenchReport
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
		family string // style key
		dashed bool
		xy     plotter.XYs
	}
	var all []series
	minN, maxN := math.Inf(1), math.Inf(-1)
	for _, nr := range reports {
		r := nr.Report
		prefix := ""
		if len(reports) > 1 {
			prefix = nr.Name + ": "
		}
		add := func(label, family string, dashed bool, kernel, topology string) {
			s := series{label: prefix + label, family: family, dashed: dashed}
			for _, n := range r.DeviceScanSizes() {
				if n < 2 || n&(n-1) != 0 {
					continue // the odd sizes check the edges; the lines join powers of two
				}
				if v, ok := r.Throughput(kernel, topology, n); ok {
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
			add(t+" single pass", t, false, "device-scan", t)
			add(t+" three passes", t, true, "device-scan-3pass", t)
		}
	}
	if len(all) == 0 {
		return fmt.Errorf("report: no device-wide scan to plot")
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
	for i, s := range all {
		line, points, err := plotter.NewLinePoints(s.xy)
		if err != nil {
			return fmt.Errorf("report: %v", err)
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
	return drawWithLegend(w, format, p, legend)
}

// log2Ticks labels every whole power of two on a log2 axis as 2^k, every
// second one when there are more than 16.
type log2Ticks struct{}

func (log2Ticks) Ticks(lo, hi float64) []plot.Tick {
	first, last := int(math.Ceil(lo)), int(math.Floor(hi))
	step := max(1, (last-first+15)/16)
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
