package stage

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/prefixgen/prefixgen/internal/cleanup"
)

// Folder is a temporary folder whose entries Commit moves into a target
// folder.
type Folder struct {
	// Dir is the temporary folder the run writes into.
	Dir    string
	target string
	remove func()
}

// New makes the temporary folder of a run whose results go to target:
// in the deepest folder above target that exists (links resolved), where
// Commit renames them into place, or, where that folder cannot be written,
// in fallback ("" is the system's temporary folder), from where Commit
// copies them. The folder is registered with package cleanup.
func New(target, fallback string) (*Folder, error) {
	abs, err := filepath.Abs(target)
	if err != nil {
		return nil, err
	}
	real := abs
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		real = r // a link to a folder elsewhere: the stage goes beside that
	}
	dir, remove, err := cleanup.MkdirTemp(above(real), ".prefixgen-")
	if err != nil {
		if dir, remove, err = cleanup.MkdirTemp(fallback, "prefixgen-stage-"); err != nil {
			return nil, err
		}
	}
	return &Folder{Dir: dir, target: abs, remove: remove}, nil
}

// ErrDangling is the reason Check gives for a path that is a link to
// nothing.
var ErrDangling = errors.New("it is a symbolic link to nothing")

// Check reports, before any work, whether Commit could put entries in
// target: target is a folder, or can be made in the deepest folder above
// it that exists, and that folder takes a file of this process's (one is
// written there, and removed). Its error is the reason, the path it
// concerns named.
func Check(target string) error {
	abs, err := filepath.Abs(target)
	if err != nil {
		return err
	}
	// The deepest path of target's that is there must be a folder.
	have := abs
	for {
		st, err := os.Stat(have)
		if err == nil {
			if !st.IsDir() {
				return &fs.PathError{Op: "make", Path: have, Err: syscall.ENOTDIR}
			}
			break
		}
		if _, lerr := os.Lstat(have); lerr == nil {
			// There, and leading nowhere: a link to nothing, a link
			// loop, or a link to where this process may not look.
			if errors.Is(err, fs.ErrNotExist) {
				return &fs.PathError{Op: "make", Path: have, Err: ErrDangling}
			}
			return err
		}
		up := filepath.Dir(have)
		if up == have {
			return err
		}
		have = up
	}
	probe, err := os.CreateTemp(have, ".prefixgen-probe-*")
	if err != nil {
		return err
	}
	probe.Close()
	return os.Remove(probe.Name())
}

// above returns the deepest folder above path (an absolute path) that
// exists, links resolved, or the root.
func above(path string) string {
	for dir := filepath.Dir(path); ; {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				return real
			}
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return dir
		}
		dir = up
	}
}

// Remove removes the temporary folder and whatever Commit has not moved
// out of it.
func (f *Folder) Remove() { f.remove() }

// InTheWayError reports an entry of the target folder of another kind
// (a file, a folder) than the entry Commit would put in its place.
type InTheWayError struct {
	// Path is the entry in the way.
	Path string
	// Folder is true when a folder goes there and Path is not one.
	Folder bool
}

// Error names the entry and what goes in its place.
func (e *InTheWayError) Error() string {
	if e.Folder {
		return fmt.Sprintf("%s is in the way: not a folder, where a folder goes", e.Path)
	}
	return fmt.Sprintf("%s is in the way: a folder, where a file goes", e.Path)
}

// Commit moves every entry of Dir into the target folder, made if need be:
// an entry that the target holds as a folder too is merged into it the
// same way, and any other entry replaces the target's entry of its name.
// stale, when not nil, is asked about each entry of a folder merged into
// (its path under the target, with slashes) that the run did not write,
// and the entries it names are removed. Commit does all of it or, on an
// error, puts back what it had moved and removes the folders it made; a
// signal that comes meanwhile waits until it is done (cleanup.Hold).
func (f *Folder) Commit(stale func(rel string) bool) error {
	return cleanup.Hold(func() error { return f.commit(stale) })
}

func (f *Folder) commit(stale func(string) bool) (err error) {
	made, err := mkdirAll(f.target)
	if err != nil {
		return err
	}
	m := &mover{stale: stale}
	defer func() {
		if err != nil {
			for i := len(m.undo) - 1; i >= 0; i-- {
				m.undo[i]()
			}
			if made != "" {
				os.RemoveAll(made)
			}
		}
		if m.aside != "" {
			os.RemoveAll(m.aside)
		}
	}()
	if m.aside, err = os.MkdirTemp(f.target, ".prefixgen-old-"); err != nil {
		return err
	}
	return m.merge(f.Dir, f.target, "")
}

// mkdirAll makes dir as os.MkdirAll does, and returns the topmost folder
// it made, "" if none.
func mkdirAll(dir string) (string, error) {
	top := ""
	for d := dir; ; {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		top = d
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if top != "" {
			os.RemoveAll(top)
		}
		return "", err
	}
	return top, nil
}

// mover merges a folder into another, keeping what it replaces in aside
// and the steps that undo its moves in undo.
type mover struct {
	aside string
	stale func(string) bool
	undo  []func()
	n     int // entries put aside
}

// merge moves the entries of src into dst, a folder; rel is dst's path
// under the target.
func (m *mover) merge(src, dst, rel string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if m.stale != nil {
		wrote := map[string]bool{}
		for _, e := range entries {
			wrote[e.Name()] = true
		}
		old, err := os.ReadDir(dst)
		if err != nil {
			return err
		}
		for _, e := range old {
			if rel == "" && e.Name() == filepath.Base(m.aside) {
				continue
			}
			if !wrote[e.Name()] && m.stale(path.Join(rel, e.Name())) {
				if err := m.putAside(filepath.Join(dst, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	for _, e := range entries {
		s, d, r := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()), path.Join(rel, e.Name())
		old, err := os.Lstat(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return err
		case e.IsDir():
			if st, err := os.Stat(d); err != nil || !st.IsDir() {
				return &InTheWayError{Path: d, Folder: true}
			}
			if err := m.merge(s, d, r); err != nil {
				return err
			}
			continue
		case old.IsDir():
			return &InTheWayError{Path: d}
		default:
			if err := m.putAside(d); err != nil {
				return err
			}
		}
		if err := move(s, d); err != nil {
			return err
		}
		m.undo = append(m.undo, func() { os.RemoveAll(d) })
	}
	return nil
}

// putAside moves path into the aside folder, to be put back on an error.
func (m *mover) putAside(p string) error {
	m.n++
	to := filepath.Join(m.aside, fmt.Sprint(m.n))
	if err := rename(p, to); err != nil {
		return err
	}
	m.undo = append(m.undo, func() { rename(to, p) })
	return nil
}

// rename is os.Rename; a test makes it fail as between file systems.
var rename = os.Rename

// move renames src to dst, or where they are on two file systems copies
// src into a temporary name beside dst and renames that.
func move(src, dst string) error {
	err := rename(src, dst)
	if !errors.Is(err, syscall.EXDEV) {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dst), ".prefixgen-copy-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	c := filepath.Join(tmp, "c")
	if err := copyTree(src, c); err != nil {
		return err
	}
	return os.Rename(c, dst)
}

// copyTree copies src, a file, link or folder, to dst.
func copyTree(src, dst string) error {
	st, err := os.Lstat(src)
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		to, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(to, dst)
	case st.IsDir():
		if err := os.Mkdir(dst, st.Mode().Perm()); err != nil {
			return err
		}
		entries, err := os.ReadDir(src)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := copyTree(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
				return err
			}
		}
		return nil
	default:
		in, err := os.Open(src)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	}
}
