package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

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
		placed []vg.Rectangle
		want   vg.Rectangle
		moved  bool
	}{
		{"nothing near: on the right", nil, nil, right, false},
		{"markers on the right: on the left", row(210, 260, 150), nil, left, false},
		{"a name on the right: on the left", nil, []vg.Rectangle{right}, left, false},
		{"both sides crowded: a line up", row(130, 270, 150), nil, vg.Rectangle{Min: vg.Point{X: 206, Y: 154}, Max: vg.Point{X: 266, Y: 162}}, true},
		{"at the right edge: on the left", nil, nil, left, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := area
			if tt.name == "at the right edge: on the left" {
				a.Max.X = 250
			}
			got, moved := placeLabel(a, pt, gap, size, tt.glyphs, tt.placed)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.moved, moved)
		})
	}
}
