package emit

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteFile writes the file at path through fn, whole or not at all: fn
// writes into a temporary file in the same folder, which replaces path only
// once fn and every write have succeeded. On failure no file is left behind
// and an existing file at path is untouched.
func WriteFile(path string, fn func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("emit: cannot write %s: %v", path, unwrapPath(err))
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
		return fmt.Errorf("emit: cannot write %s: %v", path, unwrapPath(err))
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("emit: cannot write %s: %v", path, unwrapPath(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("emit: cannot write %s: %v", path, unwrapPath(err))
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("emit: cannot write %s: %v", path, unwrapPath(err))
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
