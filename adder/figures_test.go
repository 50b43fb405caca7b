package adder_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/topologies"
)

// The dense adder of binary cells keeps every cell, so its tree's fan-out
// and wire tracks are the network's; a sparse one keeps a subset of the
// cells and of the carries, and can only lower them.
func TestTreeFiguresDense(t *testing.T) {
	for _, n := range []int{8, 13, 64} {
		for _, name := range topologies.Names() {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				net := build(t, name, n)
				figs := net.Figures()
				d, err := adder.Describe(net, adder.Architecture{Flags: adder.Carry}, nil)
				require.NoError(t, err)
				assert.Equal(t, figs.MaxFanout, d.MaxFanout, "max fan-out")
				assert.Equal(t, figs.WireTracks, d.WireTracks, "wire tracks")
				for _, s := range adder.Sparseness[1:] {
					if s > n {
						continue
					}
					sp, err := adder.Describe(net, adder.Architecture{Flags: adder.Carry, Sparse: s}, nil)
					require.NoError(t, err)
					assert.LessOrEqual(t, sp.MaxFanout, d.MaxFanout, "sparse %d fan-out", s)
					assert.LessOrEqual(t, sp.WireTracks, d.WireTracks, "sparse %d tracks", s)
				}
			})
		}
	}
}

// Closed forms. A sparse-s Kogge–Stone tree is Kogge–Stone over m = n/s
// groups: fan-out log2 m + 1, and n/(2s) wires across the middle at its top
// level. Sklansky's 8-bit sparse-4 tree keeps [3:0] for one reader and the
// carry into bit 4: fan-out 2 where the dense tree has 5, one track.
func TestTreeFiguresSparse(t *testing.T) {
	tests := []struct {
		topo           string
		n, s           int
		fanout, tracks int
	}{
		{"kogge-stone", 64, 2, 6, 16},
		{"kogge-stone", 64, 4, 5, 8},
		{"kogge-stone", 64, 8, 4, 4},
		{"sklansky", 8, 1, 5, 1},
		{"sklansky", 8, 4, 2, 1},
		{"ripple", 64, 8, 2, 1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d/%d", tt.topo, tt.n, tt.s), func(t *testing.T) {
			d, err := adder.Describe(build(t, tt.topo, tt.n), adder.Architecture{Flags: adder.Carry, Sparse: tt.s}, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.fanout, d.MaxFanout, "max fan-out")
			assert.Equal(t, tt.tracks, d.WireTracks, "wire tracks")
		})
	}
}

// A gate of valency k reads k − 1 Lo operands: a valency-4 Sklansky tree
// of 64 bits reads [15:0] from all 48 columns above it at its last level,
// and the carry into bit 16 is one more reader.
func TestTreeFiguresValency(t *testing.T) {
	net, err := topologies.Valency("sklansky", 64, 4)
	require.NoError(t, err)
	d, err := adder.Describe(net, adder.Architecture{Flags: adder.Carry, Valency: 4}, nil)
	require.NoError(t, err)
	assert.Equal(t, 49, d.MaxFanout)
}
