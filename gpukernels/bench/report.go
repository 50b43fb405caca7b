package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/network"
)

// ReadBenchReport reads a BenchReport, as Suite writes it, from its JSON;
// lines before the first that starts with "{" are skipped, so that the
// whole output of prefixgen cuda bench (its table, then the JSON) reads
// too. An unknown key, a key given twice, a report with no results, a
// result with fewer than one item or a negative time, throughput or ratio,
// and text holding a control character or a line break are errors.
func ReadBenchReport(data []byte) (*BenchReport, error) {
	if !bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		if i := bytes.Index(data, []byte("\n{")); i >= 0 {
			data = data[i+1:]
		}
	}
	return parseReport(data)
}

// parseReport reads a BenchReport from its JSON and checks it, as
// ReadBenchReport describes.
func parseReport(data []byte) (*BenchReport, error) {
	if key, ok := duplicateKey(data); ok {
		return nil, fmt.Errorf("bench: not a benchmark report: key %s appears twice in one object", network.Quote(key))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var r BenchReport
	if err := dec.Decode(&r); err != nil {
		return nil, network.JSONError("bench: not a benchmark report: ", err, "the JSON report that cuda bench writes")
	}
	if dec.More() {
		return nil, fmt.Errorf("bench: not a benchmark report: more than one JSON value")
	}
	if len(r.Results) == 0 {
		return nil, fmt.Errorf("bench: the benchmark report has no results")
	}
	if err := r.checkText(); err != nil {
		return nil, err
	}
	for i := range r.Results {
		x := &r.Results[i]
		// A negative zero (-0) is zero: the tables print no -0.000.
		x.MS, x.GBps = x.MS+0, x.GBps+0
		for _, p := range []*float64{x.VsCUB, x.VsMemcpy, x.NsPerBlock, x.ElementsPerS} {
			if p != nil {
				*p += 0
			}
		}
		bad := ""
		switch {
		case x.N < 1:
			bad = fmt.Sprintf("n %d (allowed 1 or more)", x.N)
		case x.MS < 0 || x.GBps < 0:
			bad = "a negative time or throughput"
		case x.GBps > MaxGBps:
			bad = fmt.Sprintf("a throughput of %g GB/s: allowed up to %g GB/s", x.GBps, MaxGBps)
		case x.Offset < 0 || x.Batch < 0:
			bad = fmt.Sprintf("offset %d or batch %d: allowed offset 0 or more, batch 0 or more", x.Offset, x.Batch)
		case x.VsCUB != nil && *x.VsCUB < 0, x.VsMemcpy != nil && *x.VsMemcpy < 0,
			x.NsPerBlock != nil && *x.NsPerBlock < 0, x.ElementsPerS != nil && *x.ElementsPerS < 0:
			bad = "a negative ratio or rate"
		}
		if bad != "" {
			return nil, fmt.Errorf("bench: result %d of the benchmark report (%s) has %s", i+1, network.Quote(x.Kernel), bad)
		}
	}
	type measured struct {
		kernel, topology, scan, typ, op string
		n                               int64
		offset                          int
	}
	first := make(map[measured]int, len(r.Results))
	for i, x := range r.Results {
		m := measured{x.Kernel, x.Topology, x.Scan, x.Type, x.Op, x.N, x.Offset}
		if j, ok := first[m]; ok {
			return nil, fmt.Errorf("bench: results %d and %d of the benchmark report (%s) measure the same kernel, network, scan, type, operator, size and offset: allowed one result of each", j+1, i+1, network.Quote(x.Kernel))
		}
		first[m] = i
	}
	for i, k := range r.Kernels {
		if min(k.Registers, k.StackFrame, k.SpillStores, k.SpillLoads, k.SharedBytes) < 0 {
			return nil, fmt.Errorf("bench: kernel %d of the benchmark report (%s) has a negative count of registers or bytes", i+1, network.Quote(k.Name))
		}
	}
	return &r, nil
}

// mdText is text of a report's in a cell of a Markdown table: a | in it
// escaped, which would end the cell.
func mdText(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// recorded returns s, or "not recorded" for a field a report left out.
func recorded(s string) string {
	if s == "" {
		return "not recorded"
	}
	return s
}

// MaxGBps is the largest throughput a benchmark report may hold, a
// petabyte a second: far past any GPU's memory, and a plot's axis can
// still be drawn up to it.
const MaxGBps = 1e6

// checkText refuses a report any of whose text holds a control character
// or a line break, which would reach a terminal raw through Table or
// Markdown: the harness escapes the device's name, and nothing else it
// prints holds one.
func (r *BenchReport) checkText() error {
	check := func(what, s string) error {
		if toolrun.Escape(s) != s || strings.ContainsAny(s, "\n\t") {
			return fmt.Errorf("bench: not a benchmark report: %s %s holds a control character", what, network.Quote(s))
		}
		return nil
	}
	var errs []error
	for _, f := range []struct{ what, s string }{{"device", r.Device}, {"driver", r.Driver}, {"nvcc", r.NVCC}, {"cub", r.CUB}} {
		errs = append(errs, check(f.what, f.s))
	}
	for _, a := range r.NVCCCommand {
		errs = append(errs, check("nvcc_command", a))
	}
	for i, x := range r.Results {
		for _, f := range []struct{ what, s string }{{"kernel", x.Kernel}, {"topology", x.Topology}, {"scan", x.Scan}, {"type", x.Type}, {"op", x.Op}} {
			errs = append(errs, check(fmt.Sprintf("result %d's %s", i+1, f.what), f.s))
		}
	}
	for i, k := range r.Kernels {
		errs = append(errs, check(fmt.Sprintf("kernel %d's name", i+1), k.Name), check(fmt.Sprintf("kernel %d's arch", i+1), k.Arch))
	}
	for i, z := range r.Sanitize {
		errs = append(errs, check(fmt.Sprintf("sanitizer run %d's tool", i+1), z.Tool), check(fmt.Sprintf("sanitizer run %d's message", i+1), z.Message))
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// duplicateKey returns a key that some object of the JSON data holds
// twice, which encoding/json would take silently, the last one winning.
// Malformed JSON has none: the decoder says what is wrong with it.
func duplicateKey(data []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next token of an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		top := len(stack) - 1
		if d, ok := tok.(json.Delim); ok {
			if top >= 0 && stack[top].object {
				stack[top].key = true // the value (an object or array) ends with its delimiter
			}
			switch d {
			case '{':
				stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:top]
				if top > 0 && stack[top-1].object {
					stack[top-1].key = true
				}
			}
			continue
		}
		if top < 0 || !stack[top].object {
			continue
		}
		f := stack[top]
		if f.key {
			key, _ := tok.(string)
			if f.keys[key] {
				return key, true
			}
			f.keys[key] = true
			f.key = false
		} else {
			f.key = true
		}
	}
}

// DeviceScanSizes returns the sizes at which the report's device-wide
// scans ran, in increasing order.
func (r *BenchReport) DeviceScanSizes() []int64 {
	var sizes []int64
	for _, x := range r.Results {
		if isDeviceScan(x.Kernel) && !slices.Contains(sizes, x.N) {
			sizes = append(sizes, x.N)
		}
	}
	slices.Sort(sizes)
	return sizes
}

// isDeviceScan reports whether kernel is a device-wide scan of the
// harness's own type: the networks' single and three passes and CUB's.
func isDeviceScan(kernel string) bool {
	return kernel == "device-scan" || kernel == "device-scan-3pass" || kernel == "cub-device-scan"
}

// Throughput returns the GB/s of the kernel over the topology ("cub" for
// CUB, "" for memcpy) at n items, aligned, inclusive where a scan, and
// whether the report has it. A memcpy at n is the copy timed beside the
// device scans of that size.
func (r *BenchReport) Throughput(kernel, topology string, n int64) (float64, bool) {
	for _, x := range r.Results {
		if x.Kernel == kernel && x.Topology == topology && x.N == n && x.Offset == 0 &&
			(x.Scan == "inclusive" || x.Scan == "") {
			if kernel == "memcpy" && x.VsMemcpy == nil {
				continue
			}
			return x.GBps, true
		}
	}
	return 0, false
}

// Topologies returns the networks of the report's device-wide scans, in
// the order the harness ran them.
func (r *BenchReport) Topologies() []string {
	var names []string
	for _, x := range r.Results {
		if x.Kernel == "device-scan" && !slices.Contains(names, x.Topology) {
			names = append(names, x.Topology)
		}
	}
	return names
}

// isScanKernel reports whether the mangled kernel name is a device-wide
// scan's kernel of the harness's own type and operator (not an affine,
// segmented, carry, counting or block-bench header's), a warp
// microbenchmark, or CUB's device scan.
func isScanKernel(name string) bool {
	for _, skip := range []string{"_affine_", "_segmented_", "_carry_", "_count_", "_block_", "_shared_", "BlockBench", "Init"} {
		if strings.Contains(name, skip) {
			return false
		}
	}
	for _, k := range []string{"10ScanKernel", "15ScanTilesKernel", "17ReduceTilesKernel", "16ScanTotalsKernel", "WarpMicro", "16DeviceScanKernel"} {
		if strings.Contains(name, k) {
			return true
		}
	}
	return false
}

// gbps formats a throughput: whole GB/s from 100 up, three significant
// digits below (a scan of 31 items moves a fraction of one).
func gbps(v float64) string {
	switch {
	case v >= 1e7:
		return fmt.Sprintf("%.4g", v)
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// millis formats a time in milliseconds: four decimals, or four
// significant digits where that would be long.
func millis(v float64) string {
	if v >= 1e7 {
		return fmt.Sprintf("%.4g", v)
	}
	return fmt.Sprintf("%.4f", v)
}

// Markdown writes the report as Markdown tables under a heading that
// names it: the device-wide scans at the largest size, aligned and one
// item off, with their ratios to CUB and to cudaMemcpy; the inclusive
// scans' throughput at every size; every other kernel; the networks' warp
// and block scans in one table; the kernels ptxas gave a stack frame or
// spills; and whether every result was right.
func (r *BenchReport) Markdown(w io.Writer, name string) error {
	var b bytes.Buffer
	device := r.Device
	if device == "" {
		device = "device not recorded"
	}
	fmt.Fprintf(&b, "### %s\n\n%s, driver %s, nvcc %s, CUB %s.", name, device, recorded(r.Driver), recorded(r.NVCC), recorded(r.CUB))
	if len(r.NVCCCommand) > 0 {
		fmt.Fprintf(&b, " Built with `%s`.", strings.Join(r.NVCCCommand, " "))
	}
	b.WriteString("\n\n")
	timed := slices.ContainsFunc(r.Results, func(x BenchResult) bool { return x.MS > 0 })
	if !timed {
		b.WriteString("Untimed: every kernel ran once, as under compute-sanitizer (`harness --sanitize`); only the checks count.\n\n")
	}
	if len(r.Sanitize) > 0 {
		b.WriteString("| compute-sanitizer | ok | errors | message |\n| --- | --- | ---: | --- |\n")
		for _, z := range r.Sanitize {
			ok := "yes"
			switch {
			case z.Skipped:
				ok = "skipped"
			case !z.OK:
				ok = "**no**"
			}
			errs := "-"
			if z.Errors >= 0 {
				errs = fmt.Sprint(z.Errors)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdText(z.Tool), ok, errs, mdText(z.Message))
		}
		b.WriteString("\n")
	}
	ratio := func(v *float64) string {
		if v == nil {
			return "-"
		}
		if *v >= 1e7 {
			return fmt.Sprintf("%.4g", *v)
		}
		return fmt.Sprintf("%.3f", *v)
	}
	number := func(v *float64, format string) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf(format, *v)
	}
	sizes := r.DeviceScanSizes()
	if len(sizes) > 0 && timed {
		n := sizes[len(sizes)-1]
		fmt.Fprintf(&b, "Device-wide scans of %d items (GB/s counts every item read and written once; "+
			"the three-pass scans move 3n items, not the 2n counted):\n\n", n)
		b.WriteString("| kernel | topology | scan | offset | ms | GB/s | vs CUB | vs memcpy |\n")
		b.WriteString("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
		for _, x := range r.Results {
			if x.N != n || !isDeviceScan(x.Kernel) && x.Kernel != "memcpy" {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %d | %s | %s | %s | %s |\n", mdText(x.Kernel), mdText(x.Topology), mdText(x.Scan), x.Offset,
				millis(x.MS), gbps(x.GBps), ratio(x.VsCUB), ratio(x.VsMemcpy))
		}
		b.WriteString("\nInclusive scans by size, aligned, GB/s:\n\n")
		topos := r.Topologies()
		header := []string{"n", "memcpy", "CUB"}
		for _, t := range topos {
			header = append(header, mdText(t), mdText(t)+" 3-pass")
		}
		fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat(" ---: |", len(header)))
		for _, n := range sizes {
			row := []string{fmt.Sprint(n)}
			cell := func(kernel, topology string) {
				if v, ok := r.Throughput(kernel, topology, n); ok {
					row = append(row, gbps(v))
				} else {
					row = append(row, "-")
				}
			}
			cell("memcpy", "")
			cell("cub-device-scan", "cub")
			for _, t := range topos {
				cell("device-scan", t)
				cell("device-scan-3pass", t)
			}
			fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
		}
		b.WriteString("\n")
	}
	var others []BenchResult
	for _, x := range r.Results {
		if !isDeviceScan(x.Kernel) && x.Kernel != "memcpy" && x.Kernel != "temp-storage-check" {
			others = append(others, x)
		}
	}
	if len(others) > 0 && timed {
		b.WriteString("Other kernels (warp and block scans: bytes of the values scanned on chip):\n\n")
		b.WriteString("| kernel | topology | scan | type | op | n | ms | GB/s | vs CUB | ns/block | elements/s |\n")
		b.WriteString("| --- | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
		for _, x := range others {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", mdText(x.Kernel), mdText(x.Topology), mdText(x.Scan),
				mdText(x.Type), mdText(x.Op), x.N, millis(x.MS), gbps(x.GBps), ratio(x.VsCUB), number(x.NsPerBlock, "%.0f"), number(x.ElementsPerS, "%.3g"))
		}
		b.WriteString("\n")
	}
	if timed {
		r.networkTable(&b)
	}
	var scans []KernelResources
	for _, k := range r.Kernels {
		if isScanKernel(k.Name) {
			scans = append(scans, k)
		}
	}
	if len(scans) > 0 {
		b.WriteString("Registers of the device-wide scans' kernels, the warp microbenchmarks' and CUB's (ptxas -v; every kernel is in the JSON):\n\n")
		b.WriteString("| kernel | registers | shared bytes | stack frame | spill stores |\n| --- | ---: | ---: | ---: | ---: |\n")
		for _, k := range scans {
			fmt.Fprintf(&b, "| `%s` | %d | %d | %d | %d |\n", mdText(k.Name), k.Registers, k.SharedBytes, k.StackFrame, k.SpillStores)
		}
		b.WriteString("\n")
	}
	var spills []KernelResources
	for _, k := range r.Kernels {
		if k.StackFrame > 0 || k.SpillStores > 0 || k.SpillLoads > 0 {
			spills = append(spills, k)
		}
	}
	if len(r.Kernels) > 0 {
		if len(spills) == 0 {
			fmt.Fprintf(&b, "ptxas gave none of the %d kernels a stack frame or spills.\n\n", len(r.Kernels))
		} else {
			fmt.Fprintf(&b, "Kernels ptxas gave a stack frame or spills (of %d):\n\n", len(r.Kernels))
			b.WriteString("| kernel | registers | stack frame | spill stores | spill loads |\n| --- | ---: | ---: | ---: | ---: |\n")
			for _, k := range spills {
				fmt.Fprintf(&b, "| `%s` | %d | %d | %d | %d |\n", mdText(k.Name), k.Registers, k.StackFrame, k.SpillStores, k.SpillLoads)
			}
			b.WriteString("\n")
		}
	}
	var wrong []string
	for _, x := range r.Results {
		if !x.Correct {
			wrong = append(wrong, fmt.Sprintf("%s %s %s of %d items (offset %d)", x.Kernel, x.Topology, x.Scan, x.N, x.Offset))
		}
	}
	if len(wrong) == 0 {
		fmt.Fprintf(&b, "All %d results matched the CPU.\n", len(r.Results))
	} else {
		fmt.Fprintf(&b, "Wrong results (%d of %d): %s.\n", len(wrong), len(r.Results), strings.Join(wrong, "; "))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// networkColumns are the columns of Markdown's table of the networks in a
// warp and a block: each benchmark, its heading, and its CUB baseline.
var networkColumns = []struct{ kernel, head, cub string }{
	{"warp-micro", "warp scan vs CUB", "cub-warp-micro"},
	{"block-shuffle", "block scan, shuffle", "cub-block-scan"},
	{"block-raking", "block scan, raking", "cub-block-scan"},
	{"block-shared", "block scan, shared memory", "cub-block-scan"},
	{"block-shared-nopad", "shared memory, unpadded", "cub-block-scan"},
}

// networkTable writes the warp and block benchmarks as one table, a row
// per network in the order of the report and CUB's row first: the warp
// scan's ratio to cub::WarpScan, and each block scan's nanoseconds per
// block and ratio to cub::BlockScan. It writes nothing for a report
// without them.
func (r *BenchReport) networkTable(b *bytes.Buffer) {
	find := func(kernel, topology string) *BenchResult {
		for i := range r.Results {
			if x := &r.Results[i]; x.Kernel == kernel && x.Topology == topology {
				return x
			}
		}
		return nil
	}
	var cols []int
	for i, c := range networkColumns {
		if slices.ContainsFunc(r.Results, func(x BenchResult) bool { return x.Kernel == c.kernel }) {
			cols = append(cols, i)
		}
	}
	if len(cols) == 0 {
		return
	}
	var topos []string
	for _, x := range r.Results {
		for _, i := range cols {
			if x.Kernel == networkColumns[i].kernel && !slices.Contains(topos, x.Topology) {
				topos = append(topos, x.Topology)
			}
		}
	}
	cell := func(kernel string, x *BenchResult) string {
		switch {
		case x == nil:
			return "-"
		case kernel == "warp-micro" || kernel == "cub-warp-micro":
			if x.VsCUB == nil {
				return "-"
			}
			return fmt.Sprintf("%.3f", *x.VsCUB)
		case x.NsPerBlock == nil:
			return "-"
		case x.VsCUB == nil || kernel == "cub-block-scan":
			return fmt.Sprintf("%.0f ns", *x.NsPerBlock)
		}
		return fmt.Sprintf("%.0f ns (%.3f)", *x.NsPerBlock, *x.VsCUB)
	}
	b.WriteString("The networks in a warp and a block (the warp scan's ratio to cub::WarpScan; each block scan's " +
		"nanoseconds a block and, in brackets, its ratio to cub::BlockScan's):\n\n| network |")
	for _, i := range cols {
		fmt.Fprintf(b, " %s |", networkColumns[i].head)
	}
	b.WriteString("\n| --- |" + strings.Repeat(" ---: |", len(cols)) + "\n| CUB |")
	for _, i := range cols {
		fmt.Fprintf(b, " %s |", cell(networkColumns[i].cub, find(networkColumns[i].cub, "cub")))
	}
	b.WriteString("\n")
	for _, t := range topos {
		fmt.Fprintf(b, "| %s |", mdText(t))
		for _, i := range cols {
			fmt.Fprintf(b, " %s |", cell(networkColumns[i].kernel, find(networkColumns[i].kernel, t)))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

// ParseSizes reads a comma-separated list of device-scan sizes, each a
// number, 2^K, or 2^K plus or minus a number (2^28-1, 2^20+17), from 1 to
// MaxBenchItems; a size given twice is an error.
func ParseSizes(s string) ([]int64, error) {
	var sizes []int64
	for _, f := range strings.Split(s, ",") {
		n, err := ParseSize(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		if slices.Contains(sizes, n) {
			return nil, fmt.Errorf("bench: size %d given twice: allowed each size once", n)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// ParseSize reads one number of items: a number, 2^K, or 2^K plus or minus
// a number, from 1 to MaxBenchItems (the --items of prefixgen cuda bench).
func ParseSize(f string) (int64, error) {
	bad := fmt.Errorf("bench: size %s is not a number, 2^K or 2^K±C from 1 to 2^40", network.Quote(f))
	outside := fmt.Errorf("bench: size %s out of range: allowed 1 to 2^40", network.Quote(f))
	if f == "" || len(f) > 24 {
		return 0, bad
	}
	num := func(s string) (int64, bool) {
		if s == "" || len(s) > 13 {
			return 0, false
		}
		var v int64
		for _, r := range s {
			if r < '0' || r > '9' {
				return 0, false
			}
			v = 10*v + int64(r-'0')
		}
		return v, true
	}
	var n int64
	if rest, ok := strings.CutPrefix(f, "2^"); ok {
		k, tail := rest, ""
		sign := int64(0)
		if i := strings.IndexAny(rest, "+-"); i >= 0 {
			k, tail = rest[:i], rest[i+1:]
			sign = 1
			if rest[i] == '-' {
				sign = -1
			}
		}
		e, ok := num(k)
		if !ok {
			return 0, bad
		}
		if e > 40 {
			return 0, outside
		}
		n = int64(1) << e
		if sign != 0 {
			c, ok := num(tail)
			if !ok {
				return 0, bad
			}
			n += sign * c
		}
	} else {
		var ok bool
		if n, ok = num(f); !ok {
			return 0, bad
		}
	}
	if n < 1 || n > MaxBenchItems {
		return 0, outside
	}
	return n, nil
}
