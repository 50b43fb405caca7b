package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit/report"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies/explore"
)

// fakeMeasured gives every network of width 16 an area and a delay that
// follow its size and depth, the way the flow's do, without running it.
func fakeMeasured(t *testing.T) ([]explore.Measured, *physical.Result) {
	all, _ := points(t, 16)
	m := make([]explore.Measured, len(all))
	for i, p := range all {
		m[i] = explore.Measured{Point: p, Result: &physical.Result{
			Topology: p.Network.Topology(), Params: p.Network.Params(), Width: 16,
			AreaUM2: 1000 + 100*float64(p.Figures.Size), DelayNS: 0.1*float64(p.Figures.Depth*p.Figures.Depth) + 0.01*float64(p.Figures.MaxFanout),
			Liberty: physical.LibertyFile(""), Flow: physical.Keep,
		}}
	}
	explore.AreaDelayFront(m)
	ref := &physical.Result{Topology: physical.Reference, Width: 16, AreaUM2: 3500, DelayNS: 1.9}
	return m, ref
}

func TestPlotAreaDelay(t *testing.T) {
	m, ref := fakeMeasured(t)
	for _, format := range report.PlotFormats {
		var a, b bytes.Buffer
		require.NoError(t, report.PlotAreaDelay(&a, 16, m, ref, format))
		require.NoError(t, report.PlotAreaDelay(&b, 16, m, ref, format))
		assert.Equal(t, a.Bytes(), b.Bytes(), "the same points give the same bytes (%s)", format)
		keepFile(t, "area-delay16."+format, a.Bytes())
	}
	var svg bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&svg, 16, m, ref, "svg"))
	s := svg.String()
	assert.True(t, strings.HasPrefix(s, "<svg"), s[:40])
	for _, text := range []string{"area–delay front", "yosys a+b+cin", "delay (ns)", "area (µm²)", "osu018", "flow keep", "kogge-stone", "zero-deficiency"} {
		assert.Contains(t, s, text)
	}
	// Ripple, at 22.5 ns, is more than four times slower than the fastest
	// (about 1.6 ns): counted, not drawn.
	assert.Regexp(t, `\d+ slower than \d+\.\d\d ns not shown`, s)
	assert.NotContains(t, s, ">ripple<")

	var buf bytes.Buffer
	assert.EqualError(t, report.PlotAreaDelay(&buf, 16, m, ref, "pdf"), `report: unknown plot format "pdf": allowed svg, png`)
	assert.EqualError(t, report.PlotAreaDelay(&buf, 16, nil, ref, "svg"), "report: nothing to plot")
	require.NoError(t, report.PlotAreaDelay(&buf, 16, m, nil, "svg"), "the reference is optional")
	assert.NotContains(t, buf.String(), "yosys a+b+cin")
}

// TestHTMLSynth checks the page with the networks' area and delay: the
// second plot, a star for each network on the area–delay front, and the
// refusal of measures that do not match the networks.
func TestHTMLSynth(t *testing.T) {
	m, ref := fakeMeasured(t)
	all, front := points(t, 16)
	var buf bytes.Buffer
	require.NoError(t, report.HTML(&buf, 16, all, front, report.Options{Command: "prefixgen report -n 16 --synth", Measured: m, Reference: ref}))
	page := buf.String()
	keepFile(t, "report16-synth.html", buf.Bytes())
	onFront := 0
	for _, p := range m {
		if p.OnFront {
			onFront++
		}
	}
	assert.Equal(t, onFront, strings.Count(page, "<td>★</td>"))
	assert.Equal(t, onFront, strings.Count(page, ", on the area–delay front."))
	assert.Contains(t, page, `<h2 id="synth">Area against delay after synthesis</h2>`)
	assert.Contains(t, page, "<th class=\"num\">area (µm²)</th><th class=\"num\">delay (ns)</th>")
	assert.Contains(t, page, "through the same flow: 3500 µm², 1.900 ns.")
	assert.Equal(t, 2, strings.Count(page, "<svg width=\"560pt\""), "both plots")

	var plain bytes.Buffer
	require.NoError(t, report.HTML(&plain, 16, all, front, report.Options{Command: "prefixgen report -n 16"}))
	assert.NotContains(t, plain.String(), "area (µm²)")
	assert.NotContains(t, plain.String(), "★")

	err := report.HTML(&buf, 16, all, front, report.Options{Measured: m[1:]})
	assert.ErrorContains(t, err, "measured points for")
	swapped := append([]explore.Measured{m[1], m[0]}, m[2:]...)
	err = report.HTML(&buf, 16, all, front, report.Options{Measured: swapped})
	assert.ErrorContains(t, err, "want them in the same order")
}

// The page with the area–delay section loads in a real browser without a
// console message and holds both plots and every diagram.
func TestHTMLSynthInChromium(t *testing.T) {
	m, ref := fakeMeasured(t)
	all, front := points(t, 16)
	var buf bytes.Buffer
	require.NoError(t, report.HTML(&buf, 16, all, front, report.Options{Command: "prefixgen report -n 16 --synth", Measured: m, Reference: ref}))
	_, _, _, dom := loadInChromium(t, buf.Bytes())
	assert.Equal(t, len(all)+2, strings.Count(dom, "<svg "), "the diagrams and both plots")
	assert.Contains(t, dom, `<h2 id="synth">`)
}
