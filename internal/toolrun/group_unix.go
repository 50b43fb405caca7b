//go:build unix

package toolrun

import (
	"errors"
	"os"
	"syscall"
)

// groupAttr starts a tool as the leader of a process group of its own, so
// that killGroup reaches what it starts too, and, where the system can,
// with a SIGKILL when prefixgen dies (deathSignal).
func groupAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	deathSignal(attr)
	return attr
}

// killGroup kills the process group led by pid.
func killGroup(pid int) error {
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}
