package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/progress"
	"github.com/prefixgen/prefixgen/internal/suggest"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/network"
)

func main() {
	stopOnSignal(os.Stderr)
	status := run(os.Args, os.Stdout, os.Stderr)
	// What the run left for the end of the process: the libraries
	// written for the tools (package pdk).
	cleanup.RemoveAll()
	os.Exit(status)
}

// stopOnSignal makes an interrupt (SIGINT), SIGTERM or a hang-up (SIGHUP:
// the terminal or ssh session closed) kill the outside tools under way
// (each runs in a process group of its own, which a terminal's interrupt
// does not reach), remove the temporary files and
// folders of the run (package cleanup: an -o file half written, the tools'
// work folders) and exit with 128 + the signal's number, as a shell reports
// a command a signal stopped.
//
// A write to standard output or error whose reader has gone (SIGPIPE:
// prefixgen … | head) stops it the same way without a word, where Go would
// kill it at the write and leave the temporary folders; the write fails
// with EPIPE, which run answers alike (brokenPipe). A SIGPIPE of another
// pipe (outputGone says which) is let pass: its write fails with EPIPE.
func stopOnSignal(stderr io.Writer) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	go func() {
		s := <-sigs
		for s == syscall.SIGPIPE && !outputGone() {
			s = <-sigs // a pipe to a tool: its write fails with EPIPE
		}
		toolrun.KillAll()
		cleanup.RemoveAll()
		progress.Stop()
		if s != syscall.SIGPIPE {
			fmt.Fprintf(stderr, "prefixgen: stopped by %s\n", signalNames[s.(syscall.Signal)])
		}
		os.Exit(128 + int(s.(syscall.Signal)))
	}()
}

// brokenPipe is the exit status of a run whose output went to a pipe no
// one reads any more: 128 + SIGPIPE, as a shell reports a command that
// signal stopped, and without a message, which would go nowhere or be
// noise.
const brokenPipe = 128 + int(syscall.SIGPIPE)

// signalNames are the names the stop line gives the signals.
var signalNames = map[syscall.Signal]string{
	syscall.SIGINT:  "interrupt",
	syscall.SIGTERM: "SIGTERM",
	syscall.SIGHUP:  "hang-up (SIGHUP)",
}

// filesLast are the commands whose arguments are files, which take their
// flags after the files too (flagsFirst), as Yosys's and Verilator's
// command lines do.
var filesLast = [][]string{{"map"}, {"cuda", "report"}}

// subcommand returns the command of cmds that path names, word by word.
func subcommand(cmds []*cli.Command, path []string) *cli.Command {
	var found *cli.Command
	for _, word := range path {
		found = nil
		for _, c := range cmds {
			if c.Name == word {
				found = c
			}
		}
		if found == nil {
			panic("prefixgen: no command " + strings.Join(path, " "))
		}
		cmds = found.Subcommands
	}
	return found
}

// run runs the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "prefixgen: internal error: %v\n", r)
			status = 1
		}
	}()
	app := newApp(stdout, stderr)
	for _, path := range filesLast {
		if k := len(path) + 1; len(args) > k && slices.Equal(args[1:k], path) {
			args = append(args[:k:k], flagsFirst(subcommand(app.Commands, path), args[k:])...)
		}
	}
	err := app.Run(args)
	if nf, ok := app.Metadata[deferredKey].(error); ok && err == nil {
		err = nf
	}
	if err == nil {
		return 0
	}
	if errors.Is(err, syscall.EPIPE) {
		return brokenPipe
	}
	fmt.Fprintln(stderr, message(err))
	var f failure
	if errors.As(err, &f) {
		return 1
	}
	return 2
}

// message returns the one line run prints for err: "prefixgen CMD: " once,
// then the reason. Errors of the project's packages start with the
// package's name ("physical: Liberty file … cannot be read"), and an error
// wrapped by several packages with several; a user has no use for them, so
// every leading package name of the module (modulePackages) is dropped,
// and so is a word of the command's name ("prefixgen cuda emit"), so no line
// reads "prefixgen optimize: optimize: …". A package name after something
// else stays: the reader of a file drops its own (readFrom), where it puts
// the file's path before the reason.
func message(err error) string {
	// Errors joined (errors.Join) are one line each: each is a reason.
	lines := strings.Split(err.Error(), "\n")
	msg := lines[0]
	if !strings.HasPrefix(msg, "prefixgen") {
		msg = "prefixgen: " + msg
	}
	cmd, reason, ok := strings.Cut(msg, ": ")
	if !ok {
		return strings.Join(lines, " ")
	}
	words := append(strings.Fields(cmd)[1:], modulePackages...)
	reasons := []string{reason}
	for _, line := range lines[1:] {
		if line = strings.TrimSpace(line); line != "" {
			reasons = append(reasons, line)
		}
	}
	for i, reason := range reasons {
		reasons[i] = dropWords(reason, words)
	}
	return network.Printable(cmd + ": " + strings.Join(reasons, "; "))
}

// dropWords returns reason without the words (package names, as in
// "physical: ") it starts with, however many.
func dropWords(reason string, words []string) string {
	for dropped := true; dropped; {
		dropped = false
		for _, word := range words {
			if rest, found := strings.CutPrefix(reason, word+": "); found && rest != "" {
				reason, dropped = rest, true
			}
		}
	}
	return reason
}

// modulePackages are the names of the module's packages whose errors may
// reach a user, which message drops from the front of a reason.
var modulePackages = []string{
	"adder", "bdd", "bench", "block", "carry", "cleanup", "delay", "designmap", "emit", "explore",
	"gpukernels", "liberty", "limits", "netlist", "network", "optimize", "pdk", "physical", "program",
	"progress", "redundant", "report", "simulate", "stage", "toolcheck", "toolrun", "topologies", "warp",
}

// failure marks an error where the input was fine but the work failed: a
// verification mismatch, or standard output that could not be written (but
// for a reader gone: brokenPipe). Every
// other error, an -o path that cannot be written included, is bad usage or
// bad input.
type failure struct{ err error }

func (f failure) Error() string { return f.err.Error() }
func (f failure) Unwrap() error { return f.err }

// usage reports bad usage, naming the command.
func usage(c *cli.Context, format string, args ...any) error {
	return fmt.Errorf("%s: %s", commandName(c), fmt.Sprintf(format, args...))
}

// commandName names the command c runs in full, as "prefixgen cuda emit".
func commandName(c *cli.Context) string {
	var names []string
	for _, x := range c.Lineage() {
		if x.Command != nil && x.Command.Name != "" && x.Command.Name != "prefixgen" {
			names = append([]string{x.Command.Name}, names...)
		}
	}
	return strings.Join(append([]string{"prefixgen"}, names...), " ")
}

// checksEmpty names the string flags whose commands refuse an empty value
// with a message of their own.
var checksEmpty = map[string]bool{"segmented": true}

// emptyAllowed says what is allowed instead of an empty value, for the
// flags where "a value" says too little.
var emptyAllowed = map[string]string{
	"module":    "a Verilog identifier, or leave the flag out for the default name",
	"namespace": "a C++ identifier, or leave the flag out for the default name",
	"topology":  "a topology name, as prefixgen list gives them",
	"from":      "the path of a prefixgen.network/v1 or prefixgen.adder/v1 file",
	// A flag of one command only, where the flag's name alone says too
	// little: COMMAND FLAG.
	"map top":        "the name of the design's top module, which map needs",
	"bench suite":    "the folder to write the suite's tables into",
	"bench sweep":    "the folder to write the sweep's tables into",
	"bench networks": "the folder to write the networks' tables into",
}

// refuseEmpty gives every string flag of cmds and their subcommands that
// has no Action of its own one that refuses an empty value, which would
// otherwise silently turn into the flag's default (--module "", --namespace
// "", …), and every string flag one that refuses another of the command's
// flags as its value (tookFlag).
func refuseEmpty(cmds []*cli.Command) {
	for _, cmd := range cmds {
		for _, f := range cmd.Flags {
			sf, ok := f.(*cli.StringFlag)
			if !ok {
				continue
			}
			name := "--" + sf.Name
			for _, a := range sf.Aliases {
				if len(a) == 1 {
					name = "-" + a + "/" + name
				}
			}
			allowed := cmp.Or(emptyAllowed[cmd.Name+" "+sf.Name], emptyAllowed[sf.Name])
			if allowed == "" {
				allowed = "a value, or leave the flag out for its default"
			}
			own, checks := sf.Action, checksEmpty[sf.Name]
			sf.Action = func(c *cli.Context, v string) error {
				switch {
				case own != nil:
					if err := own(c, v); err != nil {
						return err
					}
				case v == "" && !checks:
					return usage(c, "%s is empty: allowed %s (see %s --help)", name, allowed, commandName(c))
				}
				return tookFlag(c, cmd, name, v)
			}
		}
		// A list's element likewise: --with "", --start "".
		for _, f := range cmd.Flags {
			sf, ok := f.(*cli.StringSliceFlag)
			if !ok || sf.Action != nil {
				continue
			}
			name := "--" + sf.Name
			sf.Action = func(c *cli.Context, vs []string) error {
				switch i := slices.Index(vs, ""); {
				case i < 0:
					for _, v := range vs {
						if err := tookFlag(c, cmd, name, v); err != nil {
							return err
						}
					}
					return nil
				case len(vs) == 1:
					return usage(c, "%s is empty: allowed a value (see %s --help)", name, commandName(c))
				default:
					return usage(c, "%s names nothing at place %d of its list: allowed a value between each two commas (see %s --help)", name, i+1, commandName(c))
				}
			}
		}
		refuseEmpty(cmd.Subcommands)
	}
}

// tookFlag refuses a value v of the flag name that is one of cmd's flags,
// as --liberty takes --flow in "--liberty --flow abc" where the library was
// left out: the run would go on with a library named --flow and stop at
// "abc".
func tookFlag(c *cli.Context, cmd *cli.Command, name, v string) error {
	if !strings.HasPrefix(v, "-") {
		return nil
	}
	other, _, _ := strings.Cut(strings.TrimLeft(v, "-"), "=")
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), other) {
			return usage(c, "%s took %s, another flag of %s, as its value: allowed %s VALUE (see %s --help)", name, v, commandName(c), name, commandName(c))
		}
	}
	return nil
}

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:  "prefixgen",
		Usage: "build, prove, measure and emit parallel-prefix networks",
		Description: "A parallel-prefix network computes every prefix x0 ⊕ … ⊕ xi of an associative operator;\n" +
			"it is the carry tree of every fast adder and the scan of GPU computing. Figures: depth (levels,\n" +
			"as soon as possible), size (cells), max fan-out (logical: readers + 1 if an output), wire tracks,\n" +
			"deficiency (size + depth − (2n − 2)). Exit status: 0 success, 1 the work failed, 2 bad usage or input,\n" +
			"128 + N stopped by signal N (nothing half written is left).",
		Writer:               stdout,
		ErrWriter:            stderr,
		Version:              appVersion(),
		EnableBashCompletion: true,
		ExitErrHandler:       func(*cli.Context, error) {},
		OnUsageError:         onUsageError,
		Metadata:             map[string]any{},
		// help NAME with no command NAME: run reports it.
		CommandNotFound: func(c *cli.Context, name string) {
			cmds, parent := c.App.Commands, "prefixgen"
			for _, x := range c.Lineage() {
				if x.Command != nil && len(x.Command.Subcommands) > 0 && x.Command.Name != "help" {
					cmds, parent = x.Command.Subcommands, commandName(x)
					break
				}
			}
			// COMMAND --help WORD, COMMAND having no commands but the help
			// urfave/cli gives it.
			if !slices.ContainsFunc(cmds, func(x *cli.Command) bool { return !x.Hidden && x.Name != "help" }) {
				c.App.Metadata[deferredKey] = fmt.Errorf("%s: unexpected argument %s: %s has no commands (see %s --help)", parent, network.Quote(name), parent, parent)
				return
			}
			c.App.Metadata[deferredKey] = unknownCommand(parent+" help", parent, name, cmds)
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return unknownCommand("prefixgen", "prefixgen", c.Args().First(), c.App.Commands)
			}
			return cli.ShowAppHelp(c)
		},
		// urfave/cli adds --help to an app only along with its own help
		// command, which helpCommand replaces.
		Flags:    []cli.Flag{cli.HelpFlag},
		Commands: []*cli.Command{listCommand(), genCommand(), statsCommand(), verifyCommand(), compareCommand(), checkCommand(), cudaCommand(), exploreCommand(), reportCommand(), optimizeCommand(), synthCommand(), mapCommand(), versionCommand(), completionCommand(), helpCommand()},
	}
	refuseEmpty(app.Commands)
	setCompleters(app)
	decimalFlags(app.Commands)
	addExamples(app.Commands, "")
	refuseRepeats(app.Commands)
	return app
}

// helpCommand is prefixgen help [COMMAND [SUBCOMMAND]], in place of
// urfave/cli's, which shows a command's subcommands only once the command
// has run and ignores every word after the first: help cuda emit prints
// what cuda emit --help prints, and help gen extra is refused.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:            "help",
		Aliases:         []string{"h"},
		Usage:           "Shows a list of commands or help for one command",
		ArgsUsage:       "[command [subcommand]]",
		HideHelpCommand: true,
		OnUsageError:    onUsageError,
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) == 0 {
				return cli.ShowAppHelp(c)
			}
			// ctx.Command is the command whose subcommands the next word
			// names; the help command itself has none, which
			// cli.ShowCommandHelp takes as the app's commands.
			ctx, cmds, parent := c, c.App.Commands, "prefixgen"
			for i, word := range args {
				var cmd *cli.Command
				for _, x := range cmds {
					if x.Name != "help" && x.HasName(word) {
						cmd = x
					}
				}
				if cmd == nil {
					return unknownCommand("prefixgen help", parent, word, cmds)
				}
				if i+1 == len(args) {
					if cmd.HelpName == "" { // a subcommand of a command that has not run
						cmd.HelpName = parent + " " + cmd.Name
					}
					return cli.ShowCommandHelp(ctx, word)
				}
				parent += " " + cmd.Name
				if len(cmd.Subcommands) == 0 {
					return fmt.Errorf("prefixgen help: unexpected argument %s: %s has no commands (see %s --help)", network.Quote(args[i+1]), parent, parent)
				}
				ctx = cli.NewContext(c.App, nil, ctx)
				ctx.Command, cmds = cmd, cmd.Subcommands
			}
			return nil
		},
	}
}

// deferredKey is where the app's Metadata keeps an error found where
// urfave/cli takes none: help NAME for a command NAME that does not exist,
// and --version with a word after it.
const deferredKey = "prefixgen.deferred"

// unknownCommand is the error for a command name that cmd, whose commands
// (of parent) are cmds, does not know.
func unknownCommand(cmd, parent, name string, cmds []*cli.Command) error {
	var names []string
	for _, x := range cmds {
		if !x.Hidden && x.Name != "help" {
			names = append(names, x.Name)
		}
	}
	return fmt.Errorf("%s: unknown command %s%s: known are %s (see %s --help)", cmd, network.Quote(name), didYouMean(name, names), strings.Join(names, ", "), parent)
}

// didYouMean returns " (did you mean X?)" for the one of allowed that word,
// a value none of them is, was likely meant to be, or "" where none is
// close.
func didYouMean(word string, allowed []string) string {
	if s := suggest.Closest(word, allowed); s != "" {
		return " (did you mean " + s + "?)"
	}
	return ""
}

// onUsageError turns a flag-parsing error into one line. The number flags
// say what they want themselves (decimalFlags); a boolean flag wants true or
// false.
func onUsageError(c *cli.Context, err error, _ bool) error {
	name := "prefixgen"
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != "prefixgen" {
		name += " " + c.Command.Name
	}
	msg := err.Error()
	if m := twoForms.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("%s: %s and %s both given: use one", name, dashed(m[1]), dashed(m[2]))
	}
	msg = boolValue.ReplaceAllString(msg, "invalid value $1 for flag -$2: want true or false")
	// Input is echoed cut short, as network.Quote cuts it.
	if m := badValue.FindStringSubmatch(msg); m != nil {
		if v, err := strconv.Unquote(m[1]); err == nil {
			msg = "invalid value " + network.Quote(v) + m[2]
		}
	}
	if typed, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		msg = "unknown flag " + asTyped(c, typed)
		if c.Command != nil {
			var names []string
			for _, f := range c.Command.Flags {
				for _, n := range f.Names() {
					if len(n) > 1 { // a long name mistyped is not meant as a letter
						names = append(names, n)
					}
				}
			}
			if s := suggest.Closest(strings.TrimPrefix(typed, "-"), names); s != "" {
				msg += " (did you mean " + dashed(s) + "?)"
			}
		}
		if short, value, ok := joinedValue(c, typed); ok {
			msg = fmt.Sprintf("unknown flag -%s: a value goes after a space, as in -%s %s", typed, short, value)
		}
	}
	msg = strings.Replace(msg, "flag needs an argument: ", "a value is missing after ", 1)
	// Go's flag package names a flag with one dash; the help spells long
	// names with two.
	msg = longFlag.ReplaceAllString(msg, "$1--$2")
	return fmt.Errorf("%s: %s (see %s --help)", name, msg, name)
}

// badValue matches Go's error for a bad value of a flag: the value,
// quoted, and the rest.
var badValue = regexp.MustCompile(`^invalid value (".*")( for flag -\S+: .*)$`)

// cutName cuts a flag's name as typed after network.QuoteLimit characters,
// with "…".
func cutName(s string) string {
	if r := []rune(s); len(r) > network.QuoteLimit {
		return string(r[:network.QuoteLimit]) + "…"
	}
	return s
}

// twoForms matches urfave/cli's error for a flag given by two of its names,
// as "Cannot use two forms of the same flag: o output".
var twoForms = regexp.MustCompile(`^Cannot use two forms of the same flag: (\S+) (\S+)$`)

// boolValue matches Go's error for a bad value of a boolean flag.
var boolValue = regexp.MustCompile(`^invalid boolean value (".*") for -(\S+): .*$`)

// longFlag matches a flag of more than one letter as Go's flag package
// names it in a message, with one dash.
var longFlag = regexp.MustCompile(`(a value is missing after |" for flag )-([A-Za-z0-9][A-Za-z0-9_-]+)`)

// dashed spells a flag's name as the help does: -n, --width.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// asTyped spells the name of an unknown flag with as many dashes as the
// command's arguments gave it (Go's flag package reads -fast and --fast
// alike), or as the help would where no argument tells; it is cut after
// network.QuoteLimit characters.
func asTyped(c *cli.Context, typed string) string {
	if lineage := c.Lineage(); len(lineage) >= 2 {
		for _, arg := range lineage[1].Args().Slice() {
			if arg == "--" {
				break
			}
			if name, _, _ := strings.Cut(arg, "="); name == "-"+typed {
				return "-" + cutName(typed)
			}
		}
	}
	return dashed(cutName(typed))
}

// joinedValue reports whether typed, the name of an unknown flag, was
// typed with one dash and is a one-letter flag of c's command that takes a
// value with the value written onto it (-n8, as getopt would read it), and
// returns the letter and the value. Go's flag package reads -n8 and --n8
// alike; the command's arguments tell them apart.
func joinedValue(c *cli.Context, typed string) (short, value string, ok bool) {
	lineage := c.Lineage()
	if c.Command == nil || len(typed) < 2 || len(lineage) < 2 || !slices.Contains(lineage[1].Args().Slice(), "-"+typed) {
		return "", "", false
	}
	short, value = typed[:1], typed[1:]
	for _, f := range c.Command.Flags {
		v, takes := f.(interface{ TakesValue() bool })
		if takes && v.TakesValue() && slices.Contains(f.Names(), short) {
			return short, value, true
		}
	}
	return "", "", false
}

// noArgs refuses stray positional arguments.
func noArgs(c *cli.Context) error {
	if c.Args().Present() {
		return usage(c, "unexpected argument %s: this command takes only flags", network.Quote(c.Args().First()))
	}
	return nil
}
