package emit_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

func vhdlBytes(t testing.TB, net *network.Network, entity string) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, emit.VHDL(&buf, net, emit.VHDLOptions{Entity: entity}))
	return buf.Bytes()
}

func vhdlTestbenchBytes(t testing.TB, net *network.Network, opt emit.TestbenchOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, emit.VHDLTestbench(&buf, net, opt))
	return buf.Bytes()
}

func TestVHDLGolden(t *testing.T) {
	lf, err := topologies.Build("ladner-fischer", 6, network.Params{"k": 1})
	require.NoError(t, err)
	tests := []struct {
		name string
		net  *network.Network
	}{
		{"sk8", build(t, "sklansky", 8)},
		{"ks5", build(t, "kogge-stone", 5)},
		{"lf1-6", lf},
		{"odd", emit.OddNetwork(t)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", tt.name+".vhd.golden"), vhdlBytes(t, tt.net, ""))
			golden.Check(t, filepath.Join("testdata", tt.name+"_tb.vhd.golden"), vhdlTestbenchBytes(t, tt.net, emit.TestbenchOptions{Vectors: 100, Seed: 7}))
		})
	}
}

// The VHDL has the Verilog's cells under the Verilog's names: one G signal
// per cell, one P per black cell, each declared once and assigned once, no
// two names equal but for case, and the header's figures.
func TestVHDLStructure(t *testing.T) {
	decl := regexp.MustCompile(`(?m)^    signal ([GP]_c\d+_l\d+(?:_\d+)?) : std_logic;$`)
	assign := regexp.MustCompile(`(?m)^    ([GP]_c\d+_l\d+(?:_\d+)?) <= `)
	vwire := regexp.MustCompile(`(?m)^    wire ([GP]_c\d+_l\d+(?:_\d+)?) = `)
	for _, net := range append(allNetworks(t), emit.OddNetwork(t)) {
		t.Run(emit.Name(net), func(t *testing.T) {
			v := string(vhdlBytes(t, net, ""))
			black := 0
			for _, k := range carry.Kinds(net) {
				if k == carry.Black {
					black++
				}
			}
			var declared, assigned, verilog []string
			for _, m := range decl.FindAllStringSubmatch(v, -1) {
				declared = append(declared, m[1])
			}
			for _, m := range assign.FindAllStringSubmatch(v, -1) {
				assigned = append(assigned, m[1])
			}
			for _, m := range vwire.FindAllStringSubmatch(string(verilogBytes(t, net)), -1) {
				verilog = append(verilog, m[1])
			}
			assert.Len(t, declared, net.Size()+black)
			assert.Equal(t, declared, assigned, "declared and assigned in one order")
			assert.Equal(t, verilog, assigned, "the Verilog's names")
			lower := map[string]bool{"a": true, "b": true, "cin": true, "sum": true, "cout": true, "g": true, "p": true, "carry": true, "g0_cin": true}
			for _, s := range declared {
				assert.False(t, lower[strings.ToLower(s)], "%s declared twice, ignoring case", s)
				lower[strings.ToLower(s)] = true
			}
			f := net.Figures()
			assert.Contains(t, v, fmt.Sprintf("-- depth:      %d levels", f.Depth))
			assert.Contains(t, v, fmt.Sprintf("-- size:       %d cells (%d black, %d gray)", f.Size, black, f.Size-black))
			assert.Contains(t, v, "entity "+emit.ModuleName(net)+" is\n")
		})
	}
}

func TestCheckEntityName(t *testing.T) {
	tests := []struct {
		name string
		why  string // empty: legal
	}{
		{"adder", ""},
		{"A_b9", ""},
		{"prefix_adder_kogge_stone_64", ""},
		{strings.Repeat("a", 1024), ""},
		{"", "empty"},
		{"9lives", "a letter first"},
		{"_x", "a letter first"},
		{"a__b", "two underscores in a row"},
		{"adder_", "ends in an underscore"},
		{"my-adder", `'-' is not allowed`},
		{"x$1", `'$' is not allowed`},
		{"módulo", `'ó' is not allowed`},
		{"entity", "reserved word"},
		{"Signal", "reserved word"},
		{"NEXT", "reserved word"},
		{"vunit", "reserved word"},
		{"Carry", `the adder declares "carry" inside`},
		{"SUM", `the testbench declares "sum" inside`},
		// The testbench's own names, and the adder's cells, registers and
		// register stages: GHDL had warned that each hides the entity.
		{"Want", `the testbench declares "want" inside`},
		{"next_word", `the testbench declares "next_word" inside`},
		{"G_c1_l1", "its cells G_cC_lL"},
		{"P_c3_l2", "its cells G_cC_lL"},
		{"cin_s1", "its registers NAME_sK"},
		{"g_s1_b2", "its registers NAME_sK"},
		{"Pipeline_Stage_1", "its register stages pipeline_stage_K"},
		{"gc1", ""},
		{"stage_1", ""},
		// Names the adder's other architectures declare: Ling's carries,
		// add-subtract, library cells, full adders, carry-increment
		// blocks; and rising_edge, which its registers call.
		{"t", `the adder declares "t" inside`},
		{"h0_cin", `the adder declares "h0_cin" inside`},
		{"c_ling3", "its cells G_cC_lL"},
		{"b_op", `the adder declares "b_op" inside`},
		{"g_n", `the adder declares "g_n" inside`},
		{"u_g_n_0", "instances u_"},
		{"g5", "its cells G_cC_lL"},
		{"T7", "its cells G_cC_lL"},
		{"s0_b3", "its cells G_cC_lL"},
		{"K_c2_l1", "its cells G_cC_lL"},
		{"u_K_c2_l1", "instances u_"},
		{"c_b4", "its cells G_cC_lL"},
		{"c0_b4", "its cells G_cC_lL"},
		{"pp_b4", "its cells G_cC_lL"},
		{"Rising_Edge", `the adder uses the library or type "rising_edge"`},
		{"gate", ""},
		{"Work", `the adder uses the library or type "work"`},
		{"ieee", `the adder uses the library or type "ieee"`},
		{"STD_LOGIC", `the adder uses the library or type "std_logic"`},
		{strings.Repeat("a", 1025), "longer than 1024"},
	}
	for _, tt := range tests {
		err := emit.CheckEntityName(tt.name)
		if tt.why == "" {
			assert.NoError(t, err, tt.name)
			continue
		}
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.why)
		assert.True(t, strings.HasPrefix(err.Error(), "emit: entity name"), err.Error())
		assert.NotContains(t, err.Error(), "\n")
	}
	// An entity of the user's own meets the testbench alone.
	assert.NoError(t, emit.CheckBenchEntityName("carry"))
	assert.ErrorContains(t, emit.CheckBenchEntityName("want"), `the testbench declares "want" inside`)
	for _, net := range allNetworks(t) {
		assert.NoError(t, emit.CheckEntityName(emit.ModuleName(net)), "default names are legal VHDL")
	}
}

func TestVHDLBadOptions(t *testing.T) {
	net := build(t, "sklansky", 8)
	var buf bytes.Buffer
	assert.ErrorContains(t, emit.VHDL(&buf, net, emit.VHDLOptions{Entity: "process"}), "reserved word")
	assert.ErrorContains(t, emit.VHDLTestbench(&buf, net, emit.TestbenchOptions{Module: "a__b"}), "two underscores")
	assert.ErrorContains(t, emit.VHDLTestbench(&buf, net, emit.TestbenchOptions{Vectors: -1}), "vectors")
	assert.ErrorContains(t, emit.VHDLTestbench(&buf, net, emit.TestbenchOptions{Vectors: emit.MaxTestbenchVectors + 1}), "vectors")
	assert.Zero(t, buf.Len(), "nothing written on bad options")
}

func TestVHDLDeterministic(t *testing.T) {
	for _, net := range allNetworks(t) {
		assert.Equal(t, vhdlBytes(t, net, ""), vhdlBytes(t, net, ""))
	}
}

// ghdlRun analyses the adder and its testbench with GHDL in dir under std
// (93 or 08), elaborates and runs the testbench, and returns what it printed
// and whether it exited 0.
func ghdlRun(t *testing.T, ghdl, dir, std, entity string, adder, tb []byte) (string, bool) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, entity+".vhd"), adder, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, entity+"_tb.vhd"), tb, 0o644))
	run := func(args ...string) (string, error) {
		cmd := tooltest.Command(t, ghdl, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("-a", "--std="+std, "-Wunused", entity+".vhd", entity+"_tb.vhd")
	require.NoError(t, err, "ghdl -a --std=%s: %s", std, out)
	require.Empty(t, out, "ghdl -a --std=%s warns", std)
	out, err = run("-e", "--std="+std, entity+"_tb")
	require.NoError(t, err, "ghdl -e: %s", out)
	out, err = run("-r", "--std="+std, entity+"_tb")
	return out, err == nil
}

// GHDL analyses, elaborates and runs the adder and its testbench, VHDL-2008
// and VHDL-93, at widths that take every input (1, 5), a partial random
// word (8), a word and a bit (33), whole words (64) and more than two words
// (100), over several topologies.
func TestVHDLGHDL(t *testing.T) {
	ghdl := tooltest.Path(t, "ghdl")
	cases := []struct {
		topo string
		n    int
		std  string
	}{
		{"sklansky", 1, "08"},
		{"kogge-stone", 5, "93"},
		{"brent-kung", 8, "08"},
		{"han-carlson", 33, "93"},
		{"ladner-fischer", 64, "08"},
		{"ripple", 100, "08"},
		{"sklansky", 100, "93"},
	}
	for _, tc := range cases {
		net := build(t, tc.topo, tc.n)
		t.Run(fmt.Sprintf("%s-%d-vhdl%s", tc.topo, tc.n, tc.std), func(t *testing.T) {
			t.Parallel()
			mod := emit.ModuleName(net)
			out, ok := ghdlRun(t, ghdl, t.TempDir(), tc.std, mod, vhdlBytes(t, net, ""),
				vhdlTestbenchBytes(t, net, emit.TestbenchOptions{Vectors: 40, Seed: 0xfffffff0}))
			assert.True(t, ok, out)
			assert.Regexp(t, `^PASS `+mod+`: \d+ vectors, 0 mismatches\n$`, out)
		})
	}
}

// A planted bug, one cell's operands swapped, fails the VHDL testbench, and
// the VHDL and Verilog testbenches report the same mismatching vectors in
// the same order, with the same counts: they run the same vectors from the
// same seed.
func TestVHDLPlantedBugMatchesVerilog(t *testing.T) {
	ghdl := tooltest.Path(t, "ghdl")
	iverilog := tooltest.Path(t, "iverilog")
	vvp := tooltest.Path(t, "vvp")
	net := build(t, "sklansky", 33)
	mod := emit.ModuleName(net)
	opt := emit.TestbenchOptions{Vectors: 100, Seed: 7}
	dir := t.TempDir()

	good, bad := "G_c5_l1 <= g(5) or (p(5) and g(4));", "G_c5_l1 <= g(4) or (p(4) and g(5));"
	adder := string(vhdlBytes(t, net, ""))
	require.Contains(t, adder, good)
	vOut, ok := ghdlRun(t, ghdl, dir, "08", mod, []byte(strings.Replace(adder, good, bad, 1)), vhdlTestbenchBytes(t, net, opt))
	assert.False(t, ok, "the testbench must fail: %s", vOut)

	good, bad = "wire G_c5_l1 = g[5] | (p[5] & g[4]);", "wire G_c5_l1 = g[4] | (p[4] & g[5]);"
	vlog := string(verilogBytes(t, net))
	require.Contains(t, vlog, good)
	var tb bytes.Buffer
	require.NoError(t, emit.VerilogTestbench(&tb, net, opt))
	out, _ := iverilogRun(t, iverilog, vvp, dir, []byte(strings.Replace(vlog, good, bad, 1)), tb.Bytes())

	lines := regexp.MustCompile(`(?m)^(MISMATCH|FAIL) .*$`)
	vhdlLines, verilogLines := lines.FindAllString(vOut, -1), lines.FindAllString(out, -1)
	require.Len(t, vhdlLines, 11, vOut)
	assert.Regexp(t, `^FAIL `+mod+`: \d+ of 209 vectors wrong$`, vhdlLines[10])
	assert.Equal(t, verilogLines, vhdlLines)
}

func ExampleVHDL() {
	net, err := topologies.Build("sklansky", 4, nil)
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	if err := emit.VHDL(&buf, net, emit.VHDLOptions{Entity: "sk4"}); err != nil {
		panic(err)
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(line, "entity") || strings.HasPrefix(line, "    G_") || strings.HasPrefix(line, "    P_") {
			fmt.Println(line)
		}
	}
	// Output:
	// entity sk4 is
	//     G_c1_l1 <= g(1) or (p(1) and g0_cin);
	//     G_c3_l1 <= g(3) or (p(3) and g(2));
	//     P_c3_l1 <= p(3) and p(2);
	//     G_c2_l2 <= g(2) or (p(2) and G_c1_l1);
	//     G_c3_l2 <= G_c3_l1 or (P_c3_l1 and G_c1_l1);
}

// proveVHDL synthesizes the VHDL adder with ghdl --synth (after analysing
// it as VHDL-93 and as VHDL-2008, which must both pass without a word,
// -Wunused on) and
// proves the netlist equal to the Verilog adder with a Yosys miter: by SAT
// for a combinational adder, and for a pipeline of latency L at cycle L + 1
// from any state. It returns Yosys's error.
func proveVHDL(t *testing.T, ghdl, yosys string, entity string, vhdl, verilog []byte, latency int, reset bool) error {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "adder.vhd"), vhdl, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "adder.v"), verilog, 0o644))
	run := func(name string, args ...string) (string, error) {
		cmd := tooltest.Command(t, name, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, std := range []string{"93", "08"} {
		out, err := run(ghdl, "-a", "--std="+std, "-Wunused", "adder.vhd")
		require.NoError(t, err, "ghdl -a --std=%s: %s", std, out)
		require.Empty(t, out, "ghdl -a --std=%s", std)
	}
	cmd := tooltest.Command(t, ghdl, "--synth", "--std=08", "--out=verilog", entity)
	cmd.Dir = dir
	synth, err := cmd.Output()
	require.NoError(t, err, "ghdl --synth")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "synth.v"), synth, 0o644))
	prove := "sat -verify -prove trigger 0 miter"
	if latency > 0 {
		// A pipeline of L stages holds nothing older than L cycles: cycle
		// L + 1 from any state, with rst low, covers every cycle of every run.
		rst := ""
		if reset {
			rst = "-set in_rst 0 "
		}
		prove = fmt.Sprintf("sat -verify -prove trigger 0 %s-seq %d -prove-skip %d miter", rst, latency+1, latency)
	}
	script := fmt.Sprintf("read_verilog adder.v; rename %[1]s gold; read_verilog synth.v; rename %[1]s gate; proc; "+
		"miter -equiv -flatten -make_outputs gold gate miter; hierarchy -top miter; flatten; opt -fast; %s", entity, prove)
	out, err := run(yosys, "-q", "-p", script)
	if err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}

// Every architecture and operation comes out in VHDL as the circuit the
// Verilog writes: GHDL analyses it as VHDL-93 and VHDL-2008, synthesizes
// it, and Yosys proves the result equal to the Verilog adder. A planted bug
// in the VHDL fails the proof.
func TestVHDLArchitecturesEqualVerilog(t *testing.T) {
	ghdl := tooltest.Path(t, "ghdl")
	yosys := tooltest.Path(t, "yosys")
	tests := []struct {
		name string
		opt  adder.Architecture
	}{
		{"sub", adder.Architecture{Op: adder.Sub, Flags: adder.Carry}},
		{"addsub-nocin-flags", adder.Architecture{Op: adder.AddSub, NoCarryIn: true, Flags: adder.Overflow | adder.Zero | adder.Negative}},
		{"compare", adder.Architecture{Op: adder.Compare}},
		{"sparse4-flags", adder.Architecture{Flags: adder.Carry | adder.Zero | adder.Overflow, Sparse: 4}},
		{"pipeline", adder.Architecture{Flags: adder.Carry, PipelineAfter: []int{0, 2}}},
		{"sparse2-stages", adder.Architecture{Op: adder.Sub, Flags: adder.Carry, Sparse: 2, Stages: 2}},
		{"stages-noreset", adder.Architecture{Flags: adder.Carry, Stages: 3, NoReset: true}},
		{"valency4", adder.Architecture{Flags: adder.Carry, Valency: 4}},
	}
	net := build(t, "sklansky", 16)
	radix4, err := topologies.Valency("kogge-stone", 16, 4)
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			net := net
			if tt.opt.Valency > 2 {
				net = radix4
			}
			var v, vh bytes.Buffer
			require.NoError(t, emit.Verilog(&v, net, emit.VerilogOptions{Adder: &tt.opt}))
			require.NoError(t, emit.VHDL(&vh, net, emit.VHDLOptions{Adder: &tt.opt}))
			entity := emit.AdderModuleName(net, tt.opt)
			assert.Contains(t, vh.String(), "entity "+entity+" is\n")
			desc, err := adder.Describe(net, tt.opt, nil)
			require.NoError(t, err)
			clocked := len(tt.opt.PipelineAfter) > 0 || tt.opt.Stages > 0
			assert.Equal(t, clocked, desc.Latency > 0)
			assert.Equal(t, desc.Latency, strings.Count(vh.String(), "if rising_edge(clk) then"), "one clocked process per stage")
			require.NoError(t, proveVHDL(t, ghdl, yosys, entity, vh.Bytes(), v.Bytes(), desc.Latency, !tt.opt.NoReset))
		})
	}
	t.Run("planted bug", func(t *testing.T) {
		t.Parallel()
		var v bytes.Buffer
		require.NoError(t, emit.Verilog(&v, net, emit.VerilogOptions{}))
		vh := string(vhdlBytes(t, net, ""))
		good := "G_c5_l1 <= g(5) or (p(5) and g(4));"
		require.Contains(t, vh, good)
		vh = strings.Replace(vh, good, "G_c5_l1 <= g(4) or (p(4) and g(5));", 1)
		assert.Error(t, proveVHDL(t, ghdl, yosys, emit.ModuleName(net), []byte(vh), v.Bytes(), 0, false))
	})
}

// The VHDL testbench covers every adder the Verilog one does and runs the
// same vectors: for each operation, without a carry-in, with each flag and
// none, pipelined, exhaustive and random, GHDL and Icarus both pass and
// count the same vectors; with a planted bug (the sum's top bit inverted)
// both fail with the same MISMATCH lines.
func TestVHDLTestbenchOptions(t *testing.T) {
	ghdl := tooltest.Path(t, "ghdl")
	iverilog := tooltest.Path(t, "iverilog")
	vvp := tooltest.Path(t, "vvp")
	all := adder.Carry | adder.Overflow | adder.Zero | adder.Negative
	cases := []struct {
		n    int
		arch adder.Architecture
	}{
		{4, adder.Architecture{Op: adder.Sub, Flags: adder.Carry}},
		{33, adder.Architecture{Op: adder.Sub, Flags: adder.Carry | adder.Overflow}},
		{4, adder.Architecture{Op: adder.AddSub, Flags: all}},
		{33, adder.Architecture{Op: adder.AddSub, NoCarryIn: true, Flags: adder.Overflow | adder.Negative}},
		{20, adder.Architecture{Op: adder.AddSub, Flags: all}},
		{5, adder.Architecture{Op: adder.Compare}},
		{40, adder.Architecture{Flags: all, Sparse: 4}},
		{6, adder.Architecture{NoCarryIn: true, Flags: adder.Carry | adder.Zero}},
		{33, adder.Architecture{Flags: 0}},
		{8, adder.Architecture{Op: adder.Sub, NoCarryIn: true, Flags: 0}},
		{9, adder.Architecture{Op: adder.AddSub, Flags: all, Stages: 2}},
		{13, adder.Architecture{Flags: adder.Carry, Stages: 3, NoReset: true}},
		{7, adder.Architecture{Op: adder.Sub, Stages: 1}},
	}
	lines := regexp.MustCompile(`(?m)^(PASS|MISMATCH|FAIL) .*$`)
	for i, c := range cases {
		std := []string{"08", "93"}[i%2] // the testbench is VHDL-93 and VHDL-2008
		t.Run(fmt.Sprintf("%d-%s-vhdl%s", c.n, c.arch.Suffix(), std), func(t *testing.T) {
			t.Parallel()
			net := build(t, "sklansky", c.n)
			arch := c.arch
			opt := emit.TestbenchOptions{Vectors: 60, Seed: 11, Adder: &arch}
			var vh, vhTB, v, vTB bytes.Buffer
			require.NoError(t, emit.VHDL(&vh, net, emit.VHDLOptions{Adder: &arch}))
			require.NoError(t, emit.VHDLTestbench(&vhTB, net, opt))
			require.NoError(t, emit.Verilog(&v, net, emit.VerilogOptions{Adder: &arch}))
			require.NoError(t, emit.VerilogTestbench(&vTB, net, opt))
			mod := emit.AdderModuleName(net, arch)
			bug := func(src, re, repl string) string {
				r := regexp.MustCompile(re)
				require.Regexp(t, r, src)
				return r.ReplaceAllString(src, repl)
			}
			for _, planted := range []bool{false, true} {
				vhdl, verilog := vh.String(), v.String()
				if planted {
					// The adder's first output is sum, or lt.
					vhdl = bug(vhdl, `\n    (sum|lt)(\(\d+\))? <= `, "\n    $1$2 <= not ")
					verilog = bug(verilog, `\n    assign (sum|lt)(\[\d+\])? = `, "\n    assign $1$2 = ~")
				}
				vOut, vOK := ghdlRun(t, ghdl, t.TempDir(), std, mod, []byte(vhdl), vhTB.Bytes())
				iOut, iOK := iverilogRun(t, iverilog, vvp, t.TempDir(), []byte(verilog), vTB.Bytes())
				assert.Equal(t, !planted, vOK, vOut)
				assert.Equal(t, !planted, iOK, iOut)
				got, want := lines.FindAllString(vOut, -1), lines.FindAllString(iOut, -1)
				require.NotEmpty(t, got, vOut)
				assert.Equal(t, want, got, "the VHDL and Verilog testbenches run the same vectors")
			}
			if c.arch.Stages < 2 {
				return
			}
			// A register of the second stage that takes its input from
			// before the first: a pipeline out of step, which only
			// vectors that change at every edge show.
			vhdl := bug(vh.String(), `(\n +)(\w+)_s2 <= (\w+)_s1;`, "$1${2}_s2 <= $3;")
			verilog := bug(v.String(), `(\n +)(\w+)_s2 <= (\w+)_s1;`, "$1${2}_s2 <= $3;")
			vOut, vOK := ghdlRun(t, ghdl, t.TempDir(), std, mod, []byte(vhdl), vhTB.Bytes())
			iOut, iOK := iverilogRun(t, iverilog, vvp, t.TempDir(), []byte(verilog), vTB.Bytes())
			assert.False(t, vOK, vOut)
			assert.False(t, iOK, iOut)
			assert.Equal(t, lines.FindAllString(iOut, -1), lines.FindAllString(vOut, -1))
		})
	}
}

// iverilogRun compiles the adder and its testbench with Icarus in dir, runs
// the simulation, and returns what it printed and whether it exited 0.
func iverilogRun(t *testing.T, iverilog, vvp, dir string, adder, tb []byte) (string, bool) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "adder.v"), adder, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tb.v"), tb, 0o644))
	cmd := tooltest.Command(t, iverilog, "-g2005", "-o", "sim", "adder.v", "tb.v")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	cmd = tooltest.Command(t, vvp, "-n", "sim")
	cmd.Dir = dir
	out, err = cmd.CombinedOutput()
	return string(out), err == nil
}

func FuzzCheckEntityName(f *testing.F) {
	for _, s := range []string{"adder", "a__b", "x_", "Signal", "cout", "9x", "A_b9", "módulo", ""} {
		f.Add(s)
	}
	ident := regexp.MustCompile(`^[A-Za-z](_?[A-Za-z0-9])*$`)
	net, err := topologies.Build("sklansky", 4, nil)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, name string) {
		err := emit.CheckEntityName(name)
		if err != nil {
			assert.NotContains(t, err.Error(), "\n")
			if name == "" {
				return // VHDL takes the default name
			}
			var buf bytes.Buffer
			assert.Error(t, emit.VHDL(&buf, net, emit.VHDLOptions{Entity: name}))
			assert.Zero(t, buf.Len())
			return
		}
		assert.Regexp(t, ident, name)
		var buf bytes.Buffer
		require.NoError(t, emit.VHDL(&buf, net, emit.VHDLOptions{Entity: name}))
		assert.Contains(t, buf.String(), "entity "+name+" is\n")
	})
}

// Under every option, the names the VHDL declares (ports, signals, process
// labels) are unique without regard to case, and none is a reserved word:
// each passes CheckEntityName's rules for an identifier.
func TestVHDLNamesUniqueIgnoringCase(t *testing.T) {
	decl := regexp.MustCompile(`(?m)^    (?:signal (\w+) :|(\w+) : process)|^        (\w+)\s+: (?:in|out) `)
	opts := []adder.Architecture{
		adder.Standard,
		{Op: adder.Sub, Flags: adder.Carry | adder.Overflow | adder.Zero | adder.Negative},
		{Op: adder.AddSub, NoCarryIn: true, Flags: adder.Zero, Sparse: 4},
		{Op: adder.Compare, PipelineAfter: []int{1, 2}},
		{Flags: adder.Carry | adder.Overflow, Sparse: 2, Stages: 3},
	}
	radix4, err := topologies.Valency("sklansky", 16, 4)
	require.NoError(t, err)
	for _, topo := range []string{"kogge-stone", "brent-kung", "sklansky", "sklansky radix 4"} {
		net := radix4
		if topo != "sklansky radix 4" {
			net = build(t, topo, 16)
		}
		for _, opt := range opts {
			if topo == "sklansky radix 4" {
				opt.Valency = 4
			}
			var buf bytes.Buffer
			require.NoError(t, emit.VHDL(&buf, net, emit.VHDLOptions{Adder: &opt}))
			assert.NotRegexp(t, `[^\x00-\x7f]`, buf.String(), "a VHDL-93 file is ASCII here")
			seen := map[string]string{}
			for _, m := range decl.FindAllStringSubmatch(buf.String(), -1) {
				name := m[1] + m[2] + m[3]
				low := strings.ToLower(name)
				assert.NotContains(t, seen, low, "%s %s: %s and %s", topo, opt.Suffix(), seen[low], name)
				seen[low] = name
				if err := emit.CheckEntityName(name); err != nil {
					assert.NotContains(t, err.Error(), "reserved word", "%s %s", topo, opt.Suffix())
					assert.NotContains(t, err.Error(), "underscore", "%s %s", topo, opt.Suffix())
				}
			}
			assert.Greater(t, len(seen), 10)
			assert.Contains(t, seen, "a", "ports are among the names")
			cells := 0
			for low := range seen {
				if strings.HasPrefix(low, "g_c") {
					cells++
				}
			}
			assert.Positive(t, cells, "cells are among the names")
		}
	}
}

// A pipelined adder's testbenches, Verilog and VHDL, tell its latency:
// run against the adder of another number of stages under its name, or
// against the combinational adder with its clock and reset ports, each
// fails; against the adder itself each passes. A testbench that compares
// the outputs after the edge that loads the newest vector cannot tell one
// stage from none.
func TestPipelineTestbenchLatency(t *testing.T) {
	ghdl := tooltest.Path(t, "ghdl")
	iverilog := tooltest.Path(t, "iverilog")
	vvp := tooltest.Path(t, "vvp")
	net := build(t, "sklansky", 8) // depth 3: 1 to 4 stages
	arch := func(stages int) *adder.Architecture {
		return &adder.Architecture{Flags: adder.Carry, Stages: stages}
	}
	// adders returns the Verilog and VHDL adders of stages under the name
	// of the adder of want stages, with clk and rst where it has none.
	adders := func(stages, want int) (vlog, vhd []byte) {
		name := emit.AdderModuleName(net, *arch(want))
		var v, h bytes.Buffer
		require.NoError(t, emit.Verilog(&v, net, emit.VerilogOptions{Module: name, Adder: arch(stages)}))
		require.NoError(t, emit.VHDL(&h, net, emit.VHDLOptions{Entity: name, Adder: arch(stages)}))
		vlog, vhd = v.Bytes(), h.Bytes()
		if stages == 0 {
			vlog = []byte(strings.Replace(string(vlog), "module "+name+" (\n", "module "+name+" (\n    input  wire       clk,\n    input  wire       rst,\n", 1))
			vhd = []byte(strings.Replace(string(vhd), "    port (\n", "    port (\n        clk  : in  std_logic;\n        rst  : in  std_logic;\n", 1))
		}
		return vlog, vhd
	}
	for _, tc := range []struct{ want, stages int }{{1, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}, {2, 3}, {4, 3}, {4, 4}} {
		t.Run(fmt.Sprintf("testbench of %d stages, adder of %d", tc.want, tc.stages), func(t *testing.T) {
			t.Parallel()
			name := emit.AdderModuleName(net, *arch(tc.want))
			opt := emit.TestbenchOptions{Vectors: 60, Seed: 3, Adder: arch(tc.want)}
			vlog, vhd := adders(tc.stages, tc.want)
			var tb bytes.Buffer
			require.NoError(t, emit.VerilogTestbench(&tb, net, opt))
			vOut, vOK := iverilogRun(t, iverilog, vvp, t.TempDir(), vlog, tb.Bytes())
			hOut, hOK := ghdlRun(t, ghdl, t.TempDir(), "08", name, vhd, vhdlTestbenchBytes(t, net, opt))
			if tc.stages == tc.want {
				assert.True(t, vOK, vOut)
				assert.True(t, hOK, hOut)
				assert.Contains(t, vOut, "PASS "+name+": 94 vectors, 0 mismatches")
				assert.Contains(t, hOut, "PASS "+name+": 94 vectors, 0 mismatches")
				return
			}
			assert.False(t, vOK, "the Verilog testbench must fail: %s", vOut)
			assert.False(t, hOK, "the VHDL testbench must fail: %s", hOut)
		})
	}
}

// A VHDL testbench may be named apart from its adder, as a Verilog one;
// a name that is not a VHDL identifier, or is the adder's, is refused.
func TestVHDLTestbenchName(t *testing.T) {
	net := build(t, "sklansky", 4)
	def := string(vhdlTestbenchBytes(t, net, emit.TestbenchOptions{Module: "add4", Vectors: 5}))
	named := string(vhdlTestbenchBytes(t, net, emit.TestbenchOptions{Module: "add4", Name: "my_bench", Vectors: 5}))
	assert.Contains(t, def, "\nentity add4_tb is\nend entity add4_tb;\n")
	assert.Contains(t, named, "\nentity my_bench is\nend entity my_bench;\n")
	assert.Contains(t, named, "-- my_bench: a self-checking testbench for add4.")
	assert.Equal(t, def, strings.ReplaceAll(named, "my_bench", "add4_tb"), "only the name differs")
	for _, name := range []string{"entity", "ADD4", "two__lines", "dut"} {
		err := emit.VHDLTestbench(&bytes.Buffer{}, net, emit.TestbenchOptions{Module: "add4", Name: name})
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "emit: ", name)
	}
}

// A pipelined adder without a reset port gets a testbench that neither
// declares nor drives rst, nor says it resets the adder.
func TestVHDLTestbenchNoReset(t *testing.T) {
	net := build(t, "sklansky", 4)
	arch := adder.Architecture{Flags: adder.Carry, Stages: 2, NoReset: true}
	tb := string(vhdlTestbenchBytes(t, net, emit.TestbenchOptions{Vectors: 5, Adder: &arch}))
	assert.Contains(t, tb, "\n    signal clk       : std_logic := '0';\n")
	assert.NotContains(t, tb, "rst <=")
	assert.NotContains(t, tb, "reset cycle")
}
