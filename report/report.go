package report

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
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
	// Measured, when not nil, holds the adders the physical flow measured,
	// for each point in order one or more of its adders (the order of
	// explore.SynthesizeAdders: one per sparseness, all of them Ling's or
	// none): the page adds the plot of area against delay, and every
	// adder's area, delay and place on the area–delay front, beside its
	// network. Where the flow measured several orders of the gates
	// (physical.Options.Orders) the page gives the medians, the design as
	// written and the range. Reference is Yosys's own a + b + cin through
	// the same flow, shown beside them.
	Measured  []explore.Measured
	Reference *physical.Result
	// Drawn are points the plot of size against depth draws beside the
	// others and the table leaves out, as explore --plot draws the
	// optimizer under a fan-out bound (explore.Bounded).
	Drawn []explore.Point
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
	// SynthPlot is then the area–delay plot, SynthFront the number of
	// adders on that front, Reference Yosys's adder and Flow a line naming
	// the flow, library and tools. Several is set when a network has more
	// than one adder or its adder is not the plain one (the table then
	// names each), and Orders is the number of reorderings behind the
	// medians, 0 when the adders were measured once.
	Synth      bool
	SynthPlot  template.HTML
	SynthFront int
	Reference  *pageFigures
	Flow       string
	Several    bool
	Orders     int
}

// pageFigures are an adder's area and delay as the tables write them.
type pageFigures struct{ Area, Delay string }

type pageNetwork struct {
	explore.Point
	ID      string
	Front   bool
	Diagram template.HTML
	// Adders are the network's adders the physical flow measured, none
	// when it measured nothing.
	Adders []pageAdder
}

// pageAdder is one measured adder of a network, its figures formatted:
// Area and Delay are the medians where the flow measured several orders of
// the gates, and Written the design as written with the range then.
type pageAdder struct {
	Name, Command string
	Area, Delay   string
	Written       string
	Critical      string
	OnFront       bool
	// Named says whether the table names the adder (pageData.Several).
	Named bool
}

// newPageAdder formats the measured adder m.
func newPageAdder(m explore.Measured, named bool) pageAdder {
	r := m.Result
	a := pageAdder{Name: m.AdderName(), Command: m.AdderCommand(), OnFront: m.OnFront, Named: named,
		Area: physical.FormatArea(r.AreaUM2), Delay: physical.FormatNS(r.DelayNS), Critical: r.CriticalFrom + " → " + r.CriticalTo}
	if s := r.Spread; s != nil {
		a.Area, a.Delay = physical.FormatArea(s.AreaMedian), physical.FormatNS(s.DelayMedian)
		a.Written = fmt.Sprintf("as written %s µm², %s ns; area %s–%s µm², delay %s–%s ns over %d draws",
			physical.FormatArea(r.AreaUM2), physical.FormatNS(r.DelayNS), physical.FormatArea(s.AreaMin), physical.FormatArea(s.AreaMax), physical.FormatNS(s.DelayMin), physical.FormatNS(s.DelayMax), s.Orders+1)
	}
	return a
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
	if err := Plot(&plotSVG, n, append(slices.Clone(points), opt.Drawn...), front, "svg"); err != nil {
		return err
	}
	d := pageData{Width: n, Command: opt.Command, FrontSize: len(front), Plot: template.HTML(plotSVG.String())}
	if opt.Measured != nil {
		if len(points) == 0 || len(opt.Measured) < len(points) || len(opt.Measured)%len(points) != 0 {
			return fmt.Errorf("report: %d measured adders for %d networks: want the same number for every network", len(opt.Measured), len(points))
		}
		var synthSVG bytes.Buffer
		if err := PlotAreaDelay(&synthSVG, n, opt.Measured, opt.Reference, "svg"); err != nil {
			return err
		}
		r := opt.Measured[0].Result
		d.Synth, d.SynthPlot = true, template.HTML(synthSVG.String())
		if ref := opt.Reference; ref != nil {
			d.Reference = &pageFigures{physical.FormatArea(ref.AreaUM2), physical.FormatNS(ref.DelayNS)}
		}
		d.Flow = fmt.Sprintf("flow %s, library %s, %g pF on every output; %s, OpenSTA %s", r.Flow, r.Liberty, r.OutputLoadPF, r.YosysVersion, r.STAVersion)
		if r.Spread != nil {
			d.Orders = r.Spread.Orders
			d.Flow += fmt.Sprintf("; medians over the design as written and %s of its gates", physical.OrdersPhrase(d.Orders))
		}
		m := opt.Measured[0]
		d.Several = len(opt.Measured) > len(points) || !m.Adder.IsStandard()
		if m.Adder.Stages > 0 {
			d.Flow += "; every adder pipelined (" + m.AdderName() + "; Yosys's a + b + cin is not), its delay the least clock period"
		}
	}
	perNetwork := 0
	if len(points) > 0 {
		perNetwork = len(opt.Measured) / len(points)
	}
	onFront := map[*network.Network]bool{}
	for _, p := range front {
		onFront[p.Network] = true
	}
	ids := map[string]int{}
	for _, p := range points {
		var svg bytes.Buffer
		if err := emit.SVG(&svg, p.Network, emit.SVGOptions{}); err != nil {
			return fmt.Errorf("report: %s: %w", p.Name, err)
		}
		d.Optimized = d.Optimized || p.Family == "optimizer"
		id := anchor(p.Name)
		ids[id]++
		if ids[id] > 1 {
			id = fmt.Sprintf("%s-%d", id, ids[id])
		}
		pn := pageNetwork{Point: p, ID: id, Front: onFront[p.Network], Diagram: template.HTML(svg.String())}
		if d.Synth {
			i := len(d.Networks) * perNetwork
			for _, m := range opt.Measured[i : i+perNetwork] {
				if m.Name != p.Name || m.Command != p.Command {
					return fmt.Errorf("report: measured adder of %s is not one of network %s: want them in the order of the networks", m.Name, p.Name)
				}
				if (m.Result.Spread == nil) != (d.Orders == 0) {
					return fmt.Errorf("report: %s: measured over another number of orders than the first adder: want every adder measured alike", m.Name)
				}
				pn.Adders = append(pn.Adders, newPageAdder(m, d.Several))
				if m.OnFront {
					d.SynthFront++
				}
			}
		}
		d.Networks = append(d.Networks, pn)
	}
	var out bytes.Buffer
	if err := page.Execute(&out, d); err != nil {
		return fmt.Errorf("report: %w", err)
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
