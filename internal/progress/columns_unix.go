//go:build linux || darwin || freebsd || netbsd || openbsd

package progress

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

// terminalColumns returns the width in columns of the terminal w is, 0
// where w is not one or the width is not known.
func terminalColumns(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok {
		return 0
	}
	var ws struct{ rows, cols, x, y uint16 }
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws))); e != 0 {
		return 0
	}
	return int(ws.cols)
}
