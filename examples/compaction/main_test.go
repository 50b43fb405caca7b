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
	assert.Equal(t, `stream compaction of 100 random numbers below 100 (seed 1), keeping the multiples of 3
exclusive scan of the keep-flags through brent-kung: depth 11, 190 cells
kept 34 of 100: 81 30 96 15 24 84 12 96 54 18 15 66 … (22 more)
checked against a plain loop: the same 34 elements in the same order
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
	programtest.BadUsage(t, run, "compaction",
		programtest.Case{Args: []string{"-n", "0"}, Want: "compaction: brent-kung: width 0 out of range"},
	)
}

func TestHelp(t *testing.T) {
	programtest.Help(t, run)
}
