//go:build unix && !linux && !freebsd

package toolrun

import "syscall"

// deathSignal does nothing where the system has no parent-death signal
// (macOS, OpenBSD, NetBSD): a tool outlives a prefixgen killed by
// SIGKILL, though its time limit and prefixgen's own signal handling
// still stop it.
func deathSignal(*syscall.SysProcAttr) {}
