package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/topologies"
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

// TestEveryTopology runs every topology at widths that are and are not powers
// of two; run fails if the scan disagrees with the loop.
func TestEveryTopology(t *testing.T) {
	for _, name := range topologies.Names() {
		for _, n := range []int{1, 2, 3, 64, 100, 257} {
			var out strings.Builder
			args := []string{"-t", name, "-n", fmt.Sprint(n), "-seed", fmt.Sprint(n), "-x0", "7"}
			require.NoError(t, run(&out, args), "%q", args)
			assert.Contains(t, out.String(), " through "+name, "%q", args)
			assert.Contains(t, out.String(), "checked against ", "%q", args)
		}
	}
}

func TestLadnerFischerParam(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-t", "ladner-fischer", "-param", "k=2"}))
	assert.Contains(t, out.String(), " through ladner-fischer k=2: ")
}

func TestBadUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-t", "nope"}, "recurrence: topologies: "},
		{[]string{"-n", "0"}, "recurrence: topologies: kogge-stone: width 0 out of range"},
		{[]string{"-x"}, "recurrence: flag provided but not defined: -x"},
		{[]string{"extra"}, `recurrence: unexpected argument "extra"`},
		{[]string{"-t", "ripple", "-param", "k=1"}, "recurrence: topologies: "},
		{[]string{"-x0", "-1"}, "recurrence: invalid value \"-1\" for flag -x0"},
	}
	for _, tt := range tests {
		var out strings.Builder
		err := run(&out, tt.args)
		require.Error(t, err, "%q", tt.args)
		assert.Contains(t, err.Error(), tt.want, "%q", tt.args)
		assert.Empty(t, out.String())
	}
}

func TestHelp(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-h"}))
	assert.Contains(t, out.String(), "-t string")
	assert.Contains(t, out.String(), "-param name=value")
}
