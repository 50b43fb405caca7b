package bench_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels/bench"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

func TestParsePTXAS(t *testing.T) {
	ks := bench.ParsePTXAS(fakePTXAS + "\nnvcc warning : something else\n")
	require.Equal(t, []bench.KernelResources{
		{Name: "_ZN9prefixgen2ns10ScanKernelIiNS0_3SumEEEvPKT_PS3_xNS0_9ScanStateIS3_EEbS3_T0_", Arch: "sm_90", Registers: 40},
		{Name: "_Z10FillKernelPix", Arch: "sm_90", Registers: 255, StackFrame: 16, SpillStores: 12, SpillLoads: 8, SharedBytes: 4096},
	}, ks, "the helper's properties are not the kernel's")
	assert.Empty(t, bench.ParsePTXAS("no ptxas here"))
}

// fakeSanitizer writes a compute-sanitizer that runs the program after its
// options, writes its summary to its --log-file as the real one does
// ("ERROR SUMMARY: errors errors", or for racecheck "RACECHECK SUMMARY:
// errors hazards displayed (errors errors, 0 warnings)", as seen on an
// H200) and exits as the program does, or 1 with errors; and returns its
// path.
func fakeSanitizer(t *testing.T, errors string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "compute-sanitizer")
	script := `#!/bin/sh
log=/dev/stderr
while [ $# -gt 0 ]; do
  case "$1" in
    --log-file) log="$2"; shift 2;;
    --tool) tool="$2"; shift 2;;
    --error-exitcode) shift 2;;
    *) break;;
  esac
done
"$@"
rc=$?
if [ "$tool" = racecheck ]; then
  echo "========= RACECHECK SUMMARY: ` + errors + ` hazards displayed (` + errors + ` errors, 0 warnings)" > "$log"
else
  echo "========= ERROR SUMMARY: ` + errors + ` errors" > "$log"
fi
if [ ` + errors + ` -ne 0 ]; then exit 1; fi
exit $rc
`
	require.NoError(t, os.WriteFile(p, []byte(script), 0o755))
	return p
}

// TestSuitePlumbing runs Suite with a fake nvcc and a fake
// compute-sanitizer, since this machine has neither nor a GPU: every table
// is built, sanitized with each tool (--sanitize) and run, and written to
// DIR/NAME.json with nvcc's command line, ptxas's figures and the
// sanitizer runs; a sanitizer error, a wrong result and a missing
// sanitizer or device each show.
func TestSuitePlumbing(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	for _, tool := range []string{"cp", "cat", "test"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the fakes need %s on PATH", tool)
		}
	}
	sk := gputest.Build(t, "sklansky", 32, nil)
	tables := []bench.SuiteTable{
		{Name: "int32-add", Bench: bench.BenchOptions{Networks: []*network.Network{sk}}},
		{Name: "float-max", Bench: bench.BenchOptions{Networks: []*network.Network{sk}, Type: "float", Op: "max"}},
	}
	// The fake harness says in its device name whether it was sanitized.
	harness := `if [ "$1" = "--sanitize" ]; then mode=sanitize; else mode=timed; fi
if [ "$1" = "--progress" ]; then echo "prefixgen bench:     0.1 s  device-scan sklansky inclusive n=31 0.0100 ms ok" >&2; fi
cat <<EOF
{"device":"Fake GPU $mode","driver":"12.4","nvcc":"12.4.131","results":[
{"kernel":"device-scan","topology":"sklansky","scan":"inclusive","type":"int32","op":"add","n":31,"ms":0.01,"gbps":0.1,"vs_cub":1,"vs_memcpy":null,"offset":1,"batch":256,"correct":true}
]}
EOF`
	nvcc := fakeNVCC(t, harness)
	dir := filepath.Join(t.TempDir(), "out")
	var log strings.Builder
	var steps [][2]int
	reps, err := bench.Suite(context.Background(), bench.SuiteOptions{
		Dir: dir, Tables: tables, NVCC: nvcc, Sanitizer: fakeSanitizer(t, "0"), Log: &log,
		Progress: func(done, total int) { steps = append(steps, [2]int{done, total}) },
	})
	require.NoError(t, err, log.String())
	require.Len(t, reps, 2)
	// 0 once counted, so that a bar shows while the first build lasts,
	// then each table's build, three sanitizer runs and timed run,
	// counted as they end.
	require.Len(t, steps, 11)
	for i, s := range steps {
		assert.Equal(t, [2]int{i, 10}, s)
	}
	for i, name := range []string{"int32-add", "float-max"} {
		b, err := os.ReadFile(filepath.Join(dir, name+".json"))
		require.NoError(t, err)
		var rep bench.BenchReport
		require.NoError(t, json.Unmarshal(b, &rep))
		assert.Equal(t, reps[i], &rep)
		assert.Equal(t, "Fake GPU timed", rep.Device)
		assert.Equal(t, 1, rep.Results[0].Offset)
		assert.Equal(t, 256, rep.Results[0].Batch)
		assert.Equal(t, "nvcc", rep.NVCCCommand[0])
		assert.Contains(t, rep.NVCCCommand, "-Xptxas")
		assert.Equal(t, bench.ParsePTXAS(fakePTXAS), rep.Kernels)
		require.Len(t, rep.Sanitize, 3)
		for j, tool := range bench.SanitizeTools {
			assert.Equal(t, bench.SanitizeResult{Tool: tool, OK: true, Errors: 0}, rep.Sanitize[j])
			assert.FileExists(t, filepath.Join(dir, name, "sanitize-"+tool+".log"))
		}
		for _, f := range []string{"harness.cu", "harness_kernels.cuh", "harness", "nvcc.log"} {
			assert.FileExists(t, filepath.Join(dir, name, f))
		}
		// The timed run writes a line per result as it comes.
		runLog, err := os.ReadFile(filepath.Join(dir, name, "run.log"))
		require.NoError(t, err)
		assert.Equal(t, "prefixgen bench:     0.1 s  device-scan sklansky inclusive n=31 0.0100 ms ok\n", string(runLog))
	}
	assert.Contains(t, log.String(), "prefixgen cuda bench: running float-max")

	// The sanitizer finds errors: the tables are still written, and the
	// error names each run.
	dir2 := t.TempDir()
	reps, err = bench.Suite(context.Background(), bench.SuiteOptions{
		Dir: dir2, Tables: tables[:1], NVCC: nvcc, Sanitizer: fakeSanitizer(t, "2"),
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "table int32-add: compute-sanitizer --tool racecheck:")
	require.Len(t, reps, 1)
	assert.Equal(t, 2, reps[0].Sanitize[1].Errors)
	assert.False(t, reps[0].Sanitize[1].OK)
	assert.FileExists(t, filepath.Join(dir2, "int32-add.json"))

	// No sanitizer: the runs are recorded as skipped, and the suite passes.
	t.Setenv("PATH", filepath.Dir(nvcc)+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("CUDA_HOME", "")
	if _, err := exec.LookPath("compute-sanitizer"); err == nil {
		t.Skip("a real compute-sanitizer is on PATH")
	}
	reps, err = bench.Suite(context.Background(), bench.SuiteOptions{Dir: t.TempDir(), Tables: tables[:1], NVCC: nvcc})
	require.NoError(t, err)
	assert.True(t, reps[0].Sanitize[0].Skipped)
	assert.Contains(t, reps[0].Sanitize[0].Message, "compute-sanitizer not found")

	// A wrong result fails the table.
	wrong := fakeNVCC(t, strings.Replace(harness, `"correct":true`, `"correct":false`, 1)+"\nexit 1")
	_, err = bench.Suite(context.Background(), bench.SuiteOptions{Dir: t.TempDir(), Tables: tables[:1], NVCC: wrong, NoSanitize: true})
	require.EqualError(t, err, "bench: table int32-add: device-scan sklansky inclusive of 31 items gave a wrong result")

	// No device.
	none := fakeNVCC(t, "echo 'prefixgen bench: no CUDA device' >&2; exit 3")
	_, err = bench.Suite(context.Background(), bench.SuiteOptions{Dir: t.TempDir(), Tables: tables[:1], NVCC: none, Sanitizer: fakeSanitizer(t, "0")})
	_, missing := errors.AsType[*bench.MissingError](err)
	require.True(t, missing, "%v", err)
}

// TestSuiteSanitizerVerdicts runs Suite with compute-sanitizers that
// misbehave: one that hangs ends at the time limit, and one that runs the
// harness but writes no error summary has not checked anything. Neither
// is a pass, and each says why.
func TestSuiteSanitizerVerdicts(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	tables := []bench.SuiteTable{{Name: "t", Bench: bench.BenchOptions{Networks: []*network.Network{gputest.Build(t, "sklansky", 32, nil)}}}}
	nvcc := fakeNVCC(t, "cat <<'EOF'\n"+goodReport+"\nEOF")
	for _, c := range []struct {
		name, sanitizer, want string
	}{
		{"hangs", "sleep 60", "compute-sanitizer ran past its time limit of 500ms and was stopped (allowed: a longer --tool-timeout)"},
		{"no summary", `while [ $# -gt 0 ]; do case "$1" in --*) shift 2;; *) break;; esac; done
"$@"`, "compute-sanitizer wrote no error summary to sanitize-memcheck.log"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			limit := 30 * time.Second // the fakes' time on a loaded machine
			if strings.Contains(c.want, "time limit") {
				limit = 500 * time.Millisecond
			}
			reps, err := bench.Suite(context.Background(), bench.SuiteOptions{Dir: t.TempDir(), Tables: tables, NVCC: nvcc,
				Sanitizer: fakeTool(t, "compute-sanitizer", c.sanitizer), ToolTimeout: limit})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "bench: table t: compute-sanitizer --tool memcheck: "+c.want)
			require.Len(t, reps, 1)
			s := reps[0].Sanitize[0]
			assert.False(t, s.OK)
			assert.Equal(t, -1, s.Errors)
			assert.Equal(t, c.want, s.Message)
		})
	}
}

func TestSuiteBadInput(t *testing.T) {
	sk := gputest.Build(t, "sklansky", 32, nil)
	for _, c := range []struct {
		name   string
		tables []bench.SuiteTable
		want   string
	}{
		{"empty", []bench.SuiteTable{}, "bench: the suite has no table"},
		{"slash", []bench.SuiteTable{{Name: "a/b", Bench: bench.BenchOptions{Networks: []*network.Network{sk}}}},
			`bench: table name "a/b" is not a plain file name: allowed letters, digits, '-', '_' and '.'`},
		{"bench", []bench.SuiteTable{{Name: "x", Bench: bench.BenchOptions{Networks: []*network.Network{sk}, Op: "carry"}}},
			`bench: table x: the benchmark scans with a built-in operator (add, max, min, and, or, xor), not "carry"; bigadd always runs`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			_, err := bench.Suite(context.Background(), bench.SuiteOptions{Dir: dir, Tables: c.tables, NVCC: "/nonexistent/nvcc"})
			require.EqualError(t, err, c.want)
			assert.NoDirExists(t, dir, "nothing is written for bad input")
		})
	}
}

func TestDefaultSuite(t *testing.T) {
	tables, err := bench.DefaultSuite()
	require.NoError(t, err)
	require.Len(t, tables, 5)
	var names, topos []string
	for _, tb := range tables {
		names = append(names, tb.Name)
		assert.Equal(t, int64(bench.SuiteItems), tb.Bench.Items, tb.Name)
		if tb.Bench.Type == "int32" {
			assert.LessOrEqual(t, len(tb.Bench.Networks), bench.SuiteGroup, tb.Name)
			for _, n := range tb.Bench.Networks {
				topos = append(topos, n.Topology())
			}
		}
	}
	assert.Equal(t, []string{"int32-add-1", "int32-add-2", "int32-add-3", "float-max", "int64-add"}, names)
	assert.Equal(t, topologies.Names(), topos, "the int32 tables hold every topology once")
	for _, tb := range tables {
		_, err := bench.Harness(tb.Bench)
		require.NoError(t, err, tb.Name)
	}
}
