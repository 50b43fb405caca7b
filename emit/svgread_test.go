package emit_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// svgPicture is what the tests read back from an SVG picture, with
// encoding/xml, strictly: its root element, its cells and its wires.
type svgPicture struct {
	root  xml.StartElement
	cells []svgCell
	wires []svgWirePath
}

// svgCell is one element of class "cell": the element, its classes, its
// title and, for a circle, its centre and radius.
type svgCell struct {
	element  string
	classes  []string
	title    string
	x, y, r  float64
	isCircle bool
}

// svgWirePath is one element of the group of class "wires": the path
// data d as written ("" for a line) and the polyline it runs through,
// curves sampled finely.
type svgWirePath struct {
	d   string
	pts [][2]float64
}

// readSVG reads an SVG picture. It fails the test on XML that does not
// parse, a cell inside a cell, a number that does not parse, or an element
// among the wires other than a line or a path.
func readSVG(t *testing.T, data []byte) svgPicture {
	t.Helper()
	num := func(e xml.StartElement, name string) float64 {
		v, err := strconv.ParseFloat(attr(e, name), 64)
		require.NoError(t, err, "%s of %s", name, e.Name.Local)
		return v
	}
	var pic svgPicture
	d := xml.NewDecoder(bytes.NewReader(data))
	var open *svgCell // the cell element being read, for its <title>
	inTitle := false
	depth := 0
	group := "" // the class of the group being read
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 1 {
				pic.root = tok.Copy()
			}
			name := tok.Name.Local
			if classes := strings.Fields(attr(tok, "class")); slices.Contains(classes, "cell") {
				require.Nil(t, open, "a cell inside a cell")
				open = &svgCell{element: name, classes: classes}
				if name == "circle" {
					open.x, open.y, open.r, open.isCircle = num(tok, "cx"), num(tok, "cy"), num(tok, "r"), true
				}
			}
			inTitle = name == "title" && open != nil
			switch {
			case name == "g":
				group = attr(tok, "class")
			case group == "wires" && name == "line":
				pic.wires = append(pic.wires, svgWirePath{pts: [][2]float64{{num(tok, "x1"), num(tok, "y1")}, {num(tok, "x2"), num(tok, "y2")}}})
			case group == "wires" && name == "path":
				pic.wires = append(pic.wires, svgWirePath{d: attr(tok, "d"), pts: svgPath(t, attr(tok, "d"))})
			case group == "wires":
				t.Fatalf("unexpected <%s> among the wires", name)
			}
		case xml.CharData:
			if inTitle {
				open.title += string(tok)
			}
		case xml.EndElement:
			depth--
			inTitle = false
			switch {
			case tok.Name.Local == "g":
				group = ""
			case open != nil && tok.Name.Local == open.element:
				pic.cells = append(pic.cells, *open)
				open = nil
			}
		}
	}
	return pic
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// svgPathRE splits an SVG path's data into commands and numbers.
var svgPathRE = regexp.MustCompile(`[MLHVC]|-?[\d.]+`)

// svgPath reads the absolute M, L, H, V and C commands prefixgen writes.
func svgPath(t *testing.T, d string) [][2]float64 {
	t.Helper()
	var pts [][2]float64
	var cmd string
	var nums []float64
	tokens := append(svgPathRE.FindAllString(d, -1), "M") // a last M flushes
	for _, tok := range tokens {
		if strings.Contains("MLHVC", tok) {
			var cur [2]float64
			if len(pts) > 0 {
				cur = pts[len(pts)-1]
			}
			switch cmd {
			case "M", "L":
				for i := 0; i+1 < len(nums); i += 2 {
					pts = append(pts, [2]float64{nums[i], nums[i+1]})
				}
			case "H":
				for _, x := range nums {
					pts = append(pts, [2]float64{x, cur[1]})
				}
			case "V":
				for _, y := range nums {
					pts = append(pts, [2]float64{cur[0], y})
				}
			case "C":
				require.Zero(t, len(nums)%6, "path %q", d)
				for i := 0; i < len(nums); i += 6 {
					p0 := pts[len(pts)-1]
					pts = cubic(pts, p0, [2]float64{nums[i], nums[i+1]}, [2]float64{nums[i+2], nums[i+3]}, [2]float64{nums[i+4], nums[i+5]})
				}
			}
			cmd, nums = tok, nil
			continue
		}
		v, err := strconv.ParseFloat(tok, 64)
		require.NoError(t, err, "path %q", d)
		nums = append(nums, v)
	}
	require.NotEmpty(t, pts, "path %q", d)
	return pts
}
