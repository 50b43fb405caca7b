package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// headingAnchor returns the anchor GitHub gives a Markdown heading's text:
// lower case, every character but letters, marks, numbers, connecting
// punctuation (such as underscores), hyphens and spaces dropped, spaces
// turned into hyphens.
func headingAnchor(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.Pc):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// readmeHeading is a heading of the README outside its code blocks.
type readmeHeading struct {
	level  int
	text   string
	anchor string // unique: a repeated anchor gets -1, -2, … as on GitHub
}

// readmeHeadings returns the README's headings in order.
func readmeHeadings(readme string) []readmeHeading {
	var out []readmeHeading
	seen := map[string]int{}
	fence := false
	for line := range strings.Lines(readme) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		level := len(line) - len(strings.TrimLeft(line, "#"))
		if fence || level == 0 || !strings.HasPrefix(line[level:], " ") {
			continue
		}
		text := strings.TrimSpace(line[level:])
		a := headingAnchor(text)
		if n := seen[a]; n > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, n)
		} else {
			seen[a] = 1
		}
		out = append(out, readmeHeading{level, text, a})
	}
	return out
}

// readmeLink matches a link to a place in the README itself.
var readmeLink = regexp.MustCompile(`\]\(#([^)\s]+)\)`)

// Every link within the README leads to one of its headings, and its
// contents list every second-level heading, in order.
func TestReadmeLinks(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := string(data)
	headings := readmeHeadings(readme)
	require.NotEmpty(t, headings)
	anchors := map[string]bool{}
	var sections []string
	for _, h := range headings {
		anchors[h.anchor] = true
		if h.level == 2 {
			sections = append(sections, fmt.Sprintf("- [%s](#%s)", h.text, h.anchor))
		}
	}
	links := readmeLink.FindAllStringSubmatch(readme, -1)
	require.NotEmpty(t, links)
	for _, m := range links {
		assert.True(t, anchors[m[1]], "the README links to #%s, which no heading has", m[1])
	}

	_, contents, ok := strings.Cut(readme, "Contents:\n\n")
	require.True(t, ok, "the README has its contents")
	contents, _, _ = strings.Cut(contents, "\n\n")
	assert.Equal(t, strings.Join(sections, "\n"), contents)
}

func TestHeadingAnchor(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"Two commands", "two-commands"},
		{"Ling's pseudo-carries: `--ling`", "lings-pseudo-carries---ling"},
		{"GPU: CUDA warp, block and device-wide scans", "gpu-cuda-warp-block-and-device-wide-scans"},
		{"Area–delay", "areadelay"},
		{"snake_case and µm²", "snake_case-and-µm²"},
	} {
		assert.Equal(t, tt.want, headingAnchor(tt.text), tt.text)
	}
}
