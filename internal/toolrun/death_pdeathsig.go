//go:build linux || freebsd

package toolrun

import "syscall"

// deathSignal has the system kill the tool when prefixgen dies, even by
// SIGKILL, which prefixgen cannot catch.
func deathSignal(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
