package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// docCommand matches a prefixgen command line in a code block, as the
// README and docs/ write it.
var docCommand = regexp.MustCompile(`^(?:go run \./cmd/prefixgen|prefixgen) (.*)$`)

// placeholder matches an argument that stands for a value (N, TOPO, …) or
// an optional part ([--flag]): a synopsis, not a command.
var placeholder = regexp.MustCompile(`[\[…]|(^|\s)[A-Z][A-Z0-9]*(\s|$|,)|\|\S`)

// cheapCommands are the commands whose shown uses run in a second or two
// without outside tools; synthesis, checks and GPU benchmarks are tested
// where their packages are.
var cheapCommands = []string{"list", "gen", "stats", "compare", "verify", "explore", "optimize", "cuda emit", "cuda report"}

// docCommands returns the cheap command lines of a Markdown document's code
// blocks that seen does not hold, each as its arguments, in order, and adds
// them to seen.
func docCommands(md string, seen map[string]bool) [][]string {
	var cmds [][]string
	fence := false
	for line := range strings.Lines(md) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		m := docCommand.FindStringSubmatch(line)
		if !fence || m == nil {
			continue
		}
		cmd, _, _ := strings.Cut(m[1], " # ")
		cmd, _, _ = strings.Cut(cmd, " | ")
		cmd, _, _ = strings.Cut(cmd, " && ")
		cmd = strings.TrimSpace(cmd)
		if strings.HasSuffix(cmd, `\`) || placeholder.MatchString(cmd) || seen[cmd] {
			continue
		}
		seen[cmd] = true
		args := strings.Fields(cmd)
		word := args[0]
		if word == "cuda" && len(args) > 1 {
			word += " " + args[1]
		}
		if !slices.Contains(cheapCommands, word) || slices.Contains(args, "--synth") ||
			slices.ContainsFunc(args, func(a string) bool { return a == "--max-delay-ns" || a == "--max-area-um2" }) {
			continue
		}
		cmds = append(cmds, args)
	}
	return cmds
}

// ownNetwork is the network file the README shows, which the documents'
// commands read as mine.json and mynet.json.
const ownNetwork = `{"format":"prefixgen.network/v1","width":4,"topology":"mine","params":{},
 "cells":[[0,1],[2,3],[4,5],[4,2]],"outputs":[0,4,7,6]}
`

// Every cheap command the README and docs/ show runs and succeeds, so that
// none goes stale. They run in the documents' order, in one folder, each
// once: a later one may read what an earlier one wrote (optimize -o
// best.json, then gen --from best.json). A command that reads a report only
// a GPU writes is left out when that report is not there.
func TestSweepDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command the documents show")
	}
	tooltest.SweepOnly(t) // a hundred commands, Yosys behind many
	t.Parallel()
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	docs = append([]string{"../../README.md"}, docs...)
	dir := t.TempDir()
	for _, name := range []string{"mine.json", "mynet.json"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(ownNetwork), 0o644))
	}
	// The documents' commands run from the repository's root, where
	// docs/arrivals/ramp32.json is what they name; what they write under
	// docs/ stays in the test's folder.
	arrivals, err := filepath.Abs("../../docs/arrivals")
	require.NoError(t, err)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "docs"), 0o755))
	require.NoError(t, os.Symlink(arrivals, filepath.Join(dir, "docs", "arrivals")))
	seen := map[string]bool{}
	total := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, args := range docCommands(string(data), seen) {
			total++
			if args[0] == "cuda" && args[1] == "report" && missingInput(dir, args[2:]) {
				continue
			}
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), mainEnv+"=1")
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			assert.NoError(t, cmd.Run(), "%s: prefixgen %s: %s", filepath.Base(doc), strings.Join(args, " "), stderr.String())
		}
	}
	assert.Greater(t, total, 50, "commands found in the documents")
}

// missingInput reports whether one of the files args names (an argument
// ending in .json that is not a flag's) is not in dir.
func missingInput(dir string, args []string) bool {
	for i, a := range args {
		if strings.HasSuffix(a, ".json") && (i == 0 || !strings.HasPrefix(args[i-1], "-")) {
			if _, err := os.Stat(filepath.Join(dir, a)); err != nil {
				return true
			}
		}
	}
	return false
}

// The README's compare table is what compare prints.
func TestReadmeCompare(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(data), "`compare`\nprints:\n\n```\n")
	require.True(t, ok, "the README shows compare's output")
	shown, _, _ := strings.Cut(rest, "```\n")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"prefixgen", "compare"}, &stdout, &stderr), stderr.String())
	assert.Equal(t, stdout.String(), shown)
}

func TestDocCommandsFound(t *testing.T) {
	md := "```\ngo run ./cmd/prefixgen gen -t sklansky -n 16 -f dot | neato -n2 -Tsvg > x.svg   # a picture\n" +
		"prefixgen synth -t all -n 64\nprefixgen gen     -t TOPO -n N [--param k=V]\nprefixgen stats -t all -n 8\n" +
		"prefixgen stats -t all -n 8\nprefixgen explore -n 8 --synth\nprefixgen cuda emit -t sklansky\n```\nprefixgen list\n"
	seen := map[string]bool{"cuda emit -t sklansky": true}
	assert.Equal(t, [][]string{{"gen", "-t", "sklansky", "-n", "16", "-f", "dot"}, {"stats", "-t", "all", "-n", "8"}}, docCommands(md, seen))
}
