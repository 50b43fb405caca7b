package toolcheck_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/toolcheck"
	"github.com/prefixgen/prefixgen/topologies"
)

// emitted returns the Verilog adder prefixgen emits for an n-bit network
// of topo, as a user would hand it back.
func emitted(t *testing.T, topo string, n int, opt adder.Architecture) []byte {
	t.Helper()
	net, err := topologies.Build(topo, n, nil)
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, emit.Verilog(&b, net, emit.VerilogOptions{Adder: &opt}))
	return b.Bytes()
}

// fullAdderCells is a 1-bit adder written in the OSU cells, as a netlist
// after synthesis is.
const fullAdderCells = `module fa (input wire [0:0] a, input wire [0:0] b, input wire cin, output wire [0:0] sum, output wire cout);
    wire p, n;
    XOR2X1 x1 (.A(a[0]), .B(b[0]), .Y(p));
    XOR2X1 x2 (.A(p), .B(cin), .Y(sum[0]));
    AOI22X1 m (.A(a[0]), .B(b[0]), .C(p), .D(cin), .Y(n));
    INVX1 i (.A(n), .Y(cout));
endmodule
`

// A module of the user's own is checked as the adder asked for: the
// testbench, lint, equivalence and synthesis rows run and pass on a good
// one, fail on a planted bug, and the rows that need a network are skipped.
// A netlist of library cells is read with the library's functions.
func TestModuleDesign(t *testing.T) {
	t.Parallel()
	requireTools(t)
	tooltest.File(t, physical.LibertyFile("osu018"), "qflow-tech-osu018")
	plain := emitted(t, "sklansky", 8, adder.Standard)
	good := "wire G_c5_l1 = g[5] | (p[5] & g[4]);"
	require.Contains(t, string(plain), good)
	piped := adder.Architecture{Flags: adder.Carry, Stages: 2}
	pipe := emitted(t, "kogge-stone", 8, piped)
	resetOne := []byte("G_c5_l1_s1 <= 1'b0;")
	require.Contains(t, string(pipe), string(resetOne))
	cells := []byte(fullAdderCells)
	// The adder named as the checks name their own modules, beside a
	// testbench of the user's own named as the checks name theirs: the
	// checks' modules live apart (Namespace), and the user's testbench is
	// not run.
	named := append(bytes.ReplaceAll(plain, []byte("prefix_adder_sklansky_8"), []byte("miter")), []byte(`module miter_tb;
    reg [7:0] a, b;
    reg cin;
    wire [7:0] sum;
    wire cout;
    miter dut (.a(a), .b(b), .cin(cin), .sum(sum), .cout(cout));
    initial begin
        a = 8'd1; b = 8'd2; cin = 1'b0;
        #1 $display("FAIL miter: the user's own testbench ran");
    end
endmodule
`)...)

	tests := []struct {
		name    string
		src     []byte
		mo      toolcheck.ModuleOptions
		adder   *adder.Architecture
		pass    bool
		proof   string
		width   int
		skipped int
	}{
		{name: "emitted adder named miter", src: named, mo: toolcheck.ModuleOptions{Top: "miter"}, pass: true, proof: "proven equal to a + b + cin", width: 8},
		{name: "planted swap", src: bytes.Replace(plain, []byte(good), []byte("wire G_c5_l1 = g[4] | (p[4] & g[5]);"), 1), proof: "not equal to a + b + cin", width: 8},
		{name: "stuck-at-1 cout", src: bytes.Replace(plain, []byte("assign cout = "), []byte("assign cout = 1'b1 | "), 1), proof: "not equal to a + b + cin", width: 8},
		{name: "pipeline", src: pipe, adder: &piped, pass: true, width: 8,
			proof: "proven equal to a + b + cin delayed 2 cycles; after a cycle of rst, from any state, proven equal at every cycle"},
		{name: "pipeline reset to 1", src: bytes.Replace(pipe, resetOne, []byte("G_c5_l1_s1 <= 1'b1;"), 1), adder: &piped, width: 8,
			proof: "after a cycle of rst its outputs are not those of a cleared pipeline"},
		{name: "netlist of cells", src: cells, mo: toolcheck.ModuleOptions{Liberty: physical.LibertyFile("osu018")}, pass: true, proof: "proven equal to a + b + cin", width: 1},
		{name: "netlist with a wrong cell", src: bytes.Replace(cells, []byte("XOR2X1 x2"), []byte("XNOR2X1 x2"), 1),
			mo: toolcheck.ModuleOptions{Liberty: physical.LibertyFile("osu018")}, proof: "not equal to a + b + cin", width: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opt := toolcheck.Options{Vectors: 100, Seed: 1, Adder: tt.adder}
			d, err := toolcheck.NewModuleDesign(context.Background(), tt.src, tt.mo, opt)
			require.NoError(t, err)
			assert.Equal(t, tt.width, d.Width)
			rs, err := toolcheck.Check(context.Background(), []*toolcheck.Design{d}, opt)
			require.NoError(t, err)
			require.Len(t, rs, 7)
			want := toolcheck.Fail
			if tt.pass {
				want = toolcheck.Pass
			}
			eq := resultOf(t, rs, 0, "equivalence")
			assert.Equal(t, want, eq.Status, eq.Detail)
			assert.Equal(t, tt.proof, eq.Detail)
			for _, c := range []string{"testbench", "lint -Wall", "synthesis"} {
				r := resultOf(t, rs, 0, c)
				if tt.pass || c != "testbench" || tt.name == "pipeline reset to 1" {
					// The testbench compares nothing under rst.
					assert.Equal(t, toolcheck.Pass, r.Status, "%s: %s", c, r.Detail)
				} else {
					assert.Equal(t, toolcheck.Fail, r.Status, "%s: %s", c, r.Detail)
				}
			}
			for _, c := range []string{"$lcu techmap", "layout", "VHDL"} {
				assert.Equal(t, toolcheck.Skipped, resultOf(t, rs, 0, c).Status, c)
			}
		})
	}
}

// A module that is not the adder asked for is refused before any check, in
// one line naming what it has and what is allowed.
func TestModuleDesignRefused(t *testing.T) {
	t.Parallel()
	tooltest.Path(t, "yosys")
	plain := emitted(t, "brent-kung", 4, adder.Standard)
	pipe := emitted(t, "brent-kung", 4, adder.Architecture{Flags: adder.Carry, Stages: 1})
	noCarry := adder.Architecture{}
	asap7, err := physical.LibertyPath("asap7", nil)
	require.NoError(t, err)
	tests := []struct {
		name  string
		src   string
		mo    toolcheck.ModuleOptions
		adder *adder.Architecture
		err   string
	}{
		{name: "no module", src: "// nothing\n",
			err: "toolcheck: the Verilog declares 0 modules (none): allowed a top module named, or a file of one module"},
		{name: "other names", src: "module m (input [3:0] x, input [3:0] y, output [3:0] s); assign s = x + y; endmodule\n",
			err: "toolcheck: module m has no input a (its ports: input x[3:0], input y[3:0], output s[3:0]): allowed an adder's ports, inputs a and b and the outputs the adder asked for has"},
		{name: "flags differ", src: string(plain), adder: &noCarry,
			err: "toolcheck: module prefix_adder_brent_kung_4 has ports input a[3:0], input b[3:0], input cin, output cout, output sum[3:0]: allowed the ports of a + b + cin, input a[3:0], input b[3:0], input cin, output sum[3:0]"},
		{name: "pipeline without its latency", src: string(pipe),
			err: "toolcheck: module prefix_adder_brent_kung_4_pipe1 has ports input a[3:0], input b[3:0], input cin, input clk, input rst, output cout, output sum[3:0]: allowed the ports of a + b + cin, input a[3:0], input b[3:0], input cin, output cout, output sum[3:0] (a pipeline is checked with its latency, --stages K)"},
		{name: "unknown cells", src: fullAdderCells,
			err: "toolcheck: module fa instantiates INVX1, which the file does not declare: allowed a file that declares every module it uses, or --liberty naming the library of its cells"},
		{name: "cells of another library", src: fullAdderCells, mo: toolcheck.ModuleOptions{Liberty: asap7},
			err: "toolcheck: module fa instantiates INVX1, which neither the file nor the library " + asap7 + " declares: allowed --liberty naming the library the netlist was mapped to"},
		// A port's long name is echoed cut, and many ports ten at a time.
		{name: "long port name", src: "module m (input [3:0] a, input [3:0] b, input " + strings.Repeat("p", 300) + ", output [3:0] s); assign s = a + b; endmodule\n",
			err: "toolcheck: module m has ports input a[3:0], input b[3:0], input " + strings.Repeat("p", 40) + "…, output s[3:0]: allowed the ports of a + b + cin"},
		{name: "many ports", src: "module m (input [3:0] a, input [3:0] b, input c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, output [3:0] s); assign s = a + b; endmodule\n",
			err: "toolcheck: module m has ports input a[3:0], input b[3:0], input c0, input c1, input c2, input c3, input c4, input c5, input c6, input c7 and 3 more: allowed"},
		{name: "syntax", src: "module m (input a; endmodule\n", err: "toolcheck: yosys: ERROR: "},
		{name: "sparse", src: string(plain), adder: &adder.Architecture{Flags: adder.Carry, Sparse: 2},
			err: "toolcheck: sparseness, valency, Ling's carries and pipeline levels describe a network's adder: allowed for a module of your own the operation, its flags, and its latency as stages"},
		{name: "too many stages", src: string(plain), adder: &adder.Architecture{Flags: adder.Carry, Stages: 5},
			err: "toolcheck: 5 stages for a 4-bit module: allowed 1 to 4"},
		{name: "missing library", src: fullAdderCells, mo: toolcheck.ModuleOptions{Liberty: filepath.Join(t.TempDir(), "none.lib")},
			err: "toolcheck: cannot read the Liberty file "},
		{name: "the checks' names", src: strings.ReplaceAll(string(plain), "prefix_adder_brent_kung_4", "prefixgen_check_reference"),
			err: "toolcheck: module prefixgen_check_reference: names beginning prefixgen_check_ are the checks' own: allowed any other name"},
		{name: "the checks' names beside", src: string(plain) + "module prefixgen_check_tb; endmodule\n", mo: toolcheck.ModuleOptions{Top: "prefix_adder_brent_kung_4"},
			err: "toolcheck: module prefixgen_check_tb: names beginning prefixgen_check_ are the checks' own: allowed any other name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := toolcheck.NewModuleDesign(context.Background(), []byte(tt.src), tt.mo, toolcheck.Options{Adder: tt.adder})
			require.Error(t, err)
			var ie *toolcheck.InputError
			require.ErrorAs(t, err, &ie)
			assert.Contains(t, err.Error(), tt.err)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
	// A Liberty file Yosys cannot read.
	bad := filepath.Join(t.TempDir(), "bad.lib")
	require.NoError(t, os.WriteFile(bad, []byte("library (x) { cell (A) { area : "), 0o644))
	_, err = toolcheck.NewModuleDesign(context.Background(), []byte(fullAdderCells), toolcheck.ModuleOptions{Liberty: bad}, toolcheck.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "toolcheck: yosys cannot read the Liberty file "+bad+": ERROR: ")
}

// Yosys reads a module's ports; when it fails, crashes or hangs, that is
// no fault of the module: the error is not an *InputError (which makes
// check exit 2), and it wraps toolrun's, naming the time limit of one that
// hangs. Yosys saying what is wrong with the module is an *InputError.
func TestModuleDesignYosysFails(t *testing.T) {
	src := emitted(t, "brent-kung", 4, adder.Standard)
	tests := []struct {
		name, yosys, err string
		input            bool
	}{
		{name: "exits 1", yosys: "echo 'abc: out of memory'; exit 1",
			err: "toolcheck: yosys could not read the module: yosys failed (exit status 1): abc: out of memory"},
		{name: "hangs", yosys: "exec sleep 30",
			err: "toolcheck: yosys could not read the module: yosys ran past its time limit of 300ms and was stopped (allowed: a longer --tool-timeout)"},
		{name: "prints junk", yosys: "echo 'all is well'",
			err: "toolcheck: yosys wrote no ports of module prefix_adder_brent_kung_4: "},
		{name: "says why", yosys: "printf 'design.v:3: ERROR: \\033[2Jbad\\n' >&2; exit 1", input: true,
			err: `toolcheck: yosys: ERROR: \x1b[2Jbad`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeTools(t, map[string]string{"yosys": tt.yosys})
			// Only the fake that hangs needs a short limit: a loaded
			// machine may run the others past 300 ms.
			limit := 30 * time.Second
			if tt.name == "hangs" {
				limit = 300 * time.Millisecond
			}
			start := time.Now()
			_, err := toolcheck.NewModuleDesign(context.Background(), src, toolcheck.ModuleOptions{}, toolcheck.Options{ToolTimeout: limit})
			require.Error(t, err)
			assert.Less(t, time.Since(start), limit+10*time.Second)
			assert.True(t, strings.HasPrefix(err.Error(), tt.err), err.Error())
			_, input := errors.AsType[*toolcheck.InputError](err)
			assert.Equal(t, tt.input, input, err.Error())
			if tt.name == "hangs" {
				_, late := errors.AsType[*toolrun.TimeoutError](err)
				assert.True(t, late)
			}
		})
	}
}

// A hand-written adder that Verilator's -Wall warns of (a WIDTH warning on
// the 1-bit cin of a + b + cin) but that simulates and proves right is a
// WARN row, not a failure: pass and FAIL come from simulation and proofs,
// and the table's footer says that warnings leave the exit status 0.
func TestModuleDesignLintWarning(t *testing.T) {
	t.Parallel()
	requireTools(t)
	src := []byte("module add (input [7:0] a, input [7:0] b, input cin, output [7:0] sum, output cout);\n" +
		"    assign {cout, sum} = a + b + cin;\nendmodule\n")
	opt := toolcheck.Options{Vectors: 100, Seed: 1}
	d, err := toolcheck.NewModuleDesign(context.Background(), src, toolcheck.ModuleOptions{}, opt)
	require.NoError(t, err)
	rs, err := toolcheck.Check(context.Background(), []*toolcheck.Design{d}, opt)
	require.NoError(t, err)
	lint := resultOf(t, rs, 0, "lint -Wall")
	assert.Equal(t, toolcheck.Warn, lint.Status, lint.Detail)
	assert.True(t, strings.HasPrefix(lint.Detail, "%Warning-WIDTH: add.v:2:"), lint.Detail)
	for _, c := range []string{"testbench", "equivalence", "synthesis"} {
		assert.Equal(t, toolcheck.Pass, resultOf(t, rs, 0, c).Status, c)
	}
	assert.False(t, toolcheck.Failed(rs))
	require.NoError(t, toolcheck.FirstToolError(rs))
	var buf bytes.Buffer
	require.NoError(t, toolcheck.Table(&buf, rs))
	assert.Regexp(t, `(?m)^add +8 +verilator +lint -Wall +WARN +%Warning-WIDTH: `, buf.String())
	assert.True(t, strings.HasSuffix(buf.String(), "\n"+toolcheck.WarnFooter+"\n"), buf.String())
}
