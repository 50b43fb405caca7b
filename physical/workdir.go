package physical

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode"

	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/stage"
	"github.com/prefixgen/prefixgen/internal/toolrun"
)

// checkWorkdir refuses, before anything is made or run, a work folder
// (Options.Workdir; "" is none) that the flow cannot use: one under a
// file, one in a folder prefixgen cannot write in (a file is written
// there, and removed), or one whose path ABC cannot read (abcReads). Yosys hands ABC the
// library's path in the folder it runs in, a design's folder of the work
// folder, as the file system names it (links resolved).
func checkWorkdir(dir string) error {
	if dir == "" {
		return nil
	}
	cannot := func(err error) error {
		return &SetupError{msg: fmt.Sprintf("physical: cannot make the work folder %s: %v: allowed a folder prefixgen can write in, or a path where one can be made", dir, err), err: err}
	}
	// The designs' folders are moved into it, or it is made.
	if err := stage.Check(dir); err != nil {
		return cannot(unwrapPath(err))
	}
	return CheckWorkdirPath(dir)
}

// CheckWorkdirPath refuses a work folder dir ("" is none) whose path,
// links resolved, ABC cannot read in the commands Yosys gives it
// (abcReads), or that is under a file: a *SetupError. prefixgen map,
// whose Yosys scripts name the library in its work folder, checks its
// folder with it too.
func CheckWorkdirPath(dir string) error {
	if dir == "" {
		return nil
	}
	cannot := func(err error) error {
		return &SetupError{msg: fmt.Sprintf("physical: cannot make the work folder %s: %v: allowed a folder prefixgen can write in, or a path where one can be made", dir, err), err: err}
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

// workdir makes the folder a Run works in, and returns with it the
// function that ends a run that succeeded (commit) and the one that
// removes the folder (remove, for every run). With dir empty it is a
// temporary folder under toolrun.TempDir (a plain path, whatever TMPDIR
// holds) and commit does nothing. Otherwise dir is the work folder,
// checked by checkWorkdir, and nothing is written into it before commit:
// the run works in a stage.Folder, beside dir where it can be (a path ABC
// reads, as dir's does) or under toolrun.TempDir, and commit moves the
// designs' folders (names) into dir, made then, all or none. A file of dir
// where a design's folder goes is refused here, before any work.
func workdir(dir string, names []string) (string, func() error, func(), error) {
	if dir == "" {
		tmp, remove, err := cleanup.MkdirTemp(toolrun.TempDir(), "prefixgen-physical-")
		if err != nil {
			return "", nil, nil, fmt.Errorf("physical: %w", err)
		}
		return tmp, func() error { return nil }, remove, nil
	}
	for _, name := range names {
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			return "", nil, nil, &SetupError{msg: fmt.Sprintf("physical: cannot make the design's folder %s: %v: allowed a work folder where it can be made", p, syscall.ENOTDIR), err: syscall.ENOTDIR}
		}
	}
	f, err := stage.New(dir, toolrun.TempDir())
	if err != nil {
		return "", nil, nil, fmt.Errorf("physical: %w", err)
	}
	commit := func() error {
		if err := f.Commit(staleFile); err != nil {
			return &SetupError{msg: fmt.Sprintf("physical: cannot move the designs' folders into the work folder %s: %v: allowed a work folder where they can be made", dir, unwrapPath(err)), err: err}
		}
		return nil
	}
	return f.Dir, commit, f.Remove, nil
}

// StageWorkdir is for a caller that runs the flow several times (Run
// after Run) and must keep the files of all of them in opt.Workdir or of
// none: it returns opt with Workdir set to a temporary folder that the
// runs write into, commit, which moves what they wrote into opt.Workdir
// once they have all succeeded, and remove, which removes the temporary
// folder (call it in every case). A work folder checkWorkdir refuses is a
// *SetupError; with opt.Workdir empty, opt is returned as it is and commit
// does nothing.
func StageWorkdir(opt Options) (staged Options, commit func() error, remove func(), err error) {
	if opt.Workdir == "" {
		return opt, func() error { return nil }, func() {}, nil
	}
	if err := checkWorkdir(opt.Workdir); err != nil {
		return opt, nil, nil, err
	}
	dir, commit, remove, err := workdir(opt.Workdir, nil)
	if err != nil {
		return opt, nil, nil, err
	}
	staged = opt
	staged.Workdir = dir
	return staged, commit, remove, nil
}

// staleFile reports whether rel, a path under the work folder, is a file
// an earlier run with orders (Options.Orders) left in a design's folder
// (generic.*, order-K) that this run did not write again, so that a run
// without them, or with fewer, leaves no earlier run's files beside its
// own.
func staleFile(rel string) bool {
	if !strings.Contains(rel, "/") {
		return false // a design's folder, not a file in one
	}
	name := path.Base(rel)
	if k, order := strings.CutPrefix(name, "order-"); order && k != "" && strings.Trim(k, "0123456789") == "" {
		return true
	}
	return name == "generic.ys" || name == "generic.log" || name == "generic.v"
}
