package optimize_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
)

// TestClaimArrivalGoals measures the adders docs/optimize.md reports for
// the ramp and hump profiles of docs/arrivals through the default flow,
// timed in their profile, against every named network at every setting
// timed in the same profile in the same run: each is less late than the
// fastest named network, in no more area than it.
func TestClaimArrivalGoals(t *testing.T) {
	tooltest.Claims(t)
	tooltest.Flow(t, physical.LibertyFile(""))
	ctx := context.Background()
	for _, c := range []struct{ goal, profile string }{
		{"arrival-ramp-32.json", "ramp32.json"},
		{"arrival-hump-32.json", "hump32.json"},
	} {
		t.Run(c.goal, func(t *testing.T) {
			pf, err := os.Open(filepath.Join("..", "docs", "arrivals", c.profile))
			require.NoError(t, err)
			defer pf.Close()
			prof, err := delay.ReadProfile(pf)
			require.NoError(t, err)
			gf, err := os.Open(filepath.Join("..", "docs", "goals", c.goal))
			require.NoError(t, err)
			defer gf.Close()
			net, arch, err := adder.ReadDocument(gf)
			require.NoError(t, err)
			require.Equal(t, adder.Standard, arch, "the claim measures the standard adder around the network")
			designs := []*physical.Design{}
			d, err := physical.AdderDesign(net)
			require.NoError(t, err)
			designs = append(designs, d)
			points, err := explore.Enumerate(ctx, net.Width(), explore.Options{})
			require.NoError(t, err)
			for _, p := range points {
				nd, err := physical.AdderDesign(p.Network)
				require.NoError(t, err)
				designs = append(designs, nd)
			}
			results, err := physical.Run(ctx, designs, physical.Options{Profile: prof})
			require.NoError(t, err)
			got, fast := results[0], results[1]
			for _, r := range results[1:] {
				if r.DelayNS < fast.DelayNS || r.DelayNS == fast.DelayNS && r.AreaUM2 < fast.AreaUM2 {
					fast = r
				}
			}
			what := fmt.Sprintf("%s in %s: %.0f µm², %.4f ns late; the fastest of %d named, %s: %.0f µm², %.4f ns",
				c.goal, c.profile, got.AreaUM2, got.DelayNS, len(results)-1, fast.Name(), fast.AreaUM2, fast.DelayNS)
			assert.Less(t, got.DelayNS, fast.DelayNS, what)
			assert.LessOrEqual(t, got.AreaUM2, fast.AreaUM2, what)
			t.Log(what)
		})
	}
}
