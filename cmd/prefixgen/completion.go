package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical/pdk"
	"github.com/prefixgen/prefixgen/topologies"
)

// completionScripts are the shell scripts that prefixgen completion prints:
// urfave/cli's, which ask prefixgen itself for the words that may come next
// (prefixgen … --generate-bash-completion), with the program named, and
// the word being typed passed last even when it is empty (completer).
var completionScripts = map[string]string{
	"bash": `# bash completion for prefixgen: source this file, or save it as
# ~/.local/share/bash-completion/completions/prefixgen
_prefixgen_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  # "--" alone would end the flags: "-" asks for them all the same.
  local typed="$cur"
  [[ "$typed" == "--" ]] && typed="-"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}" "$typed")
  local opts
  opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
  return 0
}
complete -o bashdefault -o default -F _prefixgen_complete prefixgen
`,
	"zsh": `#compdef prefixgen
# zsh completion for prefixgen: save it as _prefixgen in a folder of $fpath
# (with autoload -Uz compinit && compinit in ~/.zshrc), or source it.
_prefixgen() {
  local -a opts
  local cur typed
  # The word under the cursor and those before it, wherever it is.
  cur=${words[CURRENT]}
  typed=$cur
  [[ "$typed" == "--" ]] && typed="-"
  opts=("${(@f)$(${words[1,CURRENT-1]} "$typed" --generate-bash-completion 2>/dev/null)}")
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
if [[ "$funcstack[1]" == "_prefixgen" ]]; then
  _prefixgen "$@"
else
  compdef _prefixgen prefixgen
fi
`,
}

// completionCommand is prefixgen completion bash|zsh, which prints the
// script that completes prefixgen's commands and flags in that shell.
func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell script that completes prefixgen's commands and flags: bash or zsh",
		UsageText: "prefixgen completion bash|zsh",
		Description: "Prints a script that asks prefixgen itself which commands and flags may come next.\n" +
			"bash: source <(prefixgen completion bash), or save it in ~/.local/share/bash-completion/completions/prefixgen.\n" +
			"zsh: save it as _prefixgen in a folder of $fpath, or source <(prefixgen completion zsh).",
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			args := c.Args().Slice()
			if len(args) != 1 {
				return usage(c, "name one shell: allowed bash or zsh (as in prefixgen completion bash)")
			}
			script, ok := completionScripts[args[0]]
			if !ok {
				return usage(c, "unknown shell %s: allowed bash or zsh", network.Quote(args[0]))
			}
			if _, err := fmt.Fprint(c.App.Writer, script); err != nil {
				return failure{fmt.Errorf("prefixgen completion: %w", err)}
			}
			return nil
		},
	}
}

// formatsOf are the -f values of each command that has -f.
var formatsOf = map[string][]string{
	"gen": genFormats, "stats": tableFormats, "compare": tableFormats, "explore": exploreFormats,
	"optimize": optimizeFormats, "synth": synthFormats,
}

// setCompleters gives the app and every command below it completer.
func setCompleters(app *cli.App) {
	app.BashComplete = completer(nil)
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, cmd := range cmds {
			cmd.BashComplete = completer(cmd)
			walk(cmd.Subcommands)
		}
	}
	walk(app.Commands)
}

// completer returns the completion of cmd (nil: of prefixgen itself): the
// words that may stand where the last word of the command line, which the
// scripts pass even when it is empty, is being typed, one a line. After a
// flag that takes a value come its values, or nothing where they are files
// (the shell lists those); never flag names, and never help where a
// command's argument belongs.
func completer(cmd *cli.Command) cli.BashCompleteFunc {
	return func(c *cli.Context) {
		args := os.Args[1:]
		if n := len(args); n > 0 && args[n-1] == "--generate-bash-completion" {
			args = args[:n-1]
		}
		var cur, prev string
		if n := len(args); n > 0 {
			cur = args[n-1]
			if n > 1 {
				prev = args[n-2]
			}
		}
		if cmd != nil && slices.Contains(cmd.Names(), cur) && !strings.HasPrefix(prev, "-") {
			// An older script, which passed no word being typed.
			cur, prev = "", cur
		}
		for _, w := range completions(c, cmd, prev, cur) {
			if strings.HasPrefix(w, cur) {
				fmt.Fprintln(c.App.Writer, w)
			}
		}
	}
}

// completions are the words that may follow prev in cmd, before they are
// matched against what is typed, cur.
func completions(c *cli.Context, cmd *cli.Command, prev, cur string) []string {
	flags, subs := c.App.Flags, c.App.Commands
	if cmd != nil {
		flags, subs = cmd.Flags, cmd.Subcommands
	}
	if strings.HasPrefix(cur, "-") {
		var out []string
		for _, f := range flags {
			for _, name := range f.Names() {
				if len(name) == 1 {
					out = append(out, "-"+name)
				} else {
					out = append(out, "--"+name)
				}
			}
		}
		return out
	}
	if strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") {
		name := strings.TrimLeft(prev, "-")
		for _, f := range flags {
			if !slices.Contains(f.Names(), name) {
				continue
			}
			if v, takes := f.(interface{ TakesValue() bool }); !takes || !v.TakesValue() || isBool(f) {
				break // a switch: what follows is an argument
			}
			switch f.Names()[0] {
			case "topology":
				// Every topology the command builds, and all where it
				// takes several (its flag's usage says so).
				names := topologies.Known()
				if strings.Contains(f.String(), "; all (") {
					names = append(names, "all")
				}
				return names
			case "liberty":
				return pdk.Names
			case "format":
				if cmd != nil {
					return formatsOf[cmd.Name]
				}
			}
			return nil // files, or a value of the user's
		}
	}
	var out []string
	for _, sub := range subs {
		if !sub.Hidden && (sub.Name != "help" || cmd == nil) {
			out = append(out, sub.Name)
		}
	}
	if cmd != nil {
		switch cmd.Name {
		case "completion":
			if _, named := completionScripts[prev]; named {
				return nil // one shell
			}
			out = slices.Sorted(maps.Keys(completionScripts))
		case "help":
			if named := c.App.Command(prev); named != nil && prev != "help" {
				// help COMMAND SUBCOMMAND
				out = nil
				for _, sub := range named.Subcommands {
					if !sub.Hidden && sub.Name != "help" {
						out = append(out, sub.Name)
					}
				}
				return out
			}
			for _, x := range c.App.Commands {
				if !x.Hidden {
					out = append(out, x.Name)
				}
			}
		}
	}
	return out
}
