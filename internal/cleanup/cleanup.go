package cleanup

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

var (
	mu      sync.Mutex
	pending = map[int]entry{}
	next    int
)

// entry is a registered path; contents says that RemoveAll empties the
// folder path and keeps it.
type entry struct {
	path     string
	contents bool
}

// Add registers path, a temporary file or folder, for RemoveAll, and
// returns the function that drops it again (it does not remove path).
// Make a path and register it in one step with Track, so that no signal
// falls between the two.
func Add(path string) (drop func()) {
	mu.Lock()
	defer mu.Unlock()
	return add(path)
}

func add(path string) func() {
	return addEntry(entry{path: path})
}

// AddContents registers dir, a folder that was there before the process
// made anything in it, for RemoveAll to empty and keep, and returns the
// function that drops it again.
func AddContents(dir string) (drop func()) {
	mu.Lock()
	defer mu.Unlock()
	return addEntry(entry{path: dir, contents: true})
}

func addEntry(e entry) func() {
	id := next
	next++
	pending[id] = e
	return func() {
		mu.Lock()
		defer mu.Unlock()
		delete(pending, id)
	}
}

// Track runs make, which makes a temporary file or folder and returns its
// path (os.CreateTemp, os.MkdirTemp), and registers the path, with
// RemoveAll held off until both are done. It returns make's path and error
// and the function that drops the path again; a failed make registers
// nothing.
func Track[T any](make func() (T, string, error)) (T, func(), error) {
	mu.Lock()
	defer mu.Unlock()
	v, path, err := make()
	if err != nil {
		return v, func() {}, err
	}
	return v, add(path), nil
}

// Pending returns the registered paths, sorted.
func Pending() []string {
	mu.Lock()
	defer mu.Unlock()
	var paths []string
	for _, e := range pending {
		paths = append(paths, e.path)
	}
	slices.Sort(paths)
	return paths
}

// RemoveAll removes every registered path, with whatever a folder holds.
// It is for a process about to exit: it keeps the registry locked, so that
// Add, Track and the functions they return block from then on and nothing
// new is made behind it.
func RemoveAll() {
	mu.Lock()
	removeLocked()
}

// Hold runs f with RemoveAll held off, and returns f's error: a signal
// that comes while f runs waits until f is done, so that what f moves into
// place is moved whole or not at all. f must not call Add, Track,
// CreateTemp or MkdirTemp, nor the functions they return.
func Hold(f func() error) error {
	mu.Lock()
	defer mu.Unlock()
	return f()
}

// removeLocked removes and drops every registered path; mu is held.
func removeLocked() {
	for id, e := range pending {
		if !e.contents {
			os.RemoveAll(e.path)
		} else if entries, err := os.ReadDir(e.path); err == nil {
			for _, x := range entries {
				os.RemoveAll(filepath.Join(e.path, x.Name()))
			}
		}
		delete(pending, id)
	}
}

// TempDir is os.TempDir made absolute: a relative TMPDIR names a folder
// from where prefixgen started, and the tools, which run in folders of
// their own, are handed its paths. Where the current folder is gone, it is
// os.TempDir as it is.
func TempDir() string {
	d := os.TempDir()
	if abs, err := filepath.Abs(d); err == nil {
		return abs
	}
	return d
}

// orTempDir returns dir, or TempDir where dir is "".
func orTempDir(dir string) string {
	if dir == "" {
		return TempDir()
	}
	return dir
}

// tempError names TMPDIR as the obstacle where what failed was made in it
// (what is "file" or "folder"), and says what is allowed.
func tempError(dir, what string, err error) error {
	if err == nil || dir != TempDir() {
		return err
	}
	reason := err
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		reason = pe.Err
	}
	return fmt.Errorf("cannot make a temporary %s in %s (TMPDIR): %w: allowed TMPDIR naming a folder prefixgen can write in, or no TMPDIR for /tmp", what, dir, reason)
}

// CreateTemp is os.CreateTemp tracked: the file is registered as it is
// made. A dir of "" is TempDir. Unlike os.CreateTemp's, the file gets mode
// 0666 less the umask, as the shell's > gives a new file: each becomes an
// output under another name.
func CreateTemp(dir, pattern string) (*os.File, func(), error) {
	return Track(func() (*os.File, string, error) {
		f, err := createTemp(orTempDir(dir), pattern)
		if err != nil {
			return nil, "", tempError(orTempDir(dir), "file", err)
		}
		return f, f.Name(), nil
	})
}

// createTemp is os.CreateTemp with mode 0666, which the umask reduces: a
// name of pattern, its last * replaced by a random number (appended where
// there is none), made new in dir.
func createTemp(dir, pattern string) (*os.File, error) {
	if strings.ContainsRune(pattern, os.PathSeparator) {
		return nil, &os.PathError{Op: "createtemp", Path: pattern, Err: errors.New("pattern contains path separator")}
	}
	prefix, suffix := pattern, ""
	if i := strings.LastIndexByte(pattern, '*'); i >= 0 {
		prefix, suffix = pattern[:i], pattern[i+1:]
	}
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if os.IsExist(err) && try < 10000 {
			continue
		}
		return f, err
	}
}

// MkdirTemp is os.MkdirTemp tracked: the folder is registered as it is
// made, and the function returned removes it and only then drops it from
// the register, so that a signal that comes while it is being removed
// still finds it to remove (dropping it first would leave the rest of it
// behind when RemoveAll's caller exits mid-removal). A dir of "" is
// TempDir.
func MkdirTemp(dir, pattern string) (string, func(), error) {
	d, drop, err := Track(func() (string, string, error) {
		d, err := os.MkdirTemp(orTempDir(dir), pattern)
		return d, d, tempError(orTempDir(dir), "folder", err)
	})
	if err != nil {
		return d, drop, err
	}
	return d, func() {
		removeAll(d)
		drop()
	}, nil
}

// removeAll is os.RemoveAll; a test watches the registry through it.
var removeAll = os.RemoveAll
