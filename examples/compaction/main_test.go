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
	assert.Equal(t, `stream compaction of 100 random numbers below 100 (seed 1), keeping the multiples of 3
exclusive scan of the keep-flags through brent-kung: depth 11, 190 cells
kept 34 of 100: 81 30 96 15 24 84 12 96 54 18 15 66 … (22 more)
checked against a plain loop: the same 34 elements in the same order
`, out.String())
}

// TestEveryTopology runs every topology at widths that are and are not powers
// of two; run fails if the scan disagrees with the loop.
func TestEveryTopology(t *testing.T) {
	for _, name := range topologies.Names() {
		for _, n := range []int{1, 2, 3, 64, 100, 257} {
			var out strings.Builder
			args := []string{"-t", name, "-n", fmt.Sprint(n), "-seed", fmt.Sprint(n)}
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
		{[]string{"-t", "nope"}, "compaction: topologies: "},
		{[]string{"-n", "0"}, "compaction: topologies: brent-kung: width 0 out of range"},
		{[]string{"-x"}, "compaction: flag provided but not defined: -x"},
		{[]string{"extra"}, `compaction: unexpected argument "extra"`},
		{[]string{"-t", "ripple", "-param", "k=1"}, "compaction: topologies: "},
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
