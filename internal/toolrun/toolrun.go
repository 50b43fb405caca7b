package toolrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prefixgen/prefixgen/internal/cleanup"
)

// DefaultTimeout is the time limit of a run whose Cmd sets none: generous,
// for a limit exists to end a tool that hangs, not to judge a slow one.
const DefaultTimeout = 30 * time.Minute

// MaxOutput is the most output a run keeps in memory; a tool printing
// more has the rest dropped and Result.Truncated set.
const MaxOutput = 64 << 20

// Cmd is one run of a tool.
type Cmd struct {
	// Path is the program, as exec.LookPath found it.
	Path string
	// Args are its arguments, without the program.
	Args []string
	// Dir is the folder it runs in; empty means prefixgen's own.
	Dir string
	// Env are variables added to prefixgen's environment (KEY=VALUE);
	// TMPDIR is always the run's own.
	Env []string
	// Stdin is its standard input; nil means none.
	Stdin io.Reader
	// Log, when not nil, is sent the output as it comes (stdout and
	// stderr together), as well as captured.
	Log io.Writer
	// ErrLog, when not nil, is sent the standard error alone as it comes,
	// for a tool whose standard output is data and whose standard error
	// says how far it got.
	ErrLog io.Writer
	// Timeout is its time limit; 0 means DefaultTimeout.
	Timeout time.Duration
}

// Name is the name by which errors call the tool: the program's base name.
func (c *Cmd) Name() string { return filepath.Base(c.Path) }

// Result is what a run printed.
type Result struct {
	// Stdout and Stderr are what it wrote to each.
	Stdout, Stderr []byte
	// Output is stdout and stderr together, each write whole, in the order
	// they were read from the tool's two pipes (close to the order they
	// were written, not always the same).
	Output []byte
	// Truncated says that more than MaxOutput was printed, and dropped.
	Truncated bool
	// Elapsed is its wall-clock time.
	Elapsed time.Duration
}

// ExitError is the error of a tool that exited with a status other than
// 0, or was killed by a signal prefixgen did not send.
type ExitError struct {
	// Tool is the program's name.
	Tool string
	// Code is its exit status, or -1 when a signal killed it.
	Code int
	// Signal is the signal that killed it, if one did.
	Signal syscall.Signal
	// FirstLine is the first line it printed that says something,
	// escaped (FirstLine).
	FirstLine string
}

func (e *ExitError) Error() string {
	how := e.How()
	if e.FirstLine == "" {
		return fmt.Sprintf("%s failed (%s) and printed nothing", e.Tool, how)
	}
	return fmt.Sprintf("%s failed (%s): %s", e.Tool, how, e.FirstLine)
}

// How says how the tool ended: "exit status 3", or "killed by SIGSEGV, a
// segmentation fault".
func (e *ExitError) How() string {
	if e.Code >= 0 {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return "killed by " + SignalText(e.Signal)
}

// signals names the signals that end a tool, with what each says of why
// where the name alone does not.
var signals = map[syscall.Signal][2]string{
	syscall.SIGHUP:  {"SIGHUP"},
	syscall.SIGINT:  {"SIGINT"},
	syscall.SIGQUIT: {"SIGQUIT"},
	syscall.SIGILL:  {"SIGILL", "an illegal instruction"},
	syscall.SIGTRAP: {"SIGTRAP"},
	syscall.SIGABRT: {"SIGABRT"},
	syscall.SIGBUS:  {"SIGBUS", "a bus error"},
	syscall.SIGFPE:  {"SIGFPE", "an arithmetic error"},
	syscall.SIGKILL: {"SIGKILL", "the signal the system sends when memory runs out"},
	syscall.SIGSEGV: {"SIGSEGV", "a segmentation fault"},
	syscall.SIGPIPE: {"SIGPIPE", "a broken pipe"},
	syscall.SIGALRM: {"SIGALRM"},
	syscall.SIGTERM: {"SIGTERM"},
}

// SignalText names sig as a user reads it: "SIGKILL, the signal the
// system sends when memory runs out", "SIGTERM", or for a signal of no
// name here its number, "signal 40".
func SignalText(sig syscall.Signal) string {
	if s, ok := signals[sig]; ok {
		if s[1] == "" {
			return s[0]
		}
		return s[0] + ", " + s[1]
	}
	return fmt.Sprintf("signal %d", int(sig))
}

// TimeoutError is the error of a tool that ran past its time limit and
// was killed.
type TimeoutError struct {
	// Tool is the program's name.
	Tool string
	// Limit is the time limit it ran past.
	Limit time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s ran past its time limit of %v and was stopped (allowed: a longer --tool-timeout)", e.Tool, e.Limit)
}

// Run runs c and returns what it printed. Its error is nil when the tool
// exited with status 0; a *TimeoutError when it ran past its limit; the
// context's error (wrapped) when ctx ended first; an *ExitError when it
// exited otherwise; or an error saying why it could not start. The Result
// is returned with every error but the last, holding what was printed.
func Run(ctx context.Context, c Cmd) (*Result, error) {
	limit := c.Timeout
	if limit <= 0 {
		limit = DefaultTimeout
	}
	tmp, remove, err := cleanup.MkdirTemp(TempDir(), "prefixgen-tool-")
	if err != nil {
		return nil, fmt.Errorf("toolrun: a private TMPDIR for %s: %w", c.Name(), err)
	}
	defer remove()

	runCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()

	var stdout, stderr, both capped
	var outW, errW io.Writer = io.MultiWriter(&stdout, &both), io.MultiWriter(&stderr, &both)
	if c.Log != nil {
		// os/exec copies stdout and stderr in goroutines of their own:
		// the log they share takes one write at a time.
		log := &lockedWriter{w: c.Log}
		outW, errW = io.MultiWriter(outW, log), io.MultiWriter(errW, log)
	}
	if c.ErrLog != nil {
		errW = io.MultiWriter(errW, c.ErrLog)
	}
	newCmd := func() *exec.Cmd {
		cmd := exec.CommandContext(runCtx, c.Path, c.Args...)
		cmd.Dir = c.Dir
		cmd.Env = append(append(os.Environ(), c.Env...), "TMPDIR="+tmp)
		cmd.Stdin = c.Stdin
		cmd.SysProcAttr = groupAttr()
		cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
		// A grandchild holding the pipes open must not hold Run.
		cmd.WaitDelay = 5 * time.Second
		cmd.Stdout, cmd.Stderr = outW, errW
		return cmd
	}

	start := time.Now()
	cmd := newCmd()
	err = startTracked(cmd)
	// A program just written is busy while a process forked in that
	// moment holds it open for writing, until that process runs its own
	// program (Go issue 22315): it is tried again, a few times.
	for wait := time.Millisecond; errors.Is(err, syscall.ETXTBSY) && wait <= 256*time.Millisecond; wait *= 2 {
		time.Sleep(wait)
		cmd = newCmd()
		err = startTracked(cmd)
	}
	if err != nil {
		return nil, fmt.Errorf("toolrun: %s cannot start: %w", c.Name(), err)
	}
	err = cmd.Wait()
	untrack(cmd.Process.Pid)
	// Whatever the tool left running in its group goes with it.
	_ = killGroup(cmd.Process.Pid)
	res := &Result{
		Stdout:    stdout.buf.Bytes(),
		Stderr:    stderr.buf.Bytes(),
		Output:    both.buf.Bytes(),
		Truncated: both.dropped,
		Elapsed:   time.Since(start),
	}
	switch {
	case ctx.Err() != nil:
		return res, fmt.Errorf("toolrun: %s stopped: %w", c.Name(), ctx.Err())
	case runCtx.Err() != nil:
		return res, &TimeoutError{Tool: c.Name(), Limit: limit}
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
		// ErrWaitDelay: the tool exited 0, and something it left running
		// held its output open; what the tool printed is all here.
		return res, nil
	}
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		e := &ExitError{Tool: c.Name(), Code: ee.ExitCode(), FirstLine: FirstLine(string(res.Output))}
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			e.Code, e.Signal = -1, ws.Signal()
		}
		return res, e
	}
	return res, fmt.Errorf("toolrun: %s: %w", c.Name(), err)
}

// LookPath is exec.LookPath as the shell looks a program up: one found
// through a folder PATH names relative to the current one is found too
// (Go refuses it with exec.ErrDot), and its path is made absolute, since
// the tools run in folders of their own.
func LookPath(name string) (string, error) {
	p, err := exec.LookPath(name)
	if errors.Is(err, exec.ErrDot) {
		err = nil
	}
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}

// lockedWriter is a writer that takes one Write at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TempDir is the folder under which a run's TMPDIR is made, and where a
// caller makes the folders a tool works in: the system's temporary folder
// (cleanup.TempDir, absolute) when its path is plain (PlainPath), else /tmp. Yosys hands ABC its
// temporary paths, and the library's path in the folder it runs in,
// unquoted, so they must be plain.
func TempDir() string {
	if d := cleanup.TempDir(); PlainPath(d) {
		return d
	}
	return "/tmp"
}

// PlainPath reports whether path is not empty and holds only letters,
// digits and . _ - + /, the characters a path may have in the tools'
// scripts and in the commands Yosys gives ABC, unquoted.
func PlainPath(path string) bool {
	for _, r := range path {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+/", r)) {
			return false
		}
	}
	return path != ""
}

// capped is a buffer that keeps the first MaxOutput bytes written to it.
type capped struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	dropped bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := MaxOutput - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:max(room, 0)])
		c.dropped = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

// The process groups of the runs under way, so that KillAll can end them.
var (
	groupsMu sync.Mutex
	groups   = map[int]bool{}
	stopped  bool
)

// startTracked starts cmd and registers its process group, unless KillAll
// has run: then nothing new starts.
func startTracked(cmd *exec.Cmd) error {
	groupsMu.Lock()
	defer groupsMu.Unlock()
	if stopped {
		return errors.New("prefixgen is stopping")
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	groups[cmd.Process.Pid] = true
	return nil
}

func untrack(pid int) {
	groupsMu.Lock()
	defer groupsMu.Unlock()
	delete(groups, pid)
}

// KillAll kills the process group of every run under way, and keeps any
// new run from starting. It is for a process about to exit on a signal:
// the tools run in groups of their own, which a terminal's interrupt does
// not reach.
func KillAll() {
	groupsMu.Lock()
	defer groupsMu.Unlock()
	stopped = true
	for pid := range groups {
		_ = killGroup(pid)
	}
}

// Running returns how many runs are under way.
func Running() int {
	groupsMu.Lock()
	defer groupsMu.Unlock()
	return len(groups)
}
