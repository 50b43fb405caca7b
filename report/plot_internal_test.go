package report

import (
	"bytes"
	"image/color"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// Every family has a colour and a shape of its own: no two families share
// either (the plot once drew Kogge–Stone and zero-deficiency both orange).
func TestFamilyStyles(t *testing.T) {
	colours := map[color.Color]string{}
	shapes := map[string]string{}
	for i, fam := range familyOrder {
		c, g := familyStyle(fam, 0)
		shape := reflect.TypeOf(g).String()
		if fam == familyOrder[len(familyOrder)-1] {
			// The optimizer under a fan-out bound: the optimizer's colour,
			// hollow where the optimizer's is filled.
			oc, og := familyStyle("optimizer", 0)
			assert.Equal(t, oc, c)
			assert.NotEqual(t, reflect.TypeOf(og), reflect.TypeOf(g))
			assert.NotContains(t, shapes, shape, "%s shares its shape with %s", fam, shapes[shape])
			continue
		}
		assert.NotContains(t, colours, c, "%s shares its colour with %s", fam, colours[c])
		assert.NotContains(t, shapes, shape, "%s shares its shape with %s", fam, shapes[shape])
		colours[c], shapes[shape] = fam, fam
		_ = i
	}
	ks, _ := familyStyle("kogge-stone", 0)
	zd, _ := familyStyle("zero-deficiency", 0)
	assert.NotEqual(t, ks, zd)
	// explore --carry-select's family has a style of its own, not the
	// first one's (ripple's) as a family the plot does not know would.
	assert.Contains(t, familyOrder, "carry-select")
	rc, rg := familyStyle("ripple", 0)
	cc, cg := familyStyle("carry-select", 0)
	assert.NotEqual(t, rc, cc)
	assert.NotEqual(t, reflect.TypeOf(rg), reflect.TypeOf(cg))
}

// The size axis gets five to eleven labelled ticks at a round step.
func TestSizeTicks(t *testing.T) {
	for _, r := range [][2]float64{{100, 330}, {0, 10}, {3, 7}, {700, 3500}, {110, 121}, {60, 2000}} {
		labelled := 0
		for _, tk := range (sizeTicks{}).Ticks(r[0], r[1]) {
			assert.GreaterOrEqual(t, tk.Value, r[0])
			assert.LessOrEqual(t, tk.Value, r[1])
			if tk.Label != "" {
				labelled++
			}
		}
		assert.GreaterOrEqual(t, labelled, 4, "%v", r)
		assert.LessOrEqual(t, labelled, 11, "%v", r)
	}
}

// The room below a size of 0 (networks of width 1) gets no label: no
// network has a negative size.
func TestSizeTicksNotNegative(t *testing.T) {
	ticks := (sizeTicks{}).Ticks(-1, 1)
	require.NotEmpty(t, ticks)
	for _, tk := range ticks {
		assert.GreaterOrEqual(t, tk.Value, 0.0, "%+v", tk)
	}
}

// A larger fan-out gets a larger marker.
func TestFanoutRadius(t *testing.T) {
	for f := 1; f < 64; f++ {
		assert.Less(t, fanoutRadius(f), fanoutRadius(f+1))
	}
}

// A sparse adder's mark is one, two or three dots for sparseness 2, 4 and
// 8, a shape no family uses, and it lies inside the family's marker (the
// marks were once a plus and a cross, ripple's and Sklansky's shapes).
func TestSparseStyle(t *testing.T) {
	families := map[string]bool{}
	for _, fam := range familyOrder {
		_, g := familyStyle(fam, 0)
		families[reflect.TypeOf(g).String()] = true
	}
	for i, sparse := range []int{2, 4, 8} {
		sty := sparseStyle(sparse)
		assert.False(t, families[reflect.TypeOf(sty.Shape).String()], "sparse %d is marked with a family's shape", sparse)
		var rec recorder.Canvas
		c := draw.NewCanvas(&rec, 20, 20)
		centre := vg.Point{X: 10, Y: 10}
		sty.Shape.DrawGlyph(&c, sty, centre)
		dots := 0
		for _, a := range rec.Actions {
			fill, ok := a.(*recorder.Fill)
			if !ok {
				continue
			}
			dots++
			for _, pc := range fill.Path {
				if pc.Type != vg.ArcComp {
					continue
				}
				assert.Equal(t, centre.Y, pc.Pos.Y, "sparse %d: the dots stand in a row", sparse)
				assert.LessOrEqual(t, math.Abs(float64(pc.Pos.X-centre.X))+float64(pc.Radius), familyRadius,
					"sparse %d: a dot reaches outside the family's marker", sparse)
			}
		}
		assert.Equal(t, i+1, dots, "sparse %d", sparse)
	}
}

// A title wider than the plot is broken at spaces into lines that fit it:
// the long file name of Nangate45's library ran the area–delay plot's
// title off the picture's left edge.
func TestTitleFits(t *testing.T) {
	title := "Adders of width 64 after synthesis (nangate45_typ.lib.gz, flow abc, pgcells adders)"
	p, legend := newPlot(title, "delay (ns)", "area (µm²)")
	var b bytes.Buffer
	require.NoError(t, drawWithLegend(&b, "svg", p, legend))
	texts := regexp.MustCompile(`<text x="(-?[0-9.e+-]+)"[^>]*>([^<]*)</text>`).FindAllStringSubmatch(b.String(), -1)
	var lines []string
	for _, m := range texts {
		if strings.Contains(title, m[2]) && strings.ContainsAny(m[2], "abcdefghijklmnopqrstuvwxyz") {
			x, err := strconv.ParseFloat(m[1], 64)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, x, 0.0, "%q starts left of the picture", m[2])
			lines = append(lines, m[2])
		}
	}
	require.NotEmpty(t, lines, "no title in the SVG")
	assert.Equal(t, title, strings.Join(lines, " "), "the title, every word, in order")
	// A title that fits keeps its one line.
	short := "Adders of width 8"
	assert.Equal(t, short, fitTitle(short, p.Title.TextStyle, vg.Points(plotWidth-legendWidth)))
}
