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
	"github.com/prefixgen/prefixgen/physical"
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
	// Measured, when not nil, holds every point measured by the physical
	// flow, in the order of the points (explore.Synthesize): the page adds
	// the plot of area against delay, the area and delay of every network
	// and its place on the area–delay front. Reference is Yosys's own
	// a + b + cin through the same flow, shown beside them.
	Measured  []explore.Measured
	Reference *physical.Result
}

// pageData is what the template reads.
type pageData struct {
	Width     int
	Command   string
	Optimized bool
	FrontSize int
	Plot      template.HTML
	Networks  []pageNetwork
	// Synth is set when the points were measured by the physical flow:
	// SynthPlot is then the area–delay plot, SynthFront the size of that
	// front, Reference Yosys's adder and Flow a line naming the flow,
	// library and tools.
	Synth      bool
	SynthPlot  template.HTML
	SynthFront int
	Reference  *physical.Result
	Flow       string
}

type pageNetwork struct {
	explore.Point
	ID      string
	Front   bool
	Diagram template.HTML
	// Result and SynthFront are the network's measure by the physical
	// flow and its place on the area–delay front, when measured.
	Result     *physical.Result
	SynthFront bool
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
	if opt.Measured != nil {
		if len(opt.Measured) != len(points) {
			return fmt.Errorf("report: %d measured points for %d networks: want one per network", len(opt.Measured), len(points))
		}
		var synthSVG bytes.Buffer
		if err := PlotAreaDelay(&synthSVG, n, opt.Measured, opt.Reference, "svg"); err != nil {
			return err
		}
		r := opt.Measured[0].Result
		d.Synth, d.SynthPlot, d.Reference = true, template.HTML(synthSVG.String()), opt.Reference
		d.Flow = fmt.Sprintf("flow %s, library %s, %g pF on every output; %s, OpenSTA %s", r.Flow, r.Liberty, r.OutputLoadPF, r.YosysVersion, r.STAVersion)
	}
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
		pn := pageNetwork{Point: p, ID: id, Front: onFront[p.Network], Diagram: template.HTML(svg.String())}
		if d.Synth {
			m := opt.Measured[len(d.Networks)]
			if m.Name != p.Name || m.Command != p.Command {
				return fmt.Errorf("report: measured point %s is not network %s: want them in the same order", m.Name, p.Name)
			}
			pn.Result, pn.SynthFront = m.Result, m.OnFront
			if m.OnFront {
				d.SynthFront++
			}
		}
		d.Networks = append(d.Networks, pn)
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
