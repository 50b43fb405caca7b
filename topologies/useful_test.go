package topologies_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// TestUseful checks Topology.Useful against the families: at every width,
// each value of a parameter above Useful (the others at their defaults, or
// at their minimum or Useful) builds a network that a value from the minimum
// to Useful builds, or is refused, so that an explorer that stops at Useful
// misses nothing.
func TestUseful(t *testing.T) {
	for _, topo := range topologies.All() {
		for i, q := range topo.Params {
			for _, n := range []int{1, 2, 3, 5, 8, 13, 16, 17, 33, 64, 100} {
				u := topo.Useful(q, n)
				require.GreaterOrEqual(t, u, q.Min)
				require.LessOrEqual(t, u, q.Max)
				if u == q.Max {
					continue
				}
				others := []network.Params{{}}
				for j, o := range topo.Params {
					if j != i {
						others = append(others, network.Params{o.Name: o.Min}, network.Params{o.Name: topo.Useful(o, n)})
					}
				}
				for _, p := range others {
					at := func(v int) (*network.Network, error) {
						full := network.Params{q.Name: v}
						for k, w := range p {
							full[k] = w
						}
						return topo.Build(n, full)
					}
					name := fmt.Sprintf("%s %s n=%d others=%v", topo.Name, q.Name, n, p)
					var below [][][2]network.Span
					for v := q.Min; v <= u; v++ {
						if net, err := at(v); err == nil {
							below = append(below, spanPairs(net))
						}
					}
					for _, v := range []int{u + 1, u + 2, u + 7, q.Max} {
						net, err := at(v)
						if err != nil {
							continue
						}
						got := spanPairs(net)
						assert.True(t, slices.ContainsFunc(below, func(b [][2]network.Span) bool { return slices.Equal(b, got) }),
							"%s: %d builds a network no value up to Useful %d builds", name, v, u)
					}
				}
			}
		}
	}
}
