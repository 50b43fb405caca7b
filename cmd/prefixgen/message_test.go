package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// commandPrefix splits a line of standard error into the command it names
// and the first word of its reason when that word ends in a colon.
var commandPrefix = regexp.MustCompile(`^prefixgen((?: [a-z]+)*): (?:([a-z0-9_]+): )?`)

// doubledPrefix reports the word a message repeats from its command's name
// ("prefixgen optimize: …"), or "".
func doubledPrefix(line string) string {
	m := commandPrefix.FindStringSubmatch(line)
	if m == nil || m[2] == "" {
		return ""
	}
	for _, w := range strings.Fields(m[1]) {
		if w == m[2] {
			return w
		}
	}
	return ""
}

func TestDoubledPrefix(t *testing.T) {
	assert.Equal(t, "optimize", doubledPrefix("prefixgen optimize: optimize: width 300 out of range"))
	assert.Equal(t, "emit", doubledPrefix("prefixgen cuda emit: emit: cannot write x"))
	assert.Equal(t, "", doubledPrefix("prefixgen gen: emit: cannot write x"))
	assert.Equal(t, "", doubledPrefix("prefixgen optimize: width 300 out of range"))
}

// No command's error repeats the command's name as a package prefix, and
// every one starts with the command's full name once.
func TestNoDoubledPrefix(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such", "file")
	tests := [][]string{
		{"list", "x"},
		{"gen", "-t", "sklansky", "-n", "0"},
		{"gen", "-t", "sklansky", "-n", "8", "-o", missing},
		{"gen", "--from", missing},
		{"stats", "-t", "x", "-n", "3"},
		{"stats", "-t", "sklansky", "-n", "8", "-o", missing},
		{"verify", "-t", "sklansky", "-n", "0"},
		{"compare", "-n", "0"},
		{"compare", "-n", "8", "-o", missing},
		{"check", "-t", "sklansky", "-n", "100000"},
		{"optimize", "-n", "300", "--max-depth", "9"},
		{"optimize", "-n", "32", "--max-depth", "2"},
		{"optimize", "-n", "32", "--max-depth", "5", "--max-fanout", "1"},
		{"optimize", "-n", "8", "--max-depth", "3", "-o", missing},
		{"explore", "-n", "0"},
		{"explore", "-n", "8", "--max-fanout", "1", "--no-optimize"},
		{"explore", "-n", "8", "--no-optimize", "--plot", missing + ".svg"},
		{"report", "-n", "0"},
		{"report", "-n", "8", "--no-optimize", "-o", missing},
		{"cuda", "emit", "-t", "sklansky", "-o", missing},
		{"cuda", "emit", "-t", "sklansky", "--type", "float", "--op", "and"},
		{"cuda", "bench", "-t", "sklansky", "--runs", "1"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			status, _, stderr := prefixgen(args...)
			assert.NotEqual(t, 0, status)
			name := "prefixgen " + args[0]
			if args[0] == "cuda" {
				name += " " + args[1]
			}
			assert.True(t, strings.HasPrefix(stderr, name+": "), "%q names its command", stderr)
			assert.Empty(t, doubledPrefix(stderr), "%q", stderr)
			assert.Equal(t, 1, strings.Count(stderr, "prefixgen"), "%q", stderr)
		})
	}
}
