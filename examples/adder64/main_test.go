package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/examples/internal/programtest"
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

// TestEveryTopology runs every topology; run fails if an adder sum is
// wrong.
func TestEveryTopology(t *testing.T) {
	programtest.EveryTopology(t, run, nil, "-vectors", "640", "-seed", "9")
}

func TestLadnerFischerParam(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-t", "ladner-fischer", "-param", "k=0", "-vectors", "64"}))
	assert.Contains(t, out.String(), "  size         168 cells\n")
}

func TestBadUsage(t *testing.T) {
	programtest.BadUsage(t, run, "adder64",
		programtest.Case{Args: []string{"-vectors", "-1"}, Want: "adder64: -vectors -1 out of range: allowed 0 or more"},
	)
}

func TestHelp(t *testing.T) {
	programtest.Help(t, run)
}
