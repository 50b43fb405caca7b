package main

import (
	"syscall"
	"unsafe"
)

// outputGone reports whether standard output or standard error is a pipe
// whose reader has gone (ppoll's POLLERR on its write end): the SIGPIPE
// that stops prefixgen is one of theirs, not of a pipe to a tool.
func outputGone() bool {
	const pollErr = 0x8
	fds := [2]struct {
		fd             int32
		events, revent int16
	}{{fd: 1}, {fd: 2}}
	var zero syscall.Timespec
	n, _, errno := uintptr(0), uintptr(0), syscall.EINTR
	for errno == syscall.EINTR { // a signal came while it polled: again
		n, _, errno = syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)), uintptr(unsafe.Pointer(&zero)), 0, 0, 0)
	}
	if errno != 0 {
		return true // not known: stop, as Go would have
	}
	return n > 0 && (fds[0].revent&pollErr != 0 || fds[1].revent&pollErr != 0)
}
