package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeT records what a test reports instead of failing the real one. Its
// Fatalf ends the goroutine, as testing.T's does.
type fakeT struct {
	testing.TB
	name   string
	failed bool
	fatal  bool
	logs   []string
}

func (f *fakeT) Helper()      {}
func (f *fakeT) Name() string { return f.name }
func (f *fakeT) Errorf(format string, args ...any) {
	f.failed = true
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	f.fatal = true
	runtime.Goexit()
}

// check runs Check on a fake test named name and returns it.
func check(name, path string, got []byte) *fakeT {
	f := &fakeT{name: name}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Check(f, path, got)
	}()
	<-done
	return f
}

// withUpdate runs fn as if the test binary had been given -update (on)
// or not, whatever it was given.
func withUpdate(on bool, fn func()) {
	old := *update
	*update = on
	defer func() { *update = old }()
	fn()
}

func TestCheck(t *testing.T) {
	const cmd = "go test ./internal/golden -run '^TestSomething$' -update"
	tests := []struct {
		name    string
		file    *string // what the golden file holds; nil: no file
		got     string
		fails   bool
		fatal   bool
		message []string
	}{
		{name: "equal", file: ptr("a\nb\n"), got: "a\nb\n"},
		{name: "empty", file: ptr(""), got: ""},
		{name: "differs", file: ptr("a\nb\n"), got: "a\nc\n", fails: true,
			message: []string{"x.golden differs from what the test produced", cmd, "-b", "+c"}},
		{name: "one byte more", file: ptr("a\n"), got: "a\n\n", fails: true, message: []string{cmd}},
		{name: "missing", got: "a\n", fails: true, fatal: true,
			message: []string{"x.golden is missing: create it with " + cmd}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.golden")
			if tt.file != nil {
				require.NoError(t, os.WriteFile(path, []byte(*tt.file), 0o644))
			}
			var f *fakeT
			withUpdate(false, func() { f = check("TestSomething/sub", path, []byte(tt.got)) })
			assert.Equal(t, tt.fails, f.failed, "%q", f.logs)
			assert.Equal(t, tt.fatal, f.fatal)
			all := strings.Join(f.logs, "\n")
			for _, m := range tt.message {
				assert.Contains(t, all, m)
			}
			if tt.file != nil {
				data, err := os.ReadFile(path)
				require.NoError(t, err)
				assert.Equal(t, *tt.file, string(data), "without -update the file is only read")
			}
		})
	}
}

func TestCheckUpdate(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "stale.golden")
	require.NoError(t, os.WriteFile(stale, []byte("old\n"), 0o644))
	same := filepath.Join(dir, "same.golden")
	require.NoError(t, os.WriteFile(same, []byte("same\n"), 0o644))
	past := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	require.NoError(t, os.Chtimes(same, past, past))
	fresh := filepath.Join(dir, "new", "folder", "fresh.golden")

	withUpdate(true, func() {
		for path, got := range map[string]string{stale: "new\n", same: "same\n", fresh: "fresh\n"} {
			f := check("TestSomething", path, []byte(got))
			assert.False(t, f.failed, "%s: %q", path, f.logs)
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, got, string(data))
		}
	})
	info, err := os.Stat(same)
	require.NoError(t, err)
	assert.True(t, info.ModTime().Equal(past), "a file that already holds the bytes is not rewritten")

	withUpdate(true, func() {
		blocked := filepath.Join(stale, "under-a-file.golden")
		f := check("TestSomething", blocked, []byte("x"))
		assert.True(t, f.fatal, "a file that cannot be written fails the test")
		assert.Contains(t, strings.Join(f.logs, "\n"), "golden: ")
	})
}

func TestUpdate(t *testing.T) {
	withUpdate(false, func() { assert.False(t, Update()) })
	withUpdate(true, func() { assert.True(t, Update()) })
}

func TestCommand(t *testing.T) {
	assert.Equal(t, "go test ./internal/golden -run '^TestCommand$' -update", Command(t))
	t.Run("sub test", func(t *testing.T) {
		assert.Equal(t, "go test ./internal/golden -run '^TestCommand$' -update", Command(t))
	})
}

func ptr(s string) *string { return &s }

// TestTree lists a folder of a file, a subfolder with a file and a link,
// and gives nil for a folder that is not there.
func TestTree(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("A"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "b.txt"), []byte("B"), 0o644))
	require.NoError(t, os.Symlink("../a.txt", filepath.Join(dir, "sub", "l")))
	assert.Equal(t, map[string]string{
		"a.txt": "A", "sub": "/", filepath.Join("sub", "b.txt"): "B", filepath.Join("sub", "l"): "-> ../a.txt",
	}, Tree(t, dir))
	assert.Nil(t, Tree(t, filepath.Join(dir, "none")))
}

// TestDocRefreshCommand keeps docs/testing.md's command that refreshes the
// golden files runnable: it names exactly the packages whose tests import
// this one, the only ones whose test binaries take -update (go test ./...
// -update stops in every other package: "flag provided but not defined").
func TestDocRefreshCommand(t *testing.T) {
	root := filepath.Join("..", "..")
	var want []string
	require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), "\t\"github.com/prefixgen/prefixgen/internal/golden\"\n") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			pkg := "./" + filepath.ToSlash(rel)
			want = append(want, pkg)
		}
		return nil
	}))
	slices.Sort(want)
	want = slices.Compact(want)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "testing.md"))
	require.NoError(t, err)
	command := "go test " + strings.Join(want, " ") + " -update"
	assert.Contains(t, string(doc), "\n"+command+"\n", "docs/testing.md refreshes the golden files with %s", command)
}
