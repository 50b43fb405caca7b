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
	assert.Equal(t, `segmented sums of 100 random numbers in −9…9 (seed 1), 23 segments
scan of the segmented lift of + through han-carlson: depth 8, 336 cells
segment sums: 2 4 6 0 9 19 3 -1 19 0 -18 -15 … (11 more)
checked against a plain loop that restarts at every head: all 100 running sums equal
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
		{[]string{"-t", "nope"}, "segmented: topologies: "},
		{[]string{"-n", "0"}, "segmented: topologies: han-carlson: width 0 out of range"},
		{[]string{"-x"}, "segmented: flag provided but not defined: -x"},
		{[]string{"extra"}, `segmented: unexpected argument "extra"`},
		{[]string{"-t", "ripple", "-param", "k=1"}, "segmented: topologies: "},
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
