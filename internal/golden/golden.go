package golden

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

var update = flag.Bool("update", false, "rewrite the golden files (testdata/*.golden, docs figures) with what the tests produce")

// Update reports whether the test binary was given -update, that is,
// whether Check rewrites the golden files instead of only reading them.
func Update() bool { return *update }

// Check requires the file at path, relative to the test's package folder,
// to hold exactly got. Under -update it first writes got to path (creating
// its folder), unless the file already holds it. A mismatch or a missing
// file fails the test, naming the file and the go test command that
// refreshes it; a mismatch also shows the difference.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := write(path, got); err != nil {
			t.Fatalf("golden: %v", err)
			return
		}
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("golden: %s is missing: create it with %s", path, Command(t))
		return
	}
	if err != nil {
		t.Fatalf("golden: %v", err)
		return
	}
	if !bytes.Equal(want, got) {
		assert.Equal(t, string(want), string(got), "golden: %s differs from what the test produced; if the change is meant, refresh it with %s and review git diff", path, Command(t))
	}
}

// write writes got to path unless the file already holds it, so that a
// refresh leaves unchanged files untouched.
func write(path string, got []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, got) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, got, 0o644)
}

// Command returns the go test command that rewrites the golden files of
// t's top-level test: go test ./PKG -run '^TestName$' -update, where PKG is
// the test's package folder relative to the module's root (the folder
// holding go.mod, found from the working folder, which go test sets to the
// package's).
func Command(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return "go test " + pkgDir() + " -run '^" + name + "$' -update"
}

// pkgDir returns ./ and the working folder's path relative to the module's
// root, or . when no go.mod is found above it.
func pkgDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "."
		}
		dir = parent
	}
}
