package tooltest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/toolrun"
)

// RequireEnv is the environment variable that turns a missing tool from a
// skip into a failure when it is "1".
const RequireEnv = "PREFIXGEN_REQUIRE_TOOLS"

// ToolLimit bounds each run of an outside tool that Command makes.
const ToolLimit = 10 * time.Minute

// Command returns the command that runs the program name with args, killed
// when the test ends or after ToolLimit, whichever comes first.
func Command(t testing.TB, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(t.Context(), ToolLimit)
	t.Cleanup(cancel)
	return exec.CommandContext(ctx, name, args...)
}

// Path returns the path of the named program. When it is not installed it
// skips the test, or fails it when RequireEnv is "1".
func Path(t testing.TB, name string) string {
	t.Helper()
	path, err := toolrun.LookPath(name)
	if err == nil {
		return path
	}
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s is not installed and %s=1: install it (.ci/run installs every tool the tests run: apt-get install -y iverilog verilator yosys graphviz clang-14 chromium cadical opensta qflow-tech-osu018 qflow-tech-osu035 ghdl, and from non-free nvidia-cuda-toolkit g++-11)", name, RequireEnv)
	}
	t.Skipf("%s is not installed: skipping (set %s=1 to make this a failure)", name, RequireEnv)
	return ""
}

// File checks that the file at path, which the Debian package pkg installs
// (a standard-cell library), is there. When it is not it skips the test, or
// fails it when RequireEnv is "1".
func File(t testing.TB, path, pkg string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return
	}
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s is missing and %s=1: install it (apt-get install -y %s)", path, RequireEnv, pkg)
	}
	t.Skipf("%s is missing: skipping (apt-get install -y %s; set %s=1 to make this a failure)", path, pkg, RequireEnv)
}

// Flow checks that the synthesis and timing flow can run: Yosys, OpenSTA
// and the Liberty file at liberty, which Debian's qflow-tech-osu018
// installs for the default library. What is missing skips the test, or
// fails it when RequireEnv is "1".
func Flow(t testing.TB, liberty string) {
	t.Helper()
	Path(t, "yosys")
	Path(t, "sta")
	File(t, liberty, "qflow-tech-osu018")
}

// ClaimsEnv is the environment variable that runs the claim tests when it
// is "1": the tests that re-measure, through the whole synthesis flow, a
// figure or a picture that docs/ reports (the goal adders against the named
// families, the area–delay front of every network). They take minutes of
// syntheses, so go test ./... skips them and CI runs them in a step of
// their own (.ci/run: PREFIXGEN_CLAIMS=1 go test -run '^TestClaim' ./...).
const ClaimsEnv = "PREFIXGEN_CLAIMS"

// Claims skips the test unless ClaimsEnv is "1". A claim test is named
// TestClaim…, so that CI's step finds every one by its name; Claims fails
// one named otherwise.
func Claims(t *testing.T) {
	t.Helper()
	if !strings.HasPrefix(t.Name(), "TestClaim") {
		t.Fatalf("%s measures a claim of docs/ but is not named TestClaim…: CI's claims step (-run '^TestClaim') would never run it", t.Name())
	}
	if os.Getenv(ClaimsEnv) != "1" {
		t.Skipf("re-measures a claim of docs/ through the flow: run with %s=1 (CI does, in a step of its own)", ClaimsEnv)
	}
}

// SweepsEnv is the environment variable that runs the sweeps whole when
// it is "1": the tests that put every family, type, operator or topology
// through a slow outside tool (clang-14 and nvcc on the CUDA kernels, the
// hardware tools on every adder). go test ./... runs a sample of each, to
// stay under five minutes on two cores; CI runs them whole in a step of
// their own (.ci/run: PREFIXGEN_SWEEPS=1 go test ./...).
const SweepsEnv = "PREFIXGEN_SWEEPS"

// Sweeps reports whether SweepsEnv is "1".
func Sweeps() bool { return os.Getenv(SweepsEnv) == "1" }

// Sweep returns all when Sweeps is on, and otherwise the elements of all
// at the indices sample, logging how many of how many the test checks. An
// index out of range or given twice fails the test, and so does a test
// whose name does not start with SweepPrefix.
func Sweep[T any](t testing.TB, what string, all []T, sample ...int) []T {
	t.Helper()
	sweepNamed(t)
	if Sweeps() {
		return all
	}
	var out []T
	seen := map[int]bool{}
	for _, i := range sample {
		if i < 0 || i >= len(all) || seen[i] {
			t.Fatalf("%s: the sample's index %d is out of range [0, %d) or given twice", what, i, len(all))
		}
		seen[i] = true
		out = append(out, all[i])
	}
	t.Logf("%s: a sample, %d of %d (all with %s=1, as CI runs them)", what, len(out), len(all), SweepsEnv)
	return out
}

// SweepPrefix starts the name of every test that calls Sweep or
// SweepOnly, so that CI's sweeps step runs them alone (go test -run
// '^TestSweep' with SweepsEnv=1), as it runs the claims.
const SweepPrefix = "TestSweep"

// sweepNamed fails a test that sweeps under another name.
func sweepNamed(t testing.TB) {
	t.Helper()
	if root, _, _ := strings.Cut(t.Name(), "/"); !strings.HasPrefix(root, SweepPrefix) {
		t.Fatalf("%s sweeps: its name starts with %s, the tests CI runs whole with %s=1", root, SweepPrefix, SweepsEnv)
	}
}

// SweepOnly skips the test unless Sweeps is on: a whole test that a
// sample of another covers.
func SweepOnly(t testing.TB) {
	t.Helper()
	sweepNamed(t)
	if !Sweeps() {
		t.Skipf("a sweep: run with %s=1 (CI does, in a step of its own)", SweepsEnv)
	}
}

// Shared returns the path of the file rel under the folder shared beside
// the module's root (../shared from the folder of go.mod), where the
// upstream files the tests read and the project does not carry lie
// (pdk/nangate45/nangate45_typ.lib.gz). When it is not there it skips
// the test, or fails it when RequireEnv is "1".
func Shared(t testing.TB, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	for err == nil {
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			err = os.ErrNotExist
		}
		dir = parent
	}
	path := filepath.Join(filepath.Dir(dir), "shared", filepath.FromSlash(rel))
	if _, serr := os.Stat(path); err == nil && serr == nil {
		return path
	}
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s is missing and %s=1: put the upstream files beside the module (see ../shared/README.md)", path, RequireEnv)
	}
	t.Skipf("%s is missing: skipping (set %s=1 to make this a failure)", path, RequireEnv)
	return ""
}

// Main runs the tests of m and then removes what the run left for the end
// of the process (package cleanup: the libraries package pdk writes for
// the tools), as prefixgen's main does, and exits with the tests' status.
// Every package whose tests may write a library calls it from TestMain,
// so that no run leaves a folder behind in the temporary directory.
func Main(m *testing.M) {
	code := m.Run()
	cleanup.RemoveAll()
	os.Exit(code)
}
