package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goalCommandsEnv runs TestGoalCommands when it is "1": every adder of
// docs/goals found again by the commands the documents show for it, which
// takes hours of syntheses, so neither go test ./... nor CI's claims step
// runs it; -run 'TestGoalCommands/NAME' picks one goal.
const goalCommandsEnv = "PREFIXGEN_GOAL_COMMANDS"

// shellVar matches a variable set on a line of its own in a code block
// (N45=../shared/pdk/…), which later commands of the block read as $N45.
var shellVar = regexp.MustCompile(`^([A-Z][A-Z0-9_]*)=(\S+)$`)

// blockCommand is a prefixgen command of a document's code block: its
// arguments, the file it writes (-o) and the .json files it reads.
type blockCommand struct {
	args   []string
	output string
	inputs []string
}

// goalCommands returns the prefixgen commands of a Markdown document's
// code blocks, in order, each block's variables expanded in its commands.
func goalCommands(md string) []blockCommand {
	var (
		cmds  []blockCommand
		vars  map[string]string
		fence bool
	)
	for line := range strings.Lines(md) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "```") {
			fence, vars = !fence, map[string]string{}
			continue
		}
		if !fence {
			continue
		}
		if m := shellVar.FindStringSubmatch(line); m != nil {
			vars[m[1]] = m[2]
			continue
		}
		m := docCommand.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		c := blockCommand{}
		for i, a := range strings.Fields(m[1]) {
			if strings.HasPrefix(a, "$") && vars[a[1:]] != "" {
				a = vars[a[1:]]
			}
			c.args = append(c.args, a)
			switch prev := c.args[max(i-1, 0)]; {
			case i > 0 && (prev == "-o" || prev == "--output"):
				c.output = a
			case strings.HasSuffix(a, ".json"):
				c.inputs = append(c.inputs, strings.Split(a, ",")...)
			}
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// goalChain returns the commands that make the file named target: the
// last command of the documents whose -o names it, and before it, in their
// order, the commands of the same document that last wrote the files it
// reads before it, and theirs. Files under docs/ are read from the
// repository. It returns an error naming a file no command before writes.
func goalChain(docs [][]blockCommand, target string) ([]blockCommand, error) {
	for d := len(docs) - 1; d >= 0; d-- {
		cmds := docs[d]
		last := -1
		for i, c := range cmds {
			if c.output == target {
				last = i
			}
		}
		if last < 0 {
			continue
		}
		need := map[int]bool{last: true}
		for i := last; i >= 0; i-- {
			if !need[i] {
				continue
			}
			for _, in := range cmds[i].inputs {
				if strings.HasPrefix(in, "docs/") {
					continue
				}
				w := -1
				for j := i - 1; j >= 0 && w < 0; j-- {
					if cmds[j].output == in {
						w = j
					}
				}
				if w < 0 {
					return nil, fmt.Errorf("%s reads %s, which no command before it writes", target, in)
				}
				need[w] = true
			}
		}
		var chain []blockCommand
		for i := 0; i <= last; i++ {
			if need[i] {
				chain = append(chain, cmds[i])
			}
		}
		return chain, nil
	}
	return nil, fmt.Errorf("no command of the documents writes %s", target)
}

// foundAt names, for the goals whose documented commands have found
// another adder since the search changed, the commit of prefixgen at
// which they find the goal (docs/libraries.md says so beside them). At
// e7e6ab8 (2026-11-28) the flow searches began to measure the radix-3 and
// radix-4 networks, which then take a start of the search where they are
// within its delay bound (933051a is the commit before). Where the
// commands find an adder that meets the goal better today, the goal file
// is that adder instead (docs/testing.md).
var foundAt = map[string]string{
	"asap7-fast-abc-32.json":            "933051a",
	"asap7-fast-abc-64-sparse.json":     "933051a",
	"nangate45-fast-abc-64-sparse.json": "933051a",
	"sky130hd-fast-abc-32.json":         "933051a",
}

// Every adder of docs/goals that the documents show commands for is
// found again, byte for byte, by those commands: the searches are
// deterministic, and a change to the search that finds another adder
// shows here. Run with PREFIXGEN_GOAL_COMMANDS=1, one goal at a time
// (-run 'TestGoalCommands/^asap7-fast-abc-64.json$'): some chains take an
// hour. The commands run from a folder beside a link to the repository's
// docs/ and to ../shared, as the documents run them from the root.
func TestGoalCommands(t *testing.T) {
	if os.Getenv(goalCommandsEnv) != "1" {
		t.Skipf("runs the searches that found the adders of docs/goals: run with %s=1", goalCommandsEnv)
	}
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	var cmds [][]blockCommand
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		cmds = append(cmds, goalCommands(string(data)))
	}
	goals, err := filepath.Glob("../../docs/goals/*.json")
	require.NoError(t, err)
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	for _, goal := range goals {
		name := filepath.Base(goal)
		t.Run(name, func(t *testing.T) {
			if c, ok := foundAt[name]; ok {
				t.Skipf("its commands find it with prefixgen at %s, not since", c)
			}
			chain, err := goalChain(cmds, name)
			if err != nil {
				t.Skip(err)
			}
			top := t.TempDir()
			dir := filepath.Join(top, "prefixgen")
			require.NoError(t, os.Mkdir(dir, 0o755))
			require.NoError(t, os.Symlink(filepath.Join(root, "docs"), filepath.Join(dir, "docs")))
			if shared, err := filepath.Abs(filepath.Join(root, "..", "shared")); err == nil {
				require.NoError(t, os.Symlink(shared, filepath.Join(top, "shared")))
			}
			for _, c := range chain {
				t.Logf("prefixgen %s", strings.Join(c.args, " "))
				cmd := exec.Command(os.Args[0], c.args...)
				cmd.Env = append(os.Environ(), mainEnv+"=1")
				cmd.Dir = dir
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				require.NoError(t, cmd.Run(), "prefixgen %s: %s", strings.Join(c.args, " "), stderr.String())
			}
			want, err := os.ReadFile(goal)
			require.NoError(t, err)
			got, err := os.ReadFile(filepath.Join(dir, name))
			require.NoError(t, err)
			if !bytes.Equal(want, got) {
				t.Errorf("the documented commands find another adder than docs/goals/%s: %s", name, firstDiff(want, got))
			}
		})
	}
}

// firstDiff describes where two documents first differ: the line of each.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := range min(len(w), len(g)) {
		if w[i] != g[i] {
			return fmt.Sprintf("line %d is %q, docs/goals has %q", i+1, strings.TrimSpace(g[i]), strings.TrimSpace(w[i]))
		}
	}
	return fmt.Sprintf("%d lines, docs/goals has %d", len(g), len(w))
}

func TestGoalChain(t *testing.T) {
	md := "```\nN45=../shared/n45.lib.gz\nprefixgen gen -t ripple -n 8 -f json -o r.json\n" +
		"prefixgen optimize -n 8 --max-area-um2 9 --liberty $N45 -o other.json\n" +
		"prefixgen optimize -n 8 --max-area-um2 9 --start r.json,docs/goals/x.json -o a.json\n```\ntext\n```\n" +
		"prefixgen optimize -n 8 --max-delay-ns 1 --liberty $N45 --start a.json --start r.json -o goal.json\n```\n" +
		"```\nprefixgen optimize -n 8 --max-delay-ns 1 --start missing.json -o lost.json\n```\n"
	cmds := goalCommands(md)
	require.Len(t, cmds, 5)
	assert.Equal(t, []string{"-n", "8", "--max-area-um2", "9", "--liberty", "../shared/n45.lib.gz", "-o", "other.json"}, cmds[1].args[1:])
	assert.Contains(t, cmds[3].args, "$N45", "a variable is the block's own")
	docs := [][]blockCommand{cmds}
	chain, err := goalChain(docs, "goal.json")
	require.NoError(t, err)
	var outs []string
	for _, c := range chain {
		outs = append(outs, c.output)
	}
	assert.Equal(t, []string{"r.json", "a.json", "goal.json"}, outs)
	_, err = goalChain(docs, "lost.json")
	assert.EqualError(t, err, "lost.json reads missing.json, which no command before it writes")
	_, err = goalChain(docs, "nowhere.json")
	assert.EqualError(t, err, "no command of the documents writes nowhere.json")
	assert.Equal(t, `line 2 is "\"sparse\": 4,", docs/goals has "\"sparse\": 2,"`, firstDiff([]byte("{\n\"sparse\": 2,\n}"), []byte("{\n  \"sparse\": 4,\n}")))
	assert.Equal(t, "2 lines, docs/goals has 3", firstDiff([]byte("a\nb\nc"), []byte("a\nb")))
}
