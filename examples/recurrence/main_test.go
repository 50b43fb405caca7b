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
	assert.Equal(t, `x_i = a_i·x_{i−1} + b_i mod 2^64 for i = 0…99, random odd a_i and b_i (seed 1), x_{−1} = 1
composed the maps x ↦ a_i·x + b_i through kogge-stone: depth 7, 573 cells
x_99 = 17668888390487187467: the composed map is x ↦ 11230334884880594543·x + 6438553505606592924
checked against the plain loop x = a_i·x + b_i: all 100 values equal
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
	programtest.BadUsage(t, run, "recurrence",
		programtest.Case{Args: []string{"-n", "0"}, Want: "recurrence: kogge-stone: width 0 out of range"},
		programtest.Case{Args: []string{"-x0", "-1"}, Want: `recurrence: invalid value "-1" for flag -x0`},
	)
}

func TestHelp(t *testing.T) {
	programtest.Help(t, run)
}
