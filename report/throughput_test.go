package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels/bench"
	"github.com/prefixgen/prefixgen/report"
)

// TestThroughputPlot draws an H200's report: a line per series (CUB and
// the network's single and three passes; no cudaMemcpy, which that
// harness timed at one size only), powers of two only, and a second
// report's series named after it.
func TestThroughputPlot(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "gpukernels", "bench", "testdata", "h200-int64-add.json"))
	require.NoError(t, err)
	r, err := bench.ReadBenchReport(data)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, report.ThroughputPlot(&b, []report.NamedBenchReport{{Name: "a", Report: r}}, "svg"))
	svg := b.String()
	assert.True(t, strings.HasPrefix(svg, "<svg"), "%.80s", svg)
	for _, s := range []string{"NVIDIA H200, nvcc 13.0.88, CUB 3.0.1", "CUB", "kogge-stone, 1 pass", "kogge-stone, 3 passes", "2^28"} {
		assert.Contains(t, svg, s)
	}
	assert.NotContains(t, svg, "cudaMemcpy")
	for _, tick := range []string{">0<", ">1000<", ">2000<", ">3000<"} {
		assert.Contains(t, svg, tick, "round GB/s ticks, five or more")
	}
	assert.NotContains(t, svg, "2^5<", "31 items is not a power of two: not drawn")

	b.Reset()
	require.NoError(t, report.ThroughputPlot(&b, []report.NamedBenchReport{{Name: "a", Report: r}, {Name: "b", Report: r}}, "svg"))
	assert.Contains(t, b.String(), "b: kogge-stone, 1 pass")
	// Two reports of one name are told apart by their place.
	other := *r
	b.Reset()
	require.NoError(t, report.ThroughputPlot(&b, []report.NamedBenchReport{{Name: "a", Report: r}, {Name: "a", Report: &other}}, "svg"))
	assert.Contains(t, b.String(), "1. a: CUB")
	assert.Contains(t, b.String(), "2. a: CUB")

	b.Reset()
	require.NoError(t, report.ThroughputPlot(&b, []report.NamedBenchReport{{Name: "a", Report: r}}, "png"))
	assert.True(t, bytes.HasPrefix(b.Bytes(), []byte("\x89PNG")))

	assert.EqualError(t, report.ThroughputPlot(&b, []report.NamedBenchReport{{Name: "a", Report: r}}, "gif"),
		`report: unknown plot format "gif": allowed svg, png`)
	none := &bench.BenchReport{Results: []bench.BenchResult{{Kernel: "bigadd", N: 64}}}
	assert.EqualError(t, report.ThroughputPlot(&b, []report.NamedBenchReport{{Name: "x", Report: none}}, "svg"),
		"report: no timed device-wide scan to plot")
}
