package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/cleanup"
)

// mainEnv asks the test binary to run as prefixgen itself (TestMain), so
// that a test can stop a real process with a signal.
const mainEnv = "PREFIXGEN_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) == "1" {
		main()
	}
	code := m.Run()
	cleanup.RemoveAll() // the libraries written for the tools, as main removes them
	os.Exit(code)
}

// A signal (an interrupt, SIGTERM, or a hang-up when the terminal closes)
// while -o FILE is being written removes the temporary file that would have
// become FILE, and the command exits with 128 + the signal's number after
// one line: nothing half written is left.
func TestSignalRemovesPartialOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a large gen")
	}
	for sig, name := range map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "interrupt", syscall.SIGHUP: "hang-up (SIGHUP)"} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "big.txt")
			cmd := exec.Command(os.Args[0], "gen", "-t", "sklansky", "-n", "300000", "-f", "json", "-o", out)
			cmd.Env = append(os.Environ(), mainEnv+"=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			defer cmd.Process.Kill()
			deadline := time.Now().Add(2 * time.Minute)
			for {
				tmp, _ := filepath.Glob(filepath.Join(dir, ".big.txt.*.tmp"))
				if len(tmp) > 0 {
					break
				}
				require.True(t, time.Now().Before(deadline), "no temporary file appeared")
				time.Sleep(10 * time.Millisecond)
			}
			require.NoError(t, cmd.Process.Signal(sig))
			err := cmd.Wait()
			exit, ok := errors.AsType[*exec.ExitError](err)
			require.True(t, ok, "exit status: %v", err)
			assert.Equal(t, 128+int(sig), exit.ExitCode())
			assert.Equal(t, "prefixgen: stopped by "+name+"\n", stderr.String())
			left, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, left, "nothing left in the output's folder")
		})
	}
}

// An interrupt while the flow runs leaves --workdir as it was: not made,
// and nothing beside it (the flow's folders are written there only at the
// end of a run that succeeds).
func TestSignalLeavesNoWorkdir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	require.NoError(t, os.Mkdir(base, 0o755))
	bin, started := stalledFlow(t, dir)
	lib := tinyLibrary(t, dir)
	interruptStarted(t, bin, started, "synth", "-t", "ripple", "-n", "4", "--liberty", lib, "--workdir", filepath.Join(base, "work"))
	left, err := os.ReadDir(base)
	require.NoError(t, err)
	assert.Empty(t, left, "no work folder, nothing beside it")
}

// stalledFlow writes stand-ins for Yosys and OpenSTA into dir/bin whose
// first real run touches the file started and waits there, and returns
// the folder and the file.
func stalledFlow(t *testing.T, dir string) (bin, started string) {
	t.Helper()
	bin, started = filepath.Join(dir, "bin"), filepath.Join(dir, "started")
	require.NoError(t, os.Mkdir(bin, 0o755))
	for name, body := range map[string]string{
		"yosys": `[ "$2" = -p ] && exit 0; touch ` + started + `; sleep 30`,
		"sta":   `exit 0`,
	} {
		script := "#!/bin/sh\ncase \"$1\" in -V) echo 'Yosys 0.0 (stand-in)'; exit 0;; -version) echo 2.0.0; exit 0;; esac\n" + body + "\n"
		require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755))
	}
	return bin, started
}

// awaitStarted waits up to a minute for the stand-in flow to touch the
// file started, failing the test with what said tells otherwise.
func awaitStarted(t *testing.T, started string, said func() string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(started); err == nil {
			return
		}
		require.True(t, time.Now().Before(deadline), "the flow did not start: %s", said())
		time.Sleep(10 * time.Millisecond)
	}
}

// interruptStarted runs prefixgen with args and the tools of bin first on
// PATH, interrupts it once the file started is there, and checks that it
// exits with 128 + SIGINT.
func interruptStarted(t *testing.T, bin, started string, args ...string) {
	t.Helper()
	os.Remove(started)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), mainEnv+"=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	awaitStarted(t, started, stderr.String)
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	err := cmd.Wait()
	exit, ok := errors.AsType[*exec.ExitError](err)
	require.True(t, ok, "exit status: %v", err)
	assert.Equal(t, 128+int(syscall.SIGINT), exit.ExitCode())
}

// An interrupt while map runs leaves --workdir as it was: a folder it
// made is removed, and an empty folder given is left empty (map writes
// into it as it goes, and keeps it at the end, whatever the outcome).
func TestSignalMapWorkdir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, started := stalledFlow(t, dir)
	design := filepath.Join(dir, "add.v")
	require.NoError(t, os.WriteFile(design, []byte("module add(input [3:0] a, b, output [4:0] s);\n  assign s = a + b;\nendmodule\n"), 0o644))
	interruptStarted(t, bin, started, "map", design, "--top", "add", "--clock-period", "1", "--workdir", filepath.Join(dir, "new", "work"))
	assert.NoDirExists(t, filepath.Join(dir, "new"), "the folders map made removed")
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	interruptStarted(t, bin, started, "map", design, "--top", "add", "--clock-period", "1", "--workdir", empty)
	left, err := os.ReadDir(empty)
	require.NoError(t, err)
	assert.Empty(t, left, "the empty folder left empty")
}

// On a terminal the bar is cleared before standard output is written:
// explore's table began on the bar's line ("… 6/6 optimizer runs, done in
// 6.4snetwork  from …"). The command runs under script(1), which gives it
// a terminal and keeps what the terminal showed.
func TestBarClearedBeforeOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs explore at 96 bits under script(1)")
	}
	scriptPath, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) is not installed")
	}
	t.Parallel()
	shown := filepath.Join(t.TempDir(), "typescript")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, scriptPath, "-qfec", emit.ShellWord(os.Args[0])+" explore -n 96", shown)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	text, err := os.ReadFile(shown)
	require.NoError(t, err)
	require.Contains(t, string(text), "optimizer runs", "the bar was drawn")
	for _, line := range strings.Split(string(text), "\n") {
		if i := strings.Index(line, "network"); i >= 0 {
			// What the terminal shows of the line: the text after its last
			// carriage return, and the header alone in it.
			shownLine := line[strings.LastIndex(line[:i], "\r")+1:]
			assert.True(t, strings.HasPrefix(strings.TrimLeft(shownLine, " "), "network"), "%q", line)
			break
		}
	}
}

// A reader of the progress that goes away (2>&1 | head -1) stops prefixgen
// as a signal does: its tools killed, its temporary folders removed, exit
// 128 + SIGPIPE without a word. Go had killed it at the write, and the
// folders were left in TMPDIR.
func TestBrokenPipeCleansUp(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin, started := stalledFlow(t, dir)
	lib := tinyLibrary(t, dir)
	tmp := filepath.Join(dir, "tmp")
	require.NoError(t, os.Mkdir(tmp, 0o755))
	cmd := exec.Command(os.Args[0], "synth", "-t", "ripple", "-n", "4", "--liberty", lib, "--progress")
	cmd.Env = append(os.Environ(), mainEnv+"=1", "TMPDIR="+tmp, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	progress, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	awaitStarted(t, started, func() string { return "" })
	require.NoError(t, progress.Close()) // the reader goes
	err = cmd.Wait()
	exit, ok := errors.AsType[*exec.ExitError](err)
	require.True(t, ok, "exit status: %v", err)
	assert.Equal(t, 128+int(syscall.SIGPIPE), exit.ExitCode(), "%v", exit)
	assert.Empty(t, stdout.String())
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "nothing left in TMPDIR")
}

// Output to a reader that went away (gen … | head -c 10, or an -o FIFO
// closed early) ends with 128 + SIGPIPE and no message, as a shell's
// commands do, whichever comes first of the signal and the failed write;
// the FIFO had been "cannot write", exit status 2.
func TestBrokenPipeOutput(t *testing.T) {
	t.Parallel()
	for _, viaFIFO := range []bool{false, true} {
		dir := t.TempDir()
		args := []string{"gen", "-t", "kogge-stone", "-n", "4096", "-f", "verilog"}
		fifo := filepath.Join(dir, "fifo")
		if viaFIFO {
			require.NoError(t, syscall.Mkfifo(fifo, 0o644))
			args = append(args, "-o", fifo)
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), mainEnv+"=1", "TMPDIR="+dir)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		var out io.ReadCloser
		var err error
		if !viaFIFO {
			out, err = cmd.StdoutPipe()
			require.NoError(t, err)
		}
		require.NoError(t, cmd.Start())
		if viaFIFO {
			out, err = os.Open(fifo)
			require.NoError(t, err)
		}
		_, err = io.ReadFull(out, make([]byte, 10))
		require.NoError(t, err)
		require.NoError(t, out.Close())
		err = cmd.Wait()
		exit, ok := errors.AsType[*exec.ExitError](err)
		require.True(t, ok, "exit status: %v", err)
		assert.Equal(t, 128+int(syscall.SIGPIPE), exit.ExitCode(), "-o FIFO %v: %v", viaFIFO, exit)
		assert.Empty(t, stderr.String())
	}
}

// TestSIGPIPEOfAnotherPipe: a SIGPIPE while standard output and error are
// read (a pipe to a tool broke, here sent by hand) does not stop
// prefixgen: only its own output's reader going away does.
//
// The output goes to a FIFO the test reads only after the signal: the
// document is larger than the pipe's buffer, so prefixgen is still
// writing it when the SIGPIPE comes.
func TestSIGPIPEOfAnotherPipe(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "out.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	cmd := exec.Command(os.Args[0], "gen", "-t", "sklansky", "-n", "4096", "-f", "json", "-o", fifo)
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	// Opening the reading end waits for prefixgen to open the writing one.
	r, err := os.Open(fifo)
	require.NoError(t, err)
	defer r.Close()
	time.Sleep(100 * time.Millisecond) // prefixgen fills the pipe and waits
	require.NoError(t, cmd.Process.Signal(syscall.SIGPIPE))
	time.Sleep(100 * time.Millisecond)
	data, err := io.ReadAll(r)
	require.NoError(t, err)
	require.NoError(t, cmd.Wait(), stderr.String())
	assert.Greater(t, len(data), 1<<17, "more than a pipe's buffer")
	assert.True(t, json.Valid(data), "the whole document")
}

// epipeWriter is standard output whose reader has gone.
type epipeWriter struct{}

func (epipeWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
}

// A write that fails with EPIPE ends every command as the signal does:
// 128 + SIGPIPE, no message. cuda's subcommands and map had lost the cause
// on the way (exit 1, "broken pipe").
func TestBrokenPipeEveryCommand(t *testing.T) {
	t.Parallel()
	report := filepath.Join("..", "..", "docs", "bench", "h200-int64-add-cuda11.8.json")
	for _, args := range [][]string{
		{"gen", "-t", "sklansky", "-n", "8"},
		{"stats", "-t", "all", "-n", "8"},
		{"cuda", "emit", "-t", "sklansky", "-n", "8"},
		{"cuda", "report", report},
		{"explore", "-n", "8", "--no-optimize"},
		{"optimize", "-n", "8", "--max-depth", "4"},
	} {
		var stderr bytes.Buffer
		status := run(append([]string{"prefixgen"}, args...), epipeWriter{}, &stderr)
		assert.Equal(t, brokenPipe, status, "%v: %s", args, stderr.String())
		assert.Empty(t, stderr.String(), args)
	}
}
