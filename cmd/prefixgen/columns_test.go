package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/tooltest"
)

// jsonKeys returns the keys of the first object of a JSON array (or of the
// JSON object itself), in document order.
func jsonKeys(t *testing.T, doc string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(doc))
	tok, err := dec.Token()
	require.NoError(t, err)
	if tok == json.Delim('[') {
		tok, err = dec.Token()
		require.NoError(t, err)
	}
	require.Equal(t, json.Delim('{'), tok)
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		require.NoError(t, err)
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return keys
}

var snakeCase = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// Every command's CSV header is its JSON keys, in the same order, every name
// snake_case ASCII and listed once in emit.Columns; no CSV byte is outside
// ASCII.
func TestColumnsAgree(t *testing.T) {
	tests := []struct {
		name string
		args []string
		tool string
	}{
		{"stats", []string{"stats", "-t", "all", "-n", "12"}, ""},
		{"stats one", []string{"stats", "-t", "ladner-fischer", "--param", "k=1", "-n", "12"}, ""},
		{"compare", []string{"compare", "-n", "12"}, ""},
		{"explore", []string{"explore", "-n", "12", "--max-fanout", "4"}, ""},
		{"synth", []string{"synth", "-t", "sklansky", "-n", "4"}, "sta"},
		{"explore synth", []string{"explore", "-n", "3", "--no-optimize", "--synth"}, "sta"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.tool != "" {
				tooltest.Path(t, "yosys")
				tooltest.Path(t, tt.tool)
			}
			status, csvOut, errOut := prefixgen(append(tt.args, "-f", "csv")...)
			require.Equal(t, 0, status, errOut)
			status, jsonOut, errOut := prefixgen(append(tt.args, "-f", "json")...)
			require.Equal(t, 0, status, errOut)
			header, err := csv.NewReader(strings.NewReader(csvOut)).Read()
			require.NoError(t, err)
			assert.Equal(t, header, jsonKeys(t, jsonOut), "CSV header and JSON keys")
			for _, name := range header {
				assert.Regexp(t, snakeCase, name)
				_, ok := emit.LookupColumn(name)
				assert.True(t, ok, "%s is listed in emit.Columns", name)
			}
			for i, b := range []byte(csvOut) {
				if b >= 0x80 {
					t.Fatalf("non-ASCII byte in CSV at %d: %q", i, csvOut[max(0, i-20):min(len(csvOut), i+20)])
				}
			}
		})
	}
}

// emit.Columns holds each name once, snake_case; the table of columns in
// docs/figures.md lists exactly these names, in this order.
func TestColumnsDocumented(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range emit.Columns {
		assert.Regexp(t, snakeCase, c.Name)
		assert.False(t, seen[c.Name], "%s listed twice", c.Name)
		seen[c.Name] = true
		assert.NotEmpty(t, c.Header)
		assert.NotEmpty(t, c.Meaning)
	}
	doc, err := os.ReadFile("../../docs/figures.md")
	require.NoError(t, err)
	_, table, ok := bytes.Cut(doc, []byte("| column | meaning | unit |"))
	require.True(t, ok, "docs/figures.md has the table of columns")
	var names []string
	for _, line := range strings.Split(string(table), "\n")[2:] {
		if !strings.HasPrefix(line, "| `") {
			break
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
		names = append(names, name)
	}
	var want []string
	for _, c := range emit.Columns {
		want = append(want, c.Name)
	}
	assert.Equal(t, want, names)
}
