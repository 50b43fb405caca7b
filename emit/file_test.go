package emit_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, emit.WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "first\n")
		return err
	}))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "first\n", string(got))

	// A failure half way leaves the old file untouched and no temporary.
	boom := errors.New("boom")
	err = emit.WriteFile(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	require.ErrorIs(t, err, boom)
	got, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "first\n", string(got))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)

	// A folder that does not exist: one error, nothing written.
	err = emit.WriteFile(filepath.Join(dir, "missing", "x.json"), func(io.Writer) error { return nil })
	require.EqualError(t, err, "emit: cannot write "+filepath.Join(dir, "missing", "x.json")+": no such file or directory")
	pe, ok := errors.AsType[*emit.PathError](err)
	require.True(t, ok, "the file's own failure is a *PathError")
	assert.Equal(t, filepath.Join(dir, "missing", "x.json"), pe.Path)
}
