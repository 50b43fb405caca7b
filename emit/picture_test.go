package emit_test

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// pictureWidths are the widths every topology is drawn at: powers of two and
// not, the degenerate 1 and 2, and the widest the README promises to read.
var pictureWidths = []int{1, 2, 3, 5, 8, 13, 16, 32, 33, 64}

// allNetworks builds every topology of the compare command (Ladner–Fischer
// at k = 0…3) at every picture width.
func allNetworks(t *testing.T) []*network.Network {
	t.Helper()
	var all []*network.Network
	for _, n := range pictureWidths {
		nets, err := topologies.Compare(n)
		require.NoError(t, err)
		all = append(all, nets...)
	}
	return all
}

func build(t *testing.T, name string, n int) *network.Network {
	t.Helper()
	net, err := topologies.Build(name, n, nil)
	require.NoError(t, err)
	return net
}

func dotBytes(t *testing.T, net *network.Network, opt emit.DOTOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, emit.DOT(&buf, net, opt))
	return buf.Bytes()
}

func svgBytes(t *testing.T, net *network.Network, opt emit.SVGOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, emit.SVG(&buf, net, opt))
	return buf.Bytes()
}

func TestPictureGolden(t *testing.T) {
	tests := []struct {
		name        string
		net         *network.Network
		bitZeroLeft bool
	}{
		{"sk8", build(t, "sklansky", 8), false},
		{"ks5", build(t, "kogge-stone", 5), false},
		{"bk8-bit0-left", build(t, "brent-kung", 8), true},
		{"odd", emit.OddNetwork(t), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", tt.name+".dot.golden"), dotBytes(t, tt.net, emit.DOTOptions{BitZeroLeft: tt.bitZeroLeft}))
			golden.Check(t, filepath.Join("testdata", tt.name+".svg.golden"), svgBytes(t, tt.net, emit.SVGOptions{BitZeroLeft: tt.bitZeroLeft}))
		})
	}
}

// Two runs draw the same bytes.
func TestPictureDeterministic(t *testing.T) {
	for _, net := range append(allNetworks(t), emit.OddNetwork(t)) {
		for _, left := range []bool{false, true} {
			a := dotBytes(t, net, emit.DOTOptions{BitZeroLeft: left})
			b := dotBytes(t, net, emit.DOTOptions{BitZeroLeft: left})
			require.Equal(t, string(a), string(b), "DOT of %s %d", emit.Name(net), net.Width())
			a = svgBytes(t, net, emit.SVGOptions{BitZeroLeft: left})
			b = svgBytes(t, net, emit.SVGOptions{BitZeroLeft: left})
			require.Equal(t, string(a), string(b), "SVG of %s %d", emit.Name(net), net.Width())
		}
	}
}

// The SVG is well-formed SVG 1.1 with one cell element per cell, of the
// kind carry.Kinds gives, titled with the cell's span and level.
func TestSVGCells(t *testing.T) {
	for _, net := range append(allNetworks(t), emit.OddNetwork(t)) {
		what := fmt.Sprintf("%s %d", emit.Name(net), net.Width())
		doc := readSVG(t, svgBytes(t, net, emit.SVGOptions{}))
		assert.Equal(t, "svg", doc.root.Name.Local, what)
		assert.Equal(t, "http://www.w3.org/2000/svg", doc.root.Name.Space, what)
		assert.Equal(t, "1.1", attr(doc.root, "version"), what)
		w, h := attr(doc.root, "width"), attr(doc.root, "height")
		assert.Equal(t, "0 0 "+w+" "+h, attr(doc.root, "viewBox"), what)

		require.Len(t, doc.cells, net.Size(), what)
		kinds := carry.Kinds(net)
		want := map[string]int{}
		black := 0
		for k, kind := range kinds {
			s := net.CellSignal(k)
			want[fmt.Sprintf("%v level %d, %v", net.Span(s), net.Level(s), kind)]++
			if kind == carry.Black {
				black++
			}
		}
		got := map[string]int{}
		gotBlack := 0
		for _, c := range doc.cells {
			assert.Equal(t, "circle", c.element, what)
			require.Len(t, c.classes, 2, what)
			assert.Contains(t, []string{"black", "gray"}, c.classes[1], what)
			assert.True(t, strings.HasSuffix(c.title, ", "+c.classes[1]), "%s: title %q of a %s cell", what, c.title, c.classes[1])
			if c.classes[1] == "black" {
				gotBlack++
			}
			got[c.title]++
		}
		assert.Equal(t, black, gotBlack, what)
		assert.Equal(t, want, got, what)
	}
}

// The output labels fit between two columns at any width: past three
// digits ("1023:0") their font shrinks, where they ran into each other.
func TestSVGOutputLabelsFit(t *testing.T) {
	for _, n := range []int{8, 100, 1000, 1024, 4096} {
		svg := string(svgBytes(t, build(t, "sklansky", n), emit.SVGOptions{}))
		m := regexp.MustCompile(`<g class="outputs" font-size="(\d+)"`).FindStringSubmatch(svg)
		require.NotNil(t, m, n)
		font, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		label := fmt.Sprintf("%d:0", n-1)
		assert.LessOrEqual(t, float64(len(label))*0.6*float64(font), 26.0, "%q at %dpx, columns 28 apart", label, font)
		assert.GreaterOrEqual(t, font, 7, "still readable")
	}
}

// A column whose output is an older signal than its last ends its line at
// its last cell: the output comes down by its own curve, and the column's
// line carried the newer signal down to the output's label too.
func TestSVGColumnEndsAtItsLastSignal(t *testing.T) {
	// Output 3 is [0,3] of level 2; [0,3] of level 3 feeds [0,4] only.
	net, err := network.Unmarshal([]byte(`{"format":"prefixgen.network/v1","width":5,"cells":[[0,1],[2,3],[5,6],[5,2],[8,3],[9,4]],"outputs":[0,5,8,7,10]}`))
	require.NoError(t, err)
	svg := string(svgBytes(t, net, emit.SVGOptions{}))
	cell := func(title string) (x, y string) {
		m := regexp.MustCompile(`<circle class="cell \w+" cx="(\d+)" cy="(\d+)" r="\d+" fill="[^"]+"><title>` + regexp.QuoteMeta(title)).FindStringSubmatch(svg)
		require.NotNil(t, m, title)
		return m[1], m[2]
	}
	columns := svg[strings.Index(svg, `<g class="columns"`):]
	columns = columns[:strings.Index(columns, "</g>")]
	end := func(x string) int {
		m := regexp.MustCompile(`<line x1="` + x + `" y1="\d+" x2="` + x + `" y2="(\d+)"/>`).FindStringSubmatch(columns)
		require.NotNil(t, m, "the line of column x=%s", x)
		y, err := strconv.Atoi(m[1])
		require.NoError(t, err)
		return y
	}
	x3, y3 := cell("[0,3] level 3")
	assert.Equal(t, y3, strconv.Itoa(end(x3)), "bit 3's line ends at its last cell")
	x4, y4 := cell("[0,4] level 4")
	last, err := strconv.Atoi(y4)
	require.NoError(t, err)
	assert.Greater(t, end(x4), last, "bit 4's line goes on to its output")
}

// The caption fits the picture whatever letters the name has: a name of
// wide letters (bold m is about 0.9 em) ran past the edge.
func TestSVGCaptionFits(t *testing.T) {
	name := strings.Repeat("m", network.MaxTopologyName)
	net, err := network.Unmarshal([]byte(fmt.Sprintf(`{"format":"prefixgen.network/v1","topology":%q,"width":3,"cells":[[0,1],[3,2]],"outputs":[0,3,4]}`, name)))
	require.NoError(t, err)
	doc := readSVG(t, svgBytes(t, net, emit.SVGOptions{}))
	w, err := strconv.Atoi(attr(doc.root, "width"))
	require.NoError(t, err)
	caption := name + ", width 3"
	assert.GreaterOrEqual(t, float64(w), 30+float64(len(caption))*0.95*12, "bold m at 12px")
}

// A width-64 picture keeps its numbers small and its size in proportion:
// integers where the grid is integral, one column pitch per bit.
func TestSVGCompact(t *testing.T) {
	svg := string(svgBytes(t, build(t, "kogge-stone", 64), emit.SVGOptions{}))
	assert.NotRegexp(t, `\d\.\d{3}`, svg, "no long decimals")
	assert.NotContains(t, svg, "e+")
	doc := readSVG(t, []byte(svg))
	w, err := strconv.Atoi(attr(doc.root, "width"))
	require.NoError(t, err)
	assert.Less(t, w, 64*40, "about 28 units per column")
	assert.Greater(t, w, 64*20)
}

var (
	// dotNode matches a node statement as emicklei/dot writes it.
	dotNode = regexp.MustCompile(`(?m)^\s*(n\d+)\[(.*)\];$`)
	// dotPos matches a pinned position.
	dotPos = regexp.MustCompile(`(?:^|,)pos="(-?[\d.]+),(-?[\d.]+)!"`)
)

// pinned returns the pinned position of every node of a DOT file, in
// points, and fails the test for a node without one.
func pinned(t *testing.T, dot []byte) map[string][2]float64 {
	t.Helper()
	pos := map[string][2]float64{}
	for _, m := range dotNode.FindAllSubmatch(dot, -1) {
		p := dotPos.FindSubmatch(m[2])
		require.NotNil(t, p, "node %s has no pinned pos: %s", m[1], m[2])
		x, err := strconv.ParseFloat(string(p[1]), 64)
		require.NoError(t, err)
		y, err := strconv.ParseFloat(string(p[2]), 64)
		require.NoError(t, err)
		pos[string(m[1])] = [2]float64{x, y}
	}
	return pos
}

// Every node is pinned, and the DOT file has a node per input, cell and
// output.
func TestDOTPinned(t *testing.T) {
	for _, net := range append(allNetworks(t), emit.OddNetwork(t)) {
		data := dotBytes(t, net, emit.DOTOptions{BitZeroLeft: net.Width()%2 == 1})
		pos := pinned(t, data)
		assert.Len(t, pos, net.Signals()+net.Width(), "%s %d", emit.Name(net), net.Width())
		assert.Len(t, dotNode.FindAll(data, -1), len(pos), "node names are unique")
	}
}

// dotJob is one batch of DOT files for one Graphviz program.
type dotJob struct {
	name  string
	args  []string
	check func(t *testing.T, out []byte)
}

// Graphviz accepts every DOT file, of every topology at every width, both
// with bit 0 right and left: plain dot lays it out, and neato -n2 draws
// every node exactly where pos pins it. Each program reads all files in one
// run, so the test takes a moment, not minutes.
func TestDOTGraphviz(t *testing.T) {
	dotPath := tooltest.Path(t, "dot")
	neatoPath := tooltest.Path(t, "neato")

	dir := t.TempDir()
	var files, narrow, wide []string
	var pins []map[string][2]float64
	nets := append(allNetworks(t), emit.OddNetwork(t))
	for i, net := range nets {
		for _, left := range []bool{false, true} {
			data := dotBytes(t, net, emit.DOTOptions{BitZeroLeft: left})
			path := filepath.Join(dir, fmt.Sprintf("%03d-%s-%d-%v.dot", i, net.Topology(), net.Width(), left))
			require.NoError(t, os.WriteFile(path, data, 0o644))
			files = append(files, path)
			pins = append(pins, pinned(t, data))
			if net.Width() < 64 {
				narrow = append(narrow, path)
			} else {
				wide = append(wide, path)
			}
		}
	}
	layouts := func(files []string) func(t *testing.T, out []byte) {
		return func(t *testing.T, out []byte) {
			assert.Equal(t, len(files), bytes.Count(out, []byte("\nstop\n")), "one layout per file")
		}
	}

	jobs := []dotJob{
		{"dot", append([]string{dotPath, "-Tplain"}, narrow...), layouts(narrow)},
		// Plain dot spends seconds straightening the 63 long columns of
		// ripple 64; one round of its x-coordinate optimisation is enough
		// to know that it accepts and lays out the widest files.
		{"dot 64", append([]string{dotPath, "-Gnslimit=1", "-Tplain"}, wide...), layouts(wide)},
		{"neato -n2", append([]string{neatoPath, "-n2", "-Tplain"}, files...), func(t *testing.T, out []byte) {
			checkPinned(t, out, pins)
		}},
	}
	for _, job := range jobs {
		t.Run(job.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			cmd := tooltest.Command(t, job.args[0], job.args[1:]...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Run(), "%s: %s", job.name, stderr.String())
			assert.Empty(t, stderr.String(), "%s warns", job.name)
			job.check(t, stdout.Bytes())
		})
	}
}

// checkPinned reads neato's plain output, one graph per file, and checks
// that each graph's nodes lie where pos put them, up to one shift of the
// whole graph (neato moves the drawing to the origin).
func checkPinned(t *testing.T, plain []byte, pins []map[string][2]float64) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(plain))
	sc.Buffer(nil, 1<<20)
	g := -1
	var shift [2]float64
	nodes := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) > 0 && f[0] == "graph":
			g++
			require.Less(t, g, len(pins), "more graphs than files")
			shift = [2]float64{math.NaN(), math.NaN()}
			nodes = 0
		case len(f) > 3 && f[0] == "node":
			want, ok := pins[g][f[1]]
			require.True(t, ok, "graph %d: node %s is not in the file", g, f[1])
			x, err := strconv.ParseFloat(f[2], 64)
			require.NoError(t, err)
			y, err := strconv.ParseFloat(f[3], 64)
			require.NoError(t, err)
			// Plain output is in inches, rounded.
			d := [2]float64{x*72 - want[0], y*72 - want[1]}
			if math.IsNaN(shift[0]) {
				shift = d
			}
			require.InDelta(t, shift[0], d[0], 0.5, "graph %d node %s moved", g, f[1])
			require.InDelta(t, shift[1], d[1], 0.5, "graph %d node %s moved", g, f[1])
			nodes++
		case len(f) == 1 && f[0] == "stop":
			require.Equal(t, len(pins[g]), nodes, "graph %d: every node drawn", g)
		}
	}
	require.NoError(t, sc.Err())
	require.Equal(t, len(pins)-1, g, "one graph per file")
}

// svgWire is a Lo wire drawn along a lane: from the Lo column line at
// (x0, y) along to x1, then into the cell at (cx, cy).
type svgWire struct{ x0, y, x1, cx, cy int }

// svgLaneRE matches the path data of a Lo wire drawn along a lane.
var svgLaneRE = regexp.MustCompile(`^M(\d+) (\d+) H(\d+) L(\d+) (\d+)$`)

// svgWires returns the Lo wires of the picture drawn along lanes.
func svgWires(t *testing.T, svg []byte) []svgWire {
	t.Helper()
	var out []svgWire
	for _, w := range readSVG(t, svg).wires {
		m := svgLaneRE.FindStringSubmatch(w.d)
		if m == nil {
			continue
		}
		var v [5]int
		for i := range v {
			n, err := strconv.Atoi(m[i+1])
			require.NoError(t, err)
			v[i] = n
		}
		out = append(out, svgWire{v[0], v[1], v[2], v[3], v[4]})
	}
	return out
}

// Kogge–Stone's long Lo wires at its last levels each get a lane of their
// own: no two wires of different signals run along the same height where
// their columns overlap, and lanes stand apart, so each wire can be
// followed from its column to its cell.
func TestSVGWireLanes(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int
	}{{"kogge-stone", 32}, {"kogge-stone", 64}, {"han-carlson", 32}, {"sklansky", 32}, {"brent-kung", 32}} {
		t.Run(fmt.Sprintf("%s-%d", tt.name, tt.n), func(t *testing.T) {
			net := build(t, tt.name, tt.n)
			wires := svgWires(t, svgBytes(t, net, emit.SVGOptions{}))
			if tt.name == "kogge-stone" {
				// Every cell whose Lo is two columns or more away.
				long := 0
				for k := range net.Size() {
					c := net.Cell(k)
					if net.Column(net.CellSignal(k))-net.Column(c.Lo) >= 2 {
						long++
					}
				}
				require.Equal(t, long, len(wires))
			}
			for i, a := range wires {
				for _, b := range wires[i+1:] {
					if a.x0 == b.x0 && a.y == b.y {
						continue // one signal's wires share its lane
					}
					loA, hiA := min(a.x0, a.x1), max(a.x0, a.x1)
					loB, hiB := min(b.x0, b.x1), max(b.x0, b.x1)
					if loA <= hiB && loB <= hiA {
						assert.GreaterOrEqual(t, abs(a.y-b.y), 6, "overlapping wires %v and %v share a lane", a, b)
					}
				}
			}
		})
	}
}

func abs(x int) int { return max(x, -x) }

// A Hi operand that skips a newer signal of its column is drawn as a curve
// that ends on its cell, even where an earlier row holds wire lanes and is
// taller than a row (the curve once ended a row's height short of the cell,
// in the lane wire above it).
func TestSVGSkipCurveEndsOnCell(t *testing.T) {
	// [0,5] at level 3 reads [4,5] of level 1, past [2,5] of level 2.
	net, err := network.Unmarshal([]byte(`{"format":"prefixgen.network/v1","width":8,"topology":"","params":{},
		"cells":[[0,1],[2,3],[4,5],[6,7],[9,10],[8,9],[12,11],[13,10],[8,14],[8,2],[13,4],[15,6]],"outputs":[0,8,17,13,18,15,19,16]}`))
	require.NoError(t, err)
	pic := readSVG(t, svgBytes(t, net, emit.SVGOptions{}))
	cells := map[[2]float64]bool{}
	for _, c := range pic.cells {
		cells[[2]float64{c.x, c.y}] = true
	}
	var curves []svgWirePath
	for _, w := range pic.wires {
		if strings.Contains(w.d, "C") {
			curves = append(curves, w)
		}
	}
	require.NotEmpty(t, curves, "the network has a skipping Hi operand")
	for _, w := range curves {
		end := w.pts[len(w.pts)-1]
		assert.True(t, cells[end], "curve %q ends at (%g, %g), on no cell", w.d, end[0], end[1])
	}
}
