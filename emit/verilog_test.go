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

func verilogBytes(t testing.TB, net *network.Network) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, emit.Verilog(&buf, net, emit.VerilogOptions{}))
	return buf.Bytes()
}

func TestVerilogGolden(t *testing.T) {
	tests := []struct {
		name string
		net  *network.Network
	}{
		{"sk8", build(t, "sklansky", 8)},
		{"ks5", build(t, "kogge-stone", 5)},
		{"lf1-6", func() *network.Network {
			net, err := topologies.Build("ladner-fischer", 6, network.Params{"k": 1})
			require.NoError(t, err)
			return net
		}()},
		{"odd", emit.OddNetwork(t)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden.Check(t, filepath.Join("testdata", tt.name+".v.golden"), verilogBytes(t, tt.net))
			var tb, lcu bytes.Buffer
			require.NoError(t, emit.VerilogTestbench(&tb, tt.net, emit.TestbenchOptions{Vectors: 100, Seed: 7}))
			golden.Check(t, filepath.Join("testdata", tt.name+"_tb.v.golden"), tb.Bytes())
			require.NoError(t, emit.YosysLCU(&lcu, tt.net, emit.YosysLCUOptions{}))
			golden.Check(t, filepath.Join("testdata", tt.name+"_lcu.v.golden"), lcu.Bytes())
		})
	}
}

// An adder of library cells instantiates one NAND2 and one OAI21 a bit,
// under the library's names and pins (escaped where Verilog needs it), in
// Verilog and in VHDL, where each cell is also a component.
func TestVerilogCells(t *testing.T) {
	net := build(t, "sklansky", 8)
	opt := adder.Standard
	opt.PGCells = true
	cells := &adder.Cells{
		NAND2: adder.Cell{Name: "NAND2X1", Inputs: []string{"A", "B"}, Output: "Y"},
		OAI21: adder.Cell{Name: "OAI21X1", Inputs: []string{"B", "C", "A"}, Output: "Y"},
	}
	var v bytes.Buffer
	err := emit.Verilog(&v, net, emit.VerilogOptions{Adder: &opt})
	require.Error(t, err, "no cells, no instances")
	assert.Equal(t, "emit: an adder of library cells (Architecture.PGCells) needs the library's cells: allowed VerilogOptions.Cells, as physical.PGCells finds them", err.Error())
	require.NoError(t, emit.Verilog(&v, net, emit.VerilogOptions{Adder: &opt, Cells: cells}))
	golden.Check(t, filepath.Join("testdata", "sk8-pgcells.v.golden"), v.Bytes())
	v.Reset()
	require.NoError(t, emit.VHDL(&v, net, emit.VHDLOptions{Adder: &opt, Cells: cells}))
	golden.Check(t, filepath.Join("testdata", "sk8-pgcells.vhd.golden"), v.Bytes())
	cells.NAND2.Name, cells.NAND2.Output = "nand2$1.x", "out"
	v.Reset()
	require.NoError(t, emit.Verilog(&v, net, emit.VerilogOptions{Adder: &opt, Cells: cells}))
	assert.Contains(t, v.String(), "    \\nand2$1.x  u_g_n_3 (.A(a[3]), .B(b[3]), .out(g_n[3]));\n")
	assert.Contains(t, v.String(), "    OAI21X1 u_p_n_3 (.B(a[3]), .C(b[3]), .A(g_n[3]), .Y(p_n[3]));\n")
	v.Reset()
	require.NoError(t, emit.VHDL(&v, net, emit.VHDLOptions{Adder: &opt, Cells: cells}))
	vhdl := v.String()
	assert.Contains(t, vhdl, "    component \\nand2$1.x\\\n        port (\n            A : in std_logic;\n            B : in std_logic;\n            \\out\\ : out std_logic\n        );\n    end component;\n")
	assert.Contains(t, vhdl, "    u_g_n_3 : \\nand2$1.x\\ port map (A => a(3), B => b(3), \\out\\ => g_n(3));\n")
	assert.Contains(t, vhdl, "    u_p_n_3 : OAI21X1 port map (B => a(3), C => b(3), A => g_n(3), Y => p_n(3));\n")
	assert.Equal(t, 1, strings.Count(vhdl, "component OAI21X1\n"), "one component a cell")
	assert.Equal(t, 8, strings.Count(vhdl, " : OAI21X1 port map ("), "one OAI21 a bit")
}

// VHDLName keeps a basic identifier and writes any other name as an
// extended one, refusing what no identifier can hold.
func TestVHDLName(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"NAND2_X1", "NAND2_X1", ""},
		{"sky130_fd_sc_hd__nand2_1", `\sky130_fd_sc_hd__nand2_1\`, ""},
		{"out", `\out\`, ""},
		{"Begin", `\Begin\`, ""}, // a reserved word in any case
		{"a_", `\a_\`, ""},
		{"2x", `\2x\`, ""},
		{`a\b`, `\a\\b\`, ""},
		{"", "", "emit: an empty name cannot be a VHDL identifier"},
		{"a\tb", "", `emit: name "a\tb" cannot be a VHDL identifier: '\t' is not allowed; allowed: printable ASCII characters`},
		{"é", "", `emit: name "é" cannot be a VHDL identifier: 'é' is not allowed; allowed: printable ASCII characters`},
		{"a→b", "", `emit: name "a→b" cannot be a VHDL identifier: '→' is not allowed; allowed: printable ASCII characters`},
	} {
		got, err := emit.VHDLName(c.in)
		if c.err != "" {
			require.Error(t, err, c.in)
			assert.Equal(t, c.err, err.Error())
			continue
		}
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got)
	}
}

// The netlist has one G wire per cell and one P wire per black cell, as
// carry.Kinds says, and the header states the figures; for every topology.
func TestVerilogStructure(t *testing.T) {
	gWire := regexp.MustCompile(`(?m)^    wire (G_c\d+_l\d+(?:_\d+)?) = `)
	pWire := regexp.MustCompile(`(?m)^    wire (P_c\d+_l\d+(?:_\d+)?) = `)
	for _, net := range append(allNetworks(t), emit.OddNetwork(t)) {
		t.Run(emit.Name(net), func(t *testing.T) {
			v := string(verilogBytes(t, net))
			kinds := carry.Kinds(net)
			black := 0
			for _, k := range kinds {
				if k == carry.Black {
					black++
				}
			}
			gs := gWire.FindAllStringSubmatch(v, -1)
			assert.Len(t, gs, net.Size(), "one G per cell")
			assert.Len(t, pWire.FindAllString(v, -1), black, "one P per black cell")
			names := map[string]bool{}
			for _, g := range gs {
				assert.False(t, names[g[1]], "wire %s declared twice", g[1])
				names[g[1]] = true
			}
			f := net.Figures()
			assert.Contains(t, v, fmt.Sprintf("// depth:      %d levels", f.Depth))
			assert.Contains(t, v, fmt.Sprintf("// size:       %d cells (%d black, %d gray)", f.Size, black, f.Size-black))
			assert.Contains(t, v, "module "+emit.ModuleName(net)+" (")
		})
	}
}

// A gray cell's P is read by nothing, so a black cell is exactly one whose P
// a later cell reads: every P wire declared is read.
func TestVerilogEveryPRead(t *testing.T) {
	decl := regexp.MustCompile(`wire (P_c\d+_l\d+(?:_\d+)?) = `)
	for _, net := range allNetworks(t) {
		var code []string
		for _, line := range strings.Split(string(verilogBytes(t, net)), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "//") {
				code = append(code, line)
			}
		}
		v := strings.Join(code, "\n")
		for _, m := range decl.FindAllStringSubmatch(v, -1) {
			uses := len(regexp.MustCompile(`\b`+m[1]+`\b`).FindAllString(v, -1))
			assert.GreaterOrEqual(t, uses, 2, "%s: %s is declared and never read", emit.Name(net), m[1])
		}
	}
}

func TestModuleName(t *testing.T) {
	lf, err := topologies.Build("ladner-fischer", 32, network.Params{"k": 1})
	require.NoError(t, err)
	tests := []struct {
		net       *network.Network
		adder, lc string
	}{
		{build(t, "han-carlson", 64), "prefix_adder_han_carlson_64", "_80_prefixgen_lcu_han_carlson_64"},
		{lf, "prefix_adder_ladner_fischer_k1_32", "_80_prefixgen_lcu_ladner_fischer_k1_32"},
		{emit.OddNetwork(t), "prefix_adder_odd_one_7", "_80_prefixgen_lcu_odd_one_7"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.adder, emit.ModuleName(tt.net))
		assert.Equal(t, tt.lc, emit.LCUModuleName(tt.net))
		assert.NoError(t, emit.CheckModuleName(emit.ModuleName(tt.net)))
	}
	anon, err := network.New(network.Spec{Width: 2, Cells: []network.Cell{{Lo: 0, Hi: 1}}, Outputs: []int{0, 2}})
	require.NoError(t, err)
	assert.Equal(t, "prefix_adder_network_2", emit.ModuleName(anon))

	// A network of very many parameters (carry-select's 400 segments) is
	// named by the first of them and a hash of the rest: its name had
	// been past Verilog's 1 024 characters, which gen then refused as a
	// failure of its own.
	segs := make([]int, 400)
	for i := range segs {
		segs[i] = 2 + i%2
	}
	cs, err := topologies.CarrySelect(1000, segs...)
	require.NoError(t, err)
	long := emit.ModuleName(cs)
	assert.NoError(t, emit.CheckModuleName(long))
	assert.LessOrEqual(t, len(long), 160, "%.100s…", long)
	assert.Regexp(t, `^prefix_adder_carry_select_l02_l13_l22_.*_h[0-9a-f]{8}_1000$`, long)
	assert.NoError(t, emit.CheckModuleName(emit.LCUModuleName(cs)))
	segs[399] = 2
	segs[398] = 3
	other, err := topologies.CarrySelect(1000, segs...)
	require.NoError(t, err)
	assert.NotEqual(t, long, emit.ModuleName(other), "the hash tells networks apart")
}

func TestCheckModuleName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
		why  string
	}{
		{"adder", true, ""},
		{"_x$1", true, ""},
		{"A_b9", true, ""},
		{strings.Repeat("a", 1024), true, ""},
		{"", false, "empty"},
		{"9lives", false, "a letter or _ first"},
		{"$x", false, "a letter or _ first"},
		{"my-adder", false, `'-' is not allowed`},
		{"a b", false, `' ' is not allowed`},
		{"módulo", false, `'ó' is not allowed`},
		{"module", false, "keyword"},
		{"wire", false, "keyword"},
		{"logic", false, "keyword"},
		{strings.Repeat("a", 1025), false, "longer than 1024"},
	}
	for _, tt := range tests {
		err := emit.CheckModuleName(tt.name)
		if tt.ok {
			assert.NoError(t, err, tt.name)
			continue
		}
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.why)
		assert.True(t, strings.HasPrefix(err.Error(), "emit: module name"), err.Error())
		assert.NotContains(t, err.Error(), "\n")
	}
}

func TestVerilogBadOptions(t *testing.T) {
	net := build(t, "sklansky", 8)
	var buf bytes.Buffer
	assert.ErrorContains(t, emit.Verilog(&buf, net, emit.VerilogOptions{Module: "module"}), "keyword")
	assert.ErrorContains(t, emit.YosysLCU(&buf, net, emit.YosysLCUOptions{Module: "1x"}), "letter or _ first")
	assert.ErrorContains(t, emit.VerilogTestbench(&buf, net, emit.TestbenchOptions{Vectors: -1}), "vectors")
	assert.ErrorContains(t, emit.VerilogTestbench(&buf, net, emit.TestbenchOptions{Vectors: emit.MaxTestbenchVectors + 1}), "vectors")
	assert.Zero(t, buf.Len(), "nothing written on bad options")
}

// Two runs write the same bytes.
func TestVerilogDeterministic(t *testing.T) {
	for _, net := range allNetworks(t) {
		assert.Equal(t, verilogBytes(t, net), verilogBytes(t, net))
	}
}

func ExampleVerilog() {
	net, err := topologies.Build("sklansky", 4, nil)
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	if err := emit.Verilog(&buf, net, emit.VerilogOptions{Module: "sk4"}); err != nil {
		panic(err)
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(line, "module") || strings.HasPrefix(line, "    wire G_") || strings.HasPrefix(line, "    wire P_") {
			fmt.Println(line)
		}
	}
	// Output:
	// module sk4 (
	//     wire G_c1_l1 = g[1] | (p[1] & g0_cin);
	//     wire G_c3_l1 = g[3] | (p[3] & g[2]);
	//     wire P_c3_l1 = p[3] & p[2];
	//     wire G_c2_l2 = g[2] | (p[2] & G_c1_l1);
	//     wire G_c3_l2 = G_c3_l1 | (P_c3_l1 & G_c1_l1);
}

func BenchmarkVerilog(b *testing.B) {
	net, err := topologies.Build("kogge-stone", 1024, nil)
	require.NoError(b, err)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := emit.Verilog(&buf, net, emit.VerilogOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

func ExampleIdentifier() {
	fmt.Println(emit.Identifier("ladner-fischer", "k1", "32"))
	fmt.Println(emit.Identifier(`odd "one"`, "7"))
	fmt.Println(emit.Identifier("", "9"))
	// Output:
	// ladner_fischer_k1_32
	// odd_one_7
	// network_9
}

func TestCommentText(t *testing.T) {
	assert.Equal(t, "(none)", emit.CommentText(""))
	assert.Equal(t, "ladner-fischer k=1", emit.CommentText("ladner-fischer k=1"))
	assert.Equal(t, `"a */ b\n"`, emit.CommentText("a */ b\n"))
	assert.Equal(t, `"caf\u00e9"`, emit.CommentText("café"))
}

// The testbench, with its adder, is clean under verilator --lint-only -Wall
// and passes in Icarus at widths that take every input (1, 5), one partial
// random word (8), a word and a bit (33), whole words (64) and words and a
// part (100).
func TestVerilogTestbenchLintAndRun(t *testing.T) {
	verilator := tooltest.Path(t, "verilator")
	iverilog := tooltest.Path(t, "iverilog")
	vvp := tooltest.Path(t, "vvp")
	topos := []string{"sklansky", "kogge-stone", "brent-kung", "han-carlson", "ladner-fischer", "ripple"}
	for i, n := range []int{1, 5, 8, 33, 64, 100} {
		net := build(t, topos[i], n)
		t.Run(emit.Name(net)+fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			mod := emit.ModuleName(net)
			var tb bytes.Buffer
			require.NoError(t, emit.VerilogTestbench(&tb, net, emit.TestbenchOptions{Vectors: 50, Seed: 0xfffffff0}))
			require.NoError(t, os.WriteFile(filepath.Join(dir, mod+".v"), verilogBytes(t, net), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, mod+"_tb.v"), tb.Bytes(), 0o644))
			runIn := func(name string, args ...string) string {
				cmd := tooltest.Command(t, name, args...)
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				require.NoError(t, err, "%s", out)
				return string(out)
			}
			assert.Empty(t, runIn(verilator, "--lint-only", "-Wall", "--timing", "--top-module", mod+"_tb", mod+".v", mod+"_tb.v"))
			assert.Empty(t, runIn(iverilog, "-g2005", "-Wall", "-o", "sim", mod+".v", mod+"_tb.v"))
			assert.Regexp(t, `(?m)^PASS `+mod+`: \d+ vectors, 0 mismatches$`, runIn(vvp, "-n", "sim"))
		})
	}
}

// The header counts a sparse adder's carry-select blocks as they are: at a
// width the sparseness does not divide, the last block is narrower.
func TestSparseHeaderBlocks(t *testing.T) {
	for _, tt := range []struct {
		n, sparse int
		want      string
	}{
		{32, 4, "// sparse:     8 carry-select blocks of 4 bits, "},
		{33, 4, "// sparse:     9 carry-select blocks, 8 of 4 bits and 1 of 1, "},
		{30, 8, "// sparse:     4 carry-select blocks, 3 of 8 bits and 1 of 6, "},
	} {
		opt := adder.Architecture{Flags: adder.Carry, Sparse: tt.sparse}
		var b bytes.Buffer
		require.NoError(t, emit.Verilog(&b, koggeStone(t, tt.n), emit.VerilogOptions{Adder: &opt}))
		assert.Contains(t, b.String(), tt.want, "width %d sparse %d", tt.n, tt.sparse)
	}
}

// A testbench may be named apart from its adder (toolcheck names the one
// it writes around a user's module in its own namespace); a name that is
// not a Verilog identifier is refused.
func TestVerilogTestbenchName(t *testing.T) {
	net := build(t, "sklansky", 4)
	var def, named bytes.Buffer
	require.NoError(t, emit.VerilogTestbench(&def, net, emit.TestbenchOptions{Module: "add4", Vectors: 5}))
	require.NoError(t, emit.VerilogTestbench(&named, net, emit.TestbenchOptions{Module: "add4", Name: "my_bench", Vectors: 5}))
	assert.Contains(t, def.String(), "\nmodule add4_tb;\n")
	assert.Contains(t, def.String(), "// add4_tb: a self-checking testbench for add4.")
	assert.Contains(t, named.String(), "\nmodule my_bench;\n")
	assert.Contains(t, named.String(), "// my_bench: a self-checking testbench for add4.")
	assert.Equal(t, def.String(), strings.ReplaceAll(named.String(), "my_bench", "add4_tb"), "only the name differs")
	err := emit.VerilogTestbench(&bytes.Buffer{}, net, emit.TestbenchOptions{Name: "module"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `emit: module name "module" is not a legal Verilog identifier`)
}

// An adder's module is not named as a port, wire, cell or instance it
// declares: Verilator (lint -Wall) had warned that the inner one hides the
// module (VARHIDDEN). A testbench's module under test, a user's, may be.
func TestVerilogModuleNameHidden(t *testing.T) {
	net := build(t, "sklansky", 8)
	for _, name := range []string{"carry", "a", "sum", "cout", "p", "g0_cin", "G_c1_l1", "t", "c_b4", "u_g_n_0", "cin_s1"} {
		err := emit.Verilog(&bytes.Buffer{}, net, emit.VerilogOptions{Module: name})
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "is a name the adder declares inside", name)
	}
	require.NoError(t, emit.Verilog(&bytes.Buffer{}, net, emit.VerilogOptions{Module: "adder8"}))
	require.NoError(t, emit.VerilogTestbench(&bytes.Buffer{}, net, emit.TestbenchOptions{Module: "carry", Vectors: 1}))
}
