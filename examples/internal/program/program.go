package program

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// UsageError is an error in the command line: a bad flag, a stray argument,
// or a network that cannot be built from the flags. Main exits with status 2
// for it.
type UsageError struct{ Err error }

// Error returns the text of the wrapped error.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *UsageError) Unwrap() error { return e.Err }

// Main runs run on the process's arguments and exits: 0 on success, 2 for a
// UsageError, 1 for any other error, which is printed on standard error.
func Main(run func(w io.Writer, args []string) error) {
	err := run(os.Stdout, os.Args[1:])
	if err == nil {
		return
	}
	fmt.Fprintln(os.Stderr, err)
	if _, usage := errors.AsType[*UsageError](err); usage {
		os.Exit(2)
	}
	os.Exit(1)
}

// Flags is a flag set with the flags that choose a network: -t TOPOLOGY and
// -param name=value. A program adds its own flags to the embedded FlagSet
// before it calls Network.
type Flags struct {
	*flag.FlagSet
	topology *string
	params   []string
}

// NewFlags returns the flags of the program name, whose network is the
// topology named def unless -t names another.
func NewFlags(name, def string) *Flags {
	f := &Flags{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError)}
	f.SetOutput(io.Discard)
	f.topology = f.String("t", def, "topology: "+strings.Join(topologies.Known(), ", "))
	f.Func("param", "topology parameter `name=value`, such as k=1 for ladner-fischer; repeatable", func(s string) error {
		f.params = append(f.params, s)
		return nil
	})
	return f
}

// Network parses args and builds the chosen network at the width that
// *width holds after parsing (a flag of the program, or a fixed width). For
// -h it writes the flags' help to w and returns a nil network and no error.
// Every error is a UsageError prefixed with the program's name.
func (f *Flags) Network(w io.Writer, args []string, width *int) (*network.Network, error) {
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			f.SetOutput(w)
			f.PrintDefaults()
			return nil, nil
		}
		return nil, f.usage(f.parseError(err))
	}
	if f.NArg() > 0 {
		return nil, f.usage(fmt.Errorf("unexpected argument %q: only flags are allowed", f.Arg(0)))
	}
	p, err := topologies.ParseParams(f.params)
	if err != nil {
		return nil, f.usage(unprefixed{err})
	}
	net, err := topologies.Build(*f.topology, *width, p)
	if err != nil {
		return nil, f.usage(unprefixed{err})
	}
	return net, nil
}

// unprefixed is an error of package topologies shown without the
// package's name, which a user of the program need not know.
type unprefixed struct{ err error }

func (e unprefixed) Error() string { return strings.TrimPrefix(e.err.Error(), "topologies: ") }
func (e unprefixed) Unwrap() error { return e.err }

// Usage returns err as a UsageError prefixed with the program's name, for
// the checks a program makes of its own flags.
func (f *Flags) Usage(err error) error { return f.usage(err) }

// flagValue and flagBool match the flag package's errors for a value it
// cannot parse.
var (
	flagValue = regexp.MustCompile(`^invalid value "(.*)" for flag -(\S+): parse error$`)
	flagBool  = regexp.MustCompile(`^invalid boolean value "(.*)" for -(\S+): parse error$`)
)

// parseError says what a number flag wants where the flag package says
// only "parse error".
func (f *Flags) parseError(err error) error {
	if m := flagBool.FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("invalid value %q for flag -%s: want true or false", m[1], m[2])
	}
	m := flagValue.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	g, ok := f.Lookup(m[2]).Value.(flag.Getter)
	if !ok {
		return err
	}
	want := ""
	switch g.Get().(type) {
	case int, int64:
		want = "a whole number in decimal"
	case uint, uint64:
		want = "a whole number from 0, in decimal"
	case float64:
		want = "a number"
	default:
		return err
	}
	return fmt.Errorf("invalid value %q for flag -%s: want %s", m[1], m[2], want)
}

func (f *Flags) usage(err error) error {
	return &UsageError{fmt.Errorf("%s: %w", f.Name(), err)}
}

// Head writes the first k elements of s separated by spaces, then how many
// more there are; "none" for an empty s.
func Head(s []int, k int) string {
	if len(s) == 0 {
		return "none"
	}
	var b strings.Builder
	for i, v := range s[:min(k, len(s))] {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, v)
	}
	if len(s) > k {
		fmt.Fprintf(&b, " … (%d more)", len(s)-k)
	}
	return b.String()
}
