package physical

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/topologies"
)

// TestRecordArchitectureOfAdders: a result names the architecture's fields
// (sparse, valency, …) only for an adder prefixgen wrote. A user's module
// and Yosys's a + b + cin have none: null in JSON and empty in CSV, as an
// unknown width is, where they had the standard adder's sparse 1 and
// valency 2.
func TestRecordArchitectureOfAdders(t *testing.T) {
	user, err := VerilogDesign([]byte("module mine(input [3:0] a, b, output [4:0] s);\n  assign s = a + b;\nendmodule\n"), "mine")
	require.NoError(t, err)
	ref, err := ReferenceDesign(4)
	require.NoError(t, err)
	nets, err := topologies.Select("sklansky", 4, nil)
	require.NoError(t, err)
	ours, err := AdderDesign(nets[0])
	require.NoError(t, err)
	for _, tc := range []struct {
		d    *Design
		arch bool
	}{{user, false}, {ref, false}, {ours, true}} {
		t.Run(tc.d.Topology, func(t *testing.T) {
			r := (&Result{AreaUM2: 10, StdCells: 1, DelayNS: 1, Liberty: "osu018", Flow: Keep}).copyFor(tc.d)
			var j, c strings.Builder
			require.NoError(t, JSON(&j, []*Result{r}))
			require.NoError(t, CSV(&c, []*Result{r}))
			row := strings.Split(strings.TrimSpace(c.String()), "\n")[1]
			if tc.arch {
				assert.Contains(t, j.String(), `"sparse": 1,`)
				assert.Contains(t, row, ",1,2,false,0,false,false,false,false,")
				return
			}
			for _, key := range []string{"sparse", "valency", "ling", "stages", "no_reset", "pg_cells", "fa_cells", "increment"} {
				assert.Contains(t, j.String(), `"`+key+`": null`)
			}
			assert.Contains(t, row, ",,,,,,,,,10,")
		})
	}
}
