package physical

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/physical/netlist"
)

// seqLiberty is a small library with the OSU files' sequential cells: a
// flip-flop on each clock edge and a latch; and a flip-flop with both
// outputs, as sky130's dfxbp.
const seqLiberty = `library (seq) {
  cell (INVX1) { area : 16 ; pin (A) { direction : input ; } pin (Y) { direction : output ; function : "(!A)" ; } }
  cell (DFFPOSX1) { area : 96 ; ff (DS0000,P0002) { next_state : "D" ; clocked_on : "CLK" ; }
    pin (CLK) { direction : input ; } pin (D) { direction : input ; }
    pin (Q) { direction : output ; function : "DS0000" ; } }
  cell (DFFNEGX1) { area : 96 ; ff (DS0000,P0002) { next_state : "D" ; clocked_on : "(!CLK)" ; }
    pin (CLK) { direction : input ; } pin (D) { direction : input ; }
    pin (Q) { direction : output ; function : "DS0000" ; } }
  cell (DFFQQN) { area : 112 ; ff (IQ,IQN) { next_state : "D" ; clocked_on : "CLK" ; }
    pin (CLK) { direction : input ; } pin (D) { direction : input ; }
    pin (Q) { direction : output ; function : "IQ" ; } pin (QN) { direction : output ; function : "IQN" ; } }
  cell (LATCH) { area : 64 ; latch (DS0000,P0000) { data_in : "D" ; enable : "CLK" ; }
    pin (CLK) { direction : input ; } pin (D) { direction : input ; }
    pin (Q) { direction : output ; function : "DS0000" ; } }
}
`

// seqNetlist wraps cells in a module with a clock, a two-bit bus of
// clocks and data ports, as write_verilog -noexpr writes one.
func seqNetlist(body string) []byte {
	return []byte("module top(clk, ck, d, q);\n  wire _0_;\n  input clk;\n  wire clk;\n  input [1:0] ck;\n  input [1:0] d;\n  output [1:0] q;\n" + body + "endmodule\n")
}

// TestNetlistRegisters reads the flip-flops of netlists and refuses what
// one clock period cannot time.
func TestNetlistRegisters(t *testing.T) {
	tests := []struct {
		name, body string
		flops      int
		clocks     []string
		names      map[string]string
		err        string
	}{
		{"combinational", "  INVX1 _1_ ( .A(d[0]), .Y(q[0]) );\n", 0, nil, map[string]string{}, ""},
		{"flip-flops named by their outputs", `
  DFFPOSX1 _1_ ( .CLK(clk), .D(d[0]), .Q(sum_s1) );
  DFFPOSX1 _2_ ( .CLK(clk), .D(d[1]), .Q(_0_) );
  INVX1 _3_ ( .A(sum_s1), .Y(q[0]) );
`, 2, []string{"clk"}, map[string]string{"_1_": "sum_s1", "_2_": "_2_"}, ""},
		{"clocks from a bus", `
  DFFPOSX1 _1_ ( .CLK(ck[1]), .D(d[0]), .Q(q[0]) );
  DFFPOSX1 _2_ ( .CLK(clk), .D(d[1]), .Q(q[1]) );
`, 2, []string{"ck[1]", "clk"}, map[string]string{"_1_": "q[0]", "_2_": "q[1]"}, ""},
		{"a latch", "  LATCH _1_ ( .CLK(clk), .D(d[0]), .Q(q[0]) );\n  LATCH _2_ ( .CLK(clk), .D(d[1]), .Q(q[1]) );\n",
			0, nil, nil, "module top has 2 latches (LATCH): allowed combinational logic and rising-edge flip-flops clocked from input ports"},
		{"the falling edge", "  DFFNEGX1 _1_ ( .CLK(clk), .D(d[0]), .Q(q[0]) );\n",
			0, nil, nil, `module top has flip-flops (DFFNEGX1) clocked on "(!CLK)", not on the rising edge of one pin: allowed`},
		{"a gated clock", "  INVX1 _1_ ( .A(clk), .Y(_0_) );\n  DFFPOSX1 _2_ ( .CLK(_0_), .D(d[0]), .Q(q[0]) );\n",
			0, nil, nil, "module top clocks flip-flops (DFFPOSX1) from _0_, which is not an input port: allowed"},
		{"the clock read as data", "  DFFPOSX1 _1_ ( .CLK(clk), .D(d[0]), .Q(q[0]) );\n  INVX1 _2_ ( .A(clk), .Y(q[1]) );\n",
			0, nil, nil, "module top reads its clock clk as data (cell INVX1, pin A): allowed a clock input that drives only the flip-flops' clock pins"},
		{"the clock into a flip-flop's data", "  DFFPOSX1 _1_ ( .CLK(clk), .D(clk), .Q(q[0]) );\n",
			0, nil, nil, "module top reads its clock clk as data (cell DFFPOSX1, pin D)"},
		{"the clock at an output", "  DFFPOSX1 _1_ ( .CLK(clk), .D(d[0]), .Q(q[0]) );\n  assign q[1] = clk;\n",
			0, nil, nil, "module top reads its clock clk as data (output q[1])"},
		// The first output in pin order names it: Q, not QN.
		{"a flip-flop with both outputs named", "  DFFQQN _1_ ( .CLK(clk), .D(d[0]), .Q(q[0]), .QN(q[1]) );\n",
			1, []string{"clk"}, map[string]string{"_1_": "q[0]"}, ""},
		{"the clock under another name", "  DFFPOSX1 _1_ ( .CLK(clk), .D(d[0]), .Q(q[0]) );\n  assign _0_ = clk;\n",
			1, []string{"clk"}, map[string]string{"_1_": "q[0]"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			regs, err := netlistRegisters(liberty.Cells([]byte(seqLiberty)), netlist.Parse(seqNetlist(tt.body)), "top")
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.flops, regs.flops)
			assert.Equal(t, tt.clocks, regs.clocks)
			assert.Equal(t, tt.names, regs.names)
		})
	}
}

// Yosys escapes a port whose name has a $ (\clk$1 , \ck$b [1]): such a
// clock input is still an input.
func TestNetlistRegistersEscaped(t *testing.T) {
	src := []byte("module top(\\clk$1 , \\ck$b , d, q);\n  input \\clk$1 ;\n  wire \\clk$1 ;\n  input [1:0] \\ck$b ;\n" +
		"  input [1:0] d;\n  output [1:0] q;\n" +
		"  DFFPOSX1 _1_ (\n    .CLK(\\clk$1 ),\n    .D(d[0]),\n    .Q(q[0])\n  );\n" +
		"  DFFPOSX1 _2_ (\n    .CLK(\\ck$b [1]),\n    .D(d[1]),\n    .Q(q[1])\n  );\nendmodule\n")
	regs, err := netlistRegisters(liberty.Cells([]byte(seqLiberty)), netlist.Parse(src), "top")
	require.NoError(t, err)
	assert.Equal(t, 2, regs.flops)
	assert.Equal(t, []string{"\\ck$b [1]", "\\clk$1"}, regs.clocks)
}

// TestParseTimingRegisters reads the report_checks OpenSTA printed for a
// 16-bit Kogge–Stone adder with two register stages (gen --stages 2):
// one path for each clock that captures, the worst by slack the one that
// sets the period (from the reset input to a flip-flop, 0.9944 ns and a
// setup time of 0.1608 ns), its flip-flop named by its register.
func TestParseTimingRegisters(t *testing.T) {
	data, err := os.ReadFile("testdata/ks16-pipe2.sta.txt")
	require.NoError(t, err)
	regs := registers{flops: 88, clocks: []string{"clk"}, names: map[string]string{"_458_": "cin_s2", "_476_": "G_c1_l1_s2"}}
	var r Result
	require.NoError(t, parseTiming(string(data), &r, regs))
	assert.Equal(t, 1.1552, r.DelayNS)
	assert.Equal(t, "rst", r.CriticalFrom)
	assert.Equal(t, "cin_s2", r.CriticalTo)

	// Read as a combinational report, the first path is the worst.
	require.NoError(t, parseTiming(string(data), &r, registers{}))
	assert.Equal(t, 0.9944, r.DelayNS)
	assert.Equal(t, "_458_", r.CriticalTo)

	assert.ErrorContains(t, parseTiming("Startpoint: a\nEndpoint: b\n    1.0  data arrival time\n", &Result{}, regs), "no slack")
	assert.ErrorContains(t, parseTiming("Startpoint: a\nEndpoint: b\n    1.0  data arrival time\n   999.0   slack (MET)\n", &Result{}, regs), "no data required time")
}

// TestParseTimingPulseWidth: the period is at least twice the minimum
// pulse width report_check_types gives after the paths, the flip-flop of
// that check named by its register; a shorter pulse leaves the period to
// the worst path.
func TestParseTimingPulseWidth(t *testing.T) {
	data, err := os.ReadFile("testdata/ks16-pipe2.sta.txt")
	require.NoError(t, err)
	regs := registers{flops: 88, clocks: []string{"clk"}, names: map[string]string{"_458_": "cin_s2", "_476_": "G_c1_l1_s2"}}
	pulse := func(width string) string {
		return string(data) + `
Pin: _476_/CLK
Check: sequential_clock_pulse_width

    Delay      Time   Description
-------------------------------------------------------------
   0.0000    0.0000   clock clock (rise edge)
   0.0000    0.0000   clock network delay (ideal)
   0.0000    0.0000   _476_/CLK
             0.0000   open edge arrival time

 500.0000  500.0000   clock clock (fall edge)
   0.0000  500.0000   clock network delay (ideal)
   0.0000  500.0000   _476_/CLK
   0.0000  500.0000   clock reconvergence pessimism
           500.0000   close edge arrival time
-------------------------------------------------------------
             ` + width + `   required pulse width (high)
           500.0000   actual pulse width
-------------------------------------------------------------
           499.2000   slack (MET)
`
	}
	var r Result
	require.NoError(t, parseTiming(pulse("0.8000"), &r, regs))
	assert.Equal(t, 1.6, r.DelayNS)
	assert.Equal(t, "clock pulse width", r.CriticalFrom)
	assert.Equal(t, "G_c1_l1_s2", r.CriticalTo)

	require.NoError(t, parseTiming(pulse("0.1070"), &r, regs))
	assert.Equal(t, 1.1552, r.DelayNS)
	assert.Equal(t, "rst", r.CriticalFrom)
	assert.Equal(t, "cin_s2", r.CriticalTo)
}

// OpenSTA prints times near the period in single precision: 1000 less the
// slack of an output required at 0 that arrives at 0.5900 is 0.5899. The
// delay is the arrival less the small figures of the capture side.
func TestParseTimingPrecision(t *testing.T) {
	report := `Startpoint: a[0] (input port clocked by virtual_clock)
Endpoint: sum[3] (output port clocked by virtual_clock)
Path Group: virtual_clock
Path Type: max
    Delay      Time   Description
-------------------------------------------------------------
   0.0000    0.0000   clock virtual_clock (rise edge)
   0.0000    0.0000   clock network delay (ideal)
   0.0000    0.0000 ^ input external delay
   0.0000    0.0000 ^ a[0] (in)
   0.5900    0.5900 ^ sum[3] (out)
             0.5900   data arrival time

1000.0000 1000.0000   clock virtual_clock (rise edge)
   0.0000 1000.0000   clock network delay (ideal)
   0.0000 1000.0000   clock reconvergence pessimism
  -0.0000 1000.0000   output external delay
          1000.0000   data required time
-------------------------------------------------------------
          1000.0000   data required time
            -0.5900   data arrival time
-------------------------------------------------------------
           999.4101   slack (MET)
`
	var r Result
	require.NoError(t, parseTiming(report, &r, registers{bySlack: true}))
	assert.Equal(t, 0.59, r.DelayNS)
	// Required 0.25 ns after the edge (set_output_delay -0.25): late by
	// 0.34, whatever the slack's last digit.
	late := strings.Replace(strings.Replace(report, "  -0.0000 1000.0000   output external delay", "   0.2500 1000.2500   output external delay", 1), "999.4101", "999.6601", 1)
	require.NoError(t, parseTiming(late, &r, registers{bySlack: true}))
	assert.Equal(t, 0.34, r.DelayNS)
}

// TestSTAScriptProfile: a profile's arrival times go to a_i and b_i,
// cin's with bit 0, and its required times to sum_i and then cout, each
// as an output delay of minus the time.
func TestSTAScriptProfile(t *testing.T) {
	prof := &delay.Profile{Arrival: []float64{0.1, 0.25}, Required: []float64{0.5, 0.75, 1}}
	script := staScript("top", "/lib/x.lib", timingLib, 0.01, prof)
	assert.Contains(t, script, "set_output_delay 0 -clock virtual_clock [all_outputs]\n"+
		"set_input_delay 0.1 -clock virtual_clock [get_ports -quiet {a[0] b[0] cin}]\n"+
		"set_input_delay 0.25 -clock virtual_clock [get_ports -quiet {a[1] b[1]}]\n"+
		"set_output_delay -0.5 -clock virtual_clock [get_ports -quiet {sum[0]}]\n"+
		"set_output_delay -0.75 -clock virtual_clock [get_ports -quiet {sum[1]}]\n"+
		"set_output_delay -1 -clock virtual_clock [get_ports -quiet {cout}]\n"+
		"set_load 0.01 [all_outputs]\n")
}

// A library's path reaches the scripts' first comment; one with a line
// break had ended the comment, and the rest of the path ran as a command
// of Yosys and of OpenSTA. It is quoted where it would; a plain path, as
// every recorded script has, is written as it is.
func TestScriptCommentPath(t *testing.T) {
	evil := "/tmp/a\nexec -- touch PWNED\n#/x.lib"
	for _, script := range []string{
		yosysScript(Keep, "top", evil, nil, true, true),
		staScript("top", evil, timingLib, 0.01, nil, "clk"),
		staScript("top", evil, "liberty.lib", 0.01, nil),
		staScript("top", `/tmp/trailing\`, "liberty.lib", 0.01, nil),
	} {
		first, rest, _ := strings.Cut(script, "\n")
		assert.True(t, strings.HasPrefix(first, "# "), first)
		assert.NotContains(t, rest, "PWNED")
		assert.False(t, strings.HasSuffix(first, `\`), "a Tcl comment ending in a backslash goes on: %s", first)
	}
	assert.Equal(t, "/tmp/osu018.lib", commentPath("/tmp/osu018.lib"))
	assert.Equal(t, `"/tmp/a\nb.lib"`, commentPath("/tmp/a\nb.lib"))
}
