package bounded_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/bounded"
)

func TestReadAll(t *testing.T) {
	tests := []struct {
		name, in string
		max      int64
		tooLarge bool
	}{
		{"empty", "", 0, false},
		{"at the bound", "abcd", 4, false},
		{"one past", "abcde", 4, true},
		{"far past", strings.Repeat("x", 1<<16), 100, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := bounded.ReadAll(strings.NewReader(tt.in), tt.max)
			if tt.tooLarge {
				require.Error(t, err)
				e, ok := errors.AsType[*bounded.TooLargeError](err)
				require.True(t, ok, "%v", err)
				assert.Equal(t, tt.max, e.Max)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.in, string(got))
		})
	}
}

// A regular file larger than the bound is refused before it is read; one
// within it is read whole; a missing one is the os's error.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	require.NoError(t, os.WriteFile(small, []byte("hello"), 0o644))
	got, err := bounded.ReadFile(small, 5)
	require.NoError(t, err)
	assert.Equal(t, "hello", string(got))
	_, err = bounded.ReadFile(small, 4)
	assert.EqualError(t, err, "larger than the 4 bytes allowed")
	_, err = bounded.ReadFile(filepath.Join(dir, "none"), 4)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// A FIFO that never ends is read up to the bound and no further.
func TestReadFileEndlessFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "endless")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	done := make(chan struct{})
	go func() {
		defer close(done)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		chunk := bytes.Repeat([]byte("y\n"), 1<<15)
		for {
			if _, err := w.Write(chunk); err != nil {
				return // the reader has gone: a broken pipe
			}
		}
	}()
	_, err := bounded.ReadFile(fifo, 1<<20)
	assert.EqualError(t, err, "larger than the 1 MiB allowed")
	<-done
}

func ExampleSize() {
	for _, n := range []int64{100, 64 << 10, 199229440, 3 << 30} {
		fmt.Println(bounded.Size(n))
	}
	// Output:
	// 100 bytes
	// 64 KiB
	// 190 MiB
	// 3 GiB
}

// A folder is refused as os.ReadFile refuses it: one *os.PathError that
// names it, not two.
func TestReadFileFolder(t *testing.T) {
	dir := t.TempDir()
	_, err := bounded.ReadFile(dir, 1<<20)
	require.Error(t, err)
	_, want := os.ReadFile(dir)
	assert.Equal(t, want.Error(), err.Error())
	assert.Equal(t, 1, strings.Count(err.Error(), dir), err.Error())
}
