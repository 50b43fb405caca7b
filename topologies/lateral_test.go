package topologies_test

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// TestLateralFanout checks Harris's per-level fan-out against what each
// family's construction promises: 2 for Kogge–Stone where its logical
// fan-out grows with the width, n/2 + 1 for Sklansky, 1 + f_L for Knowles's
// [f_L, …, f_1], and at most 2^f + 1 for Harris's (0, f, t). (With l > 0
// the down-sweep's readers of one signal, drawn on l rows by Harris, share
// one level as soon as possible, and count together.)
func TestLateralFanout(t *testing.T) {
	build := func(name string, n int, p network.Params) network.Figures {
		net, err := topologies.Build(name, n, p)
		require.NoError(t, err)
		return net.Figures()
	}
	for _, n := range []int{8, 16, 32, 64, 128} {
		levels := bits.Len(uint(n - 1))
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ks := build("kogge-stone", n, nil)
			assert.Equal(t, 2, ks.LateralFanout, "kogge-stone")
			assert.Equal(t, levels+1, ks.MaxFanout, "kogge-stone logical fan-out")
			assert.Equal(t, n/2+1, build("sklansky", n, nil).LateralFanout, "sklansky")
			for s := range 1 << (levels - 1) {
				// f_1 = 1; f_(j+1) doubles f_j where bit j−1 of s is set.
				f := 1
				for j := 1; j < levels; j++ {
					if s>>(j-1)&1 == 1 {
						f *= 2
					}
				}
				assert.Equal(t, f+1, build("knowles", n, network.Params{"s": s}).LateralFanout, "knowles s=%d", s)
			}
			for ff := 0; ff <= levels-1; ff++ {
				got := build("harris", n, network.Params{"l": 0, "f": ff}).LateralFanout
				assert.Equal(t, 1<<ff+1, got, "harris l=0 f=%d", ff)
			}
		})
	}
	assert.Equal(t, 0, build("ripple", 1, nil).LateralFanout, "no cells")
	assert.Equal(t, 2, build("ripple", 9, nil).LateralFanout, "ripple")
}
