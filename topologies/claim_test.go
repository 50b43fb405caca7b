package topologies_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// relabel returns net's cells under another topology and parameters, as a
// file could claim them.
func relabel(t *testing.T, net *network.Network, name string, p network.Params) *network.Network {
	t.Helper()
	b, err := network.NewBuilder(net.Width())
	require.NoError(t, err)
	for k := range net.Size() {
		c := net.Cell(k)
		b.Add(c.Lo, c.Hi)
	}
	b.Describe(name, p)
	out, err := b.Build()
	require.NoError(t, err)
	return out
}

func TestCheckClaim(t *testing.T) {
	sk, err := topologies.Build("sklansky", 16, nil)
	require.NoError(t, err)
	lf, err := topologies.Build("ladner-fischer", 16, network.Params{"k": 1})
	require.NoError(t, err)
	v4, err := topologies.Valency("kogge-stone", 16, 4)
	require.NoError(t, err)
	tests := []struct {
		name string
		net  *network.Network
		want string
	}{
		{"registered", lf, ""},
		{"valency form", v4, ""},
		{"own name", relabel(t, sk, "mine", network.Params{"k": 99}), ""},
		{"no name", relabel(t, sk, "", nil), ""},
		{"parameter out of range", relabel(t, sk, "ladner-fischer", network.Params{"k": 99}),
			"topologies: the network claims to be ladner-fischer k=99, which is not a network of the registry (ladner-fischer parameter k=99 out of range: allowed 0…63): allowed a registered topology with its parameters in range, or a topology name of your own"},
		{"another family's cells", relabel(t, sk, "ladner-fischer", network.Params{"k": 1}),
			`topologies: the network claims to be ladner-fischer k=1 at width 16, but its cells are not that network's: allowed the network ladner-fischer builds, or a topology name of your own (such as "custom")`},
		{"unknown parameter", relabel(t, sk, "sklansky", network.Params{"q": 1}),
			"topologies: the network claims to be sklansky q=1, which is not a network of the registry (sklansky has no parameter \"q\": it takes none): allowed a registered topology with its parameters in range, or a topology name of your own"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := topologies.CheckClaim(tt.net)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			_, ok := errors.AsType[*topologies.ClaimError](err)
			assert.True(t, ok)
		})
	}
}

// TestCheckClaimManyParameters: a claim of 100 000 parameters is judged at
// once and echoed cut; its name had been built by repeated concatenation
// (46 s) into a line of megabytes.
func TestCheckClaimManyParameters(t *testing.T) {
	sk, err := topologies.Build("sklansky", 16, nil)
	require.NoError(t, err)
	p := network.Params{}
	for i := range 100000 {
		p[fmt.Sprintf("p%05d", i)] = i
	}
	start := time.Now()
	err = topologies.CheckClaim(relabel(t, sk, "sklansky", p))
	require.Error(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
	msg := err.Error()
	require.Less(t, len(msg), 400, "%.300s…", msg)
	assert.True(t, strings.HasPrefix(msg, "topologies: the network claims to be sklansky p00000=0 p00001=1 p00002=2 p00003=3 p00004=4 … and 99995 more, which is not a network of the registry"), "%.300s…", msg)
}

// Every network the registry builds passes its own claim.
func TestCheckClaimRegistry(t *testing.T) {
	for _, topo := range slices.Concat(topologies.All(), topologies.Others()) {
		for _, n := range []int{1, 2, 7, 16, 33} {
			net, err := topo.Build(n, nil)
			require.NoError(t, err)
			assert.NoError(t, topologies.CheckClaim(net), "%s %d", topo.Name, n)
		}
	}
}

// Every network the registry builds, with every parameter value it takes
// (up to 12 of each) and in every valency form, passes its own claim, and
// so do its cells read back from JSON: a file prefixgen wrote reads back.
func TestCheckClaimEveryParameter(t *testing.T) {
	for _, topo := range slices.Concat(topologies.All(), topologies.Others()) {
		for n := 1; n <= 40; n++ {
			combos := []network.Params{{}}
			for _, p := range topo.Params {
				var next []network.Params
				for _, c := range combos {
					for v := p.Min; v <= min(p.Max, p.Min+12); v++ {
						m := network.Params{p.Name: v}
						for k, x := range c {
							m[k] = x
						}
						next = append(next, m)
					}
				}
				combos = next
			}
			for _, p := range combos {
				net, err := topo.Build(n, p)
				if err != nil {
					continue
				}
				require.NoError(t, topologies.CheckClaim(net), "%s %d %v", topo.Name, n, p)
				data, err := json.Marshal(net)
				require.NoError(t, err)
				back, err := network.Read(bytes.NewReader(data))
				require.NoError(t, err)
				require.NoError(t, topologies.CheckClaim(back), "%s %d %v read back", topo.Name, n, p)
			}
		}
	}
	for _, name := range topologies.ValencyFamilies {
		for n := 1; n <= 70; n++ {
			for k := 2; k <= topologies.MaxValency; k++ {
				net, err := topologies.Valency(name, n, k)
				require.NoError(t, err)
				require.NoError(t, topologies.CheckClaim(net), "%s %d v=%d", name, n, k)
			}
		}
	}
}
