//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package progress

import "io"

// terminalColumns returns 0: the width is not known here.
func terminalColumns(io.Writer) int { return 0 }
