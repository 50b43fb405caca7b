package emit

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// PathError is the error of WriteFile when the file itself cannot be
// written: a folder that does not exist, no permission, a full disk.
type PathError struct {
	Path string
	Err  error
}

// Error returns "emit: cannot write PATH: " and the reason.
func (e *PathError) Error() string { return fmt.Sprintf("emit: cannot write %s: %v", e.Path, e.Err) }

// Unwrap returns the reason.
func (e *PathError) Unwrap() error { return e.Err }

// WriteFile writes the file at path through fn, whole or not at all: fn
// writes into a temporary file in the same folder, which replaces path only
// once fn and every write have succeeded. On failure no file is left behind
// and an existing file at path is untouched. An error of fn is returned as
// it is; one of the file is a *PathError.
func WriteFile(path string, fn func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return &PathError{path, unwrapPath(err)}
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriter(tmp)
	if err := fn(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return &PathError{path, unwrapPath(err)}
	}
	if err := tmp.Chmod(0o644); err != nil {
		return &PathError{path, unwrapPath(err)}
	}
	if err := tmp.Close(); err != nil {
		return &PathError{path, unwrapPath(err)}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return &PathError{path, unwrapPath(err)}
	}
	return nil
}

// unwrapPath drops the temporary file's name from an *os.PathError.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
