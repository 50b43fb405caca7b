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
	require.NoError(t, run(&out, nil))
	assert.Equal(t, `segmented sums of 100 random numbers in −9…9 (seed 1), 23 segments
scan of the segmented lift of + through han-carlson: depth 8, 336 cells
segment sums: 2 4 6 0 9 19 3 -1 19 0 -18 -15 … (11 more)
checked against a plain loop that restarts at every head: all 100 running sums equal
`, out.String())
}

// TestEveryTopology runs every topology at widths that are and are not
// powers of two; run fails if the result disagrees with the plain loop.
func TestEveryTopology(t *testing.T) {
	programtest.EveryTopology(t, run, []int{1, 2, 3, 64, 100, 257})
}

func TestLadnerFischerParam(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-t", "ladner-fischer", "-param", "k=2"}))
	assert.Contains(t, out.String(), " through ladner-fischer k=2: ")
}

func TestBadUsage(t *testing.T) {
	programtest.BadUsage(t, run, "segmented",
		programtest.Case{Args: []string{"-n", "0"}, Want: "segmented: han-carlson: width 0 out of range"},
	)
}

func TestHelp(t *testing.T) {
	programtest.Help(t, run)
}
