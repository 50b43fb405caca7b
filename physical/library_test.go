package physical_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/internal/cleanup"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/physical/pdk"
)

func TestMain(m *testing.M) {
	code := m.Run()
	cleanup.RemoveAll() // the libraries written for the tools
	os.Exit(code)
}

// TestPlatformLibraries synthesizes an 8-bit adder onto each library a designer
// tapes out on: results in ns and µm² whatever the library's units (ASAP7
// counts in ps), named by the library, no cell the record forbids, and
// ABC given the record's driver and load (its log says it read them).
func TestPlatformLibraries(t *testing.T) {
	t.Parallel()
	needTools(t)
	tests := []struct {
		name, spec string
		// area and delay bounds of an 8-bit Kogge–Stone, in µm² and ns:
		// a figure off by a unit's 1000 falls outside.
		area, delay [2]float64
	}{
		{"asap7", "asap7", [2]float64{1, 30}, [2]float64{0.05, 0.5}},
		{"sky130hd", "sky130hd", [2]float64{100, 1000}, [2]float64{0.5, 5}},
		{"nangate45", "", [2]float64{20, 200}, [2]float64{0.1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec := tt.spec
			if spec == "" {
				spec = tooltest.Shared(t, "pdk/nangate45/nangate45_typ.lib.gz")
			}
			lib, err := pdk.Open(spec, nil)
			require.NoError(t, err)
			wd := t.TempDir()
			r, err := physical.Synthesize(context.Background(), build(t, "kogge-stone", 8, nil), physical.Options{Liberty: spec, Workdir: wd})
			require.NoError(t, err)
			assert.Equal(t, spec, r.Liberty)
			assert.InDelta(t, (tt.area[0]+tt.area[1])/2, r.AreaUM2, (tt.area[1]-tt.area[0])/2, "area in µm²")
			assert.InDelta(t, (tt.delay[0]+tt.delay[1])/2, r.DelayNS, (tt.delay[1]-tt.delay[0])/2, "delay in ns")
			for c := range r.Cells {
				assert.False(t, lib.IsDontUse(c), "%s is not to be used", c)
			}
			kept, err := filepath.EvalSymlinks(filepath.Join(wd, "kogge-stone", "liberty.lib"))
			require.NoError(t, err)
			wdReal, err := filepath.EvalSymlinks(wd)
			require.NoError(t, err)
			assert.Equal(t, wdReal, filepath.Dir(kept), "the work folder keeps the library its scripts read")
			src, err := os.ReadFile(kept)
			require.NoError(t, err)
			for name, c := range liberty.Cells(src) {
				assert.False(t, lib.IsDontUse(name), "%s: ABC reads only the cells it maps onto", name)
				assert.Empty(t, c.Clock, "%s: ABC reads only the cells it maps onto", name)
			}
			// A pipelined adder's registers map onto the flip-flops of the
			// whole library.
			piped, err := physical.ArchitectureDesign(build(t, "kogge-stone", 8, nil), adder.Architecture{Flags: adder.Carry, Stages: 1}, nil)
			require.NoError(t, err)
			pwd := t.TempDir()
			_, err = physical.Run(context.Background(), []*physical.Design{piped}, physical.Options{Liberty: spec, Workdir: pwd})
			require.NoError(t, err)
			links, err := filepath.Glob(filepath.Join(pwd, "*", "liberty.lib"))
			require.NoError(t, err)
			require.Len(t, links, 1)
			src, err = os.ReadFile(links[0])
			require.NoError(t, err)
			assert.Len(t, liberty.Cells(src), len(lib.Cells()), "the whole library")
			log, err := os.ReadFile(filepath.Join(wd, "kogge-stone", "yosys.log"))
			require.NoError(t, err)
			assert.Contains(t, string(log), `Setting driving cell to be "`+lib.Record.DriverCell+`".`)
			assert.Regexp(t, `Setting output load to be 3\.898|Setting output load to be 5\.0`, string(log))
		})
	}
}

// TestDontUse gives the flow a library whose smallest NAND2 is not to be
// used: without the list ABC maps onto it, with it never, and PGCells
// takes the next.
func TestDontUse(t *testing.T) {
	t.Parallel()
	needTools(t)
	osu, err := os.ReadFile(physical.Libraries["osu018"])
	require.NoError(t, err)
	nand := regexp.MustCompile(`(?s)\ncell \(NAND2X1\) \{.*?\n\}\n`).Find(osu)
	require.NotNil(t, nand)
	best := strings.Replace(string(nand), "cell (NAND2X1)", "cell (NAND2BEST)", 1)
	best = regexp.MustCompile(`area : [\d.]+`).ReplaceAllString(best, "area : 1")
	end := strings.LastIndex(string(osu), "}")
	lib := filepath.Join(t.TempDir(), "best.lib")
	require.NoError(t, os.WriteFile(lib, []byte(string(osu[:end])+best+"}\n"), 0o644))
	net := build(t, "kogge-stone", 8, nil)
	for _, tt := range []struct {
		dontUse []string
		used    bool
	}{{nil, true}, {[]string{"NAND2BEST"}, false}} {
		r, err := physical.Synthesize(context.Background(), net, physical.Options{Liberty: lib, DontUse: tt.dontUse})
		require.NoError(t, err)
		assert.Equal(t, tt.used, r.Cells["NAND2BEST"] > 0, "NAND2BEST used, with dont-use %v: %v", tt.dontUse, r.Cells)
		assert.Positive(t, r.Cells["NAND2X1"]+r.Cells["NAND2BEST"])
		cells, err := physical.PGCells(lib, tt.dontUse...)
		require.NoError(t, err)
		assert.Equal(t, map[bool]string{true: "NAND2BEST", false: "NAND2X1"}[tt.used], cells.NAND2.Name)
	}
}

// TestLibraryNameOfFiles: an adder document records a library read from
// files by its library group's name, unless that name is none or one of
// a library prefixgen carries: a later --from would then measure on the
// carried library, or the default, instead of the user's cells. Those
// are recorded by the files' names, which name no carried library.
func TestLibraryNameOfFiles(t *testing.T) {
	t.Parallel()
	osu, err := os.ReadFile(physical.Libraries["osu018"])
	require.NoError(t, err)
	dir := t.TempDir()
	for _, tt := range []struct{ group, file, want string }{
		{"osu018_stdcells", "mine.lib", "osu018_stdcells"},
		{`""`, "unnamed.lib", "unnamed.lib"},
		{"asap7", "a7.lib", "a7.lib"},
		{"SKY130HD", "hd.lib", "hd.lib"},
	} {
		path := filepath.Join(dir, tt.file)
		text := strings.Replace(string(osu), "library(osu018_stdcells)", "library("+tt.group+")", 1)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		name, err := physical.LibraryName(path)
		require.NoError(t, err)
		assert.Equal(t, tt.want, name, tt.group)
		assert.False(t, physical.IsLibraryName(name), "%s names no carried library", name)
	}
	name, err := physical.LibraryName("asap7")
	require.NoError(t, err)
	assert.Equal(t, "asap7", name)
}

// TestYosysScriptRecord: a platform's record adds ABC's constraints and
// the tie and buffer cells to the script, as OpenROAD-flow-scripts'
// synthesis does; without one the script is the plain flow's.
func TestYosysScriptRecord(t *testing.T) {
	rec := pdk.RecordFor("asap7sc7p5t_SIMPLE_RVT_TT_nldm_211120")
	for _, flow := range physical.Flows {
		s := physical.YosysScript(flow, "top", "x.lib", rec, false)
		assert.Regexp(t, `(?m)^abc -liberty liberty\.lib -constr abc\.constr( -script \S+)?$`, s)
		assert.Contains(t, s, "opt_clean -purge\nhilomap -singleton -hicell TIEHIx1_ASAP7_75t_R H -locell TIELOx1_ASAP7_75t_R L\ninsbuf -buf BUFx2_ASAP7_75t_R A Y\ntee -q -o stat.txt")
		plain := physical.YosysScript(flow, "top", "x.lib", nil, false)
		assert.NotContains(t, plain, "dfflibmap", "a design without registers")
		assert.Contains(t, physical.YosysScript(flow, "top", "x.lib", nil, true), "\ndfflibmap -liberty liberty.lib\nabc -liberty liberty.lib")
		assert.NotContains(t, plain, "constr")
		assert.NotContains(t, plain, "hilomap")
		assert.NotContains(t, plain, "insbuf")
	}
	assert.Equal(t, "set_driving_cell BUFx2_ASAP7_75t_R\nset_load 3.898\n", physical.ABCConstraints(rec))
	assert.Empty(t, physical.ABCConstraints(nil))
	assert.Empty(t, physical.ABCConstraints(&pdk.Record{Platform: "none"}))
}

func TestFormatNS(t *testing.T) {
	for _, tt := range []struct {
		t    float64
		want string
	}{
		{0, "0.000"},
		{math.Copysign(0, -1), "0.000"},
		{-0.0004, "0.000"},
		{-0.0006, "-0.001"},
		{-1.25, "-1.250"},
		{0.8292, "0.829"},
		{12.3456, "12.346"},
	} {
		assert.Equal(t, tt.want, physical.FormatNS(tt.t), "%g", tt.t)
	}
}

func TestFormatArea(t *testing.T) {
	for _, tt := range []struct {
		a    float64
		want string
	}{{0, "0"}, {1234.4, "1234"}, {100, "100"}, {99.94, "99.9"}, {39.21, "39.2"}, {5.834, "5.83"}, {0.0875, "0.0875"}, {0.00001, "0.0000"}} {
		assert.Equal(t, tt.want, physical.FormatArea(tt.a), "%g", tt.a)
	}
}
