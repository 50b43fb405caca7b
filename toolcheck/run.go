package toolcheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/toolrun"
)

// job is the work of one check on one design: the folder holding the
// design's files, and how the tools run.
type job struct {
	ctx     context.Context
	dir     string
	d       *Design
	timeout time.Duration
	// log, when not empty, is the file in dir that each run's command
	// line and output are added to (Options.Keep).
	log string
}

// ran is one run of a tool: what it printed and how it ended (toolrun.Run).
type ran struct {
	tool string
	res  *toolrun.Result // nil when the tool could not start
	err  error
}

// out returns what the tool printed, stdout and stderr together.
func (o *ran) out() string {
	if o.res == nil {
		return ""
	}
	return string(o.res.Output)
}

// stdout returns what the tool printed on its standard output.
func (o *ran) stdout() string {
	if o.res == nil {
		return ""
	}
	return string(o.res.Stdout)
}

// exited reports whether the tool ran to its end and exited, with status 0
// or another, rather than crashing, running past its time limit, being
// stopped, or failing to start: only then is what it printed all it had to
// say.
func (o *ran) exited() bool {
	if o.err == nil {
		return true
	}
	exit, ok := errors.AsType[*toolrun.ExitError](o.err)
	return ok && exit.Code >= 0
}

// run runs the program name with args in j's folder, adding its time to
// r.Time. A program that is not installed sets r to Missing and returns
// ok false.
func (j *job) run(r *Result, name string, args ...string) (o *ran, ok bool) {
	path, err := toolrun.LookPath(name)
	if err != nil {
		r.Status = Missing
		r.Detail = name + " is not installed"
		return nil, false
	}
	res, err := toolrun.Run(j.ctx, toolrun.Cmd{Path: path, Args: args, Dir: j.dir, Timeout: j.timeout})
	if res != nil {
		r.Time += res.Elapsed
	}
	if lerr := j.keepLog(name, args, res, err); lerr != nil {
		*r = unwritten(*r, lerr)
		return nil, false
	}
	return &ran{tool: name, res: res, err: err}, true
}

// keepLog adds a run to j's log, if it has one: the command line, what
// the tool printed, and how it ended where it failed.
func (j *job) keepLog(name string, args []string, res *toolrun.Result, runErr error) error {
	if j.log == "" {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(j.dir, j.log), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("$ " + name)
	for _, a := range args {
		b.WriteString(" " + emit.ShellWord(a))
	}
	b.WriteString("\n")
	if res != nil {
		b.Write(res.Output)
		if len(res.Output) > 0 && res.Output[len(res.Output)-1] != '\n' {
			b.WriteString("\n")
		}
	}
	if runErr != nil {
		b.WriteString("# " + toolrun.OneLine(runErr.Error()) + "\n")
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// broke returns r with status Error: the tool failed before its verdict.
// The detail says how, in one line: the tool's own words on why (said,
// where the check found them, else the first line it printed), or the
// time limit it ran past, or why it stopped or could not start.
func broke(r Result, o *ran, said string) Result {
	r.Status, r.Err = Error, o.err
	exit, exited := errors.AsType[*toolrun.ExitError](o.err)
	late, timedOut := errors.AsType[*toolrun.TimeoutError](o.err)
	switch {
	case exited:
		if said == "" {
			said = exit.FirstLine
		}
		how := exit.How()
		switch {
		case exit.Code < 0 && said != "":
			r.Detail = fmt.Sprintf("%s failed: %s: %s", o.tool, how, said)
		case said != "":
			r.Detail = fmt.Sprintf("%s failed: %s", o.tool, said)
		default:
			r.Detail = fmt.Sprintf("%s failed: %s", o.tool, how)
		}
	case timedOut:
		r.Detail = late.Error()
	case o.err != nil:
		r.Detail = strings.TrimPrefix(o.err.Error(), "toolrun: ")
	default:
		// Exit status 0, and not the words of a verdict.
		r.Detail = o.tool + " gave no verdict"
		if said == "" {
			said = toolrun.FirstLine(o.out())
		}
		if said != "" {
			r.Detail += ": " + said
		}
	}
	r.Detail = toolrun.OneLine(r.Detail)
	return r
}

// silent returns r with status Error for a tool that exited 0 without the
// words of its verdict: what (such as "yosys gave no proof"), then said,
// the line it printed that may tell why, if any.
func silent(r Result, what, said string) Result {
	r.Status, r.Err = Error, nil
	r.Detail = what
	if said != "" {
		r.Detail += ": " + said
	}
	r.Detail = toolrun.OneLine(r.Detail)
	return r
}

// failed returns r with status Fail and detail, the tool's verdict on the
// design, in one line.
func failed(r Result, detail string) Result {
	r.Status, r.Detail = Fail, toolrun.OneLine(detail)
	return r
}

// passed returns r with status Pass and detail, in one line.
func passed(r Result, detail string) Result {
	r.Status, r.Detail = Pass, toolrun.OneLine(detail)
	return r
}

// firstMatch returns the first line of out that re matches, trimmed, or "".
func firstMatch(re *regexp.Regexp, out string) string {
	for line := range strings.Lines(out) {
		if re.MatchString(line) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// diagnosed reads a run of a tool that says what is wrong with a design in
// lines that diagnostic matches (iverilog's "file:line: …", Verilator's
// "%Warning…"): such a line fails the design, whatever the exit status;
// without one, a tool that did not exit 0 failed itself (Error). ok says
// the run went through: the tool exited 0 and found nothing.
func diagnosed(r Result, o *ran, diagnostic *regexp.Regexp) (Result, bool) {
	if !o.exited() {
		return broke(r, o, ""), false
	}
	if line := firstMatch(diagnostic, o.out()); line != "" {
		return failed(r, line), false
	}
	if o.err != nil {
		return broke(r, o, ""), false
	}
	return r, true
}

// verdict reads the run of a testbench (vvp, ghdl -r) of module: its
// "PASS module: …" line, with exit status 0 and no FAIL line, passes; its
// "FAIL module: …" line fails the design; anything else is no verdict.
// ok says it passed, and line is then its PASS line.
func verdict(r Result, o *ran, module string) (_ Result, line string, ok bool) {
	var pass, fail string
	for l := range strings.Lines(o.out()) {
		l = strings.TrimSpace(l)
		switch {
		case fail == "" && strings.HasPrefix(l, "FAIL "+module+": "):
			fail = l
		case pass == "" && strings.HasPrefix(l, "PASS "+module+": "):
			pass = l
		}
	}
	switch {
	case fail != "" && o.exited():
		return failed(r, fail), "", false
	case o.err != nil || pass == "":
		return broke(r, o, ""), "", false
	}
	return r, pass, true
}

// Yosys's words.
var (
	// yosysError is Yosys's own error, to the end of its line (after the
	// file and line it names, if any).
	yosysError = regexp.MustCompile(`ERROR: .*`)
	// yosysProven is the line of a sat -prove that holds; yosysDisproved
	// the lines of one that fails, with and without -verify.
	yosysProven    = regexp.MustCompile(`^SAT proof finished - no model found: SUCCESS!\s*$`)
	yosysDisproved = regexp.MustCompile(`(ERROR: Called with -verify and proof did fail!|SAT proof finished - model found: FAIL!)\s*$`)
	yosysCells     = regexp.MustCompile(`Number of cells:\s+(\d+)`)
	yosysLongest   = regexp.MustCompile(`Longest topological path in \S+ \(length=(\d+)\)`)
)

// proof is what a Yosys run of sat -prove says.
type proof int

const (
	// noProof: Yosys failed, or ended without a proof's words.
	noProof proof = iota
	// proven: every sat -prove of the script held.
	proven
	// disproved: a sat -prove failed.
	disproved
)

// yosysProof reads a run of a Yosys script holding proofs sat -prove
// commands (run without -q, so that the log shows them): proven when Yosys
// exited 0 having printed the success of each, disproved when the log shows
// one failing. Otherwise it returns r as an Error: "yosys failed: …" (its
// first error line, or the first line it printed, or the limit it ran past)
// or "yosys gave no proof".
func yosysProof(r Result, o *ran, proofs int) (Result, proof) {
	out := o.out()
	if o.exited() && firstMatch(yosysDisproved, out) != "" {
		return r, disproved
	}
	if o.err != nil {
		return broke(r, o, yosysError.FindString(out)), noProof
	}
	held := 0
	for line := range strings.Lines(out) {
		if yosysProven.MatchString(line) {
			held++
		}
	}
	if held < proofs {
		return silent(r, "yosys gave no proof", toolrun.LastLine(out)), noProof
	}
	return r, proven
}

// yosysFigures reads the gate count (the last stat's) and the longest
// path (ltp -noff) from a Yosys log; ok is false when either is missing.
func yosysFigures(out string) (gates, longest int, ok bool) {
	cells, path := yosysCells.FindAllStringSubmatch(out, -1), yosysLongest.FindStringSubmatch(out)
	if cells == nil || path == nil {
		return 0, 0, false
	}
	if _, err := fmt.Sscan(cells[len(cells)-1][1], &gates); err != nil {
		return 0, 0, false
	}
	if _, err := fmt.Sscan(path[1], &longest); err != nil {
		return 0, 0, false
	}
	return gates, longest, true
}
