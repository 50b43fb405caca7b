package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// SanitizeTools are the compute-sanitizer tools Suite runs the harness
// under.
var SanitizeTools = []string{"memcheck", "racecheck", "synccheck"}

// SanitizeResult is one compute-sanitizer run of a harness (./harness
// --sanitize: every kernel once at SanitizeSizes and SanitizeItems).
type SanitizeResult struct {
	// Tool is memcheck, racecheck or synccheck.
	Tool string `json:"tool"`
	// OK is set when the tool found no error and every result was right.
	OK bool `json:"ok"`
	// Errors is the tool's error count ("ERROR SUMMARY: N errors"), -1
	// when it printed none.
	Errors int `json:"errors"`
	// Message says what went wrong, or why the run was skipped.
	Message string `json:"message,omitempty"`
	// Skipped is set when no compute-sanitizer was found.
	Skipped bool `json:"skipped,omitempty"`
}

// SuiteTable is one table of Suite: one harness, over one type and
// operator, written to Name + ".json".
type SuiteTable struct {
	Name  string
	Bench BenchOptions
}

// suiteFamilies are the topologies of the suite's smaller tables.
var suiteFamilies = []string{"kogge-stone", "sklansky", "brent-kung", "han-carlson"}

// SuiteGroup is the number of topologies of each int32 table of
// DefaultSuite, and SuiteItems the items of every benchmark but the
// device-wide scans. On an H200 (16 cores), nvcc 13 had not built a
// harness of all nine networks after 330 s, and built the five tables of
// three or four side by side in about 370 s: the suite is a lease of its
// own, and NetworkTables times the networks themselves in a fraction of
// that.
const (
	SuiteGroup = 3
	SuiteItems = 1 << 26
)

// NetworkTypes are the value types and operators of NetworkTables, a
// table each.
var NetworkTypes = [][2]string{{"int32", "add"}, {"float", "add"}, {"int64", "add"}}

// NetworkItems are the items of a network table's benchmarks: enough for
// one block scan and 2048 warp-scan threads per SM of the largest GPUs.
const NetworkItems = 1 << 22

// NetworkTables returns the network tables: for each of NetworkTypes,
// one harness (BenchOptions.NetworkTable) of every registered topology at
// width 32, named networks-TYPE-OP, timing each network's warp scan
// against cub::WarpScan and its block scans against cub::BlockScan.
func NetworkTables() ([]SuiteTable, error) {
	var nets []*network.Network
	for _, name := range topologies.Names() {
		net, err := topologies.Build(name, warp.Lanes, nil)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		nets = append(nets, net)
	}
	var tables []SuiteTable
	for _, to := range NetworkTypes {
		tables = append(tables, SuiteTable{fmt.Sprintf("networks-%s-%s", to[0], to[1]), BenchOptions{
			Networks: nets, Type: to[0], Op: to[1], Items: NetworkItems, NetworkTable: true,
		}})
	}
	return tables, nil
}

// DefaultSuite returns the suite's tables, every network at width 32, the
// device scans at the sizes of DefaultBenchSizes and every other benchmark
// at SuiteItems items:
//
//   - int32-add-1, int32-add-2, …: the registered topologies in the order
//     of topologies.Names, SuiteGroup to a table (CUB's fast path is
//     InclusiveSum/ExclusiveSum; each table has its own CUB and cudaMemcpy
//     rows);
//   - float-max: Kogge–Stone, Sklansky, Brent–Kung and Han–Carlson (CUB
//     with its own maximum functor);
//   - int64-add: the same four (8-byte values: the look-back's 16-byte
//     words, and 8-byte tuning).
func DefaultSuite() ([]SuiteTable, error) {
	every := func(names []string) ([]*network.Network, error) {
		var nets []*network.Network
		for _, name := range names {
			net, err := topologies.Build(name, warp.Lanes, nil)
			if err != nil {
				return nil, fmt.Errorf("bench: %w", err)
			}
			nets = append(nets, net)
		}
		return nets, nil
	}
	var tables []SuiteTable
	names := topologies.Names()
	for i := 0; i < len(names); i += SuiteGroup {
		group, err := every(names[i:min(i+SuiteGroup, len(names))])
		if err != nil {
			return nil, err
		}
		tables = append(tables, SuiteTable{fmt.Sprintf("int32-add-%d", i/SuiteGroup+1),
			BenchOptions{Networks: group, Type: "int32", Op: "add", Items: SuiteItems}})
	}
	four, err := every(suiteFamilies)
	if err != nil {
		return nil, err
	}
	return append(tables,
		SuiteTable{"float-max", BenchOptions{Networks: four, Type: "float", Op: "max", Items: SuiteItems}},
		SuiteTable{"int64-add", BenchOptions{Networks: four, Type: "int64", Op: "add", Items: SuiteItems}},
	), nil
}

// SuiteOptions are the options of Suite.
type SuiteOptions struct {
	// Dir receives NAME.json for every table, and NAME/ with its sources,
	// binary and logs; it is created if missing.
	Dir string
	// Tables are the tables; nil means DefaultSuite.
	Tables []SuiteTable
	// NVCC is the compiler; empty means FindNVCC. Arch is nvcc's -arch;
	// empty means "native".
	NVCC, Arch string
	// Sanitizer is compute-sanitizer; empty means FindSanitizer. When none
	// is found, the sanitizer runs are recorded as skipped.
	Sanitizer string
	// NoSanitize skips the compute-sanitizer runs.
	NoSanitize bool
	// BuildOnly builds every table in Dir/NAME and stops, without a device:
	// Dir/NAME/harness then runs on a GPU machine.
	BuildOnly bool
	// Jobs bounds the nvcc and compute-sanitizer processes run at once; 0
	// means one per CPU.
	Jobs int
	// Log receives progress lines and the tools' standard error; nil
	// discards them.
	Log io.Writer
	// ToolTimeout is the time limit of each run of nvcc, of
	// compute-sanitizer and of a harness; 0 means toolrun.DefaultTimeout.
	ToolTimeout time.Duration
	// Progress, when not nil, is called with 0 done once the steps are
	// counted, then after each step of the suite ends with the steps done
	// and their total: a table's build, each of its compute-sanitizer runs
	// (none with NoSanitize) and its timed run. It may be called from
	// several goroutines, one at a time.
	Progress func(done, total int)
}

// FindSanitizer returns the path of compute-sanitizer: on PATH, else
// beside nvcc, else in $CUDA_HOME/bin or $CUDA_HOME/compute-sanitizer.
func FindSanitizer(nvcc string) (string, error) {
	if p, err := toolrun.LookPath("compute-sanitizer"); err == nil {
		return p, nil
	}
	var dirs []string
	if nvcc != "" {
		dirs = append(dirs, filepath.Dir(nvcc))
	}
	if home := os.Getenv("CUDA_HOME"); home != "" {
		dirs = append(dirs, filepath.Join(home, "bin"), filepath.Join(home, "compute-sanitizer"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "compute-sanitizer")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", &MissingError{"compute-sanitizer not found on PATH, beside nvcc or under CUDA_HOME"}
}

// Suite is the one command a GPU machine runs: for every table, it writes
// the harness into Dir/NAME and builds it (one nvcc per table, all at once,
// -Xptxas -v); runs every harness under compute-sanitizer's memcheck,
// racecheck and synccheck with --sanitize (every kernel once at small
// sizes, checked against the CPU), all at once; then runs every harness
// alone, checking and timing every kernel, with --progress, its line per
// result written to Dir/NAME/run.log as it comes; and writes Dir/NAME.json, the
// BenchReport with nvcc's command line, ptxas's registers and spills per
// kernel and the sanitizer runs. It returns the reports in the order of the
// tables. A missing nvcc or device is a *MissingError; a failed build,
// sanitizer run or check is an error returned after every report that
// could be written is written.
func Suite(ctx context.Context, opt SuiteOptions) ([]*BenchReport, error) {
	logw := opt.Log
	if logw == nil {
		logw = io.Discard
	}
	tables := opt.Tables
	if tables == nil {
		var err error
		if tables, err = DefaultSuite(); err != nil {
			return nil, err
		}
	}
	if len(tables) == 0 {
		return nil, errors.New("bench: the suite has no table")
	}
	files := make([][]File, len(tables))
	for i, tb := range tables {
		if err := checkTableName(tb.Name); err != nil {
			return nil, err
		}
		var err error
		if files[i], err = Harness(tb.Bench); err != nil {
			return nil, &tableError{tb.Name, err}
		}
	}
	nvcc := opt.NVCC
	if nvcc == "" {
		var err error
		if nvcc, err = FindNVCC(); err != nil {
			return nil, err
		}
	}
	sanitizer := opt.Sanitizer
	var noSanitizer error
	if sanitizer == "" && !opt.NoSanitize && !opt.BuildOnly {
		sanitizer, noSanitizer = FindSanitizer(nvcc)
	}
	if err := os.MkdirAll(opt.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	jobs := opt.Jobs
	if jobs < 1 {
		jobs = runtime.NumCPU()
	}
	var logMu sync.Mutex
	progress := func(format string, args ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(logw, "prefixgen cuda bench: "+format+"\n", args...)
	}
	// stepDone counts a step of the suite's: a table's build, sanitizer
	// runs and timed run.
	steps, done := len(tables)*2, 0
	if opt.BuildOnly {
		steps = len(tables)
	}
	if !opt.NoSanitize && !opt.BuildOnly {
		steps += len(tables) * len(SanitizeTools)
	}
	stepDone := func() {
		logMu.Lock()
		defer logMu.Unlock()
		done++
		if opt.Progress != nil {
			opt.Progress(done, steps)
		}
	}
	if opt.Progress != nil {
		opt.Progress(0, steps)
	}

	// Build every table at once.
	harnesses := make([]*harness, len(tables))
	buildErrs := make([]error, len(tables))
	parallel(len(tables), jobs, func(i int) {
		dir := filepath.Join(opt.Dir, tables[i].Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			buildErrs[i] = fmt.Errorf("bench: %w", err)
			return
		}
		progress("building %s", tables[i].Name)
		harnesses[i], buildErrs[i] = buildHarness(ctx, files[i], BuildOptions{NVCC: nvcc, Arch: opt.Arch, Dir: dir, Log: io.Discard, ToolTimeout: opt.ToolTimeout})
		stepDone()
	})
	if opt.BuildOnly {
		var errs suiteError
		for i, err := range buildErrs {
			if err != nil {
				errs = append(errs, &tableError{tables[i].Name, err})
			}
		}
		if len(errs) > 0 {
			return nil, errs
		}
		return nil, nil
	}

	// Sanitize every built table with every tool, at once.
	sanitized := make([][]SanitizeResult, len(tables))
	for i := range tables {
		sanitized[i] = make([]SanitizeResult, len(SanitizeTools))
		for j, tool := range SanitizeTools {
			sanitized[i][j] = SanitizeResult{Tool: tool, Errors: -1}
		}
	}
	var missing error
	if !opt.NoSanitize {
		parallel(len(tables)*len(SanitizeTools), jobs, func(k int) {
			defer stepDone()
			i, j := k/len(SanitizeTools), k%len(SanitizeTools)
			r := &sanitized[i][j]
			switch {
			case harnesses[i] == nil:
				r.Message = "not built"
				return
			case noSanitizer != nil:
				r.Skipped, r.Message = true, noSanitizer.Error()
				return
			}
			progress("%s under compute-sanitizer --tool %s", tables[i].Name, r.Tool)
			var err error
			r.Errors, err = sanitize(ctx, harnesses[i], sanitizer, r.Tool)
			r.OK = err == nil
			if err != nil {
				r.Message = strings.TrimPrefix(err.Error(), "bench: ")
			}
			if m, ok := errors.AsType[*MissingError](err); ok {
				logMu.Lock()
				missing = m
				logMu.Unlock()
			}
		})
	}
	if missing != nil {
		return nil, missing
	}

	// Time every table alone.
	var reports []*BenchReport
	var errs suiteError
	fail := func(table string, err error) {
		errs = append(errs, &tableError{table, err})
	}
	for i, tb := range tables {
		if buildErrs[i] != nil {
			fail(tb.Name, buildErrs[i])
			stepDone()
			continue
		}
		progress("running %s (a line per result in %s)", tb.Name, filepath.Join(tb.Name, "run.log"))
		rep, err := runLogged(ctx, harnesses[i], "run.log", "--progress")
		stepDone()
		if _, ok := errors.AsType[*MissingError](err); ok {
			return nil, err
		}
		if err != nil {
			fail(tb.Name, err)
		}
		if rep == nil {
			continue
		}
		if !opt.NoSanitize {
			rep.Sanitize = sanitized[i]
		}
		for _, s := range rep.Sanitize {
			if !s.OK && !s.Skipped {
				fail(tb.Name, fmt.Errorf("compute-sanitizer --tool %s: %s", s.Tool, s.Message))
			}
		}
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		if err := writeWhole(filepath.Join(opt.Dir, tb.Name+".json"), append(b, '\n')); err != nil {
			return nil, err
		}
		reports = append(reports, rep)
	}
	if len(errs) > 0 {
		return reports, errs
	}
	return reports, nil
}

// tableError is what went wrong with one table of the suite.
type tableError struct {
	table string
	err   error
}

// Error names the table and says what went wrong, after the package's
// prefix.
func (e *tableError) Error() string {
	return "bench: table " + e.table + ": " + strings.TrimPrefix(e.err.Error(), "bench: ")
}

// Unwrap returns what went wrong.
func (e *tableError) Unwrap() error { return e.err }

// suiteError is every table of the suite that went wrong, on one line.
type suiteError []error

// Error joins the tables' errors with "; " after the package's prefix.
func (e suiteError) Error() string {
	parts := make([]string, len(e))
	for i, err := range e {
		parts[i] = strings.TrimPrefix(err.Error(), "bench: ")
	}
	return "bench: " + strings.Join(parts, "; ")
}

// Unwrap returns each table's error.
func (e suiteError) Unwrap() []error { return e }

// runLogged runs h with args, its standard error written to the file name
// in its folder as it comes, so that a run cut short still says how far it
// got.
func runLogged(ctx context.Context, h *harness, name string, args ...string) (*BenchReport, error) {
	f, err := os.Create(filepath.Join(h.dir, name))
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	rep, err := h.run(ctx, f, args...)
	if cerr := f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("bench: %w", cerr)
	}
	return rep, err
}

// reErrorSummary reads compute-sanitizer's error count: memcheck and
// synccheck end with "ERROR SUMMARY: N errors", racecheck with
// "RACECHECK SUMMARY: H hazards displayed (N errors, W warnings)".
var reErrorSummary = regexp.MustCompile(`(?:ERROR SUMMARY: |RACECHECK SUMMARY: \d+ hazards? displayed \()(\d+) error`)

// sanitize runs h --sanitize under compute-sanitizer --tool tool, which
// writes its report to sanitize-TOOL.log (the harness's standard error goes
// to sanitize-TOOL.stderr), and returns its error count (-1 if it printed
// none) and what went wrong, nil if nothing did. The verdict is
// compute-sanitizer's error summary in its log: a run that wrote none has
// checked nothing, whatever its exit status.
func sanitize(ctx context.Context, h *harness, sanitizer, tool string) (count int, err error) {
	name := "sanitize-" + tool + ".log"
	logFile := filepath.Join(h.dir, name)
	if err := os.Remove(logFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return -1, fmt.Errorf("bench: %w", err)
	}
	var stderr strings.Builder
	_, err = h.runWith(ctx, &stderr, sanitizer, "--tool", tool, "--log-file", logFile, "--error-exitcode", "1",
		h.bin, "--sanitize")
	if werr := os.WriteFile(filepath.Join(h.dir, "sanitize-"+tool+".stderr"), []byte(stderr.String()), 0o644); werr != nil && err == nil {
		err = fmt.Errorf("bench: %w", werr)
	}
	out, _ := os.ReadFile(logFile)
	count = -1
	if m := reErrorSummary.FindAllStringSubmatch(string(out), -1); m != nil {
		fmt.Sscan(m[len(m)-1][1], &count)
	}
	switch {
	case err != nil:
		return count, err
	case count < 0:
		return count, errors.New("bench: compute-sanitizer wrote no error summary to " + name)
	case count != 0:
		return count, fmt.Errorf("bench: %d errors (see %s)", count, name)
	}
	return count, nil
}

// parallel calls f(0) … f(n−1), at most jobs at once.
func parallel(n, jobs int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(n, jobs) {
		wg.Go(func() {
			for i := range work {
				f(i)
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// checkTableName refuses a table name that is not a plain file name.
func checkTableName(name string) error {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." || strings.HasPrefix(name, "-") {
		return fmt.Errorf("bench: table name %q is not a plain file name: allowed letters, digits, '-', '_' and '.'", name)
	}
	return nil
}

// writeWhole writes data to path through a temporary file in the same
// folder, so that path holds all of data or is left as it was.
func writeWhole(path string, data []byte) error {
	f, drop, err := cleanup.CreateTemp(filepath.Dir(path), ".prefixgen-*")
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	defer drop()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("bench: %w", err)
	}
	return nil
}
