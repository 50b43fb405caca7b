package bench_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/bench"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/topologies"
)

// TestNetworkTables: one table per type of every topology, each a
// network table.
func TestNetworkTables(t *testing.T) {
	tables, err := bench.NetworkTables()
	require.NoError(t, err)
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Name)
		assert.True(t, tb.Bench.NetworkTable, tb.Name)
		assert.Equal(t, int64(bench.NetworkItems), tb.Bench.Items, tb.Name)
		var topos []string
		for _, n := range tb.Bench.Networks {
			topos = append(topos, n.Topology())
		}
		assert.Equal(t, topologies.Names(), topos, "%s holds every topology once", tb.Name)
	}
	assert.Equal(t, []string{"networks-int32-add", "networks-float-add", "networks-int64-add"}, names)
}

// TestNetworkTableHarness: a network table's harness holds each network's
// warp microbenchmark and block scans beside CUB's, and no device-wide
// scan, affine or segmented scan, application or bigadd, nor their
// headers.
func TestNetworkTableHarness(t *testing.T) {
	nets := gputest.EveryTopology(t, 32)
	files := harnessFiles(t, bench.BenchOptions{Networks: nets, Type: "int64", Op: "add", Items: bench.NetworkItems, NetworkTable: true})
	// The scan, shuffle and raking block headers of every network, the two
	// shared ones of every family but ripple's.
	require.Len(t, files, 3*len(nets)+2*(len(nets)-1)+2)
	cu, kernels := files["harness.cu"], files["harness_kernels.cuh"]
	assert.Contains(t, cu, "// The network table of prefixgen cuda bench --networks: 9 networks of width 32\n// over int64 with add")
	for _, w := range []string{
		"CubWarpMicroKernel<<<", "cub::WarpScan<value_type, 32>", `Add("cub-warp-micro"`,
		"CubBlockBenchKernel<<<", "cub::BlockScan<value_type, 512>", `Add("cub-block-scan"`,
		"long long n = 4194304;", `\"results\":[`,
	} {
		assert.Contains(t, cu, w)
	}
	for _, w := range []string{
		"cub::DeviceScan", "temp-storage-check", "kSizes", `Add("affine-scan"`, `Add("segmented-scan"`, `Add("bigadd"`,
		`AddApp("`, "cub::DeviceSelect", "cub::DeviceRadixSort", "ThreePass(", "BigAddKernel",
	} {
		assert.NotContains(t, cu, w)
	}
	for i, net := range nets {
		name := net.Topology()
		assert.Contains(t, cu, fmt.Sprintf("prefixgen_harness::WarpMicro%dKernel<<<", i))
		assert.Contains(t, cu, fmt.Sprintf("BlockBench<prefixgen_harness::Shuffle%d>(\n        \"block-shuffle\", \"%s", i, name))
		assert.Contains(t, cu, fmt.Sprintf("BlockBench<prefixgen_harness::Raking%d>(\n        \"block-raking\", \"%s", i, name))
		raking := fmt.Sprintf("%s_raking_block_%d", gpukernels.DefaultNamespace(net, "int64", "add"), i)
		assert.Contains(t, kernels, fmt.Sprintf("#include %q", raking+".cuh"))
		assert.Contains(t, files[raking+".cuh"], "(raking)")
		assert.Equal(t, name != "ripple", strings.Contains(cu, fmt.Sprintf("BlockBench<prefixgen_harness::Shared%d>(", i)), name)
		scan := fmt.Sprintf("%s_%d", gpukernels.DefaultNamespace(net, "int64", "add"), i)
		assert.Contains(t, kernels, fmt.Sprintf("#include %q", scan+".cuh"))
	}
	for name := range files {
		for _, not := range []string{"affine", "carry", "segmented", "count"} {
			assert.NotContains(t, name, not)
		}
	}

	_, err := bench.Harness(bench.BenchOptions{Networks: nets[:1], NetworkTable: true, Variants: []bench.Variant{{Name: "a"}}})
	require.EqualError(t, err, "bench: a sweep times device scans; a network table has none: ask for one or the other")
}
