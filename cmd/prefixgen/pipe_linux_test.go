package main

import (
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOutputGoneInterrupted: a signal that comes while outputGone polls
// (ppoll fails with EINTR) does not make it report the output gone. It
// had, once in a few hundred runs of TestSIGPIPEOfAnotherPipe, and
// prefixgen stopped on another pipe's SIGPIPE.
func TestOutputGoneInterrupted(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGUSR1)
	defer signal.Stop(sigs)
	require.False(t, outputGone(), "the test's own output is read")
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := syscall.Gettid()
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-sigs:
			default:
				syscall.Tgkill(os.Getpid(), tid, syscall.SIGUSR1)
			}
		}
	}()
	for i := range 30000 {
		require.False(t, outputGone(), "poll %d", i)
	}
}
