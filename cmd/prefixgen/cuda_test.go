package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels/bench"
)

func TestCudaEmit(t *testing.T) {
	dir := t.TempDir()
	netFile := filepath.Join(dir, "bk12.json")
	status, _, errOut := prefixgen("gen", "-t", "brent-kung", "-n", "12", "-f", "json", "-o", netFile)
	require.Equal(t, 0, status, errOut)
	wideFile := filepath.Join(dir, "hc100.json")
	status, _, errOut = prefixgen("gen", "-t", "han-carlson", "-n", "100", "-f", "json", "-o", wideFile)
	require.Equal(t, 0, status, errOut)
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		{"sklansky float add", []string{"cuda", "emit", "-t", "sklansky", "--width", "32", "--type", "float", "--op", "add"},
			[]string{"namespace sklansky_32_float_add {", "typedef float value_type;", "struct Sum {"}},
		{"default width and type", []string{"cuda", "emit", "-t", "kogge-stone"},
			[]string{"// width:      32 lanes", "typedef int32_t value_type;", "detail::StepUpInPlace<kSegment, 16>(r0, r0, lane >= 16, member_mask, scan_op);"}},
		{"brent-kung 16 uint64 max", []string{"cuda", "emit", "-t", "brent-kung", "--width", "16", "--type", "uint64", "--op", "max"},
			[]string{"kSegment = 16,", "typedef uint64_t value_type;", "0x0000ffffu << (detail::LaneId() & 16)"}},
		{"from file", []string{"cuda", "emit", "--from", netFile, "--type", "int32", "--op", "add"},
			[]string{"// topology:   brent-kung", "// width:      12 lanes", "kSegment = 16,"}},
		{"carry", []string{"cuda", "emit", "-t", "han-carlson", "--width", "32", "--op", "carry"},
			[]string{"__device__ __forceinline__ limb_type WarpBigAdd(", "BigAddKernel", "typedef uint32_t limb_type;"}},
		{"functor", []string{"cuda", "emit", "-t", "ladner-fischer", "--param", "k=1", "--width", "16", "--type", "double", "--op", "functor:my::Op"},
			[]string{"typedef ::my::Op ScanOp;", "namespace ladner_fischer_k1_16_double_functor_my_Op {"}},
		{"tuning", []string{"cuda", "emit", "-t", "sklansky", "--items-per-thread", "4", "--block-threads", "512", "--lookback", "8", "--namespace", "mine"},
			[]string{"kItemsPerThread = 4,", "kBlockThreads = 512,", "kLookBackWindow = 8,", "namespace mine {"}},
		{"look-back defaults", []string{"cuda", "emit", "-t", "sklansky", "--type", "int64"},
			[]string{"kItemsPerThread = 16,", "kBlockThreads = 256,", "kPartialDelayNs = 1290,", "kPollDelayNs = 632,", "kDelayGrid = 500,", "kStatusBytes = 16,", "kStatusStride = 32,", "kTileOrderBlock = 0,"}},
		{"look-back knobs", []string{"cuda", "emit", "-t", "sklansky", "--poll-delay", "0", "--delay-grid", "1000", "--wide-status", "--tile-order", "block", "--status-stride", "64"},
			[]string{"kPartialDelayNs = 1245,", "kPollDelayNs = 0,", "kDelayGrid = 1000,", "kStatusBytes = 16,", "kStatusStride = 64,", "kTileOrderBlock = 1,"}},
		{"shared default width", []string{"cuda", "emit", "-t", "brent-kung", "--block", "shared"},
			[]string{"// width:      1024 columns", "namespace brent_kung_1024_int32_add_shared {", "kBlockThreads = 512,", "kItemsPerColumn = 4,",
				"int Index(int slot) { return slot + (slot >> 5); }", "DeviceInclusiveScanThreePass"}},
		{"shared 2048 no pad", []string{"cuda", "emit", "-t", "kogge-stone", "--block", "shared", "--width", "2048", "--no-pad", "--type", "double"},
			[]string{"// width:      2048 columns", "int Index(int slot) { return slot; }", "namespace kogge_stone_2048_double_add_shared_nopad {"}},
		{"shared from file", []string{"cuda", "emit", "--from", wideFile, "--block", "shared", "--items-per-thread", "2"},
			[]string{"// width:      100 columns", "kBlockThreads = 64,", "kItemsPerColumn = 1,"}},
		{"raking", []string{"cuda", "emit", "-t", "kogge-stone", "--block", "raking"},
			[]string{"namespace kogge_stone_32_int32_add_raking {", "T totals[kRakeSlots];", "scanned by the network (raking)", "DeviceExclusiveScanThreePass"}},
		{"shuffle named", []string{"cuda", "emit", "-t", "sklansky", "--block", "shuffle"},
			[]string{"struct WarpNetwork {", "DeviceExclusiveScanThreePass"}},
		{"affine", []string{"cuda", "emit", "-t", "sklansky", "--type", "float", "--op", "affine"},
			[]string{"struct AffineMap {", "typedef AffineMap value_type;", "return AffineMap{1.0f, 0.0f};"}},
		{"segmented", []string{"cuda", "emit", "-t", "sklansky", "--op", "max", "--segmented", "uint32"},
			[]string{"struct SegmentedValue {\n  int32_t value;\n  uint32_t head;\n};", "typedef Segmented ScanOp;", "namespace sklansky_32_int32_max_segmented_uint32 {"}},
		{"shared affine segmented", []string{"cuda", "emit", "-t", "ladner-fischer", "--block", "shared", "--width", "256", "--type", "double", "--op", "affine", "--segmented", "int64"},
			[]string{"// width:      256 columns", "typedef SegmentedValue value_type;", "struct SharedNetwork {"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, out, errOut := prefixgen(tt.args...)
			require.Equal(t, 0, status, errOut)
			assert.Empty(t, errOut)
			assert.True(t, strings.HasPrefix(out, "// Code generated by prefixgen; DO NOT EDIT.\n"))
			for _, w := range tt.want {
				assert.Contains(t, out, w)
			}
			_, again, _ := prefixgen(tt.args...)
			assert.Equal(t, out, again, "the same bytes every time")

			// -o writes the same bytes.
			path := filepath.Join(t.TempDir(), "scan.cuh")
			status, stdout, errOut := prefixgen(append(tt.args, "-o", path)...)
			require.Equal(t, 0, status, errOut)
			assert.Empty(t, stdout)
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, out, string(got))
		})
	}
}

func TestCudaBadInput(t *testing.T) {
	dir := t.TempDir()
	wide := filepath.Join(dir, "ks64.json")
	status, _, errOut := prefixgen("gen", "-t", "kogge-stone", "-n", "64", "-f", "json", "-o", wide)
	require.Equal(t, 0, status, errOut)
	existing := filepath.Join(dir, "existing.cuh")
	require.NoError(t, os.WriteFile(existing, []byte("keep me"), 0o644))
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CUDA_HOME", "")
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"width above 32", []string{"cuda", "emit", "-t", "sklansky", "--width", "33"}, "prefixgen cuda emit: --width 33 out of range: a warp scan allows 1 to 32 lanes; for 2 to 2048 columns, use --block shared\n"},
		{"width 128", []string{"cuda", "emit", "-t", "sklansky", "-n", "128"}, "prefixgen cuda emit: --width 128 out of range: a warp scan allows 1 to 32 lanes; for 2 to 2048 columns, use --block shared\n"},
		{"shared above 2048", []string{"cuda", "emit", "-t", "sklansky", "--block", "shared", "--width", "4096"}, "prefixgen cuda emit: --width 4096 out of range: a shared-memory block scan (--block shared) allows 2 to 2048 columns"},
		{"shared width 1", []string{"cuda", "emit", "-t", "sklansky", "--block", "shared", "--width", "1"}, "prefixgen cuda emit: --width 1 out of range: a shared-memory block scan (--block shared) allows 2 to 2048 columns"},
		{"status stride", []string{"cuda", "emit", "-t", "sklansky", "--status-stride", "12"}, "prefixgen cuda emit: status stride 12 out of range: allowed powers of two from the status word's 8 bytes to 128"},
		{"unknown block", []string{"cuda", "emit", "-t", "sklansky", "--block", "global"}, `prefixgen cuda emit: --block "global" is not a block scan: allowed shuffle, raking, shared`},
		{"no-pad shuffle", []string{"cuda", "emit", "-t", "sklansky", "--no-pad"}, "prefixgen cuda emit: --no-pad applies to --block shared only"},
		{"affine int", []string{"cuda", "emit", "-t", "sklansky", "--op", "affine"}, "prefixgen cuda emit: operator affine takes float or double coefficients, not int32"},
		{"affine uint64", []string{"cuda", "emit", "-t", "sklansky", "--op", "affine", "--type", "uint64", "--block", "shared"}, "prefixgen cuda emit: operator affine takes float or double coefficients, not uint64"},
		{"segmented no type", []string{"cuda", "emit", "-t", "sklansky", "--segmented"}, "prefixgen cuda emit: a value is missing after --segmented"},
		{"segmented empty", []string{"cuda", "emit", "-t", "sklansky", "--segmented", ""}, "prefixgen cuda emit: --segmented needs a head-flag type: allowed int32, uint32, int64, uint64"},
		{"segmented float", []string{"cuda", "emit", "-t", "sklansky", "--segmented", "float"}, "prefixgen cuda emit: head flags do not fit type float: allowed int32, uint32, int64, uint64"},
		{"segmented unknown", []string{"cuda", "emit", "-t", "sklansky", "--segmented", "bit"}, `prefixgen cuda emit: unknown head-flag type "bit": allowed int32, uint32, int64, uint64`},
		{"shared bad items", []string{"cuda", "emit", "-t", "sklansky", "--block", "shared", "--items-per-thread", "3"}, "prefixgen cuda emit: 3 items per thread out of range: allowed multiples of 2 (the columns each thread holds) up to 32"},
		{"width 0", []string{"cuda", "emit", "-t", "sklansky", "--width", "0"}, "prefixgen cuda emit: --width 0 out of range: a warp scan allows 1 to 32 lanes\n"},
		{"wide file", []string{"cuda", "emit", "--from", wide}, "prefixgen cuda emit: --from " + wide + ": width 64 out of range: a warp scan allows 1 to 32 lanes; for 2 to 2048 columns, use --block shared\n"},
		{"bench wide file", []string{"cuda", "bench", "--from", wide}, "prefixgen cuda bench: --from " + wide + ": width 64 out of range: a warp scan allows 1 to 32 lanes; for 2 to 2048 columns, cuda emit --block shared builds a shared-memory block scan\n"},
		{"width with file", []string{"cuda", "emit", "--from", wide, "--width", "8"}, "prefixgen cuda emit: --param and --width do not apply to --from: the file fixes the network"},
		{"no network", []string{"cuda", "emit"}, "prefixgen cuda emit: no network given: use -t TOPOLOGY [--width W] or --from FILE"},
		{"all", []string{"cuda", "emit", "-t", "all"}, "prefixgen cuda emit: -t \"all\": this command takes one topology: allowed ripple, kogge-stone, brent-kung, sklansky, han-carlson, ladner-fischer, knowles, harris, zero-deficiency"},
		{"unknown type", []string{"cuda", "emit", "-t", "sklansky", "--type", "half"}, `prefixgen cuda emit: unknown type "half": allowed int32, uint32, int64, uint64, float, double`},
		{"unknown op", []string{"cuda", "emit", "-t", "sklansky", "--op", "mul"}, `prefixgen cuda emit: unknown operator "mul": allowed add, max, min, and, or, xor, carry, affine, functor:NAME`},
		{"xor on float", []string{"cuda", "emit", "-t", "sklansky", "--type", "float", "--op", "xor"}, "prefixgen cuda emit: operator xor is not defined for float: allowed for float are add, max, min, affine and functor:NAME"},
		{"bad functor", []string{"cuda", "emit", "-t", "sklansky", "--op", "functor:a+b"}, `prefixgen cuda emit: functor name "a+b" is not a C++ identifier: '+' is not allowed; allowed: letters, digits and _`},
		{"bad items", []string{"cuda", "emit", "-t", "sklansky", "--items-per-thread", "0"}, "prefixgen cuda emit: --items-per-thread 0 out of range: allowed 1 to 32 (see --help)"},
		{"zero threads", []string{"cuda", "emit", "-t", "sklansky", "--block-threads", "0"}, "prefixgen cuda emit: --block-threads 0 out of range: allowed multiples of 32 from 32 to 1024, at most 32 logical warps (see --help)"},
		{"zero shared items", []string{"cuda", "emit", "-t", "sklansky", "--block", "shared", "--items-per-thread", "0"},
			"prefixgen cuda emit: --items-per-thread 0 out of range: allowed 1 to 32 (with --block shared, a multiple of the columns each thread holds) (see --help)"},
		{"zero lookback", []string{"cuda", "emit", "-t", "sklansky", "--lookback", "0"}, "prefixgen cuda emit: --lookback 0 out of range: allowed 1 to 32 (see --help)"},
		{"zero status stride", []string{"cuda", "emit", "-t", "sklansky", "--status-stride", "0"}, "prefixgen cuda emit: --status-stride 0 out of range: allowed powers of two from the status word's bytes (8 for values of up to 4 bytes, 16 with --wide-status or for values of 5 to 8 bytes) to 128 (see --help)"},
		{"wide status of 8 bytes", []string{"cuda", "emit", "-t", "sklansky", "--type", "int64", "--wide-status"}, "prefixgen cuda emit: a wide status word applies to values of at most 4 bytes, not to values of 8 bytes"},
		{"wide status of an affine map", []string{"cuda", "emit", "-t", "sklansky", "--type", "float", "--op", "affine", "--wide-status"}, "prefixgen cuda emit: a wide status word applies to values of at most 4 bytes, not to values of 8 bytes"},
		{"wide status of 16 bytes", []string{"cuda", "emit", "-t", "sklansky", "--type", "double", "--op", "affine", "--wide-status"}, "prefixgen cuda emit: a wide status word applies to values of at most 4 bytes, not to values of 16 bytes, whose flag is kept apart from them"},
		{"negative delay", []string{"cuda", "emit", "-t", "sklansky", "--poll-delay", "-1"}, "prefixgen cuda emit: --poll-delay -1 out of range: allowed 0 to 1048576 ns (see --help)"},
		{"long delay", []string{"cuda", "bench", "-t", "sklansky", "--partial-delay", "2000000"}, "prefixgen cuda bench: --partial-delay 2000000 out of range: allowed 0 to 1048576 ns (see --help)"},
		{"zero delay grid", []string{"cuda", "emit", "-t", "sklansky", "--delay-grid", "0"}, "prefixgen cuda emit: --delay-grid 0 out of range: allowed 1 to 2147483647 blocks, the largest grid (see --help)"},
		{"delay grid past a grid", []string{"cuda", "emit", "-t", "sklansky", "--delay-grid", "4294967297"}, "prefixgen cuda emit: delay grid 4294967297 out of range: allowed 1 to 2147483647 blocks, the largest grid"},
		{"tile order", []string{"cuda", "emit", "-t", "sklansky", "--tile-order", "random"}, `prefixgen cuda emit: unknown tile order "random": allowed atomic, block`},
		{"bench zero items", []string{"cuda", "bench", "-t", "sklansky", "--items", "0"}, `prefixgen cuda bench: --items: size "0" out of range: allowed 1 to 2^40`},
		{"bench zero runs", []string{"cuda", "bench", "-t", "sklansky", "--runs", "0"}, "prefixgen cuda bench: --runs 0 out of range: allowed 20 to 10000 (see --help)"},
		{"bench zero items per thread", []string{"cuda", "bench", "-t", "sklansky", "--items-per-thread", "0"}, "prefixgen cuda bench: --items-per-thread 0 out of range: allowed 1 to 32 (see --help)"},
		{"bench width above 32", []string{"cuda", "bench", "-t", "sklansky", "--width", "33"}, "prefixgen cuda bench: --width 33 out of range: a warp scan allows 1 to 32 lanes; for 2 to 2048 columns, cuda emit --block shared builds a shared-memory block scan\n"},
		{"bad threads", []string{"cuda", "emit", "-t", "sklansky", "--block-threads", "48"}, "prefixgen cuda emit: 48 threads per block out of range: allowed multiples of 32 from 32 to 1024 (at most 32 logical warps of 32 lanes)"},
		{"unwritable output", []string{"cuda", "emit", "-t", "sklansky", "-o", filepath.Join(dir, "no", "such", "scan.cuh")}, "prefixgen cuda emit: cannot write " + filepath.Join(dir, "no", "such", "scan.cuh") + ": no such file or directory"},
		{"bad input keeps -o", []string{"cuda", "emit", "-t", "sklansky", "--type", "float", "--op", "and", "-o", existing}, "prefixgen cuda emit: operator and is not defined for float: allowed for float are add, max, min, affine and functor:NAME"},
		{"bench bad size", []string{"cuda", "bench", "-t", "sklansky", "--sizes", "2^28,2^x"}, `prefixgen cuda bench: --sizes: size "2^x" is not a number, 2^K or 2^K±C from 1 to 2^40`},
		{"bench size twice", []string{"cuda", "bench", "-t", "sklansky", "--sizes", "31,31"}, "prefixgen cuda bench: --sizes: size 31 given twice: allowed each size once"},
		{"bench list with all", []string{"cuda", "bench", "-t", "sklansky,all"}, `prefixgen cuda bench: -t "sklansky,all": all cannot be listed with other topologies: allowed all alone, or a list of ripple, kogge-stone, brent-kung, sklansky, han-carlson, ladner-fischer, knowles, harris, zero-deficiency`},
		{"bench list twice", []string{"cuda", "bench", "-t", "sklansky,sklansky"}, `prefixgen cuda bench: -t "sklansky,sklansky": "sklansky" given twice: allowed each topology once`},
		{"bench list unknown", []string{"cuda", "bench", "-t", "sklansky,sklanski"}, `prefixgen cuda bench: -t "sklansky,sklanski": unknown topology "sklanski" (did you mean sklansky?)`},
		{"bench list param none takes", []string{"cuda", "bench", "-t", "sklansky,kogge-stone", "--param", "k=1"}, `prefixgen cuda bench: -t "sklansky,kogge-stone": no topology given has parameter "k": they take none`},
		{"no nvcc list param", []string{"cuda", "bench", "-t", "ladner-fischer,sklansky", "--param", "k=1"}, "prefixgen cuda bench: nvcc not found on PATH or under CUDA_HOME: install the CUDA toolkit (Debian package nvidia-cuda-toolkit, in non-free) or set CUDA_HOME"},
		{"bench sizes with suite", []string{"cuda", "bench", "--suite", dir, "--sizes", "31"}, "prefixgen cuda bench: --sizes does not apply to --suite: the suite fixes its tables (see --help)"},
		{"no nvcc list", []string{"cuda", "bench", "-t", "kogge-stone,sklansky", "--sizes", "2^28,2^20+17"}, "prefixgen cuda bench: nvcc not found on PATH or under CUDA_HOME: install the CUDA toolkit (Debian package nvidia-cuda-toolkit, in non-free) or set CUDA_HOME"},
		{"no nvcc", []string{"cuda", "bench", "-t", "all"}, "prefixgen cuda bench: nvcc not found on PATH or under CUDA_HOME: install the CUDA toolkit (Debian package nvidia-cuda-toolkit, in non-free) or set CUDA_HOME"},
		{"bench carry", []string{"cuda", "bench", "-t", "sklansky", "--op", "carry"}, `prefixgen cuda bench: the benchmark scans with a built-in operator (add, max, min, and, or, xor), not "carry"; bigadd always runs`},
		{"bench arch", []string{"cuda", "bench", "-t", "sklansky", "--build-only", "--keep", filepath.Join(dir, "arch"), "--arch", "sm_90 -x"}, `prefixgen cuda bench: --arch "sm_90 -x": allowed native, all, all-major, sm_NN or compute_NN, as nvcc -arch takes them`},
		{"suite arch", []string{"cuda", "bench", "--suite", filepath.Join(dir, "arch"), "--arch", "90"}, `prefixgen cuda bench: --arch "90": allowed native, all, all-major, sm_NN or compute_NN, as nvcc -arch takes them`},
		{"bench affine", []string{"cuda", "bench", "-t", "sklansky", "--type", "double", "--op", "affine"}, `prefixgen cuda bench: the benchmark scans with a built-in operator (add, max, min, and, or, xor), not "affine"; bigadd always runs, and the affine scans run in the suite`},
		{"bench runs", []string{"cuda", "bench", "-t", "sklansky", "--runs", "3"}, "prefixgen cuda bench: 3 timed runs out of range: allowed 20 to 10000"},
		{"suite no nvcc", []string{"cuda", "bench", "--suite", filepath.Join(dir, "suite")}, "prefixgen cuda bench: nvcc not found on PATH or under CUDA_HOME: install the CUDA toolkit (Debian package nvidia-cuda-toolkit, in non-free) or set CUDA_HOME"},
		{"suite and topology", []string{"cuda", "bench", "--suite", filepath.Join(dir, "suite"), "-t", "sklansky"}, "prefixgen cuda bench: --topology does not apply to --suite: the suite fixes its tables (see --help)"},
		{"suite empty", []string{"cuda", "bench", "--suite", ""}, "prefixgen cuda bench: --suite is empty: allowed the folder to write the suite's tables into"},
		{"sweep and suite", []string{"cuda", "bench", "--suite", dir, "--sweep", dir}, "prefixgen cuda bench: --suite and --sweep are two runs: give one"},
		{"sweep type", []string{"cuda", "bench", "--sweep", dir, "--type", "int64"}, "prefixgen cuda bench: --type does not apply to --sweep: the sweep fixes its types, sizes and variants (see --help)"},
		{"sweep tuning", []string{"cuda", "bench", "--sweep", dir, "--poll-delay", "0"}, "prefixgen cuda bench: --poll-delay does not apply to --sweep: the sweep fixes its types, sizes and variants (see --help)"},
		{"sweep two networks", []string{"cuda", "bench", "--sweep", dir, "-t", "sklansky,brent-kung"}, `prefixgen cuda bench: -t "sklansky,brent-kung": this command takes one topology: allowed ripple, kogge-stone, brent-kung, sklansky, han-carlson, ladner-fischer, knowles, harris, zero-deficiency`},
		{"suite tuning", []string{"cuda", "bench", "--suite", dir, "--tile-order", "block"}, "prefixgen cuda bench: --tile-order does not apply to --suite: the suite fixes its tables (see --help)"},
		{"suite a file", []string{"cuda", "bench", "--suite", existing}, "prefixgen cuda bench: --suite " + existing + ": not a folder: allowed a folder, made if missing\n"},
		{"sweep a file", []string{"cuda", "bench", "--sweep", existing, "--build-only"}, "prefixgen cuda bench: --sweep " + existing + ": not a folder: allowed a folder, made if missing\n"},
		{"networks a file", []string{"cuda", "bench", "--networks", existing}, "prefixgen cuda bench: --networks " + existing + ": not a folder: allowed a folder, made if missing\n"},
		{"keep missing, no nvcc", []string{"cuda", "bench", "-t", "sklansky", "--build-only", "--keep", filepath.Join(dir, "missing")}, "prefixgen cuda bench: nvcc not found on PATH or under CUDA_HOME: install the CUDA toolkit (Debian package nvidia-cuda-toolkit, in non-free) or set CUDA_HOME\n"},
		{"keep a file", []string{"cuda", "bench", "-t", "sklansky", "--keep", existing}, "prefixgen cuda bench: --keep " + existing + ": not a folder: allowed a folder, made if missing\n"},
		{"build-only without keep", []string{"cuda", "bench", "-t", "sklansky", "--build-only"}, "prefixgen cuda bench: --build-only needs --keep DIR: the folder the harness is built in"},
		{"build-only without sanitizer", []string{"cuda", "bench", "--suite", dir, "--build-only", "--no-sanitize"}, "prefixgen cuda bench: --no-sanitize applies to a run of the suite, not to --build-only"},
		{"no-sanitize alone", []string{"cuda", "bench", "-t", "sklansky", "--no-sanitize"}, "prefixgen cuda bench: --no-sanitize applies to --suite and --networks only"},
		{"networks and suite", []string{"cuda", "bench", "--suite", dir, "--networks", dir}, "prefixgen cuda bench: --suite and --networks are two runs: give one"},
		{"three runs", []string{"cuda", "bench", "--suite", dir, "--sweep", dir, "--networks", dir}, "prefixgen cuda bench: --suite, --sweep and --networks are three runs: give one"},
		{"networks type", []string{"cuda", "bench", "--networks", dir, "--type", "float"}, "prefixgen cuda bench: --type does not apply to --networks: the network tables fix their networks and types (see --help)"},
		{"networks tuning", []string{"cuda", "bench", "--networks", dir, "--block-threads", "256"}, "prefixgen cuda bench: --block-threads does not apply to --networks: the network tables fix their networks and types (see --help)"},
		{"networks no nvcc", []string{"cuda", "bench", "--networks", filepath.Join(dir, "networks")}, "prefixgen cuda bench: nvcc not found on PATH or under CUDA_HOME: install the CUDA toolkit (Debian package nvidia-cuda-toolkit, in non-free) or set CUDA_HOME"},
		{"networks build-only without sanitizer", []string{"cuda", "bench", "--networks", dir, "--build-only", "--no-sanitize"}, "prefixgen cuda bench: --no-sanitize applies to a run of the network tables, not to --build-only"},
		{"networks verbose", []string{"cuda", "bench", "--networks", dir, "-v"}, "prefixgen cuda bench: --verbose applies to a single bench, not --networks: each table keeps nvcc's output in DIR/TABLE/nvcc.log"},
		{"suite verbose", []string{"cuda", "bench", "--suite", dir, "-v"}, "prefixgen cuda bench: --verbose applies to a single bench, not --suite: the suite keeps nvcc's output in DIR/TABLE/nvcc.log"},
		{"unknown flag", []string{"cuda", "emit", "--fast"}, "prefixgen cuda emit: unknown flag --fast (see prefixgen cuda emit --help)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, out, errOut := prefixgen(tt.args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, out)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
			if tt.want != "" {
				assert.True(t, strings.HasPrefix(errOut, tt.want), "got %q", errOut)
			}
		})
	}
	got, err := os.ReadFile(existing)
	require.NoError(t, err)
	assert.Equal(t, "keep me", string(got), "bad input leaves -o alone")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no half-written file")
}

// TestCudaBenchSuite runs cuda bench --suite with a fake nvcc on PATH whose
// "harness" prints a report of one row: every table is written and printed.
func TestCudaBenchSuite(t *testing.T) {
	for _, tool := range []string{"sh", "cp", "cat"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the fake nvcc needs %s on PATH", tool)
		}
	}
	bin := t.TempDir()
	harness := filepath.Join(bin, "harness.sh")
	require.NoError(t, os.WriteFile(harness, []byte(`#!/bin/sh
cat <<'EOF'
{"device":"Fake GPU","driver":"12.4","nvcc":"12.4.131","results":[
{"kernel":"device-scan","topology":"sklansky","scan":"inclusive","type":"int32","op":"add","n":31,"ms":0.01,"gbps":0.1,"vs_cub":1,"vs_memcpy":null,"offset":1,"batch":256,"correct":true}
]}
EOF
`), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "nvcc"), []byte(`#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; esac; shift; done
cp `+harness+` "$out"
echo "ptxas info    : Compiling entry function '_Z10FillKernelPix' for 'sm_90'" >&2
`), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("CUDA_HOME", "")
	fakeDevice(t, true)
	dir := filepath.Join(t.TempDir(), "suite")
	status, out, errOut := prefixgen("cuda", "bench", "--suite", dir, "--no-sanitize")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, 5, strings.Count(out, "device Fake GPU, driver 12.4, nvcc 12.4.131\n"), out)
	for _, table := range []string{"int32-add-1", "int32-add-2", "int32-add-3", "float-max", "int64-add"} {
		assert.FileExists(t, filepath.Join(dir, table+".json"))
		assert.Contains(t, errOut, "prefixgen cuda bench: running "+table)
	}
	assert.NotContains(t, errOut, " steps ", "no bar off a terminal")

	// --progress shows the steps done of the total (five tables, each
	// built and run) as lines; --quiet silences the suite's lines too.
	status, progressOut, errOut := prefixgen("cuda", "bench", "--suite", dir, "--no-sanitize", "--progress")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, out, progressOut, "standard output unchanged")
	assert.Regexp(t, `(?m)^prefixgen cuda bench: 10/10 steps \(builds, sanitizer runs, runs\), done in [0-9.]+m?s$`, errOut)
	status, quietOut, errOut := prefixgen("cuda", "bench", "--suite", dir, "--no-sanitize", "--quiet")
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, out, quietOut)
	assert.Empty(t, errOut)
}

// TestCudaBenchTools runs cuda bench with nvcc that misbehave, first on
// PATH: one that hangs ends at --tool-timeout, one that prints junk and
// exits 0 has built nothing, and either fails the run (exit 1) with a
// line that says so; a bad --tool-timeout is refused before anything runs (exit 2).
func TestCudaBenchTools(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("the fake nvcc needs sh")
	}
	for _, tt := range []struct {
		name, nvcc string
		args       []string
		status     int
		want       string
	}{
		{"hangs", "sleep 60", []string{"--tool-timeout", "1s"}, 1,
			"prefixgen cuda bench: nvcc ran past its time limit of 1s and was stopped (allowed: a longer --tool-timeout)"},
		{"hangs in the suite", "sleep 60", []string{"--suite", "SUITE", "--no-sanitize", "--tool-timeout", "1s"}, 1,
			"prefixgen cuda bench: table int32-add-1: nvcc ran past its time limit of 1s and was stopped (allowed: a longer --tool-timeout); table int32-add-2: "},
		{"junk", "echo fine; exit 0", nil, 1,
			"prefixgen cuda bench: nvcc built no harness: it exited 0 but wrote no harness binary; it said: fine"},
		{"bad timeout", "exit 0", []string{"--tool-timeout", "soon"}, 2,
			`prefixgen cuda bench: --tool-timeout "soon": allowed a duration from 1s to 168h, such as 90s, 20m or 2h`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(bin, "nvcc"), []byte("#!/bin/sh\n"+tt.nvcc+"\n"), 0o755))
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			t.Setenv("CUDA_HOME", "")
			fakeDevice(t, true)
			args := []string{"cuda", "bench"}
			if !slices.Contains(tt.args, "--suite") {
				args = append(args, "-t", "sklansky")
			}
			for _, a := range tt.args {
				if a == "SUITE" {
					a = filepath.Join(t.TempDir(), "suite")
				}
				args = append(args, a)
			}
			start := time.Now()
			status, _, errOut := prefixgen(args...)
			assert.Equal(t, tt.status, status, errOut)
			// nvcc's own lines go first, as they come; the error is the
			// last line.
			lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
			assert.True(t, strings.HasPrefix(lines[len(lines)-1], tt.want), "got %q", errOut)
			assert.Less(t, time.Since(start), 30*time.Second)
		})
	}
}

// TestCudaReport turns an H200's report into Markdown and a plot, and
// refuses what it cannot read in one line, writing nothing.
func TestCudaReport(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join("..", "..", "gpukernels", "bench", "testdata", "h200-int64-add.json")
	md, svg := filepath.Join(dir, "out.md"), filepath.Join(dir, "tp.svg")
	status, out, errOut := prefixgen("cuda", "report", "-o", md, "--plot", svg, rep)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	page, err := os.ReadFile(md)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(page), "### h200-int64-add\n\nNVIDIA H200, driver 13.0, nvcc 13.0.88, CUB 3.0.1."), "%.200s", page)
	pic, err := os.ReadFile(svg)
	require.NoError(t, err)
	assert.Contains(t, string(pic), "kogge-stone, 1 pass")
	// Flags after the files read as before them, as map's do.
	md2, svg2 := filepath.Join(dir, "out2.md"), filepath.Join(dir, "tp2.svg")
	status, out, errOut = prefixgen("cuda", "report", rep, "-o", md2, "--plot="+svg2)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	page2, err := os.ReadFile(md2)
	require.NoError(t, err)
	assert.Equal(t, string(page), string(page2))
	pic2, err := os.ReadFile(svg2)
	require.NoError(t, err)
	assert.Equal(t, string(pic), string(pic2))
	// Two reports: two sections on standard output, one plot.
	data, err := os.ReadFile(rep)
	require.NoError(t, err)
	other := filepath.Join(dir, "other.json")
	require.NoError(t, os.WriteFile(other, data, 0o644))
	status, out, errOut = prefixgen("cuda", "report", rep, other)
	require.Equal(t, 0, status, errOut)
	assert.Equal(t, 1, strings.Count(out, "### h200-int64-add\n"))
	assert.Equal(t, 1, strings.Count(out, "### other\n"))
	sameName := filepath.Join(dir, "h200-int64-add.json")
	require.NoError(t, os.Symlink(filepath.Join(dir, "other.json"), sameName))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(other, link))

	onlyBigadd := filepath.Join(dir, "bigadd.json")
	require.NoError(t, os.WriteFile(onlyBigadd, []byte(`{"device":"x","driver":"1","nvcc":"1","results":[{"kernel":"bigadd","topology":"t","n":64,"ms":1,"gbps":1,"correct":true}]}`), 0o644))
	notReport := filepath.Join(dir, "not.json")
	require.NoError(t, os.WriteFile(notReport, []byte(`{"device":"x","results":[],"y":1}`), 0o644))
	keep := filepath.Join(dir, "keep.md")
	require.NoError(t, os.WriteFile(keep, []byte("keep me"), 0o644))
	same := filepath.Join(dir, "same.svg")
	folderSVG := filepath.Join(dir, "pics.svg")
	require.NoError(t, os.Mkdir(folderSVG, 0o755))
	dangling := filepath.Join(dir, "dangling.svg")
	require.NoError(t, os.Symlink(filepath.Join("nosuch", "x.svg"), dangling))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"cuda", "report"}, "prefixgen cuda report: name one or more report files (the JSON of cuda bench or --suite)"},
		{[]string{"cuda", "report", "-o", keep, filepath.Join(dir, "missing.json")}, "prefixgen cuda report: cannot read report " + filepath.Join(dir, "missing.json") + ": no such file or directory"},
		{[]string{"cuda", "report", "-o", keep, dir}, "prefixgen cuda report: cannot read report " + dir + ": is a directory"},
		{[]string{"cuda", "report", "-o", keep, notReport}, "prefixgen cuda report: " + notReport + `: not a benchmark report: unknown field "y" (allowed the JSON report that cuda bench writes)`},
		{[]string{"cuda", "report", "-o", keep, "--plot", filepath.Join(dir, "x.gif"), rep}, "prefixgen cuda report: --plot " + filepath.Join(dir, "x.gif") + `: unknown picture type ".gif": allowed .svg, .png`},
		{[]string{"cuda", "report", "-o", keep, "--plot", same, onlyBigadd}, "prefixgen cuda report: --plot " + same + ": no timed device-wide scan to plot"},
		{[]string{"cuda", "report", "-o", dir, "--plot", same, rep}, "prefixgen cuda report: cannot write " + dir + ": it is a directory: name a file"},
		{[]string{"cuda", "report", "-o", keep, "--plot", filepath.Join(dir, "nosuch", "p.svg"), rep}, "prefixgen cuda report: cannot write " + filepath.Join(dir, "nosuch", "p.svg") + ": no such file or directory"},
		{[]string{"cuda", "report", "-o", keep, "--plot", folderSVG, rep}, "prefixgen cuda report: cannot write " + folderSVG + ": it is a directory: name a file"},
		{[]string{"cuda", "report", "-o", keep, "--plot", dangling, rep}, "prefixgen cuda report: cannot write " + dangling + ": no such file or directory"},
		{[]string{"cuda", "report", "-o", keep, rep, other, rep}, "prefixgen cuda report: " + rep + " given twice: allowed each report once"},
		{[]string{"cuda", "report", "-o", keep, other, link}, "prefixgen cuda report: " + link + " is " + other + ", given twice: allowed each report once"},
		{[]string{"cuda", "report", "-o", keep, rep, sameName}, "prefixgen cuda report: " + rep + " and " + sameName + " would both be sections named h200-int64-add: allowed files of different names"},
		{[]string{"cuda", "report", "-o", same, "--plot", same, rep}, "prefixgen cuda report: --plot " + same + " and -o " + same + " name the same file: allowed two files, one for the picture and one for the tables"},
	} {
		status, out, errOut := prefixgen(tt.args...)
		assert.Equal(t, 2, status, "%v: %s", tt.args, errOut)
		assert.Empty(t, out)
		assert.Equal(t, tt.want+"\n", errOut, "%v", tt.args)
		got, err := os.ReadFile(keep)
		require.NoError(t, err)
		assert.Equal(t, "keep me", string(got), "%v", tt.args)
	}
	assert.NoFileExists(t, same)
	assert.NoFileExists(t, filepath.Join(dir, "x.gif"))
}

// fakeCUDA puts on PATH an nvcc that prints ptxas's figures for one kernel
// and "builds" a harness that is the shell script harness.
func fakeCUDA(t *testing.T, harness string) {
	t.Helper()
	for _, tool := range []string{"sh", "cp", "cat"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the fake nvcc needs %s on PATH", tool)
		}
	}
	bin := t.TempDir()
	script := filepath.Join(bin, "harness.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\n"+harness), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "nvcc"), []byte(`#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; esac; shift; done
cp `+script+` "$out"
echo "ptxas info    : Compiling entry function '_Z10FillKernelPix' for 'sm_90'" >&2
echo "ptxas info    : Function properties for _Z10FillKernelPix" >&2
echo "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads" >&2
echo "ptxas info    : Used 12 registers, 368 bytes cmem[0]" >&2
`), 0o755))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("CUDA_HOME", "")
	fakeDevice(t, true)
}

// oneRowHarness is a fake harness that prints a report of one right row.
const oneRowHarness = `cat <<'EOF'
{"device":"Fake GPU","driver":"12.4","nvcc":"12.4.131","results":[
{"kernel":"device-scan","topology":"sklansky","scan":"inclusive","type":"int32","op":"add","n":31,"ms":0.01,"gbps":0.1,"vs_cub":1,"vs_memcpy":null,"offset":1,"batch":256,"correct":true}
]}
EOF
`

// TestCudaBenchPTXASQuiet: ptxas's figures reach the terminal only with
// -v; the JSON records them either way.
func TestCudaBenchPTXASQuiet(t *testing.T) {
	fakeCUDA(t, oneRowHarness)
	for _, tt := range []struct {
		name    string
		verbose bool
	}{{"quiet", false}, {"verbose", true}} {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"cuda", "bench", "-t", "sklansky"}
			if tt.verbose {
				args = append(args, "-v")
			}
			status, out, errOut := prefixgen(args...)
			require.Equal(t, 0, status, errOut)
			assert.Contains(t, out, `"registers":12,"stack_frame":8,"spill_stores":4,"spill_loads":4`)
			if tt.verbose {
				assert.Contains(t, errOut, "ptxas info    : Used 12 registers")
			} else {
				assert.Empty(t, errOut)
			}
		})
	}
}

// TestCudaBenchNoDeviceOnce: a harness that finds no device is said to
// have found none in one line, not echoed and then said again; exit 2.
func TestCudaBenchNoDeviceOnce(t *testing.T) {
	fakeCUDA(t, "echo 'prefixgen bench: no CUDA device: no CUDA-capable device is detected' >&2\nexit 3\n")
	status, out, errOut := prefixgen("cuda", "bench", "-t", "sklansky")
	assert.Equal(t, 2, status, errOut)
	assert.Empty(t, out)
	assert.Equal(t, "prefixgen cuda bench: no CUDA device: no CUDA-capable device is detected\n", errOut)
}

// fakeDevice points cuda bench's device probe at a folder laid out as a
// machine whose NVIDIA driver lists a GPU (gpu true) or none, with no
// nvidia-smi, for the rest of the test.
func fakeDevice(t *testing.T, gpu bool) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "proc", "driver", "nvidia", "gpus")
	if gpu {
		dir = filepath.Join(dir, "0000:01:00.0")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	saved := deviceProbe
	deviceProbe = bench.DeviceProbe{Root: root, NvidiaSMI: "-"}
	t.Cleanup(func() { deviceProbe = saved })
}

// TestCudaBenchNoDeviceFirst: without a device cuda bench says so in one
// line in seconds, before nvcc runs (minutes), and exits 2, as a harness
// that found none; --suite too. The bound is against nvcc's minutes, not a
// benchmark: checking the options renders the harness (half a second alone
// on the 2-core machine, over a second beside the rest of the suite).
func TestCudaBenchNoDeviceFirst(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "nvcc-ran")
	fakeCUDA(t, oneRowHarness)
	fakeDevice(t, false)
	nvcc, err := exec.LookPath("nvcc")
	require.NoError(t, err)
	script, err := os.ReadFile(nvcc)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(nvcc, []byte(strings.Replace(string(script), "#!/bin/sh\n", "#!/bin/sh\ntouch "+marker+"\n", 1)), 0o755))
	const none = "prefixgen cuda bench: no CUDA device: the NVIDIA driver shows no GPU (no /proc/driver/nvidia/gpus/*, no /dev/nvidia0)"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"cuda", "bench", "-t", "all"}, none + "; --build-only --keep DIR builds the harness without one\n"},
		{[]string{"cuda", "bench", "--suite", filepath.Join(t.TempDir(), "suite")}, none + "\n"},
	} {
		start := time.Now()
		status, out, errOut := prefixgen(tt.args...)
		assert.Less(t, time.Since(start), 5*time.Second)
		assert.Equal(t, 2, status, errOut)
		assert.Empty(t, out)
		assert.Equal(t, tt.want, errOut)
		assert.NoFileExists(t, marker, "nvcc ran")
	}
	// --build-only without a device needs the GPU named: nvcc's native
	// would build for its oldest default, whose code takes the header's
	// pre-Volta paths.
	const native = none + ": --arch native builds for this machine's GPU: allowed with --build-only --arch sm_NN, the GPU the harness will run on\n"
	for _, args := range [][]string{
		{"cuda", "bench", "-t", "sklansky", "--build-only", "--keep", filepath.Join(t.TempDir(), "k")},
		{"cuda", "bench", "-t", "sklansky", "--build-only", "--keep", filepath.Join(t.TempDir(), "k"), "--arch", "native"},
		{"cuda", "bench", "--suite", filepath.Join(t.TempDir(), "suite"), "--build-only"},
		{"cuda", "bench", "--sweep", filepath.Join(t.TempDir(), "sweep"), "--build-only"},
		{"cuda", "bench", "--networks", filepath.Join(t.TempDir(), "networks"), "--build-only"},
	} {
		status, out, errOut := prefixgen(args...)
		assert.Equal(t, 2, status, errOut)
		assert.Empty(t, out)
		assert.Equal(t, native, errOut)
		assert.NoFileExists(t, marker, "nvcc ran")
		assert.NoDirExists(t, args[3])
	}
	// With the GPU named, --build-only builds without a device, into
	// --keep's folder, made if missing, and says nothing.
	keep := filepath.Join(t.TempDir(), "new", "build")
	status, out, errOut := prefixgen("cuda", "bench", "-t", "sklansky", "--build-only", "--keep", keep, "--arch", "sm_90")
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	assert.Empty(t, errOut)
	assert.FileExists(t, filepath.Join(keep, "harness"))
	assert.FileExists(t, filepath.Join(keep, "harness.cu"))
	assert.FileExists(t, marker)
	// A folder that cannot be made, under a file, is bad input.
	under := filepath.Join(keep, "harness.cu", "sub")
	status, _, errOut = prefixgen("cuda", "bench", "-t", "sklansky", "--build-only", "--keep", under, "--arch", "sm_90")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen cuda bench: --keep "+under+": cannot make the folder ("+filepath.Join(keep, "harness.cu")+": not a directory): allowed a folder, made if missing\n", errOut)
}
