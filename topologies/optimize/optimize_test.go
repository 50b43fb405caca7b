package optimize_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/topologies/optimize"
)

func TestQuickTargets(t *testing.T) {
	for _, c := range [][2]int{{128, 7}, {128, 8}, {64, 7}, {32, 6}} {
		start := time.Now()
		r, err := optimize.Minimize(context.Background(), optimize.Options{Width: c[0], MaxDepth: c[1], Seed: 1})
		require.NoError(t, err)
		t.Logf("n=%d d=%d: %d (%s) named %d lower %d in %v", c[0], c[1], r.Figures.Size, r.Source, r.Named.Size(), r.LowerBound, time.Since(start))
	}
}
