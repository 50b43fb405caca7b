package main

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		{"optimize", "-n", "3000", "--max-depth", "12"},
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
			// Once as the command, not again; prefixgen.network/v1 and
			// the like are formats.
			assert.Equal(t, 1, strings.Count(stderr, "prefixgen ")+strings.Count(stderr, "prefixgen:"), "%q", stderr)
		})
	}
}

// Bad input in a network file is exit status 2 for every command and
// format, and input echoed in an error is cut to a readable length.
func TestLongInputEchoedShort(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 3000)
	file := filepath.Join(dir, "long.json")
	require.NoError(t, os.WriteFile(file, []byte(`{"format":"prefixgen.network/v1","width":2,"topology":"`+long+`","params":{},"cells":[[0,1]],"outputs":[0,2]}`), 0o644))
	bom := filepath.Join(dir, "bom.json")
	require.NoError(t, os.WriteFile(bom, []byte("\ufeff"+`{"format":"prefixgen.network/v1","width":1,"cells":[],"outputs":[0]}`), 0o644))
	twice := filepath.Join(dir, "twice.json")
	require.NoError(t, os.WriteFile(twice, []byte(`{"format":"prefixgen.network/v1","width":1,"width":1,"cells":[],"outputs":[0]}`), 0o644))
	tests := [][]string{
		{"gen", "--from", file, "-f", "verilog"},
		{"gen", "--from", file, "-f", "yosys-lcu"},
		{"gen", "--from", file, "-f", "svg"},
		{"gen", "--from", file, "-f", "json"},
		{"stats", "--from", file},
		{"verify", "--from", file},
		{"cuda", "emit", "--from", file},
		{"gen", "--from", bom},
		{"stats", "--from", twice},
		{"gen", "-t", long, "-n", "8"},
		{"gen", "-t", "sklansky", "-n", "8", "-f", long},
		{"gen", "-t", "ladner-fischer", "-n", "8", "--param", long + "=1"},
		{"gen", "-t", "ladner-fischer", "-n", "8", "--param", "k=" + long},
		{"gen", "-t", "sklansky", "-n", "8", "-f", "verilog", "--module", long},
		{long},
		{"list", long},
		{"stats", "-t", "sklansky", "-n", "8", "-f", long},
		{"optimize", "-n", "8", "--max-depth", "3", "-f", long},
		{"explore", "-n", "8", "-f", long},
		{"gen", "-t", "sklansky", "-f", "yosys-lcu", "--widths", "1-" + long},
		{"gen", "-t", "sklansky", "-n", "4", "-f", "verilog", "--pg-cells", "--liberty", long},
	}
	for i, args := range tests {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			status, stdout, stderr := prefixgen(args...)
			assert.Equal(t, 2, status, stderr)
			assert.Empty(t, stdout)
			assert.Equal(t, 1, strings.Count(stderr, "\n"))
			assert.Less(t, len(stderr), 300, stderr)
		})
	}
	_, _, stderr := prefixgen("stats", "--from", file)
	assert.Equal(t, "prefixgen stats: "+file+`: topology name "`+long[:40]+`…" (3000 bytes) not allowed: a name is at most 64 characters a-z, 0-9, '-' and '_', starting with a letter`+"\n", stderr)
	_, _, stderr = prefixgen("gen", "--from", bom)
	assert.Equal(t, "prefixgen gen: "+bom+": the file starts with a UTF-8 byte-order mark (EF BB BF): save it as UTF-8 without one\n", stderr)
	_, _, stderr = prefixgen("stats", "--from", twice)
	assert.Equal(t, "prefixgen stats: "+twice+`: key "width" appears twice in the document: each key once`+"\n", stderr)
	// An adder document's reader is package adder's: no name either.
	v2 := filepath.Join(t.TempDir(), "v2.json")
	require.NoError(t, os.WriteFile(v2, []byte(`{"format":"prefixgen.network/v2"}`), 0o644))
	_, _, stderr = prefixgen("stats", "--from", v2)
	assert.Equal(t, "prefixgen stats: "+v2+`: format "prefixgen.network/v2" is not supported: want "prefixgen.network/v1" or "prefixgen.adder/v1"`+"\n", stderr)
}

// message drops every leading package name of the module after
// "prefixgen CMD: ", however many there are.
func TestMessageDropsPackageNames(t *testing.T) {
	tests := []struct{ err, want string }{
		{"prefixgen synth: physical: Liberty file x cannot be read", "prefixgen synth: Liberty file x cannot be read"},
		{"prefixgen stats: topologies: unknown topology \"x\"", "prefixgen stats: unknown topology \"x\""},
		{"prefixgen check: toolcheck: physical: yosys failed", "prefixgen check: yosys failed"},
		{"prefixgen optimize: optimize: width 300 out of range", "prefixgen optimize: width 300 out of range"},
		{"prefixgen cuda emit: warp: emit: too wide", "prefixgen cuda emit: too wide"},
		{"topologies: unknown topology \"x\"", "prefixgen: unknown topology \"x\""},
		{"prefixgen stats: f.json: network: bad", "prefixgen stats: f.json: network: bad"},
		{"prefixgen gen: unknown format \"x\"", "prefixgen gen: unknown format \"x\""},
		{"prefixgen gen: networks: not a package", "prefixgen gen: networks: not a package"},
		{"prefixgen map: designmap: yosys ran past its time limit\ndesignmap: sta failed", "prefixgen map: yosys ran past its time limit; sta failed"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, message(errors.New(tt.err)), tt.err)
	}
}

// No user message names a package of the module.
func TestNoPackageNameInMessages(t *testing.T) {
	dir := t.TempDir()
	tests := [][]string{
		{"stats", "-t", "kogge-stne", "-n", "8"},
		{"stats", "-t", "sklansky", "-n", "8", "--param", "k=1"},
		{"gen", "-t", "ladner-fischer", "-n", "8", "--param", "k=x"},
		{"synth", "-t", "sklansky", "-n", "8", "--liberty", filepath.Join(dir, "none.lib")},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			status, _, stderr := prefixgen(args...)
			assert.Equal(t, 2, status, stderr)
			m := commandPrefix.FindStringSubmatch(stderr)
			require.NotNil(t, m, stderr)
			assert.NotContains(t, modulePackages, m[2], stderr)
		})
	}
}

// TestMessageEscapesNames: a file name with control characters or bytes
// that are not UTF-8 reaches the terminal escaped, as Go writes them: an
// escape sequence in a name had recoloured the terminal or rewritten the
// line.
func TestMessageEscapesNames(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "q\x1b[7mz\xff.json")
	for _, args := range [][]string{
		{"gen", "--from", name},
		{"gen", "-t", "ripple", "-n", "4", "-o", filepath.Join(name, "out.v")},
		{"synth", "-t", "ripple", "-n", "4", "--liberty", name},
	} {
		status, _, stderr := prefixgen(args...)
		assert.Equal(t, 2, status, args)
		assert.NotContains(t, stderr, "\x1b", args)
		assert.True(t, utf8.ValidString(stderr), "%q", stderr)
		assert.Contains(t, stderr, `q\x1b[7mz\xff.json`, args)
	}
}

// The row a --with file gives, and a report's section, show its name
// escaped: a name with an escape sequence or a line break had broken the
// table's row.
func TestWithNameEscaped(t *testing.T) {
	assert.Equal(t, `n4\x1b[31mesc`, withName("dir/n4\x1b[31mesc.json"))
	assert.Equal(t, `n4\nnl`, withName("dir/n4\nnl.json"))
	assert.Equal(t, "plain", withName("dir/plain.json"))
}
