package delay_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/liberty"
)

// osu018Path is where Debian's qflow-tech-osu018 puts the library.
const osu018Path = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"

// readLibrary parses the Liberty files at paths (gzip-compressed where
// they end in .gz) into one group holding each file's library group.
func readLibrary(t testing.TB, paths ...string) *liberty.Group {
	t.Helper()
	root := &liberty.Group{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		if strings.HasSuffix(p, ".gz") {
			z, err := gzip.NewReader(bytes.NewReader(data))
			require.NoError(t, err)
			data, err = io.ReadAll(z)
			require.NoError(t, err)
		}
		root.Groups = append(root.Groups, liberty.Parse(data).Groups...)
	}
	return root
}

// TestOSU018 derives every constant of delay.OSU018 from the Liberty file
// again, with Calibrate at the transition the package documentation
// names, and checks them to within 0.5%.
func TestOSU018(t *testing.T) {
	tooltest.File(t, osu018Path, "qflow-tech-osu018")
	got, err := delay.Calibrate(readLibrary(t, osu018Path), delay.CalibrateOptions{Name: "osu018", SlewNS: 0.18})
	require.NoError(t, err)
	assertLibrary(t, delay.OSU018, got)
}

// assertLibrary checks that got holds want's cells and, within 0.5%, its
// constants.
func assertLibrary(t *testing.T, want, got delay.Library) {
	t.Helper()
	near := func(want, got float64, what string) {
		t.Helper()
		if want == 0 {
			assert.Zero(t, got, what)
			return
		}
		assert.InEpsilon(t, want, got, 0.005, what)
	}
	assert.Equal(t, want.Name, got.Name)
	near(want.TauNS, got.TauNS, "τ (ns)")
	near(want.FO4, got.FO4, "FO4 (τ)")
	near(want.OutputLoad, got.OutputLoad, "output load")
	near(want.WireCap, got.WireCap, "wire")
	for _, g := range [][2]delay.Gate{{want.Generate, got.Generate}, {want.Propagate, got.Propagate}, {want.Sum, got.Sum}, {want.CellG, got.CellG}, {want.CellP, got.CellP}} {
		w, h := g[0], g[1]
		require.Equal(t, w.Name, h.Name)
		near(w.Parasitic, h.Parasitic, w.Name+" parasitic")
		near(w.Drive, h.Drive, w.Name+" drive")
		for i := range w.Pins {
			near(w.Pins[i], h.Pins[i], w.Name+" pin")
		}
		assert.Equal(t, w.Area, h.Area, w.Name+" area")
	}
}

// pdk returns the path of a library file the shared folder beside the
// repository holds (../shared/pdk), skipping the test where it is absent
// (or failing it under PREFIXGEN_REQUIRE_TOOLS=1, as in CI).
func pdk(t *testing.T, rel string) string {
	t.Helper()
	p := filepath.Join("..", "..", "shared", "pdk", rel)
	tooltest.File(t, p, "(the project's ../shared/pdk folder)")
	return p
}

// TestCalibrateLibraries calibrates the model on the libraries people tape
// out on, times in ns or ps and capacitances in pF or fF, and checks that
// it stands on the smallest cell of each function the platform allows
// (ASAP7's record forbids its xp sizes), and that the figures are those of
// a logic library: an FO4 delay of 4 to 9 τ, an output load of a few unit
// inverters.
func TestCalibrateLibraries(t *testing.T) {
	for _, c := range []struct {
		name    string
		files   []string
		dontUse func(string) bool
		cells   [3]string // NAND2, XOR2, AOI21
		tauPS   [2]float64
	}{
		{"sky130hd", []string{"sky130hd/sky130hd_tt.lib.gz"}, nil,
			[3]string{"sky130_fd_sc_hd__nand2_1", "sky130_fd_sc_hd__xor2_1", "sky130_fd_sc_hd__a21oi_1"}, [2]float64{10, 40}},
		{"nangate45", []string{"nangate45/nangate45_typ.lib.gz"}, nil,
			[3]string{"NAND2_X1", "XOR2_X1", "AOI21_X1"}, [2]float64{2, 10}},
		{"asap7", []string{"asap7/asap7sc7p5t_INVBUF_RVT_TT_nldm_220122.lib.gz", "asap7/asap7sc7p5t_SIMPLE_RVT_TT_nldm_211120.lib.gz", "asap7/asap7sc7p5t_AO_RVT_TT_nldm_211120.lib.gz"},
			func(cell string) bool { return strings.Contains(cell, "xp") || strings.Contains(cell, "x1p") },
			[3]string{"NAND2x1_ASAP7_75t_R", "XOR2x2_ASAP7_75t_R", "AOI21x1_ASAP7_75t_R"}, [2]float64{1, 6}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var paths []string
			for _, f := range c.files {
				paths = append(paths, pdk(t, f))
			}
			lib, err := delay.Calibrate(readLibrary(t, paths...), delay.CalibrateOptions{Name: c.name, DontUse: c.dontUse})
			require.NoError(t, err)
			assert.Equal(t, c.cells[:], []string{lib.Generate.Name, lib.Propagate.Name, lib.CellG.Name})
			assert.Equal(t, lib.Generate, lib.CellP)
			assert.Equal(t, lib.Propagate, lib.Sum)
			assert.True(t, lib.TauNS*1e3 >= c.tauPS[0] && lib.TauNS*1e3 <= c.tauPS[1], "τ = %.2f ps", lib.TauNS*1e3)
			assert.True(t, lib.FO4 >= 4 && lib.FO4 <= 9, "FO4 = %.2f τ", lib.FO4)
			assert.True(t, lib.OutputLoad > 1 && lib.OutputLoad < 30, "10 fF = %.2f unit inverters", lib.OutputLoad)
			for _, g := range []delay.Gate{lib.Generate, lib.Propagate, lib.CellG} {
				assert.True(t, g.Parasitic > 0.5 && g.Parasitic < 15 && g.Drive > 0.2 && g.Drive < 5 && g.Area > 0, "%+v", g)
			}
			t.Logf("%+v", lib)
		})
	}
}

// tiny is a Liberty library of four cells in ps and fF, its tables over
// input transition first, enough to calibrate on.
const tiny = `library (tiny) {
  time_unit : "1ps";
  capacitive_load_unit (1,ff);
  lu_table_template (t) { variable_1 : input_net_transition; variable_2 : total_output_net_capacitance; }
  cell (INV) { area : 1; pin (A) { direction : input; capacitance : 1; }
    pin (Y) { direction : output; function : "!A"; timing () { related_pin : "A";
      cell_rise (t) { index_1 ("10, 20"); index_2 ("1, 2, 4, 8"); values ("5, 6, 8, 12", "6, 7, 9, 13"); }
      rise_transition (t) { index_1 ("10, 20"); index_2 ("1, 2, 4, 8"); values ("8, 12, 20, 36", "9, 13, 21, 37"); } } } }
  cell (ND2) { area : 2; pin (A) { direction : input; capacitance : 1.2; } pin (B) { direction : input; capacitance : 1.3; }
    pin (Y) { direction : output; function : "!(A&B)"; timing () { related_pin : "A";
      cell_fall (t) { index_1 ("10, 20"); index_2 ("1, 2, 4, 8"); values ("7, 9, 13, 21", "8, 10, 14, 22"); } } } }
  cell (XR2) { area : 4; pin (A) { direction : input; capacitance : 2; } pin (B) { direction : input; capacitance : 2; }
    pin (Y) { direction : output; function : "A^B"; timing () { related_pin : "A";
      cell_rise (t) { index_1 ("10, 20"); index_2 ("1, 2, 4, 8"); values ("12, 14, 18, 26", "13, 15, 19, 27"); } } } }
  cell (AOI) { area : 3; pin (C) { direction : input; capacitance : 1.1; } pin (A) { direction : input; capacitance : 1.4; } pin (B) { direction : input; capacitance : 1.5; }
    pin (Y) { direction : output; function : "!(C+(A B))"; timing () { related_pin : "A";
      cell_rise (t) { index_1 ("10, 20"); index_2 ("1, 2, 4, 8"); values ("8, 11, 17, 29", "9, 12, 18, 30"); } } } }
}
`

// TestCalibrate checks Calibrate's arithmetic on a library small enough to
// work out by hand: τ is the inverter's slope (1 ps per fF) times its
// input capacitance (1 fF), the AOI21's pins are put in the model's order
// (the two in series, then the single), and times in ps and capacitances
// in fF come out in ns and unit inverters.
func TestCalibrate(t *testing.T) {
	lib, err := delay.Calibrate(liberty.Parse([]byte(tiny)), delay.CalibrateOptions{Name: "tiny", SlewNS: 0.01})
	require.NoError(t, err)
	assert.InDelta(t, 0.001, lib.TauNS, 1e-12)
	assert.InDelta(t, 8, lib.FO4, 1e-9, "4 ps of parasitic and 4 of load")
	assert.InDelta(t, 10, lib.OutputLoad, 1e-9, "10 fF over 1 fF")
	assert.Equal(t, delay.Gate{Name: "ND2", Parasitic: 5, Drive: 2, Pins: [3]float64{1.2, 1.3}, Area: 2}, round(lib.Generate))
	assert.Equal(t, delay.Gate{Name: "XR2", Parasitic: 10, Drive: 2, Pins: [3]float64{2, 2}, Area: 4}, round(lib.Sum))
	assert.Equal(t, delay.Gate{Name: "AOI", Parasitic: 5, Drive: 3, Pins: [3]float64{1.4, 1.5, 1.1}, Area: 3}, round(lib.CellG))
}

// TestCalibrateDefaultUnits reads a library that states no units as
// Liberty's defaults, ns and pF: the same cells in ns and pF as tiny's in
// ps and fF, scaled, give the same library.
func TestCalibrateDefaultUnits(t *testing.T) {
	want, err := delay.Calibrate(liberty.Parse([]byte(tiny)), delay.CalibrateOptions{Name: "tiny", SlewNS: 0.01})
	require.NoError(t, err)
	src := strings.NewReplacer(`time_unit : "1ps";`, "", "capacitive_load_unit (1,ff);", "").Replace(tiny)
	got, err := delay.Calibrate(liberty.Parse([]byte(src)), delay.CalibrateOptions{Name: "tiny", SlewNS: 10})
	require.NoError(t, err)
	// In ns and pF every time is 1000 times longer and every capacitance
	// 1000 times larger: τ (a slope times a capacitance) 1000 times
	// longer, the same in τ and unit inverters, but the 10 fF load, a
	// thousandth of the unit inverter now.
	assert.InEpsilon(t, want.TauNS*1e3, got.TauNS, 1e-9)
	assert.InEpsilon(t, want.FO4, got.FO4, 1e-9)
	assert.InEpsilon(t, want.OutputLoad/1000, got.OutputLoad, 1e-9)
	assert.Equal(t, round(want.CellG), round(got.CellG))
}

// round rounds a gate's figures to 1e-9, so that a hand-worked gate
// compares equal.
func round(g delay.Gate) delay.Gate {
	r := func(x float64) float64 { return math.Round(x*1e9) / 1e9 }
	g.Parasitic, g.Drive, g.Area = r(g.Parasitic), r(g.Drive), r(g.Area)
	for i := range g.Pins {
		g.Pins[i] = r(g.Pins[i])
	}
	return g
}

func TestCalibrateBadLibrary(t *testing.T) {
	for _, c := range []struct {
		name, from, to string
		opt            delay.CalibrateOptions
		want           string
	}{
		{"no AOI21", `function : "!(C+(A B))"`, `function : "!(C+A+B)"`, delay.CalibrateOptions{},
			"delay: the library has no usable AOI21 cell: the model needs an inverter, NAND2, XOR2 or XNOR2, and AOI21"},
		{"NAND2 dont-use", "cell (ND2) {", "cell (ND2) { dont_use : true;", delay.CalibrateOptions{},
			"delay: the library has no usable NAND2 cell: the model needs an inverter, NAND2, XOR2 or XNOR2, and AOI21"},
		{"platform's dont-use", "", "", delay.CalibrateOptions{DontUse: func(c string) bool { return c == "INV" }},
			"delay: the library has no usable inverter cell: the model needs an inverter, NAND2, XOR2 or XNOR2, and AOI21"},
		{"time unit", `"1ps"`, `"1 parsec"`, delay.CalibrateOptions{},
			`delay: the library's time_unit "1 parsec": allowed a number and a unit, as 1ns`},
		{"capacitance unit", "(1,ff)", "(1,furlong)", delay.CalibrateOptions{},
			`delay: the library's capacitive_load_unit "1furlong": allowed a number and a unit, as 1pf`},
		{"axes", "variable_1 : input_net_transition;", "variable_1 : input_net_length;", delay.CalibrateOptions{},
			`delay: cell INV: rise_transition table with axes "input_net_length" and "total_output_net_capacitance": allowed a table over load and input transition`},
		{"values", `values ("5, 6, 8, 12", "6, 7, 9, 13")`, `values ("5, 6, 8", "6, 7, 9, 13")`, delay.CalibrateOptions{SlewNS: 0.01},
			"delay: cell INV: cell_rise table of 7 values over 4 loads and 2 transitions: allowed a table over load and input transition"},
		{"no capacitance", "pin (A) { direction : input; capacitance : 1; }", "pin (A) { direction : input; }", delay.CalibrateOptions{},
			"delay: cell INV pin A has no capacitance: allowed a library whose input pins give theirs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(tiny, c.from, c.to, 1)
			require.True(t, c.from == "" || src != tiny, "the case changes nothing")
			_, err := delay.Calibrate(liberty.Parse([]byte(src)), c.opt)
			assert.EqualError(t, err, c.want)
		})
	}
}

// FuzzCalibrate feeds Calibrate what a Liberty file may hold: it returns a
// library or an error, never a panic.
func FuzzCalibrate(f *testing.F) {
	f.Add(tiny)
	f.Add(strings.Replace(tiny, `index_2 ("1, 2, 4, 8")`, `index_2 ("1")`, 1))
	f.Add(strings.Replace(tiny, `"1ps"`, `"0ps"`, 1))
	f.Fuzz(func(t *testing.T, src string) {
		lib, err := delay.Calibrate(liberty.Parse([]byte(src)), delay.CalibrateOptions{})
		if err == nil {
			assert.NotEmpty(t, lib.CellG.Name)
		}
	})
}
