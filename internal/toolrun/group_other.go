//go:build !unix

package toolrun

import (
	"os"
	"syscall"
)

// groupAttr starts a tool as any process: there are no process groups
// to start it in.
func groupAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the process pid; what it started is left.
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return os.ErrProcessDone
	}
	return p.Kill()
}
