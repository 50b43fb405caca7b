package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/network"
)

func main() {
	stopOnSignal(os.Stderr)
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// stopOnSignal makes an interrupt (SIGINT) or SIGTERM remove the
// temporary files and folders of the run (package cleanup: an -o file half
// written, the tools' work folders) and exit with 128 + the signal's
// number, as a shell reports a command a signal stopped.
func stopOnSignal(stderr io.Writer) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		cleanup.RemoveAll()
		fmt.Fprintf(stderr, "prefixgen: stopped by %v\n", s)
		code := 128 + int(syscall.SIGINT)
		if s == syscall.SIGTERM {
			code = 128 + int(syscall.SIGTERM)
		}
		os.Exit(code)
	}()
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
	err := app.Run(args)
	if nf, ok := app.Metadata[notFoundKey].(error); ok && err == nil {
		err = nf
	}
	if err == nil {
		return 0
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
// package's name ("optimize: width 300 out of range"); where that name is
// already a word of the command's ("prefixgen optimize", "prefixgen cuda
// emit"), it is dropped, so no line reads "prefixgen optimize: optimize: …".
func message(err error) string {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if !strings.HasPrefix(msg, "prefixgen") {
		msg = "prefixgen: " + msg
	}
	cmd, reason, ok := strings.Cut(msg, ": ")
	if !ok {
		return msg
	}
	for _, word := range strings.Fields(cmd)[1:] {
		if rest, found := strings.CutPrefix(reason, word+": "); found {
			return cmd + ": " + rest
		}
	}
	return msg
}

// failure marks an error where the input was fine but the work failed: a
// verification mismatch, or standard output that could not be written. Every
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
	"topology":  "a topology name (see prefixgen list)",
	"from":      "the path of a prefixgen.network/v1 or prefixgen.adder/v1 file",
}

// refuseEmpty gives every string flag of cmds and their subcommands that
// has no Action of its own one that refuses an empty value, which would
// otherwise silently turn into the flag's default (--module "", --namespace
// "", …).
func refuseEmpty(cmds []*cli.Command) {
	for _, cmd := range cmds {
		for _, f := range cmd.Flags {
			sf, ok := f.(*cli.StringFlag)
			if !ok || sf.Action != nil || checksEmpty[sf.Name] {
				continue
			}
			name := "--" + sf.Name
			for _, a := range sf.Aliases {
				if len(a) == 1 {
					name = "-" + a + "/" + name
				}
			}
			allowed := emptyAllowed[sf.Name]
			if allowed == "" {
				allowed = "a value, or leave the flag out for its default"
			}
			sf.Action = func(c *cli.Context, v string) error {
				if v == "" {
					return usage(c, "%s is empty: allowed %s (see %s --help)", name, allowed, commandName(c))
				}
				return nil
			}
		}
		refuseEmpty(cmd.Subcommands)
	}
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
		Writer:         stdout,
		ErrWriter:      stderr,
		HideVersion:    true,
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError:   onUsageError,
		Metadata:       map[string]any{},
		// help NAME with no command NAME: run reports it.
		CommandNotFound: func(c *cli.Context, name string) {
			cmds, parent := c.App.Commands, "prefixgen"
			for _, x := range c.Lineage() {
				if x.Command != nil && len(x.Command.Subcommands) > 0 && x.Command.Name != "help" {
					cmds, parent = x.Command.Subcommands, commandName(x)
					break
				}
			}
			c.App.Metadata[notFoundKey] = unknownCommand(parent+" help", parent, name, cmds)
		},
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return unknownCommand("prefixgen", "prefixgen", c.Args().First(), c.App.Commands)
			}
			return cli.ShowAppHelp(c)
		},
		Commands: []*cli.Command{listCommand(), genCommand(), statsCommand(), verifyCommand(), compareCommand(), checkCommand(), cudaCommand(), exploreCommand(), reportCommand(), optimizeCommand(), synthCommand()},
	}
	refuseEmpty(app.Commands)
	return app
}

// notFoundKey is where the app's Metadata keeps the error of help NAME for
// a command NAME that does not exist.
const notFoundKey = "prefixgen.notFound"

// unknownCommand is the error for a command name that cmd, whose commands
// (of parent) are cmds, does not know.
func unknownCommand(cmd, parent, name string, cmds []*cli.Command) error {
	var names []string
	for _, x := range cmds {
		if !x.Hidden && x.Name != "help" {
			names = append(names, x.Name)
		}
	}
	return fmt.Errorf("%s: unknown command %s: known are %s (see %s --help)", cmd, network.Quote(name), strings.Join(names, ", "), parent)
}

// onUsageError turns a flag-parsing error into one line.
func onUsageError(c *cli.Context, err error, _ bool) error {
	msg := err.Error()
	msg = strings.Replace(msg, ": parse error", ": want a whole number", 1)
	msg = strings.Replace(msg, "flag provided but not defined: ", "unknown flag ", 1)
	msg = strings.Replace(msg, "flag needs an argument: ", "a value is missing after ", 1)
	// Go's flag package names a flag with one dash; the help spells long
	// names with two.
	msg = longFlag.ReplaceAllString(msg, "$1--$2")
	name := "prefixgen"
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != "prefixgen" {
		name += " " + c.Command.Name
	}
	return fmt.Errorf("%s: %s (see %s --help)", name, msg, name)
}

// longFlag matches a flag of more than one letter as Go's flag package
// names it in a message, with one dash.
var longFlag = regexp.MustCompile(`(unknown flag |a value is missing after )-([A-Za-z0-9][A-Za-z0-9_-]+)`)

// noArgs refuses stray positional arguments.
func noArgs(c *cli.Context) error {
	if c.Args().Present() {
		return usage(c, "unexpected argument %s: this command takes only flags", network.Quote(c.Args().First()))
	}
	return nil
}
