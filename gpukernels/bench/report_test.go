package bench_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels/bench"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/network"
)

// TestReportMarkdown renders a report an H200 wrote (int64 add over
// Kogge–Stone, built by nvcc 13.0) and compares it with its golden file.
func TestReportMarkdown(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "h200-int64-add.json"))
	require.NoError(t, err)
	r, err := bench.ReadBenchReport(data)
	require.NoError(t, err)
	assert.Equal(t, []int64{31, 1<<20 + 17, 1 << 28}, r.DeviceScanSizes())
	assert.Equal(t, []string{"kogge-stone"}, r.Topologies())
	v, ok := r.Throughput("cub-device-scan", "cub", 1<<28)
	require.True(t, ok)
	assert.InDelta(t, 3418, v, 1)
	_, ok = r.Throughput("memcpy", "", 1<<28)
	assert.False(t, ok, "this harness timed no copy beside the scans of each size")

	var b bytes.Buffer
	require.NoError(t, r.Markdown(&b, "h200-int64-add"))
	got := b.String()
	golden.Check(t, filepath.Join("testdata", "h200-int64-add.md.golden"), b.Bytes())
	// What the page must say: the ratios at 2^28, the spills ptxas
	// reported, and that every result was right.
	assert.Contains(t, got, "| device-scan | kogge-stone | inclusive | 0 | 1.3212 | 3251 | 0.951 | 0.799 |")
	assert.Contains(t, got, "| `_ZN9prefixgen26kogge_stone_32_int64_add_010ScanKernelIlNS0_3SumEEEvPKT_PS3_xNS0_9ScanStateIS3_EEbS3_T0_` | ")
	assert.Contains(t, got, "All 54 results matched the CPU.")
	// The warp and block scans, a row per network beside CUB's.
	assert.Contains(t, got, "| CUB | 1.000 | 312 ns | 312 ns | 312 ns |\n| kogge-stone | 1.003 | 436 ns (0.717) | 2815 ns (0.111) | 2687 ns (0.116) |\n")

	// The whole output of cuda bench: its table, then the JSON.
	var table bytes.Buffer
	require.NoError(t, r.Table(&table))
	r2, err := bench.ReadBenchReport(append(table.Bytes(), data...))
	require.NoError(t, err)
	assert.Equal(t, r.Results, r2.Results)

	// A | in a report's text is escaped: it would end its cell and add
	// a column.
	piped, err := bench.ReadBenchReport([]byte(`{"results":[{"kernel":"device-scan","topology":"kogge|stone","scan":"inclusive","type":"int32","op":"add","n":1024,"ms":1,"gbps":1,"correct":true}]}`))
	require.NoError(t, err)
	var pb bytes.Buffer
	require.NoError(t, piped.Markdown(&pb, "piped"))
	assert.Contains(t, pb.String(), `| device-scan | kogge\|stone | inclusive | 0 |`)
	assert.NotContains(t, pb.String(), `kogge|stone`)

	// A negative zero (-0, as a JSON writer may print) is zero: no cell
	// reads -0.000.
	zero, err := bench.ReadBenchReport([]byte(`{"results":[{"kernel":"device-scan","topology":"t","n":4,"ms":-0,"gbps":-0.0,"vs_cub":-0,"vs_memcpy":-0e3,"ns_per_block":-0,"elements_per_s":-0}]}`))
	require.NoError(t, err)
	var zb, zt bytes.Buffer
	require.NoError(t, zero.Markdown(&zb, "zero"))
	require.NoError(t, zero.Table(&zt))
	assert.NotContains(t, zb.String()+zt.String(), "-0")

	// Keys may repeat in different objects.
	bare, err := bench.ReadBenchReport([]byte(`{"results":[{"kernel":"memcpy","n":1},{"kernel":"memcpy","n":2}],"sanitize":[{"tool":"memcheck","ok":true,"errors":0}]}`))
	require.NoError(t, err)
	// What a report does not record is said so, in the heading and the
	// table alike.
	var h bytes.Buffer
	require.NoError(t, bare.Markdown(&h, "bare"))
	assert.Contains(t, h.String(), "### bare\n\ndevice not recorded, driver not recorded, nvcc not recorded, CUB not recorded.")
	h.Reset()
	require.NoError(t, bare.Table(&h))
	assert.True(t, strings.HasPrefix(h.String(), "device not recorded, driver not recorded, nvcc not recorded\n"), h.String())

	// A wrong result is named.
	r.Results[3].Correct = false
	b.Reset()
	require.NoError(t, r.Markdown(&b, "x"))
	assert.Contains(t, b.String(), "Wrong results (1 of 54): ")

	// An untimed run under compute-sanitizer: its tools, no timings.
	data, err = os.ReadFile(filepath.Join("..", "..", "docs", "bench", "h200-suite-int64-add-sanitize-cuda11.8.json"))
	require.NoError(t, err)
	san, err := bench.ReadBenchReport(data)
	require.NoError(t, err)
	b.Reset()
	require.NoError(t, san.Markdown(&b, "san"))
	assert.Contains(t, b.String(), "Untimed: every kernel ran once")
	assert.Contains(t, b.String(), "| racecheck | **no** | 12 | ")
	assert.NotContains(t, b.String(), "Device-wide scans of")
	assert.Contains(t, b.String(), "All 207 results matched the CPU.")
}

// TestReadBenchReportBadInput: what is not a report is refused in one
// line.
func TestReadBenchReportBadInput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "bench: not a benchmark report: the input is empty (allowed the JSON report that cuda bench writes)"},
		{`{"device":"x","results":[]}`, "bench: the benchmark report has no results"},
		{`{"device":"x","results":[{"kernel":"memcpy"}],"extra":1}`, `bench: not a benchmark report: unknown field "extra" (allowed the JSON report that cuda bench writes)`},
		{`{"results":[{"kernel":"memcpy"}]} {}`, "bench: not a benchmark report: more than one JSON value"},
		{`[1]`, "bench: not a benchmark report: an array where it is not allowed (allowed the JSON report that cuda bench writes)"},
		{`{"device":"x","device":"y","results":[{"kernel":"memcpy","n":1}]}`, `bench: not a benchmark report: key "device" appears twice in one object`},
		{`{"results":[{"kernel":"memcpy","n":1,"ms":1,"n":2}]}`, `bench: not a benchmark report: key "n" appears twice in one object`},
		{`{"results":[{"kernel":"memcpy","n":1},{"kernel":"bigadd","n":-1}]}`, "bench: result 2 of the benchmark report (\"bigadd\") has n -1 (allowed 1 or more)"},
		{`{"results":[{"kernel":"memcpy","n":1,"gbps":-2}]}`, "bench: result 1 of the benchmark report (\"memcpy\") has a negative time or throughput"},
		{`{"results":[{"kernel":"memcpy","n":0}]}`, "bench: result 1 of the benchmark report (\"memcpy\") has n 0 (allowed 1 or more)"},
		{`{"results":[{"kernel":"memcpy","n":1,"vs_cub":-2}]}`, "bench: result 1 of the benchmark report (\"memcpy\") has a negative ratio or rate"},
		{`{"results":[{"kernel":"memcpy","n":1,"ns_per_block":-2}]}`, "bench: result 1 of the benchmark report (\"memcpy\") has a negative ratio or rate"},
		{`{"results":[{"kernel":"memcpy","n":1,"gbps":2e6}]}`, "bench: result 1 of the benchmark report (\"memcpy\") has a throughput of 2e+06 GB/s: allowed up to 1e+06 GB/s"},
		{`{"results":[{"kernel":"memcpy","n":1,"gbps":1e100}]}`, "bench: result 1 of the benchmark report (\"memcpy\") has a throughput of 1e+100 GB/s: allowed up to 1e+06 GB/s"},
		{`{"results":[{"kernel":"memcpy","n":1,"offset":-1}]}`, "bench: result 1 of the benchmark report (\"memcpy\") has offset -1 or batch 0: allowed offset 0 or more, batch 0 or more"},
		{`{"results":[{"kernel":"memcpy","n":1,"batch":-1}]}`, "bench: result 1 of the benchmark report (\"memcpy\") has offset 0 or batch -1: allowed offset 0 or more, batch 0 or more"},
		{`{"results":[{"kernel":"device-scan","topology":"sklansky","n":8,"gbps":200},{"kernel":"memcpy","n":8},{"kernel":"device-scan","topology":"sklansky","n":8,"gbps":800}]}`,
			"bench: results 1 and 3 of the benchmark report (\"device-scan\") measure the same kernel, network, scan, type, operator, size and offset: allowed one result of each"},
		{`{"results":[{"kernel":"memcpy","n":1}],"kernels":[{"name":"k","arch":"sm_90","registers":-1}]}`, "bench: kernel 1 of the benchmark report (\"k\") has a negative count of registers or bytes"},
		// A name of the report's is echoed cut, as every input is.
		{`{"results":[{"kernel":"` + strings.Repeat("k", 5000) + `","n":-1}]}`, "bench: result 1 of the benchmark report (\"" + strings.Repeat("k", 40) + "…\") has n -1 (allowed 1 or more)"},
		// Text that would reach a terminal raw: a screen cleared, a row
		// broken in two.
		{`{"device":"\u001b[2JGPU","results":[{"kernel":"memcpy","n":1}]}`, `bench: not a benchmark report: device "\x1b[2JGPU" holds a control character`},
		{`{"device":"x","results":[{"kernel":"memcpy\nsecond row","n":1}]}`, `bench: not a benchmark report: result 1's kernel "memcpy\nsecond row" holds a control character`},
		{`{"device":"x","results":[{"kernel":"memcpy","n":1}],"sanitize":[{"tool":"memcheck","message":"\u0007"}]}`, `bench: not a benchmark report: sanitizer run 1's message "\a" holds a control character`},
	} {
		_, err := bench.ReadBenchReport([]byte(c.in))
		require.Error(t, err, c.in)
		assert.Equal(t, c.want, err.Error())
		assert.NotContains(t, err.Error(), "\n")
	}
}

// Throughput finds the copy timed beside the device scans of a size (the
// one with a ratio to memcpy, of no scan), and no other copy.
func TestThroughputMemcpy(t *testing.T) {
	r, err := bench.ReadBenchReport([]byte(`{"results":[{"kernel":"memcpy","n":8,"gbps":100,"type":"int32"},` +
		`{"kernel":"memcpy","n":8,"gbps":500,"vs_memcpy":1},{"kernel":"memcpy","n":16,"gbps":300}]}`))
	require.NoError(t, err)
	v, ok := r.Throughput("memcpy", "", 8)
	require.True(t, ok)
	assert.Equal(t, 500.0, v)
	_, ok = r.Throughput("memcpy", "", 16)
	assert.False(t, ok, "no copy beside the scans of 16 items")
}

// FuzzReadBenchReport: any input is read or refused in one line, and a
// report read renders.
func FuzzReadBenchReport(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "h200-int64-add.json"))
	require.NoError(f, err)
	f.Add(data)
	f.Add([]byte(`{"device":"x","results":[{"kernel":"device-scan","topology":"t","n":4,"gbps":1}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := bench.ReadBenchReport(in)
		if err != nil {
			assert.False(t, strings.Contains(err.Error(), "\n"), "%q", err)
			return
		}
		var b bytes.Buffer
		require.NoError(t, r.Markdown(&b, "fuzz"))
	})
}

func TestParseSizes(t *testing.T) {
	got, err := bench.ParseSizes("2^28, 2^28-1,2^20+17,1,31,2049")
	require.NoError(t, err)
	assert.Equal(t, []int64{1 << 28, 1<<28 - 1, 1<<20 + 17, 1, 31, 2049}, got)
	got, err = bench.ParseSizes("2^40")
	require.NoError(t, err)
	assert.Equal(t, []int64{1 << 40}, got)
	for _, in := range []string{"", "0", "2^41", "2^40+1", "2^0-1", "-3", "2^", "2^x", "1e6", "2^28-", "12,,3", "99999999999999"} {
		_, err := bench.ParseSizes(in)
		assert.Error(t, err, in)
	}
	_, err = bench.ParseSizes("31,31")
	assert.EqualError(t, err, "bench: size 31 given twice: allowed each size once")
	_, err = bench.ParseSizes("2^x")
	assert.EqualError(t, err, `bench: size "2^x" is not a number, 2^K or 2^K±C from 1 to 2^40`)
}

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{{"67108864", 1 << 26}, {"2^26", 1 << 26}, {"2^20+17", 1<<20 + 17}, {"2^28-1", 1<<28 - 1}, {"1", 1}, {"2^40", 1 << 40}} {
		got, err := bench.ParseSize(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	for _, in := range []string{"", "0", "2^41", "1.5", "2^26,2^20", " 2^26"} {
		_, err := bench.ParseSize(in)
		assert.Error(t, err, in)
	}
}

// FuzzParseSizes: any list is read or refused in one line; what is read
// lies in 1 … MaxBenchItems with no size twice, and a single size reads
// the same through ParseSize.
func FuzzParseSizes(f *testing.F) {
	for _, s := range []string{"2^28,2^28-1,2^20+17,1,31,2049", "2^40", "0", "2^41", "31,31", "2^", "2^2-9", "1 , 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sizes, err := bench.ParseSizes(in)
		if err != nil {
			assert.NotContains(t, err.Error(), "\n")
			return
		}
		seen := map[int64]bool{}
		for _, n := range sizes {
			assert.True(t, n >= 1 && n <= bench.MaxBenchItems, "%d", n)
			assert.False(t, seen[n], "%d twice", n)
			seen[n] = true
		}
		if len(sizes) == 1 && strings.TrimSpace(in) == in && !strings.Contains(in, ",") {
			n, err := bench.ParseSize(in)
			require.NoError(t, err)
			assert.Equal(t, sizes[0], n)
		}
	})
}

// TestErrorsWrap holds that the errors of the tools' plumbing and of the
// reports wrap what went wrong, for a caller to test.
func TestErrorsWrap(t *testing.T) {
	_, err := bench.ReadBenchReport([]byte(`{"device":x}`))
	var syntax *json.SyntaxError
	assert.ErrorAs(t, err, &syntax)

	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	sk := gputest.Build(t, "sklansky", 32, nil)
	tables := []bench.SuiteTable{{Name: "t", Bench: bench.BenchOptions{Networks: []*network.Network{sk}}}}
	_, err = bench.Suite(context.Background(), bench.SuiteOptions{Dir: filepath.Join(file, "suite"), Tables: tables, NVCC: "/nonexistent/nvcc"})
	assert.ErrorIs(t, err, syscall.ENOTDIR, "%v", err)

	_, _, err = bench.Bench(context.Background(), bench.BenchOptions{Networks: []*network.Network{sk}}, bench.BuildOptions{NVCC: "/nonexistent/nvcc", Dir: file})
	assert.ErrorIs(t, err, syscall.ENOTDIR, "%v", err)
}
