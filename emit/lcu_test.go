package emit_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

func TestParseWidths(t *testing.T) {
	tests := []struct {
		in   string
		want []int
		err  string
	}{
		{"8", []int{8}, ""},
		{"1-4", []int{1, 2, 3, 4}, ""},
		{"8,16,32-34", []int{8, 16, 32, 33, 34}, ""},
		{" 64 , 13, 65 ", []int{13, 64, 65}, ""},
		{"1024", []int{1024}, ""},
		{"7-7", []int{7}, ""},
		{"", nil, "empty"},
		{" ", nil, "empty"},
		{"0", nil, "0 is out of range"},
		{"1025", nil, "1025 is out of range"},
		{"1-2000", nil, "2000 is out of range"},
		{"9-3", nil, "range 9-3 is reversed"},
		{"8,8", nil, "8 is given twice"},
		{"4-8,6", nil, "6 is given twice"},
		{"8,", nil, `"" is not a width`},
		{"-3", nil, `"" is not a width`},
		{"x", nil, `"x" is not a width`},
		{"1-2-3", nil, `"2-3" is not a width`},
	}
	for _, tt := range tests {
		got, err := emit.ParseWidths(tt.in)
		if tt.err == "" {
			require.NoError(t, err, tt.in)
			assert.Equal(t, tt.want, got, tt.in)
			continue
		}
		require.Error(t, err, tt.in)
		assert.Contains(t, err.Error(), tt.err)
		assert.Contains(t, err.Error(), "allowed: widths and ranges lo-hi from 1 to 1024")
		assert.True(t, strings.HasPrefix(err.Error(), "emit: widths "), err.Error())
	}
}

func FuzzParseWidths(f *testing.F) {
	for _, s := range []string{"8", "1-128", "8,16,32-64", "", "0", "9-3", "8,8", "1-1024"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ws, err := emit.ParseWidths(s)
		if err != nil {
			assert.NotContains(t, err.Error(), "\n")
			return
		}
		require.NotEmpty(t, ws)
		assert.True(t, slices.IsSorted(ws))
		assert.Len(t, slices.Compact(slices.Clone(ws)), len(ws), "no width twice")
		assert.GreaterOrEqual(t, ws[0], 1)
		assert.LessOrEqual(t, ws[len(ws)-1], emit.MaxLCUWidth)
		again, err := emit.ParseWidths(emit.FormatWidths(ws))
		require.NoError(t, err)
		assert.Equal(t, ws, again, "FormatWidths writes what ParseWidths reads")
	})
}

func ExampleFormatWidths() {
	ws, err := emit.ParseWidths("64-65,13,16,1-3")
	if err != nil {
		panic(err)
	}
	fmt.Println(ws)
	fmt.Println(emit.FormatWidths(ws))
	// Output:
	// [1 2 3 13 16 64 65]
	// 1-3,13,16,64,65
}

// lcuNets builds topo at every width of ws.
func lcuNets(t *testing.T, topo string, ws string) []*network.Network {
	t.Helper()
	widths, err := emit.ParseWidths(ws)
	require.NoError(t, err)
	var nets []*network.Network
	for _, n := range widths {
		nets = append(nets, build(t, topo, n))
	}
	return nets
}

func lcuBytes(t *testing.T, nets []*network.Network, module string) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, emit.YosysLCUWidths(&buf, nets, emit.YosysLCUOptions{Module: module}))
	return buf.Bytes()
}

func TestYosysLCUWidthsGolden(t *testing.T) {
	nets := lcuNets(t, "brent-kung", "1-3,5")
	slices.Reverse(nets) // the order given does not matter
	got := lcuBytes(t, nets, "")
	golden.Check(t, filepath.Join("testdata", "bk1-3,5_lcu.v.golden"), got)
	v := string(got)
	assert.Contains(t, v, "module _80_prefixgen_lcu_brent_kung (P, G, CI, CO);")
	assert.Contains(t, v, "wire _TECHMAP_FAIL_ = !(WIDTH >= 1 && WIDTH <= 3 || WIDTH == 5);")
	for _, n := range []int{1, 2, 3, 5} {
		assert.Contains(t, v, fmt.Sprintf("        %d: begin : w%d\n", n, n))
	}
	// Each branch has one G per cell and one CO per bit.
	for _, net := range nets {
		n := net.Width()
		body := v[strings.Index(v, fmt.Sprintf("begin : w%d\n", n)):]
		body = body[:strings.Index(body, "\n        end\n")]
		assert.Len(t, regexp.MustCompile(`wire G_c`).FindAllString(body, -1), net.Size(), "width %d", n)
		assert.Len(t, regexp.MustCompile(`assign CO\[`).FindAllString(body, -1), n, "width %d", n)
	}
}

func TestYosysLCUWidthsBadInput(t *testing.T) {
	var buf bytes.Buffer
	sk8, ks8 := build(t, "sklansky", 8), build(t, "kogge-stone", 8)
	assert.ErrorContains(t, emit.YosysLCUWidths(&buf, nil, emit.YosysLCUOptions{}), "at least one width")
	assert.ErrorContains(t, emit.YosysLCUWidths(&buf, []*network.Network{sk8, sk8}, emit.YosysLCUOptions{}), "two networks of width 8")
	assert.ErrorContains(t, emit.YosysLCUWidths(&buf, []*network.Network{sk8, build(t, "kogge-stone", 9)}, emit.YosysLCUOptions{}),
		"covers one topology: sklansky and kogge-stone given")
	assert.ErrorContains(t, emit.YosysLCUWidths(&buf, []*network.Network{build(t, "ripple", 8), build(t, "ripple", emit.MaxLCUWidth+1)}, emit.YosysLCUOptions{}),
		"too wide")
	assert.ErrorContains(t, emit.YosysLCUWidths(&buf, []*network.Network{ks8}, emit.YosysLCUOptions{Module: "endmodule"}), "keyword")
	// techmap tries the maps of one cell type in the order of their
	// names: one after Yosys's own _90_lcu is never taken.
	for _, m := range []string{"my_lcu", "_91_lcu", "lcu"} {
		assert.EqualError(t, emit.YosysLCU(&buf, ks8, emit.YosysLCUOptions{Module: m}),
			"emit: module name "+strconv.Quote(m)+" sorts after _90_lcu, Yosys's own $lcu map, which techmap would take instead: allowed a name that sorts before it, as _80_"+strings.TrimLeft(m, "_"), m)
		assert.EqualError(t, emit.CheckLCUModuleName(m), "emit: module name "+strconv.Quote(m)+" sorts after _90_lcu, Yosys's own $lcu map, which techmap would take instead: allowed a name that sorts before it, as _80_"+strings.TrimLeft(m, "_"))
	}
	// Yosys's techmap.v names its own modules _90_…: one of the same name
	// as ours is read first and kept, ours ignored.
	for _, m := range []string{"_90_alu", "_90_fa", "_90_lcu"} {
		assert.EqualError(t, emit.CheckLCUModuleName(m), "emit: module name "+strconv.Quote(m)+" begins with _90_, as the modules of Yosys's own techmap.v do, which techmap reads first and keeps: allowed a name that sorts before _90_lcu, as _80_"+strings.TrimPrefix(m, "_90_"), m)
	}
	assert.ErrorContains(t, emit.CheckLCUModuleName("_90_"), "allowed a name that sorts before _90_lcu, as _80_NAME")
	for _, m := range []string{"My_lcu", "_80_mine", "_89_lcu", "A"} {
		assert.NoError(t, emit.CheckLCUModuleName(m), m)
	}
	for _, ct := range []string{"lcu", "$", "$a b", `$x"`, "$lcu\n"} {
		assert.ErrorContains(t, emit.YosysLCU(&buf, ks8, emit.YosysLCUOptions{CellType: ct}), "allowed $ followed by letters", ct)
	}
	assert.Zero(t, buf.Len(), "nothing written on bad input")
}

// multiWidthDesign has an $lcu of every kind the README lists: a 13-bit
// a + b, a 64-bit a - b, a 65-bit {cout, sum} = a + b + cin, a 16-bit signed
// comparison, and an 8-bit a + b that the techmap does not cover.
const multiWidthDesign = `module top (
    input  wire [12:0] a13, b13,
    input  wire [63:0] a64, b64,
    input  wire        cin,
    input  wire [15:0] c16, d16,
    input  wire [7:0]  e8, f8,
    output wire [12:0] sum13,
    output wire [63:0] diff64,
    output wire [64:0] sum65,
    output wire        lt16,
    output wire [7:0]  sum8
);
    assign sum13 = a13 + b13;
    assign diff64 = a64 - b64;
    assign sum65 = a64 + b64 + cin;
    assign lt16 = $signed(c16) < $signed(d16);
    assign sum8 = e8 + f8;
endmodule
`

// multiWidthFlow synthesizes the design twice from the same fine-grained
// start, once with Yosys's own techmap (gold) and once with the prefixgen
// map beside it (gate), and proves the two equal.
const multiWidthFlow = `read_verilog top.v
synth -top top -run begin:fine
design -save fine
techmap
opt -fast
rename top gold
design -stash gold
design -load fine
log PREFIXGEN-GATE
techmap -map +/techmap.v -map lcu.v
opt -fast
rename top gate
design -stash gate
design -copy-from gold -as gold gold
design -copy-from gate -as gate gate
rename -hide w:_*_
equiv_make gold gate equiv
hierarchy -top equiv
equiv_simple
equiv_induct
equiv_status -assert
`

// usedTemplate matches Yosys's line for each $lcu it maps.
var usedTemplate = regexp.MustCompile(`Using template \$paramod\\(\S+)\\WIDTH=32'([01]+) for cells of type \$lcu\.`)

// runMultiWidth runs multiWidthFlow with the techmap lcu and returns Yosys's
// error, if any, and for the gate flow the module that mapped each $lcu
// width.
func runMultiWidth(t *testing.T, yosys string, lcu []byte) (map[int]string, error) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "top.v"), []byte(multiWidthDesign), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lcu.v"), lcu, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "flow.ys"), []byte(multiWidthFlow), 0o644))
	cmd := tooltest.Command(t, yosys, "-q", "-l", "log.txt", "flow.ys")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	log, rerr := os.ReadFile(filepath.Join(dir, "log.txt"))
	require.NoError(t, rerr, "%s", out)
	_, gate, found := strings.Cut(string(log), "PREFIXGEN-GATE")
	require.True(t, found, "no gate flow in the log:\n%s", log)
	mapped := map[int]string{}
	for _, m := range usedTemplate.FindAllStringSubmatch(gate, -1) {
		w, perr := strconv.ParseInt(m[2], 2, 64)
		require.NoError(t, perr)
		assert.NotContains(t, mapped, int(w), "two $lcu of width %d", w)
		mapped[int(w)] = m[1]
	}
	if err != nil {
		err = fmt.Errorf("%v: %s", err, out)
	}
	return mapped, err
}

// One Kogge–Stone techmap for 13, 16, 64 and 65 bits maps every $lcu of a
// design with a 13-bit add, a 64-bit subtract, a 65-bit {cout, sum} add and
// a 16-bit comparison, leaves the 8-bit add to Yosys's _90_lcu, and the
// result is proven equal to Yosys's own flow. A planted bug in the 13-bit
// branch fails the proof.
func TestYosysLCUWidthsMultiWidthDesign(t *testing.T) {
	yosys := tooltest.Path(t, "yosys")
	nets := lcuNets(t, "kogge-stone", "13,16,64-65")
	lcu := lcuBytes(t, nets, "")
	const mod = "_80_prefixgen_lcu_kogge_stone"

	t.Run("proven", func(t *testing.T) {
		t.Parallel()
		mapped, err := runMultiWidth(t, yosys, lcu)
		require.NoError(t, err)
		assert.Equal(t, map[int]string{13: mod, 16: mod, 64: mod, 65: mod, 8: "_90_lcu"}, mapped)
	})
	t.Run("each width its own parameters", func(t *testing.T) {
		t.Parallel()
		// Zero-deficiency at each width's least depth: d=5, 5, 8, 8.
		nets := lcuNets(t, "zero-deficiency", "13,16,64-65")
		lcu := string(lcuBytes(t, nets, ""))
		const own = "_80_prefixgen_lcu_zero_deficiency"
		for _, want := range []string{"module " + own + " (P, G, CI, CO);", "// parameters: each width's own, named in its case\n", "// width 13, d=5: depth 5,", "// width 65, d=8: depth 8,"} {
			assert.True(t, strings.Contains(lcu, want), want)
		}
		mapped, err := runMultiWidth(t, yosys, []byte(lcu))
		require.NoError(t, err)
		assert.Equal(t, map[int]string{13: own, 16: own, 64: own, 65: own, 8: "_90_lcu"}, mapped)
	})
	t.Run("planted bug", func(t *testing.T) {
		t.Parallel()
		// Swap one cell's operands in the 13-bit branch only.
		v := string(lcu)
		at := strings.Index(v, "begin : w13\n")
		require.Positive(t, at)
		good := "wire G_c5_l1 = g[5] | (p[5] & g[4]);"
		i := strings.Index(v[at:], good)
		require.Positive(t, i)
		bad := v[:at+i] + "wire G_c5_l1 = g[4] | (p[4] & g[5]);" + v[at+i+len(good):]
		mapped, err := runMultiWidth(t, yosys, []byte(bad))
		assert.Error(t, err, "a swapped operand in the 13-bit map must fail the proof")
		assert.Equal(t, mod, mapped[13])
	})
}

// The single-width techmap is the multi-width one with one width, named
// with its width.
func TestYosysLCUOneWidth(t *testing.T) {
	net := build(t, "han-carlson", 16)
	var one bytes.Buffer
	require.NoError(t, emit.YosysLCU(&one, net, emit.YosysLCUOptions{}))
	assert.Equal(t, string(lcuBytes(t, []*network.Network{net}, emit.LCUModuleName(net))), one.String())
	assert.Contains(t, one.String(), "module _80_prefixgen_lcu_han_carlson_16 (P, G, CI, CO);")
	assert.Contains(t, one.String(), "wire _TECHMAP_FAIL_ = !(WIDTH == 16);")
}

// A cell type of its own maps one cell alone, as prefixgen map gives each
// adder of a design its own network.
func TestYosysLCUCellType(t *testing.T) {
	net := build(t, "sklansky", 8)
	var plain, own bytes.Buffer
	require.NoError(t, emit.YosysLCU(&plain, net, emit.YosysLCUOptions{}))
	require.NoError(t, emit.YosysLCU(&own, net, emit.YosysLCUOptions{Module: "_m3", CellType: "$__prefixgen_net_3"}))
	assert.Contains(t, plain.String(), `(* techmap_celltype = "$lcu" *)`)
	assert.Contains(t, own.String(), `(* techmap_celltype = "$__prefixgen_net_3" *)`+"\nmodule _m3 (P, G, CI, CO);")
	assert.Equal(t, strings.Count(plain.String(), "assign CO["), strings.Count(own.String(), "assign CO["))
}

// A plain module is the same network as a module of its own, for a design
// to instantiate.
func TestYosysLCUPlain(t *testing.T) {
	net := build(t, "sklansky", 8)
	var plain bytes.Buffer
	require.NoError(t, emit.YosysLCU(&plain, net, emit.YosysLCUOptions{Module: "prefixgen_net_3", Plain: true}))
	assert.Contains(t, plain.String(), "(* keep_hierarchy *)\nmodule prefixgen_net_3 (P, G, CI, CO);")
	assert.NotContains(t, plain.String(), "techmap_celltype")
	assert.NotContains(t, plain.String(), "_TECHMAP_FAIL_ =")
	var two bytes.Buffer
	err := emit.YosysLCUWidths(&two, []*network.Network{net, build(t, "sklansky", 9)}, emit.YosysLCUOptions{Plain: true})
	assert.ErrorContains(t, err, "a plain $lcu module covers one width")
	assert.Zero(t, two.Len())
}

func TestLCUWidthsModuleName(t *testing.T) {
	lf, err := topologies.Build("ladner-fischer", 32, network.Params{"k": 1})
	require.NoError(t, err)
	assert.Equal(t, "_80_prefixgen_lcu_ladner_fischer_k1", emit.LCUWidthsModuleName(lf))
	assert.Equal(t, "_80_prefixgen_lcu_sklansky", emit.LCUWidthsModuleName(build(t, "sklansky", 4)))
}
