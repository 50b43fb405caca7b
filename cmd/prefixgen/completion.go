package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/network"
)

// completionScripts are the shell scripts that prefixgen completion prints:
// urfave/cli's, which ask prefixgen itself for the words that may come next
// (prefixgen … --generate-bash-completion), with the program named.
var completionScripts = map[string]string{
	"bash": `# bash completion for prefixgen: source this file, or save it as
# ~/.local/share/bash-completion/completions/prefixgen
_prefixgen_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  if [[ "$cur" == "-"* ]]; then
    words+=("$cur")
  fi
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
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
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
