package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/internal/bounded"
	"github.com/prefixgen/prefixgen/limits"
)

// budget is what a request may use (package limits refuses, before its
// work, what exceeds it). Tests set it, to make limits the same on every
// machine.
var budget = limits.Machine()

// writes returns the format the command c writes networks in, as
// limits.CellBytes takes it: gen's -f, limits.Synth for synth, whose
// networks the outside tools hold whole, and "" for every other command.
func writes(c *cli.Context) string {
	switch c.Command.Name {
	case "gen":
		return c.String("format")
	case "synth":
		return limits.Synth
	}
	return ""
}

// inputBytes is the most a file of the user's (a network or adder
// document, a design, a report) may hold: a 64th of what a request may
// use, room for what reading it builds (decoding JSON takes several times
// the bytes read, Yosys reading a design dozens).
func inputBytes() int64 { return max(budget.Memory/64, 1<<20) }

// readInput reads the file of the user's at path, up to inputBytes, a FIFO
// as a file; a larger one is an error that names it and says so against
// the budget (isTooLarge), in words that follow the flag that names it.
func readInput(path string) ([]byte, error) {
	if path == "-" {
		// No file of outside input is read from standard input.
		return nil, &fs.PathError{Op: "open", Path: path, Err: errStdin}
	}
	data, err := bounded.ReadFile(path, inputBytes())
	if e, ok := errors.AsType[*bounded.TooLargeError](err); ok {
		return nil, fmt.Errorf("%s is %w here, a 64th of the %.1f GiB of memory a request may use", path, e, float64(budget.Memory)/(1<<30))
	}
	return data, err
}

// errStdin is readInput's error for "-", which names standard input
// elsewhere.
var errStdin = errors.New("standard input is not read: allowed a file's path")

// isTooLarge reports whether err is readInput's for a file too large.
func isTooLarge(err error) bool {
	_, ok := errors.AsType[*bounded.TooLargeError](err)
	return ok
}
