package emit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/prefixgen/prefixgen/internal/cleanup"
)

// PathError is the error of WriteFile when the file itself cannot be
// written: a folder that does not exist, no permission, a full disk, a
// directory or an empty name given as the file.
type PathError struct {
	Path string
	Err  error
}

// Error returns "emit: cannot write PATH: " and the reason.
func (e *PathError) Error() string {
	path := e.Path
	if path == "" {
		path = `""`
	}
	return fmt.Sprintf("emit: cannot write %s: %v", path, e.Err)
}

// Unwrap returns the reason.
func (e *PathError) Unwrap() error { return e.Err }

// Reasons of a *PathError that WriteFile finds itself.
var (
	// ErrEmptyName is the reason when the path is empty.
	ErrEmptyName = errors.New("the file name is empty")
	// ErrIsDirectory is the reason when the path names a directory.
	ErrIsDirectory = errors.New("it is a directory: name a file")
	// ErrLinkLoop is the reason when symbolic links lead round in a loop or
	// too deep.
	ErrLinkLoop = errors.New("too many levels of symbolic links")
	// ErrNotOpen is the reason for a path such as /dev/fd/9 that names a
	// descriptor this process has not open.
	ErrNotOpen = errors.New("not an open file descriptor: allowed /dev/fd/N of a descriptor the shell opened, as 3>file")
)

// folderError is the reason of a *PathError when the file's folder refuses
// the temporary file: it says why the folder matters, and unwraps to the
// system's reason.
type folderError struct {
	dir string
	err error
}

func (e *folderError) Error() string {
	return fmt.Sprintf("its folder %s is not writable: the file is written whole through a temporary file beside it", e.dir)
}

func (e *folderError) Unwrap() error { return e.err }

// maxLinks is the most symbolic links WriteFile follows, as Linux's
// MAXSYMLINKS.
const maxLinks = 40

// maxName is the longest file name most file systems take, in bytes.
const maxName = 255

// WriteFile writes the file at path through fn, as a user of a shell
// expects of "> path", except that a regular file is written whole or not
// at all:
//
//   - A regular file, or a path where nothing is yet: fn writes into a
//     temporary file in the same folder, which replaces the file only once
//     fn and every write have succeeded. On failure no file is left behind
//     and an existing file is untouched. An existing file keeps its
//     permissions, and its owner and group where this process may set them
//     (as root); a new one gets 0666 less the umask, as the shell's > gives
//     it. An existing file this process may not
//     write is refused, as the shell refuses it. Because the file is
//     replaced, its folder must be writable, and another hard link to it
//     keeps the old contents.
//   - A symbolic link: the link stays, and its final target is written as
//     above, beside the target. A dangling link creates its target, where
//     the target's folder exists.
//   - A device, a FIFO or a socket: opened for writing and written directly
//     (O_WRONLY|O_TRUNC), once fn has succeeded, so a failing fn writes
//     nothing.
//   - A directory, or the empty name: refused.
//
// An error of fn is returned as it is; one of the file is a *PathError that
// names path, never the temporary file.
func WriteFile(path string, fn func(io.Writer) error) error {
	s, err := stage(path, fn)
	if err != nil {
		return err
	}
	defer s.abort()
	return s.commit()
}

// File is one file of WriteFiles: its path, and the function that writes
// it.
type File struct {
	Path  string
	Write func(io.Writer) error
}

// WriteFiles writes several files as WriteFile writes one, all of them or
// none: every file is written beside its place (a regular file into a
// temporary file, a device or FIFO into memory) before any takes its place,
// so that an error of one, or of its writing function, leaves every file
// untouched; a path CheckWritable refuses is refused before any is
// written. Only a rename that fails after others succeeded, which a
// folder that is writable does not do, could leave some in place.
func WriteFiles(files ...File) error {
	var ready []staged
	defer func() {
		for _, s := range ready {
			s.abort()
		}
	}()
	for _, f := range files {
		if err := CheckWritable(f.Path); err != nil {
			return err // before any file is written, even beside its place
		}
	}
	for _, f := range files {
		s, err := stage(f.Path, f.Write)
		if err != nil {
			return err
		}
		ready = append(ready, s)
	}
	for _, s := range ready {
		if err := s.commit(); err != nil {
			return err
		}
	}
	return nil
}

// staged is a file written but not yet in its place: commit puts it there,
// and abort, called after commit or instead of it, removes what commit did
// not use.
type staged struct {
	commit func() error
	abort  func()
}

// stage writes the file at path through fn, ready to take its place, as
// WriteFile does.
func stage(path string, fn func(io.Writer) error) (staged, error) {
	if path == "" {
		return staged{}, &PathError{path, ErrEmptyName}
	}
	if fd, ok := descriptor(path); ok {
		return stageDescriptor(path, fd, fn)
	}
	target, err := resolve(path)
	if err != nil {
		return staged{}, &PathError{path, err}
	}
	fi, err := os.Stat(target)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return staged{}, &PathError{path, reason(err)}
	case err == nil && fi.IsDir():
		return staged{}, &PathError{path, ErrIsDirectory}
	case err == nil && !fi.Mode().IsRegular():
		return stageDirect(path, target, fn)
	}
	if err == nil {
		// The shell refuses a file it may not write; renaming over it
		// would not ask.
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return staged{}, &PathError{path, reason(err)}
		}
		f.Close()
	}
	return stageAtomic(path, target, fi, fn)
}

// CheckWritable reports, without writing anything, whether WriteFile could
// write path now: a *PathError where the name is empty, names a directory,
// lies in a folder that does not exist or cannot take the temporary file,
// or names a file this process may not write. A command checks its outputs
// with it before its work starts, so that a run refused for one output
// leaves every other untouched.
func CheckWritable(path string) error {
	if path == "" {
		return &PathError{path, ErrEmptyName}
	}
	if fd, ok := descriptor(path); ok {
		if _, err := openDescriptor(fd, path).Stat(); err != nil {
			return &PathError{path, ErrNotOpen}
		}
		return nil
	}
	target, err := resolve(path)
	if err != nil {
		return &PathError{path, err}
	}
	fi, err := os.Stat(target)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return &PathError{path, reason(err)}
	case err == nil && fi.IsDir():
		return &PathError{path, ErrIsDirectory}
	case err == nil && !fi.Mode().IsRegular():
		return nil // a device or FIFO, opened at the end
	case err == nil:
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return &PathError{path, reason(err)}
		}
		f.Close()
	}
	dir := filepath.Dir(target)
	st, err := os.Stat(dir)
	if err != nil {
		return &PathError{path, reason(err)}
	}
	if !st.IsDir() {
		return &PathError{path, fmt.Errorf("%s is not a directory", dir)}
	}
	// The folder must take the temporary file WriteFile writes first.
	tmp, err := os.CreateTemp(dir, ".prefixgen-*.tmp")
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return &PathError{path, &folderError{dir, reason(err)}}
		}
		return &PathError{path, reason(err)}
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// SamePath reports whether the paths a and b name one file, through
// symbolic links: the same existing file, or the same path where nothing
// is yet. Two commands' outputs that SamePath joins would overwrite each
// other.
func SamePath(a, b string) bool {
	ta, errA := resolve(a)
	tb, errB := resolve(b)
	if errA != nil || errB != nil {
		return false
	}
	fa, errA := os.Stat(ta)
	fb, errB := os.Stat(tb)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := realFolder(ta)
	absB, errB := realFolder(tb)
	return errA == nil && errB == nil && absA == absB
}

// realFolder returns path absolute, the links of its folders resolved as
// far as they are there: the one name of a file that is not there yet.
func realFolder(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir, rest := filepath.Dir(abs), filepath.Base(abs)
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(real, rest), nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return abs, nil
		}
		dir, rest = up, filepath.Join(filepath.Base(dir), rest)
	}
}

// InFolder reports whether path names dir itself or a file under it,
// through symbolic links as SamePath: a file a command writes there would
// meet what it writes into dir.
func InFolder(path, dir string) bool {
	p, errP := resolve(path)
	d, errD := resolve(dir)
	if errP != nil || errD != nil {
		return false
	}
	if p, errP = realFolder(p); errP != nil {
		return false
	}
	// Absolute first: a relative folder's real path is relative too, and
	// no path is then under it.
	if abs, err := filepath.Abs(d); err == nil {
		d = abs
	}
	if real, err := filepath.EvalSymlinks(d); err == nil {
		d = real
	} else if d, errD = realFolder(d); errD != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// ShellWord returns s as one word of a POSIX shell command line: as it is
// when it holds only letters, digits and _ . / , = : + % @ -, otherwise in
// single quotes (a single quote inside is closed, escaped and reopened),
// so that a command printed for a user can be pasted back into a shell.
func ShellWord(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./,=:+%@-", r)) {
			plain = false
			break
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// linkTarget returns the path of dest, the target of the symbolic link at
// path: a relative target is read from the link's real folder, as the
// system reads it; joined to the folder's name as given, a .. in it
// climbs from a link on the way instead (L/f to ../t.txt, L a link to
// a/b, is a/t.txt, not t.txt).
func linkTarget(path, dest string) string {
	if filepath.IsAbs(dest) {
		return dest
	}
	dir := filepath.Dir(path)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, dest)
}

// resolve follows path through symbolic links to the file they finally
// name, which need not exist.
func resolve(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode().Type() != fs.ModeSymlink {
			return path, nil // a missing file or a dangling link's target
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", reason(err)
		}
		path = linkTarget(path, dest)
	}
	return "", ErrLinkLoop
}

// stageAtomic writes target through a temporary file beside it, which its
// commit renames into place; old is the file it replaces, or nil. Errors
// name path, the name the user gave.
func stageAtomic(path, target string, old fs.FileInfo, fn func(io.Writer) error) (staged, error) {
	dir, base := filepath.Dir(target), filepath.Base(target)
	pattern := "." + base + ".*.tmp"
	if len(pattern)+10 > maxName {
		// The name is near the longest a file may have: the temporary
		// one cannot carry it.
		pattern = ".prefixgen-*.tmp"
	}
	tmp, drop, err := cleanup.CreateTemp(dir, pattern)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return staged{}, &PathError{path, &folderError{dir, reason(err)}}
		}
		return staged{}, &PathError{path, reason(err)}
	}
	done, closed := false, false
	abort := func() {
		if !done {
			if !closed {
				tmp.Close()
			}
			os.Remove(tmp.Name())
		}
		drop()
	}
	ready := false
	defer func() {
		if !ready { // an error, or a panic in fn
			abort()
		}
	}()
	bw := bufio.NewWriter(tmp)
	if err := fn(bw); err != nil {
		return staged{}, err
	}
	if err := bw.Flush(); err != nil {
		return staged{}, &PathError{path, reason(err)}
	}
	if old != nil {
		keepOwner(tmp, old)
		if err := tmp.Chmod(old.Mode().Perm()); err != nil {
			return staged{}, &PathError{path, reason(err)}
		}
	}
	closed = true
	if err := tmp.Close(); err != nil {
		return staged{}, &PathError{path, reason(err)}
	}
	commit := func() error {
		if err := os.Rename(tmp.Name(), target); err != nil {
			return &PathError{path, reason(err)}
		}
		done = true
		return nil
	}
	ready = true
	return staged{commit, abort}, nil
}

// stageDirect writes a device, FIFO or socket in place: fn writes into
// memory first, so a failing fn opens nothing, and commit writes it.
func stageDirect(path, target string, fn func(io.Writer) error) (staged, error) {
	var buf bytes.Buffer
	if err := fn(&buf); err != nil {
		return staged{}, err
	}
	commit := func() error {
		f, err := os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return &PathError{path, reason(err)}
		}
		_, err = f.Write(buf.Bytes())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return &PathError{path, reason(err)}
		}
		return nil
	}
	return staged{commit, func() {}}, nil
}

// reason drops the file names, the temporary one among them, from the
// errors of package os, leaving the reason.
func reason(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	case errors.As(err, &se):
		return se.Err
	}
	return err
}

// fdPath matches the paths that name an open file descriptor of this
// process: /dev/fd/N, /proc/self/fd/N (where /dev/stdout leads) and
// /proc/thread-self/fd/N.
var fdPath = regexp.MustCompile(`^/(?:dev/fd|proc/self/fd|proc/thread-self/fd)/([0-9]+)$`)

// descriptor reports the file descriptor path names, through symbolic
// links (/dev/stdout is one to /proc/self/fd/1). A shell opened it, with
// its own offset and mode (>>): it is written through, not replaced, and
// what is behind it may be a pipe or a terminal, which no name reaches.
func descriptor(path string) (int, bool) {
	for range maxLinks {
		if m := fdPath.FindStringSubmatch(filepath.Clean(path)); m != nil {
			fd, err := strconv.Atoi(m[1])
			return fd, err == nil
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode().Type() != fs.ModeSymlink {
			return 0, false
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return 0, false
		}
		path = linkTarget(path, dest)
	}
	return 0, false
}

// descriptors are the *os.File of the descriptors written through, kept:
// one collected would close its descriptor.
var (
	descriptorsMu sync.Mutex
	descriptors   = map[int]*os.File{}
)

// openDescriptor returns the *os.File of the descriptor fd, named name.
func openDescriptor(fd int, name string) *os.File {
	switch fd {
	case 1:
		return os.Stdout
	case 2:
		return os.Stderr
	}
	descriptorsMu.Lock()
	defer descriptorsMu.Unlock()
	f, ok := descriptors[fd]
	if !ok {
		f = os.NewFile(uintptr(fd), name)
		descriptors[fd] = f
	}
	return f
}

// stageDescriptor writes the file of the open descriptor fd, which path
// names, into memory; its commit writes it through the descriptor, at the
// descriptor's offset, and leaves it open.
func stageDescriptor(path string, fd int, fn func(io.Writer) error) (staged, error) {
	var buf bytes.Buffer
	if err := fn(&buf); err != nil {
		return staged{}, err
	}
	commit := func() error {
		f := openDescriptor(fd, path)
		if _, err := f.Stat(); err != nil {
			return &PathError{path, ErrNotOpen}
		}
		if _, err := f.Write(buf.Bytes()); err != nil {
			return &PathError{path, reason(err)}
		}
		return nil
	}
	return staged{commit, func() {}}, nil
}
