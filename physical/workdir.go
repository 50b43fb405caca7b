package physical

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode"

	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/toolrun"
)

// checkWorkdir refuses, before anything is made or run, a work folder
// (Options.Workdir; "" is none) that the flow cannot use: one under a
// file, or one whose path ABC cannot read (abcReads). Yosys hands ABC the
// library's path in the folder it runs in, a design's folder of the work
// folder, as the file system names it (links resolved).
func checkWorkdir(dir string) error {
	if dir == "" {
		return nil
	}
	cannot := func(err error) error {
		return &SetupError{msg: fmt.Sprintf("physical: cannot make the work folder %s: %v: allowed a folder, or a path where one can be made", dir, err), err: err}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return cannot(err)
	}
	// The deepest folder of the path that exists, links resolved, and the
	// rest, made by Run.
	have, rest := abs, ""
	for {
		if st, err := os.Stat(have); err == nil {
			if !st.IsDir() {
				return cannot(syscall.ENOTDIR)
			}
			if real, err := filepath.EvalSymlinks(have); err == nil {
				have = real
			}
			break
		}
		up := filepath.Dir(have)
		if up == have {
			break
		}
		have, rest = up, filepath.Join(filepath.Base(have), rest)
	}
	if path := filepath.Join(have, rest); !abcReads(path) {
		where := strconv.Quote(dir)
		if abcReads(dir) {
			// The user's spelling reads; the folder it names does not.
			where += " (" + strconv.Quote(path) + ")"
		}
		return &SetupError{msg: fmt.Sprintf("physical: work folder %s has a character ABC cannot read in the paths Yosys gives it: allowed a path without ; ' \" or control characters", where)}
	}
	return nil
}

// abcReads reports whether ABC reads path as one word in the commands
// Yosys gives it: its commands end at ';', its words at quotes and at
// white space but the space, which Yosys's quotes keep.
func abcReads(path string) bool {
	return !strings.ContainsFunc(path, func(r rune) bool {
		return r == ';' || r == '\'' || r == '"' || unicode.IsControl(r)
	})
}

// workdir makes the folder a Run works in: the work folder dir, checked
// by checkWorkdir, or with dir empty a temporary folder under
// toolrun.TempDir (a plain path, whatever TMPDIR holds) that remove
// removes.
func workdir(dir string) (string, func(), error) {
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", nil, &SetupError{msg: fmt.Sprintf("physical: cannot make the work folder %s: %v: allowed a folder, or a path where one can be made", dir, unwrapPath(err)), err: err}
		}
		return dir, func() {}, nil
	}
	tmp, remove, err := cleanup.MkdirTemp(toolrun.TempDir(), "prefixgen-physical-")
	if err != nil {
		return "", nil, fmt.Errorf("physical: %w", err)
	}
	return tmp, remove, nil
}
