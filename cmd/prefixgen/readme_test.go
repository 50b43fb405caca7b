package main

import (
	"fmt"
	"os"
	"path/filepath"
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

// docLink matches a Markdown link or image that is not to the web: its
// target, a file relative to the document, an anchor, or both.
var docLink = regexp.MustCompile(`\]\(([^)\s#:]*)(?:#([^)\s]+))?\)`)

// maxReadmeLines is the most lines the README, a user's guide, may have.
const maxReadmeLines = 300

// The README is a short guide: its contents list every second-level
// heading, in order, and it has at most maxReadmeLines lines.
func TestReadmeContents(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	readme := string(data)
	assert.LessOrEqual(t, strings.Count(readme, "\n"), maxReadmeLines, "the README's lines")
	var sections []string
	for _, h := range readmeHeadings(readme) {
		if h.level == 2 {
			sections = append(sections, fmt.Sprintf("- [%s](#%s)", h.text, h.anchor))
		}
	}
	_, contents, ok := strings.Cut(readme, "Contents:\n\n")
	require.True(t, ok, "the README has its contents")
	contents, _, _ = strings.Cut(contents, "\n\n")
	assert.Equal(t, strings.Join(sections, "\n"), contents)
}

// Every link of the README and of docs/*.md leads to a file that exists,
// and an anchor to a heading of its document.
func TestDocLinks(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	docs = append(docs, "../../README.md")
	anchors := map[string]map[string]bool{}
	headingsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		a := map[string]bool{}
		for _, h := range readmeHeadings(string(data)) {
			a[h.anchor] = true
		}
		anchors[path] = a
		return a
	}
	links := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, m := range docLink.FindAllStringSubmatch(withoutCode(string(data)), -1) {
			links++
			target := doc
			if m[1] != "" {
				target = filepath.Join(filepath.Dir(doc), m[1])
				if _, err := os.Stat(target); !assert.NoError(t, err, "%s links to %s", doc, m[1]) {
					continue
				}
			}
			if m[2] != "" {
				assert.True(t, headingsOf(target)[m[2]], "%s links to %s#%s, which no heading has", doc, m[1], m[2])
			}
		}
	}
	assert.Greater(t, links, 20, "links found")
}

// withoutCode returns md with its fenced code blocks blanked.
func withoutCode(md string) string {
	var b strings.Builder
	fence := false
	for line := range strings.Lines(md) {
		if strings.HasPrefix(line, "```") {
			fence = !fence
			continue
		}
		if !fence {
			b.WriteString(line)
		}
	}
	return b.String()
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

// TestGPUResultsTables: the tables docs/gpu-results.md gives are what cuda
// report prints of its four reports, as the page says; a table cuda report
// gained had been missing from them.
func TestGPUResultsTables(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "gpu-results.md"))
	require.NoError(t, err)
	_, tables, ok := strings.Cut(string(doc), "\n## The tables\n\n")
	require.True(t, ok, "docs/gpu-results.md has its section of tables")
	args := []string{"cuda", "report"}
	for _, name := range []string{"int32-add-cuda13.0", "int32-add-cuda11.8", "int64-add-cuda13.0", "int64-add-cuda11.8"} {
		args = append(args, filepath.Join("..", "..", "docs", "bench", "h200-"+name+".json"))
	}
	status, out, stderr := prefixgen(args...)
	require.Equal(t, 0, status, stderr)
	assert.Equal(t, out, tables, "docs/gpu-results.md's tables against cuda report's")
}
