package physical_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/physical"
)

// TestWorkdirABCPath: Yosys hands ABC the library's path in the design's
// folder unquoted, and ABC cannot read one with ; ' " or a control
// character. A work folder with one, as written or as the file system
// names it (through a link), is refused before anything is made or run.
func TestWorkdirABCPath(t *testing.T) {
	t.Parallel()
	d, err := physical.AdderDesign(build(t, "ripple", 4, nil))
	require.NoError(t, err)
	for _, c := range []string{";", "'", `"`, "\t", "\n"} {
		base := t.TempDir()
		_, err := physical.Run(context.Background(), []*physical.Design{d}, physical.Options{Workdir: filepath.Join(base, "a"+c+"b", "work")})
		oneLineSetupError(t, err, `^physical: work folder ".*" has a character ABC cannot read in the paths Yosys gives it: allowed a path without ; ' " or control characters$`)
		left, err := os.ReadDir(base)
		require.NoError(t, err)
		assert.Empty(t, left, "nothing made")
	}
	base := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(base, "a;b"), 0o755))
	require.NoError(t, os.Symlink("a;b", filepath.Join(base, "plain")))
	_, err = physical.Run(context.Background(), []*physical.Design{d}, physical.Options{Workdir: filepath.Join(base, "plain", "work")})
	oneLineSetupError(t, err, `^physical: work folder ".*/plain/work" \(".*/a;b/work"\) has a character ABC cannot read`)
	assert.NoDirExists(t, filepath.Join(base, "a;b", "work"))
}

// TestTMPDIRNotPlain: a TMPDIR whose path ABC cannot read does not stop
// the flow (its folders go under /tmp instead), and nothing is left in it:
// no yosys-abc-* folder holding the design.
func TestTMPDIRNotPlain(t *testing.T) {
	needTools(t)
	tmp := filepath.Join(t.TempDir(), `we;ird 'dir"`)
	require.NoError(t, os.Mkdir(tmp, 0o755))
	t.Setenv("TMPDIR", tmp)
	r, err := physical.Synthesize(context.Background(), build(t, "ripple", 4, nil), physical.Options{Flow: physical.ABC})
	require.NoError(t, err)
	assert.Positive(t, r.AreaUM2)
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "nothing left in TMPDIR")
}

// TestWorkdirNotMadeWhenRefused: a run refused before it starts (here, a
// tool that is not installed) makes no work folder.
func TestWorkdirNotMadeWhenRefused(t *testing.T) {
	t.Parallel()
	d, err := physical.AdderDesign(build(t, "ripple", 4, nil))
	require.NoError(t, err)
	work := filepath.Join(t.TempDir(), "work")
	_, err = physical.Run(context.Background(), []*physical.Design{d}, physical.Options{Workdir: work, Yosys: filepath.Join(t.TempDir(), "no-yosys")})
	oneLineSetupError(t, err, `is not installed`)
	assert.NoDirExists(t, work)
}

// TestWorkdirUnwritable: a work folder prefixgen cannot write in, or make,
// is refused before any tool runs, as an unwritable --cache is; it had
// been found only when the designs' folders were moved there at the end
// of the whole run. Root writes anywhere: CI runs it as nobody too.
func TestWorkdirUnwritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write in any folder")
	}
	t.Parallel()
	d, err := physical.AdderDesign(build(t, "ripple", 4, nil))
	require.NoError(t, err)
	ro := filepath.Join(t.TempDir(), "ro")
	require.NoError(t, os.Mkdir(ro, 0o555))
	for _, work := range []string{ro, filepath.Join(ro, "work")} {
		_, err = physical.Run(context.Background(), []*physical.Design{d}, physical.Options{Workdir: work, Yosys: filepath.Join(t.TempDir(), "no-yosys")})
		oneLineSetupError(t, err, `cannot make the work folder `+work+`: permission denied: allowed a folder prefixgen can write in, or a path where one can be made`)
	}
}

// TestWorkdirWholeOrNothing: the work folder is written at the end of a
// Run, whole or not at all. Stand-in tools time two designs, one at a
// time; when Yosys fails on the second, the work folder is as it was
// (not made, or with an earlier run's files untouched), and nothing is
// left beside it; when both succeed, each design's folder is complete.
func TestWorkdirWholeOrNothing(t *testing.T) {
	t.Parallel()
	testdata, err := filepath.Abs("testdata")
	require.NoError(t, err)
	var designs []*physical.Design
	for _, topo := range []string{"kogge-stone", "brent-kung"} {
		d, err := physical.AdderDesign(build(t, topo, 4, nil))
		require.NoError(t, err)
		designs = append(designs, d)
	}
	earlier := map[string]string{"mine.txt": "mine", "kogge-stone": "/", "kogge-stone/stat.txt": "earlier", "kogge-stone/order-2": "/"}
	tests := []struct {
		name   string
		before map[string]string // the work folder's files; nil: none
		fail   bool              // Yosys fails on the second design
	}{
		{"a failure makes no work folder", nil, true},
		{"a failure leaves an earlier run's files", earlier, true},
		{"a success makes the work folder", nil, false},
		{"a success replaces an earlier run's files", earlier, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			base := filepath.Join(dir, "base")
			work := filepath.Join(base, "deep", "work")
			require.NoError(t, os.Mkdir(base, 0o755))
			for p, content := range tt.before {
				p = filepath.Join(work, p)
				if content == "/" {
					require.NoError(t, os.MkdirAll(p, 0o755))
				} else {
					require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
					require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
				}
			}
			before := golden.Tree(t, base)
			yosys := strings.ReplaceAll(yosysMaps, "$TESTDATA", testdata)
			if tt.fail {
				count := filepath.Join(dir, "count")
				yosys = `[ "$2" = -p ] && exit 0
echo x >> ` + count + `
[ "$(wc -l < ` + count + `)" -ge 2 ] && { echo 'ERROR: the second design'; exit 1; }
` + yosys
			}
			_, err := physical.Run(context.Background(), designs, physical.Options{
				Liberty: writeFile(t, dir, "tiny.lib", tinyLib(t)), Workdir: work, Jobs: 1,
				Yosys: fakeTool(t, dir, "yosys", yosys),
				STA:   fakeTool(t, dir, "sta", strings.ReplaceAll(staTimes, "$TESTDATA", testdata)),
			})
			if tt.fail {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "ERROR: the second design")
				assert.Equal(t, before, golden.Tree(t, base), "the work folder as it was, nothing beside it")
				return
			}
			require.NoError(t, err)
			got := golden.Tree(t, work)
			for _, name := range []string{"kogge-stone", "brent-kung"} {
				for _, f := range []string{"design.v", "synth.ys", "liberty.lib", "stat.txt", "mapped.v", "timing.tcl", "sta.log"} {
					assert.Contains(t, got, name+"/"+f)
				}
			}
			assert.NotEqual(t, "earlier", got["kogge-stone/stat.txt"])
			assert.NotContains(t, got, "kogge-stone/order-2", "an earlier run's orders removed")
			if tt.before != nil {
				assert.Equal(t, "mine", got["mine.txt"], "a user's file stays")
			}
			left, err := os.ReadDir(base)
			require.NoError(t, err)
			assert.Len(t, left, 1, "nothing beside the work folder")
		})
	}
}
