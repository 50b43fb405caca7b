package physical_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
)

// TestProfile times adders in their design through OpenSTA: every input
// later by 0.5 ns makes the adder 0.5 ns later; every output required
// 0.25 ns later takes that off; with the operands' top bits arriving late
// (0.4 ns a bit) the ripple-carry adder, whose top bit meets one cell, is
// less late than Kogge–Stone, the reverse of all bits at once; and a
// profile of another width is bad input.
func TestProfile(t *testing.T) {
	needTools(t)
	t.Parallel()
	ctx := context.Background()
	ks, ripple := build(t, "kogge-stone", 8, nil), build(t, "ripple", 8, nil)
	designs := func() []*physical.Design {
		var ds []*physical.Design
		for _, net := range []*network.Network{ks, ripple} {
			d, err := physical.AdderDesign(net)
			require.NoError(t, err)
			ds = append(ds, d)
		}
		return ds
	}
	flat := func(n int, v float64) []float64 {
		ts := make([]float64, n)
		for i := range ts {
			ts[i] = v
		}
		return ts
	}
	ramp := make([]float64, 8)
	for i := range ramp {
		ramp[i] = 0.4 * float64(i)
	}
	run := func(p *delay.Profile) []*physical.Result {
		res, err := physical.Run(ctx, designs(), physical.Options{Profile: p})
		require.NoError(t, err)
		return res
	}
	base := run(nil)
	late := run(&delay.Profile{Arrival: flat(8, 0.5)})
	relaxed := run(&delay.Profile{Arrival: flat(8, 0.5), Required: flat(9, 0.25)})
	steep := run(&delay.Profile{Arrival: ramp})
	for i := range base {
		assert.InDelta(t, base[i].DelayNS+0.5, late[i].DelayNS, 2e-4, base[i].Name())
		assert.InDelta(t, base[i].DelayNS+0.25, relaxed[i].DelayNS, 2e-4, base[i].Name())
		assert.Equal(t, base[i].AreaUM2, steep[i].AreaUM2)
	}
	assert.Less(t, base[0].DelayNS, base[1].DelayNS, "Kogge–Stone is the faster with every bit at once")
	assert.Less(t, steep[1].DelayNS, steep[0].DelayNS, "ripple is the less late when the top bits come last")

	_, err := physical.Run(ctx, designs(), physical.Options{Profile: &delay.Profile{Arrival: flat(7, 0)}})
	assert.EqualError(t, err, "physical: 7 arrival times for an adder of 8 bits: allowed one per bit")
	assert.True(t, physical.IsSetup(err))
}
