package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// bigNumber matches numbers, decimal or prefixed, large enough to make a run
// slow: the fuzzer is after the handling of arguments, not big networks.
var bigNumber = regexp.MustCompile(`(?i)0[xob]|[0-9_]{4,}`)

// writesFile are the flags that name a file or folder a command writes:
// FuzzRun leaves them out, and fuzzes every other.
var writesFile = map[string]bool{"o": true, "output": true, "testbench-out": true, "plot": true,
	"generic-out": true, "keep": true, "workdir": true, "cache": true, "suite": true, "sweep": true, "networks": true}

// FuzzRun runs the command on arbitrary arguments (split at spaces): it never
// panics, exits 0, 1 or 2, and a failure is one line on standard error.
func FuzzRun(f *testing.F) {
	for _, seed := range []string{
		"compare -n 9",
		"stats -t all -n 33 -f csv",
		"gen -t ladner-fischer --param k=2 -n 17 -f text --bit0-left",
		"verify -t han-carlson -n 12 --vectors 64 --seed 3",
		"gen -t sklansky -n 0",
		"stats --from /nonexistent -f json",
		"gen -t x -n 8 --param =",
		"list extra",
		"--help",
		"verify -n -1 --vectors=-2",
		"gen -t sklansky -n 8 -f verilog --module a$1 --testbench --vectors 9 --seed 1",
		"gen -t brent-kung -n 8 --sparse 2 --ling -f json",
		"gen -t kogge-stone -n 8 --valency 4 -f json",
		"gen -t brent-kung -n 5 -f yosys-lcu --module 1a",
		"gen -t kogge-stone -n 6 -f svg --module m",
		"optimize -n 8 --max-delay-ns 1 --start /nonexistent",
		"optimize -n 8 --max-depth 3 --max-delay-ns 1 --stages 5 --no-reset",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		for _, a := range args {
			// No output files from a fuzzer, and no long runs: check runs
			// outside tools and has its own tests.
			if a == "check" {
				t.Skip()
			}
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if strings.HasPrefix(a, "-") && writesFile[name] || bigNumber.MatchString(a) {
				t.Skip()
			}
		}
		status, _, stderr := prefixgen(args...)
		require.Contains(t, []int{0, 1, 2}, status)
		if status != 0 {
			require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			require.True(t, strings.HasSuffix(stderr, "\n"))
		}
		require.NotContains(t, stderr, "goroutine")
		require.Empty(t, doubledPrefix(stderr), "no doubled prefix: %q", stderr)
	})
}
