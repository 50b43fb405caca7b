package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// commandExamples are the EXAMPLES section of each command's help, by the
// command's name after prefixgen: two to four command lines that run as
// written (a test runs the cheap ones).
var commandExamples = map[string][]string{
	"list": {
		"prefixgen list",
		"prefixgen list | grep -A3 ladner-fischer",
	},
	"gen": {
		"prefixgen gen -t sklansky -n 16",
		"prefixgen gen -t han-carlson -n 64 -f verilog -o hc64.v",
		"prefixgen gen -t han-carlson -n 64 -f verilog --testbench -o hc64_tb.v",
		"prefixgen gen -t kogge-stone -n 16 -f dot | neato -n2 -Tsvg > ks16.svg",
	},
	"stats": {
		"prefixgen stats -t all -n 64",
		"prefixgen stats -t sklansky,brent-kung -n 32 -f csv",
		"prefixgen stats -t ladner-fischer --param k=1 -n 32 -f json",
	},
	"verify": {
		"prefixgen verify -t all -n 33",
		"prefixgen verify -t kogge-stone,sklansky -n 64 --vectors 10000 --seed 7",
	},
	"compare": {
		"prefixgen compare",
		"prefixgen compare -n 32,64,128",
		"prefixgen compare -n 128 -f csv -o compare.csv",
	},
	"check": {
		"prefixgen check -t all -n 32",
		"prefixgen check -t sklansky,brent-kung -n 16 --sparse 2",
		"prefixgen check --verilog mine.v --top my_adder",
	},
	"cuda": {
		"prefixgen cuda emit -t sklansky --type float -o scan.cuh",
		"prefixgen cuda bench -t all",
	},
	"cuda emit": {
		"prefixgen cuda emit -t sklansky --type float -o scan.cuh",
		"prefixgen cuda emit -t brent-kung --block shared --width 1024 --op max",
	},
	"cuda bench": {
		"prefixgen cuda bench -t all",
		"prefixgen cuda bench -t sklansky,kogge-stone --type float --sizes 2^20,2^24",
	},
	"cuda report": {
		"prefixgen cuda report report.json",
		"prefixgen cuda report --plot report.svg report.json",
	},
	"explore": {
		"prefixgen explore -n 64",
		"prefixgen explore -n 64 --max-fanout 4 -f csv",
		"prefixgen explore -n 32 --plot pareto.svg",
		"prefixgen explore -n 32 --synth --liberty osu018",
	},
	"report": {
		"prefixgen report -n 32 -o report.html",
		"prefixgen report -n 32 --synth -o report.html",
	},
	"optimize": {
		"prefixgen optimize -n 32 --max-depth 6",
		"prefixgen optimize -n 64 --max-depth 7 --max-fanout 4 -f json -o best.json",
		"prefixgen optimize -n 32 --max-delay-ns 1.2 --liberty osu018",
	},
	"synth": {
		"prefixgen synth -t all -n 32",
		"prefixgen synth -t kogge-stone,brent-kung -n 64 --liberty osu035 -f csv",
		"prefixgen synth --verilog mine.v --top my_adder -n 32",
	},
	"map": {
		"prefixgen map rtl/*.v --top my_core --liberty sky130hd --clock-period 10 -o my_core.mapped.v",
		"prefixgen map core.v --top core --clock-period 5 --compare --check",
		"prefixgen map core.v --top core -I include -D SYNTHESIS --clock-period 5 --generic-out core.generic.v",
	},
	"version": {
		"prefixgen version",
		"prefixgen --version",
	},
	"completion": {
		"source <(prefixgen completion bash)",
		`prefixgen completion zsh > "${fpath[1]}/_prefixgen"`,
	},
}

// addExamples appends the EXAMPLES section of commandExamples to the help
// of each of cmds and their subcommands; parent is the name of their
// command ("" for prefixgen's own).
func addExamples(cmds []*cli.Command, parent string) {
	for _, cmd := range cmds {
		name := strings.TrimSpace(parent + " " + cmd.Name)
		if lines := commandExamples[name]; len(lines) > 0 {
			template := cli.CommandHelpTemplate
			if len(cmd.Subcommands) > 0 {
				// prefixgen help cuda shows a command that has not run,
				// whose categories urfave/cli has not set up: its
				// subcommands are listed without them.
				template = strings.Replace(cli.SubcommandHelpTemplate, `{{template "visibleCommandCategoryTemplate" .}}`, `{{template "visibleCommandTemplate" .}}`, 1)
			}
			cmd.CustomHelpTemplate = template + "\nEXAMPLES:\n   " + strings.Join(lines, "\n   ") + "\n"
		}
		addExamples(cmd.Subcommands, name)
	}
}
