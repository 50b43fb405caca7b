package stage

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/golden"
)

// write makes the files of files under dir: a path ending in / is a
// folder, content starting "-> " a link.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		p = filepath.Join(dir, p)
		switch {
		case content == "/":
			require.NoError(t, os.MkdirAll(p, 0o755))
		case strings.HasPrefix(content, "-> "):
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.Symlink(strings.TrimPrefix(content, "-> "), p))
		default:
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		}
	}
}

// staleOrders names the order-K folders of a design's folder stale.
func staleOrders(rel string) bool {
	return strings.Contains(rel, "/") && strings.HasPrefix(filepath.Base(rel), "order-")
}

// TestCommit: what a run wrote reaches the target folder whole, merged
// into what was there (a user's files stay, the run's own replace the
// earlier run's, stale ones go); an entry in the way, or a move that
// fails halfway, leaves the target as it was and makes nothing; nothing
// is left beside the target.
func TestCommit(t *testing.T) {
	run := map[string]string{"a": "/", "a/design.v": "new", "a/lib": "-> /x.lib", "a/order-1": "/", "a/order-1/m.v": "one", "b": "/", "b/design.v": "b"}
	tests := []struct {
		name   string
		target string // under the test's folder
		before map[string]string
		fail   int // the rename that fails, counting from 1; 0 none
		exdev  bool
		want   map[string]string // nil: as before
		err    string
	}{
		{name: "made", target: "x/y/work", want: run},
		{name: "merged", target: "work",
			before: map[string]string{"work/mine.txt": "mine", "work/a/design.v": "old", "work/a/notes": "kept", "work/a/order-1/m.v": "old one", "work/a/order-2/m.v": "two", "work/c/design.v": "c"},
			want:   map[string]string{"mine.txt": "mine", "a": "/", "a/design.v": "new", "a/lib": "-> /x.lib", "a/notes": "kept", "a/order-1": "/", "a/order-1/m.v": "one", "b": "/", "b/design.v": "b", "c": "/", "c/design.v": "c"}},
		{name: "copied between file systems", target: "x/work", exdev: true, want: run},
		{name: "a file where a folder goes", target: "work", before: map[string]string{"work/b": "mine"}, err: `work/b is in the way: not a folder, where a folder goes$`},
		{name: "a folder where a file goes", target: "work", before: map[string]string{"work/a/lib/x": "mine", "work/a/order-2/m.v": "two"}, err: `work/a/lib is in the way: a folder, where a file goes$`},
		{name: "a move fails into a new folder", target: "x/work", fail: 2, err: "no room"},
		{name: "a move fails over an earlier run", target: "work", before: map[string]string{"work/a/design.v": "old", "work/a/order-2/m.v": "two", "work/b/design.v": "old b"}, fail: 7, err: "no room"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			write(t, base, tt.before)
			before := golden.Tree(t, base)
			target := filepath.Join(base, tt.target)
			f, err := New(target, "")
			require.NoError(t, err)
			defer f.Remove()
			assert.Equal(t, base, filepath.Dir(f.Dir), "beside the target, in the deepest folder that exists")
			write(t, f.Dir, run)
			calls := 0
			rename = func(from, to string) error {
				calls++
				if calls == tt.fail {
					return errors.New("no room")
				}
				if tt.exdev && strings.HasPrefix(from, f.Dir) {
					return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EXDEV}
				}
				return os.Rename(from, to)
			}
			defer func() { rename = os.Rename }()
			err = f.Commit(staleOrders)
			f.Remove()
			if tt.err != "" {
				require.Error(t, err)
				assert.Regexp(t, tt.err, err.Error())
				assert.Equal(t, before, golden.Tree(t, base), "the target as it was")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, golden.Tree(t, target))
			left, err := os.ReadDir(base)
			require.NoError(t, err)
			require.Len(t, left, 1, "nothing beside the target")
			assert.Equal(t, strings.Split(tt.target, "/")[0], left[0].Name())
			assert.Empty(t, cleanup.Pending())
		})
	}
}

// TestNewThroughLink: a target that is a link to a folder elsewhere is
// staged beside the folder it names, where a rename reaches.
func TestNewThroughLink(t *testing.T) {
	base := t.TempDir()
	write(t, base, map[string]string{"real/work": "/", "link": "-> real/work"})
	f, err := New(filepath.Join(base, "link"), "")
	require.NoError(t, err)
	defer f.Remove()
	real, err := filepath.EvalSymlinks(filepath.Join(base, "real"))
	require.NoError(t, err)
	assert.Equal(t, real, filepath.Dir(f.Dir))
	write(t, f.Dir, map[string]string{"a/b": "x"})
	require.NoError(t, f.Commit(nil))
	assert.Equal(t, map[string]string{"a": "/", "a/b": "x"}, golden.Tree(t, filepath.Join(base, "real", "work")))
}

// TestCheck: a target that is a folder, or can be made in one, passes;
// one under a file does not, naming the file, and Check makes nothing.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	assert.NoError(t, Check(dir))
	assert.NoError(t, Check(filepath.Join(dir, "a", "b")))
	assert.NoDirExists(t, filepath.Join(dir, "a"))
	for _, bad := range []string{file, filepath.Join(file, "sub")} {
		err := Check(bad)
		require.Error(t, err)
		assert.ErrorIs(t, err, syscall.ENOTDIR)
		assert.Contains(t, err.Error(), file)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no probe left")
}

// TestCheckLinks: a link to nothing and a link loop are there, and lead to
// no folder: Check refuses them, where it had taken them for paths to
// make, and Commit then failed after the work ("file exists").
func TestCheckLinks(t *testing.T) {
	dir := t.TempDir()
	dangling, loop := filepath.Join(dir, "dangling"), filepath.Join(dir, "loop")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nothing"), dangling))
	require.NoError(t, os.Symlink(loop, loop))
	for _, bad := range []string{dangling, loop, filepath.Join(loop, "sub")} {
		err := Check(bad)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "link", bad)
	}
	assert.ErrorIs(t, Check(loop), syscall.ELOOP)
}
