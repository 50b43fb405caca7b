package gputest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// NoCUDA is the CUDA installation clang-14 is pointed at: none, so that
// the checks do not depend on whether this machine has a CUDA toolkit
// (with one, clang takes its version and launches through
// cudaLaunchKernel, which the stubs do not declare).
const NoCUDA = "/nonexistent-cuda"

// pool holds one token per CPU: every clang-14 run of the test binary
// takes one, so that tests run in parallel share the CPUs rather than each
// starting a run per CPU.
var pool = make(chan struct{}, runtime.NumCPU())

// Testdata returns the absolute path of name in gpukernels/testdata, found
// from the test's folder up to the module's root.
func Testdata(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "gpukernels", "testdata", name)
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the test's folder")
		dir = parent
	}
}

// Clang runs clang-14 with args in dir, one of the pool's runs, and
// returns what it printed and its error (a *toolrun.ExitError when it
// fails). A missing clang-14 skips the test, or fails it as tooltest.Path
// does.
func Clang(t testing.TB, dir string, args ...string) (string, error) {
	t.Helper()
	out, _, err := run(t, tooltest.Path(t, "clang-14"), dir, args...)
	return out, err
}

// HostProgram builds main.cc in dir with clang++-14 (C++17, -O1,
// threads) and runs it there, each one of the pool's runs and limited to
// a minute, and returns what the program printed and its error; a build
// that fails returns clang's output and its error. A missing clang++-14
// skips the test, or fails it as tooltest.Path does.
func HostProgram(t testing.TB, dir string) (string, error) {
	t.Helper()
	clang := tooltest.Path(t, "clang++-14")
	out, _, err := runLimited(t, clang, dir, time.Minute, "-std=c++17", "-O1", "-pthread", "-o", "program", "main.cc")
	if err != nil {
		return out, err
	}
	out, _, err = runLimited(t, filepath.Join(dir, "program"), dir, time.Minute)
	return out, err
}

// run runs the program at path with args in dir, one of the pool's runs,
// and returns its output, how long it ran and its error.
func run(t testing.TB, path, dir string, args ...string) (string, time.Duration, error) {
	t.Helper()
	return runLimited(t, path, dir, 0, args...)
}

// runLimited is run with a time limit; 0 means toolrun.DefaultTimeout.
func runLimited(t testing.TB, path, dir string, limit time.Duration, args ...string) (string, time.Duration, error) {
	t.Helper()
	pool <- struct{}{}
	defer func() { <-pool }()
	res, err := toolrun.Run(context.Background(), toolrun.Cmd{Path: path, Args: args, Dir: dir, Timeout: limit})
	if res == nil {
		return "", 0, err
	}
	return string(res.Output), res.Elapsed, err
}

// ClangArgs is DESIGN.md's command line for compiling CUDA to PTX without
// the toolkit, at -O3 as nvcc compiles by default, but for the GPU:
// clang-14 knows architectures up to sm_86 and refuses sm_90, so the check
// compiles for sm_80 (PTX ISA 7.0).
func ClangArgs(prelude, src, out string) []string {
	return []string{"-O3", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_80", "-nocudainc", "-nocudalib", "--cuda-path=" + NoCUDA,
		"-Xclang", "-target-feature", "-Xclang", "+ptx70", "-include", prelude, "-S", src, "-o", out}
}

// HostArgs is clang-14's command line for checking the host code of src:
// the CUDA runtime and CUB replaced by the declarations in
// gpukernels/testdata/hoststub, the language features by prelude.cuh.
func HostArgs(t testing.TB, src string) []string {
	t.Helper()
	return []string{"-x", "cuda", "--cuda-host-only", "-fsyntax-only", "-nocudainc", "-nocudalib", "--cuda-path=" + NoCUDA, "-std=c++17",
		"-I", Testdata(t, "hoststub"), "-include", "stdlib.h", "-include", Testdata(t, "prelude.cuh"), src}
}

// Unit is one translation unit for clang-14: headers written beside it and
// its own source.
type Unit struct {
	Name    string
	Headers map[string]string
	Source  string
	// Entries are strings that must appear together in one .entry line of
	// the PTX, such as a namespace and a kernel name.
	Entries [][]string
	// Extra are more clang arguments, placed first.
	Extra []string
	// Lenient compiles the unit without StrictWarnings: for a harness
	// whose helpers serve every mode, some unread in one, or a header
	// with a mistake planted in it.
	Lenient bool
}

// StrictWarnings are the warnings a header prefixgen writes must compile
// without: a user builds it into code of their own with them on.
var StrictWarnings = []string{"-Wall", "-Wextra", "-Werror"}

// CompileUnits compiles the units to PTX with clang-14 at -O3
// (ClangArgs), with StrictWarnings unless a unit is Lenient, at once but
// for the pool, checks that each compiles without a diagnostic and defines
// its entries, and returns the PTX of each unit,
// in the order of units.
func CompileUnits(t *testing.T, units []Unit) []string {
	t.Helper()
	clang := tooltest.Path(t, "clang-14")
	prelude := Testdata(t, "prelude.cuh")
	dir := t.TempDir()
	type result struct {
		out, ptx string
		err      error
		took     time.Duration
	}
	results := make([]result, len(units))
	var wg sync.WaitGroup
	for i, u := range units {
		wg.Go(func() {
			r := &results[i]
			d := filepath.Join(dir, u.Name)
			if r.err = os.MkdirAll(d, 0o755); r.err != nil {
				return
			}
			for name, text := range u.Headers {
				if err := os.WriteFile(filepath.Join(d, name), []byte(text), 0o644); err != nil {
					r.err = err
					return
				}
			}
			src, ptx := filepath.Join(d, "unit.cu"), filepath.Join(d, "unit.ptx")
			if r.err = os.WriteFile(src, []byte(u.Source), 0o644); r.err != nil {
				return
			}
			args := slices.Clone(u.Extra)
			if !u.Lenient {
				args = append(args, StrictWarnings...)
			}
			r.out, r.took, r.err = run(t, clang, d, append(args, ClangArgs(prelude, src, ptx)...)...)
			if r.err == nil {
				b, err := os.ReadFile(ptx)
				r.ptx, r.err = string(b), err
			}
		})
	}
	wg.Wait()
	slowest := 0
	for i := range results {
		if results[i].took > results[slowest].took {
			slowest = i
		}
	}
	if len(units) > 0 {
		t.Logf("clang-14 compiled %d units; the slowest, %s, in %v", len(units), units[slowest].Name, results[slowest].took.Round(time.Millisecond))
	}
	ptxs := make([]string, len(units))
	for i, u := range units {
		r := results[i]
		require.NoError(t, r.err, "%s: clang-14 said:\n%s", u.Name, r.out)
		require.Empty(t, strings.TrimSpace(r.out), "%s: clang-14 warns", u.Name)
		var entries []string
		for line := range strings.SplitSeq(r.ptx, "\n") {
			if strings.HasPrefix(line, ".visible .entry ") {
				entries = append(entries, line)
			}
		}
		for _, want := range u.Entries {
			found := false
			for _, e := range entries {
				all := true
				for _, w := range want {
					all = all && strings.Contains(e, w)
				}
				found = found || all
			}
			require.True(t, found, "%s: no PTX entry with %q among\n%s", u.Name, want, strings.Join(entries, "\n"))
		}
		ptxs[i] = r.ptx
	}
	return ptxs
}

// NVCC runs nvcc with NVCCArgs(args...) in dir, one of the pool's runs, and
// returns what it printed and its error. A missing nvcc skips the test, or
// fails it as tooltest.Path does.
func NVCC(t testing.TB, dir string, args ...string) (string, error) {
	t.Helper()
	out, _, err := run(t, tooltest.Path(t, "nvcc"), dir, NVCCArgs(args...)...)
	return out, err
}

// NVCCArgs returns nvcc's arguments for sm_90 code with warnings as errors
// and args after them, with g++-11 as the host compiler where it is
// installed (Debian's CUDA 11.8 takes no newer g++).
func NVCCArgs(args ...string) []string {
	base := []string{"-O3", "-std=c++17", "-arch=sm_90", "-Xptxas", "-v", "-Werror", "all-warnings"}
	if _, err := toolrun.LookPath("g++-11"); err == nil {
		base = append([]string{"-ccbin", "g++-11"}, base...)
	}
	return append(base, args...)
}

// SASS returns cuobjdump -sass of the cubin at path, run in dir, one of
// the pool's runs. A missing cuobjdump skips the test, or fails it as
// tooltest.Path does.
func SASS(t testing.TB, dir, path string) string {
	t.Helper()
	out, _, err := run(t, tooltest.Path(t, "cuobjdump"), dir, "-sass", path)
	require.NoError(t, err, "cuobjdump said:\n%s", out)
	return out
}
