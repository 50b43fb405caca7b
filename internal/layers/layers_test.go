package layers_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/layers"
	"github.com/prefixgen/prefixgen/internal/tooltest"
)

const module = "github.com/prefixgen/prefixgen"

// moduleImports returns the module's packages and the module's packages
// each imports (tests aside), as go list -deps -json reports them.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := tooltest.Command(t, "go", "list", "-deps", "-json", "./...")
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	imports := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		require.NoError(t, dec.Decode(&p))
		rel, ok := relative(p.ImportPath)
		if !ok {
			continue
		}
		deps := []string{}
		for _, imp := range p.Imports {
			if r, ok := relative(imp); ok {
				deps = append(deps, r)
			}
		}
		imports[rel] = deps
	}
	return imports
}

func relative(path string) (string, bool) {
	if path == module {
		return ".", true
	}
	return strings.CutPrefix(path, module+"/")
}

// TestModule holds the module's own imports to docs/architecture.md.
func TestModule(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	require.NoError(t, err)
	order, err := layers.Parse(doc)
	require.NoError(t, err)
	imports := moduleImports(t)
	require.Contains(t, imports, "network", "go list found the module's packages")
	assert.Empty(t, order.Check(imports), "imports against docs/architecture.md")
}

// TestCheck shows the check failing on the imports it exists to catch.
func TestCheck(t *testing.T) {
	doc := []byte("# house\n\n```\nfloor  packages\n3      top\n2      mid  tools/...  tools/leaf\n1      network  internal/...\n```\n")
	order, err := layers.Parse(doc)
	require.NoError(t, err)
	tests := []struct {
		name    string
		imports map[string][]string
		want    []string
	}{
		{name: "down", imports: map[string][]string{"top": {"mid", "network"}, "mid": {"network", "internal/x"}}},
		{name: "within a pattern", imports: map[string][]string{"tools": {"tools/block"}, "tools/block": {"network"}}},
		{name: "up", imports: map[string][]string{"network": {"mid"}},
			want: []string{"network (floor 1) imports mid (floor 2): an import points to a lower floor"}},
		{name: "sideways", imports: map[string][]string{"mid": {"tools"}},
			want: []string{"mid (floor 2) imports tools (floor 2): an import points to a lower floor"}},
		{name: "a longer pattern stands apart", imports: map[string][]string{"tools": {"tools/leaf"}},
			want: []string{"tools (floor 2) imports tools/leaf (floor 2): an import points to a lower floor"}},
		{name: "unplaced", imports: map[string][]string{"newpkg": {"network"}},
			want: []string{"newpkg is on no floor of docs/architecture.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, order.Check(tt.imports))
		})
	}
}

// TestParse refuses tables it cannot read.
func TestParse(t *testing.T) {
	for _, doc := range []string{
		"no table",
		"```\nfloor  packages\nx network\n```\n",
		"```\nfloor  packages\n1 network\n2 network\n```\n",
		"```\nfloor  packages\n0 network\n```\n",
	} {
		_, err := layers.Parse([]byte(doc))
		assert.Error(t, err, doc)
	}
}

// Every package whose tests may write a library for the tools (whose test
// binary links package pdk) removes what they wrote when they end: its
// TestMain calls tooltest.Main, or cleanup.RemoveAll as prefixgen's main
// does. Without it each run of its tests left a folder of libraries (up to
// 48 MB) in the temporary directory.
func TestTestsRemoveLibraries(t *testing.T) {
	cmd := tooltest.Command(t, "go", "list", "-test", "-f", "{{.ImportPath}}|{{.Dir}}|{{join .Deps \" \"}}", "./...")
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "go list: %s", stderr.String())
	checked := 0
	for line := range strings.Lines(string(out)) {
		path, rest, _ := strings.Cut(strings.TrimSpace(line), "|")
		dir, deps, _ := strings.Cut(rest, "|")
		if !strings.HasSuffix(path, ".test") || !slices.Contains(strings.Fields(deps), module+"/physical/pdk") {
			continue
		}
		checked++
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		require.NoError(t, err)
		cleans := false
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			s := string(data)
			cleans = cleans || strings.Contains(s, "func TestMain(") && (strings.Contains(s, "tooltest.Main(m)") || strings.Contains(s, "cleanup.RemoveAll()"))
		}
		assert.True(t, cleans, "%s: its tests link package pdk, and no TestMain removes the libraries they write (call tooltest.Main)", strings.TrimSuffix(path, ".test"))
	}
	assert.Positive(t, checked, "no test binary links package pdk")
}
