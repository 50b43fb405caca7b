package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// sideBySide leaves a glyph alone at its point where it is, and sets the
// glyphs at one point in a row from it to the right, in their order, the
// first on the point, each clear of its neighbours by glyphGap.
func TestSideBySide(t *testing.T) {
	require.Equal(t, 1.5, glyphGap, "the offsets below are for a gap of 1.5 points")
	a, b, c := plotter.XY{X: 1, Y: 100}, plotter.XY{X: 2, Y: 100}, plotter.XY{X: 1, Y: 200}
	for _, tc := range []struct {
		name string
		at   plotter.XYs
		half []vg.Length
		want []float64
	}{
		{"none", nil, nil, nil},
		{"distinct points", plotter.XYs{a, b, c}, []vg.Length{4, 6.5, 7}, []float64{0, 0, 0}},
		{"two alike", plotter.XYs{a, a}, []vg.Length{4, 4}, []float64{0, 9.5}},
		// 6.5 + 1.5 + 4, then 4 + 1.5 + 7 more.
		{"ring, marker, star", plotter.XYs{a, a, a}, []vg.Length{6.5, 4, 7}, []float64{0, 12, 24.5}},
		{"two points, interleaved", plotter.XYs{a, c, a, b, c}, []vg.Length{4, 4, 4, 4, 4}, []float64{0, 0, 9.5, 0, 9.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sideBySide(tc.at, tc.half)
			require.Len(t, got, len(tc.want))
			for i, want := range tc.want {
				assert.InDelta(t, want, float64(got[i]), 1e-9, "glyph %d", i)
			}
		})
	}
}

// libraryName names a library in a plot's title as a user would: the OSU
// libraries and the carried ones by name, files it cannot read by their
// base names.
func TestLibraryName(t *testing.T) {
	for _, tc := range []struct{ liberty, want string }{
		{"/usr/share/qflow/tech/osu018/osu018_stdcells.lib", "osu018"},
		{"asap7", "asap7"},
		{"/pdk/nangate45_typ.lib.gz", "nangate45_typ.lib.gz"},
		{"/pdk/a.lib,/pdk/b.lib.gz", "a.lib,b.lib.gz"},
		{"/pdk/asap7/", "asap7"},
	} {
		assert.Equal(t, tc.want, libraryName(tc.liberty), tc.liberty)
	}
}

// A library given as a file is named in a plot's title by its Liberty
// library group, not by the file.
func TestLibraryNameFromFile(t *testing.T) {
	nangate := tooltest.Shared(t, "pdk/nangate45/nangate45_typ.lib.gz")
	assert.Equal(t, "NangateOpenCellLibrary", libraryName(nangate))
}

func TestOverlap(t *testing.T) {
	box := func(x0, y0, x1, y1 float64) vg.Rectangle {
		return vg.Rectangle{Min: vg.Point{X: vg.Length(x0), Y: vg.Length(y0)}, Max: vg.Point{X: vg.Length(x1), Y: vg.Length(y1)}}
	}
	a := box(0, 0, 10, 4)
	for _, tt := range []struct {
		b    vg.Rectangle
		want bool
	}{
		{box(5, 2, 15, 6), true},   // corners cross
		{box(2, 1, 3, 2), true},    // inside
		{box(10, 0, 20, 4), false}, // edge to edge, side by side
		{box(0, 4, 10, 8), false},  // one line up: a label moved up once
		{box(11, 0, 20, 4), false},
	} {
		assert.Equal(t, tt.want, overlap(a, tt.b), "%v", tt.b)
		assert.Equal(t, tt.want, overlap(tt.b, a), "%v", tt.b)
	}
}

// placeLabel puts a file adder's name beside its marker, on the right if
// nothing is there, else where it hides the fewest markers and no name
// placed before it, a line up or down only when both sides are crowded.
func TestPlaceLabel(t *testing.T) {
	area := vg.Rectangle{Max: vg.Point{X: 400, Y: 300}}
	pt := vg.Point{X: 200, Y: 150}
	size := vg.Point{X: 60, Y: 8}
	const gap = 6
	right := vg.Rectangle{Min: vg.Point{X: 206, Y: 146}, Max: vg.Point{X: 266, Y: 154}}
	left := vg.Rectangle{Min: vg.Point{X: 134, Y: 146}, Max: vg.Point{X: 194, Y: 154}}
	row := func(x0, x1, y vg.Length) []vg.Point {
		var g []vg.Point
		for x := x0; x <= x1; x += 5 {
			g = append(g, vg.Point{X: x, Y: y})
		}
		return g
	}
	for _, tt := range []struct {
		name   string
		glyphs []vg.Point
		front  []vg.Point
		placed []vg.Rectangle
		want   vg.Rectangle
		moved  bool
	}{
		{"nothing near: on the right", nil, nil, nil, right, false},
		{"markers on the right: on the left", row(210, 260, 150), nil, nil, left, false},
		{"a name on the right: on the left", nil, nil, []vg.Rectangle{right}, left, false},
		{"both sides crowded: a line up", row(130, 270, 150), nil, nil, vg.Rectangle{Min: vg.Point{X: 206, Y: 154}, Max: vg.Point{X: 266, Y: 162}}, true},
		// The line up to the label's box would cross the front, which
		// runs just above the marker, left to right; the line down
		// crosses nothing.
		{"both sides crowded, the front above: a line down", row(130, 270, 150), []vg.Point{{X: 150, Y: 153.5}, {X: 260, Y: 152.5}}, nil, vg.Rectangle{Min: vg.Point{X: 206, Y: 138}, Max: vg.Point{X: 266, Y: 146}}, true},
		{"at the right edge: on the left", nil, nil, nil, left, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := area
			if tt.name == "at the right edge: on the left" {
				a.Max.X = 250
			}
			got, moved := placeLabel(a, pt, gap, size, tt.glyphs, tt.front, tt.placed)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.moved, moved)
		})
	}
}

// widenForRows widens the delay axis until a row of glyphs set beside the
// slowest point lies over it, as gonum's axis alone does not; a row
// elsewhere, or none, leaves the axis as the data set it.
func TestWidenForRows(t *testing.T) {
	slow, fast, mid := plotter.XY{X: 3, Y: 30}, plotter.XY{X: 1, Y: 10}, plotter.XY{X: 2, Y: 20}
	for _, tc := range []struct {
		name  string
		at    plotter.XYs
		widen bool
	}{
		{"a row at the slowest point", plotter.XYs{fast, mid, slow, slow, slow, slow}, true},
		{"a row at the fastest point", plotter.XYs{fast, fast, fast, mid, slow}, false},
		{"no row", plotter.XYs{fast, mid, slow}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			half := make([]vg.Length, len(tc.at))
			for i := range half {
				half[i] = vg.Points(familyRadius * markerWidth)
			}
			dx := sideBySide(tc.at, half)
			s, err := plotter.NewScatter(tc.at)
			require.NoError(t, err)
			p := plot.New()
			p.Add(nudgedScatter{s, dx})
			area := draw.New(vgsvg.New(400, 300))
			// over is how far the farthest glyph's centre lies right of
			// the axis's end.
			over := func() vg.Length {
				dc := p.DataCanvas(area)
				trX, _ := p.Transforms(&dc)
				var most vg.Length
				for i, pt := range tc.at {
					most = max(most, trX(pt.X)+dx[i]-dc.Max.X)
				}
				return most
			}
			before := p.X.Max
			require.Equal(t, tc.widen, over() > 1, "as gonum sets the axis, the row runs past its end: %v", over())
			widenForRows(p, area, tc.at, dx)
			assert.LessOrEqual(t, float64(over()), 0.01, "every glyph's centre over the axis")
			if tc.widen {
				assert.Greater(t, p.X.Max, before)
			} else {
				assert.Equal(t, before, p.X.Max, "the axis as the data set it")
			}
		})
	}
}

// crosses counts a crossing inside both segments only: segments that
// touch at an end, meet in a T, lie on one line or apart do not cross.
func TestCrosses(t *testing.T) {
	p := func(x, y vg.Length) vg.Point { return vg.Point{X: x, Y: y} }
	for _, tc := range []struct {
		name       string
		a, b, c, d vg.Point
		want       bool
	}{
		{"an X", p(0, 0), p(10, 10), p(0, 10), p(10, 0), true},
		{"an end on the other", p(0, 0), p(10, 10), p(10, 10), p(20, 0), false},
		{"a T", p(0, 0), p(10, 0), p(5, 0), p(5, 10), false},
		{"on one line, overlapping", p(0, 0), p(10, 0), p(5, 0), p(15, 0), false},
		{"parallel", p(0, 0), p(10, 0), p(0, 1), p(10, 1), false},
		{"apart", p(0, 0), p(1, 1), p(5, 0), p(6, -3), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, crosses(tc.a, tc.b, tc.c, tc.d))
			assert.Equal(t, tc.want, crosses(tc.c, tc.d, tc.a, tc.b), "either way round")
		})
	}
}
