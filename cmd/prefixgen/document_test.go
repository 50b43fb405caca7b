package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
)

// writeDoc writes what gen prints for args to a file and returns its path.
func writeDoc(t *testing.T, args ...string) (path, doc string) {
	t.Helper()
	status, out, errOut := prefixgen(append([]string{"gen"}, args...)...)
	require.Equal(t, 0, status, errOut)
	path = filepath.Join(t.TempDir(), "adder.json")
	require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
	return path, out
}

// gen -f json with --sparse, --valency or --ling writes the adder document,
// and every --from then builds that adder: the same Verilog, figures and
// document as the flags give.
func TestAdderDocument(t *testing.T) {
	path, doc := writeDoc(t, "-t", "brent-kung", "-n", "16", "--sparse", "2", "--ling", "-f", "json")
	assert.True(t, strings.HasPrefix(doc, "{\n  \"format\": \"prefixgen.adder/v1\",\n  \"sparse\": 2,\n  \"valency\": 2,\n  \"ling\": true,\n  \"network\": {\n"), doc)

	same := []struct {
		name       string
		from, flag []string
	}{
		{"json", []string{"gen", "--from", path, "-f", "json"}, []string{"gen", "-t", "brent-kung", "-n", "16", "--sparse", "2", "--ling", "-f", "json"}},
		{"verilog", []string{"gen", "--from", path, "-f", "verilog"}, []string{"gen", "-t", "brent-kung", "-n", "16", "--sparse", "2", "--ling", "-f", "verilog"}},
		{"vhdl", []string{"gen", "--from", path, "-f", "vhdl"}, []string{"gen", "-t", "brent-kung", "-n", "16", "--sparse", "2", "--ling", "-f", "vhdl"}},
		{"testbench", []string{"gen", "--from", path, "-f", "verilog", "--testbench"}, []string{"gen", "-t", "brent-kung", "-n", "16", "--sparse", "2", "--ling", "-f", "verilog", "--testbench"}},
		{"the flag agrees", []string{"gen", "--from", path, "-f", "verilog", "--sparse", "2"}, []string{"gen", "-t", "brent-kung", "-n", "16", "--sparse", "2", "--ling", "-f", "verilog"}},
		{"svg: the network", []string{"gen", "--from", path, "-f", "svg"}, []string{"gen", "-t", "brent-kung", "-n", "16", "-f", "svg"}},
		{"stats: the adder's", []string{"stats", "--from", path, "-f", "csv"}, []string{"stats", "-t", "brent-kung", "-n", "16", "--sparse", "2", "-f", "csv"}},
	}
	for _, tt := range same {
		t.Run(tt.name, func(t *testing.T) {
			status, want, errOut := prefixgen(tt.flag...)
			require.Equal(t, 0, status, errOut)
			status, got, errOut := prefixgen(tt.from...)
			require.Equal(t, 0, status, errOut)
			assert.Equal(t, want, got)
		})
	}

	// A $lcu techmap is a carry tree alone: an adder document's adder
	// does not fit one.
	status, _, errOut := prefixgen("gen", "--from", path, "-f", "yosys-lcu")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen gen: -f yosys-lcu writes a network's carry tree for Yosys's $lcu cells, not the adder of "+path+" (sparse=2 ling): allowed a network document, or -f verilog or vhdl for its adder\n", errOut)
	radixDoc, _ := writeDoc(t, "-t", "kogge-stone", "-n", "16", "--valency", "4", "-f", "json")
	status, _, errOut = prefixgen("gen", "--from", radixDoc, "-f", "yosys-lcu")
	assert.Equal(t, 0, status, errOut)

	// verify checks the document's adder, as it is described, and names it.
	status, out, errOut := prefixgen("verify", "--from", path, "--vectors", "640")
	require.Equal(t, 0, status, errOut)
	assert.Regexp(t, `\nbrent-kung sparse=2 ling +16 +proven +ok +ok +\d+ +0 +640 +ok\n$`, out)
	status, _, errOut = prefixgen("verify", "--from", path, "--liberty", "sky130hd")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen verify: --liberty applies only with --from an adder document whose adder has library cells (pg_cells or fa_cells): "+path+" has none\n", errOut)
	cells, _ := writeDoc(t, "-t", "han-carlson", "-n", "12", "--pg-cells", "-f", "json")
	status, out, errOut = prefixgen("verify", "--from", cells, "--vectors", "640", "--liberty", "sky130hd")
	require.Equal(t, 0, status, errOut)
	assert.Regexp(t, `\nhan-carlson pgcells +12 +proven +ok +ok +\d+ +0 +640 +ok\n$`, out)

	// The plain adder's document is still the network document.
	_, plain := writeDoc(t, "-t", "brent-kung", "-n", "16", "-f", "json")
	assert.Contains(t, plain, "\"format\": \"prefixgen.network/v1\"")
	assert.NotContains(t, plain, "prefixgen.adder/v1")
	_, radix := writeDoc(t, "-t", "kogge-stone", "-n", "16", "--valency", "4", "-f", "json")
	assert.Contains(t, radix, "\"valency\": 4,")

	// A pipeline's document records its stages, and --from builds it.
	piped, pipeDoc := writeDoc(t, "-t", "sklansky", "-n", "16", "--sparse", "2", "--stages", "3", "-f", "json")
	assert.Contains(t, pipeDoc, "\"ling\": false,\n  \"stages\": 3,\n  \"no_reset\": false,\n  \"network\": {\n")
	for _, f := range []string{"json", "verilog", "vhdl"} {
		status, want, errOut := prefixgen("gen", "-t", "sklansky", "-n", "16", "--sparse", "2", "--stages", "3", "-f", f)
		require.Equal(t, 0, status, errOut)
		status, got, errOut := prefixgen("gen", "--from", piped, "-f", f)
		require.Equal(t, 0, status, errOut)
		assert.Equal(t, want, got, f)
	}
}

// A flag that contradicts the document is bad input, and nothing is written.
func TestAdderDocumentContradicted(t *testing.T) {
	path, _ := writeDoc(t, "-t", "kogge-stone", "-n", "8", "--sparse", "2", "--ling", "-f", "json")
	// An adder document records every part of its adder, the plain ones
	// too: a dense Ling adder, a sparse one without Ling's carries.
	dense, _ := writeDoc(t, "-t", "kogge-stone", "-n", "8", "--ling", "-f", "json")
	plainCarries, _ := writeDoc(t, "-t", "kogge-stone", "-n", "8", "--sparse", "2", "-f", "json")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"synth", "--from", dense, "--sparse", "2"}, "prefixgen synth: --sparse 2 contradicts " + dense + ", the dense adder: leave --sparse out\n"},
		{[]string{"gen", "--from", plainCarries, "-f", "verilog", "--ling"}, "prefixgen gen: --ling contradicts " + plainCarries + ", an adder without Ling's carries: leave --ling out\n"},
		{[]string{"gen", "--from", plainCarries, "-f", "verilog", "--stages", "2"}, "prefixgen gen: --stages 2 contradicts " + plainCarries + ", the combinational adder: leave --stages out\n"},
		{[]string{"gen", "--from", dense, "-f", "verilog", "--valency", "4"}, "prefixgen gen: --valency 4 contradicts " + dense + ", the valency-2 adder: leave --valency out\n"},
		{[]string{"gen", "--from", path, "-f", "verilog", "--sparse", "4"}, "prefixgen gen: --sparse 4 contradicts " + path + ", the sparse-2 adder: leave --sparse out\n"},
		{[]string{"gen", "--from", path, "-f", "verilog", "--ling=false"}, "prefixgen gen: --ling=false contradicts " + path + ", the Ling adder: leave --ling out\n"},
		{[]string{"stats", "--from", path, "--sparse", "1"}, "prefixgen stats: --sparse 1 contradicts " + path + ", the sparse-2 adder: leave --sparse out\n"},
		{[]string{"synth", "--from", path, "--sparse", "8"}, "prefixgen synth: --sparse 8 contradicts " + path + ", the sparse-2 adder: leave --sparse out\n"},
	}
	for _, tt := range tests {
		out := filepath.Join(t.TempDir(), "out.v")
		status, stdout, errOut := prefixgen(append(tt.args, "-o", out)...)
		assert.Equal(t, 2, status, "%q", tt.args)
		assert.Empty(t, stdout)
		assert.Equal(t, tt.want, errOut, "%q", tt.args)
		assert.NoFileExists(t, out)
	}

	// A document whose architecture does not fit its network is bad input.
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"format":"prefixgen.adder/v1","sparse":8,"network":{"format":"prefixgen.network/v1","width":4,"topology":"brent-kung","params":{},"cells":[[0,1],[2,3],[4,5],[4,2]],"outputs":[0,4,7,6]}}`), 0o644))
	status, _, errOut := prefixgen("gen", "--from", bad, "-f", "verilog")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen gen: "+bad+": sparseness 8 exceeds the width 4: allowed at most the width, 1, 2, 4\n", errOut)
}

// --from reads its file once, so that it may be a pipe: the adder comes
// through whole.
func TestAdderDocumentFromFIFO(t *testing.T) {
	_, doc := writeDoc(t, "-t", "han-carlson", "-n", "16", "--sparse", "4", "-f", "json")
	fifo := filepath.Join(t.TempDir(), "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	done := make(chan error, 1)
	go func() { done <- os.WriteFile(fifo, []byte(doc), 0o644) }()
	status, got, errOut := prefixgen("gen", "--from", fifo, "-f", "verilog")
	require.Equal(t, 0, status, errOut)
	_, want, _ := prefixgen("gen", "-t", "han-carlson", "-n", "16", "--sparse", "4", "-f", "verilog")
	assert.Equal(t, want, got)
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the FIFO was not read")
	}
}

// A network file that claims a registered topology it is not (parameters
// out of range, or another family's cells) is refused by every reader of
// network files, in one line naming the file, with exit status 2, before
// any work; a topology name of the user's own is accepted.
func TestFromClaim(t *testing.T) {
	dir := t.TempDir()
	_, doc := writeDoc(t, "-t", "sklansky", "-n", "8", "-f", "json")
	claim := func(name, topo, params string) string {
		s := strings.Replace(doc, `"topology": "sklansky"`, `"topology": "`+topo+`"`, 1)
		s = strings.Replace(s, `"params": {}`, `"params": `+params, 1)
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(s), 0o644))
		return path
	}
	k99 := claim("k99.json", "ladner-fischer", `{"k": 99}`)
	k1 := claim("k1.json", "ladner-fischer", `{"k": 1}`)
	own := claim("own.json", "mine", `{"k": 99}`)
	// An adder document around the false claim is refused too.
	adderDoc := filepath.Join(dir, "adder.json")
	data, err := os.ReadFile(k99)
	require.NoError(t, err)
	wrapped := "{\n\"format\": \"prefixgen.adder/v1\", \"sparse\": 2, \"valency\": 2, \"ling\": false,\n\"network\": " + string(data) + "}\n"
	require.NoError(t, os.WriteFile(adderDoc, []byte(wrapped), 0o644))

	for _, file := range []string{k99, k1, adderDoc} {
		for _, args := range [][]string{
			{"gen", "--from", file, "-f", "verilog"},
			{"stats", "--from", file},
			{"verify", "--from", file, "--vectors", "10"},
			{"check", "--from", file},
			{"synth", "--from", file},
			{"cuda", "emit", "--from", file},
			{"optimize", "-n", "8", "--max-delay-ns", "1", "--start", file},
		} {
			t.Run(filepath.Base(file)+" "+strings.Join(args[:2], " "), func(t *testing.T) {
				status, out, errOut := prefixgen(args...)
				assert.Equal(t, 2, status, errOut)
				assert.Empty(t, out)
				assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
				assert.Contains(t, errOut, file+": the network claims to be ladner-fischer k=")
				assert.NotContains(t, errOut, "topologies:")
			})
		}
	}
	status, out, errOut := prefixgen("gen", "--from", own, "-f", "verilog")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "module prefix_adder_mine_k99_8")
}

// Every network file prefixgen writes, or ships, reads back past the
// check of its claim: gen -f json of every topology and valency form, the
// adder documents, the goals of docs/goals and the golden files.
func TestFromClaimRoundTrip(t *testing.T) {
	var files []string
	dir := t.TempDir()
	gens := [][]string{
		{"-t", "kogge-stone", "-n", "13", "--valency", "3"},
		{"-t", "sklansky", "-n", "16", "--valency", "4"},
		{"-t", "ladner-fischer", "--param", "k=2", "-n", "16", "--sparse", "2", "--ling"},
		{"-t", "harris", "--param", "l=1", "--param", "f=1", "-n", "16", "--stages", "2"},
		{"-t", "knowles", "--param", "s=3", "-n", "9"},
		{"-t", "zero-deficiency", "--param", "d=6", "-n", "12"},
	}
	for _, name := range strings.Fields("ripple kogge-stone brent-kung sklansky han-carlson ladner-fischer knowles harris zero-deficiency") {
		gens = append(gens, []string{"-t", name, "-n", "17"})
	}
	for i, args := range gens {
		path := filepath.Join(dir, strconv.Itoa(i)+".json")
		status, _, errOut := prefixgen(append(append([]string{"gen"}, args...), "-f", "json", "-o", path)...)
		require.Equal(t, 0, status, errOut)
		files = append(files, path)
	}
	goals, err := filepath.Glob("../../docs/goals/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, goals)
	files = append(append(files, goals...), "testdata/gen-bk-12.json")
	for _, file := range files {
		status, out, errOut := prefixgen("gen", "--from", file, "-f", "json")
		require.Equal(t, 0, status, "%s: %s", file, errOut)
		if strings.HasPrefix(file, dir) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.Equal(t, string(data), out, file)
		}
	}
}

// What an adder was made for is echoed as any value is, each name cut
// after 40 characters: explore --with's note printed a library name of a
// hundred whole.
func TestMadeForWords(t *testing.T) {
	assert.Equal(t, "library asap7 through flow abc", madeForWords(adder.Target{Library: "asap7", Flow: "abc"}))
	long := strings.Repeat("l", 100)
	assert.Equal(t, "library "+strings.Repeat("l", 40)+"…", madeForWords(adder.Target{Library: long}))
}
