package tooltest_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCIScriptReadsWholePipes guards .ci/run, which runs under
// set -o pipefail: a pipe into head closes once head has its lines, the
// writer may die of SIGPIPE before it finishes, and the whole of CI fails
// with status 141 by chance (ghdl --version | head -n 1 did so). Every
// filter there must read its input to the end, as sed -n 1p does.
func TestCIScriptReadsWholePipes(t *testing.T) {
	b, err := os.ReadFile("../../.ci/run")
	require.NoError(t, err)
	require.Contains(t, string(b), "set -euo pipefail")
	early := regexp.MustCompile(`\|\s*(head|grep\s+-[a-zA-Z]*[qm])\b`)
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		require.Falsef(t, early.MatchString(line), ".ci/run:%d: %q pipes into a filter that stops reading early; under pipefail the writer's SIGPIPE fails CI (use sed -n 1p)", i+1, line)
	}
}
