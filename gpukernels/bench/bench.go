package bench

import (
	"bytes"
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/stage"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

//go:embed templates/*.tmpl
var templateFiles embed.FS

// templates holds the harness's templates, parsed once.
var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"plural": func(n int, word string) string {
		if n == 1 {
			return word
		}
		return word + "s"
	},
	"blockBench": func(name string, index int, namespace string) blockBench {
		return blockBench{name, index, namespace}
	},
}).ParseFS(templateFiles, "templates/*.tmpl"))

// blockBench names one block scan of the harness's block benchmark.
type blockBench struct {
	Name      string
	Index     int
	Namespace string
}

// Default benchmark settings.
const (
	// DefaultBenchItems is the default BenchOptions.Items: 2^28.
	DefaultBenchItems = 1 << 28
	// DefaultBenchRuns is the default BenchOptions.Runs, and the fewest
	// allowed.
	DefaultBenchRuns = 20
	// MaxBenchRuns is the most BenchOptions.Runs allowed.
	MaxBenchRuns = 10000
	// MaxBenchItems is the most BenchOptions.Items allowed, and the
	// largest of BenchOptions.Sizes: 2^40.
	MaxBenchItems = 1 << 40
	// DefaultMicroReps is the default BenchOptions.MicroReps.
	DefaultMicroReps = 1024
	// DefaultBlockReps is the number of block scans each block of the
	// block-scan benchmark makes.
	DefaultBlockReps = 256
	// SanitizeItems is the number of items of the benchmarks of one size
	// that the harness runs under compute-sanitizer (./harness --sanitize):
	// enough for one block per SM of the block benchmark on any GPU of up
	// to 256 SMs.
	SanitizeItems = 1<<19 + 17
)

// DefaultBenchSizes are the sizes at which the harness runs, checks and
// times the device-wide scans (BenchOptions.Sizes): 2^28 and 2^20, one
// item and a warp's worth less one, a tile's worth and one, 2^20 + 17 and
// 2^28 − 1, each with both arrays aligned and one item past an aligned
// address.
var DefaultBenchSizes = []int64{1 << 28, 1 << 20, 1, 31, 2049, 1<<20 + 17, 1<<28 - 1}

// SanitizeSizes are the sizes of the device-wide scans under
// compute-sanitizer: one item, a warp's worth less one, a few tiles, and
// many tiles, so that the look-back waits.
var SanitizeSizes = []int64{1, 31, 2049, 1<<16 + 17}

// BenchOptions are the options of Harness and Bench.
type BenchOptions struct {
	// Networks are the networks compared, all of one width from 1 to 32.
	Networks []*network.Network
	// Type and Op are the value type and the operator of the scans: a
	// built-in operator other than carry (bigadd always runs, over uint32
	// limbs). Empty means int32 and add.
	Type, Op string
	// Items is the number of items of the benchmarks of one size (all
	// but the device-wide scans); 0 means DefaultBenchItems.
	Items int64
	// Sizes are the sizes of the device-wide scans, 1 to 2^40 each; nil
	// means DefaultBenchSizes.
	Sizes []int64
	// Runs is the number of timed runs, whose median is reported, at least
	// DefaultBenchRuns; 0 means DefaultBenchRuns. Warmup runs go first
	// (0 means 3).
	Runs, Warmup int
	// MicroReps is the number of warp scans each thread of the warp
	// microbenchmark makes; 0 means DefaultMicroReps.
	MicroReps int
	// Tuning tunes the device scans: its ItemsPerThread, BlockThreads,
	// LookBack, Delays, WideStatus, StatusStride, TileOrder and Block (the
	// shuffle or raking block scan inside them), as in gpukernels.Options;
	// its other fields are ignored.
	Tuning gpukernels.Options
	// Variants, when set, make the harness a sweep: the single-pass
	// inclusive scan of the one network, built once per variant's tuning
	// (Tuning is ignored), each checked against the CPU and timed beside
	// CUB's and a cudaMemcpy of the same bytes at every size, aligned and
	// one item off, and nothing else.
	Variants []Variant
	// NetworkTable, when set, makes the harness a table of the networks
	// themselves: each network's register-resident warp microbenchmark and
	// block scans (shuffle, and its family at SharedWidth columns in shared
	// memory, padded and not) beside cub::WarpScan and cub::BlockScan, and
	// nothing else, so that it builds in a fraction of a full harness's
	// time. Sizes and Tuning are unused.
	NetworkTable bool
}

// Variant is one tuning of a sweep's device scan.
type Variant struct {
	// Name names the variant in the report, after the network's name.
	Name string
	// Tuning is as BenchOptions.Tuning.
	Tuning gpukernels.Options
}

// tuning returns the device scans' options of opt's Tuning over typ and
// op.
func (opt *BenchOptions) tuning(typ, op string) gpukernels.Options {
	t := opt.Tuning
	return gpukernels.Options{
		Type: typ, Op: op, ItemsPerThread: t.ItemsPerThread, BlockThreads: t.BlockThreads, LookBack: t.LookBack,
		Delays: t.Delays, WideStatus: t.WideStatus, StatusStride: t.StatusStride, TileOrder: t.TileOrder, Block: t.Block,
	}
}

// File is one generated file.
type File struct {
	Name string
	Data []byte
}

// header is one generated header of the harness.
type header struct{ File, Namespace string }

// harnessKernel is one network of the harness and its headers: the scans
// of the benchmark's type and operator, bigadd, the shuffle block scan
// tuned to BlockItems items per block, float affine maps, segmented scans
// (uint32 head flags) and int32 sums for the applications; and, for a
// network of a registered family, the family at SharedWidth columns in
// shared memory, padded and not.
type harnessKernel struct {
	Index        int
	Name         string
	Scan, BigAdd header
	// Shuffle and Raking are the shuffle and raking block scans.
	Shuffle, Raking header
	BlockItems      int
	Affine          header
	Segmented       header
	Count           header
	// Shared and SharedNoPad are empty for a network of no family.
	Shared, SharedNoPad header
}

// SharedWidth is the width of the shared-memory block scans the harness
// times: the classic 1024 elements per block, one per column, two per
// thread.
const SharedWidth = 1024

// MaxSharedRounds is the most rounds a family at SharedWidth columns may
// have for the harness to time it in shared memory: ripple's 1023 rounds,
// a barrier each, took 370 times cub::BlockScan's time on an H200 and
// most of its harness's build.
const MaxSharedRounds = 64

// blockThreads is the block of the block-scan benchmark.
const blockThreads = 512

// harnessData is what the harness templates read.
type harnessData struct {
	Kernels           []harnessKernel
	TypeName, OpName  string
	CXX               string
	Float, Sum        bool
	HostExpr          string
	FillExpr, FillDoc string
	Width, Segment    int
	N                 int64
	Sizes             []int64
	SanitizeSizes     []int64
	SanitizeItems     int64
	Runs, Warmup      int
	MicroReps         int
	BlockReps         int
	SharedWidth       int
	BlockThreads      int
	// Sweep is set for a harness of BenchOptions.Variants: Kernels are the
	// variants, each with its Scan header alone.
	Sweep bool
	// Device and Extras say what the harness holds beside the warp and
	// block scans (which a sweep does not hold): the device-wide scans;
	// and the affine and segmented scans, the applications and bigadd.
	Device, Extras bool
}

// Harness returns the benchmark program: for each network, headers for
// the scans of opt's type and operator, for bigadd, for the shuffle block
// scan tuned to about SharedWidth items per block, for float affine maps,
// for segmented scans (uint32 head flags) and for int32 sums (the
// applications' flag scans), and for a network of a registered family the
// family at SharedWidth columns in shared memory, padded and not;
// harness_kernels.cuh (input fill, the warp and block benchmarks and the
// applications' kernels, device code only); and harness.cu, the host
// program that runs every kernel beside CUB and cudaMemcpy, checks each
// result against a CPU loop and prints the JSON that Bench reads. nvcc
// builds it with
//
//	nvcc -O3 -std=c++17 -arch=native -o harness harness.cu
func Harness(opt BenchOptions) ([]File, error) {
	d, err := newHarnessData(&opt)
	if err != nil {
		return nil, err
	}
	var files []File
	if d.Sweep {
		net := opt.Networks[0]
		for i, v := range opt.Variants {
			o := opt
			o.Tuning = v.Tuning
			f, err := scanHeader(net, o.tuning(opt.Type, opt.Op), fmt.Sprintf("_v%d", i))
			if err != nil {
				return nil, fmt.Errorf("bench: variant %s: %w", v.Name, err)
			}
			d.Kernels[i].Scan = header{File: f.Name, Namespace: strings.TrimSuffix(f.Name, ".cuh")}
			files = append(files, f)
		}
		return appendHarness(files, d)
	}
	for i, net := range opt.Networks {
		k := &d.Kernels[i]
		tuned := opt.tuning("", "")
		with := func(o gpukernels.Options, typ, op string) gpukernels.Options {
			o.Type, o.Op = typ, op
			return o
		}
		seg := gpukernels.Segment(net.Width())
		threads := min(blockThreads, warp.Lanes*seg)
		shuffle := gpukernels.Options{Type: opt.Type, Op: opt.Op, BlockThreads: threads,
			ItemsPerThread: max(1, SharedWidth/(threads/seg*net.Width()))}
		k.BlockItems = threads / seg * net.Width() * shuffle.ItemsPerThread
		raking := shuffle
		raking.Block = gpukernels.BlockRaking
		segmented := with(tuned, opt.Type, opt.Op)
		segmented.Segmented = "uint32"
		type job struct {
			net    *network.Network
			opt    gpukernels.Options
			suffix string
			dest   *header
		}
		jobs := []job{
			{net, with(tuned, opt.Type, opt.Op), "", &k.Scan},
			{net, with(gpukernels.Options{}, "uint32", "carry"), "", &k.BigAdd},
			{net, shuffle, "_block", &k.Shuffle},
			{net, raking, "_block", &k.Raking},
			{net, fitStatus(net, with(tuned, "float", "affine")), "", &k.Affine},
			{net, fitStatus(net, segmented), "", &k.Segmented},
			{net, fitStatus(net, with(tuned, "int32", "add")), "_count", &k.Count},
		}
		if !d.Extras {
			jobs = []job{jobs[0], jobs[2], jobs[3]}
		}
		if fam := familyAt(net, SharedWidth); fam != nil && fam.Depth() <= MaxSharedRounds {
			for _, nopad := range []bool{false, true} {
				o := gpukernels.Options{Type: opt.Type, Op: opt.Op, Block: gpukernels.BlockShared, NoPad: nopad, BlockThreads: blockThreads, ItemsPerThread: 2}
				dest := &k.Shared
				if nopad {
					dest = &k.SharedNoPad
				}
				jobs = append(jobs, job{fam, o, "", dest})
			}
		}
		for _, j := range jobs {
			f, err := scanHeader(j.net, j.opt, fmt.Sprintf("%s_%d", j.suffix, i))
			if err != nil {
				return nil, err
			}
			*j.dest = header{File: f.Name, Namespace: strings.TrimSuffix(f.Name, ".cuh")}
			files = append(files, f)
		}
	}
	return appendHarness(files, d)
}

// fitStatus returns opt without those of its status word settings
// (WideStatus, StatusStride) that do not apply to its values: the tuning
// is the benchmarked type's, and the applications' scans (affine maps,
// segmented values, int32 counts) keep what of it they can take.
func fitStatus(net *network.Network, opt gpukernels.Options) gpukernels.Options {
	noWide, noStride := opt, opt
	noWide.WideStatus, noStride.StatusStride = false, 0
	neither := noWide
	neither.StatusStride = 0
	for _, o := range []gpukernels.Options{opt, noWide, noStride, neither} {
		if _, err := o.Resolve(net); err == nil {
			return o
		}
	}
	return opt // its error is not the status word's: scanHeader gives it
}

// scanHeader returns the header of net with opt, in the namespace
// CUDA's default gives it followed by suffix, named after it.
func scanHeader(net *network.Network, opt gpukernels.Options, suffix string) (File, error) {
	r, err := opt.Resolve(net)
	if err != nil {
		return File{}, err
	}
	opt.Namespace = r.Namespace + suffix
	var b bytes.Buffer
	if err := gpukernels.CUDA(&b, net, opt); err != nil {
		return File{}, err
	}
	return File{opt.Namespace + ".cuh", b.Bytes()}, nil
}

// appendHarness appends harness_kernels.cuh and harness.cu, rendered from
// d, to files.
func appendHarness(files []File, d *harnessData) ([]File, error) {
	for _, name := range []string{"harness_kernels.cuh", "harness.cu"} {
		var b bytes.Buffer
		if err := templates.ExecuteTemplate(&b, name+".tmpl", d); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		files = append(files, File{name, b.Bytes()})
	}
	return files, nil
}

// familyAt returns the network of net's family at width w, with its
// parameters (any family topologies.Lookup knows), or nil for a network
// of no family or one its family cannot build at w.
func familyAt(net *network.Network, w int) *network.Network {
	fam, err := topologies.AtWidth(net, w)
	if err != nil {
		return nil
	}
	return fam
}

// fill returns the C++ expression of input item i from its hash h,
// and what it means: values whose scans are exact in any order.
func fill(t gpukernels.Type, op string) (expr, doc string) {
	switch {
	case t.Float && op == "add":
		return fmt.Sprintf("static_cast<%s>(static_cast<int>(h %% 3) - 1)", t.CXX),
			"-1, 0 or 1, so that every partial sum is a small integer, exact in any order."
	case t.Float:
		return fmt.Sprintf("static_cast<%s>(static_cast<double>(h >> 40) / 16777216.0)", t.CXX),
			"a fraction of 24 bits in [0, 1)."
	case op == "add" && (t.Name == "int32" || t.Name == "int64"):
		return fmt.Sprintf("static_cast<%s>(static_cast<long long>(h %% 1001) - 500)", t.CXX),
			"-500 to 500, so that no partial sum of 2^31 items overflows in practice."
	default:
		return fmt.Sprintf("static_cast<%s>(h)", t.CXX), "hash bits; unsigned sums wrap exactly."
	}
}

// newHarnessData checks opt, fills in its defaults and returns the
// template data, but for the file names Harness sets.
func newHarnessData(opt *BenchOptions) (*harnessData, error) {
	if len(opt.Networks) == 0 {
		return nil, errors.New("bench: no network to benchmark")
	}
	w := opt.Networks[0].Width()
	for _, net := range opt.Networks {
		if net.Width() != w {
			return nil, fmt.Errorf("bench: the benchmarked networks have widths %d and %d: all must have one width", w, net.Width())
		}
	}
	if opt.Type == "" {
		opt.Type = "int32"
	}
	if opt.Op == "" {
		opt.Op = "add"
	}
	if opt.Op == "carry" || strings.HasPrefix(opt.Op, gpukernels.FunctorPrefix) {
		return nil, fmt.Errorf("bench: the benchmark scans with a built-in operator (add, max, min, and, or, xor), not %s; bigadd always runs", network.Quote(opt.Op))
	}
	if opt.Op == "affine" {
		return nil, fmt.Errorf("bench: the benchmark scans with a built-in operator (add, max, min, and, or, xor), not %s; bigadd always runs, and the affine scans run in the suite", network.Quote(opt.Op))
	}
	// Check the type, the operator and the tuning on the first network.
	for _, t := range append([]gpukernels.Options{opt.Tuning}, variantTunings(opt.Variants)...) {
		if t.Block == gpukernels.BlockShared {
			return nil, fmt.Errorf("bench: the device scans' block scan is %s or %s, not %s", gpukernels.BlockShuffle, gpukernels.BlockRaking, gpukernels.BlockShared)
		}
	}
	r, err := opt.tuning(opt.Type, opt.Op).Resolve(opt.Networks[0])
	if err != nil {
		if t, terr := gpukernels.LookupType(opt.Type); terr == nil && t.Float && slices.Contains([]string{"and", "or", "xor"}, opt.Op) {
			// The header's other operators are not the benchmark's.
			return nil, fmt.Errorf("bench: operator %s is not defined for %s: allowed for %s in the benchmark are add, max, min", opt.Op, t.Name, t.Name)
		}
		return nil, err
	}
	typ, err := gpukernels.LookupType(r.Type)
	if err != nil {
		return nil, err
	}
	expr, err := gpukernels.OperatorExpr(r.Op)
	if err != nil {
		return nil, err
	}
	if opt.Items == 0 {
		opt.Items = DefaultBenchItems
	}
	if opt.Items < 1 || opt.Items > MaxBenchItems {
		return nil, fmt.Errorf("bench: %d items out of range: allowed 1 to 2^40", opt.Items)
	}
	if opt.Sizes == nil {
		opt.Sizes = DefaultBenchSizes
	}
	if len(opt.Sizes) == 0 {
		return nil, errors.New("bench: no size for the device-wide scans: give at least one")
	}
	for _, n := range opt.Sizes {
		if n < 1 || n > MaxBenchItems {
			return nil, fmt.Errorf("bench: device-scan size %d out of range: allowed 1 to 2^40", n)
		}
	}
	opt.Runs = cmp.Or(opt.Runs, DefaultBenchRuns)
	if opt.Runs < DefaultBenchRuns || opt.Runs > MaxBenchRuns {
		return nil, fmt.Errorf("bench: %d timed runs out of range: allowed %d to %d", opt.Runs, DefaultBenchRuns, MaxBenchRuns)
	}
	opt.Warmup = cmp.Or(opt.Warmup, 3)
	if opt.Warmup < 1 || opt.Warmup > 1000 {
		return nil, fmt.Errorf("bench: %d warm-up runs out of range: allowed 1 to 1000", opt.Warmup)
	}
	opt.MicroReps = cmp.Or(opt.MicroReps, DefaultMicroReps)
	if opt.MicroReps < 1 || opt.MicroReps > 1<<20 {
		return nil, fmt.Errorf("bench: %d warp scans per thread out of range: allowed 1 to %d", opt.MicroReps, 1<<20)
	}
	d := &harnessData{
		TypeName:      typ.Name,
		OpName:        r.Op,
		CXX:           typ.CXX,
		Float:         typ.Float,
		Sum:           r.Op == "add",
		HostExpr:      expr,
		Width:         w,
		Segment:       gpukernels.Segment(w),
		N:             opt.Items,
		Sizes:         opt.Sizes,
		SanitizeSizes: SanitizeSizes,
		SanitizeItems: SanitizeItems,
		Runs:          opt.Runs,
		Warmup:        opt.Warmup,
		MicroReps:     opt.MicroReps,
		BlockReps:     DefaultBlockReps,
		SharedWidth:   SharedWidth,
		BlockThreads:  blockThreads,
	}
	d.FillExpr, d.FillDoc = fill(typ, r.Op)
	if len(opt.Variants) > 0 {
		if len(opt.Networks) != 1 {
			return nil, fmt.Errorf("bench: a sweep takes one network, not %d", len(opt.Networks))
		}
		if opt.NetworkTable {
			return nil, errors.New("bench: a sweep times device scans; a network table has none: ask for one or the other")
		}
		d.Sweep, d.Device = true, true
		seen := map[string]bool{}
		for i, v := range opt.Variants {
			if v.Name == "" || seen[v.Name] {
				return nil, fmt.Errorf("bench: variant %d has an empty or repeated name %q: each needs its own", i+1, v.Name)
			}
			seen[v.Name] = true
			d.Kernels = append(d.Kernels, harnessKernel{Index: i, Name: describeShort(opt.Networks[0]) + " " + v.Name})
		}
		return d, nil
	}
	for i, net := range opt.Networks {
		d.Kernels = append(d.Kernels, harnessKernel{Index: i, Name: describeShort(net)})
	}
	d.Device, d.Extras = !opt.NetworkTable, !opt.NetworkTable
	return d, nil
}

// variantTunings returns the tunings of vs.
func variantTunings(vs []Variant) []gpukernels.Options {
	var ts []gpukernels.Options
	for _, v := range vs {
		ts = append(ts, v.Tuning)
	}
	return ts
}

// describeShort names a network by topology and parameters, as in
// "ladner-fischer k=1", for the JSON and the table; a name that a C++
// string could not hold as it is is quoted.
func describeShort(net *network.Network) string {
	name := net.Topology()
	if name == "" {
		name = "network"
	}
	if ps := net.Params().Format(" "); ps != "" {
		name += " " + ps
	}
	return strings.Trim(emit.CommentText(name), `"`)
}

// MissingError reports that what Bench needs is not there: nvcc, or a
// CUDA device.
type MissingError struct{ What string }

// Error returns "bench: " and what is missing.
func (e *MissingError) Error() string { return "bench: " + e.What }

// FindNVCC returns the path of nvcc: on PATH, else in $CUDA_HOME/bin.
func FindNVCC() (string, error) {
	if p, err := toolrun.LookPath("nvcc"); err == nil {
		return p, nil
	}
	if home := os.Getenv("CUDA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "nvcc")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", &MissingError{"nvcc not found on PATH or under CUDA_HOME: install the CUDA toolkit (Debian package nvidia-cuda-toolkit, in non-free) or set CUDA_HOME"}
}

// BuildOptions say how Bench builds the harness.
type BuildOptions struct {
	// NVCC is the compiler; empty means FindNVCC.
	NVCC string
	// Arch is nvcc's -arch; empty means "native".
	Arch string
	// Dir keeps the generated files and the binary, made if need be;
	// empty means a temporary folder, removed afterwards. It is written
	// whole or not at all (stage): the run works beside it, and what it
	// wrote is moved in once the harness is built (Build) or has run
	// (Bench); a run that fails before, or a signal, leaves it as it was.
	Dir string
	// Log receives the harness's standard error as it comes (but for its
	// line saying it found no device, which the *MissingError says) and,
	// with Verbose, nvcc's output; nil discards them.
	Log io.Writer
	// Verbose sends nvcc's output, ptxas's figures for every kernel
	// (-Xptxas -v) among it, to Log as it comes. Without it nvcc's output
	// goes to nvcc.log in Dir alone, and its first error line into the
	// error of a failed build; the report's Kernels hold ptxas's figures
	// either way.
	Verbose bool
	// ToolTimeout is the time limit of each run of nvcc and of the
	// harness; 0 means toolrun.DefaultTimeout.
	ToolTimeout time.Duration
	// Progress, when not nil, is called with the steps of Bench done of
	// its two: the build, then the run.
	Progress func(done, total int)
}

// BenchReport is the JSON the harness prints, and what Bench and Suite
// add: nvcc's command line, the registers and spills ptxas reports for
// every kernel, and the compute-sanitizer runs.
type BenchReport struct {
	Device string `json:"device"`
	Driver string `json:"driver"`
	NVCC   string `json:"nvcc"`
	// CUB is the version of the CUB the baselines ran (CUB_VERSION as
	// major.minor.patch: 1.17.2 with CUDA 11.8, 3.0.1 with CUDA 13.0).
	CUB     string        `json:"cub,omitempty"`
	Results []BenchResult `json:"results"`
	// NVCCCommand is the command line that built the harness.
	NVCCCommand []string `json:"nvcc_command,omitempty"`
	// Kernels are ptxas's figures for every kernel it compiled (-Xptxas
	// -v), in the order it reported them.
	Kernels []KernelResources `json:"kernels,omitempty"`
	// Sanitize lists the compute-sanitizer runs of Suite.
	Sanitize []SanitizeResult `json:"sanitize,omitempty"`
}

// BenchResult is one kernel's row of a BenchReport. Kernel is memcpy (a
// device-to-device cudaMemcpy of the benchmarks' items, and of every
// device-scan size and offset), temp-storage-check (each network's device scans refuse temporary storage
// one byte short), device-scan, device-scan-3pass, cub-device-scan, warp-micro,
// cub-warp-micro, block-shuffle, block-raking, block-shared, block-shared-nopad,
// cub-block-scan, affine-scan, affine-scan-3pass, segmented-scan,
// segmented-scan-3pass, bigadd, or an application: compaction,
// radix-split, recurrence; and CUB's baselines of those: cub-affine-scan
// and cub-recurrence (cub::DeviceScan with the affine operator),
// cub-compaction (cub::DeviceSelect::Flagged), cub-radix-split
// (cub::DeviceRadixSort on one bit). Scan is inclusive or exclusive where it
// applies. N is the number of items (for the block scans, the items of
// one block). GBps counts the bytes read and written (for the warp and
// block benchmarks, the bytes of the values scanned on chip; for the
// three-pass scans, the 2n a scan needs, not the 3n they move); VsCUB and
// VsMemcpy are throughput ratios from the same run (a device scan's
// VsMemcpy against the copy of its own size and offset), NsPerBlock the time of
// one block scan with one block per SM, ElementsPerS an application's
// items per second; each nil where it does not apply. Offset is the number
// of items both arrays of a device-wide scan start past an aligned address
// (0 or 1), Batch the number of launches timed between one pair of events
// (more than one for sizes under 2^20).
type BenchResult struct {
	Kernel   string   `json:"kernel"`
	Topology string   `json:"topology"`
	Scan     string   `json:"scan"`
	Type     string   `json:"type"`
	Op       string   `json:"op"`
	N        int64    `json:"n"`
	MS       float64  `json:"ms"`
	GBps     float64  `json:"gbps"`
	VsCUB    *float64 `json:"vs_cub"`
	VsMemcpy *float64 `json:"vs_memcpy"`
	// NsPerBlock and ElementsPerS are nil where they do not apply.
	NsPerBlock   *float64 `json:"ns_per_block"`
	ElementsPerS *float64 `json:"elements_per_s"`
	Offset       int      `json:"offset"`
	Batch        int      `json:"batch"`
	Correct      bool     `json:"correct"`
}

// Bench writes the harness, builds it with nvcc -O3 -std=c++17
// -arch=ARCH -Xptxas -v, runs it and returns its report, with nvcc's
// command line and ptxas's figures for every kernel, and the report as
// JSON. Each run of nvcc and of the harness is limited to
// build.ToolTimeout. A missing nvcc or CUDA device is a *MissingError; an
// nvcc that built nothing wraps ErrNoBuild, a harness that printed no
// report ErrNoReport, and a tool that failed or ran out of time wraps
// toolrun's error. A report with a wrong result, or from a harness that
// failed after printing it, is returned with an error.
func Bench(ctx context.Context, opt BenchOptions, build BuildOptions) (*BenchReport, []byte, error) {
	if build.Log == nil {
		build.Log = io.Discard
	}
	commit := func() error { return nil }
	if build.Dir == "" {
		var remove func()
		var err error
		if build.Dir, remove, err = cleanup.MkdirTemp("", "prefixgen-bench-"); err != nil {
			return nil, nil, fmt.Errorf("bench: %w", err)
		}
		defer remove()
	} else {
		var remove func()
		var err error
		if commit, remove, err = build.stage(); err != nil {
			return nil, nil, err
		}
		defer remove()
	}
	step := func(done int) {
		if build.Progress != nil {
			build.Progress(done, 2)
		}
	}
	step(0)
	h, err := build.build(ctx, opt)
	if err != nil {
		return nil, nil, err
	}
	step(1)
	rep, err := h.run(ctx, build.Log)
	step(2)
	if ctx.Err() == nil {
		if cerr := commit(); cerr != nil {
			return nil, nil, cerr
		}
	}
	if rep == nil {
		return nil, nil, err
	}
	raw, jerr := json.Marshal(rep)
	if jerr != nil {
		return nil, nil, fmt.Errorf("bench: %w", jerr)
	}
	return rep, raw, err
}

// Build writes the harness into build.Dir, which must be given, and builds
// it there with nvcc as Bench does, without running it: the harness, its
// sources and nvcc.log are left in build.Dir, for a machine with a GPU. It
// returns ptxas's figures for every kernel. Its errors are Bench's.
func Build(ctx context.Context, opt BenchOptions, build BuildOptions) ([]KernelResources, error) {
	if build.Dir == "" {
		return nil, errors.New("bench: Build needs a folder to build in")
	}
	commit, remove, err := build.stage()
	if err != nil {
		return nil, err
	}
	defer remove()
	h, err := build.build(ctx, opt)
	if err != nil {
		return nil, err
	}
	if err := commit(); err != nil {
		return nil, err
	}
	return h.kernels, nil
}

// stage points build.Dir at a folder beside it (stage.New), and returns
// the function that moves what was written there into the folder given,
// and the one that removes the stage (call it in every case).
func (build *BuildOptions) stage() (commit func() error, remove func(), err error) {
	target := build.Dir
	if err := stage.Check(target); err != nil {
		return nil, nil, fmt.Errorf("bench: the folder to build in: %w", err)
	}
	f, err := stage.New(target, toolrun.TempDir())
	if err != nil {
		return nil, nil, fmt.Errorf("bench: %w", err)
	}
	build.Dir = f.Dir
	commit = func() error {
		if err := f.Commit(nil); err != nil {
			return fmt.Errorf("bench: cannot move the harness into %s: %w", target, err)
		}
		return nil
	}
	return commit, f.Remove, nil
}

// build writes opt's harness into build.Dir and builds it.
func (build BuildOptions) build(ctx context.Context, opt BenchOptions) (*harness, error) {
	files, err := Harness(opt)
	if err != nil {
		return nil, err
	}
	if build.NVCC == "" {
		if build.NVCC, err = FindNVCC(); err != nil {
			return nil, err
		}
	}
	return buildHarness(ctx, files, build)
}

// archPattern is what nvcc's -arch takes: a virtual or real architecture
// (compute_90, sm_90, sm_90a), or native, all, all-major.
var archPattern = regexp.MustCompile(`^(?:native|all|all-major|(?:sm|compute)_[1-9][0-9]{1,2}[af]?)$`)

// CheckArch reports an arch BuildOptions.Arch cannot be: anything but
// native, all, all-major, sm_NN or compute_NN. Whether nvcc knows NN is
// nvcc's to say.
func CheckArch(arch string) error {
	if arch == "" || archPattern.MatchString(arch) {
		return nil
	}
	return fmt.Errorf("--arch %s: allowed native, all, all-major, sm_NN or compute_NN, as nvcc -arch takes them", network.Quote(arch))
}

// ErrNoBuild is wrapped by the error of an nvcc that exited 0 without
// building the harness: no harness binary, or no ptxas report of its
// kernels (-Xptxas -v), which every real build prints.
var ErrNoBuild = errors.New("nvcc built no harness")

// ErrNoNative is wrapped by the error of a build for -arch=native on a
// machine where nvcc finds no GPU: nvcc builds for its default
// architecture instead, and says so only in a warning.
var ErrNoNative = errors.New("nvcc found no GPU for -arch=native and built for its default architecture")

// ErrNoReport is wrapped by the error of a harness that printed no report
// (no JSON, or a report with no results) without saying why.
var ErrNoReport = errors.New("the harness printed no report")

// harness is a built harness.
type harness struct {
	dir, bin string
	command  []string
	kernels  []KernelResources
	// timeout is the time limit of each run.
	timeout time.Duration
}

// buildHarness writes files into build.Dir and builds the harness there
// with nvcc, -Xptxas -v, keeping nvcc's output in nvcc.log. nvcc has built
// the harness only when it exits 0, the harness binary is there (one left
// by an earlier build is removed first) and ptxas has reported its kernels.
func buildHarness(ctx context.Context, files []File, build BuildOptions) (*harness, error) {
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(build.Dir, f.Name), f.Data, 0o644); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
	}
	arch := build.Arch
	if arch == "" {
		arch = "native"
	}
	dir, err := filepath.Abs(build.Dir)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	h := &harness{dir: dir, bin: filepath.Join(dir, "harness"), timeout: build.ToolTimeout}
	if err := os.Remove(h.bin); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("bench: %w", err)
	}
	args := []string{"-O3", "-std=c++17", "-arch=" + arch, "-Xptxas", "-v", "-o", "harness", "harness.cu"}
	h.command = append([]string{filepath.Base(build.NVCC)}, args...)
	var nvccLog io.Writer
	if build.Verbose {
		nvccLog = build.Log
	}
	res, err := toolrun.Run(ctx, toolrun.Cmd{Path: build.NVCC, Args: args, Dir: dir, Log: nvccLog, Timeout: build.ToolTimeout})
	var out string
	if res != nil {
		out = string(res.Output)
	}
	if werr := os.WriteFile(filepath.Join(dir, "nvcc.log"), []byte(out), 0o644); werr != nil && err == nil {
		return nil, fmt.Errorf("bench: %w", werr)
	}
	if exit, ok := errors.AsType[*toolrun.ExitError](err); ok {
		// Its first error says what went wrong; ptxas's figures and
		// warnings may come before it, and the error count after.
		said := *exit
		if line := errorLine(out); line != "" {
			said.FirstLine = line
		}
		return nil, fmt.Errorf("bench: %w", &said)
	}
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if arch == "native" && strings.Contains(out, "Cannot find valid GPU for '-arch=native'") {
		// nvcc built for its oldest default (sm_52), whose code takes the
		// header's pre-Volta paths: not the code a GPU would run.
		return nil, fmt.Errorf("bench: %w: allowed --arch sm_NN, the GPU the harness runs on", ErrNoNative)
	}
	if fi, serr := os.Stat(h.bin); serr != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("bench: %w: it exited 0 but wrote no harness binary; it said: %s", ErrNoBuild, said(out))
	}
	if h.kernels = ParsePTXAS(out); len(h.kernels) == 0 {
		return nil, fmt.Errorf("bench: %w: ptxas reported no kernel (-Xptxas -v); it said: %s", ErrNoBuild, said(out))
	}
	return h, nil
}

// reErrorLine finds a compiler's error line.
var reErrorLine = regexp.MustCompile(`(?i)\berror\b`)

// errorLine returns the first line of out that reports an error, escaped
// for one line, or "".
func errorLine(out string) string {
	for line := range strings.Lines(out) {
		if reErrorLine.MatchString(line) {
			return toolrun.OneLine(line)
		}
	}
	return ""
}

// said returns the last line of out, escaped, or "nothing".
func said(out string) string {
	if line := toolrun.LastLine(out); line != "" {
		return line
	}
	return "nothing"
}

// run runs the harness with args and returns its report, with the build's
// command line and kernels.
func (h *harness) run(ctx context.Context, log io.Writer, args ...string) (*BenchReport, error) {
	return h.runWith(ctx, log, h.bin, args...)
}

// runWith runs the harness through the program at path (the harness
// itself, or a tool such as compute-sanitizer given the harness as an
// argument), its standard error sent to log as it comes, and reads its
// verdict from what it printed. A harness that says it found no device
// ("prefixgen bench: no CUDA device", exit status 3) is a *MissingError;
// one that prints no report is an error wrapping ErrNoReport, unless it
// failed or ran out of time, which the error says instead; a wrong result,
// or a failure after the report, is an error returned with the report.
func (h *harness) runWith(ctx context.Context, log io.Writer, path string, args ...string) (*BenchReport, error) {
	errLog := &dropLines{w: log, prefix: noDevice}
	res, err := toolrun.Run(ctx, toolrun.Cmd{Path: path, Args: args, Dir: h.dir, ErrLog: errLog, Timeout: h.timeout})
	errLog.flush()
	var stdout, stderr string
	if res != nil {
		stdout, stderr = string(res.Stdout), string(res.Stderr)
	}
	exit, failed := errors.AsType[*toolrun.ExitError](err)
	for line := range strings.Lines(stderr) {
		if why, ok := strings.CutPrefix(toolrun.OneLine(line), noDevice); ok {
			return nil, &MissingError{"no CUDA device" + why}
		}
	}
	if failed && exit.Code == 3 {
		return nil, &MissingError{"no CUDA device: " + said(stderr)}
	}
	if err != nil && !failed {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if failed {
		// The harness names what went wrong last.
		said := *exit
		said.FirstLine = toolrun.LastLine(stderr)
		err = fmt.Errorf("bench: %w", &said)
	}
	rep, perr := parseReport(reportJSON([]byte(stdout)))
	if perr != nil {
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("bench: %w: %s", ErrNoReport, strings.TrimPrefix(perr.Error(), "bench: "))
	}
	rep.NVCCCommand, rep.Kernels = h.command, h.kernels
	for _, r := range rep.Results {
		if !r.Correct {
			return rep, fmt.Errorf("bench: %s %s %s of %d items gave a wrong result", r.Kernel, r.Topology, r.Scan, r.N)
		}
	}
	return rep, err
}

// noDevice starts the line of a harness that found no CUDA device.
const noDevice = "prefixgen bench: no CUDA device"

// dropLines writes to w every line but those that start with prefix, so
// that what an error says is not shown twice. A line is held until its
// end; flush writes a last line without one.
type dropLines struct {
	w      io.Writer
	prefix string
	line   []byte
}

// Write passes on every whole line of p that does not start with prefix.
func (d *dropLines) Write(p []byte) (int, error) {
	if d.w == nil {
		return len(p), nil
	}
	d.line = append(d.line, p...)
	for {
		i := bytes.IndexByte(d.line, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := d.line[:i+1]
		if !bytes.HasPrefix(line, []byte(d.prefix)) {
			if _, err := d.w.Write(line); err != nil {
				return len(p), err
			}
		}
		d.line = d.line[i+1:]
	}
}

// flush writes what is left of a last line without its end.
func (d *dropLines) flush() {
	if d.w != nil && len(d.line) > 0 && !bytes.HasPrefix(d.line, []byte(d.prefix)) {
		_, _ = d.w.Write(d.line)
	}
	d.line = nil
}

// reportJSON returns the JSON document in out: from its first line that
// starts with "{" (a tool run before the harness may print lines of its
// own) to its last line that starts with "]}" or "}".
func reportJSON(out []byte) []byte {
	start := bytes.Index(out, []byte("\n{"))
	if bytes.HasPrefix(out, []byte("{")) {
		start = 0
	} else if start >= 0 {
		start++
	} else {
		return out
	}
	out = out[start:]
	if end := bytes.LastIndex(out, []byte("\n]}")); end >= 0 {
		return out[:end+3]
	}
	return out
}

// KernelResources are ptxas's figures for one kernel (nvcc -Xptxas -v).
type KernelResources struct {
	// Name is the kernel's mangled name, Arch the architecture compiled.
	Name string `json:"name"`
	Arch string `json:"arch"`
	// Registers per thread; bytes of stack frame, spill stores and spill
	// loads per thread; bytes of static shared memory per block.
	Registers   int `json:"registers"`
	StackFrame  int `json:"stack_frame"`
	SpillStores int `json:"spill_stores"`
	SpillLoads  int `json:"spill_loads"`
	SharedBytes int `json:"shared_bytes"`
}

var (
	rePTXASEntry  = regexp.MustCompile(`Compiling entry function '([^']+)' for '(\w+)'`)
	rePTXASProps  = regexp.MustCompile(`Function properties for (\S+)`)
	rePTXASFrame  = regexp.MustCompile(`(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads`)
	rePTXASUsed   = regexp.MustCompile(`Used (\d+) registers`)
	rePTXASShared = regexp.MustCompile(`(\d+) bytes smem`)
)

// ParsePTXAS reads the kernels' figures from ptxas's verbose output (nvcc
// -Xptxas -v): registers, stack frame, spills and static shared memory of
// every entry function, in the order ptxas compiled them. Lines it does not
// know are skipped.
func ParsePTXAS(out string) []KernelResources {
	var ks []KernelResources
	var cur *KernelResources // the entry being compiled
	props := ""              // the function whose properties follow
	for line := range strings.SplitSeq(out, "\n") {
		atoi := func(s string) int {
			n, _ := strconv.Atoi(s)
			return n
		}
		switch m := rePTXASEntry.FindStringSubmatch(line); {
		case m != nil:
			ks = append(ks, KernelResources{Name: m[1], Arch: m[2]})
			cur, props = &ks[len(ks)-1], ""
			continue
		}
		if m := rePTXASProps.FindStringSubmatch(line); m != nil {
			props = m[1]
			continue
		}
		if cur == nil {
			continue
		}
		if m := rePTXASFrame.FindStringSubmatch(line); m != nil && props == cur.Name {
			cur.StackFrame, cur.SpillStores, cur.SpillLoads = atoi(m[1]), atoi(m[2]), atoi(m[3])
		}
		if m := rePTXASUsed.FindStringSubmatch(line); m != nil {
			cur.Registers = atoi(m[1])
			if s := rePTXASShared.FindStringSubmatch(line); s != nil {
				cur.SharedBytes = atoi(s[1])
			}
			cur = nil
		}
	}
	return ks
}

// Table writes the report as an aligned table: one row per result.
func (r *BenchReport) Table(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "device %s, driver %s, nvcc %s", recorded(r.Device), recorded(r.Driver), recorded(r.NVCC))
	if r.CUB != "" {
		fmt.Fprintf(&b, ", cub %s", r.CUB)
	}
	b.WriteByte('\n')
	// offset tells the aligned run of a size from the one an item off.
	rows := [][]string{{"kernel", "topology", "scan", "type", "op", "n", "offset", "ms", "GB/s", "vs cub", "vs memcpy", "ns/block", "elements/s", "correct"}}
	number := func(v *float64, format string) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf(format, *v)
	}
	for _, x := range r.Results {
		rows = append(rows, []string{x.Kernel, x.Topology, x.Scan, x.Type, x.Op, fmt.Sprint(x.N), fmt.Sprint(x.Offset),
			fmt.Sprintf("%.4f", x.MS), fmt.Sprintf("%.1f", x.GBps), number(x.VsCUB, "%.3f"), number(x.VsMemcpy, "%.3f"),
			number(x.NsPerBlock, "%.0f"), number(x.ElementsPerS, "%.4g"), fmt.Sprint(x.Correct)})
	}
	widths := make([]int, len(rows[0]))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, row := range rows {
		for i, cell := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			fmt.Fprintf(&b, "%-*s", widths[i], cell)
		}
		b.Truncate(len(bytes.TrimRight(b.Bytes(), " ")))
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}
