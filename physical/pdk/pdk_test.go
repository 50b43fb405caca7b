package pdk_test

import (
	"bytes"
	"compress/gzip"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/physical/pdk"
)

func TestMain(m *testing.M) {
	code := m.Run()
	cleanup.RemoveAll() // the libraries written
	os.Exit(code)
}

// TestCarried opens the libraries the project carries: their records
// apply, their units are read, and the file the tools read is written
// once, plain, with the cells not to use marked and no power tables.
func TestCarried(t *testing.T) {
	tests := []struct {
		name, platform string
		cells          int
		ns             float64
		dont, use      string // a cell the record forbids, one it keeps
	}{
		{"sky130hd", "sky130hd", 428, 1, "sky130_fd_sc_hd__probe_p_8", "sky130_fd_sc_hd__nand2_1"},
		{"asap7", "asap7", 202, 0.001, "NAND2xp5_ASAP7_75t_R", "NAND2x1_ASAP7_75t_R"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lib, err := pdk.Open(tt.name, []string{"XOR2x1_ASAP7_75t_R sky130_fd_sc_hd__xor2_4"})
			require.NoError(t, err)
			assert.Equal(t, tt.name, lib.Name)
			require.NotNil(t, lib.Record)
			assert.Equal(t, tt.platform, lib.Record.Platform)
			assert.Len(t, lib.Cells(), tt.cells)
			ns, ok := lib.Liberty().Units().TimeNS()
			require.True(t, ok)
			assert.Equal(t, tt.ns, ns)
			assert.True(t, lib.Cells()[tt.dont].DontUse, tt.dont)
			assert.False(t, lib.Cells()[tt.use].DontUse, tt.use)
			assert.Equal(t, lib.Record.DontUse, lib.DontUse[:len(lib.Record.DontUse)], "the record's globs first")
			assert.Contains(t, lib.DontUse, "XOR2x1_ASAP7_75t_R")

			p, err := lib.File()
			require.NoError(t, err)
			again, err := lib.File()
			require.NoError(t, err)
			assert.Equal(t, p, again, "written once")
			src, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.NotContains(t, string(src), "internal_power")
			written := liberty.Cells(src)
			assert.Len(t, written, tt.cells)
			assert.True(t, written[tt.dont].DontUse)
			assert.False(t, written[tt.use].DontUse)

			m, err := lib.MapFile()
			require.NoError(t, err)
			again, err = lib.MapFile()
			require.NoError(t, err)
			assert.Equal(t, m, again, "written once")
			assert.NotEqual(t, p, m)
			src, err = os.ReadFile(m)
			require.NoError(t, err)
			mapped := liberty.Cells(src)
			assert.NotContains(t, mapped, tt.dont, "no cell not to use")
			assert.NotContains(t, mapped, "XOR2x1_ASAP7_75t_R")
			assert.Contains(t, mapped, tt.use)
			for name, c := range written {
				_, in := mapped[name]
				assert.Equal(t, !c.DontUse && c.Clock == "" && !c.Latch, in, "%s: every cell ABC maps onto, and no other", name)
			}
			assert.Equal(t, written[tt.use], mapped[tt.use], "as File's")

			other, err := pdk.Open(tt.name, nil)
			require.NoError(t, err)
			assert.Same(t, lib.Liberty(), other.Liberty(), "read once per process")
			p2, err := other.File()
			require.NoError(t, err)
			assert.NotEqual(t, p, p2, "another dont-use list, another file")
		})
	}
}

// TestDontUseRecordCells: a tie or buffer cell of the record that the
// dont-use list names is left out of the record, which would have the
// flows instantiate it; the driver cell, ABC's model of what drives the
// inputs and never instantiated, stays.
func TestDontUseRecordCells(t *testing.T) {
	for _, tt := range []struct {
		name    string
		dontUse []string
		tie     bool
		buffer  bool
	}{
		{"asap7", nil, true, true},
		{"asap7", []string{"BUFx2_ASAP7_75t_R"}, true, false},
		{"asap7", []string{"TIEHI*"}, false, true},
		{"asap7", []string{"BUFx2_ASAP7_75t_R TIEHI* TIELO*"}, false, false},
		{"sky130hd", []string{"sky130_fd_sc_hd__conb_1 sky130_fd_sc_hd__buf_4"}, false, false},
	} {
		lib, err := pdk.Open(tt.name, tt.dontUse)
		require.NoError(t, err)
		require.NotNil(t, lib.Record)
		assert.Equal(t, tt.tie, lib.Record.TieHigh.Cell != "" && lib.Record.TieLow.Cell != "", "%s %q: tie cells", tt.name, tt.dontUse)
		assert.Equal(t, tt.buffer, lib.Record.Buffer.Cell != "", "%s %q: buffer", tt.name, tt.dontUse)
		assert.NotEmpty(t, lib.Record.DriverCell, "%s %q: driver", tt.name, tt.dontUse)
		for _, c := range []string{lib.Record.TieHigh.Cell, lib.Record.TieLow.Cell, lib.Record.Buffer.Cell} {
			assert.False(t, c != "" && lib.IsDontUse(c), "%s %q: %s not to use", tt.name, tt.dontUse, c)
		}
	}
}

// TestDebian: the OSU libraries carry no record and are read by the tools
// as they are.
func TestDebian(t *testing.T) {
	tooltest.File(t, pdk.Debian["osu018"], "qflow-tech-osu018")
	for _, spec := range []string{"", "osu018"} {
		lib, err := pdk.Open(spec, nil)
		require.NoError(t, err)
		assert.Equal(t, "osu018", lib.Name)
		assert.Nil(t, lib.Record)
		assert.Empty(t, lib.DontUse)
		p, err := lib.File()
		require.NoError(t, err)
		assert.Equal(t, pdk.Debian["osu018"], p, "no file written")
		m, err := lib.MapFile()
		require.NoError(t, err)
		src, err := os.ReadFile(m)
		require.NoError(t, err)
		mapped := liberty.Cells(src)
		assert.NotContains(t, mapped, "DFFPOSX1", "no flip-flop")
		assert.NotContains(t, mapped, "LATCH", "no latch")
		assert.Contains(t, mapped, "NAND3X1")
	}
	lib, err := pdk.Open("osu018", []string{"NAND3X1"})
	require.NoError(t, err)
	p, err := lib.File()
	require.NoError(t, err)
	assert.NotEqual(t, pdk.Debian["osu018"], p, "a cell to mark: written")
	assert.True(t, lib.Cells()["NAND3X1"].DontUse)
}

// TestNangate45 applies Nangate45's record to the user's own file, known
// by its library's name.
func TestNangate45(t *testing.T) {
	path := tooltest.Shared(t, "pdk/nangate45/nangate45_typ.lib.gz")
	lib, err := pdk.Open(path, nil)
	require.NoError(t, err)
	assert.Equal(t, path, lib.Name)
	require.NotNil(t, lib.Record)
	assert.Equal(t, "nangate45", lib.Record.Platform)
	assert.Equal(t, "BUF_X1", lib.Record.DriverCell)
	assert.True(t, lib.Cells()["AOI211_X1"].DontUse)
	assert.False(t, lib.Cells()["AOI211_X2"].DontUse)
	// The file marks its tie cells dont_use; the record keeps them, as
	// OpenROAD-flow-scripts places them.
	assert.True(t, lib.Cells()["LOGIC1_X1"].DontUse)
	assert.Equal(t, "LOGIC1_X1", lib.Record.TieHigh.Cell)
	assert.Equal(t, "LOGIC0_X1", lib.Record.TieLow.Cell)
}

func TestRecordFor(t *testing.T) {
	assert.Nil(t, pdk.RecordFor("osu018_stdcells"))
	assert.Nil(t, pdk.RecordFor(""))
	r := pdk.RecordFor("asap7sc7p5t_AO_LVT_TT_nldm_211120")
	require.NotNil(t, r)
	assert.Equal(t, "BUFx2_ASAP7_75t_L", r.DriverCell)
	assert.Equal(t, pdk.CellPin{Cell: "TIEHIx1_ASAP7_75t_L", Pin: "H"}, r.TieHigh)
	assert.Equal(t, pdk.Buffer{Cell: "BUFx2_ASAP7_75t_L", In: "A", Out: "Y"}, r.Buffer)
	r.DontUse[0] = "changed"
	assert.Equal(t, "*x1p*_ASAP7*", pdk.RecordFor("asap7sc7p5t_SEQ_RVT_TT").DontUse[0], "each call its own record")
	assert.Equal(t, 3.898, pdk.RecordFor("NangateOpenCellLibrary").LoadFF)
	assert.Equal(t, "sky130_fd_sc_hd__buf_1", pdk.RecordFor("sky130_fd_sc_hd__tt_025C_1v80").DriverCell)
	assert.Equal(t, []string{"sky130hd", "nangate45", "asap7"}, pdk.Platforms())
}

// lib is a small library: its cells, in ns and pF.
func lib(name, cells string) string {
	return "library (" + name + ") {\n  time_unit : \"1ns\" ;\n  capacitive_load_unit (1,pf) ;\n" + cells + "\n}\n"
}

const cells = `  cell (INV) { area : 1 ; pin (A) { direction : input ; } pin (Y) { direction : output ; function : "!A" ; } }
  cell (BUF) { area : 1 ; pin (A) { direction : input ; } pin (Y) { direction : output ; function : "A" ; } }
  cell (NAND2) { area : 2 ; pin (A) { direction : input ; } pin (B) { direction : input ; } pin (Y) { direction : output ; function : "!(A B)" ; } }
  cell (NAND2B) { area : 1 ; pin (A) { direction : input ; } pin (B) { direction : input ; } pin (Y) { direction : output ; function : "!(A&B)" ; } }
  cell (XNOR2) { area : 3 ; pin (A) { direction : input ; } pin (B) { direction : input ; } pin (Y) { direction : output ; function : "!(A^B)" ; } }
  cell (DFF) { area : 4 ; ff (IQ, IQN) { next_state : "D" ; clocked_on : "CLK" ; }
    pin (D) { direction : input ; } pin (CLK) { direction : input ; } pin (Q) { direction : output ; function : "IQ" ; } }`

const seq = `  cell (DFF2) { area : 4 ; ff (IQ, IQN) { next_state : "D" ; clocked_on : "CLK" ; }
    pin (D) { direction : input ; } pin (CLK) { direction : input ; } pin (Q) { direction : output ; function : "IQ" ; } }`

func gz(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, err := w.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

// TestFiles: a library given as files, as a list or a folder, gzip or
// plain; and every way a spec is bad input, in one line.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	comb := write("lib/a_comb.lib.gz", gz(t, lib("mine", cells)))
	flops := write("lib/b_seq.lib", []byte(lib("mine_seq", seq)))
	write("lib/notes.txt", []byte("not a library"))
	plain := write("plain.lib", []byte(lib("mine", cells)))

	for _, spec := range []string{comb + "," + flops, filepath.Join(dir, "lib")} {
		l, err := pdk.Open(spec, nil)
		require.NoError(t, err, spec)
		assert.Equal(t, spec, l.Name)
		assert.Equal(t, []string{comb, flops}, l.Files)
		assert.Nil(t, l.Record)
		assert.Len(t, l.Cells(), 7)
		p, err := l.File()
		require.NoError(t, err)
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Len(t, liberty.Cells(src), 7)
		assert.True(t, strings.HasPrefix(string(src), "library (mine) {"))
	}
	l, err := pdk.Open(plain, nil)
	require.NoError(t, err)
	p, err := l.File()
	require.NoError(t, err)
	assert.Equal(t, plain, p, "one plain file with nothing to mark is read as it is")
	m, err := l.MapFile()
	require.NoError(t, err)
	src, err := os.ReadFile(m)
	require.NoError(t, err)
	assert.Equal(t, []string{"BUF", "INV", "NAND2", "NAND2B", "XNOR2"}, slices.Sorted(maps.Keys(liberty.Cells(src))), "ABC's file: no flip-flop")
	combCells, _, ok := strings.Cut(cells, "  cell (DFF)")
	require.True(t, ok)
	combOnly := write("comb.lib", []byte(lib("mine", combCells)))
	l, err = pdk.Open(combOnly, nil)
	require.NoError(t, err)
	m, err = l.MapFile()
	require.NoError(t, err)
	assert.Equal(t, combOnly, m, "nothing ABC sets aside: read as it is")

	l, err = pdk.Open(plain, []string{"NAND2B"})
	require.NoError(t, err, "another NAND2 is left")
	assert.True(t, l.IsDontUse("NAND2B"))
	assert.True(t, l.Cells()["NAND2B"].DontUse)
	assert.False(t, l.Cells()["NAND2"].DontUse)

	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	tests := []struct {
		name, spec string
		dontUse    []string
		want       string
	}{
		{"not gzip", write("fake.lib.gz", []byte(lib("x", cells))), nil, `^pdk: liberty: .*fake\.lib\.gz is named \.gz but is not gzip`},
		{"units", plain + "," + write("ps.lib", []byte(strings.Replace(lib("x", seq), "1ns", "1ps", 1))), nil,
			`^pdk: liberty: .*plain\.lib and .*ps\.lib disagree on time_unit: "1ns" in .*plain\.lib, "1ps" in .*ps\.lib: allowed files of one library, whose units agree$`},
		{"time unit the tools misread", write("t1000.lib", []byte(strings.Replace(lib("x", cells), `"1ns"`, `"1000ps"`, 1))), nil,
			`^pdk: Liberty file .*t1000\.lib: time_unit "1000ps" not allowed: allowed 1ps, 10ps, 100ps or 1ns, Liberty's time units$`},
		{"time unit unread", write("tfs.lib", []byte(strings.Replace(lib("x", cells), `"1ns"`, `"1 hour"`, 1))), nil,
			`^pdk: Liberty file .*tfs\.lib: time_unit "1 hour" not allowed: allowed 1ps, 10ps, 100ps or 1ns`},
		{"load unit in capitals", write("cFF.lib", []byte(strings.Replace(lib("x", cells), "(1,pf)", "(1,FF)", 1))), nil,
			`^pdk: Liberty file .*cFF\.lib: capacitive_load_unit "1,FF" not allowed: allowed a positive number and ff or pf, in lower case, as \(1,ff\)$`},
		{"load unit unread", write("cnf.lib", []byte(strings.Replace(lib("x", cells), "(1,pf)", "(1,nf)", 1))), nil,
			`^pdk: Liberty file .*cnf\.lib: capacitive_load_unit "1,nf" not allowed: allowed a positive number and ff or pf`},
		{"load unit of no size", write("c0.lib", []byte(strings.Replace(lib("x", cells), "(1,pf)", "(0,pf)", 1))), nil,
			`^pdk: Liberty file .*c0\.lib: capacitive_load_unit "0,pf" not allowed: allowed a positive number and ff or pf, in lower case, as \(1,ff\)$`},
		{"load unit negative", write("cneg.lib", []byte(strings.Replace(lib("x", cells), "(1,pf)", "(-1,pf)", 1))), nil,
			`^pdk: Liberty file .*cneg\.lib: capacitive_load_unit "-1,pf" not allowed: allowed a positive number`},
		{"load unit past any float", write("cbig.lib", []byte(strings.Replace(lib("x", cells), "(1,pf)", "(1e400,pf)", 1))), nil,
			`^pdk: Liberty file .*cbig\.lib: capacitive_load_unit "1e400,pf" not allowed: allowed a positive number`},
		{"load unit no number", write("cabc.lib", []byte(strings.Replace(lib("x", cells), "(1,pf)", "(abc,pf)", 1))), nil,
			`^pdk: Liberty file .*cabc\.lib: capacitive_load_unit "abc,pf" not allowed: allowed a positive number`},
		{"negative area", write("aneg.lib", []byte(strings.Replace(lib("x", cells), "cell (NAND2) { area : 2 ;", "cell (NAND2) { area : -2 ;", 1))), nil,
			`^pdk: Liberty file .*aneg\.lib: cell NAND2 has area "-2": allowed a number of 0 or more, or no area$`},
		{"area no number", write("aabc.lib", []byte(strings.Replace(lib("x", cells), "cell (INV) { area : 1 ;", "cell (INV) { area : big ;", 1))), nil,
			`^pdk: Liberty file .*aabc\.lib: cell INV has area "big": allowed a number of 0 or more, or no area$`},
		{"no NAND2 left", plain, []string{"NAND2*"}, `^pdk: the cells not to use \(NAND2\*\) leave library .*plain\.lib no cell for a two-input NAND, which it has \(NAND2, NAND2B\): allowed a dont-use list that keeps one$`},
		{"only the patterns that took them", plain, []string{"FOO*", "NAND2*", "X*", "NAND2B"}, `^pdk: the cells not to use \(NAND2\* NAND2B\) leave library .*plain\.lib no cell for a two-input NAND, which it has`},
		{"no flip-flop left", plain, []string{"DFF"}, `no cell for a D flip-flop, which it has \(DFF\)`},
		// A flip-flop on the falling edge is none that dfflibmap maps a register onto.
		{"no rising-edge flip-flop left", write("negff.lib", []byte(lib("x", cells+"\n"+strings.ReplaceAll(strings.ReplaceAll(seq, "DFF2", "DFFN"), `"CLK" ;`, `"!CLK" ;`)))), []string{"DFF"},
			`no cell for a D flip-flop, which it has \(DFF\)`},
		{"no XOR left", plain, []string{"X*"}, `no cell for a two-input XOR or XNOR, which it has \(XNOR2\)`},
		{"bad glob", plain, []string{"NAND[2"}, `^pdk: dont-use pattern "NAND\[2": a \[ without its \] or a \\ at the end: allowed globs of cell names`},
		{"unknown name", "asap8", nil, `^pdk: unknown library "asap8" \(did you mean asap7\?\): allowed osu018, osu035, sky130hd, asap7, a Liberty file \(\.lib or \.lib\.gz\), files separated by commas, or a folder of them$`},
		{"unknown far", "tsmc", nil, `^pdk: unknown library "tsmc": allowed`},
		{"platform not carried", "nangate45", nil, `^pdk: library "nangate45" is not carried with prefixgen: give its Liberty file \(nangate45_typ\.lib\.gz, as OpenSTA and OpenROAD ship it\), whose platform record prefixgen applies: allowed osu018, osu035, sky130hd, asap7, a Liberty file`},
		{"platform not carried, any case", "Nangate45", nil, `^pdk: library "Nangate45" is not carried with prefixgen`},
		{"missing", filepath.Join(dir, "none.lib"), nil, `^pdk: Liberty file .*none\.lib cannot be read: no such file or directory \(allowed`},
		{"missing in list", plain + "," + filepath.Join(dir, "none.lib"), nil, `^pdk: Liberty file .*none\.lib cannot be read: no such file or directory`},
		{"folder in list", plain + "," + empty, nil, `^pdk: Liberty file .*empty is a folder \(a folder is allowed alone`},
		{"empty in list", plain + ",", nil, `names an empty file between commas`},
		{"names in list", "osu018,osu035", nil, `^pdk: --liberty "osu018,osu035" lists the library osu018 with others: a library by name is one alone, files by path may be several: allowed osu018, osu035, sky130hd, asap7, a Liberty file`},
		{"a name after a file", plain + ",ASAP7", nil, `^pdk: --liberty ".*plain\.lib,ASAP7" lists the library ASAP7 with others: a library by name is one alone`},
		{"a library not carried in list", plain + ",nangate45", nil, `^pdk: --liberty ".*plain\.lib,nangate45" lists the library nangate45 with others: a library by name is one alone`},
		{"empty folder", empty, nil, `^pdk: folder .*empty holds no Liberty file \(\*\.lib or \*\.lib\.gz\): allowed`},
		{"empty file", write("nothing.lib", nil), nil, `^pdk: Liberty file .*nothing\.lib holds no cells: allowed a Liberty library of cells, library \(NAME\) \{ cell \(NAME\) \{ … \} … \}$`},
		{"empty gzip", write("nothing.lib.gz", gz(t, "")), nil, `^pdk: Liberty file .*nothing\.lib\.gz holds no cells`},
		{"not Liberty", write("notes.lib", []byte("These are my notes.\n")), nil, `^pdk: Liberty file .*notes\.lib holds no cells`},
		{"no cells in a library group", write("bare.lib", []byte("library (bare) {\n}\n")), nil, `^pdk: Liberty file .*bare\.lib holds no cells`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := pdk.Open(tt.spec, tt.dontUse)
			require.Error(t, err)
			assert.Regexp(t, tt.want, err.Error())
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

// RemoveWritten removes the files written for the tools and forgets them:
// the next File writes its file again, in a folder of its own.
func TestRemoveWritten(t *testing.T) {
	lib, err := pdk.Open("osu018", []string{"NAND3X1"})
	require.NoError(t, err)
	first, err := lib.File()
	require.NoError(t, err)
	require.FileExists(t, first)
	pdk.RemoveWritten()
	assert.NoFileExists(t, first)
	assert.NoDirExists(t, filepath.Dir(first))
	again, err := lib.File()
	require.NoError(t, err)
	require.FileExists(t, again)
	pdk.RemoveWritten()
	assert.NoFileExists(t, again)
	pdk.RemoveWritten() // nothing written: nothing to do
}

// TestFilesTotal: a library's files are bounded together, not each alone:
// a folder of many files, each within the bound, was read whole however
// much they held. Not parallel: it lowers the bound.
func TestFilesTotal(t *testing.T) {
	defer pdk.SetMaxText(64 << 10)()
	dir := t.TempDir()
	pad := "/* " + strings.Repeat("padding ", 5000) + "*/\n" // 40 KiB
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a_comb.lib"), []byte(pad+lib("big", cells)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b_seq.lib"), []byte(pad+lib("big_seq", seq)), 0o644))
	_, err := pdk.Open(filepath.Join(dir, "a_comb.lib"), nil)
	require.NoError(t, err, "one file is within the bound")
	for _, spec := range []string{dir, filepath.Join(dir, "a_comb.lib") + "," + filepath.Join(dir, "b_seq.lib")} {
		_, err = pdk.Open(spec, nil)
		require.Error(t, err, spec)
		assert.Regexp(t, `^pdk: the Liberty files of .* hold more than 64 KiB of text together \(past it at .*b_seq\.lib\): allowed up to 64 KiB in all$`, err.Error())
	}
	// A file larger than the bound as it lies on disk, gzip or not, is
	// refused before it is decompressed.
	big := filepath.Join(dir, "big.lib.gz")
	require.NoError(t, os.WriteFile(big, make([]byte, 65<<10), 0o644))
	_, err = pdk.Open(big, nil)
	require.Error(t, err)
	assert.Regexp(t, `^pdk: Liberty file .*big\.lib\.gz is .*: allowed a Liberty file of up to 64 KiB$`, err.Error())
	assert.NotContains(t, err.Error(), "\n")
}

// TestFileOfFIFO: a library given as a FIFO (or a shell's <(…)) is read
// once, and the tools read the copy written of it: they had been handed
// the FIFO to open again, empty or blocking (Yosys crashed, OpenSTA hung).
func TestFileOfFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "lib.fifo")
	tooltest.FIFO(t, fifo, []byte(lib("fifo_lib", cells)))
	l, err := pdk.Open(fifo, nil)
	require.NoError(t, err)
	p, err := l.File()
	require.NoError(t, err)
	require.NotEqual(t, fifo, p, "a copy, not the FIFO")
	src, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(src), "library (fifo_lib) {"))
}
