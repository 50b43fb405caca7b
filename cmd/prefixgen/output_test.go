package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -o writes a symbolic link's target and leaves the link; a FIFO is written
// in place; a directory and the empty name are refused with exit status 2;
// -o - is standard output. Every command that takes -o goes through the
// same path.
func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	_, want, _ := prefixgen("gen", "-t", "sklansky", "-n", "8", "-f", "json")

	status, out, errOut := prefixgen("gen", "-t", "sklansky", "-n", "8", "-f", "json", "-o", "-")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, want, out, "-o - is standard output")

	target := filepath.Join(dir, "target.json")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink("target.json", link))
	status, _, errOut = prefixgen("gen", "-t", "sklansky", "-n", "8", "-f", "json", "-o", link)
	require.Equal(t, 0, status, errOut)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, os.ModeSymlink, fi.Mode().Type(), "the link stays a link")
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, want, string(got), "the link's target is written")

	fifo := filepath.Join(dir, "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	read := make(chan string, 1)
	go func() {
		data, _ := os.ReadFile(fifo)
		read <- string(data)
	}()
	status, _, errOut = prefixgen("stats", "-t", "sklansky", "-n", "8", "-f", "csv", "-o", fifo)
	require.Equal(t, 0, status, errOut)
	_, wantStats, _ := prefixgen("stats", "-t", "sklansky", "-n", "8", "-f", "csv")
	select {
	case s := <-read:
		assert.Equal(t, wantStats, s)
	case <-time.After(10 * time.Second):
		t.Fatal("nothing came through the FIFO")
	}
	fi, err = os.Lstat(fifo)
	require.NoError(t, err)
	assert.Equal(t, os.ModeNamedPipe, fi.Mode().Type(), "the FIFO is not replaced")

	refused := []struct {
		name string
		args []string
		want string
	}{
		{"gen into a directory", []string{"gen", "-t", "sklansky", "-n", "8", "-o", dir}, "prefixgen gen: cannot write " + dir + ": it is a directory: name a file"},
		{"stats empty name", []string{"stats", "-t", "sklansky", "-n", "8", "-o", ""}, "prefixgen stats: -o needs a file name: allowed a path, or - for standard output"},
		{"compare empty name", []string{"compare", "-n", "8", "-o", ""}, "prefixgen compare: -o needs a file name: allowed a path, or - for standard output"},
		{"optimize empty name", []string{"optimize", "-n", "8", "--max-depth", "3", "-o", ""}, "prefixgen optimize: -o needs a file name: allowed a path, or - for standard output"},
		{"explore empty name", []string{"explore", "-n", "8", "--no-optimize", "-o", ""}, "prefixgen explore: -o needs a file name: allowed a path, or - for standard output"},
		{"explore empty plot", []string{"explore", "-n", "8", "--no-optimize", "--plot", ""}, "prefixgen explore: --plot needs a file name ending in .svg or .png"},
		{"explore plot into a directory", []string{"explore", "-n", "8", "--no-optimize", "--plot", filepath.Join(dir, "sub.svg")}, "prefixgen explore: cannot write " + filepath.Join(dir, "sub.svg") + ": it is a directory: name a file"},
		{"report into a directory", []string{"report", "-n", "8", "--no-optimize", "-o", dir}, "prefixgen report: cannot write " + dir + ": it is a directory: name a file"},
		{"cuda emit empty name", []string{"cuda", "emit", "-t", "sklansky", "-o", ""}, "prefixgen cuda emit: -o needs a file name: allowed a path, or - for standard output"},
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub.svg"), 0o755))
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			status, stdout, stderr := prefixgen(tt.args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, stdout)
			assert.Equal(t, tt.want+"\n", stderr)
		})
	}
}

// An empty string given to a flag is refused, never silently taken for the
// flag's default.
func TestEmptyFlagValue(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--module", ""}, "prefixgen gen: --module is empty: allowed a Verilog identifier, or leave the flag out for the default name (see prefixgen gen --help)"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", "yosys-lcu", "--module="}, "prefixgen gen: --module is empty: allowed a Verilog identifier, or leave the flag out for the default name (see prefixgen gen --help)"},
		{[]string{"cuda", "emit", "-t", "sklansky", "--namespace", ""}, "prefixgen cuda emit: --namespace is empty: allowed a C++ identifier, or leave the flag out for the default name (see prefixgen cuda emit --help)"},
		{[]string{"cuda", "emit", "-t", "sklansky", "--type", ""}, "prefixgen cuda emit: --type is empty: allowed a value, or leave the flag out for its default (see prefixgen cuda emit --help)"},
		{[]string{"gen", "-t", "", "-n", "8"}, "prefixgen gen: -t/--topology is empty: allowed a topology name, as prefixgen list gives them (see prefixgen gen --help)"},
		{[]string{"stats", "--from", ""}, "prefixgen stats: --from is empty: allowed the path of a prefixgen.network/v1 or prefixgen.adder/v1 file (see prefixgen stats --help)"},
		{[]string{"gen", "-t", "sklansky", "-n", "8", "-f", ""}, "prefixgen gen: -f/--format is empty: allowed a value, or leave the flag out for its default (see prefixgen gen --help)"},
	}
	for _, tt := range tests {
		t.Run(tt.args[len(tt.args)-2], func(t *testing.T) {
			status, stdout, stderr := prefixgen(tt.args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, stdout)
			assert.Equal(t, tt.want+"\n", stderr)
		})
	}
}
