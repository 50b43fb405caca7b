package toolrun_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/toolrun"
)

func sh(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("sh")
	require.NoError(t, err)
	return p
}

// alive reports whether the process whose pid file holds still runs.
func alive(t *testing.T, file string) bool {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	// A killed child whose parent is gone waits, a zombie, for init to
	// reap it: it runs no more.
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	return err == nil && !strings.Contains(string(stat), ") Z ")
}

// waitGone waits up to 5 s for the process in file to end.
func waitGone(t *testing.T, file string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if !alive(t, file) {
			return
		}
	}
	t.Fatalf("the tool's child in %s outlived it", file)
}

func TestRunOutput(t *testing.T) {
	res, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: sh(t), Args: []string{"-c", "echo out; echo err >&2"}})
	require.NoError(t, err)
	assert.Equal(t, "out\n", string(res.Stdout))
	assert.Equal(t, "err\n", string(res.Stderr))
	// Two pipes: the order between them is the order prefixgen read them.
	assert.ElementsMatch(t, []string{"out", "err"}, strings.Fields(string(res.Output)))
	assert.False(t, res.Truncated)
}

// A tool that exits 0 leaving a child that holds its output open has run
// well: what it printed is its result, and the child goes with it.
func TestRunChildLeftRunning(t *testing.T) {
	t.Parallel()
	res, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: sh(t), Args: []string{"-c", "sleep 60 & echo verdict: ok"}, Timeout: time.Minute})
	require.NoError(t, err)
	assert.Equal(t, "verdict: ok\n", string(res.Stdout))
	assert.Less(t, res.Elapsed, 30*time.Second)
}

func TestRunExit(t *testing.T) {
	tests := []struct {
		name, script, want string
		code               int
	}{
		{"status", "echo; echo '  first words  '; echo more; exit 3", "sh failed (exit status 3): first words", 3},
		{"silent", "exit 1", "sh failed (exit status 1) and printed nothing", 1},
		{"crash", "echo dying; kill -SEGV $$", "sh failed (killed by SIGSEGV, a segmentation fault): dying", -1},
		{"killed", "kill -KILL $$", "sh failed (killed by SIGKILL, the signal the system sends when memory runs out) and printed nothing", -1},
		{"terminated", "kill -TERM $$", "sh failed (killed by SIGTERM) and printed nothing", -1},
		{"aborted", "kill -ABRT $$", "sh failed (killed by SIGABRT) and printed nothing", -1},
		{"real-time", "kill -40 $$", "sh failed (killed by signal 40) and printed nothing", -1},
		{"escape", "printf '\\033[2Jgone\\n'; exit 2", `sh failed (exit status 2): \x1b[2Jgone`, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: sh(t), Args: []string{"-c", tt.script}})
			require.NotNil(t, res)
			exit, ok := errors.AsType[*toolrun.ExitError](err)
			require.True(t, ok, "%v", err)
			assert.Equal(t, tt.code, exit.Code)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

// A tool that hangs is stopped at its limit, and the children it started
// go with it: the whole process group is killed.
//
// A loaded machine can stop the shell before it has started its child:
// then it is run again with a longer limit.
func TestRunTimeout(t *testing.T) {
	pid := filepath.Join(t.TempDir(), "child.pid")
	for _, limit := range []time.Duration{300 * time.Millisecond, 2 * time.Second, 8 * time.Second} {
		start := time.Now()
		_, err := toolrun.Run(context.Background(), toolrun.Cmd{
			Path:    sh(t),
			Args:    []string{"-c", "sleep 60 & echo $! > " + pid + "; wait"},
			Timeout: limit,
		})
		to, ok := errors.AsType[*toolrun.TimeoutError](err)
		require.True(t, ok, "%v", err)
		assert.Equal(t, "sh", to.Tool)
		assert.Equal(t, "sh ran past its time limit of "+limit.String()+" and was stopped (allowed: a longer --tool-timeout)", err.Error())
		assert.Less(t, time.Since(start), limit+10*time.Second)
		if b, _ := os.ReadFile(pid); strings.HasSuffix(string(b), "\n") {
			waitGone(t, pid)
			return
		}
	}
	t.Fatal("the shell never started its child")
}

// A context that ends stops the tool and its children, and says so as
// the context's error, not as the tool's.
func TestRunCancel(t *testing.T) {
	pid := filepath.Join(t.TempDir(), "child.pid")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if b, _ := os.ReadFile(pid); strings.HasSuffix(string(b), "\n") {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := toolrun.Run(ctx, toolrun.Cmd{Path: sh(t), Args: []string{"-c", "sleep 60 & echo $! > " + pid + "; wait"}})
	require.ErrorIs(t, err, context.Canceled)
	waitGone(t, pid)
}

// Each run has a TMPDIR of its own, removed after it with what the tool
// left there, even when prefixgen's own TMPDIR is a path a tool's script
// cannot hold.
func TestRunPrivateTMPDIR(t *testing.T) {
	for _, parent := range []string{"", "we;ird 'dir\""} {
		t.Run(parent, func(t *testing.T) {
			base := t.TempDir()
			if parent != "" {
				base = filepath.Join(base, parent)
				require.NoError(t, os.Mkdir(base, 0o755))
			}
			t.Setenv("TMPDIR", base)
			res, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: sh(t), Args: []string{"-c", `mkdir "$TMPDIR/yosys-abc-x" && echo "$TMPDIR"`}})
			require.NoError(t, err)
			tmp := strings.TrimSpace(string(res.Stdout))
			assert.True(t, toolrun.PlainPath(tmp), tmp)
			assert.NotEqual(t, os.TempDir(), tmp)
			assert.NoDirExists(t, tmp)
		})
	}
}

// PlainPath takes the characters a script may hold unquoted, and nothing
// else: no empty path, space, quote, semicolon, line break or letter
// outside ASCII.
func TestPlainPath(t *testing.T) {
	for path, want := range map[string]bool{
		"/tmp/c++/x_1.lib": true,
		"relative/a-b.v":   true,
		"":                 false,
		"/tmp/a b":         false,
		"/tmp/a'b":         false,
		"/tmp/a;b":         false,
		"/tmp/caf\u00e9":   false,
		"/tmp/a\nb":        false,
	} {
		assert.Equal(t, want, toolrun.PlainPath(path), "%q", path)
	}
}

// TempDir is the system's temporary folder where a tool can be handed its
// path, else /tmp.
func TestTempDir(t *testing.T) {
	plain := t.TempDir()
	t.Setenv("TMPDIR", plain)
	assert.Equal(t, plain, toolrun.TempDir())
	t.Setenv("TMPDIR", filepath.Join(plain, "a;b"))
	assert.Equal(t, "/tmp", toolrun.TempDir())
}

func TestRunLogAndDir(t *testing.T) {
	dir := t.TempDir()
	var log strings.Builder
	res, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: sh(t), Args: []string{"-c", "pwd; echo $EXTRA"}, Dir: dir, Env: []string{"EXTRA=x"}, Log: &log})
	require.NoError(t, err)
	want, err := filepath.EvalSymlinks(dir)
	require.NoError(t, err)
	assert.Equal(t, want+"\nx\n", string(res.Output))
	assert.Equal(t, string(res.Output), log.String())
}

// TestRunErrLog streams standard error alone, for a tool whose standard
// output is data (the GPU harness's JSON report) and whose standard error
// says how far it got.
func TestRunErrLog(t *testing.T) {
	var log, errLog strings.Builder
	res, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: sh(t), Args: []string{"-c", "echo data; echo progress >&2"}, Log: &log, ErrLog: &errLog})
	require.NoError(t, err)
	assert.Equal(t, "progress\n", errLog.String())
	assert.ElementsMatch(t, []string{"data", "progress"}, strings.Fields(log.String()), "both pipes, in the order read")
	assert.Equal(t, "data\n", string(res.Stdout))
}

func TestRunMissing(t *testing.T) {
	_, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: filepath.Join(t.TempDir(), "nope")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "toolrun: nope cannot start")
}

func TestVersion(t *testing.T) {
	dir := t.TempDir()
	tool := filepath.Join(dir, "tool")
	count := filepath.Join(dir, "count")
	require.NoError(t, os.WriteFile(tool, []byte("#!/bin/sh\necho x >> "+count+"\necho 'Tool 1.2 (build 3)'\nexit 1\n"), 0o755))
	for range 2 {
		v, err := toolrun.Version(context.Background(), tool, "-V", 0)
		require.NoError(t, err)
		assert.Equal(t, "Tool 1.2 (build 3)", v)
	}
	runs, err := os.ReadFile(count)
	require.NoError(t, err)
	assert.Equal(t, "x\n", string(runs), "the version is asked once")
}

// A tool that exits 1 having printed nothing has told no version: that
// is its error, not an empty version (Icarus's -V exits 1 after printing
// one, which TestVersion takes).
func TestVersionSilentFailure(t *testing.T) {
	tool := filepath.Join(t.TempDir(), "tool")
	require.NoError(t, os.WriteFile(tool, []byte("#!/bin/sh\nexit 1\n"), 0o755))
	v, err := toolrun.Version(context.Background(), tool, "-V", 0)
	_, exit := errors.AsType[*toolrun.ExitError](err)
	assert.True(t, exit, "%v", err)
	assert.Empty(t, v)
}

// TestVersionTimeout: asking a tool its version runs under the limit
// given, as every other run does (--tool-timeout); it had a minute of its
// own, which the message then told the user to lengthen with the flag.
func TestVersionTimeout(t *testing.T) {
	tool := filepath.Join(t.TempDir(), "tool")
	require.NoError(t, os.WriteFile(tool, []byte("#!/bin/sh\nexec sleep 100\n"), 0o755))
	start := time.Now()
	_, err := toolrun.Version(context.Background(), tool, "-V", 300*time.Millisecond)
	_, timeout := errors.AsType[*toolrun.TimeoutError](err)
	assert.True(t, timeout, "%v", err)
	assert.Less(t, time.Since(start), 20*time.Second)
}

func TestText(t *testing.T) {
	tests := []struct{ in, first, last string }{
		{"", "", ""},
		{"\n  \nfirst\nsecond\n\n", "first", "second"},
		{"\x1b[2J\x07bell\r\n", `\x1b[2J\abell\r`, `\x1b[2J\abell\r`},
		{"bad \xff byte", `bad \xff byte`, `bad \xff byte`},
		{"tab\there", "tab here", "tab here"},
		{"\u009b31m", `\u009b31m`, `\u009b31m`},
		{"line\u2028break", `line\u2028break`, `line\u2028break`},
		{"a \ufffd as printed", "a \ufffd as printed", "a \ufffd as printed"},
		{strings.Repeat("y", toolrun.MaxLine), strings.Repeat("y", toolrun.MaxLine), strings.Repeat("y", toolrun.MaxLine)},
		{strings.Repeat("x", 300), strings.Repeat("x", toolrun.MaxLine-1) + "…", strings.Repeat("x", toolrun.MaxLine-1) + "…"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.first, toolrun.FirstLine(tt.in), "%q", tt.in)
		assert.Equal(t, tt.last, toolrun.LastLine(tt.in), "%q", tt.in)
	}
	assert.Equal(t, "a\n\\x1bb\tc", toolrun.Escape("a\n\x1bb\tc"))
}

func FuzzOneLine(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\x1b[0m", "\xff\xfe", "\u2028x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l := toolrun.OneLine(s)
		assert.NotContains(t, l, "\n")
		for _, r := range l {
			assert.False(t, r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0), "control %U in %q", r, l)
		}
	})
}

// TestLookPathRelative: a tool found through a folder PATH names relative
// to the current one is found, as the shell finds it, and its path is
// absolute, for the tools run in folders of their own; Go's exec.LookPath
// refuses it (exec.ErrDot), and prefixgen had said the tool was not
// installed.
func TestLookPathRelative(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	require.NoError(t, os.MkdirAll(filepath.Join("bin", "x"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join("bin", "x", "tool"), []byte("#!/bin/sh\n"), 0o755))
	t.Setenv("PATH", filepath.Join("bin", "x")+string(os.PathListSeparator)+os.Getenv("PATH"))
	p, err := toolrun.LookPath("tool")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "bin", "x", "tool"), p)
	_, err = toolrun.LookPath("no-such-tool-anywhere")
	assert.ErrorIs(t, err, exec.ErrNotFound)
}

// A program busy for writing a moment (a process forked while it was
// written holds it open until that process runs its own program) is tried
// again, not reported as a tool that cannot start.
func TestRunTextFileBusy(t *testing.T) {
	tool := filepath.Join(t.TempDir(), "tool")
	require.NoError(t, os.WriteFile(tool, []byte("#!/bin/sh\necho ran\n"), 0o755))
	f, err := os.OpenFile(tool, os.O_WRONLY, 0)
	require.NoError(t, err)
	go func() {
		time.Sleep(30 * time.Millisecond)
		f.Close()
	}()
	res, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: tool})
	require.NoError(t, err)
	assert.Equal(t, "ran\n", string(res.Stdout))
}
