package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// fakePrefixgen stands for prefixgen on a GPU machine: cuda bench --sweep
// DIR or --suite DIR writes a table's JSON and run.log into DIR, and the
// suite then hangs, as a run cut off by the lease's limit would.
const fakePrefixgen = `#!/bin/sh
dir=$4
mkdir -p "$dir/t"
case "$3" in
--sweep) echo '{"results":[]}' >"$dir/sweep-int32.json"; echo "sweep result" >"$dir/t/run.log" ;;
--suite) echo '{"results":[]}' >"$dir/int32-add-1.json"; echo "suite result" >"$dir/t/run.log"; exec sleep 30 ;;
esac
`

// TestLeaseScript runs lease.sh with a fake prefixgen, nvidia-smi and
// nvcc: each step's tables come back in OUT as they are written, a step
// past its limit is stopped and the next goes on, and OUT holds at most
// the 8 files the device tool brings back.
func TestLeaseScript(t *testing.T) {
	t.Parallel()
	sh := tooltest.Path(t, "sh")
	tooltest.Path(t, "timeout")
	bin := t.TempDir()
	for name, text := range map[string]string{
		"prefixgen":  fakePrefixgen,
		"nvidia-smi": "#!/bin/sh\necho 'NVIDIA H200, 580.00, 143771 MiB'\n",
		"nvcc":       "#!/bin/sh\necho 'Cuda compilation tools, release 13.0, V13.0.88'\necho 'Build cuda_13.0'\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755))
	}
	out, work := filepath.Join(t.TempDir(), "out"), t.TempDir()
	script, err := filepath.Abs("lease.sh")
	require.NoError(t, err)
	res, err := toolrun.Run(context.Background(), toolrun.Cmd{
		Path: sh, Args: []string{script, out},
		Env: append([]string{}, "PATH="+bin+":"+os.Getenv("PATH"), "PG="+filepath.Join(bin, "prefixgen"), "WORK="+work,
			"SWEEP_LIMIT=20", "SUITE_LIMIT=2"),
		Timeout: time.Minute,
	})
	require.NoError(t, err, "%s", res.Output)
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"device.txt", "sweep-int32.json", "int32-add-1.json", "lease.log"}, names)
	assert.LessOrEqual(t, len(names), 8, "the device tool brings back 8 files at most")
	device, err := os.ReadFile(filepath.Join(out, "device.txt"))
	require.NoError(t, err)
	assert.Contains(t, string(device), "NVIDIA H200")
	assert.Contains(t, string(device), "release 13.0")
	log, err := os.ReadFile(filepath.Join(out, "lease.log"))
	require.NoError(t, err)
	for _, want := range []string{"sweep: exit 0", "suite: exit 124", "sweep result", "suite result", "--sweep " + filepath.Join(work, "sweep"), "--no-sanitize"} {
		assert.Contains(t, string(log), want)
	}
	assert.True(t, strings.HasSuffix(strings.TrimSpace(string(log)), "suite result"), "every run.log after the steps")
}
