//go:build unix

package emit

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of old, where this process may
// (as root): a file replaced keeps them, as one the shell rewrites does.
// Where it may not, f keeps this process's, which are then old's anyway
// for a file this process owns.
func keepOwner(f *os.File, old fs.FileInfo) {
	if st, ok := old.Sys().(*syscall.Stat_t); ok {
		f.Chown(int(st.Uid), int(st.Gid))
	}
}
