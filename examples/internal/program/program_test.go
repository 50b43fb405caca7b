package program_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/examples/internal/program"
)

func TestNetwork(t *testing.T) {
	tests := []struct {
		args  []string
		want  string // emit.Name-like: topology and width
		width int
		size  int
	}{
		{nil, "sklansky", 16, 32},
		{[]string{"-t", "ripple"}, "ripple", 16, 15},
		{[]string{"-t", "ladner-fischer", "-param", "k=1", "-n", "8"}, "ladner-fischer", 8, 0},
	}
	for _, tt := range tests {
		f := program.NewFlags("demo", "sklansky")
		n := f.Int("n", 16, "width")
		net, err := f.Network(&strings.Builder{}, tt.args, n)
		require.NoError(t, err, "%q", tt.args)
		assert.Equal(t, tt.want, net.Topology())
		assert.Equal(t, tt.width, net.Width())
		if tt.size > 0 {
			assert.Equal(t, tt.size, net.Size())
		}
	}
}

func TestNetworkUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-x"}, "demo: flag provided but not defined: -x"},
		{[]string{"stray"}, `demo: unexpected argument "stray": only flags are allowed`},
		{[]string{"-param", "k"}, `demo: parameter "k" is not name=value: write it as, e.g., k=1`},
		{[]string{"-t", "nope"}, `demo: unknown topology "nope": known are ripple, kogge-stone, brent-kung, sklansky, han-carlson, ladner-fischer, knowles, harris, zero-deficiency, carry-select`},
		{[]string{"-n", "0"}, "demo: sklansky: width 0 out of range: allowed 1…1073741824"},
		{[]string{"-n", "1e3"}, `demo: invalid value "1e3" for flag -n: want a whole number in decimal`},
		{[]string{"-x0", "-1"}, `demo: invalid value "-1" for flag -x0: want a whole number from 0, in decimal`},
		{[]string{"-f", "x"}, `demo: invalid value "x" for flag -f: want a number`},
		{[]string{"-v=maybe"}, `demo: invalid value "maybe" for flag -v: want true or false`},
	}
	for _, tt := range tests {
		f := program.NewFlags("demo", "sklansky")
		n := f.Int("n", 16, "width")
		f.Uint64("x0", 1, "start")
		f.Float64("f", 0.5, "fraction")
		f.Bool("v", false, "verbose")
		var out strings.Builder
		net, err := f.Network(&out, tt.args, n)
		assert.Nil(t, net)
		require.EqualError(t, err, tt.want)
		_, usage := errors.AsType[*program.UsageError](err)
		assert.True(t, usage, "%q is bad usage: exit status 2", tt.args)
		assert.Empty(t, out.String())
	}
}

func TestNetworkHelp(t *testing.T) {
	f := program.NewFlags("demo", "brent-kung")
	width := 8
	var out strings.Builder
	net, err := f.Network(&out, []string{"-h"}, &width)
	require.NoError(t, err)
	assert.Nil(t, net)
	assert.Contains(t, out.String(), "-param name=value")
	assert.Contains(t, out.String(), `(default "brent-kung")`)
}

func TestUsage(t *testing.T) {
	err := program.NewFlags("demo", "ripple").Usage(errors.New("-bit 9 out of range"))
	require.EqualError(t, err, "demo: -bit 9 out of range")
	var u *program.UsageError
	require.ErrorAs(t, err, &u)
}

func TestHead(t *testing.T) {
	tests := []struct {
		s    []int
		k    int
		want string
	}{
		{nil, 3, "none"},
		{[]int{7}, 3, "7"},
		{[]int{1, 2, 3}, 3, "1 2 3"},
		{[]int{1, 2, 3, 4, 5}, 2, "1 2 … (3 more)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, program.Head(tt.s, tt.k))
	}
}
