package report_test

import (
	"bytes"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/report"
)

// adderAt places one adder of a network of width 16 on the area–delay
// plane, for the tests of the plot.
type adderAt struct {
	name   string
	sparse int
	area   float64
	delay  float64
}

// placeAdders returns the adders, measured where they say, with their
// place on the front, and Yosys's adder at ref (none when ref is nil).
func placeAdders(t *testing.T, adders []adderAt, ref *[2]float64) ([]explore.Measured, *physical.Result) {
	t.Helper()
	all, _ := points(t, 16)
	var m []explore.Measured
	for _, a := range adders {
		i := slicesIndex(all, a.name)
		require.GreaterOrEqual(t, i, 0, "no network %s at width 16", a.name)
		p := all[i]
		arch := adder.Standard
		arch.Sparse = max(a.sparse, 1)
		m = append(m, explore.Measured{Point: p, Adder: arch, Result: &physical.Result{
			Topology: p.Network.Topology(), Params: p.Network.Params(), Width: 16, Adder: arch,
			AreaUM2: a.area, DelayNS: a.delay, Liberty: physical.LibertyFile(""), Flow: physical.Keep,
		}})
	}
	explore.AreaDelayFront(m)
	if ref == nil {
		return m, nil
	}
	return m, &physical.Result{Topology: physical.Reference, Width: 16, AreaUM2: ref[0], DelayNS: ref[1]}
}

// mark is one glyph drawn inside the axes of a plot: its kind ("marker"
// for a family's, "ring", "dot" or "star"), its colour and the centre of
// its bounding box (exact across, within a point up and down: a triangle
// is not centred on its box).
type mark struct {
	kind   string
	colour string
	x, y   float64
}

// The colours of the families the tests draw.
var familyColours = []string{"#882255", "#117733", "#332288", "#999933", "#44AA99", "#88CCEE"}

var (
	svgPath   = regexp.MustCompile(`<path d="([^"]*)"\s*(?:style="([^"]*)")?\s*/>`)
	pathToken = regexp.MustCompile(`[MLAZ]|-?[0-9.]+(?:e[-+]?[0-9]+)?`)
	colourOf  = regexp.MustCompile(`(?:fill|stroke):(#[0-9A-F]{6})`)
)

// plotMarks parses the glyphs drawn inside the axes of an area–delay plot
// (left of the legend), merging the strokes of one glyph (a cross is two).
func plotMarks(t *testing.T, svg string) []mark {
	t.Helper()
	var marks []mark
	for _, p := range svgPath.FindAllStringSubmatch(svg, -1) {
		d, style := p[1], p[2]
		var m mark
		switch c := colourOf.FindStringSubmatch(style); {
		case strings.Contains(d, "A0.9,0.9"):
			m.kind, m.colour = "dot", "#000000"
		case strings.Contains(d, "A6.5,6.5") && strings.Contains(style, "stroke:#000000"):
			m.kind, m.colour = "ring", "#000000"
		case strings.Contains(style, "fill:#D50000"):
			m.kind, m.colour = "star", "#D50000"
		case c != nil && slices.Contains(familyColours, c[1]):
			m.kind, m.colour = "marker", c[1]
		default:
			continue
		}
		minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		toks := pathToken.FindAllString(d, -1)
		for i := 0; i < len(toks); {
			cmd := toks[i]
			i++
			switch cmd {
			case "Z":
				continue
			case "A":
				i += 5 // radii, rotation, flags
			}
			x, err := strconv.ParseFloat(toks[i], 64)
			require.NoError(t, err, d)
			y, err := strconv.ParseFloat(toks[i+1], 64)
			require.NoError(t, err, d)
			i += 2
			minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
		}
		m.x, m.y = (minX+maxX)/2, (minY+maxY)/2
		if m.x > 423 { // the legend
			continue
		}
		if slices.ContainsFunc(marks, func(o mark) bool {
			return o.kind == m.kind && o.colour == m.colour && math.Abs(o.x-m.x) < 0.01 && math.Abs(o.y-m.y) < 0.01
		}) {
			continue
		}
		marks = append(marks, m)
	}
	return marks
}

// on reports whether the glyph a is drawn on b: centred on it.
func (a mark) on(b mark) bool {
	return math.Abs(a.x-b.x) < 0.01 && math.Abs(a.y-b.y) < 1.5
}

// TestPlotAreaDelayCoincident checks that adders measured at one point are
// all seen: their markers set side by side, none on another, Yosys's star
// beside them and hiding neither a marker nor the ring of the front.
func TestPlotAreaDelayCoincident(t *testing.T) {
	yosys := [2]float64{3600, 1.6}
	base := []adderAt{{"kogge-stone", 1, 5000, 1.0}, {"sklansky", 1, 4200, 1.2}}
	for _, tc := range []struct {
		name   string
		adders []adderAt
		ref    *[2]float64
		// together is how many glyphs stand in the row of one point.
		together int
	}{{
		name: "at Yosys's point, on the front",
		adders: append(slices.Clone(base),
			adderAt{"brent-kung", 1, 3600, 1.6}, adderAt{"brent-kung", 2, 3600, 1.6},
			adderAt{"sklansky", 2, 3600, 1.6}, adderAt{"knowles s=2", 2, 3600, 1.6}),
		ref:      &yosys,
		together: 5,
	}, {
		name: "one family twice and others, off the front",
		adders: append(slices.Clone(base),
			adderAt{"brent-kung", 1, 3600, 1.6},
			adderAt{"kogge-stone", 2, 4800, 1.4}, adderAt{"han-carlson", 1, 4800, 1.4},
			adderAt{"han-carlson", 2, 4800, 1.4}, adderAt{"knowles s=2", 1, 4800, 1.4}),
		ref:      &[2]float64{3800, 2.0},
		together: 4,
	}, {
		name: "two on the front, no reference",
		adders: append(slices.Clone(base),
			adderAt{"brent-kung", 1, 3600, 1.6}, adderAt{"han-carlson", 1, 3600, 1.6}),
		together: 2,
	}, {
		name:   "Yosys's adder alone at a network's point",
		adders: append(slices.Clone(base), adderAt{"brent-kung", 1, 3600, 1.6}),
		ref:    &yosys, together: 2,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			m, ref := placeAdders(t, tc.adders, tc.ref)
			var a, b bytes.Buffer
			require.NoError(t, report.PlotAreaDelay(&a, 16, m, ref, "svg"))
			require.NoError(t, report.PlotAreaDelay(&b, 16, m, ref, "svg"))
			require.Equal(t, a.String(), b.String(), "deterministic")
			keepFile(t, "area-delay-"+strings.NewReplacer(" ", "-", ",", "", "'", "").Replace(tc.name)+".svg", a.Bytes())
			marks := plotMarks(t, a.String())

			var glyphs, rings, dots []mark
			for _, mk := range marks {
				switch mk.kind {
				case "marker", "star":
					glyphs = append(glyphs, mk)
				case "ring":
					rings = append(rings, mk)
				case "dot":
					dots = append(dots, mk)
				}
			}
			want := len(tc.adders)
			if tc.ref != nil {
				want++
			}
			require.Len(t, glyphs, want, "one glyph an adder, each where it is seen: %v", glyphs)
			// No two glyphs overlap: markers 3.5 points in radius (4 the
			// diamond), the star 7.
			radius := func(g mark) float64 {
				if g.kind == "star" {
					return 6.7
				}
				return 4
			}
			for i, g := range glyphs {
				for _, h := range glyphs[i+1:] {
					assert.GreaterOrEqual(t, math.Hypot(g.x-h.x, g.y-h.y), radius(g)+radius(h), "%v overlaps %v", g, h)
				}
			}
			// The glyphs of the coincident adders stand in one row, side by
			// side, close to their point.
			var rows [][]mark
			for _, g := range glyphs {
				i := slices.IndexFunc(rows, func(row []mark) bool { return math.Abs(row[0].y-g.y) < 1.5 })
				if i < 0 {
					rows = append(rows, nil)
					i = len(rows) - 1
				}
				rows[i] = append(rows[i], g)
			}
			longest := 0
			for _, row := range rows {
				if len(row) > longest {
					longest = len(row)
					xs := make([]float64, len(row))
					for i, g := range row {
						xs[i] = g.x
					}
					assert.LessOrEqual(t, slices.Max(xs)-slices.Min(xs), 15*float64(len(row)), "a row of %d glyphs", len(row))
				}
			}
			assert.Equal(t, tc.together, longest)

			// A ring around each adder on the front, centred on its
			// marker and clear of Yosys's star.
			front := 0
			for _, a := range m {
				if a.OnFront {
					front++
				}
			}
			require.Len(t, rings, front)
			for _, r := range rings {
				assert.True(t, slices.ContainsFunc(glyphs, func(g mark) bool { return g.kind == "marker" && r.on(g) }), "ring %v on no marker", r)
				for _, g := range glyphs {
					if g.kind == "star" {
						assert.GreaterOrEqual(t, math.Hypot(g.x-r.x, g.y-r.y), 6.5+6.7, "the star %v on the ring %v", g, r)
					}
				}
			}
			// The dot of each sparse-2 adder inside its marker.
			sparse := 0
			for _, a := range m {
				if a.Adder.Sparse == 2 {
					sparse++
				}
			}
			require.Len(t, dots, sparse)
			for _, d := range dots {
				assert.True(t, slices.ContainsFunc(glyphs, func(g mark) bool { return g.kind == "marker" && d.on(g) }), "dot %v in no marker", d)
			}
		})
	}
}

// TestPlotAreaDelayDistinct checks that adders at distinct points are
// drawn exactly where they are, as before adders at one point were set
// side by side: the plot is the one in testdata (go test ./report
// -run PlotAreaDelayDistinct -update rewrites it).
func TestPlotAreaDelayDistinct(t *testing.T) {
	m, ref := placeAdders(t, []adderAt{
		{"kogge-stone", 1, 5000, 1.0}, {"sklansky", 1, 4200, 1.2}, {"han-carlson", 1, 4400, 1.3},
		{"brent-kung", 1, 3600, 1.6}, {"brent-kung", 2, 3400, 1.8}, {"knowles s=2", 2, 4600, 1.15},
	}, &[2]float64{3800, 2.0})
	var buf bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&buf, 16, m, ref, "svg"))
	golden.Check(t, filepath.Join("testdata", "area-delay-distinct.svg.golden"), buf.Bytes())
	assert.Len(t, plotMarks(t, buf.String()), len(m)+1+5+2, "six markers, the star, five rings, two dots")
}
