package cleanup

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// removeForTest is RemoveAll without keeping the registry locked, so that
// the test can go on.
func removeForTest() {
	mu.Lock()
	defer mu.Unlock()
	removeLocked()
}

func TestRemove(t *testing.T) {
	dir := t.TempDir()
	file, dropFile, err := CreateTemp(dir, ".out.*.tmp")
	require.NoError(t, err)
	_, err = file.WriteString("half")
	require.NoError(t, err)
	require.NoError(t, file.Close())
	folder, dropFolder, err := MkdirTemp(dir, "work-")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(folder, "sub"), 0o755))
	kept := filepath.Join(dir, "done.tmp")
	require.NoError(t, os.WriteFile(kept, []byte("whole"), 0o644))
	Add(kept)() // renamed into place before the signal: dropped
	defer dropFile()
	defer dropFolder()
	assert.ElementsMatch(t, []string{file.Name(), folder}, Pending())

	_, drop, err := Track(func() (int, string, error) { return 0, filepath.Join(dir, "never"), errors.New("no room") })
	assert.EqualError(t, err, "no room")
	drop()
	assert.Len(t, Pending(), 2, "a failed make registers nothing")

	removeForTest()
	assert.NoFileExists(t, file.Name())
	assert.NoDirExists(t, folder)
	assert.FileExists(t, kept)
	assert.Empty(t, Pending())
	dropFile() // dropping what is gone is harmless
}

// TestMkdirTempRemove: the function MkdirTemp returns removes the folder
// while it is still registered, so that a signal during the removal still
// removes the rest, and drops it once it is gone.
func TestMkdirTempRemove(t *testing.T) {
	dir := t.TempDir()
	folder, remove, err := MkdirTemp(dir, "work-")
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(folder, "sub"), 0o755))
	var during []string
	removeAll = func(path string) error {
		during = Pending()
		return os.RemoveAll(path)
	}
	defer func() { removeAll = os.RemoveAll }()
	remove()
	assert.Equal(t, []string{folder}, during, "registered while it is removed")
	assert.NoDirExists(t, folder)
	assert.Empty(t, Pending())

	_, _, err = MkdirTemp(filepath.Join(dir, "missing"), "x-")
	assert.Error(t, err)
	assert.Empty(t, Pending(), "a failed make registers nothing")
}

// TestHold: a RemoveAll that comes while Hold's function runs waits until
// it is done, and Hold returns the function's error.
func TestHold(t *testing.T) {
	folder, remove, err := MkdirTemp(t.TempDir(), "work-")
	require.NoError(t, err)
	defer remove()
	removed := make(chan struct{})
	err = Hold(func() error {
		go func() {
			removeForTest()
			close(removed)
		}()
		time.Sleep(50 * time.Millisecond)
		assert.DirExists(t, folder, "not removed while the function runs")
		return errors.New("moved half")
	})
	assert.EqualError(t, err, "moved half")
	<-removed
	assert.NoDirExists(t, folder, "removed once it is done")
}

// TestAddContents: a folder that was there, registered by its contents,
// is emptied and kept; dropped, it is left alone.
func TestAddContents(t *testing.T) {
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	require.NoError(t, os.Mkdir(work, 0o755))
	drop := AddContents(work)
	require.NoError(t, os.MkdirAll(filepath.Join(work, "synth-01"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(work, "prepare.ys"), []byte("x"), 0o644))
	assert.Equal(t, []string{work}, Pending())
	removeForTest()
	assert.DirExists(t, work)
	left, err := os.ReadDir(work)
	require.NoError(t, err)
	assert.Empty(t, left)
	drop()

	kept := filepath.Join(dir, "kept")
	require.NoError(t, os.Mkdir(kept, 0o755))
	AddContents(kept)()
	require.NoError(t, os.WriteFile(filepath.Join(kept, "a"), []byte("x"), 0o644))
	removeForTest()
	assert.FileExists(t, filepath.Join(kept, "a"))
}

// TestRelativeTMPDIR: a relative TMPDIR gives absolute temporary paths, as
// the tools that run in folders of their own need: they were handed paths
// that pointed nowhere from there.
func TestRelativeTMPDIR(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.Mkdir("rel", 0o755))
	t.Setenv("TMPDIR", "rel")
	assert.Equal(t, filepath.Join(dir, "rel"), TempDir())
	d, remove, err := MkdirTemp("", "x-")
	require.NoError(t, err)
	defer remove()
	assert.True(t, filepath.IsAbs(d), d)
	assert.Equal(t, filepath.Join(dir, "rel"), filepath.Dir(d))
	f, drop, err := CreateTemp("", "y-")
	require.NoError(t, err)
	defer drop()
	f.Close()
	assert.True(t, filepath.IsAbs(f.Name()), f.Name())
	os.Remove(f.Name())
}

// TestUnusableTMPDIR: a TMPDIR where no folder can be made is named as the
// obstacle, with what is allowed, where the error was the system call's.
func TestUnusableTMPDIR(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, tmp := range []string{filepath.Join(dir, "none"), file} {
		t.Setenv("TMPDIR", tmp)
		_, _, err := MkdirTemp("", "x-")
		require.Error(t, err)
		assert.Regexp(t, `^cannot make a temporary folder in `+tmp+` \(TMPDIR\): .*: allowed TMPDIR naming a folder prefixgen can write in, or no TMPDIR for /tmp$`, err.Error())
		_, _, err = MkdirTemp(TempDir(), "x-")
		assert.ErrorContains(t, err, "(TMPDIR)", "the folder given is TMPDIR's")
		_, _, err = CreateTemp("", "y-")
		assert.ErrorContains(t, err, "cannot make a temporary file in "+tmp+" (TMPDIR): ")
	}
}
