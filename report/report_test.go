package report_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/report"
	"github.com/prefixgen/prefixgen/topologies"
)

var keep = flag.String("keep", "", "write the test report and plots into this folder, to look at")

func points(t testing.TB, n int) (all, front []explore.Point) {
	t.Helper()
	all, err := explore.Enumerate(context.Background(), n, explore.Options{})
	require.NoError(t, err)
	return all, explore.Front(all)
}

func keepFile(t *testing.T, name string, data []byte) {
	if *keep != "" {
		require.NoError(t, os.WriteFile(filepath.Join(*keep, name), data, 0o644))
	}
}

func TestHTML(t *testing.T) {
	all, front := points(t, 32)
	var buf bytes.Buffer
	require.NoError(t, report.HTML(&buf, 32, all, front, report.Options{Command: "prefixgen report -n 32 -o report.html"}))
	page := buf.String()
	keepFile(t, "report32.html", buf.Bytes())
	assert.True(t, strings.HasPrefix(page, "<!DOCTYPE html>"))
	assert.Equal(t, len(all), strings.Count(page, `<figure class="diagram">`))
	assert.Equal(t, len(all), strings.Count(page, "<tr class=\"front\">")+strings.Count(page, "<tr><td>"))
	assert.Equal(t, len(front), strings.Count(page, "<tr class=\"front\">"))
	assert.Equal(t, 1, strings.Count(page, `<figure class="plot">`))
	for _, p := range all {
		assert.Contains(t, page, "<code>"+p.Command+"</code>")
	}
	// Self-contained: nothing is fetched and nothing runs.
	for _, bad := range []string{"<script", "<link", "src=", "@import", "url("} {
		assert.NotContains(t, page, bad)
	}
	assert.NotRegexp(t, regexp.MustCompile(`href="(?:https?:)?//`), page)
	// Every link goes to an id on the page, and ids are unique.
	ids := map[string]int{}
	for _, m := range regexp.MustCompile(`id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		ids[m[1]]++
	}
	for id, c := range ids {
		assert.Equal(t, 1, c, "id %s", id)
	}
	for _, m := range regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(page, -1) {
		assert.Contains(t, ids, m[1])
	}
	var again bytes.Buffer
	require.NoError(t, report.HTML(&again, 32, all, front, report.Options{Command: "prefixgen report -n 32 -o report.html"}))
	assert.Equal(t, page, again.String(), "the same points give the same bytes")
	assert.Contains(t, page, strconv.Itoa(len(all))+" networks, ")

	all, front = points(t, 1)
	require.Len(t, all, 1)
	buf.Reset()
	require.NoError(t, report.HTML(&buf, 1, all, front, report.Options{Command: "prefixgen report -n 1"}))
	assert.Contains(t, buf.String(), ": 1 network, 1 of them on the Pareto front", "one network, not 1 networks")
}

// TestHTMLAnchors: each network's id is its name in letters, digits and
// single hyphens, none at the end, and a name two networks share (two
// files of one name) gets -2 on the second, so that every link finds its
// own network.
func TestHTMLAnchors(t *testing.T) {
	all, _ := points(t, 8)
	two := slices.Clone(all[:2])
	two[0].Name, two[1].Name = "Goal (8)", "Goal (8)"
	var buf bytes.Buffer
	require.NoError(t, report.HTML(&buf, 8, two, nil, report.Options{}))
	page := buf.String()
	assert.Equal(t, 1, strings.Count(page, `id="net-goal-8"`))
	assert.Equal(t, 1, strings.Count(page, `id="net-goal-8-2"`))
	assert.Contains(t, page, `href="#net-goal-8"`)
	assert.Contains(t, page, `href="#net-goal-8-2"`)
}

func TestPlot(t *testing.T) {
	all, front := points(t, 64)
	for _, format := range report.PlotFormats {
		var a, b bytes.Buffer
		require.NoError(t, report.Plot(&a, 64, all, front, format))
		require.NoError(t, report.Plot(&b, 64, all, front, format))
		assert.Equal(t, a.Bytes(), b.Bytes(), format)
		keepFile(t, "pareto64."+format, a.Bytes())
	}
	var svg bytes.Buffer
	require.NoError(t, report.Plot(&svg, 64, all, front, "svg"))
	assert.True(t, strings.HasPrefix(svg.String(), "<svg"), svg.String()[:40])
	for _, family := range []string{"kogge-stone", "sklansky", "brent-kung", "Pareto front", "Snir"} {
		assert.Contains(t, svg.String(), family)
	}
	// Ripple, at depth 63, is counted, not drawn.
	assert.NotContains(t, svg.String(), ">ripple<")
	assert.Regexp(t, `\(\d+ deeper than 14 not shown\)`, svg.String())
	var png bytes.Buffer
	require.NoError(t, report.Plot(&png, 64, all, front, "png"))
	assert.True(t, bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")))
}

// Where every network is deeper than the plot's limit (a fan-out bound of 2
// leaves only the ripple chain), every one is drawn and none counted out.
func TestPlotOnlyDeep(t *testing.T) {
	ripple, err := topologies.Ripple(64)
	require.NoError(t, err)
	pt := explore.Point{Network: ripple, Figures: ripple.Figures(), Family: "ripple", Name: "ripple"}
	var svg bytes.Buffer
	require.NoError(t, report.Plot(&svg, 64, []explore.Point{pt}, []explore.Point{pt}, "svg"))
	assert.Contains(t, svg.String(), ">ripple<")
	assert.NotContains(t, svg.String(), "not shown")
}

// TestPlotShallowestAtTheLimit: where the shallowest network is at the
// plot's limit itself (2⌈log2 16⌉ + 2 = 10), the limit stands: the deeper
// ones are counted, not drawn.
func TestPlotShallowestAtTheLimit(t *testing.T) {
	var pts []explore.Point
	for _, d := range []int{10, 12, 15} {
		net, err := topologies.Build("zero-deficiency", 16, network.Params{"d": d})
		require.NoError(t, err)
		require.Equal(t, d, net.Depth())
		pts = append(pts, explore.Point{Network: net, Figures: net.Figures(), Family: "zero-deficiency", Name: fmt.Sprintf("zero-deficiency d=%d", d)})
	}
	var svg bytes.Buffer
	require.NoError(t, report.Plot(&svg, 16, pts, pts, "svg"))
	assert.Contains(t, svg.String(), "(2 deeper than 10 not shown)")
}

func TestPlotErrors(t *testing.T) {
	all, front := points(t, 8)
	var buf bytes.Buffer
	assert.EqualError(t, report.Plot(&buf, 8, all, front, "pdf"), `report: unknown plot format "pdf": allowed svg, png`)
	assert.EqualError(t, report.Plot(&buf, 8, nil, nil, "svg"), "report: nothing to plot")
	assert.Zero(t, buf.Len())
}

// The report loads in a real browser without a console message and shows
// one diagram per network.
func TestHTMLInChromium(t *testing.T) {
	all, front := points(t, 16)
	var buf bytes.Buffer
	require.NoError(t, report.HTML(&buf, 16, all, front, report.Options{Command: "prefixgen report -n 16"}))
	chromium, dir, page, dom := loadInChromium(t, buf.Bytes())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The DOM the browser built, not the file: one diagram, each an SVG, per
	// network.
	assert.Equal(t, len(all), strings.Count(dom, `<figure class="diagram">`))
	assert.Equal(t, len(all)+1, strings.Count(dom, "<svg "), "the diagrams and the plot")

	shot := filepath.Join(dir, "shot.png")
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1280,1600",
		"--screenshot="+shot, "file://"+page)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	png, err := os.ReadFile(shot)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(png, []byte("\x89PNG")))
	keepFile(t, "report16.png", png)
}

// loadInChromium writes the page into a temporary folder, loads it in
// headless Chromium, fails if the page logged anything to the console, and
// returns Chromium's path, the folder, the page's path and the DOM the
// browser built.
func loadInChromium(t *testing.T, html []byte) (chromium, dir, page, dom string) {
	t.Helper()
	chromium = tooltest.Path(t, "chromium")
	dir = t.TempDir()
	page = filepath.Join(dir, "report.html")
	require.NoError(t, os.WriteFile(page, html, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, logs bytes.Buffer
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--enable-logging=stderr", "--v=0",
		"--dump-dom", "file://"+page)
	cmd.Stdout, cmd.Stderr = &out, &logs
	require.NoError(t, cmd.Run(), logs.String())
	for line := range strings.Lines(logs.String()) {
		assert.NotContains(t, line, "CONSOLE", "the page logged to the console")
	}
	return chromium, dir, page, out.String()
}

// svgText is one text element of gonum's SVG: its position (y upwards),
// size and content.
type svgText struct {
	x, y, size float64
	text       string
}

var svgTextRE = regexp.MustCompile(`<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*?\s*style="[^"]*font-size:([0-9.]+)px">([^<]*)</text>`)

func svgTexts(t *testing.T, svg string) []svgText {
	var out []svgText
	for _, m := range svgTextRE.FindAllStringSubmatch(svg, -1) {
		var v [3]float64
		for i := range v {
			f, err := strconv.ParseFloat(m[i+1], 64)
			require.NoError(t, err)
			v[i] = f
		}
		out = append(out, svgText{v[0], -v[1], v[2], html.UnescapeString(m[4])})
	}
	return out
}

// The plot's layout: more than three labelled sizes, a title clear of
// everything below it, a legend right of the axes (where it hides no
// point) naming every family drawn, and a key of the marker sizes.
func TestPlotLayout(t *testing.T) {
	all, front := points(t, 64)
	var buf bytes.Buffer
	require.NoError(t, report.Plot(&buf, 64, all, front, "svg"))
	texts := svgTexts(t, buf.String())
	require.NotEmpty(t, texts)
	var title, ticks, legend []svgText
	for _, tx := range texts {
		switch {
		case tx.size == 13:
			title = append(title, tx)
		case tx.size == 10:
			ticks = append(ticks, tx)
		case tx.size < 10:
			legend = append(legend, tx)
		}
	}
	require.NotEmpty(t, title)
	// The size labels share an x at the left; the depth labels a y below.
	sizes := map[float64]bool{}
	axisRight := 0.0
	for _, tk := range ticks {
		axisRight = max(axisRight, tk.x)
		if _, err := strconv.Atoi(tk.text); err == nil && tk.x < 60 {
			sizes[tk.y] = true
		}
	}
	assert.Greater(t, len(sizes), 3, "labelled sizes")
	lowestTitle := title[0].y
	for _, tl := range title {
		lowestTitle = min(lowestTitle, tl.y)
	}
	for _, tx := range append(ticks, legend...) {
		assert.Less(t, tx.y+tx.size, lowestTitle-2, "%q clears the title", tx.text)
	}
	names := map[string]bool{}
	for _, l := range legend {
		names[l.text] = true
		assert.Greater(t, l.x, axisRight, "the legend %q stands right of the axes", l.text)
	}
	for _, pt := range all {
		if pt.Figures.Depth <= 14 {
			assert.True(t, names[pt.Family], "the legend names %s", pt.Family)
		}
	}
	assert.True(t, names["max fan-out 8"], "the key of the marker sizes")
	assert.True(t, names["Pareto front"])
}
