package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A run refused for one of its outputs touches none of the others: every
// output path is checked before the work, and every file written at the
// end (issue 37).
func TestNoFileTouchedByFailingRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name string
		args func(plot string) []string
	}{
		{"-o in a missing folder", func(plot string) []string {
			return []string{"explore", "-n", "8", "--no-optimize", "--plot", plot, "-o", filepath.Join(dir, "nodir", "t.txt")}
		}},
		{"-o a directory", func(plot string) []string {
			return []string{"explore", "-n", "8", "--no-optimize", "--plot", plot, "-o", dir}
		}},
		{"--plot in a missing folder", func(string) []string {
			return []string{"explore", "-n", "8", "--no-optimize", "--plot", filepath.Join(dir, "nodir", "p.svg"), "-o", filepath.Join(dir, "keep.txt")}
		}},
	}
	for i, tt := range tests {
		plot := filepath.Join(dir, "plot"+string(rune('a'+i))+".svg")
		keep := filepath.Join(dir, "keep.txt")
		require.NoError(t, os.WriteFile(plot, []byte("KEEP\n"), 0o644))
		require.NoError(t, os.WriteFile(keep, []byte("KEEP\n"), 0o644))
		status, out, errOut := prefixgen(tt.args(plot)...)
		assert.Equal(t, 2, status, tt.name)
		assert.Empty(t, out, tt.name)
		assert.Regexp(t, `^prefixgen explore: [^\n]*cannot write [^\n]*\n$`, errOut, tt.name)
		for _, f := range []string{plot, keep} {
			got, err := os.ReadFile(f)
			require.NoError(t, err)
			assert.Equal(t, "KEEP\n", string(got), "%s: %s touched", tt.name, f)
		}
	}
}

// A bad -o is refused before the flow makes anything in --workdir.
func TestBadOutputBeforeWorkdir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	for _, args := range [][]string{
		{"synth", "-t", "ripple", "-n", "4", "--workdir", work, "-o", filepath.Join(dir, "nodir", "t.txt")},
		{"optimize", "-n", "8", "--max-delay-ns", "9", "--flow-steps", "0", "--workdir", work, "-o", dir},
		{"explore", "-n", "4", "--synth", "--no-optimize", "--workdir", work, "-o", dir},
	} {
		status, out, errOut := prefixgen(args...)
		assert.Equal(t, 2, status, "%v: %s", args, errOut)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "cannot write")
		assert.NoDirExists(t, work, "%v", args)
	}
}

// --progress writes progress lines to standard error, not standard output,
// even where it is not a terminal; --quiet and the default (not a
// terminal) write none; standard output is the same bytes in every case.
func TestProgressFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		line string
	}{
		{[]string{"verify", "-t", "all", "-n", "16", "--vectors", "1000"}, `prefixgen verify: \d+/\d+ vectors`},
		{[]string{"optimize", "-n", "8", "--max-depth", "3"}, `prefixgen optimize: \d+/\d+ searches and chains`},
		{[]string{"explore", "-n", "8"}, `prefixgen explore: \d+/\d+ optimizer runs`},
		{[]string{"report", "-n", "4"}, `prefixgen report: \d+/\d+ optimizer runs`},
		{[]string{"compare", "-n", "8,16"}, `prefixgen compare: \d+/2 widths`},
		{[]string{"cuda", "bench", "--help"}, ""},
	}
	for _, tt := range tests {
		if tt.line == "" {
			_, out, _ := prefixgen(tt.args...)
			assert.Contains(t, out, "--progress")
			assert.Contains(t, out, "--quiet")
			continue
		}
		status, plain, errPlain := prefixgen(tt.args...)
		require.Equal(t, 0, status, errPlain)
		assert.Empty(t, errPlain, "not a terminal: no progress")
		status, forced, errForced := prefixgen(append(tt.args, "--progress")...)
		require.Equal(t, 0, status, errForced)
		assert.Equal(t, plain, forced, "standard output unchanged")
		assert.Regexp(t, `^(`+tt.line+`[^\n]*\n)+$`, errForced)
		assert.Regexp(t, `done in [^\n]*\n$`, errForced)
		assert.NotContains(t, forced, "prefixgen "+tt.args[0]+":")
		status, quiet, errQuiet := prefixgen(append(tt.args, "--quiet")...)
		require.Equal(t, 0, status, errQuiet)
		assert.Equal(t, plain, quiet)
		assert.Empty(t, errQuiet)
		status, _, errBoth := prefixgen(append(tt.args, "--quiet", "--progress")...)
		assert.Equal(t, 2, status)
		assert.Contains(t, errBoth, "--progress and --quiet both given")
	}
	for _, cmd := range []string{"check", "synth", "explore", "report", "optimize", "verify", "compare", "map"} {
		_, out, _ := prefixgen(cmd, "--help")
		assert.Contains(t, out, "--progress", cmd)
		assert.Contains(t, out, "--quiet", cmd)
	}
}
