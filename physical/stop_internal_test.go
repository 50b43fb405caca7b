package physical

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/cleanup"
)

// TestDesignFolderAfterStop: once a stop has removed the run's folders
// (cleanup.RemoveAll, which never lets go), a design that starts then
// does not make its folder again, which the process ending would leave
// behind. RemoveAll holds its lock for good, so the test runs in a child.
func TestDesignFolderAfterStop(t *testing.T) {
	if root := os.Getenv("PREFIXGEN_TEST_STOP_ROOT"); root != "" {
		dir, _, err := cleanup.MkdirTemp(root, "run-")
		require.NoError(t, err)
		cleanup.RemoveAll()
		go designFolder(filepath.Join(dir, "kogge-stone")) //nolint:errcheck // blocks for good
		time.Sleep(300 * time.Millisecond)
		// The lock RemoveAll keeps would hold TestMain's RemoveAll for
		// good: the child ends here, as prefixgen does after a stop.
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			fmt.Println("prefixgen-test: folder gone")
		}
		os.Exit(0)
	}
	root := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDesignFolderAfterStop$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PREFIXGEN_TEST_STOP_ROOT="+root)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "prefixgen-test: folder gone", "the run's folder made again after the stop")
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	require.Empty(t, entries)
}
