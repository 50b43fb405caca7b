package designmap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/stage"
	"github.com/prefixgen/prefixgen/internal/synthmem"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/physical/pdk"
)

// DefaultRounds is the number of times Map re-chooses the networks when
// Options.Rounds is 0.
const DefaultRounds = 2

// MaxRounds is the most rounds Options.Rounds may ask for: a search ends
// at the first round that finds nothing better, long before.
const MaxRounds = 1000

// DefaultClock is the clock port Map times against when Options.Clock is
// empty.
const DefaultClock = "clk"

// DefaultLoadPF is the load on every output of the design, in pF.
const DefaultLoadPF = 0.01

// DefaultTimeout is each tool run's time limit when Options.Timeout is 0.
const DefaultTimeout = toolrun.DefaultTimeout

// Options say what design Map reads and how it times it.
type Options struct {
	// Files are the design's Verilog files.
	Files []string
	// Top is the design's top module.
	Top string
	// Includes are the folders `include reads from (read_verilog -I).
	Includes []string
	// Defines are macros, NAME or NAME=VALUE (read_verilog -D).
	Defines []string
	// Liberty and DontUse are the library, as physical.Options reads them.
	Liberty string
	DontUse []string
	// Clock is the clock input port. "" means DefaultClock where the
	// design has that input, and where it has neither that input nor
	// registers, a virtual clock: its paths are timed from the inputs to
	// the outputs within the period (Result.VirtualClock).
	Clock string
	// PeriodNS is the clock period in ns; it must be positive.
	PeriodNS float64
	// Rounds bounds how many times Map re-chooses the networks after the
	// first choice; 0 means DefaultRounds.
	Rounds int
	// Compare also maps the design with every adder as each of Baselines.
	Compare bool
	// Check proves the design with the chosen networks equal to the design
	// with Yosys's own.
	Check bool
	// Workdir, when not empty, is a folder, new or empty, where Map keeps
	// every synthesis's scripts, netlists and logs; "" means a temporary
	// folder, removed.
	Workdir string
	// Memory, when above 0, is the memory in bytes the run's syntheses may
	// take at once, each estimated from the design's size (Size,
	// synthmem.Verilog): fewer run at once than the machine has CPUs
	// where they would take more, and one at least.
	Memory int64
	// Timeout is each tool run's time limit; 0 means DefaultTimeout.
	Timeout time.Duration
	// Progress, when not nil, is called with 0 and the number of
	// syntheses planned once the design is read, after each synthesis with
	// the syntheses done and the number planned, and at the end of a run
	// that succeeds with the number done twice; one call at a time, the
	// counts never going back.
	Progress func(done, total int)
	// Trace, when not nil, is told what each round measured.
	Trace func(line string)
}

// Adder is one adder of the design and the network Map gave it.
type Adder struct {
	// Cell is the adder's $lcu cell, prefixgen_lcu_K.
	Cell string
	// Width is its width in bits.
	Width int
	// SpreadNS is the latest of its bits' arrival less the earliest, in
	// the design the search started from (the best of Yosys's mapping and
	// Baselines).
	SpreadNS float64
	// SlackNS is the slack of the paths through its outputs there; +Inf
	// where no timed path runs through it.
	SlackNS float64
	// Network is the network chosen for it, kept whole; nil is Yosys's
	// own, merged into the logic around it.
	Network *network.Network
}

// Outcome is the design synthesized and timed with one choice of networks.
type Outcome struct {
	// Choice names the networks: YosysChoice, a family ("sklansky",
	// "ladner-fischer k=1"), or "prefixgen" for Map's own.
	Choice string
	// AreaUM2 is the area of the mapped design in µm².
	AreaUM2 float64
	// WorstNS is its worst path: the clock period less the worst setup
	// slack, in ns.
	WorstNS float64
}

// Result is what Map made of the design.
type Result struct {
	// Adders are the design's adders, in the order of their cells.
	Adders []Adder
	// Before is the design with Yosys's own networks; After with the
	// networks of Adders.
	Before, After Outcome
	// Baselines, with Options.Compare, are the design with every adder as
	// each of Baselines.
	Baselines []Outcome
	// Netlist is the mapped design (Verilog of library cells).
	Netlist []byte
	// Generic is the design with the chosen networks as generic gates,
	// before technology mapping.
	Generic []byte
	// SumCopies is the number of adders Map copied so that alumacc sums
	// each chain of additions in one carry-save tree (see the package
	// documentation), where
	// the result is that design; 0 where it is the design as Yosys
	// extracts its adders.
	SumCopies int
	// Rounds is the number of rounds of choices Map measured, over the
	// searches from every prepared design.
	Rounds int
	// Proved, with Options.Check, says that Yosys proved the design with
	// the chosen networks equal to the design with its own (with its sums
	// merged where SumCopies says so, the merge then proven equal to the
	// design as written).
	Proved bool
	// Library is the Liberty file the tools read, as the user named it.
	Library string
	// LibraryName names the library as physical.LibraryName does
	// (sky130hd, or a file's library group), and Record says whether its
	// platform record was applied (cells not to use, ABC's driver and
	// load, the buffer).
	LibraryName string
	Record      bool
	// Tools are the versions of the tools that measured it, as they print
	// them: Yosys's, then OpenSTA's.
	Tools []string
	// PeriodNS is the clock period it was timed against, Options.PeriodNS.
	PeriodNS float64
	// VirtualClock says that the design, without a clock input or
	// registers, was timed against a virtual clock of the period: every
	// input arriving at 0, every output required at the period.
	VirtualClock bool
}

// YosysChoice names the design as Yosys maps it by default (synth, then
// ABC over the whole design, its adders Brent–Kung): Result.Before.
const YosysChoice = "Yosys (synth; abc)"

// Baselines are the families Options.Compare maps every adder to, besides
// Yosys's own. Like Map's own choices, each adder's network is kept whole
// through ABC (a module of its own, mapped without rewriting, then
// flattened); Yosys's own is as Yosys maps it.
var Baselines = []Baseline{
	{"ripple", nil},
	{"kogge-stone", nil},
	{"brent-kung", nil},
	{"sklansky", nil},
	{"han-carlson", nil},
	{"ladner-fischer", network.Params{"k": 1}},
}

// Baseline is one family with its parameters.
type Baseline struct {
	Topology string
	Params   network.Params
}

// Name is the family as a table names it: "ladner-fischer k=1".
func (b Baseline) Name() string {
	if len(b.Params) == 0 {
		return b.Topology
	}
	return b.Topology + " " + b.Params.Format(" ")
}

// InputError is an error of Map's input: the design, its top, its clock,
// the library. Every other error is a failure of the work.
type InputError struct{ msg string }

// Error returns the one-line message.
func (e *InputError) Error() string { return e.msg }

// IsInput reports whether err is bad input (*InputError, or
// physical.IsSetup).
func IsInput(err error) bool {
	_, ok := errors.AsType[*InputError](err)
	return ok || physical.IsSetup(err)
}

func bad(format string, args ...any) error {
	return &InputError{msg: "designmap: " + fmt.Sprintf(format, args...)}
}

// The clock periods Check allows, in ns.
const (
	MinPeriodNS = 0.001
	MaxPeriodNS = 100000
)

// Check reports what is wrong with opt before any work: no file, a file
// that cannot be read, no top, a period that is not a positive number.
func Check(opt Options) error {
	switch {
	case len(opt.Files) == 0:
		return bad("no design file given: allowed one or more Verilog files")
	case opt.Top == "":
		return bad("no top module given: allowed the name of the design's top module")
	case !(opt.PeriodNS > 0) || math.IsInf(opt.PeriodNS, 0):
		return bad("clock period %v ns: allowed a positive number of ns", opt.PeriodNS)
	case opt.PeriodNS < MinPeriodNS || opt.PeriodNS > MaxPeriodNS:
		// ABC takes its delay target in whole ps, and OpenSTA's slack past
		// 0.1 ms loses the worst path to rounding.
		return bad("clock period %v ns: allowed %v to %v ns", opt.PeriodNS, MinPeriodNS, MaxPeriodNS)
	case !identifier(opt.Top):
		return bad("top module %s: allowed the name of a module, a Verilog identifier", network.Quote(opt.Top))
	case strings.HasPrefix(opt.Top, "prefixgen_"):
		return bad("top module %s: allowed a name that does not begin with prefixgen_, which map's own modules take", network.Quote(opt.Top))
	case opt.Rounds < 0 || opt.Rounds > MaxRounds:
		return bad("%d rounds: allowed 0 (the default, %d) to %d", opt.Rounds, DefaultRounds, MaxRounds)
	}
	// The scripts name the library in the work folder, which ABC reads.
	if err := physical.CheckWorkdirPath(opt.Workdir); err != nil {
		return err
	}
	if opt.Workdir != "" {
		if err := stage.Check(opt.Workdir); err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return bad("work folder %s cannot be made: %v: allowed a new or empty folder, or a path where one can be made", network.Quote(opt.Workdir), err)
		}
	}
	for _, f := range opt.Files {
		if err := checkPath(f); err != nil {
			return err
		}
		st, err := os.Stat(f)
		if err != nil {
			return bad("design file %s cannot be read: %v", network.Quote(f), errors.Unwrap(err))
		}
		if st.IsDir() {
			return bad("design file %s is a folder: allowed Verilog files", network.Quote(f))
		}
		if st.Mode().IsRegular() && startsWithBOM(f) {
			return bad(bomMessage, network.Quote(f))
		}
	}
	if err := physical.CheckSources(opt.Includes, opt.Defines); err != nil {
		return bad("%s", strings.TrimPrefix(err.Error(), "physical: "))
	}
	if !identifier(opt.clock()) {
		return bad("clock %s: allowed the name of an input port", network.Quote(opt.clock()))
	}
	return physical.CheckLibrary(opt.Liberty, opt.DontUse)
}

// bomMessage refuses a design file, its name quoted, that starts with the
// UTF-8 byte-order mark.
const bomMessage = "design file %s starts with a UTF-8 byte-order mark (EF BB BF), which Yosys reads as no Verilog at all: allowed the file saved as UTF-8 without one"

// startsWithBOM reports whether the file at path starts with the UTF-8
// byte-order mark (emit.HasByteOrderMark).
func startsWithBOM(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false // Yosys says why
	}
	defer f.Close()
	head := make([]byte, 3)
	n, _ := io.ReadFull(f, head)
	return emit.HasByteOrderMark(head[:n])
}

// Size returns the bytes the design's files hold now; a file it cannot
// read the size of counts 0 (Check says why), and so does a FIFO.
func Size(files []string) int64 {
	var n int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			n += st.Size()
		}
	}
	return n
}

// workdir makes the folder a run works in: opt.Workdir, made if it is not
// there and refused if it holds anything, or a temporary folder that
// remove removes. A work folder is written as the run goes, and kept
// whatever the run's outcome (remove keeps it); until then a signal
// removes what the run made, the folders it made or what it wrote into a
// folder that was there.
func workdir(dir string) (string, func(), error) {
	if dir == "" {
		return cleanup.MkdirTemp(toolrun.TempDir(), "prefixgen-map-")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	if top := topMissing(abs); top != "" {
		_, drop, err := cleanup.Track(func() (struct{}, string, error) { return struct{}{}, top, os.MkdirAll(abs, 0o755) })
		if err != nil {
			return "", nil, bad("work folder %s cannot be made: %v", network.Quote(dir), errors.Unwrap(err))
		}
		return abs, drop, nil
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", nil, bad("work folder %s cannot be made: %v", network.Quote(dir), errors.Unwrap(err))
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return "", nil, bad("work folder %s cannot be read: %v", network.Quote(dir), errors.Unwrap(err))
	}
	if len(entries) > 0 {
		return "", nil, bad("work folder %s is not empty: allowed a new or empty folder", network.Quote(dir))
	}
	// Registered once it is known empty: a stop empties it of what the
	// run wrote, never of what was there.
	return abs, cleanup.AddContents(abs), nil
}

// topMissing returns the topmost folder of the absolute path dir that is
// not there, which os.MkdirAll would make first; "" when dir is there.
func topMissing(dir string) string {
	top := ""
	for d := dir; ; {
		if _, err := os.Lstat(d); err == nil {
			return top
		}
		top = d
		up := filepath.Dir(d)
		if up == d {
			return top
		}
		d = up
	}
}

// checkPath refuses a path a Yosys script cannot quote.
func checkPath(p string) error {
	if p == "" || strings.ContainsAny(p, "\"\n\r") {
		return bad("path %s: allowed a path without quotes or line breaks", network.Quote(p))
	}
	return nil
}

// identifier reports whether s is a plain Verilog identifier.
func identifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') && r != '$' {
			return false
		}
		if i == 0 && r == '$' {
			return false
		}
	}
	return true
}

func (o Options) clock() string {
	if o.Clock == "" {
		return DefaultClock
	}
	return o.Clock
}

func (o Options) rounds() int {
	if o.Rounds == 0 {
		return DefaultRounds
	}
	return o.Rounds
}

func (o Options) timeout() time.Duration {
	if o.Timeout == 0 {
		return DefaultTimeout
	}
	return o.Timeout
}

// run is one Map: its folder, tools and library.
type run struct {
	opt Options
	dir string
	// virtual says that the design is timed against a virtual clock
	// (Options.Clock); clockChecked that a timing found every register
	// clocked.
	virtual      bool
	clockChecked atomic.Bool
	yosys        string
	sta          string
	abc          string
	lib          string
	rec          *pdk.Record
	// flops and latches are the library's cells that keep state, which
	// a design may instantiate by name.
	flops, latches []string
	model          *delay.Library
	designs        []*design
	// sumCopies is the adders mergeSums copied for designs[sumsMerged].
	sumCopies int
	mu        sync.Mutex
	done      int
	planned   int
	sequence  int
	// jobs holds a slot per synthesis under way: one a core, whichever
	// search asks.
	jobs chan struct{}
	// measured holds every unprobed synthesis by its choice's key: a
	// round's choices often repeat one another or the choice they start
	// from, and each is synthesized once.
	measured map[string]*measure
}

// lcu is one $lcu cell of the prepared design.
type lcu struct {
	cell  string
	width int
}

// Map maps the adders of the design opt names (see the package
// documentation). A design without adders is synthesized and timed as it
// is, with no rows.
func Map(ctx context.Context, opt Options) (*Result, error) {
	r, remove, err := start(ctx, opt)
	if err != nil {
		return nil, err
	}
	defer remove()
	res, err := r.mapDesign(ctx)
	if err == nil {
		r.finish()
	}
	return res, err
}

// start checks opt, finds the tools and the library, and prepares the
// design in a temporary folder that remove removes.
func start(ctx context.Context, opt Options) (r *run, remove func(), err error) {
	if err := Check(opt); err != nil {
		return nil, nil, err
	}
	jobs := synthmem.Jobs(runtime.NumCPU(), opt.Memory, synthmem.Verilog(Size(opt.Files)))
	r = &run{opt: opt, jobs: make(chan struct{}, jobs)}
	if r.yosys, err = lookPath("yosys"); err != nil {
		return nil, nil, err
	}
	if r.sta, err = lookPath("sta"); err != nil {
		return nil, nil, err
	}
	if opt.Check {
		// ABC's prover, which Yosys ships beside it; found here so that
		// a missing one stops the run before its work.
		if r.abc, err = lookPath("yosys-abc"); err != nil {
			return nil, nil, err
		}
	}
	if r.lib, err = physical.LibertyPath(opt.Liberty, opt.DontUse); err != nil {
		return nil, nil, err
	}
	lib, err := pdk.Open(opt.Liberty, opt.DontUse)
	if err != nil {
		return nil, nil, bad("%v", strings.TrimPrefix(err.Error(), "pdk: "))
	}
	r.rec = lib.Record
	r.flops, r.latches = stateCells(lib.Cells())
	if r.model, err = physical.Model(opt.Liberty, opt.DontUse); err != nil {
		return nil, nil, err
	}
	dir, remove, err := workdir(opt.Workdir)
	if err != nil {
		return nil, nil, err
	}
	r.dir = dir
	// The library is liberty.lib in the run's folder, which OpenSTA reads
	// by a relative path, without the spaces it cannot take (run.time):
	// kept, a copy that stays for the scripts kept, else a link.
	here := filepath.Join(dir, "liberty.lib")
	if opt.Workdir != "" {
		err = copyFile(here, r.lib)
	} else {
		// From the run's folder a relative path names nothing.
		var abs string
		if abs, err = filepath.Abs(r.lib); err == nil {
			err = os.Symlink(abs, here)
		}
	}
	if err != nil {
		remove()
		return nil, nil, err
	}
	r.lib = here
	if err := r.prepare(ctx); err != nil {
		remove()
		return nil, nil, err
	}
	// Yosys's own and the families, then for each prepared design the
	// probed start and its rounds.
	r.planned = 1 + len(Baselines) + 1 + (len(choices)+1)*opt.rounds()
	if len(r.designs) > sumsMerged {
		r.planned += len(Baselines) + 1 + 1 + (len(choices)+1)*opt.rounds()
	}
	if opt.Progress != nil {
		opt.Progress(0, r.planned) // the total, before the first synthesis ends
	}
	return r, remove, nil
}

// mapDesign is Map on the prepared design.
func (r *run) mapDesign(ctx context.Context) (*Result, error) {
	opt := r.opt
	res := &Result{Library: physical.LibertyFile(opt.Liberty), Record: r.rec != nil, PeriodNS: opt.PeriodNS, VirtualClock: r.virtual}
	var err error
	if res.LibraryName, err = physical.LibraryName(opt.Liberty); err != nil {
		return nil, err
	}
	for _, t := range []struct{ name, path, flag string }{{"", r.yosys, "-V"}, {"OpenSTA ", r.sta, "-version"}} {
		v, err := toolrun.Version(ctx, t.path, t.flag, r.opt.Timeout)
		if err != nil {
			return nil, fmt.Errorf("designmap: %w", err)
		}
		res.Tools = append(res.Tools, t.name+v) // Yosys names itself
	}

	if len(r.designs[asExtracted].adders) == 0 {
		before, err := r.synthesize(ctx, yosysChoice(), false)
		if err != nil {
			return nil, err
		}
		res.Before = before.outcome(YosysChoice)
		res.After = res.Before
		res.Netlist = before.netlist
		res.Generic, err = r.generic(ctx, yosysChoice())
		return res, err
	}

	// Yosys's own mapping, then every family on each prepared design and
	// Yosys's own on the merged one, unprobed, one a core at a time: the best of
	// all is where the search starts, with --compare or not.
	starts, names, err := r.starts()
	if err != nil {
		return nil, err
	}
	measured, err := r.synthesizeAll(ctx, starts, make([]bool, len(starts)))
	if err != nil {
		return nil, err
	}
	before := measured[0]
	res.Before = before.outcome(YosysChoice)
	// The best start of each prepared design: the search runs from each,
	// since the best start of all may be the merged design's while a
	// looser clock leaves the design as extracted the smaller end (or the
	// other way round).
	startOf := make([]int, len(r.designs))
	for d := range startOf {
		startOf[d] = -1
	}
	for i, m := range measured {
		if d := starts[i].design; startOf[d] < 0 || better(m, measured[startOf[d]], opt.PeriodNS) {
			startOf[d] = i
		}
		if opt.Compare && i > 0 {
			res.Baselines = append(res.Baselines, m.outcome(names[i]))
		}
		if opt.Compare && i == len(Baselines) {
			res.Baselines = append(res.Baselines, res.Before)
		}
	}
	// The searches run side by side, so that one's syntheses fill the
	// slot the other's probe leaves idle; each tells its lines after both
	// end, in the designs' order.
	ends := make([]*searched, len(startOf))
	errs := make([]error, len(startOf))
	searchCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for d, i := range startOf {
		wg.Go(func() {
			if ends[d], errs[d] = r.search(searchCtx, starts[i], measured[i], names[i]); errs[d] != nil {
				stop() // the other search's syntheses go with it
			}
		})
	}
	wg.Wait()
	stop()
	if err := joinOnce(causes(ctx, errs)); err != nil {
		return nil, err
	}
	var won *searched
	for _, s := range ends {
		for _, l := range s.lines {
			r.trace("%s", l)
		}
		res.Rounds += s.rounds
		if won == nil || better(s.best, won.best, opt.PeriodNS) {
			won = s
		}
	}
	best, bestChoice, bestName := won.best, won.choice, won.name
	adders := r.designs[bestChoice.design].adders
	res.Adders = make([]Adder, len(adders))
	for i, a := range adders {
		res.Adders[i] = Adder{Cell: a.cell, Width: a.width, SpreadNS: spread(won.probe.arrivals[i]), SlackNS: won.probe.slack[i]}
	}
	res.After = best.outcome(bestName)
	res.Netlist = best.netlist
	if bestChoice.design == sumsMerged {
		res.SumCopies = r.sumCopies
	}
	for i := range res.Adders {
		res.Adders[i].Network = bestChoice.network(i)
	}
	if res.Generic, err = r.generic(ctx, bestChoice); err != nil {
		return nil, err
	}
	if opt.Check {
		if res.Proved, err = r.check(ctx, bestChoice, res.Generic); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// searched is where one search of Map ended.
type searched struct {
	best   *measure
	choice choice
	name   string
	// probe is the timing of the start, probed: the adders' arrivals and
	// slack that Result.Adders reports.
	probe  *measure
	rounds int
	// lines are what the search measured, for Options.Trace.
	lines []string
}

// search runs the rounds of choices from start, measured as m: each round
// chooses networks from the timing of the best so far and measures every
// choice; it stops once a round finds nothing better.
func (r *run) search(ctx context.Context, start choice, m *measure, name string) (*searched, error) {
	opt := r.opt
	s := &searched{best: m, choice: start, name: name}
	trace := func(format string, args ...any) { s.lines = append(s.lines, fmt.Sprintf(format, args...)) }
	trace("start: %s, %.1f µm², worst path %.3f ns", name, m.area, m.worst)
	probe, err := r.synthesize(ctx, start, true)
	if err != nil {
		return nil, err
	}
	s.probe = probe
	current := start
	for round := 0; round < opt.rounds(); round++ {
		tries, err := r.choose(ctx, current, probe)
		if err != nil {
			return nil, err
		}
		measured, err := r.synthesizeAll(ctx, tries, make([]bool, len(tries)))
		if err != nil {
			return nil, err
		}
		s.rounds++
		k := 0
		for j, m := range measured {
			trace("round %d, choice %d: %.1f µm², worst path %.3f ns", round+1, j+1, m.area, m.worst)
			if better(m, measured[k], opt.PeriodNS) {
				k = j
			}
		}
		if !better(measured[k], s.best, opt.PeriodNS) {
			break
		}
		s.best, s.choice, s.name = measured[k], tries[k], "prefixgen"
		if round+1 == opt.rounds() {
			break
		}
		// The next round chooses from the timing of the best, probed.
		if probe, err = r.synthesize(ctx, tries[k], true); err != nil {
			return nil, err
		}
		current = tries[k]
	}
	return s, nil
}

// better reports whether a is a better outcome than b at the period: the
// less worst path while the period is missed (the less area where the two
// are within samePath), the less area once it is met.
func better(a, b *measure, period float64) bool {
	aMet, bMet := a.worst <= period, b.worst <= period
	switch {
	case aMet && bMet:
		return a.area < b.area
	case aMet != bMet:
		return aMet
	case math.Abs(a.worst-b.worst) <= samePath:
		return a.area < b.area
	default:
		return a.worst < b.worst
	}
}

// samePath is how close two worst paths are, in ns, for better to take
// the smaller design: OpenSTA's own rounding.
const samePath = 1e-3

// spread is the latest arrival less the earliest.
func spread(at []float64) float64 {
	if len(at) == 0 {
		return 0
	}
	return slices.Max(at) - slices.Min(at)
}

// mergedSuffix marks the outcomes of the design with its chains of sums
// merged.
const mergedSuffix = ", sums merged"

// starts lists the choices Map measures before it searches, with their
// names: Yosys's own mapping; every adder as each of Baselines; and, where
// the sums were merged, each of Baselines and Yosys's own on that design.
func (r *run) starts() ([]choice, []string, error) {
	choices, names := []choice{yosysChoice()}, []string{YosysChoice}
	for d := range r.designs {
		suffix := ""
		if d == sumsMerged {
			suffix = mergedSuffix
		}
		for _, b := range Baselines {
			c, err := r.uniform(b, d)
			if err != nil {
				return nil, nil, err
			}
			choices, names = append(choices, c), append(names, b.Name()+suffix)
		}
		if d != asExtracted {
			choices, names = append(choices, choice{design: d}), append(names, YosysChoice+suffix)
		}
	}
	return choices, names, nil
}

// causes returns errs without the errors of the work the first of them
// stopped (context.Canceled), while ctx, the caller's, goes on: those say
// only that the run was stopped, not why.
func causes(ctx context.Context, errs []error) []error {
	if ctx.Err() != nil {
		return errs
	}
	var out []error
	for _, err := range errs {
		if !errors.Is(err, context.Canceled) {
			out = append(out, err)
		}
	}
	return out
}

// joinOnce joins errs as errors.Join does, each error's words told once:
// every synthesis of a run finds a tool's time limit in the same words.
// One error left is returned as it is.
func joinOnce(errs []error) error {
	var once []error
	seen := map[string]bool{}
	for _, err := range errs {
		if err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			once = append(once, err)
		}
	}
	if len(once) == 1 {
		return once[0]
	}
	return errors.Join(once...)
}

// synthesizeAll synthesizes choices[i], probed where probe[i], one a core
// at a time (run.jobs); an unprobed choice synthesized before takes its
// measure again.
func (r *run) synthesizeAll(ctx context.Context, choices []choice, probe []bool) ([]*measure, error) {
	out := make([]*measure, len(choices))
	errs := make([]error, len(choices))
	keys := make([]string, len(choices))
	first := map[string]int{} // the first of choices with each key
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	for i := range choices {
		if !probe[i] {
			keys[i] = r.key(choices[i])
			r.mu.Lock()
			m, ok := r.measured[keys[i]]
			r.mu.Unlock()
			if ok {
				out[i] = m
				r.step()
				continue
			}
			if _, ok := first[keys[i]]; ok {
				r.step()
				continue
			}
			first[keys[i]] = i
		}
		wg.Go(func() {
			if out[i], errs[i] = r.synthesize(runCtx, choices[i], probe[i]); errs[i] != nil {
				stop() // a failure stops the rest, as physical.Run's does
			}
		})
	}
	wg.Wait()
	stop()
	errs = causes(ctx, errs)
	// The design's fault, which every choice finds, is told once.
	for _, err := range errs {
		if _, bad := errors.AsType[*InputError](err); bad {
			return nil, err
		}
	}
	if err := joinOnce(errs); err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.measured == nil {
		r.measured = map[string]*measure{}
	}
	for i := range choices {
		if probe[i] {
			continue
		}
		if out[i] == nil {
			out[i] = out[first[keys[i]]]
		}
		r.measured[keys[i]] = out[i]
	}
	return out, nil
}

// key names what decides a synthesis of c: its design and each adder's
// network, cell by cell ("-" for Yosys's own).
func (r *run) key(c choice) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(c.design))
	for i := range r.designs[c.design].adders {
		n := c.network(i)
		if n == nil {
			b.WriteString(";-")
			continue
		}
		b.WriteByte(';')
		for k := range n.Size() {
			cell := n.Cell(k)
			fmt.Fprintf(&b, "%d,%d ", cell.Lo, cell.Hi)
		}
	}
	return b.String()
}

// trace tells Options.Trace a line.
func (r *run) trace(format string, args ...any) {
	if r.opt.Trace != nil {
		r.opt.Trace(fmt.Sprintf(format, args...))
	}
}

// lookPath finds a tool, or says it is missing as bad setup.
func lookPath(name string) (string, error) {
	p, err := toolrun.LookPath(name)
	if err != nil {
		return "", bad("%s not found on PATH: map needs Yosys and OpenSTA (apt-get install yosys opensta)", name)
	}
	return p, nil
}

// step counts a synthesis done and reports progress.
func (r *run) step() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	if r.done >= r.planned {
		// More than planned: the total stays ahead until finish, as a
		// bar takes a count at its total for the end.
		r.planned = r.done + 1
	}
	// Called under the lock: one call at a time, the counts in order.
	if r.opt.Progress != nil {
		r.opt.Progress(r.done, r.planned)
	}
}

// finish reports the syntheses done as all there were: the rounds a
// search planned and did not need are not counted.
func (r *run) finish() {
	r.mu.Lock()
	r.planned = r.done
	done := r.done
	r.mu.Unlock()
	if r.opt.Progress != nil && done > 0 {
		r.opt.Progress(done, done)
	}
}

// subdir makes a fresh folder for one synthesis.
func (r *run) subdir(prefix string) (string, error) {
	r.mu.Lock()
	r.sequence++
	n := r.sequence
	r.mu.Unlock()
	d := filepath.Join(r.dir, fmt.Sprintf("%s-%02d", prefix, n))
	return d, os.Mkdir(d, 0o755)
}

// copyFile copies the file from to the new file to.
func copyFile(to, from string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
