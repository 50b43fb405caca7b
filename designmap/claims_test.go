package designmap

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// TestClaimMapSHA256 measures what docs/map.md says of SHA-256 on sky130hd
// at a 10 ns clock: no larger than the smallest uniform family (every adder
// ripple) and at least 10 % faster than it (goal D2 against the families),
// and faster than Yosys's own mapping.
func TestClaimMapSHA256(t *testing.T) {
	tooltest.Claims(t)
	tools(t)
	dir := tooltest.Shared(t, "designs/sha256")
	opt := Options{
		Files:   []string{filepath.Join(dir, "sha256_core.v"), filepath.Join(dir, "sha256_k_constants.v"), filepath.Join(dir, "sha256_w_mem.v")},
		Top:     "sha256_core",
		Liberty: "sky130hd", PeriodNS: 10, Rounds: 3, Compare: true,
	}
	res, err := Map(context.Background(), opt)
	require.NoError(t, err)
	require.Len(t, res.Baselines, len(Baselines)+1)
	small := res.Baselines[0]
	for _, b := range res.Baselines[:len(Baselines)] {
		if b.AreaUM2 < small.AreaUM2 {
			small = b
		}
	}
	t.Logf("result %+v; smallest family %+v; Yosys %+v", res.After, small, res.Before)
	assert.LessOrEqual(t, res.After.AreaUM2, small.AreaUM2, "no larger than the smallest family")
	assert.LessOrEqual(t, res.After.WorstNS, 0.9*small.WorstNS, "at least 10 %% faster than the smallest family")
	assert.Less(t, res.After.WorstNS, res.Before.WorstNS, "faster than Yosys's own mapping")
}
