package bench_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/bench"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
)

// TestHarnessNVCC builds what clang-14 only parses and compiles to PTX
// with the real compiler: the benchmark harness (host code against the
// CUDA runtime and CUB, every kernel through ptxas for sm_90) for a
// network of a family and one of none, and a header over the README's
// float2 functor. nvcc rejects what clang accepts (unused functions in the
// harness were warnings under nvcc alone), and ptxas reads the inline PTX
// that clang passes through unread. Warnings fail the build.
func TestHarnessNVCC(t *testing.T) {
	t.Parallel()
	nvcc := tooltest.Path(t, "nvcc")
	for _, c := range []struct {
		name    string
		nets    []*network.Network
		typ, op string
	}{
		{"int32-add", []*network.Network{gputest.Build(t, "kogge-stone", 32, nil)}, "int32", "add"},
		{"float-max-no-family", []*network.Network{gputest.HiOld(t)}, "float", "max"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			files, err := bench.Harness(bench.BenchOptions{Networks: c.nets, Type: c.typ, Op: c.op})
			require.NoError(t, err)
			for _, f := range files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644))
			}
			cmd := exec.Command(nvcc, gputest.NVCCArgs("-o", "harness", "harness.cu")...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "nvcc said:\n%s", out)
			// The device scans of the table's own type and operator
			// spill nothing, and no pass 2 of a three-pass scan does
			// (the one-block ScanTotalsKernel of the 1024-column shared
			// networks spilled 48 to 52 bytes at 64 registers before it
			// asked for one block an SM). Others still do with Debian's
			// ptxas 11.8: pass 3 of the segmented scans;
			// docs/gpu-results.md lists them.
			ns := gpukernels.DefaultNamespace(c.nets[0], c.typ, c.op) + "_0"
			mangled := fmt.Sprint(len(ns), ns)
			var scans, totals int
			for _, k := range bench.ParsePTXAS(string(out)) {
				if strings.Contains(k.Name, "ScanTotalsKernel") {
					totals++
					assert.Zero(t, k.SpillStores, "%s spills", k.Name)
				}
				if !strings.Contains(k.Name, mangled) {
					continue
				}
				scans++
				assert.Zero(t, k.SpillStores, "%s spills", k.Name)
				assert.Zero(t, k.StackFrame, "%s has a stack frame", k.Name)
			}
			assert.GreaterOrEqual(t, scans, 5, "ptxas compiled too few kernels of %s", ns)
			assert.GreaterOrEqual(t, totals, 3, "ptxas compiled too few three-pass totals kernels")
		})
	}
}
