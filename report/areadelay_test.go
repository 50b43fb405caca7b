package report_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/report"
)

// fakeMeasured gives every network of width 16 an area and a delay that
// follow its size and depth, the way the flow's do, without running it.
func fakeMeasured(t *testing.T) ([]explore.Measured, *physical.Result) {
	all, _ := points(t, 16)
	m := make([]explore.Measured, len(all))
	for i, p := range all {
		m[i] = explore.Measured{Point: p, Adder: adder.Standard, Result: &physical.Result{
			Topology: p.Network.Topology(), Params: p.Network.Params(), Width: 16, Adder: adder.Standard,
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
	// (Knowles s=4, 1.64 ns): counted, not drawn, as are the six deepest
	// zero-deficiency networks, beyond 4 × 1.64 = 6.56 ns.
	assert.Contains(t, s, "7 slower than 6.56 ns not shown")
	assert.NotContains(t, s, ">ripple<")

	// Sparse Ling adders: the title says Ling, the legend names the
	// sparseness marked inside the family's marker.
	adders := fakeAdders(func() []explore.Point { all, _ := points(t, 16); return all }())
	var sparse bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&sparse, 16, adders, ref, "svg"))
	assert.Contains(t, sparse.String(), "flow abc, ling adders")
	assert.Contains(t, sparse.String(), ">sparse 2<")
	assert.NotContains(t, sparse.String(), ">sparse 4<")
	assert.NotContains(t, s, ">sparse 2<", "dense adders only: no sparseness in the legend")
	var png bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&png, 16, adders, ref, "png"))
	keepFile(t, "area-delay16-sparse.png", png.Bytes())

	// Pipelined adders: a second title line says what the delay is.
	for i := range adders {
		adders[i].Adder.Stages = 2
	}
	var piped bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&piped, 16, adders, ref, "svg"))
	assert.Contains(t, piped.String(), "pipelined, 2 register stages: delay = least clock period")
	for i := range adders {
		adders[i].Adder.Stages = 1
	}
	piped.Reset()
	require.NoError(t, report.PlotAreaDelay(&piped, 16, adders, ref, "svg"))
	assert.Contains(t, piped.String(), "pipelined, 1 register stage: delay = least clock period")
	assert.NotContains(t, sparse.String(), "pipelined")

	// A radix-k network has a legend entry and a marker of its own.
	radix, err := explore.Enumerate(context.Background(), 16, explore.Options{Valencies: []int{3}})
	require.NoError(t, err)
	withRadix := slices.Clone(m)
	for _, p := range radix {
		withRadix = append(withRadix, explore.Measured{Point: p, Adder: adder.Standard, Result: &physical.Result{
			Topology: p.Network.Topology(), Params: p.Network.Params(), Width: 16, AreaUM2: 5000, DelayNS: 1.7,
			Liberty: physical.LibertyFile(""), Flow: physical.Keep,
		}})
	}
	var v bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&v, 16, withRadix, ref, "svg"))
	assert.Contains(t, v.String(), ">kogge-stone v=3<")
	assert.Contains(t, v.String(), ">sklansky v=3<")
	assert.NotContains(t, s, "v=3")
	// Their adders merge cells into 3-input gates; the binary ones do
	// not, so the title names no valency, whichever comes first.
	for i := len(m); i < len(withRadix); i++ {
		withRadix[i].Adder.Valency = 3
	}
	for _, set := range [][]explore.Measured{withRadix, append(slices.Clone(withRadix[len(m):]), m...)} {
		var mv bytes.Buffer
		require.NoError(t, report.PlotAreaDelay(&mv, 16, set, ref, "svg"))
		assert.NotContains(t, mv.String(), "valency")
	}

	// Adders of mixed options: the title names none, a mark and a legend
	// entry each; an adder read from a file is named beside its marker.
	mixed := fakeAdders(func() []explore.Point { all, _ := points(t, 16); return all }())
	for i := range mixed {
		mixed[i].Adder.Ling = i%2 == 0
		mixed[i].Adder.PGCells = i%3 == 0
		if i%5 == 1 {
			mixed[i].Adder.Ling, mixed[i].Adder.PGCells, mixed[i].Adder.FACells = false, false, true
		}
		if i%10 == 1 {
			mixed[i].Adder.Sparse, mixed[i].Adder.Increment = 4, true
		}
	}
	file := slices.MinFunc(mixed, func(a, b explore.Measured) int { return cmp.Compare(a.Result.DelayNS, b.Result.DelayNS) })
	file.Family, file.Name = explore.FileFamily, "goal-16"
	mixed = append(mixed, file)
	var mix bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&mix, 16, mixed, ref, "svg"))
	for _, text := range []string{">ling<", ">pg cells<", ">full adders<", ">carry-increment blocks<", ">file<", ">goal-16<"} {
		assert.True(t, strings.Contains(mix.String(), text), text)
	}
	assert.NotContains(t, mix.String(), "ling adders")
	assert.NotContains(t, sparse.String(), ">ling<", "every adder Ling's: said in the title, not marked")
	assert.NotContains(t, sparse.String(), ">pg cells<")
	assert.NotContains(t, sparse.String(), ">full adders<")
	assert.NotContains(t, sparse.String(), ">carry-increment blocks<")
	var mixPNG bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&mixPNG, 16, mixed, ref, "png"))
	keepFile(t, "area-delay16-mixed.png", mixPNG.Bytes())
	keepFile(t, "area-delay16-mixed.svg", mix.Bytes())
	// The file's adder over everything: its diamond after the last of the
	// front's rings, its name on its pale ground after the diamond. The
	// name is the plot's last element; the legend's rings and diamond
	// come after it.
	page := mix.String()
	label := strings.Index(page, ">goal-16<")
	require.Positive(t, label, "the file's adder named")
	plotted := page[:label]
	lastRing := strings.LastIndex(plotted, "A6.5,6.5")
	diamond := strings.LastIndex(plotted, `style="fill:#EE3377" />`)
	ground := strings.LastIndex(plotted, `fill-opacity:0.847`)
	require.True(t, lastRing >= 0 && diamond >= 0 && ground >= 0, "rings, the file's diamond and a ground drawn")
	assert.Less(t, lastRing, diamond, "the file's diamond over the rings")
	assert.Less(t, diamond, ground, "the name's ground over the diamonds")
	assert.Less(t, ground, label, "the name over its ground")

	var buf bytes.Buffer
	assert.EqualError(t, report.PlotAreaDelay(&buf, 16, m, ref, "pdf"), `report: unknown plot format "pdf": allowed svg, png`)
	assert.EqualError(t, report.PlotAreaDelay(&buf, 16, nil, ref, "svg"), "report: nothing to plot")
	require.NoError(t, report.PlotAreaDelay(&buf, 16, m, nil, "svg"), "the reference is optional")
	assert.NotContains(t, buf.String(), "yosys a+b+cin")
}

// TestPlotAreaDelaySlowFile: an adder read from a file (explore --with) is
// drawn and named however slow it is: the plot reaches its delay, and
// shows every adder up to it, where otherwise those slower than four
// times the fastest are counted, not drawn.
func TestPlotAreaDelaySlowFile(t *testing.T) {
	m, ref := fakeMeasured(t)
	slowest := slices.MaxFunc(m, func(a, b explore.Measured) int { return cmp.Compare(a.Result.DelayNS, b.Result.DelayNS) })
	var without bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&without, 16, m, ref, "svg"))
	assert.Regexp(t, `[2-9] slower than \d+\.\d\d ns not shown`, without.String())

	file := slowest
	file.Family, file.Name = explore.FileFamily, "small-16"
	r := *slowest.Result
	r.DelayNS *= 0.9 // below ripple's, far above four times the fastest
	file.Result = &r
	var with bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&with, 16, append(slices.Clone(m), file), ref, "svg"))
	s := with.String()
	assert.Contains(t, s, ">small-16<", "the file's adder is named on the plot")
	assert.Regexp(t, fmt.Sprintf(`1 slower than %.2f ns not shown`, r.DelayNS), s, "only ripple, slower than the file's adder, is left out")
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
	// One plain adder a network: the text counts networks, the table
	// names no adder.
	assert.Contains(t, page, fmt.Sprintf("%d networks are on the area–delay front", onFront))
	assert.NotContains(t, page, "<th>adder</th>")
	assert.Contains(t, page, `<h2 id="synth">Area against delay after synthesis</h2>`)
	assert.Contains(t, page, "<th class=\"num\">area (µm²)</th><th class=\"num\">delay (ns)</th>")
	assert.Contains(t, page, "through the same flow: 3500 µm², 1.900 ns.")
	assert.Equal(t, 2, strings.Count(page, "<svg width=\"560pt\""), "both plots")

	var plain bytes.Buffer
	require.NoError(t, report.HTML(&plain, 16, all, front, report.Options{Command: "prefixgen report -n 16"}))
	assert.NotContains(t, plain.String(), "area (µm²)")
	assert.NotContains(t, plain.String(), "★")

	err := report.HTML(&buf, 16, all, front, report.Options{Measured: m[1:]})
	assert.ErrorContains(t, err, "measured adders for 25 networks: want the same number for every network")
	swapped := append([]explore.Measured{m[1], m[0]}, m[2:]...)
	err = report.HTML(&buf, 16, all, front, report.Options{Measured: swapped})
	assert.ErrorContains(t, err, "want them in the order of the networks")
	err = report.HTML(&buf, 16, all, front, report.Options{Measured: append(slices.Clone(m), m...)[:len(m)+1]})
	assert.EqualError(t, err, fmt.Sprintf("report: %d measured adders for %d networks: want the same number for every network", len(m)+1, len(all)))
	err = report.HTML(&buf, 16, nil, nil, report.Options{Drawn: all[:1], Measured: []explore.Measured{}})
	assert.EqualError(t, err, "report: 0 measured adders for 0 networks: want the same number for every network")

	// A reference under 100 µm² (ASAP7's) keeps three digits, as the table.
	small := *ref
	small.AreaUM2, small.DelayNS = 4.512, 0.19
	buf.Reset()
	require.NoError(t, report.HTML(&buf, 16, all, front, report.Options{Measured: m, Reference: &small}))
	assert.Contains(t, buf.String(), "through the same flow: 4.51 µm², 0.190 ns.")
}

// TestHTMLSynthAdders checks the page with several adders of every network
// (sparse 1 and 2, Ling's) measured over several orders of the gates: a
// row per adder naming it, the medians in the table, the design as written
// and the range beside the diagram, and the front judged by the medians.
func TestHTMLSynthAdders(t *testing.T) {
	all, front := points(t, 16)
	m := fakeAdders(all)
	onFront := 0
	for _, a := range m {
		if a.OnFront {
			onFront++
		}
	}
	require.Positive(t, onFront)
	var buf bytes.Buffer
	require.NoError(t, report.HTML(&buf, 16, all, front, report.Options{Command: "prefixgen report -n 16 --synth --sparse 1,2 --ling --orders 4", Measured: m}))
	page := buf.String()
	keepFile(t, "report16-adders.html", buf.Bytes())
	assert.Contains(t, page, "<th>adder</th><th class=\"num\">area, median (µm²)</th><th class=\"num\">delay, median (ns)</th>")
	assert.Contains(t, page, "medians over the design as written and 4 orders of its gates")
	assert.Contains(t, page, "adders are on the area–delay front")
	assert.Equal(t, len(all), strings.Count(page, "<td>ling</td>"))
	assert.Equal(t, len(all), strings.Count(page, "<tr class=\"adder\">"))
	assert.Equal(t, len(all), strings.Count(page, "<td>sparse=2 ling</td>"), "named as synth names them")
	assert.Equal(t, onFront, strings.Count(page, "<td>★</td>"))
	assert.Equal(t, onFront, strings.Count(page, ", on the area–delay front"))
	ks := m[2*slicesIndex(all, "kogge-stone")+1]
	require.Equal(t, "kogge-stone", ks.Name)
	s := ks.Result.Spread
	assert.Contains(t, page, fmt.Sprintf("the sparse=2 ling adder %.0f µm², %.3f ns (medians; as written %.0f µm², %.3f ns; area %.0f–%.0f µm², delay %.3f–%.3f ns over 5 draws)",
		s.AreaMedian, s.DelayMedian, ks.Result.AreaUM2, ks.Result.DelayNS, s.AreaMin, s.AreaMax, s.DelayMin, s.DelayMax))
	assert.Contains(t, page, "<code>"+ks.Command+" -f verilog --sparse 2 --ling</code>")
	assert.Contains(t, page, "<code>"+ks.Command+" -f verilog --ling</code></td></tr>", "the network's row rebuilds its first adder")

	mixed := slices.Clone(m)
	mixed[3].Result = &physical.Result{AreaUM2: 1, DelayNS: 1}
	err := report.HTML(&buf, 16, all, front, report.Options{Measured: mixed})
	assert.ErrorContains(t, err, "measured over another number of orders than the first adder")
}

// fakeAdders gives every network two Ling adders, dense and sparse 2, with
// medians and ranges over 4 orders that follow its size and depth.
func fakeAdders(all []explore.Point) []explore.Measured {
	var m []explore.Measured
	for _, p := range all {
		for _, s := range []int{1, 2} {
			area := 1000 + 100*float64(p.Figures.Size) - 300*float64(s)
			delay := 0.1*float64(p.Figures.Depth*p.Figures.Depth) + 0.05*float64(s)
			arch := adder.Standard
			arch.Sparse, arch.Ling = s, true
			m = append(m, explore.Measured{Point: p, Adder: arch, Result: &physical.Result{
				Topology: p.Network.Topology(), Params: p.Network.Params(), Width: 16, Adder: arch,
				AreaUM2: area + 7, DelayNS: delay + 0.5, Liberty: physical.LibertyFile(""), Flow: physical.ABC,
				Spread: &physical.Spread{Orders: 4, AreaMedian: area, AreaMin: area - 10, AreaMax: area + 20, DelayMedian: delay, DelayMin: delay - 0.1, DelayMax: delay + 0.5},
			}})
		}
	}
	explore.AreaDelayFront(m)
	return m
}

func slicesIndex(all []explore.Point, name string) int {
	return slices.IndexFunc(all, func(p explore.Point) bool { return p.Name == name })
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

	buf.Reset()
	require.NoError(t, report.HTML(&buf, 16, all, front, report.Options{Command: "prefixgen report -n 16 --synth --sparse 1,2 --ling --orders 4", Measured: fakeAdders(all)}))
	_, _, _, dom = loadInChromium(t, buf.Bytes())
	assert.Equal(t, len(all)+2, strings.Count(dom, "<svg "), "the diagrams and both plots, several adders a network")
	assert.Equal(t, len(all), strings.Count(dom, `<tr class="adder">`))
}
