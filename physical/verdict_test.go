package physical_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/physical"
)

// fakeTool writes a stand-in for a tool of the flow into dir: it answers
// its version flag, and otherwise runs body (sh) with the arguments it was
// given.
func fakeTool(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	script := "#!/bin/sh\ncase \"$1\" in -V) echo 'Yosys 0.0 (stand-in)'; exit 0;; -version) echo 2.0.0; exit 0;; esac\n" + body + "\n"
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path
}

// Scripts of stand-ins ($TESTDATA is physical's testdata). The flow runs yosys -q -p … to check the library,
// yosys -q -l yosys.log -s synth.ys to map the design, sta … check.tcl to
// check the library and sta … timing.tcl to time the design.
const (
	// yosysMaps answers the library check and writes the statistics and
	// netlist of a mapped design, as Yosys does.
	yosysMaps = `[ "$2" = -p ] && exit 0
cp "$TESTDATA/ks16-keep.stat.txt" stat.txt
printf 'module m(a, y);\n  input a;\n  output y;\nendmodule\n' > mapped.v`
	// staTimes answers the library check and prints a timing report.
	staTimes = `[ "$4" = check.tcl ] && exit 0
cat "$TESTDATA/ks16-keep.sta.txt"`
)

// tinyLib returns the library of the cells yosysMaps counts, areas only
// (testdata/ks16-cells.lib).
func tinyLib(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "ks16-cells.lib"))
	require.NoError(t, err)
	return string(data)
}

// TestToolVerdicts: what the flow reports comes from what the tools print
// and write. A tool that fails, crashes or prints nothing is reported as
// such, never as a figure, and never as a verdict on the library or the
// design; a work folder's files from an earlier run are not this run's
// figures.
func TestToolVerdicts(t *testing.T) {
	t.Parallel()
	testdata, err := filepath.Abs("testdata")
	require.NoError(t, err)
	tests := []struct {
		name, yosys, sta string
		// stale, when set, leaves the files of an earlier run in the
		// design's folder of the work folder.
		stale bool
		want  string // a regular expression; "" for a result
		exit  bool   // the error wraps the tool's *toolrun.ExitError
	}{
		{"the stand-ins time the design", yosysMaps, staTimes, false, "", false},
		{"yosys exits 1", `[ "$2" = -p ] && exit 0; echo 'junk'; echo more; exit 1`, staTimes, false,
			`^physical: kogge-stone: yosys failed \(exit status 1\): junk$`, true},
		{"yosys says why it failed", `[ "$2" = -p ] && exit 0; echo 'Warning: a'; echo 'ERROR: no luck'; exit 1`, staTimes, false,
			`^physical: kogge-stone: yosys failed: ERROR: no luck$`, true},
		{"yosys crashes", `[ "$2" = -p ] && exit 0; echo dying; kill -SEGV $$`, staTimes, false,
			`^physical: kogge-stone: yosys failed \(killed by SIGSEGV, a segmentation fault\): dying$`, true},
		{"yosys writes nothing, over an earlier run's files", `exit 0`, staTimes, true,
			`^physical: kogge-stone: yosys wrote no statistics: no such file or directory$`, false},
		{"yosys fails on the library without a word", `[ "$2" = -p ] && { printf '\033[2Joops\n'; exit 1; }`, staTimes, false,
			`^physical: checking Liberty file .*tiny\.lib: yosys failed \(exit status 1\): \\x1b\[2Joops$`, true},
		{"yosys crashes on the library", `[ "$2" = -p ] && kill -SEGV $$`, staTimes, false,
			`^physical: checking Liberty file .*tiny\.lib: yosys failed \(killed by SIGSEGV, a segmentation fault\) and printed nothing$`, true},
		{"sta exits 1 after a report", yosysMaps, staTimes + "\nexit 1", false,
			`^physical: kogge-stone: sta failed \(exit status 1\): Startpoint: b\[0\]`, true},
		{"sta prints nothing", yosysMaps, `exit 0`, false,
			`^physical: kogge-stone: sta printed no timing report$`, false},
		{"sta prints junk", yosysMaps, `[ "$4" = check.tcl ] && exit 0; echo junk`, false,
			`^physical: kogge-stone: no worst path in OpenSTA's report: junk$`, false},
		{"sta finds no port of the script and exits 0", yosysMaps, `[ "$4" = check.tcl ] && exit 0
echo "Warning: timing.tcl line 6, port 'cin' not found."
cat "$TESTDATA/ks16-keep.sta.txt"`, false,
			`^physical: kogge-stone: sta failed: Warning: timing\.tcl line 6, port 'cin' not found\.$`, false},
		{"yosys maps onto no cells", `[ "$2" = -p ] && exit 0
printf '   Number of cells:                  0\n' > stat.txt
printf 'module m(a, y);\n  input a;\n  output y;\nendmodule\n' > mapped.v`, staTimes, false,
			`^physical: kogge-stone: the flow mapped it onto no cells$`, false},
	}
	d, err := physical.AdderDesign(build(t, "kogge-stone", 4, nil))
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			lib := filepath.Join(dir, "tiny.lib")
			require.NoError(t, os.WriteFile(lib, []byte(tinyLib(t)), 0o644))
			work := filepath.Join(dir, "work")
			if tt.stale {
				folder := filepath.Join(work, "kogge-stone")
				require.NoError(t, os.MkdirAll(folder, 0o755))
				for from, to := range map[string]string{"ks16-keep.stat.txt": "stat.txt", "ks16-keep.sta.txt": "sta.log"} {
					data, err := os.ReadFile(filepath.Join("testdata", from))
					require.NoError(t, err)
					require.NoError(t, os.WriteFile(filepath.Join(folder, to), data, 0o644))
				}
				require.NoError(t, os.WriteFile(filepath.Join(folder, "mapped.v"), []byte("module m(a, y);\n  input a;\n  output y;\nendmodule\n"), 0o644))
			}
			opt := physical.Options{
				Liberty: lib, Workdir: work,
				Yosys: fakeTool(t, dir, "yosys", strings.ReplaceAll(tt.yosys, "$TESTDATA", testdata)),
				STA:   fakeTool(t, dir, "sta", strings.ReplaceAll(tt.sta, "$TESTDATA", testdata)),
			}
			res, err := physical.Run(context.Background(), []*physical.Design{d}, opt)
			if tt.want == "" {
				require.NoError(t, err)
				assert.Equal(t, 4708.0, res[0].AreaUM2)
				assert.Equal(t, 1.0225, res[0].DelayNS)
				return
			}
			require.Error(t, err)
			assert.Regexp(t, tt.want, err.Error())
			assert.False(t, physical.IsSetup(err), "a failed tool is no bad input: %v", err)
			_, exit := errors.AsType[*toolrun.ExitError](err)
			assert.Equal(t, tt.exit, exit, "wraps the tool's exit: %v", err)
		})
	}
}

// TestToolLibraryVerdicts: what the tools print of the library, as the
// stand-ins print it, is bad input that names the library and what the
// tool said, whatever their exit status.
func TestToolLibraryVerdicts(t *testing.T) {
	t.Parallel()
	testdata, err := filepath.Abs("testdata")
	require.NoError(t, err)
	tests := []struct {
		name, yosys, sta string
		want             string // a regular expression
	}{
		{"sta cannot read the library and exits 0", yosysMaps, `[ "$4" = check.tcl ] && { echo 'Error: liberty.lib line 3, syntax error'; exit 0; }
cat "$TESTDATA/ks16-keep.sta.txt"`,
			`^physical: Liberty file .*tiny\.lib does not parse: sta says Error: liberty\.lib line 3, syntax error$`},
		{"yosys aborts on the library", `[ "$2" = -p ] && kill -ABRT $$`, staTimes,
			`^physical: Liberty file .*tiny\.lib does not parse: yosys died reading it \(signal: aborted\), as it does on a file cut short: allowed a whole Liberty file$`},
		{"ABC says what the library lacks", `[ "$2" = -p ] && exit 0
printf '5. Executing ABC pass.\nABC: Error: The library has no inverter.\n' > yosys.log
echo 'ERROR: ABC: execution of command "yosys-abc -s -f abc.script" failed: return code 1.'; exit 1`, staTimes,
			`^physical: ABC could not map onto Liberty file .*tiny\.lib: ABC says The library has no inverter\.$`},
		{"dfflibmap finds no flip-flop", `[ "$2" = -p ] && exit 0
echo 'ERROR: FF top.$auto$ff.cc:266:slice$123 (type $_DFF_PP0_) cannot be legalized: dfflegalize could not handle it'; exit 1`, staTimes,
			`^physical: Liberty file .*tiny\.lib has no flip-flop Yosys can map a \$_DFF_PP0_ onto: allowed a library with a rising-edge D flip-flop$`},
	}
	d, err := physical.AdderDesign(build(t, "kogge-stone", 4, nil))
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			lib := writeFile(t, dir, "tiny.lib", tinyLib(t))
			opt := physical.Options{
				Liberty: lib,
				Yosys:   fakeTool(t, dir, "yosys", strings.ReplaceAll(tt.yosys, "$TESTDATA", testdata)),
				STA:     fakeTool(t, dir, "sta", strings.ReplaceAll(tt.sta, "$TESTDATA", testdata)),
			}
			_, err := physical.Run(context.Background(), []*physical.Design{d}, opt)
			require.Error(t, err)
			assert.Regexp(t, tt.want, err.Error())
			assert.True(t, physical.IsSetup(err), "bad input: %v", err)
		})
	}
}

// TestToolCellWithoutArea: a library whose cell the mapped design uses
// gives no area is refused, naming the cell: Yosys would count it 0 µm²,
// an area that looks right and is not.
func TestToolCellWithoutArea(t *testing.T) {
	t.Parallel()
	testdata, err := filepath.Abs("testdata")
	require.NoError(t, err)
	dir := t.TempDir()
	noArea := strings.Replace(tinyLib(t), "cell (XOR2X1) { area : 56; }", "cell (XOR2X1) { }", 1)
	require.NotEqual(t, tinyLib(t), noArea)
	d, err := physical.AdderDesign(build(t, "kogge-stone", 4, nil))
	require.NoError(t, err)
	_, err = physical.Run(context.Background(), []*physical.Design{d}, physical.Options{
		Liberty: writeFile(t, dir, "tiny.lib", noArea),
		Yosys:   fakeTool(t, dir, "yosys", strings.ReplaceAll(yosysMaps, "$TESTDATA", testdata)),
		STA:     fakeTool(t, dir, "sta", strings.ReplaceAll(staTimes, "$TESTDATA", testdata)),
	})
	require.Error(t, err)
	assert.Regexp(t, `^physical: Liberty file .*tiny\.lib gives no area for XOR2X1, and the mapped netlist uses some of them: allowed a library with an area for every cell$`, err.Error())
	assert.True(t, physical.IsSetup(err), "bad input: %v", err)
}

// TestToolTimeout: a tool that hangs is stopped at Options.ToolTimeout,
// its children with it, and the error names it and the limit.
func TestToolTimeout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pid := filepath.Join(dir, "child.pid")
	hang := "sleep 600 & echo $! > " + pid + "\nwait"
	lib := writeFile(t, dir, "tiny.lib", tinyLib(t))
	yosys, sta := fakeTool(t, dir, "yosys", hang), fakeTool(t, dir, "sta", hang)
	// A loaded machine can stop the fake before it has started its
	// child: then it runs again with a longer limit.
	for _, limit := range []time.Duration{500 * time.Millisecond, 2 * time.Second, 8 * time.Second} {
		start := time.Now()
		_, err := physical.Synthesize(context.Background(), build(t, "ripple", 4, nil), physical.Options{
			Liberty: lib, Yosys: yosys, STA: sta, ToolTimeout: limit,
		})
		require.Error(t, err)
		assert.Less(t, time.Since(start), limit+20*time.Second)
		assert.Regexp(t, `^physical: checking Liberty file .*tiny\.lib: yosys ran past its time limit of `+limit.String()+` and was stopped`, err.Error())
		_, timeout := errors.AsType[*toolrun.TimeoutError](err)
		assert.True(t, timeout, "wraps the timeout: %v", err)
		assert.False(t, physical.IsSetup(err))
		if b, _ := os.ReadFile(pid); strings.HasSuffix(string(b), "\n") {
			assert.False(t, alive(t, pid), "the tool's child was stopped with it")
			return
		}
	}
	t.Fatal("the fake yosys never started its child")
}

// writeFile writes text to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// alive reports whether the process whose pid file holds runs, waiting up
// to 5 s for it to end; a zombie, killed and waiting for init, runs no
// more.
func alive(t *testing.T, file string) bool {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	stat := filepath.Join("/proc", strings.TrimSpace(string(data)), "stat")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		s, err := os.ReadFile(stat)
		if err != nil || strings.Contains(string(s), ") Z ") {
			return false
		}
	}
	return true
}
