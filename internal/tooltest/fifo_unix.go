//go:build unix

package tooltest

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// FIFO makes a FIFO at path that gives data, once, to the first reader
// that opens it, as a shell's <(…) does.
func FIFO(t testing.TB, path string, data []byte) {
	t.Helper()
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		f.Write(data)
	}()
}
