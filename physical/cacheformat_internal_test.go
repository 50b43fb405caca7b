package physical

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/golden"
)

// cacheReaders are where a cache entry's figures come from, besides what
// the key hashes: the functions that read the tools' reports and reorder
// the gates, and the types an entry is written as, in package physical;
// and, whole, the packages of the module whose values they call methods of
// (DIR.*).
var cacheReaders = []string{"parseStat", "parseTiming", "RedundantArea", "tools.orders", "spreadOf", "cachedResult", "Spread", "physical/bdd.*", "physical/netlist.*", "physical/redundant.*"}

// cacheRunners are the module's packages that run the tools and clean up
// after them: they read no figure, and cacheReaders' hashes leave them out.
var cacheRunners = []string{"internal/toolrun", "internal/cleanup"}

// TestCacheFormatCoversReaders keeps cacheFormat honest. An entry is named
// by what the tools are given, not by how prefixgen reads what they print,
// so a change to the code that reads it would serve old figures from every
// cache unless cacheFormat changes too. testdata/cache-format.golden holds
// cacheFormat and a hash of each function and type of cacheReaders, of
// every function of the module they call, every variable and constant they
// name (the regular expressions that read the reports) and every type of
// another package they name (liberty.Cell, whose fields they read), each
// as its tokens without comments, however laid out. A change to any of them with cacheFormat as it was
// fails, even under -update; after cacheFormat is changed, -update records
// the new hashes.
func TestCacheFormatCoversReaders(t *testing.T) {
	root, module := moduleRoot(t)
	sums := readerSums(t, root, module)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n", cacheFormat)
	names := slices.Sorted(maps.Keys(sums))
	for _, n := range names {
		fmt.Fprintf(&b, "%s %s\n", n, sums[n])
	}
	path := filepath.Join("testdata", "cache-format.golden")
	if old, err := os.ReadFile(path); err == nil {
		format, recorded := parseCacheGolden(string(old))
		if format == cacheFormat {
			changed := changedReaders(recorded, sums)
			require.Empty(t, changed, "what a cache entry holds is read by changed code but cacheFormat (physical/cache.go) is still %q: change it, then refresh %s with %s", cacheFormat, path, golden.Command(t))
		}
	}
	golden.Check(t, path, b.Bytes())
}

// changedReaders returns, sorted, the names whose hashes differ between
// recorded and sums. Names that come or go are not counted: the code that
// calls them has changed too.
func changedReaders(recorded, sums map[string]string) []string {
	var changed []string
	for _, n := range slices.Sorted(maps.Keys(sums)) {
		if sum, ok := recorded[n]; ok && sum != sums[n] {
			changed = append(changed, n)
		}
	}
	return changed
}

// The guard catches a planted change: in a copy of the module's sources, a
// statement added to parseStat changes its hash and no other, a regular
// expression it reads with changes that variable's, and a comment, a
// blank line or a reflowed call changes none.
func TestCacheFormatCatchesAChange(t *testing.T) {
	root, module := moduleRoot(t)
	before := readerSums(t, root, module)
	edit := func(change func(src string) string) map[string]string {
		t.Helper()
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+module+"\n"), 0o644))
		require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			if d.IsDir() {
				if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "docs") {
					return filepath.SkipDir
				}
				return os.MkdirAll(filepath.Join(dir, rel), 0o755)
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			src := string(b)
			if rel == filepath.Join("physical", "tools.go") {
				src = change(src)
			}
			return os.WriteFile(filepath.Join(dir, rel), []byte(src), 0o644)
		}))
		return readerSums(t, dir, module)
	}
	const head = "func parseStat(s string, r *Result) error {\n"
	require.Contains(t, mustRead(t, filepath.Join(root, "physical", "tools.go")), head)
	planted := edit(func(src string) string { return strings.Replace(src, head, head+"\t_ = 1\n", 1) })
	assert.Equal(t, []string{"physical.parseStat"}, changedReaders(before, planted))
	// The regular expression parseStat reads a cell's line with, a
	// variable of the package.
	const pattern = "`^\\s{5,}(\\S+)\\s+(\\d+)\\s*$`"
	require.Contains(t, mustRead(t, filepath.Join(root, "physical", "tools.go")), pattern)
	widened := edit(func(src string) string { return strings.Replace(src, pattern, "`^\\s{4,}(\\S+)\\s+(\\d+)\\s*$`", 1) })
	assert.Equal(t, []string{"physical.statCell"}, changedReaders(before, widened))
	cosmetic := edit(func(src string) string {
		return strings.Replace(src, head, "// A comment.\n\n"+head+"\n\t// Another.\n", 1)
	})
	assert.Empty(t, changedReaders(before, cosmetic))
}

// mustRead returns the text of the file at path.
func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// parseCacheGolden reads a cache-format.golden: its first line, and a hash
// by name from each line after.
func parseCacheGolden(s string) (format string, sums map[string]string) {
	sums = map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(s))
	if sc.Scan() {
		format = sc.Text()
	}
	for sc.Scan() {
		if name, sum, ok := strings.Cut(sc.Text(), " "); ok {
			sums[name] = sum
		}
	}
	return format, sums
}

// readerSums returns the hash of each declaration cacheReaders reach in
// the sources of module under root, under its package's folder and name
// (a method as Type.Name).
func readerSums(t *testing.T, root, module string) map[string]string {
	t.Helper()
	l := &declLoader{t: t, root: root, module: module, pkgs: map[string]*declPackage{}, src: map[string][]byte{}}
	sums := map[string]string{}
	type item struct{ dir, name string }
	var queue []item
	for _, n := range cacheReaders {
		dir, name := "physical", n
		if i := strings.LastIndex(n, "."); strings.Contains(n, "/") && i > 0 {
			dir, name = n[:i], n[i+1:]
		}
		if name != "*" {
			queue = append(queue, item{dir, name})
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(l.load(dir).decls)) {
			queue = append(queue, item{dir, name})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		p := l.load(it.dir)
		key := it.dir + "." + it.name
		if _, done := sums[key]; done {
			continue
		}
		decl, ok := p.decls[it.name]
		require.True(t, ok, "no declaration %s in %s", it.name, it.dir)
		text := l.tokens(decl)
		h := sha256.Sum256(text)
		sums[key] = hex.EncodeToString(h[:8])
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok {
					if dir, ok := p.imports[x.Name]; ok {
						// Another package's function, type, variable or
						// constant, but for the runners': a type's fields
						// read in another package are read here.
						if _, ok := l.load(dir).decls[n.Sel.Name]; ok && !slices.Contains(cacheRunners, dir) {
							queue = append(queue, item{dir, n.Sel.Name})
						}
						return false
					}
				}
				// A field or a method: its name is not one of the
				// package's declarations (methods are followed where
				// they are called).
				ast.Inspect(n.X, visit)
				return false
			case *ast.CallExpr:
				if f, ok := n.Fun.(*ast.Ident); ok {
					if d, ok := p.decls[f.Name]; ok {
						if _, fn := d.(*ast.FuncDecl); fn {
							queue = append(queue, item{it.dir, f.Name})
						}
					}
					return true
				}
				f, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if x, ok := f.X.(*ast.Ident); ok {
					if _, ok := p.imports[x.Name]; ok {
						return true
					}
				}
				// A method: every method of that name in the package, but
				// for the ones every package has. Methods of another
				// package's values are not followed: cacheReaders names
				// those packages whole.
				if f.Sel.Name == "String" || f.Sel.Name == "Error" {
					return true
				}
				for name := range p.decls {
					if strings.HasSuffix(name, "."+f.Sel.Name) {
						queue = append(queue, item{it.dir, name})
					}
				}
			case *ast.Ident:
				// The package's functions where they are called (above),
				// its types where cacheReaders name them, and its
				// variables and constants wherever they are named: a
				// regular expression reads a report as much as a function
				// does.
				if d, ok := p.decls[n.Name]; ok {
					if _, value := d.(*ast.ValueSpec); value {
						queue = append(queue, item{it.dir, n.Name})
					}
				}
			}
			return true
		}
		ast.Inspect(decl, visit)
	}
	return sums
}

// declPackage is one package of the module: its top-level functions,
// methods (Type.Name) and types, comments left out, and the folders of the
// module's packages it imports, by the name it gives them.
type declPackage struct {
	decls   map[string]ast.Node
	imports map[string]string
}

// declLoader parses the module's packages as cacheReaders reach them.
type declLoader struct {
	t            *testing.T
	root, module string
	fset         *token.FileSet
	pkgs         map[string]*declPackage
	src          map[string][]byte // by file name
}

// tokens returns the declaration's tokens one to a line, without its
// comments: what it says, however it is laid out and whichever gofmt
// printed it.
func (l *declLoader) tokens(decl ast.Node) []byte {
	file := l.fset.File(decl.Pos())
	src := l.src[file.Name()][file.Offset(decl.Pos()):file.Offset(decl.End())]
	var sc scanner.Scanner
	fs := token.NewFileSet()
	sc.Init(fs.AddFile("", -1, len(src)), src, func(_ token.Position, msg string) { l.t.Fatalf("%s: %s", file.Name(), msg) }, 0)
	var out []byte
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return out
		}
		if lit == "" || tok == token.SEMICOLON {
			lit = tok.String()
		}
		out = append(append(out, lit...), '\n')
	}
}

// load returns the package in folder dir, relative to the module's root.
func (l *declLoader) load(dir string) *declPackage {
	if p, ok := l.pkgs[dir]; ok {
		return p
	}
	if l.fset == nil {
		l.fset = token.NewFileSet()
	}
	files, err := filepath.Glob(filepath.Join(l.root, dir, "*.go"))
	require.NoError(l.t, err)
	p := &declPackage{decls: map[string]ast.Node{}, imports: map[string]string{}}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(l.t, err)
		l.src[name] = src
		f, err := parser.ParseFile(l.fset, name, src, parser.SkipObjectResolution)
		require.NoError(l.t, err)
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			require.NoError(l.t, err)
			rel, ok := strings.CutPrefix(path, l.module+"/")
			if !ok {
				continue
			}
			local := filepath.Base(rel)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			p.imports[local] = rel
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					name = recvName(d.Recv.List[0].Type) + "." + name
				}
				p.decls[name] = d
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						p.decls[s.Name.Name] = s
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.Name != "_" {
								p.decls[n.Name] = s
							}
						}
					}
				}
			}
		}
	}
	l.pkgs[dir] = p
	return p
}

// recvName returns the type's name of a method's receiver.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// moduleRoot returns the folder holding go.mod, above the working folder,
// and the module's path.
func moduleRoot(t *testing.T) (dir, module string) {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for line := range strings.Lines(string(b)) {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return dir, strings.TrimSpace(m)
				}
			}
			t.Fatalf("%s/go.mod names no module", dir)
		}
		up := filepath.Dir(dir)
		require.NotEqual(t, dir, up, "no go.mod above the working folder")
		dir = up
	}
}
