package adder_test

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

func build(t testing.TB, topo string, n int) *network.Network {
	t.Helper()
	net, err := topologies.Build(topo, n, nil)
	require.NoError(t, err)
	return net
}

// A sparse tree keeps the cone of every s-th carry. At n = 64 the closed
// forms of Harris's sparse trees hold: s-bit groups formed in log2 s levels
// (s − 1 cells a group for these families), then the family over n/s
// groups: Kogge–Stone m·log2 m − m + 1 cells, Sklansky (m/2)·log2 m, with
// m = n/s. Han–Carlson at sparseness 2 loses its last level.
func TestSparseStructure(t *testing.T) {
	tests := []struct {
		topo                     string
		s                        int
		cells, depth, black, mux int
	}{
		{"kogge-stone", 1, 321, 6, 258, 0},
		{"kogge-stone", 2, 32*1 + (32*5 - 32 + 1), 6, 129, 31},
		{"kogge-stone", 4, 16*3 + (16*4 - 16 + 1), 6, 80, 15 * 3},
		{"kogge-stone", 8, 8*7 + (8*3 - 8 + 1), 6, 63, 7 * 7},
		{"sklansky", 4, 16*3 + 8*4, 6, 63, 45},
		{"sklansky", 8, 8*7 + 4*3, 6, 58, 49},
		{"han-carlson", 1, 192, 7, 129, 0},
		{"han-carlson", 2, 161, 6, 129, 31},
		{"brent-kung", 4, 74, 8, 57, 45},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d", tt.topo, tt.s), func(t *testing.T) {
			d, err := adder.Describe(build(t, tt.topo, 64), adder.Architecture{Flags: adder.Carry, Sparse: tt.s}, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.cells, d.Cells, "cells")
			assert.Equal(t, tt.depth, d.Depth, "depth")
			assert.Equal(t, tt.black, d.Black, "black cells")
			assert.Equal(t, tt.mux, d.Muxes, "sum multiplexers")
			if tt.s > 1 {
				assert.Equal(t, 64/tt.s, d.Groups, "carry-select blocks")
			}
		})
	}
}

// The prefix cells of a sparse-4 Kogge–Stone adder read, above its first two
// levels, only whole 4-bit groups: ⌈n/4⌉ prefix inputs. The comments name
// the spans each cell joins.
func TestSparseGroups(t *testing.T) {
	for _, n := range []int{16, 32, 64} {
		d, err := adder.Describe(build(t, "kogge-stone", n), adder.Architecture{Flags: adder.Carry, Sparse: 4}, nil)
		require.NoError(t, err)
		groups := map[string]bool{}
		for _, sec := range d.Sections {
			for _, a := range sec.Assigns {
				var k, c, l, hi, lo, hh, hl, lh, ll int
				var kind string
				if _, err := fmt.Sscanf(a.Comment, "cell %d, column %d, level %d, %s [%d:%d] = [%d:%d] o [%d:%d]", &k, &c, &l, &kind, &hi, &lo, &hh, &hl, &lh, &ll); err != nil {
					continue
				}
				if l <= 2 {
					assert.Equal(t, hi/4, lo/4, "level %d cell [%d:%d] within one group", l, hi, lo)
					if (hi+1)%4 == 0 && lo%4 == 0 {
						groups[fmt.Sprint(hi, lo)] = true
					}
					continue
				}
				for _, sp := range [][2]int{{hh, hl}, {lh, ll}} {
					assert.Zero(t, sp[1]%4, "level %d operand [%d:%d] starts a group", l, sp[0], sp[1])
					assert.Equal(t, 3, sp[0]%4, "level %d operand [%d:%d] ends a group", l, sp[0], sp[1])
				}
			}
		}
		assert.Len(t, groups, n/4, "group (G, P) pairs at n = %d", n)
	}
}

func TestPipelineStructure(t *testing.T) {
	net := build(t, "kogge-stone", 16) // depth 4
	d, err := adder.Describe(net, adder.Architecture{Flags: adder.Carry, PipelineAfter: []int{0, 2}}, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, d.Latency)
	require.Len(t, d.Stages, 2)
	assert.Equal(t, 0, d.Stages[0].After)
	assert.Equal(t, 2, d.Stages[1].After)
	assert.True(t, d.Clocked())
	names := []string{}
	for _, p := range d.Inputs() {
		names = append(names, p.Name)
	}
	assert.Equal(t, []string{"clk", "rst", "a", "b", "cin"}, names)
	// After the pre-processing: p whole, cin for the sum of bit 0, g0_cin,
	// and g bit by bit: bit 0 went into g0_cin already.
	first := map[string]int{}
	for _, r := range d.Stages[0].Registers {
		first[r.Q.Name] = r.Q.Width
	}
	want := map[string]int{"cin_s1": 0, "p_s1": 16, "g0_cin_s1": 0}
	for i := 1; i < 16; i++ {
		want[fmt.Sprintf("g_s1_b%d", i)] = 0
	}
	assert.Equal(t, want, first)
	stageName := regexp.MustCompile(`_s[12](_b\d+)?$`)
	bits := 0
	for _, r := range d.Registers() {
		bits += max(r.Q.Width, 1)
		assert.Regexp(t, stageName, r.Q.Name)
	}
	assert.Equal(t, d.RegisterBits, bits)

	// --stages chooses balanced levels.
	d, err = adder.Describe(net, adder.Architecture{Flags: adder.Carry, Stages: 1}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{2}, d.Architecture.PipelineAfter)

	// Without a reset: clk and no rst, the same registers.
	plain, err := adder.Describe(net, adder.Architecture{Flags: adder.Carry, PipelineAfter: []int{0, 2}}, nil)
	require.NoError(t, err)
	d, err = adder.Describe(net, adder.Architecture{Flags: adder.Carry, PipelineAfter: []int{0, 2}, NoReset: true}, nil)
	require.NoError(t, err)
	names = names[:0]
	for _, p := range d.Inputs() {
		names = append(names, p.Name)
	}
	assert.Equal(t, []string{"clk", "a", "b", "cin"}, names)
	assert.Equal(t, plain.Stages, d.Stages)
	assert.Equal(t, plain.Figures, d.Figures)
}

func TestBalancedCuts(t *testing.T) {
	tests := []struct {
		depth, k int
		want     []int
	}{
		{6, 1, []int{3}},
		{6, 2, []int{2, 4}},
		{6, 3, []int{1, 3, 5}},
		{6, 7, []int{0, 1, 2, 3, 4, 5, 6}},
		{0, 1, []int{0}},
		{4, 1, []int{2}},
		{3, 1, []int{2}}, // 5 levels of logic: 2.5 before the stage rounds up to 3
	}
	for _, tt := range tests {
		got, err := adder.BalancedCuts(tt.depth, tt.k)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "depth %d, %d stages", tt.depth, tt.k)
	}
	_, err := adder.BalancedCuts(6, 8)
	assert.ErrorContains(t, err, "allowed 1 to 7")
	_, err = adder.BalancedCuts(6, 0)
	assert.ErrorContains(t, err, "allowed 1 to 7")
	_, err = adder.BalancedCuts(math.MaxInt, 1)
	assert.EqualError(t, err, "adder: a carry tree of depth 9223372036854775807: allowed 0 to 1073741823")
	_, err = adder.BalancedCuts(-1, 1)
	assert.ErrorContains(t, err, "allowed 0 to 1073741823")
	_, err = adder.BalancedCuts(6, math.MaxInt)
	assert.ErrorContains(t, err, "allowed 1 to 7")
}

// A comparator keeps only the cone of the carry out; an adder without cout
// drops the top generate bit and the cells only cout needs.
func TestPruning(t *testing.T) {
	net := build(t, "kogge-stone", 16)
	d, err := adder.Describe(net, adder.Architecture{Op: adder.Compare}, nil)
	require.NoError(t, err)
	assert.Equal(t, 15, d.Cells, "a comparator's carry tree is the cone of G[15:0]: n − 1 cells")
	assert.Equal(t, 4, d.Depth)
	d, err = adder.Describe(net, adder.Architecture{}, nil)
	require.NoError(t, err)
	assert.Equal(t, net.Size()-4, d.Cells, "without cout, the four cells of column 15 go")
	for _, sec := range d.Sections {
		for _, bus := range sec.Buses {
			if bus.Name == "g" {
				assert.Equal(t, 15, bus.Width)
			}
		}
	}
}

func TestDescribeErrors(t *testing.T) {
	ks8 := build(t, "kogge-stone", 8) // depth 3
	tests := []struct {
		net   *network.Network
		opt   adder.Architecture
		cells *adder.Cells
		want  string
	}{
		{ks8, adder.Architecture{Sparse: 3}, nil, "sparseness 3 not allowed: allowed 1, 2, 4, 8"},
		{ks8, adder.Architecture{Sparse: 16}, nil, "sparseness 16 not allowed"},
		{ks8, adder.Architecture{Sparse: -1}, nil, "sparseness -1 not allowed: allowed 1, 2, 4, 8"},
		{build(t, "sklansky", 3), adder.Architecture{Sparse: 4}, nil, "sparseness 4 exceeds the width 3"},
		{ks8, adder.Architecture{Op: adder.Compare, Sparse: 2}, nil, "does not apply to compare"},
		{ks8, adder.Architecture{Op: adder.Compare, Flags: adder.Zero}, nil, "flags (zero) do not apply to compare, which outputs lt, ltu and eq: allowed none"},
		{ks8, adder.Architecture{Op: 9}, nil, "unknown operation 9"},
		{ks8, adder.Architecture{Flags: 1 << 6}, nil, "unknown flags"},
		{ks8, adder.Architecture{Flags: 1 << 4}, nil, "unknown flags 0x10: allowed carry, overflow, zero, negative"},
		{ks8, adder.Architecture{PipelineAfter: []int{4}}, nil, "pipeline level 4 beyond the carry tree: allowed 0 (after the pre-processing) to 3"},
		{ks8, adder.Architecture{PipelineAfter: []int{-1}}, nil, "pipeline level -1"},
		{ks8, adder.Architecture{PipelineAfter: []int{2, 1}}, nil, "not in increasing order"},
		{ks8, adder.Architecture{PipelineAfter: []int{1, 1}}, nil, "not in increasing order"},
		{ks8, adder.Architecture{Stages: 5}, nil, "5 pipeline stages for a carry tree of depth 3: allowed 1 to 4"},
		{ks8, adder.Architecture{Stages: 1, PipelineAfter: []int{1}}, nil, "use one"},
		{ks8, adder.Architecture{NoReset: true}, nil, "no reset given for a combinational adder: allowed only with register stages"},
		{ks8, adder.Architecture{Op: adder.Sub, PGCells: true}, &osuCells, "library cells for the pre-processing do not apply to sub: allowed add"},
		{ks8, adder.Architecture{PGCells: true}, &adder.Cells{NAND2: osuCells.NAND2, OAI21: adder.Cell{Name: "OAI21X1", Inputs: []string{"A", "B"}, Output: "Y"}}, `the OAI21 cell "OAI21X1" has inputs ["A" "B"] and output "Y": allowed a name, 3 inputs and an output`},
		{ks8, adder.Architecture{PGCells: true}, &adder.Cells{NAND2: adder.Cell{Inputs: []string{"A", "B"}, Output: "Y"}, OAI21: osuCells.OAI21}, `the NAND2 cell "" has inputs`},
		{ks8, adder.Architecture{PGCells: true}, &adder.Cells{NAND2: adder.Cell{Name: "NAND3X1", Inputs: []string{"A", "B", "C"}, Output: "Y"}, OAI21: osuCells.OAI21},
			`the NAND2 cell "NAND3X1" has inputs ["A" "B" "C"] and output "Y": allowed a name, 2 inputs and an output`},
		// The sparse tree of Kogge–Stone 8 with s = 8 keeps depth 3, but the
		// comparator of a 1-bit adder has no cells at all.
		{build(t, "kogge-stone", 1), adder.Architecture{Op: adder.Compare, PipelineAfter: []int{1}}, nil, "allowed 0 (after the pre-processing) to 0"},
	}
	for _, tt := range tests {
		_, err := adder.Describe(tt.net, tt.opt, tt.cells)
		require.Error(t, err, "%+v", tt.opt)
		assert.Contains(t, err.Error(), tt.want)
		assert.True(t, strings.HasPrefix(err.Error(), "adder: "), err.Error())
		assert.NotContains(t, err.Error(), "\n")
	}
}

// osuCells are OSU 0.18 µm's NAND2 and OAI21, as physical.PGCells finds them.
var osuCells = adder.Cells{
	NAND2: adder.Cell{Name: "NAND2X1", Inputs: []string{"A", "B"}, Output: "Y"},
	OAI21: adder.Cell{Name: "OAI21X1", Inputs: []string{"A", "B", "C"}, Output: "Y"},
}

// TestCellsStructure checks the pre-processing of PGCells: one NAND2
// and one OAI21 a bit, wired as the package documentation says, and the
// generate and propagate their complements.
func TestCellsStructure(t *testing.T) {
	for _, n := range []int{1, 5, 16} {
		d, err := adder.Describe(build(t, "sklansky", n), adder.Architecture{Flags: adder.Carry, PGCells: true}, &osuCells)
		require.NoError(t, err)
		pre := d.Sections[0]
		assert.Equal(t, []adder.Signal{{Name: "g_n", Width: n}, {Name: "p_n", Width: n}}, pre.Buses)
		var nand, oai int
		for _, a := range pre.Assigns {
			switch {
			case a.Cell == nil:
				continue
			case a.Cell.Name == "NAND2X1":
				i := a.Target.Bit
				assert.Equal(t, adder.Bit("g_n", nand), a.Target)
				assert.Equal(t, []adder.Ref{adder.Bit("a", i), adder.Bit("b", i)}, a.CellArgs)
				nand++
			case a.Cell.Name == "OAI21X1":
				i := a.Target.Bit
				assert.Equal(t, adder.Bit("p_n", oai), a.Target)
				assert.Equal(t, []adder.Ref{adder.Bit("a", i), adder.Bit("b", i), adder.Bit("g_n", i)}, a.CellArgs)
				oai++
			}
		}
		assert.Equal(t, n, nand)
		assert.Equal(t, n, oai)
	}
}

func TestParse(t *testing.T) {
	for _, op := range []adder.Op{adder.Add, adder.Sub, adder.AddSub, adder.Compare} {
		got, err := adder.ParseOp(op.String())
		require.NoError(t, err)
		assert.Equal(t, op, got)
	}
	_, err := adder.ParseOp("mul")
	assert.ErrorContains(t, err, `unknown operation "mul": allowed add, sub, addsub, compare`)
	f, err := adder.ParseFlags("zero,carry")
	require.NoError(t, err)
	assert.Equal(t, adder.Carry|adder.Zero, f)
	assert.Equal(t, "carry,zero", f.String())
	f, err = adder.ParseFlags("none")
	require.NoError(t, err)
	assert.Zero(t, f)
	assert.Equal(t, "none", f.String())
	_, err = adder.ParseFlags("carry,parity")
	assert.ErrorContains(t, err, `unknown flag "parity": allowed carry, overflow, zero, negative, or none`)
	_, err = adder.ParseFlags("none,zero")
	assert.ErrorContains(t, err, `flags "none,zero": none stands alone: allowed a list of carry, overflow, zero, negative, or none`)
	_, err = adder.ParseFlags("carry, carry")
	assert.ErrorContains(t, err, `flag "carry" given twice in "carry, carry": each flag once`)
}

// The standard adder's description names no options, and every other one
// says what it is in the module name.
func TestSuffix(t *testing.T) {
	assert.Empty(t, adder.Standard.Suffix())
	assert.Equal(t, "flags_none", adder.Architecture{}.Suffix())
	assert.Equal(t, "sub_nocin_flags_cozn_sparse4_pipe2_at0_1", adder.Architecture{Op: adder.Sub, NoCarryIn: true,
		Flags: adder.Carry | adder.Overflow | adder.Zero | adder.Negative, Sparse: 4, PipelineAfter: []int{0, 1}}.Suffix())
	// Two pipelines of two stages at other levels are other circuits.
	assert.Equal(t, "pipe2", adder.Architecture{Flags: adder.Carry, Stages: 2}.Suffix())
	assert.Equal(t, "pipe2_at0_4", adder.Architecture{Flags: adder.Carry, PipelineAfter: []int{0, 4}}.Suffix())
	assert.Equal(t, "compare", adder.Architecture{Op: adder.Compare}.Suffix())
	assert.Equal(t, "pipe1_noreset", adder.Architecture{Flags: adder.Carry, Stages: 1, NoReset: true}.Suffix())
	assert.Equal(t, "sparse2_ling_pgcells_pipe1", adder.Architecture{Flags: adder.Carry, Sparse: 2, Ling: true, PGCells: true, Stages: 1}.Suffix())
}

// The summary says what the module computes; without a carry-in port its
// carry-in is the constant the operation implies: 1 for a − b = a + ~b + 1.
func TestSummary(t *testing.T) {
	ks4 := build(t, "kogge-stone", 4)
	for _, tt := range []struct {
		arch adder.Architecture
		want string
	}{
		{adder.Architecture{Op: adder.Add, NoCarryIn: true, Flags: adder.Carry}, "{cout, sum} = a + b + 0 over 4 bits"},
		{adder.Architecture{Op: adder.Sub, NoCarryIn: true, Flags: adder.Carry}, "{cout, sum} = a + ~b + 1 over 4 bits"},
		{adder.Architecture{Op: adder.Sub, NoCarryIn: true}, "sum = a + ~b + 1 over 4 bits"},
		{adder.Architecture{Op: adder.AddSub, NoCarryIn: true, Flags: adder.Carry}, "{cout, sum} = mode ? a + ~b + mode : a + b + mode over 4 bits"},
		{adder.Architecture{Op: adder.Sub, Flags: adder.Carry}, "{cout, sum} = a + ~b + cin over 4 bits"},
		{adder.Architecture{Op: adder.Compare}, "lt = a < b signed, ltu = a < b unsigned, eq = a == b over 4 bits"},
	} {
		d, err := adder.Describe(ks4, tt.arch, nil)
		require.NoError(t, err)
		assert.Equal(t, []string{tt.want}, d.Summary, "%+v", tt.arch)
	}
}

func ExampleDescribe() {
	net, err := topologies.Build("kogge-stone", 16, nil)
	if err != nil {
		panic(err)
	}
	d, err := adder.Describe(net, adder.Architecture{Op: adder.Sub, Flags: adder.Carry | adder.Overflow, Sparse: 4, Stages: 2}, nil)
	if err != nil {
		panic(err)
	}
	for _, p := range d.Ports {
		fmt.Println(p.Dir, p.Name, p.Width)
	}
	for _, line := range d.Summary {
		fmt.Println(line)
	}
	fmt.Printf("%d cells in %d levels, %d carry-select blocks, %d register stages after levels %v\n",
		d.Cells, d.Depth, d.Groups, d.Latency, d.Architecture.PipelineAfter)
	// Output:
	// in clk 0
	// in rst 0
	// in a 16
	// in b 16
	// in cin 0
	// out sum 16
	// out cout 0
	// out overflow 0
	// {cout, sum} = a + ~b + cin over 16 bits
	// flags: overflow
	// sparse tree: the carries into every 4th bit from the network, 4-bit carry-select blocks
	// pipelined: register stages after levels 1 3, latency 2 cycles
	// 17 cells in 4 levels, 4 carry-select blocks, 2 register stages after levels [1 3]
}

// A valency-k Kogge–Stone or Sklansky adder has ⌈log_k n⌉ levels of cells of
// at most k inputs, made of every binary cell of its network.
func TestValencyStructure(t *testing.T) {
	for _, topo := range topologies.ValencyFamilies {
		for _, n := range []int{2, 3, 8, 9, 16, 27, 64, 65} {
			for k := 2; k <= 4; k++ {
				net, err := topologies.Valency(topo, n, k)
				require.NoError(t, err)
				d, err := adder.Describe(net, adder.Architecture{Flags: adder.Carry, Valency: k}, nil)
				require.NoError(t, err)
				levels := 0
				for span := 1; span < n; span *= k {
					levels++
				}
				assert.Equal(t, levels, d.Depth, "%s n=%d k=%d: ⌈log_k n⌉ levels", topo, n, k)
				assert.Equal(t, net.Size(), d.BinaryCells, "%s n=%d k=%d", topo, n, k)
				for _, sec := range d.Sections {
					for _, a := range sec.Assigns {
						if strings.HasPrefix(a.Target.Name, "G_") {
							assert.LessOrEqual(t, len(a.Expr.Args), k, "%s: a gate of at most %d inputs", a.Target.Name, k)
						}
					}
				}
			}
		}
	}
	// Valency 16 cells of 4 inputs at n = 16: 2 levels, 16·2 − 4 − 1 gates
	// (level 1 every column but 0, level 2 every column from 4 up).
	d, err := adder.Describe(mustValency(t, "kogge-stone", 16, 4), adder.Architecture{Flags: adder.Carry, Valency: 4}, nil)
	require.NoError(t, err)
	assert.Equal(t, 15+12, d.Cells)
	_, err = adder.Describe(build(t, "kogge-stone", 8), adder.Architecture{Valency: 5}, nil)
	assert.ErrorContains(t, err, "valency 5 not allowed: allowed 2, 3, 4")
}

func mustValency(t *testing.T, topo string, n, k int) *network.Network {
	t.Helper()
	net, err := topologies.Valency(topo, n, k)
	require.NoError(t, err)
	return net
}
