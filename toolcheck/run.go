package toolcheck

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// run runs a program in dir, filling r's time, and returns its combined
// output; a missing program sets r to Missing and returns ok false.
func run(ctx context.Context, dir string, r *Result, name string, args ...string) (out string, err error, ok bool) {
	path, lerr := exec.LookPath(name)
	if lerr != nil {
		r.Status = Missing
		r.Detail = name + " is not installed"
		return "", nil, false
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	// The tools' own temporary files (Yosys's abc pass makes a folder)
	// go into dir, which goes when the check ends or is interrupted: a
	// tool killed by the interrupt cannot remove them itself.
	if abs, err := filepath.Abs(dir); err == nil {
		cmd.Env = append(os.Environ(), "TMPDIR="+abs)
	}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	start := time.Now()
	err = cmd.Run()
	r.Time += time.Since(start)
	return buf.String(), err, true
}

// fail sets r to Fail with the first meaningful line of out, or err.
func fail(r Result, out string, err error) Result {
	r.Status = Fail
	r.Detail = firstLine(out)
	if r.Detail == "" && err != nil {
		r.Detail = err.Error()
	}
	return r
}

// firstLine returns the first line of out that says something, trimmed.
func firstLine(out string) string {
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "VCD") {
			return line
		}
	}
	return ""
}
