package liberty_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/liberty"
)

// part is one file of a library split in two, as ASAP7 splits its cells:
// units, a template both files give, and cells with power groups.
func part(name, units, template, cells string) string {
	return `/* licence */
library (` + name + `) {
  delay_model : table_lookup ;
` + units + `
  lu_table_template (delay_7x7) { variable_1 : input_net_transition ; index_1 ("1, 2") ; }
` + template + `
` + cells + `
}
`
}

const psUnits = `  time_unit : "1ps" ;
  voltage_unit : "1V" ;
  current_unit : "1mA" ;
  pulling_resistance_unit : "1kohm" ;
  leakage_power_unit : "1pW" ;
  capacitive_load_unit (1,ff) ;`

const inv = `  cell (INVx1) { area : 0.04 ;
    cell_leakage_power : 1 ;
    leakage_power () { value : 1 ; when : "A" ; }
    pin (A) { direction : input ; capacitance : 0.5 ;
      internal_power () { rise_power (power_7x7) { values ("1, 2") ; } }
    }
    pin (Y) { direction : output ; function : "!A" ;
      timing () { related_pin : "A" ; cell_rise (delay_7x7) { values ("3, 4") ; } }
      internal_power () { related_pin : "A" ; rise_power (power_7x7) { values ("1, 2") ; } }
    }
  }`

const nand = `  cell (NAND2x1) { area : 0.06 ;
    pin (A) { direction : input ; } pin (B) { direction : input ; }
    pin (Y) { direction : output ; function : "!(A B)" ;
      internal_power () { related_pin : "A" ; } }
  }
  cell (NAND2xp5) { area : 0.05 ;
    pin (A) { direction : input ; } pin (B) { direction : input ; }
    pin (Y) { direction : output ; function : "!(A B)" ; }
  }`

const dff = `  cell (DFFx1) { area : 0.3 ;
    ff (IQ, IQN) { next_state : "D" ; clocked_on : "CLK" ; }
    pin (D) { direction : input ; } pin (CLK) { direction : input ; clock : true ; }
    pin (Q) { direction : output ; function : "IQ" ; }
  }`

func TestLibraryWrite(t *testing.T) {
	a := part("lib_SIMPLE", psUnits, `  power_lut_template (power_7x7) { variable_1 : input_transition_time ; }`, inv+"\n"+nand)
	b := part("lib_SEQ", strings.Replace(psUnits, "(1,ff)", `(1.0,"FF")`, 1), `  lu_table_template (setup_3x3) { variable_1 : constrained_pin_transition ; }`, dff)
	lib, err := liberty.NewLibrary(liberty.Source{Name: "a.lib", Text: []byte(a)}, liberty.Source{Name: "b.lib", Text: []byte(b)})
	require.NoError(t, err)
	assert.Equal(t, "lib_SIMPLE", lib.Name())
	assert.Equal(t, []string{"a.lib", "b.lib"}, lib.Names())
	ns, ok := lib.Units().TimeNS()
	require.True(t, ok)
	assert.Equal(t, 0.001, ns)
	ff, ok := lib.Units().CapacitanceFF()
	require.True(t, ok)
	assert.Equal(t, 1.0, ff)
	cells := lib.Cells()
	assert.Equal(t, []string{"DFFx1", "INVx1", "NAND2x1", "NAND2xp5"}, sortedKeys(cells))
	assert.Equal(t, "D", cells["DFFx1"].NextState)
	require.NotNil(t, lib.CellGroup("DFFx1"))
	assert.Equal(t, "DFFx1", lib.CellGroup("DFFx1").Args[0])
	assert.Nil(t, lib.CellGroup("NONE"))

	var out bytes.Buffer
	require.NoError(t, lib.Write(&out, func(c string) bool { return strings.Contains(c, "xp") }))
	text := out.String()
	assert.True(t, strings.HasPrefix(text, "library (lib_SIMPLE) {"), "the first file's header, its licence comment left out")
	assert.NotContains(t, text, "internal_power")
	assert.NotContains(t, text, "leakage_power ()")
	assert.Contains(t, text, "cell_leakage_power : 1 ;", "attributes stay")
	assert.Contains(t, text, `cell (NAND2xp5) {`+"\n    dont_use : true ;")
	assert.Contains(t, text, dff, "a cell without power groups is copied as it is")
	assert.Equal(t, 1, strings.Count(text, "lu_table_template (delay_7x7)"), "a template both files give, once")
	assert.Contains(t, text, "lu_table_template (setup_3x3)")
	assert.Contains(t, text, "power_lut_template (power_7x7)")

	root := liberty.Parse(out.Bytes())
	require.Len(t, root.Groups, 1)
	written := root.Cells()
	assert.Equal(t, sortedKeys(cells), sortedKeys(written))
	for name, c := range cells {
		w := written[name]
		assert.Equal(t, c.Area, w.Area, name)
		assert.Equal(t, c.Inputs, w.Inputs, name)
		assert.Equal(t, name == "NAND2xp5", w.DontUse, name)
	}
	for g := range root.Find("timing") {
		assert.Equal(t, "A", g.Attrs["related_pin"], "timing kept")
	}

	var all bytes.Buffer
	require.NoError(t, lib.Write(&all, nil))
	assert.NotContains(t, all.String(), "dont_use")

	// The cells a netlist uses, from both files, with the header and
	// templates of the whole library.
	var some bytes.Buffer
	require.NoError(t, lib.WriteCells(&some, func(c string) bool { return strings.Contains(c, "xp") },
		func(c string) bool { return c == "NAND2xp5" || c == "DFFx1" }))
	sub := liberty.Parse(some.Bytes())
	require.Len(t, sub.Groups, 1)
	assert.Equal(t, []string{"DFFx1", "NAND2xp5"}, sortedKeys(sub.Cells()))
	assert.True(t, sub.Cells()["NAND2xp5"].DontUse)
	before, _, _ := strings.Cut(text, "cell (")
	assert.True(t, strings.HasPrefix(some.String(), before), "the same header and templates")
	var none bytes.Buffer
	require.NoError(t, lib.WriteCells(&none, nil, func(string) bool { return false }))
	assert.Empty(t, liberty.Parse(none.Bytes()).Cells())
}

func sortedKeys(m map[string]liberty.Cell) []string {
	var k []string
	for name := range m {
		k = append(k, name)
	}
	slices.Sort(k)
	return k
}

// TestLibraryDisagree: files that are not one library are refused, each
// with one line naming both files and what they disagree on.
func TestLibraryDisagree(t *testing.T) {
	a := part("a", psUnits, "", inv)
	tests := []struct {
		name, b, want string
	}{
		{"time unit", part("b", strings.Replace(psUnits, "1ps", "1ns", 1), "", dff),
			`^liberty: a.lib and b.lib disagree on time_unit: "1ps" in a.lib, "1ns" in b.lib: allowed files of one library, whose units agree$`},
		{"time unit scale", part("b", strings.Replace(psUnits, "1ps", "10ps", 1), "", dff),
			`^liberty: a.lib and b.lib disagree on time_unit: "1ps" in a.lib, "10ps" in b.lib: `},
		{"capacitance unit", part("b", strings.Replace(psUnits, "(1,ff)", "(1,pf)", 1), "", dff),
			`^liberty: a.lib and b.lib disagree on capacitive_load_unit: "1,ff" in a.lib, "1,pf" in b.lib`},
		{"unit missing", part("b", strings.Replace(psUnits, `leakage_power_unit : "1pW" ;`, "", 1), "", dff),
			`disagree on leakage_power_unit: "1pW" in a.lib, none in b.lib`},
		{"template", strings.Replace(part("b", psUnits, "", dff), `index_1 ("1, 2")`, `index_1 ("1, 3")`, 1),
			`^liberty: a.lib and b.lib give lu_table_template delay_7x7 differently: allowed files of one library, whose templates of one name are identical$`},
		{"template attribute", strings.Replace(part("b", psUnits, "", dff), "input_net_transition", "total_output_net_capacitance", 1),
			`^liberty: a.lib and b.lib give lu_table_template delay_7x7 differently: `},
		{"template group", strings.Replace(part("b", psUnits, "", dff), `index_1 ("1, 2") ; }`, `index_1 ("1, 2") ; domain (d) { } }`, 1),
			`^liberty: a.lib and b.lib give lu_table_template delay_7x7 differently: `},
		{"cell twice", part("b", psUnits, "", inv),
			`^liberty: a.lib and b.lib both give cell INVx1: allowed files of one library, each cell in one$`},
		{"no library", "cell (X) { }",
			`^liberty: b.lib holds no whole library group: allowed Liberty files`},
		{"cut short", "library (b) { cell (X) {",
			`^liberty: b.lib holds no whole library group`},
		{"two libraries", part("b", psUnits, "", dff) + part("c", psUnits, "", ""),
			`^liberty: b.lib holds more than one library group`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := liberty.NewLibrary(liberty.Source{Name: "a.lib", Text: []byte(a)}, liberty.Source{Name: "b.lib", Text: []byte(tt.b)})
			require.Error(t, err)
			assert.Regexp(t, tt.want, err.Error())
			assert.NotContains(t, err.Error(), "\n")
		})
	}
	_, err := liberty.NewLibrary()
	require.Error(t, err)

	// A template of another kind, ending in _template as every kind does,
	// is held to the same.
	power := `  power_lut_template (power_7x7) { variable_1 : input_transition_time ; index_1 ("1, 2") ; }`
	_, err = liberty.NewLibrary(liberty.Source{Name: "a.lib", Text: []byte(part("a", psUnits, power, inv))},
		liberty.Source{Name: "b.lib", Text: []byte(part("b", psUnits, strings.Replace(power, `"1, 2"`, `"1, 3"`, 1), dff))})
	assert.EqualError(t, err, "liberty: a.lib and b.lib give power_lut_template power_7x7 differently: allowed files of one library, whose templates of one name are identical")
}

// TestLibraryOneFile: a library of one file may be anything but a
// library group cut short (where Yosys's reader would take all the
// memory there is); one without a library group is written as it is.
func TestLibraryOneFile(t *testing.T) {
	lib, err := liberty.NewLibrary(liberty.Source{Name: "t.lib", Text: []byte(tiny)})
	require.NoError(t, err)
	assert.Equal(t, "tiny", lib.Name())
	assert.Len(t, lib.Cells(), 7)
	for _, src := range []string{"library (cut) { cell (X) { area : 1 ; }", tiny[:len(tiny)/2], "library (q) { cell (X) { pin (A) { function : \"A ; } } }"} {
		_, err := liberty.NewLibrary(liberty.Source{Name: "x.lib", Text: []byte(src)})
		require.Error(t, err, src)
		assert.Equal(t, "liberty: x.lib is cut short, its library group not closed: allowed a whole Liberty file", err.Error())
	}
	// A cell given twice in one file: ABC stops on it.
	_, err = liberty.NewLibrary(liberty.Source{Name: "x.lib", Text: []byte("library (q) { cell (X) { area : 1 ; } cell (Y) { } cell (X) { area : 2 ; } }")})
	assert.EqualError(t, err, "liberty: x.lib gives cell X twice: allowed each cell once")
	for _, src := range []string{"not a library", "cell (X) { area : 1 ; }"} {
		lib, err := liberty.NewLibrary(liberty.Source{Name: "x.lib", Text: []byte(src)})
		require.NoError(t, err)
		var out bytes.Buffer
		require.NoError(t, lib.Write(&out, func(string) bool { return true }))
		assert.Equal(t, src, out.String())
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	_, err := w.Write([]byte(tiny))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	for _, p := range []string{write("t.lib.gz", z.Bytes()), write("gzip-named.lib", z.Bytes()), write("t.lib", []byte(tiny))} {
		got, err := liberty.ReadFile(p)
		require.NoError(t, err, p)
		assert.Equal(t, tiny, string(got), p)
	}
	for _, tt := range []struct{ name, want string }{
		{write("plain.lib.gz", []byte(tiny)), `^liberty: .*plain\.lib\.gz is named \.gz but is not gzip: allowed a gzip file, or a plain Liberty file named without \.gz$`},
		{write("PLAIN.LIB.GZ", []byte(tiny)), `^liberty: .*PLAIN\.LIB\.GZ is named \.gz but is not gzip: `},
		{write("cut.lib.gz", z.Bytes()[:z.Len()/2]), `^liberty: .*cut\.lib\.gz is not a whole gzip file: `},
		{write("head.lib.gz", z.Bytes()[:5]), `^liberty: .*head\.lib\.gz is not a whole gzip file: `},
	} {
		_, err := liberty.ReadFile(tt.name)
		require.Error(t, err, tt.name)
		assert.Regexp(t, tt.want, err.Error())
	}
	_, err = liberty.ReadFile(filepath.Join(dir, "none.lib"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// A file larger than the most read, a gzip stream that inflates past it
// (a few KiB of zeros, MiBs of text), and a FIFO that never ends are
// refused once past it, not read until memory runs out.
func TestReadFileTooLarge(t *testing.T) {
	defer liberty.SetMaxSize(1 << 20)()
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	var bomb bytes.Buffer
	w := gzip.NewWriter(&bomb)
	_, err := w.Write(make([]byte, 3<<20))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.Less(t, bomb.Len(), 1<<15)
	fifo := filepath.Join(dir, "endless.lib")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		line := []byte(strings.Repeat("/* comment */\n", 1<<10))
		for {
			if _, err := f.Write(line); err != nil {
				return
			}
		}
	}()
	for _, tt := range []struct{ name, want string }{
		{write("big.lib", make([]byte, 1<<20+1)), `^liberty: .*big\.lib is larger than the 1 MiB allowed: allowed a Liberty file of up to 1 MiB$`},
		{write("bomb.lib.gz", bomb.Bytes()), `^liberty: .*bomb\.lib\.gz inflates to text larger than the 1 MiB allowed: allowed a Liberty file of up to 1 MiB$`},
		{fifo, `^liberty: .*endless\.lib is larger than the 1 MiB allowed: allowed a Liberty file of up to 1 MiB$`},
	} {
		_, err := liberty.ReadFile(tt.name)
		require.Error(t, err, tt.name)
		assert.Regexp(t, tt.want, err.Error())
	}
	got, err := liberty.ReadFile(write("edge.lib", make([]byte, 1<<20)))
	require.NoError(t, err, "a file of the most read is read")
	assert.Len(t, got, 1<<20)
}

// A file one byte past MaxSize is refused from its size, before a byte is
// read (the file is sparse), and the error writes the size in whole GiB.
func TestReadFileTooLargeGiB(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.lib")
	f, err := os.Create(p)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(liberty.MaxSize+1))
	require.NoError(t, f.Close())
	_, err = liberty.ReadFile(p)
	require.Error(t, err)
	assert.Equal(t, "liberty: "+p+" is larger than the 1 GiB allowed: allowed a Liberty file of up to 1 GiB", err.Error())
}

func TestUnits(t *testing.T) {
	for _, tt := range []struct {
		time string
		ns   float64
		ok   bool
	}{{"1ns", 1, true}, {"1us", 1000, true}, {"1ps", 0.001, true}, {"10ps", 0.01, true}, {"", 1, true}, {"1e-3ns", 0.001, true}, {"1 NS", 1, true}, {"1parsec", 0, false}, {"ns", 0, false}} {
		ns, ok := liberty.Units{"time_unit": tt.time}.TimeNS()
		assert.Equal(t, tt.ok, ok, tt.time)
		assert.InDelta(t, tt.ns, ns, 1e-12, tt.time)
	}
	for _, tt := range []struct {
		cap string
		ff  float64
		ok  bool
	}{{"1,ff", 1, true}, {"1,pf", 1000, true}, {"1.0,PF", 1000, true}, {"", 0, false}, {"1,kf", 0, false}} {
		ff, ok := liberty.Units{"capacitive_load_unit": tt.cap}.CapacitanceFF()
		assert.Equal(t, tt.ok, ok, tt.cap)
		assert.Equal(t, tt.ff, ff, tt.cap)
	}
	assert.True(t, liberty.IsLibertyName("x/A.LIB.GZ"))
	assert.True(t, liberty.IsLibertyName("a.lib"))
	assert.False(t, liberty.IsLibertyName("a.lib.bak"))
}

// FuzzLibrary: any two texts are one library or an error, never a panic;
// a library's written text holds every cell it has, with the dont_use
// asked for.
func FuzzLibrary(f *testing.F) {
	f.Add(part("a", psUnits, "", inv), part("b", psUnits, "", dff))
	f.Add(part("a", psUnits, "", nand), "library (b) { cell (X) {")
	f.Add(tiny, "")
	f.Fuzz(func(t *testing.T, a, b string) {
		srcs := []liberty.Source{{Name: "a.lib", Text: []byte(a)}}
		if b != "" {
			srcs = append(srcs, liberty.Source{Name: "b.lib", Text: []byte(b)})
		}
		lib, err := liberty.NewLibrary(srcs...)
		if err != nil {
			require.NotContains(t, err.Error(), "\n")
			return
		}
		dont := func(c string) bool { return len(c)%2 == 0 }
		var out bytes.Buffer
		require.NoError(t, lib.Write(&out, dont))
		if out.String() == a {
			return // one file that is no whole library, written as it is
		}
		written := liberty.Parse(out.Bytes()).Cells()
		for name, c := range lib.Cells() {
			w, ok := written[name]
			require.True(t, ok, "cell %q written", name)
			if c.DontUse || !dont(name) {
				continue
			}
			g := lib.CellGroup(name)
			if _, own := g.Attrs["dont_use"]; !own {
				assert.True(t, w.DontUse, "cell %q marked", name)
			}
		}
	})
}
