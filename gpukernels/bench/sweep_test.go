package bench_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/bench"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
)

// TestDefaultVariants: every type's sweep starts from the default tuning
// and names each variant once, and every variant is a valid tuning.
func TestDefaultVariants(t *testing.T) {
	net := gputest.Build(t, "kogge-stone", 32, nil)
	for _, c := range []struct {
		typ, first string
		wide       bool
	}{{"int32", "default 128x32", true}, {"int64", "default 256x16", false}} {
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

// TestHarnessSweep: a sweep's harness holds one header per variant and
// only the single-pass inclusive scans, beside CUB's and the copy; a
// sweep of two networks, or of variants without a name of their own, is
// refused.
func TestHarnessSweep(t *testing.T) {
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

// sweepHarness is a sweep the tests build with the real nvcc: once per
// test binary, however many tests read it.
type sweepHarness struct {
	typ      string
	variants []string // the names of DefaultVariants(typ) it builds, or their first word
	net      *network.Network

	once sync.Once
	dir  string
	tb   bench.SuiteTable
	err  error
}

// int64Sweep builds the int64 sweep's default variant and block order:
// the int64 device scan at its own tile and 16-byte status word, and the
// tile order no other harness builds.
var int64Sweep = &sweepHarness{typ: "int64", variants: []string{"default", "block-order"}}

// build builds the sweep through Suite with BuildOnly, for sm_90 with
// warnings as errors and g++-11 as the host compiler where it is installed,
// and returns the harness's folder and its first variant.
func (h *sweepHarness) build(t *testing.T) (string, bench.Variant) {
	t.Helper()
	real := tooltest.Path(t, "nvcc")
	h.once.Do(func() {
		h.net = gputest.Build(t, "kogge-stone", 32, nil)
		tables, err := bench.SweepSuite(h.net)
		if h.err = err; err != nil {
			return
		}
		i := slices.IndexFunc(tables, func(tb bench.SuiteTable) bool { return tb.Bench.Type == h.typ })
		if i < 0 {
			h.err = fmt.Errorf("no sweep of %s", h.typ)
			return
		}
		h.tb = tables[i]
		var keep []bench.Variant
		for _, v := range h.tb.Bench.Variants {
			if slices.Contains(h.variants, v.Name) || slices.Contains(h.variants, strings.Fields(v.Name)[0]) {
				keep = append(keep, v)
			}
		}
		if len(keep) != len(h.variants) {
			h.err = fmt.Errorf("the %s sweep has %d of the variants %q", h.typ, len(keep), h.variants)
			return
		}
		h.tb.Bench.Variants = keep
		h.dir = filepath.Join(shared, "sweep-"+h.typ)
		var nvcc string
		if nvcc, h.err = strictNVCC(h.dir, real); h.err != nil {
			return
		}
		var reps []*bench.BenchReport
		reps, h.err = bench.Suite(context.Background(), bench.SuiteOptions{Dir: h.dir, Tables: []bench.SuiteTable{h.tb}, NVCC: nvcc, Arch: "sm_90", BuildOnly: true, NoSanitize: true})
		if h.err == nil && reps != nil {
			h.err = fmt.Errorf("a build alone reported %d tables", len(reps))
		}
	})
	require.NoError(t, h.err)
	return filepath.Join(h.dir, h.tb.Name), h.tb.Bench.Variants[0]
}

// TestSweepNVCC builds a sweep of two of the int64 variants with the real
// nvcc (Suite with BuildOnly, sm_90, warnings as errors): the int64 device
// scan at its default tile, with the 16-byte status word, and the block
// tile order, whose code no other harness has. Each variant's scan kernel
// spills nothing.
func TestSweepNVCC(t *testing.T) {
	tooltest.SweepOnly(t) // nvcc takes minutes on a harness
	t.Parallel()
	dir, _ := int64Sweep.build(t)
	require.FileExists(t, filepath.Join(dir, "harness"))
	log, err := os.ReadFile(filepath.Join(dir, "nvcc.log"))
	require.NoError(t, err)
	scans := 0
	for _, k := range bench.ParsePTXAS(string(log)) {
		if strings.Contains(k.Name, "10ScanKernel") {
			scans++
			assert.Zero(t, k.SpillStores, "%s spills", k.Name)
		}
	}
	assert.Equal(t, len(int64Sweep.variants), scans, "a scan kernel per variant")
}
