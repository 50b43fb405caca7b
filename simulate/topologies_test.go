package simulate_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// variant is one topology with one set of parameters.
type variant struct {
	name   string
	topo   topologies.Topology
	params network.Params
}

// variants lists every topology, Ladner–Fischer with k = 0…3.
func variants() []variant {
	var vs []variant
	for _, topo := range topologies.All() {
		if topo.Name == "ladner-fischer" {
			for k := range 4 {
				vs = append(vs, variant{fmt.Sprintf("%s-k%d", topo.Name, k), topo, network.Params{"k": k}})
			}
			continue
		}
		vs = append(vs, variant{topo.Name, topo, nil})
	}
	return vs
}

func TestVariantsCoverRegistry(t *testing.T) {
	names := map[string]bool{}
	for _, v := range variants() {
		names[v.topo.Name] = true
	}
	assert.Len(t, names, len(topologies.All()))
	assert.Len(t, variants(), len(topologies.All())+3)
}

// TestTopologiesEvalEqualsScan evaluates every topology at every width up to
// 300 over Interval, which panics on any combine out of order, and over
// 2×2 matrices modulo a prime, which do not commute, and compares with Scan.
func TestTopologiesEvalEqualsScan(t *testing.T) {
	const maxWidth = 300
	rng := rand.New(rand.NewPCG(31, 32))
	mats := make([]simulate.Mat2, maxWidth)
	units := make([]simulate.Range, maxWidth)
	for i := range maxWidth {
		mats[i] = randMat(prime)(rng)
		units[i] = simulate.Unit(i)
	}
	mod := simulate.Matrix2{Mod: prime}
	wantMats := simulate.Scan(mod, mats)
	wantUnits := simulate.Scan(simulate.Interval{}, units)
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			for n := 1; n <= maxWidth; n++ {
				net, err := v.topo.Build(n, v.params)
				require.NoError(t, err, "n %d", n)
				require.Equal(t, n, net.Width())
				require.Equal(t, wantUnits[:n], simulate.Eval(net, simulate.Interval{}, units[:n]), "interval, n %d", n)
				require.Equal(t, wantMats[:n], simulate.Eval(net, mod, mats[:n]), "matrices, n %d", n)
			}
		})
	}
}

// TestTopologiesVerifyAdder verifies the adder of every topology at widths
// around the powers of two.
func TestTopologiesVerifyAdder(t *testing.T) {
	widths := []int{1, 2, 3, 7, 8, 31, 32, 33, 64, 100, 128, 1000, 4096}
	for _, v := range variants() {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			for _, n := range widths {
				net, err := v.topo.Build(n, v.params)
				require.NoError(t, err, "n %d", n)
				const vectors = 4096
				r, err := simulate.VerifyAdder(net, simulate.VerifyOptions{Vectors: vectors, Seed: uint64(n)})
				require.NoError(t, err)
				if !assert.Nil(t, r.Mismatch, "n %d", n) {
					t.Log(r.Mismatch)
				}
				assert.Equal(t, n, r.Width)
				assert.Equal(t, vectors, r.Random)
				if n <= simulate.MaxExhaustiveWidth {
					assert.Equal(t, 1<<(2*n+1), r.Exhaustive)
				}
			}
		})
	}
}
