package pdk_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/physical/pdk"
)

const fuzzLib = `library (fz) {
  time_unit : "1ns" ;
  capacitive_load_unit (1,pf);
  cell (INVX1) { area : 16 ; pin (A) { direction : input ; } pin (Y) { direction : output ; function : "(!A)" ; } }
  cell (NAND2X1) { area : 24 ;
    pin (A) { direction : input ; capacitance : 0.0121 ; }
    pin (B) { direction : input ; }
    pin (Y) { direction : output ; function : "(!(A B))" ;
      timing() { related_pin : "A"; cell_rise(t2) { index_1 ("0.005, 0.0125"); index_2 ("0.06, 0.18");
        values ( "0.04, 0.05", "0.06, 0.07"); } } } }
  cell (NAND2X2) { area : 32 ; pin (A) { direction : input ; } pin (B) { direction : input ; }
    pin (Y) { direction : output ; function : "!(A&B)" ; } }
  cell (DFFPOSX1) { area : 96 ; ff (DS0000, P0002) { next_state : "D" ; clocked_on : "CLK" ; }
    pin (D) { direction : input ; } pin (CLK) { direction : input ; }
    pin (Q) { direction : output ; function : "DS0000" ; } }
  cell (DONT) { area : 1 ; dont_use : true ; pin (A) { direction : input ; }
    pin (Y) { direction : output ; function : "A'" ; } }
}
`

// FuzzOpen feeds a Liberty file, as --liberty FILE names it (plain or
// gzip), and a --dont-use list through pdk.Open, as every synthesizing
// command does before any work: no input may panic it; a refusal is one
// line that starts "pdk: "; a library it opens has cells whose areas are
// numbers of 0 or more, and the one file the tools read (File) reads back
// with every cell, those not to use marked dont_use.
func FuzzOpen(f *testing.F) {
	f.Add([]byte(fuzzLib), "", false)
	f.Add([]byte(fuzzLib), "NAND2X*", false)
	f.Add([]byte(fuzzLib), "NAND2X1 INV*", true)
	f.Add([]byte(fuzzLib), "[", false)
	f.Add([]byte(strings.Replace(fuzzLib, `"1ns"`, `"1000ps"`, 1)), "", false)
	f.Add([]byte(strings.Replace(fuzzLib, `(1,pf)`, `(0,ff)`, 1)), "", false)
	f.Add([]byte(strings.Replace(fuzzLib, `area : 16`, `area : -1`, 1)), "", true)
	f.Add([]byte("library (x) { cell (\""), "", false)
	f.Fuzz(func(t *testing.T, text []byte, dont string, gz bool) {
		dir := t.TempDir()
		name := "fz.lib"
		data := text
		if gz {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			_, _ = w.Write(text)
			require.NoError(t, w.Close())
			data, name = b.Bytes(), "fz.lib.gz"
		}
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, data, 0o644))
		var dontUse []string
		if dont != "" {
			dontUse = []string{dont}
		}
		l, err := pdk.Open(path, dontUse)
		if err != nil {
			msg := err.Error()
			require.True(t, strings.HasPrefix(msg, "pdk: "), "%q", msg)
			require.NotContains(t, msg, "\n")
			require.LessOrEqual(t, len(msg), 2000+len(path), "an error echoes the input cut short: %q", msg)
			return
		}
		cells := l.Cells()
		require.NotEmpty(t, cells)
		for name, c := range cells {
			require.NotEmpty(t, name)
			if c.HasArea {
				require.GreaterOrEqual(t, c.Area, 0.0, name)
			}
		}
		p, err := l.File()
		require.NoError(t, err)
		src, err := os.ReadFile(p)
		require.NoError(t, err)
		back := liberty.Parse(src).Cells()
		for name, c := range cells {
			w, ok := back[name]
			require.True(t, ok, "cell %q in the file the tools read", name)
			if c.DontUse {
				require.True(t, w.DontUse, "cell %q marked dont_use in the file the tools read", name)
			}
		}
		// The tools' file opens again as a library of the same cells.
		again, err := pdk.Open(p, dontUse)
		require.NoError(t, err, "the file the tools read opens again")
		require.Len(t, again.Cells(), len(cells))
	})
}
