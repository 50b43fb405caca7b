package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// madeForDoc is an adder document of library cells made for library and
// flow (either left out where empty).
func madeForDoc(library, flow string) string {
	var b strings.Builder
	b.WriteString(`{"format":"prefixgen.adder/v1","pg_cells":true,`)
	if library != "" {
		b.WriteString(`"library":"` + library + `",`)
	}
	if flow != "" {
		b.WriteString(`"flow":"` + flow + `",`)
	}
	b.WriteString(`"network":{"format":"prefixgen.network/v1","width":4,"topology":"brent-kung","params":{},"cells":[[0,1],[2,3],[4,5],[4,2]],"outputs":[0,4,7,6]}}`)
	return b.String()
}

// An adder file that says what it was made for gives the commands that
// read it their --liberty and --flow where those are not given: gen writes
// the library's cells, and -f json keeps what the file says.
func TestMadeForDefaults(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "sky.json")
	require.NoError(t, os.WriteFile(path, []byte(madeForDoc("sky130hd", "abc")), 0o644))

	status, out, errOut := prefixgen("gen", "--from", path, "-f", "verilog")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "sky130_fd_sc_hd__nand2_1 u_g_n_0", "the cells of the library the adder was made for")
	status, out, errOut = prefixgen("gen", "--from", path, "-f", "verilog", "--liberty", "osu035")
	require.Equal(t, 0, status, errOut)
	assert.NotContains(t, out, "sky130_fd_sc_hd__", "--liberty given wins")

	status, out, errOut = prefixgen("gen", "--from", path, "-f", "json")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "  \"pg_cells\": true,\n  \"library\": \"sky130hd\",\n  \"flow\": \"abc\",\n")

	// A library read from files is named by its Liberty name: the file
	// must be given; only the commands that use the library ask for it.
	nangate := filepath.Join(dir, "nangate.json")
	require.NoError(t, os.WriteFile(nangate, []byte(madeForDoc("NangateOpenCellLibrary", "")), 0o644))
	status, out, errOut = prefixgen("gen", "--from", nangate, "-f", "verilog")
	assert.Equal(t, 2, status)
	assert.Empty(t, out)
	assert.Equal(t, "prefixgen gen: "+nangate+` was made for library "NangateOpenCellLibrary", which prefixgen does not carry: give its Liberty file with --liberty`+"\n", errOut)
	status, _, errOut = prefixgen("gen", "--from", nangate, "-f", "text")
	assert.Equal(t, 0, status, errOut)
	status, _, errOut = prefixgen("stats", "--from", nangate)
	assert.Equal(t, 0, status, errOut)
}

// synth measures an adder file as it was made, on its library through its
// flow, unless told otherwise; optimize -f json records both; a file made
// for a library or flow prefixgen cannot name is bad input before any
// synthesis, and touches no file.
func TestMadeForSynth(t *testing.T) {
	needFlow(t)
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "found.json")
	status, out, errOut := prefixgen("optimize", "-n", "4", "--flow-steps", "0", "--max-delay-ns", "10", "--liberty", "osu035", "--flow", "abc", "-f", "json", "-o", path)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(data), "  \"library\": \"osu035\",\n  \"flow\": \"abc\",\n  \"network\": {\n")

	status, out, errOut = prefixgen("synth", "--from", path)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "flow abc, liberty osu035,")
	status, out, errOut = prefixgen("synth", "--from", path, "--flow", "keep", "--liberty", "osu018")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "flow keep, liberty osu018,")

	// optimize --start takes the start's library and flow too.
	status, out, errOut = prefixgen("optimize", "-n", "4", "--flow-steps", "0", "--max-delay-ns", "10", "--start", path, "-f", "json")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "  \"library\": \"osu035\",\n  \"flow\": \"abc\",\n")

	for _, tt := range []struct {
		doc, want string
	}{
		{madeForDoc("NangateOpenCellLibrary", "abc"), `was made for library "NangateOpenCellLibrary", which prefixgen does not carry: give its Liberty file with --liberty`},
		{madeForDoc("osu018", "fast"), `was made for flow "fast": allowed keep, abc`},
	} {
		bad := filepath.Join(dir, "bad.json")
		require.NoError(t, os.WriteFile(bad, []byte(tt.doc), 0o644))
		work := filepath.Join(dir, "work")
		for _, args := range [][]string{
			{"synth", "--from", bad, "--workdir", work},
			{"optimize", "-n", "4", "--max-delay-ns", "10", "--start", bad, "--workdir", work},
		} {
			status, out, errOut := prefixgen(args...)
			assert.Equal(t, 2, status, "%v", args)
			assert.Empty(t, out)
			assert.Equal(t, "prefixgen "+args[0]+": "+bad+" "+tt.want+"\n", errOut)
			assert.NoDirExists(t, work)
		}
	}
}

// explore --with measures every file on the run's library through the
// run's flow, and says so on standard error of a file made for another.
func TestMadeForExploreWith(t *testing.T) {
	needFlow(t)
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sky.json")
	require.NoError(t, os.WriteFile(path, []byte(madeForDoc("sky130hd", "abc")), 0o644))
	status, out, errOut := prefixgen("explore", "-n", "4", "--no-optimize", "--synth", "--with", path, "-f", "csv")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "\nsky,file,")
	assert.Equal(t, "prefixgen explore: --with "+path+" was made for library sky130hd through flow abc: measured on library osu018 through flow keep, as the run\n", errOut)
	status, _, errOut = prefixgen("explore", "-n", "4", "--no-optimize", "--synth", "--with", path, "--liberty", "sky130hd", "--flow", "abc", "-f", "csv")
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, errOut, "made for the run's library and flow")
}
