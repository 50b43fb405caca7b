package physical

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/topologies"
)

// cacheDesigns returns the adders of ripple and Sklansky at width 5, and
// Sklansky's sparse-2 adder.
func cacheDesigns(t testing.TB) []*Design {
	t.Helper()
	var designs []*Design
	for _, topo := range []string{"ripple", "sklansky"} {
		nets, err := topologies.Select(topo, 5, nil)
		require.NoError(t, err)
		d, err := AdderDesign(nets[0])
		require.NoError(t, err)
		designs = append(designs, d)
	}
	nets, err := topologies.Select("sklansky", 5, nil)
	require.NoError(t, err)
	d, err := ArchitectureDesign(nets[0], adder.Architecture{Sparse: 2}, nil)
	require.NoError(t, err)
	return append(designs, d)
}

// entries returns the cache's entry files.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	require.NoError(t, err)
	return files
}

// TestCache: a second process (here, this one with its own results
// forgotten) takes every design's result from the cache and runs none; an
// entry that does not read is run again and written anew; other options,
// or a work folder, run the designs.
func TestCache(t *testing.T) {
	// Not parallel: it forgets the results this process has.
	tooltest.Flow(t, Libraries[DefaultLibrary])
	dir := filepath.Join(t.TempDir(), "cache", "new")
	designs := cacheDesigns(t)
	runs := 0
	opt := Options{Cache: dir, OutputLoadPF: 0.0137, Progress: func(done, _ int) {
		if done > 0 { // a synthesis ended, not the count's start
			runs++
		}
	}}
	run := func() []*Result {
		t.Helper()
		memo.Clear()
		runs = 0
		res, err := Run(context.Background(), designs, opt)
		require.NoError(t, err)
		return res
	}
	first := run()
	assert.Equal(t, 3, runs)
	files := entries(t, dir)
	require.Len(t, files, 3)

	again := run()
	assert.Zero(t, runs, "every result is in the cache")
	assert.Equal(t, first, again)
	assert.Equal(t, designs[2].Name(), again[2].Name())
	assert.Equal(t, 2, again[2].Adder.Sparse)
	assert.Equal(t, 0.0137, again[0].OutputLoadPF)
	assert.NotEmpty(t, again[1].YosysVersion)

	// A result's cells are its own, not the entry's nor another result's.
	again[0].Cells["X"] = 1
	assert.NotContains(t, run()[0].Cells, "X")

	for _, bad := range []string{"{", `{"Format":"another"}`, ""} {
		require.NoError(t, os.WriteFile(files[0], []byte(bad), 0o644))
		assert.Equal(t, first, run(), "entry %q", bad)
		assert.Equal(t, 1, runs, "entry %q is run again", bad)
	}
	assert.Equal(t, first, run())
	assert.Zero(t, runs, "the entry was written anew")

	opt.OutputLoadPF = 0.0138
	run()
	assert.Equal(t, 3, runs, "another load is another result")
	assert.Len(t, entries(t, dir), 6)

	opt.Orders = 1
	spread := run()
	assert.Equal(t, 6, runs, "each design as written and in one more order")
	require.NotNil(t, spread[0].Spread)
	assert.Equal(t, spread, run())
	assert.Zero(t, runs, "the spread is in the cache too")

	opt.Orders = 0
	// The library by another name (its file, here a copy of it) is the
	// same library: its results are in the cache, named as this run names
	// the library.
	src, err := os.ReadFile(Libraries[DefaultLibrary])
	require.NoError(t, err)
	copied := filepath.Join(t.TempDir(), "same.lib")
	require.NoError(t, os.WriteFile(copied, src, 0o644))
	opt.Liberty = copied
	named := run()
	assert.Zero(t, runs, "the same library named another way")
	assert.NotEqual(t, first[0].Liberty, named[0].Liberty)
	assert.Contains(t, named[0].Liberty, "same.lib")
	opt.Liberty = ""

	opt.Workdir = t.TempDir()
	run()
	assert.Equal(t, 3, runs, "a work folder keeps every design's files")
}

// TestCacheNotAFolder: a cache under a file is refused before anything
// runs, in one line that names it.
func TestCacheNotAFolder(t *testing.T) {
	t.Parallel()
	tooltest.Flow(t, Libraries[DefaultLibrary])
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, dir := range []string{file, filepath.Join(file, "sub")} {
		_, err := Run(context.Background(), cacheDesigns(t)[:1], Options{Cache: dir})
		require.Error(t, err)
		assert.True(t, IsSetup(err), "%v", err)
		assert.Contains(t, err.Error(), "cannot use the cache folder "+dir)
		assert.NotContains(t, err.Error(), "\n")
	}
}

// TestCacheMadeToStore: a run refused for its input (a module Yosys
// cannot read) leaves no cache folder behind; the folder is made when the
// first entry is stored.
func TestCacheMadeToStore(t *testing.T) {
	t.Parallel()
	tooltest.Flow(t, Libraries[DefaultLibrary])
	dir := filepath.Join(t.TempDir(), "cache", "new")
	d, err := VerilogDesign([]byte("module broken(input a, output y);\n  assign y = a +;\nendmodule\n"), "broken")
	require.NoError(t, err)
	_, err = Run(context.Background(), []*Design{d}, Options{Cache: dir})
	require.Error(t, err)
	assert.NoDirExists(t, filepath.Dir(dir), "no folder made for a run that stored nothing")

	ro := filepath.Join(t.TempDir(), "ro")
	require.NoError(t, os.Mkdir(ro, 0o555))
	if f, err := os.Create(filepath.Join(ro, "probe")); err == nil {
		f.Close()
		t.Skip("running as a user who writes in read-only folders")
	}
	_, err = Run(context.Background(), cacheDesigns(t)[:1], Options{Cache: filepath.Join(ro, "cache")})
	require.Error(t, err)
	assert.True(t, IsSetup(err), "%v", err)
	assert.Contains(t, err.Error(), "cannot use the cache folder "+filepath.Join(ro, "cache"))
}

// TestCacheOrdersDesignByDesign: with orders, a design's entry is written
// when its own orders are done, not after every design of the run has been
// measured as written, so that a run stopped part of the way keeps what it
// finished. One job, one more order: the third synthesis is the second
// design's, and the first design's entry is in the cache by then.
func TestCacheOrdersDesignByDesign(t *testing.T) {
	// Not parallel: it forgets the results this process has.
	tooltest.Flow(t, Libraries[DefaultLibrary])
	memo.Clear()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := Options{Cache: dir, Jobs: 1, Orders: 1, OutputLoadPF: 0.0139, Progress: func(done, _ int) {
		if done == 3 {
			cancel()
		}
	}}
	_, err := Run(ctx, cacheDesigns(t), opt)
	require.ErrorIs(t, err, context.Canceled)
	assert.Len(t, entries(t, dir), 1, "the first design, measured in both orders")
}

// TestTextKeyWholeNames: textKey makes the top module's name one name
// where it stands whole, and nowhere else: zz's port zza is not top's
// port topa, and zz's wire zzw is not the wire topw that top reads.
func TestTextKeyWholeNames(t *testing.T) {
	for _, tc := range []struct {
		a, topA, b, topB string
		same             bool
	}{
		{"module top(input [1:0] topa, output y);\n  assign y = topa[1];\nendmodule\n", "top",
			"module zz(input [1:0] zza, output y);\n  assign y = zza[1];\nendmodule\n", "zz", false},
		{"module top(input a, b, output y);\n  wire topw = a & b;\n  assign y = topw;\nendmodule\n", "top",
			"module zz(input a, b, output y);\n  wire zzw = a & b;\n  assign y = topw;\nendmodule\n", "zz", false},
		{"module top(input a, output y);\n  assign y = a;\nendmodule\n", "top",
			"// zz\nmodule zz(input a, output y);\n  assign y = a;\nendmodule\n", "zz", true},
		{"module ks_8(input a, output y);\n  assign y = a; // ks_8\nendmodule\n", "ks_8",
			"module ks_16(input a, output y);\n  assign y = a; // ks_16\nendmodule\n", "ks_16", true},
	} {
		assert.Equal(t, tc.same, textKey([]byte(tc.a), tc.topA) == textKey([]byte(tc.b), tc.topB), "%q and %q", tc.a, tc.b)
	}
}

// TestCacheKeyOwnDesigns: a design of the user's is keyed by its whole
// text and its top module's name. Keyed as prefixgen's own adders are
// (comment lines left out, the top module made one name), a file whose
// "// synthesis translate_off" lines hid logic from Yosys, or one whose
// module top and module add swapped bodies, took another design's figures.
func TestCacheKeyOwnDesigns(t *testing.T) {
	c := &cache{dir: t.TempDir(), base: []byte("base")}
	design := func(src, top string) *Design {
		d, err := VerilogDesign([]byte(src), top)
		require.NoError(t, err)
		return d
	}
	const sum = "module add(input [7:0] a, b, output [8:0] s, output [15:0] p);\n  assign s = a + b;\n"
	p := design(sum+"  assign p = a * b;\nendmodule\n", "add")
	q := design(sum+"// synthesis translate_off\n  assign p = a * b;\n// synthesis translate_on\nendmodule\n", "add")
	assert.NotEqual(t, c.key(p), c.key(q), "translate_off hides logic")
	f := design("module top(input [7:0] a, b, output [8:0] s);\n  assign s = a + b;\nendmodule\nmodule add(input [7:0] a, b, output [8:0] s);\n  assign s = a * b;\nendmodule\n", "add")
	g := design("module add(input [7:0] a, b, output [8:0] s);\n  assign s = a + b;\nendmodule\nmodule top(input [7:0] a, b, output [8:0] s);\n  assign s = a * b;\nendmodule\n", "add")
	assert.NotEqual(t, c.key(f), c.key(g), "a module named top is not the top")
	assert.Equal(t, c.key(p), c.key(design(sum+"  assign p = a * b;\nendmodule\n", "add")), "the same text, the same entry")
	defined := design(sum+"  assign p = a * b;\nendmodule\n", "add")
	defined.Defines = []string{"FAST"}
	assert.NotEqual(t, c.key(p), c.key(defined), "a macro may change the design")
	assert.NotEqual(t, p.key(), defined.key(), "nor is it this run's other design")

	// A file the design includes, or reads ($readmemh), is not in the
	// text: such a design is neither stored nor taken from the cache.
	inc := design("module add(input [7:0] a, b, output [8:0] s);\n`include \"body.vh\"\nendmodule\n", "add")
	r := &Result{Width: 8, AreaUM2: 10, StdCells: 1, Cells: map[string]int{"X": 1}, DelayNS: 1}
	c.store(inc, r)
	rom := design("module add(input [1:0] a, b, output [7:0] s);\n  reg [7:0] m [0:15];\n  initial $readmemh(\"rom.hex\", m);\n  assign s = m[{a, b}];\nendmodule\n", "add")
	c.store(rom, r)
	assert.Empty(t, entries(t, c.dir), "not stored")
	c.store(p, r)
	require.Len(t, entries(t, c.dir), 1)
	_, ok := c.load(p, &Result{})
	assert.True(t, ok)
}

// TestCacheEntryFigures: an entry whose figures no synthesis gives
// (a negative area, a figure not finite, cells that do not add up to its count, another
// width) is a miss, run again, where it was printed as it stood.
func TestCacheEntryFigures(t *testing.T) {
	c := &cache{dir: t.TempDir(), base: []byte("base")}
	d := cacheDesigns(t)[0]
	good := &Result{Width: 5, AreaUM2: 10, StdCells: 3, Cells: map[string]int{"X": 1, "Y": 2}, DelayNS: 1}
	c.store(d, good)
	_, ok := c.load(d, &Result{})
	require.True(t, ok)
	// A pipelined adder whose flip-flops' pulse width sets the period.
	pulse := *good
	pulse.Cells = map[string]int{"X": 1, "Y": 2}
	pulse.CriticalFrom, pulse.CriticalTo = "clock pulse width", "q_reg[3]"
	c.store(d, &pulse)
	_, ok = c.load(d, &Result{})
	require.True(t, ok, "a path's end in words")
	// Under --arrival the delay is the latest output's lateness, negative
	// where every output is early: such entries had been missed and every
	// design run again.
	early := *good
	early.Cells = map[string]int{"X": 1, "Y": 2}
	early.DelayNS = -0.9225
	early.Spread = &Spread{Orders: 1, AreaMedian: 10, AreaMin: 10, AreaMax: 10, DelayMedian: -0.9225, DelayMin: -0.95, DelayMax: -0.9}
	c.store(d, &early)
	_, ok = c.load(d, &Result{})
	require.True(t, ok, "a negative delay")
	for name, bad := range map[string]func(r *Result){
		"delay not a number": func(r *Result) { r.DelayNS = math.NaN() },
		"negative area":      func(r *Result) { r.AreaUM2 = -1 },
		"negative cells":     func(r *Result) { r.StdCells = -3 },
		"cells not summed": func(r *Result) {
			r.Cells = map[string]int{}
		},
		"another width": func(r *Result) { r.Width = 6 },
		// Names a tool writes: a table broken over lines, CSV with text
		// of the entry's in it, had been taken as they were.
		"a pin with a line break": func(r *Result) { r.CriticalFrom = "a[0]\nb" },
		"a pin of 300":            func(r *Result) { r.CriticalTo = strings.Repeat("s", 2000) },
		"a cell with a quote and a line break": func(r *Result) {
			r.Cells = map[string]int{"X": 1, "INV X1\n\"bad\"": 2}
		},
		"a spread past any figure": func(r *Result) { r.Spread = &Spread{Orders: 1, DelayMedian: math.Inf(1)} },
	} {
		// A cache of its own: an entry that cannot be stored (a spread
		// JSON cannot write) must not find the good one a case before
		// left.
		c := &cache{dir: t.TempDir(), base: []byte("base")}
		r := *good
		r.Cells = map[string]int{"X": 1, "Y": 2}
		bad(&r)
		c.store(d, &r)
		_, ok := c.load(d, &Result{})
		assert.False(t, ok, name)
	}
}

// TestCheckCacheWritable: a cache folder prefixgen cannot write in, or a
// link to nothing, is refused before any work (CheckCache), not after a
// search's minutes, nor taken as a cache that silently holds nothing.
func TestCheckCacheWritable(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nothing", "here"), link))
	for _, p := range []string{link, filepath.Join(link, "sub")} {
		err := CheckCache(p)
		require.Error(t, err, p)
		assert.True(t, IsSetup(err))
		assert.Contains(t, err.Error(), "cannot use the cache folder "+p)
	}
	assert.NoError(t, CheckCache(filepath.Join(dir, "new", "cache")))
	ro := filepath.Join(dir, "ro")
	require.NoError(t, os.Mkdir(ro, 0o555))
	if f, err := os.Create(filepath.Join(ro, "probe")); err == nil {
		f.Close()
		t.Skip("running as a user who writes in read-only folders")
	}
	err := CheckCache(filepath.Join(ro, "cache"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot use the cache folder "+filepath.Join(ro, "cache"))
	names, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, names, 2, "no folder made, no probe left")
}

// FuzzCacheEntry reads arbitrary bytes as a design's cache entry: load
// never panics, and an entry it takes gives figures a synthesis could:
// finite and not negative, the cells adding up to their count, the
// design's width, and names without spaces or control characters.
func FuzzCacheEntry(f *testing.F) {
	c := &cache{dir: f.TempDir(), base: []byte("base")}
	d := cacheDesigns(f)[0]
	good := &Result{Width: 5, AreaUM2: 10, StdCells: 3, Cells: map[string]int{"X": 1, "Y": 2}, DelayNS: 1,
		CriticalFrom: "clock pulse width", CriticalTo: "q_reg[3]", Spread: &Spread{Orders: 2, AreaMedian: 10, AreaMin: 9, AreaMax: 11, DelayMedian: 1, DelayMin: 1, DelayMax: 2}}
	c.store(d, good)
	path := c.path(c.key(d))
	b, err := os.ReadFile(path)
	require.NoError(f, err)
	f.Add(b)
	// Entries a check refuses, each one edit from the good one.
	for _, bad := range []string{`"Registers":-1`, `"CriticalTo":"a\nb"`, `"StdCells":4`, `"Width":6`, `"AreaUM2":-1`} {
		name, _, _ := strings.Cut(bad, ":")
		f.Add([]byte(strings.Replace(string(b), name+":", bad+`,"x":`, 1)))
	}
	f.Fuzz(func(t *testing.T, entry []byte) {
		// The entry's path is computed once: a fuzzing worker runs its
		// inputs one at a time.
		require.NoError(t, os.WriteFile(path, entry, 0o644))
		r, ok := c.load(d, &Result{})
		if !ok {
			return
		}
		for _, v := range []float64{r.AreaUM2, r.DelayNS, r.RedundantUM2} {
			require.True(t, v >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v), "%v", v)
		}
		sum := 0
		for name, n := range r.Cells {
			require.GreaterOrEqual(t, n, 0)
			require.NotEmpty(t, name)
			require.False(t, strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r == 0x7f }), "%q", name)
			sum += n
		}
		require.Equal(t, r.StdCells, sum)
		require.Equal(t, d.Width, r.Width)
		require.GreaterOrEqual(t, r.Registers, 0)
		for _, end := range []string{r.CriticalFrom, r.CriticalTo} {
			require.False(t, strings.ContainsFunc(end, func(r rune) bool { return r < ' ' || r == 0x7f }), "%q", end)
		}
	})
}
