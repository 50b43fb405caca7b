//go:build unix

package emit_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
)

// A file root replaces keeps its owner, group and permissions, so that its
// owner can still read it.
func TestWriteFileKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root may give a file another owner; TestWriteFileReadOnlyFile covers the others")
	}
	path := filepath.Join(t.TempDir(), "theirs.txt")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o640))
	require.NoError(t, os.Chown(path, 65534, 65534))
	require.NoError(t, emit.WriteFile(path, writeString("new\n")))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	st := fi.Sys().(*syscall.Stat_t)
	assert.Equal(t, uint32(65534), st.Uid)
	assert.Equal(t, uint32(65534), st.Gid)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm())
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(got))
}
