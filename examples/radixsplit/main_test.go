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
	assert.Equal(t, `stable split of 100 random bytes (seed 1) by bit 0
two flag scans through sklansky: depth 7, 316 cells each
bit 0 clear, 46: 86 242 248 140 132 38 20 156 2 168 … (36 more)
bit 0 set, 54: 3 105 179 75 83 247 125 199 87 87 … (44 more)
checked against a plain loop: the same 100 elements in the same order
`, out.String())
}

// TestEveryTopology runs every topology at widths that are and are not powers
// of two; run fails if the scan disagrees with the loop.
func TestEveryTopology(t *testing.T) {
	for _, name := range topologies.Names() {
		for _, n := range []int{1, 2, 3, 64, 100, 257} {
			var out strings.Builder
			args := []string{"-t", name, "-n", fmt.Sprint(n), "-seed", fmt.Sprint(n), "-bit", "3"}
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
		{[]string{"-t", "nope"}, "radixsplit: topologies: "},
		{[]string{"-n", "0"}, "radixsplit: topologies: sklansky: width 0 out of range"},
		{[]string{"-x"}, "radixsplit: flag provided but not defined: -x"},
		{[]string{"extra"}, `radixsplit: unexpected argument "extra"`},
		{[]string{"-t", "ripple", "-param", "k=1"}, "radixsplit: topologies: "},
		{[]string{"-bit", "8"}, "radixsplit: -bit 8 out of range: allowed 0…7"},
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
