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
	assert.Equal(t, `stable split of 100 random bytes (seed 1) by bit 0
two flag scans through sklansky: depth 7, 316 cells each
bit 0 clear, 46: 86 242 248 140 132 38 20 156 2 168 … (36 more)
bit 0 set, 54: 3 105 179 75 83 247 125 199 87 87 … (44 more)
checked against a plain loop: the same 100 elements in the same order
`, out.String())
}

// TestEveryTopology runs every topology at widths that are and are not
// powers of two; run fails if the result disagrees with the plain loop.
func TestEveryTopology(t *testing.T) {
	programtest.EveryTopology(t, run, []int{1, 2, 3, 64, 100, 257}, "-bit", "3")
}

func TestLadnerFischerParam(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-t", "ladner-fischer", "-param", "k=2"}))
	assert.Contains(t, out.String(), " through ladner-fischer k=2: ")
}

func TestBadUsage(t *testing.T) {
	programtest.BadUsage(t, run, "radixsplit",
		programtest.Case{Args: []string{"-n", "0"}, Want: "radixsplit: sklansky: width 0 out of range"},
		programtest.Case{Args: []string{"-bit", "8"}, Want: "radixsplit: -bit 8 out of range: allowed 0…7"},
	)
}

func TestHelp(t *testing.T) {
	programtest.Help(t, run)
}
