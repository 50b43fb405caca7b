package optimize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/topologies"
)

// TestLeastFanoutMet proves the fan-out-3 side of LeastFanout for every
// width Minimize takes: Sklansky's or Kogge–Stone's network, with cells
// copied, has depth ⌈log2 n⌉ and fan-out at most 3, for every n from 3 to
// MaxWidth. (Deeper bounds are met by the same network.)
func TestLeastFanoutMet(t *testing.T) {
	for n := 3; n <= MaxWidth; n++ {
		d := ceilLog2(n)
		if LeastFanout(n, d) != 3 {
			continue // n = 3: ripple is as shallow
		}
		met := false
		for _, name := range []string{"sklansky", "kogge-stone"} {
			net, err := topologies.Build(name, n, nil)
			require.NoError(t, err)
			if m := limitFanout(net, 3); m != nil {
				f := m.Figures()
				if f.Depth <= d && f.MaxFanout <= 3 {
					met = true
					break
				}
			}
		}
		assert.True(t, met, "fan-out 3 at depth %d, width %d", d, n)
	}
}
