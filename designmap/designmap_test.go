package designmap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
)

// macOptions maps testdata/mac.v (three 18-bit adders: a four-operand
// sum, an accumulator, a comparison) on the default library.
func macOptions() Options {
	return Options{Files: []string{filepath.Join("testdata", "mac.v")}, Top: "mac", PeriodNS: 3, Rounds: 1}
}

func tools(t *testing.T) {
	t.Helper()
	tooltest.Path(t, "yosys")
	tooltest.Path(t, "yosys-abc")
	tooltest.Path(t, "sta")
	tooltest.Flow(t, physical.LibertyFile(""))
}

func TestMap(t *testing.T) {
	tools(t)
	t.Parallel()
	opt := macOptions()
	opt.Check, opt.Compare = true, true
	res, err := Map(context.Background(), opt)
	require.NoError(t, err)
	require.Len(t, res.Adders, 3)
	for _, a := range res.Adders {
		assert.Equal(t, 18, a.Width, a.Cell)
		require.NotNil(t, a.Network, a.Cell)
		assert.Equal(t, 18, a.Network.Width(), a.Cell)
	}
	// The result is the best of what was measured, Yosys's and every
	// family's included.
	for _, b := range append(res.Baselines, res.Before) {
		assert.False(t, better(&measure{area: b.AreaUM2, worst: b.WorstNS}, &measure{area: res.After.AreaUM2, worst: res.After.WorstNS}, opt.PeriodNS),
			"%s beats the result %+v", b.Choice, res.After)
	}
	assert.Len(t, res.Baselines, len(Baselines)+1)
	assert.True(t, res.Proved)
	assert.Contains(t, string(res.Netlist), "module mac")
	for _, cell := range []string{"$lcu", "$__prefixgen", "$alu", "$macc"} {
		assert.False(t, strings.Contains(string(res.Netlist), cell), "the netlist holds a %s cell", cell)
		assert.False(t, strings.Contains(string(res.Generic), cell), "the generic netlist holds a %s cell", cell)
	}
}

// startMac prepares testdata/mac.v for a test that runs in parallel, and
// removes its work folder when the test ends.
func startMac(t *testing.T) *run {
	t.Helper()
	tools(t)
	t.Parallel()
	r, remove, err := start(context.Background(), macOptions())
	require.NoError(t, err)
	t.Cleanup(remove)
	return r
}

// TestCheckFailsOnWrongAdder plants a wrong carry in one adder's network:
// the proof must fail, and say so.
func TestCheckFailsOnWrongAdder(t *testing.T) {
	r := startMac(t)
	ctx := context.Background()
	c, err := r.uniform(Baselines[3], asExtracted) // Sklansky
	require.NoError(t, err)
	lcus, nets, err := r.lcuMap(c, false)
	require.NoError(t, err)
	right, err := r.genericFrom(ctx, c, lcus, nets)
	require.NoError(t, err)
	gold, err := r.generic(ctx, yosysChoice())
	require.NoError(t, err)
	proved, err := r.equivalent(ctx, gold, right)
	require.NoError(t, err)
	require.True(t, proved)

	// The carry out of bit 16 of every adder forgets bits 0 to 15.
	wrong := regexp.MustCompile(`assign CO\[16\] = [^;]*;`).ReplaceAllString(nets, "assign CO[16] = G[16];")
	require.NotEqual(t, nets, wrong)
	gate, err := r.genericFrom(ctx, c, lcus, wrong)
	require.NoError(t, err)
	proved, err = r.equivalent(ctx, gold, gate)
	require.Error(t, err)
	assert.False(t, proved)
	assert.Contains(t, err.Error(), "not proven equal to Yosys's own mapping: ABC's dprove finds an input where they differ")
}

func TestMapNoAdders(t *testing.T) {
	tools(t)
	t.Parallel()
	opt := Options{Files: []string{filepath.Join("testdata", "noadder.v")}, Top: "noadder", PeriodNS: 2}
	res, err := Map(context.Background(), opt)
	require.NoError(t, err, "%v", err)
	assert.Empty(t, res.Adders)
	assert.Contains(t, string(res.Netlist), "module noadder")
	assert.Equal(t, res.Before, res.After)
}

// A design without a clock input or registers is timed from its inputs
// to its outputs against a virtual clock of the period; one with
// registers needs its clock, and a clock named is one the design has.
func TestMapCombinational(t *testing.T) {
	tools(t)
	t.Parallel()
	comb := filepath.Join("testdata", "comb.v")
	var calls [][2]int
	var mu sync.Mutex
	progress := func(done, total int) { mu.Lock(); calls = append(calls, [2]int{done, total}); mu.Unlock() }
	res, err := Map(context.Background(), Options{Files: []string{comb}, Top: "comb", PeriodNS: 0.5, Rounds: 1, Progress: progress})
	require.NoError(t, err)
	// The count ends at its total, however many of the rounds planned
	// ran: a bar stood at 14/22.
	require.NotEmpty(t, calls)
	last := calls[len(calls)-1]
	assert.Equal(t, last[0], last[1], "done at the end: %v", calls)
	// The total before the first synthesis ends: a bar had shown nothing
	// for the first half minute of SHA-256.
	assert.Equal(t, 0, calls[0][0], "%v", calls)
	assert.Greater(t, calls[0][1], 1, "%v", calls)
	// The syntheses of a round run side by side; their counts come in
	// order, one call at a time.
	for i := 1; i < len(calls); i++ {
		assert.Greater(t, calls[i][0], calls[i-1][0]-1, "the count went back: %v", calls)
	}
	assert.True(t, res.VirtualClock)
	require.NotEmpty(t, res.Adders)
	for _, a := range res.Adders {
		assert.False(t, math.IsInf(a.SlackNS, 1), "%s: no path timed through it", a.Cell)
	}
	// A path is timed: the worst is the adders' delay, not the period
	// an untimed design reports.
	for _, o := range []Outcome{res.Before, res.After} {
		assert.Greater(t, o.WorstNS, 0.5, "%s: the adders' path, over the period", o.Choice)
	}
	var b strings.Builder
	require.NoError(t, WriteReport(&b, res))
	assert.Contains(t, b.String(), "\nno clock input and no registers: timed from the inputs to the outputs against a virtual clock of 0.5 ns\n")

	_, err = Map(context.Background(), Options{Files: []string{comb}, Top: "comb", PeriodNS: 1, Clock: "clk"})
	require.Error(t, err)
	assert.Equal(t, `designmap: clock "clk" is not an input of comb: allowed an input port (--clock)`, err.Error())

	dir := t.TempDir()
	reg := filepath.Join(dir, "reg.v")
	require.NoError(t, os.WriteFile(reg, []byte("module reg1(input ck, input [7:0] a, b, output reg [7:0] s);\n  always @(posedge ck) s <= a + b;\nendmodule\n"), 0o644))
	_, err = Map(context.Background(), Options{Files: []string{reg}, Top: "reg1", PeriodNS: 1})
	require.Error(t, err)
	assert.Equal(t, `designmap: clock "clk" is not an input of reg1, whose registers need one: allowed an input port (--clock)`, err.Error())

	// Registers that another input clocks would go untimed; latches are
	// neither mapped nor timed.
	twoClocks := filepath.Join(dir, "twoclk.v")
	require.NoError(t, os.WriteFile(twoClocks, []byte("module twoclk(input clk, input ck, input [7:0] a, b, output reg [8:0] s);\n  always @(posedge ck) s <= a + b;\nendmodule\n"), 0o644))
	_, err = Map(context.Background(), Options{Files: []string{twoClocks}, Top: "twoclk", PeriodNS: 1, Rounds: 1})
	var input *InputError
	require.ErrorAs(t, err, &input)
	assert.Equal(t, `designmap: 9 register bits of twoclk are not clocked by "clk": allowed a design whose registers one input clocks, named by --clock`, err.Error())
	latch := filepath.Join(dir, "latch.v")
	require.NoError(t, os.WriteFile(latch, []byte("module lat(input en, input [7:0] a, b, output reg [8:0] s);\n  always @* if (en) s = a + b;\nendmodule\n"), 0o644))
	for _, clock := range []string{"", "en"} {
		_, err = Map(context.Background(), Options{Files: []string{latch}, Top: "lat", PeriodNS: 1, Clock: clock})
		require.ErrorAs(t, err, &input)
		assert.Equal(t, `designmap: lat holds latches, which map neither maps nor times: allowed a design whose registers are flip-flops`, err.Error())
	}

	// The library's own flip-flops and latches, instantiated by name
	// (a black box beside the design), keep state too: a design of
	// them is not timed as one without registers.
	stubs := filepath.Join(dir, "stubs.v")
	require.NoError(t, os.WriteFile(stubs, []byte("(* blackbox *)\nmodule DFFPOSX1(input CLK, input D, output Q);\nendmodule\n(* blackbox *)\nmodule LATCH(input CLK, input D, output Q);\nendmodule\n"), 0o644))
	for _, c := range []struct{ cell, want string }{
		{"DFFPOSX1", `designmap: clock "clk" is not an input of libreg, whose registers need one: allowed an input port (--clock)`},
		{"LATCH", `designmap: libreg holds latches, which map neither maps nor times: allowed a design whose registers are flip-flops`},
	} {
		v := filepath.Join(dir, c.cell+".v")
		require.NoError(t, os.WriteFile(v, []byte("module libreg(input ck, input [7:0] a, b, output [7:0] q);\n  wire [7:0] s = a + b;\n  genvar i;\n  for (i = 0; i < 8; i = i + 1) begin : r\n    "+c.cell+" st(.CLK(ck), .D(s[i]), .Q(q[i]));\n  end\nendmodule\n"), 0o644))
		_, err = Map(context.Background(), Options{Files: []string{v, stubs}, Top: "libreg", PeriodNS: 1, Rounds: 1})
		require.ErrorAs(t, err, &input, c.cell)
		assert.Equal(t, c.want, err.Error(), c.cell)
	}
}

func TestMapBadInput(t *testing.T) {
	tools(t)
	t.Parallel()
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.v")
	require.NoError(t, os.WriteFile(broken, []byte("module broken(input a, output y);\n  assign y = a +;\nendmodule\n"), 0o644))
	mac := filepath.Join("testdata", "mac.v")
	src, err := os.ReadFile(mac)
	require.NoError(t, err)
	bom := filepath.Join(dir, "bom.v")
	require.NoError(t, os.WriteFile(bom, append([]byte("\xef\xbb\xbf"), src...), 0o644))
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		// Yosys reads no module of it, and said only that mac is not there.
		{"byte-order mark", Options{Files: []string{bom}, Top: "mac", PeriodNS: 1}, "bom.v\" starts with a UTF-8 byte-order mark (EF BB BF), which Yosys reads as no Verilog at all: allowed the file saved as UTF-8 without one"},
		{"syntax error", Options{Files: []string{broken}, Top: "broken", PeriodNS: 1}, "syntax error"},
		{"unknown top", Options{Files: []string{mac}, Top: "nosuch", PeriodNS: 1}, `top module "nosuch" is not in the design: allowed one of its modules, mac (--top)`},
		{"no clock", Options{Files: []string{mac}, Top: "mac", PeriodNS: 1, Clock: "ck"}, `clock "ck" is not an input of mac`},
		{"a bus as the clock", Options{Files: []string{mac}, Top: "mac", PeriodNS: 1, Clock: "a"}, `clock "a" is an input of more than one bit: allowed an input port of one bit (--clock)`},
		{"zero period", Options{Files: []string{mac}, Top: "mac"}, "clock period 0 ns: allowed a positive number"},
		{"negative period", Options{Files: []string{mac}, Top: "mac", PeriodNS: -1}, "allowed a positive number"},
		{"no file", Options{Top: "mac", PeriodNS: 1}, "no design file"},
		{"missing file", Options{Files: []string{filepath.Join(dir, "none.v")}, Top: "mac", PeriodNS: 1}, "cannot be read"},
		{"folder", Options{Files: []string{dir}, Top: "mac", PeriodNS: 1}, "is a folder"},
		{"bad define", Options{Files: []string{mac}, Top: "mac", PeriodNS: 1, Defines: []string{"A B"}}, "allowed NAME or NAME=VALUE"},
		{"missing include folder", Options{Files: []string{mac}, Top: "mac", PeriodNS: 1, Includes: []string{filepath.Join(dir, "none")}}, "include folder"},
		{"include file", Options{Files: []string{mac}, Top: "mac", PeriodNS: 1, Includes: []string{mac}}, "is not a folder"},
		{"unknown library", Options{Files: []string{mac}, Top: "mac", PeriodNS: 1, Liberty: "sky131"}, "sky131"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Map(context.Background(), tt.opt)
			require.Error(t, err)
			assert.True(t, IsInput(err), "%v", err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

func TestParseLCUs(t *testing.T) {
	dump := []byte(`
  cell $__prefixgen_lcu \prefixgen_lcu_10
    parameter \WIDTH 32
    connect \CI 1'0
  end
  cell $__prefixgen_lcu \prefixgen_lcu_2
    parameter \WIDTH 6
  end
`)
	got, err := parseLCUs(dump)
	require.NoError(t, err)
	assert.Equal(t, []lcu{{"prefixgen_lcu_2", 6}, {"prefixgen_lcu_10", 32}}, got)

	_, err = parseLCUs([]byte("cell $__prefixgen_lcu \\prefixgen_lcu_0\n  parameter \\WIDTH 5000\n"))
	assert.EqualError(t, err, "designmap: the design has an adder of 5000 bits: allowed adders of 1 to 1024 bits")
	_, bad := errors.AsType[*InputError](err)
	assert.True(t, bad, "bad input, exit 2")
	_, err = parseLCUs([]byte("cell $__prefixgen_lcu \\prefixgen_lcu_0\n  connect \\P x\n"))
	assert.ErrorContains(t, err, "1 adders, 0 of them read")
	// The widths the message allows are the widths read: 1 and 1024 are
	// adders, 0 is not.
	got, err = parseLCUs([]byte("cell $__prefixgen_lcu \\prefixgen_lcu_0\n  parameter \\WIDTH 1024\nend\ncell $__prefixgen_lcu \\prefixgen_lcu_1\n  parameter \\WIDTH 1\nend\n"))
	require.NoError(t, err)
	assert.Equal(t, []lcu{{cell: "prefixgen_lcu_0", width: 1024}, {cell: "prefixgen_lcu_1", width: 1}}, got)
	_, err = parseLCUs([]byte("cell $__prefixgen_lcu \\prefixgen_lcu_0\n  parameter \\WIDTH 0\n"))
	assert.EqualError(t, err, "designmap: the design has an adder of 0 bits: allowed adders of 1 to 1024 bits")
}

// staOutput is what staScript's probes print, cut short.
const staOutput = `Startpoint: x
prefixgen-worst
worst slack -1.25
prefixgen-arrival 0 0
 (clk ^) r 0.50:1.00 f 0.40:1.20
prefixgen-arrival 0 0
 (clk ^) r 0.50:1.30 f 0.40:1.10
prefixgen-arrival 0 2
 (clk ^) r 2.00:2.50 f 2.00:2.40
prefixgen-out 0
 (clk ^) r 2.00:3.10 f 2.00:3.00
prefixgen-slack 0
Endpoint                               Delay   Delay   Slack
------------------------------------------------------------
_14719_/D (sky130_fd_sc_hd__dfrtp_1)    9.85   11.35   -1.50 (VIOLATED)

prefixgen-slack 1
No paths found.
prefixgen-end
`

func TestReadTiming(t *testing.T) {
	r := &run{opt: Options{PeriodNS: 10}}
	d := &design{adders: []lcu{{"prefixgen_lcu_0", 3}, {"prefixgen_lcu_1", 2}}}
	var m measure
	require.NoError(t, r.readTiming(staOutput, &m, d, true))
	assert.InDelta(t, 11.25, m.worst, 1e-9)
	// Bit 1 printed nothing: it takes the earliest known arrival.
	assert.Equal(t, []float64{1.3, 1.3, 2.5}, m.arrivals[0])
	assert.Equal(t, 3.1, m.cout[0])
	assert.Equal(t, -1.5, m.slack[0])
	assert.True(t, m.slack[1] > 1e300, "no path through adder 1: %v", m.slack[1])
	assert.Equal(t, []float64{0, 0}, m.arrivals[1])

	err := r.readTiming("nothing", &m, d, false)
	assert.ErrorContains(t, err, "no worst slack")
	err = r.readTiming("prefixgen-arrival 7 0\n", &m, d, true)
	assert.ErrorContains(t, err, "adder 7 of 2")
}

// TestReadTimingLatestAndWorst: a bit arrives with the later of its rise
// and fall, here the fall; an adder's slack is the least of its rows; and
// a design with no path timed against the clock has a worst path of 0, not
// the whole period.
func TestReadTimingLatestAndWorst(t *testing.T) {
	r := &run{opt: Options{PeriodNS: 10}}
	d := &design{adders: []lcu{{cell: "prefixgen_lcu_0", width: 2}}}
	out := `prefixgen-worst
worst slack 4.00
prefixgen-arrival 0 0
 (clk ^) r 0.50:1.00 f 0.40:1.70
prefixgen-arrival 0 1
 (clk ^) r 0.50:2.10 f 0.40:1.20
prefixgen-out 0
 (clk ^) r 2.00:3.10 f 2.00:3.60
prefixgen-slack 0
_1_/D (DFF)    9.85   11.35   0.75 (MET)
_2_/D (DFF)    9.85   11.35   -0.25 (VIOLATED)
_3_/D (DFF)    9.85   11.35   1.50 (MET)
prefixgen-end
`
	var m measure
	require.NoError(t, r.readTiming(out, &m, d, true))
	assert.InDelta(t, 6, m.worst, 1e-9)
	assert.Equal(t, []float64{1.7, 2.1}, m.arrivals[0])
	assert.Equal(t, 3.6, m.cout[0])
	assert.Equal(t, -0.25, m.slack[0])

	require.NoError(t, r.readTiming("prefixgen-worst\nworst slack INF\nprefixgen-end\n", &m, d, false))
	assert.Zero(t, m.worst)
}

func FuzzReadTiming(f *testing.F) {
	f.Add(staOutput)
	f.Add("prefixgen-worst\nworst slack INF\n")
	f.Add("prefixgen-\nprefixgen-arrival -1 99\n")
	f.Fuzz(func(t *testing.T, out string) {
		r := &run{opt: Options{PeriodNS: 1}}
		d := &design{adders: []lcu{{"prefixgen_lcu_0", 3}}}
		var m measure
		_ = r.readTiming(out, &m, d, true)
		_ = r.readTiming(out, &m, d, false)
	})
}

// TestSpread: the spread column of map's report is the latest arrival of an
// adder's bits less the earliest, 0 for none.
func TestSpread(t *testing.T) {
	assert.InDelta(t, 1.5, spread([]float64{0.5, 2.0, 1.25}), 1e-12)
	assert.InDelta(t, 0, spread([]float64{3, 3}), 1e-12)
	assert.Zero(t, spread(nil))
}

func TestBuildFamilies(t *testing.T) {
	for _, b := range Baselines {
		for _, n := range []int{1, 2, 3, 6, 18, 32, 64} {
			net, err := buildFamily(b, n)
			require.NoError(t, err, "%s at %d", b.Name(), n)
			require.Equal(t, n, net.Width())
		}
	}
}

func TestBetter(t *testing.T) {
	m := func(area, worst float64) *measure { return &measure{area: area, worst: worst} }
	tests := []struct {
		a, b *measure
		want bool
	}{
		{m(10, 4), m(5, 5), true},      // both miss 3: the faster
		{m(10, 5), m(5, 4), false},     //
		{m(9, 4.0004), m(10, 4), true}, // the same path: the smaller
		{m(10, 2.9), m(5, 3.1), true},  // only a meets 3
		{m(5, 2), m(6, 1), true},       // both meet: the smaller
		{m(6, 1), m(5, 2), false},      //
		{m(5, 3.1), m(5, 3.1), false},  // the same is not better
		{m(5, 3), m(10, 2.9), true},    // a path of the period itself meets it: the smaller
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, better(tt.a, tt.b, 3), "%+v against %+v", *tt.a, *tt.b)
	}
}

// --workdir keeps every run's scripts, the library they name, and what the
// tools wrote; a folder that holds anything is refused.
// TestMapIncludes reads a design whose width comes from a header in an
// include folder (read_verilog -I), one whose path holds a space too.
func TestMapIncludes(t *testing.T) {
	tools(t)
	t.Parallel()
	dir := t.TempDir()
	inc := filepath.Join(dir, "in clude")
	require.NoError(t, os.Mkdir(inc, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(inc, "width.vh"), []byte("`define W 12\n"), 0o644))
	design := filepath.Join(dir, "acc.v")
	require.NoError(t, os.WriteFile(design, []byte("`include \"width.vh\"\n"+
		"module acc(input clk, input [`W-1:0] a, b, output reg [`W-1:0] y);\n"+
		"  always @(posedge clk) y <= a + b;\nendmodule\n"), 0o644))
	res, err := Map(context.Background(), Options{Files: []string{design}, Top: "acc", PeriodNS: 2, Rounds: 1, Includes: []string{inc}})
	require.NoError(t, err)
	require.Len(t, res.Adders, 1)
	assert.Equal(t, 12, res.Adders[0].Width)
}

// TestMapPathsWithSpaces: OpenSTA reads no Liberty file whose path holds
// a space, and the library and the work folder may.
func TestMapPathsWithSpaces(t *testing.T) {
	tools(t)
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a folder")
	require.NoError(t, os.Mkdir(dir, 0o755))
	src, err := os.ReadFile(physical.LibertyFile(""))
	require.NoError(t, err)
	lib := filepath.Join(dir, "my library.lib")
	require.NoError(t, os.WriteFile(lib, src, 0o644))
	opt := Options{Files: []string{filepath.Join("testdata", "counter.v")}, Top: "counter", PeriodNS: 3, Rounds: 1, Liberty: lib, Workdir: filepath.Join(dir, "work here")}
	res, err := Map(context.Background(), opt)
	require.NoError(t, err)
	assert.Positive(t, res.After.WorstNS)
	opt.Workdir = ""
	_, err = Map(context.Background(), opt)
	require.NoError(t, err)
}

func TestMapWorkdir(t *testing.T) {
	tools(t)
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "work")
	opt := Options{Files: []string{filepath.Join("testdata", "noadder.v")}, Top: "noadder", PeriodNS: 2, Workdir: dir}
	_, err := Map(context.Background(), opt)
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(dir, "liberty.lib"))
	assert.FileExists(t, filepath.Join(dir, "prepared.il"))
	script, err := os.ReadFile(filepath.Join(dir, "synth-01", "map.ys"))
	require.NoError(t, err)
	assert.Contains(t, string(script), filepath.Join(dir, "liberty.lib"))

	_, err = Map(context.Background(), opt)
	require.Error(t, err)
	assert.True(t, IsInput(err))
	assert.Contains(t, err.Error(), "is not empty")
}

// A sum two other sums read is merged into each: the design then has one
// adder for each chain, proven equal to the design as written.
func TestMergedSums(t *testing.T) {
	tools(t)
	t.Parallel()
	ctx := context.Background()
	opt := Options{Files: []string{filepath.Join("testdata", "chain.v")}, Top: "chain", PeriodNS: 3, Rounds: 1}
	r, remove, err := start(ctx, opt)
	require.NoError(t, err)
	defer remove()
	require.Len(t, r.designs, 2)
	assert.Len(t, r.designs[asExtracted].adders, 3, "t, x and y")
	assert.Len(t, r.designs[sumsMerged].adders, 2, "x and y, each one sum")
	assert.Equal(t, 2, r.sumCopies, "t's two adders, copied for one of x and y")

	c, err := r.uniform(Baselines[1], sumsMerged)
	require.NoError(t, err)
	gate, err := r.generic(ctx, c)
	require.NoError(t, err)
	gold, err := r.generic(ctx, choice{design: sumsMerged})
	require.NoError(t, err)
	proved, err := r.equivalent(ctx, gold, gate)
	require.NoError(t, err)
	assert.True(t, proved)

	// What Map measures before its search: Yosys's own, every family,
	// and both again merged.
	starts, names, err := r.starts()
	require.NoError(t, err)
	require.Len(t, names, 2*(len(Baselines)+1))
	assert.Equal(t, YosysChoice, names[0])
	for i, b := range Baselines {
		assert.Equal(t, b.Name(), names[1+i])
		assert.Equal(t, asExtracted, starts[1+i].design)
		assert.Equal(t, b.Name()+", sums merged", names[len(Baselines)+1+i])
		assert.Equal(t, sumsMerged, starts[len(Baselines)+1+i].design)
	}
	assert.Equal(t, YosysChoice+", sums merged", names[len(names)-1])
	assert.Nil(t, starts[len(starts)-1].nets, "Yosys's own networks")

	// The merge is proven against the design as written: a copy that
	// subtracts where its sum adds fails the proof.
	proved, err = r.check(ctx, c, gate)
	require.NoError(t, err)
	require.True(t, proved)
	path := filepath.Join(r.dir, "merged.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(data, &doc))
	cells := doc["modules"].(map[string]any)["chain"].(map[string]any)["cells"].(map[string]any)
	copied := cells["$prefixgen$sum$1"].(map[string]any)
	require.Equal(t, "$add", copied["type"])
	copied["type"] = "$sub"
	data, err = json.Marshal(doc)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))
	proved, err = r.check(ctx, c, gate)
	assert.False(t, proved)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not proven equal to the design as written (sums merged)")
}

// A register that is an adder's operand keeps the design's name in the
// generic netlist whatever the adder's network, so that --check pairs it
// (SHA-512's counter took an adder's name, one in each netlist, and its
// proof ran past 30 minutes).
func TestGenericKeepsRegisterNames(t *testing.T) {
	tools(t)
	t.Parallel()
	ctx := context.Background()
	r, remove, err := start(ctx, Options{Files: []string{filepath.Join("testdata", "counter.v")}, Top: "counter", PeriodNS: 2, Rounds: 1})
	require.NoError(t, err)
	defer remove()
	regs := regexp.MustCompile(`(?m)^\s*reg (?:\[\d+:0\] )?(\S+);`)
	names := func(c choice) []string {
		v, err := r.generic(ctx, c)
		require.NoError(t, err)
		var out []string
		for _, m := range regs.FindAllStringSubmatch(string(v), -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return out
	}
	ks, err := r.uniform(Baselines[1], asExtracted)
	require.NoError(t, err)
	own := names(yosysChoice())
	assert.Equal(t, own, names(ks))
	assert.Contains(t, own, "cnt")
}

// dprove's verdict is read from what it prints, with registers and
// without.
func TestDproveVerdict(t *testing.T) {
	for _, tc := range []struct {
		out, want string
	}{
		{"No output failed in 19 frames.  Time =     0.00 sec\nReached limit on the number of timeframes (20).\nNetworks are equivalent.  Time =     0.00 sec\n", "equivalent"},
		{"Output 0 of miter \"miter\" was asserted in frame 1. Time =     0.00 sec\nNetworks are not equivalent.\n", "not equivalent"},
		{"Networks are NOT EQUIVALENT.\n", "not equivalent"},
		{"Networks are UNDECIDED.   Time =    60.00 sec\n", "undecided"},
		{"The network has no latches. Running CEC.\nUNSATISFIABLE  Time =     0.01 sec\n", "equivalent"},
		{"The network has no latches. Running CEC.\nSATISFIABLE    Time =     0.01 sec\n", "not equivalent"},
		{"The network has no latches. Running CEC.\nUNDECIDED      Time =     9.00 sec\n", "undecided"},
	} {
		got, _, err := dproveVerdict(tc.out)
		require.NoError(t, err, tc.out)
		assert.Equal(t, tc.want, got, tc.out)
	}
	_, _, err := dproveVerdict("Error: cannot open miter.aig\n")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no verdict: Error: cannot open miter.aig")
}

// Where sums were merged, the search runs from the best start of each
// prepared design, and the result is the best of all it measured: at a
// clock the merged design's start meets, the design as extracted may still
// end smaller (SHA-256 at 11.5 ns ended on its merged start, 69 800.7 µm²,
// where the search from the design as extracted reaches 67 945 µm²).
func TestMapSearchesEachDesign(t *testing.T) {
	tools(t)
	t.Parallel()
	var lines []string
	opt := Options{Files: []string{filepath.Join("testdata", "chain.v")}, Top: "chain", PeriodNS: 3, Rounds: 1,
		Trace: func(line string) { lines = append(lines, line) }}
	res, err := Map(context.Background(), opt)
	require.NoError(t, err)
	var starts []string
	type outcome struct{ area, worst float64 }
	var seen []outcome
	figures := regexp.MustCompile(`([0-9.]+) µm², worst path ([0-9.]+) ns$`)
	for _, l := range lines {
		if name, ok := strings.CutPrefix(l, "start: "); ok {
			starts = append(starts, name)
		}
		f := figures.FindStringSubmatch(l)
		require.NotNil(t, f, l)
		var o outcome
		o.area, err = strconv.ParseFloat(f[1], 64)
		require.NoError(t, err)
		o.worst, err = strconv.ParseFloat(f[2], 64)
		require.NoError(t, err)
		seen = append(seen, o)
	}
	require.Len(t, starts, 2, "one search from each design: %q", lines)
	assert.NotContains(t, starts[0], mergedSuffix)
	assert.Contains(t, starts[1], mergedSuffix)
	assert.Equal(t, 2, res.Rounds, "a round from each start")
	for _, o := range seen {
		m, a := &measure{area: o.area, worst: o.worst}, &measure{area: res.After.AreaUM2, worst: res.After.WorstNS}
		assert.False(t, better(m, a, opt.PeriodNS), "%v measured, better than the result %v", o, res.After)
	}
}

// A choice synthesized once is not synthesized again, in one batch or a
// later one: a round's choices often repeat one another.
func TestSynthesizeOnce(t *testing.T) {
	r := startMac(t)
	ctx := context.Background()
	ks, err := r.uniform(Baselines[1], asExtracted)
	require.NoError(t, err)
	again, err := r.uniform(Baselines[1], asExtracted) // the same networks, built again
	require.NoError(t, err)
	before := r.sequence
	ms, err := r.synthesizeAll(ctx, []choice{ks, yosysChoice(), again, {}}, make([]bool, 4))
	require.NoError(t, err)
	assert.Equal(t, before+2, r.sequence, "Kogge–Stone and Yosys's own, once each")
	assert.Same(t, ms[0], ms[2])
	assert.Same(t, ms[1], ms[3])
	ms2, err := r.synthesizeAll(ctx, []choice{again, ks}, []bool{false, true})
	require.NoError(t, err)
	assert.Equal(t, before+3, r.sequence, "only the probed one")
	assert.Same(t, ms[0], ms2[0])
	assert.NotNil(t, ms2[1].arrivals, "probed")
}

// TestJoinOnce: errors of the same words, as every synthesis of one run
// finds a tool's time limit, are told once; others each once, in order.
func TestJoinOnce(t *testing.T) {
	limit := errors.New("designmap: yosys ran past its time limit of 1s")
	assert.NoError(t, joinOnce([]error{nil, nil}))
	assert.Same(t, limit, joinOnce([]error{nil, limit, errors.New(limit.Error()), limit}))
	other := errors.New("designmap: sta failed")
	assert.Equal(t, limit.Error()+"\n"+other.Error(), joinOnce([]error{limit, other, limit}).Error())
}

// TestChipAreaNoCells: a design of wires alone has no cells, and Yosys
// names no area for it: its area is 0, where a statistics without the
// line for a design of cells is an error.
func TestChipAreaNoCells(t *testing.T) {
	area, err := chipArea([]byte("=== w ===\n\n   Number of wires:                  2\n   Number of cells:                  0\n"))
	require.NoError(t, err)
	assert.Zero(t, area)
	_, err = chipArea([]byte("=== w ===\n\n   Number of cells:                  3\n     AND2X2                        3\n"))
	assert.EqualError(t, err, "designmap: yosys's statistics name no chip area")
	area, err = chipArea([]byte("   Number of cells:                  3\n   Chip area for module '\\\\w': 96.000000\n"))
	require.NoError(t, err)
	assert.InDelta(t, 96.0, area, 1e-9)
}

// TestChipAreaOfTheTop: Yosys's statistics of a design of several modules
// name each module's area, the top's last, over its whole hierarchy: that
// is the design's area.
func TestChipAreaOfTheTop(t *testing.T) {
	stat := "=== sub ===\n   Number of cells:                  2\n   Chip area for module '\\\\sub': 10.500000\n" +
		"=== top ===\n   Number of cells:                  4\n   Chip area for module '\\\\top': 60.000000\n" +
		"=== design hierarchy ===\n   Number of cells:                  6\n   Chip area for top module '\\\\top': 81.000000\n"
	area, err := chipArea([]byte(stat))
	require.NoError(t, err)
	assert.InDelta(t, 81.0, area, 1e-9)
}

// TestMapRelativeLibrary: a library named by a path relative to the
// current folder is read from there; the run's link to it had pointed
// nowhere from the run's own folder, and Yosys could not open it. Not
// parallel: it changes the current folder.
func TestMapRelativeLibrary(t *testing.T) {
	tools(t)
	comb, err := filepath.Abs(filepath.Join("testdata", "comb.v"))
	require.NoError(t, err)
	src, err := os.ReadFile(physical.LibertyFile(""))
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	require.NoError(t, os.Mkdir("lib", 0o755))
	require.NoError(t, os.WriteFile(filepath.Join("lib", "osu.lib"), src, 0o644))
	res, err := Map(context.Background(), Options{Files: []string{comb}, Top: "comb", PeriodNS: 0.5, Rounds: 1, Liberty: filepath.Join("lib", "osu.lib")})
	require.NoError(t, err)
	assert.NotEmpty(t, res.Adders)
}

// A work folder whose path ABC cannot read in the scripts Yosys gives it
// (the library's path in it) is refused before any work, as synth's is:
// map had run its syntheses and failed in ABC, exit 1, the folder left.
// TestCheckBounds: the clock periods and rounds Check allows are those its
// messages name, both ends included.
func TestCheckBounds(t *testing.T) {
	design := filepath.Join("testdata", "comb.v")
	for _, ns := range []float64{MinPeriodNS, MaxPeriodNS} {
		assert.NoError(t, Check(Options{Files: []string{design}, Top: "comb", PeriodNS: ns}), "%v ns", ns)
	}
	for _, ns := range []float64{0.0009, 100001} {
		err := Check(Options{Files: []string{design}, Top: "comb", PeriodNS: ns})
		assert.EqualError(t, err, fmt.Sprintf("designmap: clock period %v ns: allowed 0.001 to 100000 ns", ns))
		assert.True(t, IsInput(err))
	}
	assert.NoError(t, Check(Options{Files: []string{design}, Top: "comb", PeriodNS: 1, Rounds: MaxRounds}))
	for _, rounds := range []int{-1, MaxRounds + 1} {
		err := Check(Options{Files: []string{design}, Top: "comb", PeriodNS: 1, Rounds: rounds})
		assert.EqualError(t, err, fmt.Sprintf("designmap: %d rounds: allowed 0 (the default, 2) to 1000", rounds))
	}
}

func TestCheckWorkdirPath(t *testing.T) {
	design := filepath.Join("testdata", "comb.v")
	for _, bad := range []string{"a;b", "a'b", `a"b`, "a\tb", "a\nb"} {
		err := Check(Options{Files: []string{design}, Top: "comb", PeriodNS: 1, Workdir: filepath.Join(t.TempDir(), bad)})
		require.Error(t, err, "%q", bad)
		assert.True(t, IsInput(err), "%q: %v", bad, err)
		assert.Contains(t, err.Error(), "allowed a path without ; ' \" or control characters", "%q", bad)
	}
	assert.NoError(t, Check(Options{Files: []string{design}, Top: "comb", PeriodNS: 1, Workdir: filepath.Join(t.TempDir(), "a b$c")}))
	// A link to nothing is refused before the work, not as it begins.
	dangling := filepath.Join(t.TempDir(), "dangling")
	require.NoError(t, os.Symlink(filepath.Join(t.TempDir(), "nothing"), dangling))
	err := Check(Options{Files: []string{design}, Top: "comb", PeriodNS: 1, Workdir: dangling})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "symbolic link to nothing")
}

// A design file that is a FIFO (a shell's <(…)) is read once, into the
// run's folder, and Yosys reads that copy: it had read nothing from the
// FIFO, and map said the design has no module.
func TestMapDesignFIFO(t *testing.T) {
	tools(t)
	t.Parallel()
	src, err := os.ReadFile(filepath.Join("testdata", "comb.v"))
	require.NoError(t, err)
	fifo := filepath.Join(t.TempDir(), "comb.v")
	tooltest.FIFO(t, fifo, src)
	// A top the design has not: the modules read are named.
	_, err = Map(context.Background(), Options{Files: []string{fifo}, Top: "other", PeriodNS: 1, Rounds: 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "allowed one of its modules, comb")

	// A FIFO's byte-order mark is found in what is read from it, as a
	// file's before: it had read as a design of no module.
	bom := filepath.Join(t.TempDir(), "bom.v")
	tooltest.FIFO(t, bom, append([]byte("\xef\xbb\xbf"), src...))
	_, err = Map(context.Background(), Options{Files: []string{bom}, Top: "comb", PeriodNS: 1, Rounds: 1})
	require.Error(t, err)
	assert.True(t, IsInput(err), "%v", err)
	assert.Contains(t, err.Error(), "starts with a UTF-8 byte-order mark (EF BB BF)")
}

// A top module and a clock named with a $, which Verilog allows in a name,
// reach OpenSTA quoted: Tcl had read "$top" as a variable, and the run
// failed in OpenSTA's script.
func TestMapDollarNames(t *testing.T) {
	tools(t)
	t.Parallel()
	design := writeDesign(t, "module my$top(input c$k, input [7:0] a, b, output reg [7:0] y);\n  always @(posedge c$k) y <= a + b;\nendmodule\n")
	res, err := Map(context.Background(), Options{Files: []string{design}, Top: "my$top", Clock: "c$k", PeriodNS: 2, Rounds: 1})
	require.NoError(t, err)
	require.Len(t, res.Adders, 1)
	assert.Positive(t, res.After.WorstNS)
}

// A design's own wire named as map names its adders is refused in one
// line: Yosys had failed an assertion of its own on the name taken twice.
func TestMapReservedNames(t *testing.T) {
	tools(t)
	t.Parallel()
	design := writeDesign(t, "module top(input clk, input [7:0] a, b, output reg [7:0] prefixgen_lcu_0);\n  always @(posedge clk) prefixgen_lcu_0 <= a + b;\nendmodule\n")
	_, err := Map(context.Background(), Options{Files: []string{design}, Top: "top", PeriodNS: 2, Rounds: 1})
	require.Error(t, err)
	assert.True(t, IsInput(err), "%v", err)
	assert.Contains(t, err.Error(), "the design has a name of the form prefixgen_lcu_N")
}

// An adder in a module marked keep_hierarchy is merged into the top with
// the rest: the modules had been numbered apart, two adders named
// prefixgen_lcu_0, and the run failed in Yosys.
func TestMapKeepHierarchy(t *testing.T) {
	tools(t)
	t.Parallel()
	design := writeDesign(t, `(* keep_hierarchy *)
module sub(input [7:0] a, b, output [7:0] s);
  assign s = a + b;
endmodule
module top(input clk, input [7:0] a, b, c, output reg [7:0] y);
  wire [7:0] s;
  sub u(.a(a), .b(b), .s(s));
  always @(posedge clk) y <= (s ^ c) + a;
endmodule
`)
	res, err := Map(context.Background(), Options{Files: []string{design}, Top: "top", PeriodNS: 2, Rounds: 1, Check: true})
	require.NoError(t, err)
	assert.Len(t, res.Adders, 2)
}

// writeDesign writes the Verilog src to a file of a new temporary folder
// and returns its path.
func writeDesign(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "design.v")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return path
}

// A late carry-in makes the adder's bit 0 late: the network folds it into
// bit 0's generate. It had been left out of the arrivals, so an adder whose
// carry-in comes through a tree of XORs was given the spread of its
// operands alone.
func TestMapLateCarryIn(t *testing.T) {
	tools(t)
	t.Parallel()
	spread := func(cin string) float64 {
		design := writeDesign(t, "module top(input clk, input [15:0] a, b, input [63:0] x, input c, output reg [15:0] y);\n"+
			"  wire cin = "+cin+";\n  always @(posedge clk) y <= a + b + cin;\nendmodule\n")
		res, err := Map(context.Background(), Options{Files: []string{design}, Top: "top", PeriodNS: 3, Rounds: 1})
		require.NoError(t, err)
		require.Len(t, res.Adders, 1)
		return res.Adders[0].SpreadNS
	}
	early, late := spread("c"), spread("^x")
	assert.Greater(t, late, early+0.2, "the spread with the carry-in through 64 bits' XOR (%.3f ns), and with it an input (%.3f ns)", late, early)
}
