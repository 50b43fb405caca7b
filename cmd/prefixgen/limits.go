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
// limits.CellBytes takes it: gen's -f, and "" for every other command.
func writes(c *cli.Context) string {
	if c.Command.Name == "gen" {
		return c.String("format")
	}
	return ""
}
