package programtest

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/examples/internal/program"
	"github.com/prefixgen/prefixgen/topologies"
)

// Run is an example program's run function: it parses args, does its work
// and writes what it did to w.
type Run func(w io.Writer, args []string) error

// Case is one bad command line and the error it must give, in full or as a
// prefix.
type Case struct {
	Args []string
	Want string
}

// EveryTopology runs the program with every topology at each of the widths
// (given with -n and, as the seed, with -seed), adding extra to the
// arguments; with no widths, -n is not given. The run must succeed, name the
// topology and report what it checked.
func EveryTopology(t *testing.T, run Run, widths []int, extra ...string) {
	t.Helper()
	for _, name := range topologies.Known() {
		argsList := [][]string{{"-t", name}}
		if len(widths) > 0 {
			argsList = nil
			for _, n := range widths {
				argsList = append(argsList, []string{"-t", name, "-n", fmt.Sprint(n), "-seed", fmt.Sprint(n)})
			}
		}
		for _, args := range argsList {
			args = append(args, extra...)
			var out strings.Builder
			require.NoError(t, run(&out, args), "%q", args)
			assert.Contains(t, out.String(), name, "%q", args)
			assert.Contains(t, out.String(), "checked ", "%q", args)
		}
	}
}

// BadUsage runs the program on the bad command lines that every example
// shares and on the program's own cases: each must fail with a
// program.UsageError (exit status 2) whose text starts with the case's Want,
// and write nothing.
func BadUsage(t *testing.T, run Run, name string, own ...Case) {
	t.Helper()
	cases := append([]Case{
		{[]string{"-t", "nope"}, name + `: unknown topology "nope": known are `},
		{[]string{"-x"}, name + ": flag provided but not defined: -x"},
		{[]string{"extra"}, name + `: unexpected argument "extra": only flags are allowed`},
		{[]string{"-t", "ripple", "-param", "k=1"}, name + `: ripple has no parameter "k": it takes none`},
		{[]string{"-param", "k"}, name + `: parameter "k" is not name=value`},
	}, own...)
	for _, c := range cases {
		var out strings.Builder
		err := run(&out, c.Args)
		require.Error(t, err, "%q", c.Args)
		assert.True(t, strings.HasPrefix(err.Error(), c.Want), "%q: %q does not start with %q", c.Args, err, c.Want)
		assert.NotRegexp(t, `^`+regexp.QuoteMeta(name)+`: (?:adder|carry|emit|network|simulate|topologies): `, err.Error(), "%q: no package's name for a user", c.Args)
		_, usage := errors.AsType[*program.UsageError](err)
		assert.True(t, usage, "%q is bad usage, exit status 2", c.Args)
		assert.Empty(t, out.String(), "%q", c.Args)
	}
}

// Help checks that -h prints the flags, -t and -param among them, and
// succeeds.
func Help(t *testing.T, run Run) {
	t.Helper()
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-h"}))
	assert.Contains(t, out.String(), "-t string")
	assert.Contains(t, out.String(), "-param name=value")
}
