package main

import (
	"github.com/urfave/cli/v2"

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
