package report_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/report"
)

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
	golden.Check(t, filepath.Join("..", "docs", "pareto64.svg"), buf.Bytes())
}

// The README shows the area–delay front at n = 64 as
// explore -n 64 --synth --all --plot docs/area-delay64.svg draws it: every
// network explore lists, the optimizer's included, through the default flow
// (keep, OSU 0.18 µm, 10 fF). The file is regenerated with -update and must
// otherwise be what the tools measure and PlotAreaDelay draws today.
func TestClaimAreaDelayPlot(t *testing.T) {
	tooltest.Claims(t)
	if testing.Short() {
		t.Skip("synthesizes 110 adders")
	}
	tooltest.Path(t, "yosys")
	tooltest.Path(t, "sta")
	tooltest.File(t, physical.Libraries[physical.DefaultLibrary], "qflow-tech-osu018")
	ctx := context.Background()
	all, err := explore.Enumerate(ctx, 64, explore.Options{Optimizer: explore.Optimize(1)})
	require.NoError(t, err)
	opt := physical.Options{Liberty: physical.DefaultLibrary, Flow: physical.Keep, OutputLoadPF: physical.DefaultOutputLoadPF}
	measured, ref, err := explore.Synthesize(ctx, all, opt)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, report.PlotAreaDelay(&buf, 64, measured, ref, "svg"))
	golden.Check(t, filepath.Join("..", "docs", "area-delay64.svg"), buf.Bytes())
}
