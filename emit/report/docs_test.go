package report_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit/report"
	"github.com/prefixgen/prefixgen/topologies/explore"
)

var update = flag.Bool("update", false, "rewrite docs/pareto64.svg")

// The README shows the trade-off at n = 64 as explore -n 64 --plot draws it,
// optimizer included, unbounded and under fan-out 4; the file is regenerated with -update and must
// otherwise be what Plot draws today.
func TestDocsPlot(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the optimizer at every depth")
	}
	all, err := explore.Enumerate(context.Background(), 64, explore.Options{Optimizer: explore.Optimize(1)})
	require.NoError(t, err)
	bounded, err := explore.Bounded(context.Background(), 64, explore.Optimize(1), report.PlotFanoutBound)
	require.NoError(t, err)
	require.NotEmpty(t, bounded)
	var buf bytes.Buffer
	require.NoError(t, report.Plot(&buf, 64, append(all, bounded...), explore.Front(all), "svg"))
	path := filepath.Join("..", "..", "docs", "pareto64.svg")
	if *update {
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), buf.String(), "docs/pareto64.svg is stale: go test ./emit/report -update")
}
