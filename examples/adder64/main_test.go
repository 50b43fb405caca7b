package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/topologies"
)

func TestDefault(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-vectors", "6400"}))
	assert.Equal(t, `64-bit adder around kogge-stone
  depth        6
  size         321 cells
  max fan-out  7 (logical, unbuffered)
  wire tracks  32
  deficiency   201
checked 205 corner vectors against math/big and 6400 random vectors (seed 1) against the ripple-carry loop: all sums right
`, out.String())
}

func TestEveryTopology(t *testing.T) {
	for _, name := range topologies.Names() {
		var out strings.Builder
		require.NoError(t, run(&out, []string{"-t", name, "-vectors", "640", "-seed", "9"}), name)
		assert.Contains(t, out.String(), "64-bit adder around "+name)
		assert.Contains(t, out.String(), "640 random vectors (seed 9)")
		assert.Contains(t, out.String(), "all sums right")
	}
}

func TestLadnerFischerParam(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-t", "ladner-fischer", "-param", "k=0", "-vectors", "64"}))
	assert.Contains(t, out.String(), "  size         168 cells\n")
}

func TestBadUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-t", "nope"}, "adder64: topologies: "},
		{[]string{"-vectors", "-1"}, "adder64: simulate: -1 vectors: want 0 or more"},
		{[]string{"-x"}, "adder64: flag provided but not defined: -x"},
		{[]string{"extra"}, `adder64: unexpected argument "extra"`},
		{[]string{"-param", "k"}, "adder64: topologies: "},
	}
	for _, tt := range tests {
		var out strings.Builder
		err := run(&out, tt.args)
		require.Error(t, err, "%q", tt.args)
		assert.Contains(t, err.Error(), tt.want, "%q", tt.args)
	}
}

func TestHelp(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-h"}))
	assert.Contains(t, out.String(), "-t string")
}
