package bench_test

import (
	"context"
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
)

// TestDefaultVariants: every type's sweep starts from the default tuning
// and names each variant once, and every variant is a valid tuning.
func TestDefaultVariants(t *testing.T) {
	net := gputest.Build(t, "kogge-stone", 32, nil)
	for _, c := range []struct {
		typ, first string
		wide       bool
	}{{"int32", "default 128x24", true}, {"int64", "default 224x24", false}} {
		t.Run(c.typ, func(t *testing.T) {
			vs, err := bench.DefaultVariants(c.typ)
			require.NoError(t, err)
			require.NotEmpty(t, vs)
			assert.Equal(t, c.first, vs[0].Name)
			assert.Equal(t, gpukernels.Options{}, vs[0].Tuning)
			names := map[string]bool{}
			for _, v := range vs {
				assert.False(t, names[v.Name], "%s twice", v.Name)
				names[v.Name] = true
				o := v.Tuning
				o.Type, o.Op = c.typ, "add"
				_, err := o.Resolve(net)
				assert.NoError(t, err, v.Name)
			}
			assert.Equal(t, c.wide, names["wide-status"], "the 16-byte status is a variant of 4-byte values only")
			assert.True(t, names["no-delays"] && names["block-order"], "delays and tile order are swept")
		})
	}
	_, err := bench.DefaultVariants("int128")
	require.Error(t, err)
}

// TestSweepHarness: a sweep's harness holds one header per variant and
// only the single-pass inclusive scans, beside CUB's and the copy; a
// sweep of two networks, or of variants without a name of their own, is
// refused.
func TestSweepHarness(t *testing.T) {
	net := gputest.Build(t, "kogge-stone", 32, nil)
	tables, err := bench.SweepSuite(net)
	require.NoError(t, err)
	require.Len(t, tables, 2)
	assert.Equal(t, "sweep-int32", tables[0].Name)
	assert.Equal(t, bench.SweepSizes, tables[0].Bench.Sizes)
	files, err := bench.Harness(tables[0].Bench)
	require.NoError(t, err)
	byName := map[string]string{}
	for _, f := range files {
		byName[f.Name] = string(f.Data)
	}
	vs := tables[0].Bench.Variants
	assert.Len(t, files, len(vs)+2)
	for i, v := range vs {
		ns := gpukernels.DefaultNamespace(net, "int32", "add")
		if v.Tuning.Block == gpukernels.BlockRaking {
			ns += "_raking"
		}
		h, ok := byName[fmt.Sprintf("%s_v%d.cuh", ns, i)]
		require.True(t, ok, "no header of variant %d", i)
		assert.Equal(t, v.Name == "raking", strings.Contains(h, "(raking)"), v.Name)
		assert.Contains(t, byName["harness.cu"], `"kogge-stone `+v.Name+`"`)
		if v.Name == "block-order" {
			assert.Contains(t, h, "kTileOrderBlock = 1,")
		}
		if v.Name == "no-delays" {
			assert.Contains(t, h, "kPartialDelayNs = 0,")
			assert.Contains(t, h, "kPollDelayNs = 0,")
		}
	}
	harness := byName["harness.cu"]
	assert.Contains(t, harness, "cub::DeviceScan::InclusiveSum(d_temp")
	assert.Contains(t, harness, `AddScan("memcpy"`)
	for _, absent := range []string{"ExclusiveScan(d_temp", "ThreePass(d_temp", "BlockBench<", "WarpMicro", "bigadd_bytes"} {
		assert.NotContains(t, harness, absent)
	}

	opt := tables[0].Bench
	opt.Networks = append(opt.Networks, net)
	_, err = bench.Harness(opt)
	require.EqualError(t, err, "bench: a sweep takes one network, not 2")
	opt = tables[0].Bench
	opt.Variants = []bench.Variant{{Name: "a"}, {Name: "a"}}
	_, err = bench.Harness(opt)
	require.EqualError(t, err, `bench: variant 2 has an empty or repeated name "a": each needs its own`)
	opt.Variants = []bench.Variant{{Name: "a", Tuning: gpukernels.Options{TileOrder: "random"}}}
	_, err = bench.Harness(opt)
	require.EqualError(t, err, `bench: variant a: gpukernels: unknown tile order "random": allowed atomic, block`)
}

// TestSweepNVCC builds a sweep of two of the int32 variants, the ones whose
// code no other harness has, with the real nvcc (Suite with BuildOnly,
// sm_90, warnings as errors): each variant's scan kernel spills nothing.
func TestSweepNVCC(t *testing.T) {
	t.Parallel()
	real := tooltest.Path(t, "nvcc")
	dir := t.TempDir()
	flags := "-Werror all-warnings"
	if _, err := exec.LookPath("g++-11"); err == nil {
		flags = "-ccbin g++-11 " + flags
	}
	nvcc := filepath.Join(dir, "nvcc")
	require.NoError(t, os.WriteFile(nvcc, []byte("#!/bin/sh\nexec "+real+" "+flags+" \"$@\"\n"), 0o755))
	net := gputest.Build(t, "kogge-stone", 32, nil)
	tables, err := bench.SweepSuite(net)
	require.NoError(t, err)
	tb := tables[0]
	var keep []bench.Variant
	for _, v := range tb.Bench.Variants {
		if v.Name == "block-order" || v.Name == "wide-status" {
			keep = append(keep, v)
		}
	}
	require.Len(t, keep, 2)
	tb.Bench.Variants = keep
	reps, err := bench.Suite(context.Background(), bench.SuiteOptions{Dir: dir, Tables: []bench.SuiteTable{tb}, NVCC: nvcc, Arch: "sm_90", BuildOnly: true, NoSanitize: true})
	require.NoError(t, err)
	assert.Nil(t, reps, "a build alone reports nothing")
	require.FileExists(t, filepath.Join(dir, tb.Name, "harness"))
	log, err := os.ReadFile(filepath.Join(dir, tb.Name, "nvcc.log"))
	require.NoError(t, err)
	scans := 0
	for _, k := range bench.ParsePTXAS(string(log)) {
		if strings.Contains(k.Name, "10ScanKernel") {
			scans++
			assert.Zero(t, k.SpillStores, "%s spills", k.Name)
		}
	}
	assert.Equal(t, len(keep), scans, "a scan kernel per variant")
}
