package cleanup

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRemoveAll(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "half.tmp")
	folder := filepath.Join(dir, "work")
	kept := filepath.Join(dir, "done.tmp")
	require.NoError(t, os.WriteFile(file, []byte("half"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(folder, "sub"), 0o755))
	require.NoError(t, os.WriteFile(kept, []byte("whole"), 0o644))

	dropFile, dropFolder := Add(file), Add(folder)
	Add(kept)() // renamed into place before the signal: dropped
	defer dropFile()
	defer dropFolder()
	assert.Equal(t, []string{file, folder}, Pending())

	RemoveAll()
	assert.NoFileExists(t, file)
	assert.NoDirExists(t, folder)
	assert.FileExists(t, kept)
	assert.Empty(t, Pending())
	dropFile() // dropping twice is harmless
}
