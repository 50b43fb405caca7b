package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/progress"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/network"
)

// Go's flag package, which urfave/cli's integer flags parse with, reads
// integers as Go literals: -n 010 is 8, -n 0x10 is 16, -n 1_0 is 10 (the
// flags' Base field applies to environment variables only). Every integer
// flag of the command is made decimal-only instead, and every number flag
// says in its error what it wants: -n 010 is 10, -n 0x10 is refused.

// decimalFlags replaces every integer and float flag of cmds and their
// subcommands by one that reads its value as numberValue does.
func decimalFlags(cmds []*cli.Command) {
	for _, cmd := range cmds {
		for i, f := range cmd.Flags {
			switch f := f.(type) {
			case *cli.IntFlag:
				cmd.Flags[i] = intFlag{f}
			case *cli.Int64Flag:
				cmd.Flags[i] = int64Flag{f}
			case *cli.UintFlag:
				cmd.Flags[i] = uintFlag{f}
			case *cli.Uint64Flag:
				cmd.Flags[i] = uint64Flag{f}
			case *cli.Float64Flag:
				cmd.Flags[i] = float64Flag{f}
			}
		}
		decimalFlags(cmd.Subcommands)
	}
}

// The wrapped flags: everything but Apply is the flag's own (help text,
// default, Action).
type (
	intFlag     struct{ *cli.IntFlag }
	int64Flag   struct{ *cli.Int64Flag }
	uintFlag    struct{ *cli.UintFlag }
	uint64Flag  struct{ *cli.Uint64Flag }
	float64Flag struct{ *cli.Float64Flag }
)

func (f intFlag) Apply(set *flag.FlagSet) error {
	return applyNumber(f.IntFlag, set, signed(strconv.IntSize))
}

func (f int64Flag) Apply(set *flag.FlagSet) error {
	return applyNumber(f.Int64Flag, set, signed(64))
}

func (f uintFlag) Apply(set *flag.FlagSet) error {
	return applyNumber(f.UintFlag, set, unsigned(strconv.IntSize))
}

func (f uint64Flag) Apply(set *flag.FlagSet) error {
	return applyNumber(f.Uint64Flag, set, unsigned(64))
}

func (f float64Flag) Apply(set *flag.FlagSet) error {
	return applyNumber(f.Float64Flag, set, float)
}

// applyNumber defines f's names in set, each reading its value through
// read before f's own flag.Value takes it.
func applyNumber(f cli.Flag, set *flag.FlagSet, read func(string) (string, error)) error {
	own := flag.NewFlagSet("", flag.ContinueOnError)
	if err := f.Apply(own); err != nil {
		return err
	}
	own.VisitAll(func(x *flag.Flag) {
		set.Var(&numberValue{Value: x.Value, read: read}, x.Name, x.Usage)
	})
	return nil
}

// numberValue is a flag.Value that checks a value with read, and passes
// what read returns to the flag's own Value.
type numberValue struct {
	flag.Value
	read func(string) (string, error)
}

// Set checks s and sets the value.
func (v *numberValue) Set(s string) error {
	t, err := v.read(s)
	if err != nil {
		return err
	}
	return v.Value.Set(t)
}

// Get returns the value, as the flag's own Value does.
func (v *numberValue) Get() any {
	if g, ok := v.Value.(flag.Getter); ok {
		return g.Get()
	}
	return v.Value.String()
}

// signed reads a whole number of the given bits in decimal, and returns it
// without leading zeros or sign. A number beyond the bits is beyond what
// any flag allows; the help says what the flag does.
func signed(bits int) func(string) (string, error) {
	return func(s string) (string, error) {
		n, err := strconv.ParseInt(s, 10, bits)
		switch {
		case errors.Is(err, strconv.ErrRange):
			return "", errors.New("out of range: too far from 0 for any flag")
		case err != nil:
			return "", notDecimal(s)
		}
		return strconv.FormatInt(n, 10), nil
	}
}

// unsigned reads a whole number from 0 of the given bits in decimal. The
// type's bound may not be the flag's (--seed of optimize stops at
// 2^63 − 1): a number beyond the bits is beyond what any flag allows, and
// a negative one below 0; the command says what the flag allows above.
func unsigned(bits int) func(string) (string, error) {
	return func(s string) (string, error) {
		n, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, bits)
		if errors.Is(err, strconv.ErrRange) {
			return "", errors.New("out of range: too far from 0 for any flag")
		}
		if err != nil {
			switch m, serr := strconv.ParseInt(s, 10, 64); {
			case serr == nil && m == 0: // -0
				return "0", nil
			case len(s) > 1 && s[0] == '-' && (serr == nil || errors.Is(serr, strconv.ErrRange)):
				return "", errors.New("out of range: allowed 0 or more")
			}
			return "", notDecimal(s)
		}
		return strconv.FormatUint(n, 10), nil
	}
}

// notDecimal is the error for a value that is not a whole number in
// decimal: one Go would read as a literal in another base (0x10, 0b101,
// 1_000) is told so.
func notDecimal(s string) error {
	if _, err := strconv.ParseInt(s, 0, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return errors.New("want a whole number in decimal digits")
	}
	if _, err := strconv.ParseUint(s, 0, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return errors.New("want a whole number in decimal digits")
	}
	return errors.New("want a whole number")
}

// decimalNumber matches a number in decimal digits, with a sign, a point
// and an exponent where wanted.
var decimalNumber = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// float reads a number in decimal digits (Go's flag package would read hex
// floats, underscores, inf and NaN too), with errors that say so.
func float(s string) (string, error) {
	if !decimalNumber.MatchString(s) {
		// Go would read 0x1p-2, 1_000, inf and NaN too.
		return "", errors.New("want a number in decimal digits, as 1.5 or 2e-3")
	}
	v, err := strconv.ParseFloat(s, 64)
	mantissa, _, _ := strings.Cut(strings.ToLower(s), "e")
	switch {
	case errors.Is(err, strconv.ErrRange):
		return "", errors.New("out of range: too far from 0 for any flag")
	case err != nil:
		return "", errors.New("want a number")
	case v == 0 && strings.ContainsAny(mantissa, "123456789"):
		// Go reads a number too near 0 as 0, with no error.
		return "", errors.New("out of range: too near 0 to tell from it: allowed 0, or numbers from about 5e-324 in size")
	}
	return s, nil
}

// toolTimeoutFlag is --tool-timeout, the time limit of each outside tool's
// run, on every command that runs tools; toolTimeout reads it.
func toolTimeoutFlag() cli.Flag {
	return &cli.StringFlag{Name: "tool-timeout", Value: toolrun.DefaultTimeout.String(),
		Usage: "the time limit of each outside tool's run, as a `DURATION` such as 90s, 20m or 2h; a tool that runs past it is stopped and the run fails"}
}

// toolTimeout returns --tool-timeout, or a usage error naming what is
// allowed.
func toolTimeout(c *cli.Context) (time.Duration, error) {
	s := c.String("tool-timeout")
	d, err := time.ParseDuration(s)
	if err != nil || d < time.Second || d > maxToolTimeout {
		return 0, usage(c, "--tool-timeout %s: allowed a duration from 1s to 168h, such as 90s, 20m or 2h", network.Quote(s))
	}
	return d, nil
}

// maxToolTimeout is the longest --tool-timeout: a week.
const maxToolTimeout = 7 * 24 * time.Hour

// refuseRepeats makes every command of cmds and their subcommands refuse a
// flag that takes one value given more than once (-n 32 -n 64), which Go's
// flag package would silently read as its last value. Flags that take a
// list (--param) stay repeatable; a boolean flag may be repeated.
//
// Each command also refuses an output that names a file it reads
// (outputsApart).
func refuseRepeats(cmds []*cli.Command) {
	for _, cmd := range cmds {
		if cmd.Before == nil {
			cmd.Before = func(c *cli.Context) error {
				if err := onceEach(c); err != nil {
					return err
				}
				return outputsApart(c)
			}
		}
		refuseRepeats(cmd.Subcommands)
	}
}

// outputFlags are the flags that name a file a command writes, and
// inputFlags those that name files it reads (--liberty: a library given
// by its files, FILE,FILE…).
var (
	outputFlags = []string{"output", "plot", "testbench-out", "generic-out"}
	inputFlags  = []string{"from", "verilog", "vhdl", "liberty", "with", "start", "arrival"}
)

// outputsApart refuses, before anything is read, an output of c's command
// that names a file the command reads: written whole, it would replace the
// input, as gcc refuses -o naming its input. The files map and cuda
// report read are their arguments. A --liberty folder is read whole: an
// output named as a Liberty file in it, or a --workdir that is it (the
// run writes the library's copy there), would be of the library the next
// run reads.
func outputsApart(c *cli.Context) error {
	if c.Command == nil {
		return nil
	}
	type input struct{ flag, path string }
	var inputs []input
	for _, a := range c.Args().Slice() {
		inputs = append(inputs, input{strings.TrimPrefix(c.Command.HelpName, "prefixgen "), a})
	}
	for _, name := range inputFlags {
		if !hasFlag(c, name) || !c.IsSet(name) {
			continue
		}
		var paths []string
		switch name {
		case "with", "start":
			paths = c.StringSlice(name)
		case "liberty":
			paths = strings.Split(c.String(name), ",")
		default:
			paths = []string{c.String(name)}
		}
		for _, p := range paths {
			inputs = append(inputs, input{"--" + name, p})
		}
	}
	// A --liberty folder is read whole: every Liberty file in it is of
	// the library, one written there too.
	var libFolders []string
	if hasFlag(c, "liberty") && c.IsSet("liberty") {
		for _, p := range strings.Split(c.String("liberty"), ",") {
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				libFolders = append(libFolders, p)
			}
		}
	}
	if work := c.String("workdir"); hasFlag(c, "workdir") && work != "" {
		for _, f := range libFolders {
			if emit.SamePath(work, f) {
				return usage(c, "--workdir %s is the folder --liberty reads, where the run would write a Liberty file: allowed a work folder apart from the library's", work)
			}
		}
	}
	for _, out := range outputFlags {
		if !hasFlag(c, out) || !c.IsSet(out) {
			continue
		}
		path := c.String(out)
		for _, f := range libFolders {
			if path != "" && liberty.IsLibertyName(path) && emit.SamePath(filepath.Dir(path), f) {
				return usage(c, "%s %s is a Liberty file of the folder --liberty reads: allowed an output apart from the library's files", outName(out), path)
			}
		}
		// The work folder is written whole at the end (as the run goes
		// for map): an output there would meet it.
		if work := c.String("workdir"); hasFlag(c, "workdir") && work != "" && path != "" && path != "-" && emit.InFolder(path, work) {
			return usage(c, "%s %s is in the folder --workdir writes: allowed an output outside it", outName(out), path)
		}
		if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
			// Nothing yet, or a device or FIFO, which is written in
			// place: /dev/stdout may be the terminal /dev/stdin is.
			continue
		}
		for _, in := range inputs {
			if in.path != "" && emit.SamePath(path, in.path) {
				return usage(c, "%s %s is the file %s reads: allowed an output apart from the input", outName(out), path, in.flag)
			}
		}
	}
	return nil
}

// outName is an output flag as a user types it.
func outName(name string) string {
	if name == "output" {
		return "-o"
	}
	return "--" + name
}

// onceEach refuses a flag of c's command that takes one value and was
// given twice: the command's words, as its parent read them, are read the
// way Go's flag package reads them.
func onceEach(c *cli.Context) error {
	lineage := c.Lineage()
	if c.Command == nil || len(lineage) < 2 {
		return nil
	}
	words := lineage[1].Args().Slice()
	if len(words) == 0 {
		return nil
	}
	byName := map[string]cli.Flag{}
	for _, f := range c.Command.Flags {
		for _, n := range f.Names() {
			byName[n] = f
		}
	}
	seen := map[cli.Flag]string{}
	for i := 1; i < len(words); i++ {
		w := words[i]
		if w == "--" || len(w) < 2 || w[0] != '-' {
			return nil // the flags end here
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-"), "=")
		f, ok := byName[name]
		if !ok {
			continue
		}
		if v, takes := f.(interface{ TakesValue() bool }); !takes || !v.TakesValue() || isBool(f) {
			continue
		}
		if !hasValue && i+1 < len(words) {
			i++
			value = words[i]
		}
		if repeatable(f) {
			continue
		}
		if first, twice := seen[f]; twice {
			return usage(c, "%s given twice (%s, then %s): it takes one value; give it once", dashed(f.Names()[0]), network.Quote(first), network.Quote(value))
		}
		seen[f] = value
	}
	return nil
}

// isBool reports whether f is a boolean flag, which reads no value after a
// space.
func isBool(f cli.Flag) bool {
	_, ok := f.(*cli.BoolFlag)
	return ok
}

// repeatable reports whether f takes a list, one value per use.
func repeatable(f cli.Flag) bool {
	switch f.(type) {
	case *cli.StringSliceFlag, *cli.IntSliceFlag, *cli.Int64SliceFlag, *cli.Float64SliceFlag, *cli.UintSliceFlag, *cli.Uint64SliceFlag:
		return true
	}
	return false
}

// checkOutputs refuses, before any work, a run whose -o, --plot or
// --testbench-out cannot be written (bad input, exit status 2), so that a
// run refused for one output leaves every other file as it was.
func checkOutputs(c *cli.Context) error {
	for _, f := range []struct{ flag, name string }{{"-o", "output"}, {"--plot", "plot"}, {"--testbench-out", "testbench-out"}} {
		if !c.IsSet(f.name) {
			continue
		}
		path := c.String(f.name)
		if f.name == "output" && path == "-" {
			continue
		}
		if err := emit.CheckWritable(path); err != nil {
			return usage(c, "%v", err)
		}
	}
	return nil
}

// rendered returns what fn writes, in memory, so that a command writes its
// files only once all of them are made.
func rendered(fn func(io.Writer) error) (func(io.Writer) error, error) {
	var buf bytes.Buffer
	if err := fn(&buf); err != nil {
		return nil, err
	}
	return func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }, nil
}

// progressFlags are --progress and --quiet of every command whose work can
// last: progress on standard error, shown on a terminal by default.
func progressFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "progress", Usage: "show progress on standard error even where it is not a terminal, as a line from time to time (done/total and the time left)"},
		&cli.BoolFlag{Name: "quiet", Usage: "show no progress on standard error"},
	}
}

// progressMode returns the mode --progress and --quiet ask for, refusing
// both.
func progressMode(c *cli.Context) (progress.Mode, error) {
	switch {
	case c.Bool("progress") && c.Bool("quiet"):
		return progress.Never, usage(c, "--progress and --quiet both given: use one")
	case c.Bool("progress"):
		return progress.Always, nil
	case c.Bool("quiet"):
		return progress.Never, nil
	}
	return progress.Auto, nil
}

// newBar returns the progress bar of c's command counting unit, on
// standard error as --progress and --quiet say (checked by progressMode
// before the work).
func newBar(c *cli.Context, unit string) *progress.Bar {
	mode, err := progressMode(c)
	if err != nil {
		mode = progress.Never
	}
	return progress.New(c.App.ErrWriter, commandName(c), unit, mode)
}
