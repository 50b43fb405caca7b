package physical_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
