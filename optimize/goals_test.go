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
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// startingFamilies are the five families the project started with, at
// every setting issue 17 names: the first goal's adder must be as fast as
// the fastest of them.
var startingFamilies = []struct {
	name   string
	params network.Params
}{
	{"kogge-stone", nil},
	{"brent-kung", nil},
	{"sklansky", nil},
	{"han-carlson", nil},
	{"ladner-fischer", network.Params{"k": 0}},
	{"ladner-fischer", network.Params{"k": 1}},
	{"ladner-fischer", network.Params{"k": 2}},
}

// goalNetworks are the adders under docs/goals that the README reports
// against issue 17's goals (prefixgen.adder/v1 documents), with the flow
// and the sparseness and carries (plain or Ling's) the document must
// record, and whether its generate and propagate are library cells
// (pgCells). fast is the first goal: as fast as the fastest
// starting family, at least 15 % smaller; otherwise the second: no larger
// than Yosys's a + b + cin, at least 25 % faster. near, when above 1, marks
// an adder the README reports as missing the second goal's area: it holds
// the delay, and its area is at most near times Yosys's (the figure the
// README quotes, so that the miss does not silently grow).
var goalNetworks = []struct {
	file   string
	flow   physical.Flow
	sparse int
	fast   bool
	ling   bool
	near   float64
	cells  bool
}{
	{"fast-keep-64.json", physical.Keep, 2, true, false, 0, false},
	{"small-abc-128-ling.json", physical.ABC, 1, false, true, 0, false},
	{"small-abc-32-ling.json", physical.ABC, 2, false, true, 0, false},
	{"near-small-keep-64.json", physical.Keep, 2, false, false, 1.030, false},
	// One adder of library cells reaches the second goal in both flows,
	// and the first through abc, at 64 bits and at 32; at 128 the second
	// in both, and another the first through abc.
	{"small-pgcells-64.json", physical.Keep, 2, false, false, 0, true},
	{"small-pgcells-64.json", physical.ABC, 2, false, false, 0, true},
	{"small-pgcells-64.json", physical.ABC, 2, true, false, 0, true},
	{"small-pgcells-32.json", physical.Keep, 1, false, false, 0, true},
	{"small-pgcells-32.json", physical.ABC, 1, false, false, 0, true},
	{"small-pgcells-32.json", physical.ABC, 1, true, false, 0, true},
	{"small-pgcells-128.json", physical.Keep, 1, false, false, 0, true},
	{"small-pgcells-128.json", physical.ABC, 1, false, false, 0, true},
	{"fast-pgcells-abc-128.json", physical.ABC, 2, true, false, 0, true},
	// Found judged by medians (--orders 4); as written it holds both goals.
	{"medians-pgcells-abc-32.json", physical.ABC, 1, false, false, 0, true},
	{"medians-pgcells-abc-32.json", physical.ABC, 1, true, false, 0, true},
}

// TestClaimGoalNetworks measures every network of docs/goals as the README does
// and checks the goal it is reported to reach, against the starting
// families or Yosys's adder measured in the same run: the README's claims
// hold on the tools CI installs, not only on the machine that found them.
func TestClaimGoalNetworks(t *testing.T) {
	tooltest.Claims(t)
	t.Parallel()
	tooltest.Path(t, "yosys")
	tooltest.Path(t, "sta")
	if testing.Short() {
		t.Skip("the flow takes seconds: skipped in -short mode")
	}
	ctx := context.Background()
	for _, g := range goalNetworks {
		t.Run(fmt.Sprint(g.file, " ", g.flow, " ", map[bool]string{true: "fast", false: "small"}[g.fast]), func(t *testing.T) {
			f, err := os.Open(filepath.Join("..", "docs", "goals", g.file))
			require.NoError(t, err)
			defer f.Close()
			net, arch, err := adder.ReadDocument(f)
			require.NoError(t, err)
			require.Equal(t, adder.Architecture{Flags: adder.Carry, Sparse: g.sparse, Valency: 2, Ling: g.ling, PGCells: g.cells}, arch, "the adder the README reports")
			var cells *adder.Cells
			if arch.PGCells {
				if cells, err = physical.PGCells(""); err != nil {
					tooltest.File(t, physical.LibertyFile(""), "qflow-tech-osu018")
					require.NoError(t, err)
				}
			}
			d, err := physical.ArchitectureDesign(net, arch, cells)
			require.NoError(t, err)
			designs := []*physical.Design{d}
			if g.fast {
				for _, s := range startingFamilies {
					ref, err := topologies.Build(s.name, net.Width(), s.params)
					require.NoError(t, err)
					rd, err := physical.AdderDesign(ref)
					require.NoError(t, err)
					designs = append(designs, rd)
				}
			} else {
				rd, err := physical.ReferenceDesign(net.Width())
				require.NoError(t, err)
				designs = append(designs, rd)
			}
			results, err := physical.Run(ctx, designs, physical.Options{Flow: g.flow})
			require.NoError(t, err)
			got, refs := results[0], results[1:]
			target := refs[0]
			for _, r := range refs {
				if r.DelayNS < target.DelayNS {
					target = r
				}
			}
			what := fmt.Sprintf("%s through flow %s: %.0f µm², %.4f ns; %s: %.0f µm², %.4f ns", g.file, g.flow, got.AreaUM2, got.DelayNS, target.Name(), target.AreaUM2, target.DelayNS)
			if g.fast {
				assert.LessOrEqual(t, got.DelayNS, target.DelayNS, what)
				assert.LessOrEqual(t, got.AreaUM2, 0.85*target.AreaUM2, what)
			} else {
				assert.LessOrEqual(t, got.AreaUM2, max(g.near, 1)*target.AreaUM2, what)
				assert.LessOrEqual(t, got.DelayNS, 0.75*target.DelayNS, what)
				if g.near > 1 {
					assert.Greater(t, got.AreaUM2, target.AreaUM2, "%s reaches the second goal: the README reports a miss", what)
				}
			}
			t.Log(what)
		})
	}
}
