package bench_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// fakePrefixgen stands for prefixgen on a GPU machine: cuda bench --sweep
// DIR, --networks DIR or --suite DIR writes a table's JSON and run.log
// into DIR, and the network tables and the suite then hang, as runs cut
// off by the lease's limits would.
const fakePrefixgen = `#!/bin/sh
dir=$4
mkdir -p "$dir/t"
case "$3" in
--sweep) echo '{"results":[]}' >"$dir/sweep-int32.json"; echo "sweep result" >"$dir/t/run.log"
	mkdir -p "$dir/sweep-int32"; printf '#!/bin/sh\necho "{\\"results\\":[]}"\n' >"$dir/sweep-int32/harness"; chmod +x "$dir/sweep-int32/harness" ;;
--networks) echo '{"results":[]}' >"$dir/networks-int32-add.json"; echo "networks result" >"$dir/t/run.log"; exec sleep 30 ;;
--suite) echo '{"results":[]}' >"$dir/int32-add-1.json"; echo "suite result" >"$dir/t/run.log"; exec sleep 30 ;;
esac
`

// fakeNCU stands for Nsight Compute: it writes a CSV line naming the
// program it profiles into its --log-file, and runs the program. Its
// options but --csv take a value.
const fakeNCU = `#!/bin/sh
while [ $# -gt 0 ]; do
	case "$1" in
	--csv) ;;
	--log-file) shift; log=$1 ;;
	--*) shift ;;
	*) break ;;
	esac
	shift
done
echo "\"ID\",\"Kernel Name\",\"$1\"" >"$log"
exec "$@"
`

// TestLeaseScript runs lease.sh with a fake prefixgen, nvidia-smi and
// nvcc, each plan: each step's tables come back in OUT as they are
// written, a step past its limit is stopped and the next goes on, and OUT
// holds at most the 8 files the device tool brings back. An unknown plan
// is refused.
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
	ncu := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(ncu, "ncu"), []byte(fakeNCU), 0o755))
	script, err := filepath.Abs("lease.sh")
	require.NoError(t, err)
	run := func(path, out, work string, args ...string) (*toolrun.Result, error) {
		return toolrun.Run(context.Background(), toolrun.Cmd{
			Path: sh, Args: append([]string{script, out}, args...),
			Env: append([]string{}, "PATH="+path+":"+os.Getenv("PATH"), "PG="+filepath.Join(bin, "prefixgen"), "WORK="+work,
				"SWEEP_LIMIT=20", "NETWORKS_LIMIT=2", "PROFILE_LIMIT=20", "SUITE_LIMIT=2"),
			Timeout: time.Minute,
		})
	}
	for _, c := range []struct {
		name  string
		path  string
		plan  []string
		files []string
		log   []string
		last  string
	}{
		{"main", ncu + ":" + bin, nil, []string{"device.txt", "sweep-int32.json", "networks-int32-add.json", "ncu-sweep-int32.csv", "lease.log"},
			[]string{"plan main", "sweep: exit 0", "networks: exit 124", "profile: exit 0", "sweep result", "networks result",
				"--sweep ", "--networks ", "--no-sanitize", "--section WarpStateStats", "--profile"},
			"networks result"},
		{"main without ncu", bin, nil, []string{"device.txt", "sweep-int32.json", "networks-int32-add.json", "lease.log"},
			[]string{"plan main", "sweep: exit 0", "networks: exit 124", "profile: skipped: no ncu"},
			"networks result"},
		{"suite", ncu + ":" + bin, []string{"suite"}, []string{"device.txt", "int32-add-1.json", "lease.log"},
			[]string{"plan suite", "suite: exit 124", "suite result", "--suite ", "--no-sanitize"},
			"suite result"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, work := filepath.Join(t.TempDir(), "out"), t.TempDir()
			res, err := run(c.path, out, work, c.plan...)
			require.NoError(t, err, "%s", res.Output)
			entries, err := os.ReadDir(out)
			require.NoError(t, err)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			assert.ElementsMatch(t, c.files, names)
			assert.LessOrEqual(t, len(names), 8, "the device tool brings back 8 files at most")
			device, err := os.ReadFile(filepath.Join(out, "device.txt"))
			require.NoError(t, err)
			assert.Contains(t, string(device), "NVIDIA H200")
			assert.Contains(t, string(device), "release 13.0")
			log, err := os.ReadFile(filepath.Join(out, "lease.log"))
			require.NoError(t, err)
			for _, want := range c.log {
				assert.Contains(t, string(log), want)
			}
			assert.Contains(t, string(log), work, "builds and logs stay in WORK")
			assert.True(t, strings.HasSuffix(strings.TrimSpace(string(log)), c.last), "every run.log after the steps")
			if slices.Contains(c.files, "ncu-sweep-int32.csv") {
				csv, err := os.ReadFile(filepath.Join(out, "ncu-sweep-int32.csv"))
				require.NoError(t, err)
				assert.Contains(t, string(csv), filepath.Join(work, "sweep", "sweep-int32", "harness"), "ncu profiles the int32 sweep")
			}
		})
	}
	t.Run("unknown plan", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		res, err := run(bin, out, t.TempDir(), "all")
		require.Error(t, err)
		assert.Contains(t, string(res.Output), `lease.sh: unknown plan "all": allowed main, suite`)
		assert.NoDirExists(t, out, "nothing is written for a bad plan")
	})
}
