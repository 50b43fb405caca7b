//go:build unix && !openbsd

package limits

import (
	"math"
	"syscall"
)

// addressLimit returns the process's address space limit (ulimit -v) in
// bytes, or 0 where there is none.
func addressLimit() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur > math.MaxInt64 {
		return 0
	}
	return int64(r.Cur)
}
