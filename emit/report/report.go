package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies/explore"
)

//go:embed templates/report.html.tmpl
var templateFiles embed.FS

var page = template.Must(template.ParseFS(templateFiles, "templates/report.html.tmpl"))

// MaxWidth is the widest network HTML draws: a page of diagrams wider than
// 256 columns is too large to read.
const MaxWidth = 256

// Options are the options of HTML.
type Options struct {
	// Command is the prefixgen command that made the report, printed on it.
	Command string
}

// pageData is what the template reads.
type pageData struct {
	Width     int
	Command   string
	Optimized bool
	FrontSize int
	Plot      template.HTML
	Networks  []pageNetwork
}

type pageNetwork struct {
	explore.Point
	ID      string
	Front   bool
	Diagram template.HTML
}

// HTML writes the report of the points at width n as one self-contained HTML
// page: the plot of size against depth, the table of every point with its
// figures and the command that rebuilds it, the points of front marked, and
// every network's diagram. The page is written whole or, on an error, not at
// all.
func HTML(w io.Writer, n int, points, front []explore.Point, opt Options) error {
	if n < 1 || n > MaxWidth {
		return fmt.Errorf("report: width %d out of range: allowed 1…%d", n, MaxWidth)
	}
	var plotSVG bytes.Buffer
	if err := Plot(&plotSVG, n, points, front, "svg"); err != nil {
		return err
	}
	d := pageData{Width: n, Command: opt.Command, FrontSize: len(front), Plot: template.HTML(plotSVG.String())}
	onFront := map[*network.Network]bool{}
	for _, p := range front {
		onFront[p.Network] = true
	}
	ids := map[string]int{}
	for _, p := range points {
		var svg bytes.Buffer
		if err := emit.SVG(&svg, p.Network, emit.SVGOptions{}); err != nil {
			return fmt.Errorf("report: %s: %v", p.Name, err)
		}
		d.Optimized = d.Optimized || p.Family == "optimizer"
		id := anchor(p.Name)
		ids[id]++
		if ids[id] > 1 {
			id = fmt.Sprintf("%s-%d", id, ids[id])
		}
		d.Networks = append(d.Networks, pageNetwork{Point: p, ID: id, Front: onFront[p.Network], Diagram: template.HTML(svg.String())})
	}
	var out bytes.Buffer
	if err := page.Execute(&out, d); err != nil {
		return fmt.Errorf("report: %v", err)
	}
	_, err := w.Write(out.Bytes())
	return err
}

// anchor turns a network's name into an HTML id: letters and digits kept,
// runs of anything else one hyphen.
func anchor(name string) string {
	var b strings.Builder
	b.WriteString("net-")
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimRight(b.String(), "-")
}
