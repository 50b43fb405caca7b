package emit_test

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// disc is a cell of a picture: its centre and radius, and its name for the
// messages.
type disc struct {
	x, y, r float64
	name    string
}

// trace is a drawn wire, as the polyline through which it runs (curves
// sampled finely), and the cells it connects: those at its two ends.
type trace struct {
	pts  [][2]float64
	ends []int // indices of the discs the wire connects
	what string
}

// bezierSteps is how many straight pieces a cubic curve is checked as.
const bezierSteps = 64

// cubic appends the points of the cubic Bézier curve p0 p1 p2 p3, p0
// excluded, to pts.
func cubic(pts [][2]float64, p0, p1, p2, p3 [2]float64) [][2]float64 {
	for i := 1; i <= bezierSteps; i++ {
		t := float64(i) / bezierSteps
		u := 1 - t
		a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
		pts = append(pts, [2]float64{
			a*p0[0] + b*p1[0] + c*p2[0] + d*p3[0],
			a*p0[1] + b*p1[1] + c*p2[1] + d*p3[1],
		})
	}
	return pts
}

// segmentDistance returns the distance from p to the segment a b.
func segmentDistance(p, a, b [2]float64) float64 {
	dx, dy := b[0]-a[0], b[1]-a[1]
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = max(0, min(1, ((p[0]-a[0])*dx+(p[1]-a[1])*dy)/l))
	}
	return math.Hypot(p[0]-a[0]-t*dx, p[1]-a[1]-t*dy)
}

// crossings lists every wire that passes within a cell's radius of the
// centre of a cell it does not connect: there the cell, drawn over the
// wire, seems to be its source or its end.
func crossings(cells []disc, wires []trace) []string {
	var out []string
	for _, w := range wires {
		for i, c := range cells {
			if slices.Contains(w.ends, i) {
				continue
			}
			for j := 1; j < len(w.pts); j++ {
				if d := segmentDistance([2]float64{c.x, c.y}, w.pts[j-1], w.pts[j]); d < c.r {
					out = append(out, fmt.Sprintf("%s passes %.1f from the centre of %s", w.what, d, c.name))
					break
				}
			}
		}
	}
	return out
}

// endsAt returns the cells whose centre lies at p, within a rounding.
func endsAt(cells []disc, p [2]float64) []int {
	var at []int
	for i, c := range cells {
		if math.Hypot(c.x-p[0], c.y-p[1]) < 0.5 {
			at = append(at, i)
		}
	}
	return at
}

// svgGeometry reads the cells and the wires of an SVG picture.
func svgGeometry(t *testing.T, data []byte) ([]disc, []trace) {
	t.Helper()
	pic := readSVG(t, data)
	cells := make([]disc, len(pic.cells))
	for i, c := range pic.cells {
		require.True(t, c.isCircle, "cell %q is a <%s>, not a circle", c.title, c.element)
		cells[i] = disc{x: c.x, y: c.y, r: c.r, name: c.title}
	}
	wires := make([]trace, len(pic.wires))
	for i, w := range pic.wires {
		a, b := w.pts[0], w.pts[len(w.pts)-1]
		wires[i] = trace{pts: w.pts, ends: append(endsAt(cells, a), endsAt(cells, b)...),
			what: fmt.Sprintf("wire from (%g, %g) to (%g, %g)", a[0], a[1], b[0], b[1])}
	}
	return cells, wires
}

var (
	// dotEdge matches an edge statement as emicklei/dot writes it.
	dotEdge = regexp.MustCompile(`(?m)^\s*(n\d+)->(n\d+)\[(.*)\];$`)
	// dotAttr matches one attribute of a node or an edge.
	dotAttr = regexp.MustCompile(`(\w+)="([^"]*)"`)
)

// dotAttrs returns the attributes of a statement.
func dotAttrs(list string) map[string]string {
	m := map[string]string{}
	for _, a := range dotAttr.FindAllStringSubmatch(list, -1) {
		m[a[1]] = a[2]
	}
	return m
}

// dotGeometry reads the cells (the circles) and the wires of a DOT file
// as neato -n2 draws them: an edge along its pos, a cubic B-spline, or
// straight from node to node where it has none.
func dotGeometry(t *testing.T, data []byte) ([]disc, []trace) {
	t.Helper()
	pos := pinned(t, data)
	var cells []disc
	index := map[string]int{}
	for _, m := range dotNode.FindAllStringSubmatch(string(data), -1) {
		a := dotAttrs(m[2])
		if a["shape"] != "circle" {
			continue
		}
		w, err := strconv.ParseFloat(a["width"], 64)
		require.NoError(t, err)
		p := pos[m[1]]
		index[m[1]] = len(cells)
		cells = append(cells, disc{x: p[0], y: p[1], r: w * 72 / 2, name: a["tooltip"]})
	}
	var wires []trace
	for _, m := range dotEdge.FindAllStringSubmatch(string(data), -1) {
		a := dotAttrs(m[3])
		if a["style"] == "invis" {
			continue
		}
		w := trace{what: fmt.Sprintf("edge %s->%s", m[1], m[2])}
		for _, n := range m[1:3] {
			if i, ok := index[n]; ok {
				w.ends = append(w.ends, i)
			}
		}
		if a["pos"] == "" {
			w.pts = [][2]float64{pos[m[1]], pos[m[2]]}
		} else {
			var ctl [][2]float64
			for _, f := range strings.Fields(a["pos"]) {
				x, y, ok := strings.Cut(f, ",")
				require.True(t, ok, "edge %s: pos %q", w.what, a["pos"])
				px, err := strconv.ParseFloat(x, 64)
				require.NoError(t, err)
				py, err := strconv.ParseFloat(y, 64)
				require.NoError(t, err)
				ctl = append(ctl, [2]float64{px, py})
			}
			require.Equal(t, 1, len(ctl)%3, "%s: a B-spline has 3k+1 points", w.what)
			w.pts = ctl[:1]
			for i := 1; i+2 < len(ctl); i += 3 {
				w.pts = cubic(w.pts, ctl[i-1], ctl[i], ctl[i+1], ctl[i+2])
			}
		}
		wires = append(wires, w)
	}
	return cells, wires
}

// No wire of a picture, SVG or DOT, runs over a cell it does not connect:
// the cells are drawn over the wires, so the wire would seem to come out of
// that cell. Higher-valency networks read older signals of a column that
// holds newer ones, as the binary built-in networks never do.
func TestPictureWiresMissCells(t *testing.T) {
	valency := func(name string, n, k int) *network.Network {
		net, err := topologies.Valency(name, n, k)
		require.NoError(t, err)
		return net
	}
	var nets []*network.Network
	for _, n := range []int{5, 16, 27} {
		for _, k := range []int{3, 4} {
			nets = append(nets, valency("kogge-stone", n, k))
		}
	}
	nets = append(nets, valency("sklansky", 16, 4), valency("sklansky", 27, 3), valency("sklansky", 64, 4))
	for _, n := range []int{5, 8, 16, 33} {
		binary, err := topologies.Compare(n)
		require.NoError(t, err)
		nets = append(nets, binary...)
	}
	nets = append(nets, emit.OddNetwork(t))
	for _, net := range nets {
		for _, left := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s-%d-bit0left=%v", emit.Name(net), net.Width(), left), func(t *testing.T) {
				cells, wires := svgGeometry(t, svgBytes(t, net, emit.SVGOptions{BitZeroLeft: left}))
				require.Len(t, cells, net.Size())
				assert.Empty(t, crossings(cells, wires), "SVG")
				cells, wires = dotGeometry(t, dotBytes(t, net, emit.DOTOptions{BitZeroLeft: left}))
				require.Len(t, cells, net.Size())
				assert.Empty(t, crossings(cells, wires), "DOT")
			})
		}
	}
}

// The checker itself sees a wire drawn through a cell, and not one that
// passes beside it.
func TestCrossingsChecker(t *testing.T) {
	cells := []disc{{x: 0, y: 0, r: 7, name: "a"}, {x: 28, y: 0, r: 7, name: "b"}, {x: 56, y: 32, r: 7, name: "c"}}
	tests := []struct {
		name string
		d    string
		want int
	}{
		{"through", "M0 0 H60", 1},
		{"diagonal past", "M0 0 L56 32", 0},
		{"beside", "M0 0 L0 32 H56", 0},
		{"into its end", "M100 0 H28", 0},
		{"curve through", "M0 -20 C20 0 36 0 56 32", 1},
		{"lane", "M0 16 V16 H50 L56 32", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pts := svgPath(t, tt.d)
			w := trace{pts: pts, ends: append(endsAt(cells, pts[0]), endsAt(cells, pts[len(pts)-1])...), what: tt.name}
			assert.Len(t, crossings(cells, []trace{w}), tt.want)
		})
	}
}
