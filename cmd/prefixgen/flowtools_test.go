package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hangingFlow puts stand-ins for yosys and sta first on PATH: they answer
// their version flags, and otherwise start a child (sleep) that writes
// its pid to pidFile, and wait for it, as a tool that hangs does. lib is
// a Liberty file for them to be given.
func hangingFlow(t *testing.T) (pidFile, lib string) {
	t.Helper()
	dir := t.TempDir()
	pidFile, lib = filepath.Join(dir, "child.pid"), tinyLibrary(t, dir)
	script := "#!/bin/sh\ncase \"$1\" in -V) echo 'Yosys 0.0 (stand-in)'; exit 0;; -version) echo 2.0.0; exit 0;; esac\n" +
		"sleep 600 &\necho $! > " + pidFile + "\nwait\n"
	for _, tool := range []string{"yosys", "sta"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, tool), []byte(script), 0o755))
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return pidFile, lib
}

// tinyLibrary writes a Liberty file of one cell, enough for the stand-in
// tools that never read it, into dir, and returns its path.
func tinyLibrary(t *testing.T, dir string) string {
	t.Helper()
	lib := filepath.Join(dir, "tiny.lib")
	require.NoError(t, os.WriteFile(lib, []byte("library (tiny) { cell (INV) { area : 1 ; } }\n"), 0o644))
	return lib
}

// childGone waits up to 5 s for the process whose pid file holds to end:
// gone, or a zombie (killed, waiting for init to reap it).
func childGone(t *testing.T, pidFile string) bool {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	stat := filepath.Join("/proc", strings.TrimSpace(string(data)), "stat")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		s, err := os.ReadFile(stat)
		if err != nil || strings.Contains(string(s), ") Z ") {
			return true
		}
	}
	return false
}

// An interrupt sent to prefixgen alone (kill -INT PID, not to its process
// group, as a terminal's Ctrl-C would) stops the tools it runs and what
// they started: nothing is left running, re-parented to init.
func TestSynthInterruptStopsTools(t *testing.T) {
	pidFile, lib := hangingFlow(t)
	cmd := exec.Command(os.Args[0], "synth", "-t", "ripple", "-n", "8", "--liberty", lib)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(pidFile); strings.HasSuffix(string(b), "\n") {
			break
		}
		require.True(t, time.Now().Before(deadline), "no tool started")
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	err := cmd.Wait()
	exit, ok := errors.AsType[*exec.ExitError](err)
	require.True(t, ok, "exit status: %v", err)
	assert.Equal(t, 128+int(syscall.SIGINT), exit.ExitCode())
	assert.Equal(t, "prefixgen: stopped by interrupt\n", stderr.String())
	assert.True(t, childGone(t, pidFile), "the tool's child outlived prefixgen")
}

// --tool-timeout stops a tool that hangs, on every command that runs the
// flow: the run fails (exit status 1) in one line naming the tool and the
// limit, and the tool's children go with it.
func TestToolTimeoutFlag(t *testing.T) {
	for _, args := range [][]string{
		{"synth", "-t", "ripple", "-n", "8"},
		{"explore", "-n", "4", "--synth"},
		{"report", "-n", "4", "--synth"},
		{"optimize", "-n", "4", "--max-delay-ns", "1"},
	} {
		t.Run(args[0], func(t *testing.T) {
			pidFile, lib := hangingFlow(t)
			start := time.Now()
			status, out, errOut := prefixgen(append(args, "--liberty", lib, "--tool-timeout", "1s")...)
			assert.Less(t, time.Since(start), 30*time.Second)
			assert.Equal(t, 1, status, errOut)
			assert.Empty(t, out)
			assert.Regexp(t, `^prefixgen `+args[0]+`: checking Liberty file .*tiny\.lib: yosys ran past its time limit of 1s and was stopped \(allowed: a longer --tool-timeout\)\n$`, errOut)
			assert.True(t, childGone(t, pidFile), "the tool's child outlived it")
		})
	}
}

// --tool-timeout takes a duration; explore and report take it only with
// --synth, optimize only with a measured bound.
func TestToolTimeoutFlagRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"synth", "-t", "ripple", "-n", "4", "--tool-timeout", "0s"}, "prefixgen synth: --tool-timeout \"0s\": allowed a duration from 1s to 168h, such as 90s, 20m or 2h\n"},
		{[]string{"synth", "-t", "ripple", "-n", "4", "--tool-timeout", "soon"}, "prefixgen synth: --tool-timeout \"soon\": allowed a duration from 1s to 168h, such as 90s, 20m or 2h\n"},
		{[]string{"synth", "-t", "ripple", "-n", "4", "--tool-timeout", "999ms"}, "prefixgen synth: --tool-timeout \"999ms\": allowed a duration from 1s to 168h, such as 90s, 20m or 2h\n"},
		{[]string{"synth", "-t", "ripple", "-n", "4", "--tool-timeout", "168h1s"}, "prefixgen synth: --tool-timeout \"168h1s\": allowed a duration from 1s to 168h, such as 90s, 20m or 2h\n"},
		{[]string{"explore", "-n", "4", "--tool-timeout", "1m"}, "prefixgen explore: --tool-timeout applies only with --synth\n"},
		{[]string{"report", "-n", "4", "--tool-timeout", "1m"}, "prefixgen report: --tool-timeout applies only with --synth\n"},
		{[]string{"optimize", "-n", "4", "-d", "3", "--tool-timeout", "1m"}, "prefixgen optimize: --tool-timeout applies only with --max-delay-ns or --max-area-um2\n"},
	} {
		status, out, errOut := prefixgen(tc.args...)
		assert.Equal(t, 2, status, tc.args)
		assert.Empty(t, out)
		assert.Equal(t, tc.want, errOut, tc.args)
	}
}

// A --workdir whose path ABC cannot read (Yosys hands it the library's
// path in the folder, unquoted) is refused up front, as bad input, with
// nothing made: no work folder, nothing in TMPDIR.
func TestSynthWorkdirABCPath(t *testing.T) {
	for _, c := range []string{";", "'", `"`} {
		t.Run(c, func(t *testing.T) {
			base, tmp := t.TempDir(), t.TempDir()
			t.Setenv("TMPDIR", tmp)
			work := filepath.Join(base, "a"+c+"b", "work")
			status, out, errOut := prefixgen("synth", "-t", "ripple", "-n", "4", "--workdir", work)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Regexp(t, `^prefixgen synth: work folder ".*" has a character ABC cannot read in the paths Yosys gives it: allowed a path without ; ' " or control characters\n$`, errOut)
			left, err := os.ReadDir(base)
			require.NoError(t, err)
			assert.Empty(t, left, "nothing made")
			left, err = os.ReadDir(tmp)
			require.NoError(t, err)
			assert.Empty(t, left, "nothing left in TMPDIR")
		})
	}
}
