package topologies_test

import (
	"math"
	"math/bits"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// Every width builds and is proven by spans (Build proves); valency 2 is the
// ordinary family; the parameter v names the valency.
func TestValency(t *testing.T) {
	for _, name := range topologies.ValencyFamilies {
		for n := 1; n <= 70; n++ {
			for k := 2; k <= topologies.MaxValency; k++ {
				net, err := topologies.Valency(name, n, k)
				require.NoError(t, err, "%s n=%d k=%d", name, n, k)
				assert.Equal(t, n, net.Width())
				assert.Equal(t, name, net.Topology())
				if k == 2 {
					plain, err := topologies.Build(name, n, nil)
					require.NoError(t, err)
					assert.Equal(t, plain.Spec(), net.Spec())
				} else {
					assert.Equal(t, k, net.Params()["v"])
				}
				assert.Equal(t, k, topologies.ValencyOf(net))
			}
		}
	}
}

func TestValencyOfBinary(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    network.Params
	}{{"brent-kung", nil}, {"ladner-fischer", network.Params{"k": 3}}, {"kogge-stone", nil}} {
		net, err := topologies.Build(tc.name, 16, tc.p)
		require.NoError(t, err)
		assert.Equal(t, 2, topologies.ValencyOf(net), tc.name)
	}
}

// TestValencyOfFamily: the parameter v means a valency only on a family
// Valency builds; another network that happens to carry v = 3 is binary.
func TestValencyOfFamily(t *testing.T) {
	for topology, want := range map[string]int{"custom": 2, "brent-kung": 2, "": 2, "kogge-stone": 3, "sklansky": 3} {
		net, err := network.New(network.Spec{
			Width:    4,
			Cells:    []network.Cell{{Lo: 0, Hi: 1}, {Lo: 4, Hi: 2}, {Lo: 5, Hi: 3}},
			Outputs:  []int{0, 4, 5, 6},
			Topology: topology,
			Params:   network.Params{"v": 3},
		})
		require.NoError(t, err)
		assert.Equal(t, want, topologies.ValencyOf(net), "topology %q", topology)
	}
}

func TestValencyRefused(t *testing.T) {
	_, err := topologies.Valency("brent-kung", 16, 4)
	assert.EqualError(t, err, "topologies: brent-kung has no higher-valency form: valency 3 and 4 exist for kogge-stone and sklansky")
	_, err = topologies.Valency("kogge-stone", 16, 5)
	assert.EqualError(t, err, "topologies: valency 5 out of range: allowed 2 to 4")
	_, err = topologies.Valency("sklansky", 0, 3)
	assert.Error(t, err)
}

// Widths far beyond any network's are refused, or answered, at once: a
// radix-k network too large to build is refused before it is allocated,
// and the helpers that count levels do not loop forever past 2^62.
func TestHugeWidths(t *testing.T) {
	_, err := topologies.Valency("kogge-stone", 0, 3)
	require.EqualError(t, err, "topologies: kogge-stone: width 0 out of range: allowed 1…1073741824", "one prefix")
	_, err = topologies.Valency("kogge-stone", 1<<30, 4)
	require.ErrorContains(t, err, "topologies: kogge-stone of valency 4 at width 1073741824 needs up to")
	// The bound is k − 1 cells a column a level: 2·2^30·19 for radix 3,
	// 3·2^30·15 for radix 4, and the widest widths within MaxCells.
	_, err = topologies.Valency("kogge-stone", 1<<30, 3)
	require.EqualError(t, err, "topologies: kogge-stone of valency 3 at width 1073741824 needs up to 41000000000 cells, more than the 67108864 allowed: allowed widths up to 2396745")
	_, err = topologies.Valency("sklansky", 1<<30, 4)
	require.EqualError(t, err, "topologies: sklansky of valency 4 at width 1073741824 needs up to 48000000000 cells, more than the 67108864 allowed: allowed widths up to 2033601")
	_, err = topologies.Valency("sklansky", 1<<23, 3)
	require.ErrorContains(t, err, "more than the 67108864 allowed")
	assert.Equal(t, map[int]int{32: 44, 64: 86}[strconv.IntSize], topologies.ZeroDeficiencyDepth(math.MaxInt))
	huge := int(min(1<<62+1, int64(math.MaxInt)))
	assert.Len(t, topologies.KnowlesFanouts(huge, 0), bits.Len(uint(huge-1)), "⌈log2 n⌉ levels")
	_, err = topologies.Compare(math.MaxInt)
	require.Error(t, err)
	h, err := topologies.Lookup("harris")
	require.NoError(t, err)
	assert.Positive(t, h.Useful(h.Params[0], math.MaxInt))
}
