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

// Tree returns what dir holds, for a test to compare whole: each entry's
// path under dir (slash-separated as the system names it) with its
// content for a file, "/" for a folder and "-> TARGET" for a link; nil
// when dir does not exist.
func Tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		switch {
		case p == dir:
		case d.Type()&fs.ModeSymlink != 0:
			to, err := os.Readlink(p)
			if err != nil {
				return err
			}
			got[rel] = "-> " + to
		case d.IsDir():
			got[rel] = "/"
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			got[rel] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("listing %s: %v", dir, err)
	}
	return got
}
