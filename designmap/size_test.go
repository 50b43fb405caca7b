package designmap_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/designmap"
)

// TestSize counts the bytes of the regular files named, and nothing for a
// file that is missing or a FIFO (whose size is unknown before it is
// read).
func TestSize(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.v"), filepath.Join(dir, "b.v")
	require.NoError(t, os.WriteFile(a, make([]byte, 100), 0o644))
	require.NoError(t, os.WriteFile(b, make([]byte, 23), 0o644))
	fifo := filepath.Join(dir, "fifo.v")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	for _, tc := range []struct {
		name  string
		files []string
		want  int64
	}{
		{"none", nil, 0},
		{"one", []string{a}, 100},
		{"two", []string{a, b}, 123},
		{"missing", []string{a, filepath.Join(dir, "none.v")}, 100},
		{"fifo", []string{fifo, b}, 23},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, designmap.Size(tc.files))
		})
	}
}
