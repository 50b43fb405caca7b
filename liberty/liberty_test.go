package liberty_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/liberty"
)

// tiny is a small library in the shape of the OSU files: quoted
// functions, a two-output cell, a flip-flop whose function names its
// state, a latch, a cell marked dont_use and one without an area.
const tiny = `library (tiny) {
  /* a comment */
  time_unit : "1ns" ;
  capacitive_load_unit (1,pf);
  cell (NAND2X1) { area : 24 ;
    pin (A) { direction : input ; capacitance : 0.0121 ; }
    pin (B) { direction : input ; }
    pin (Y) { direction : output ; function : "(!(A B))" ;
      timing() {
        related_pin : "A";
        cell_rise(delay_template_2x2) {
          index_1 ("0.005, 0.0125");
          index_2 ("0.06, 0.18");
          values ( \
            "0.04, 0.05", \
            "0.06, 0.07");
        }
      }
    }
  }
  cell (HAX1) { area : 80 ; pin (A) { direction : input ; } pin (B) { direction : input ; }
    pin (YC) { direction : output ; function : "(A B)" ; }
    pin (YS) { direction : output ; function : "(A^B)" ; } }
  cell (DFFPOSX1) { area : 96 ; ff (DS0000, P0002) { next_state : "D" ; clocked_on : "CLK" ; }
    pin (D) { direction : input ; } pin (CLK) { direction : input ; }
    pin (Q) { direction : output ; function : "DS0000" ; } }
  cell (LATCH) { area : 64 ; latch (DS0000,P0000) { data_in : "D" ; enable : "CLK" ; }
    pin (CLK) { direction : input ; } pin (D) { direction : input ; }
    pin (Q) { direction : output ; function : "DS0000" ; } }
  cell (DONT) { area : 1 ; dont_use : true ; pin (A) { direction : input ; }
    pin (Y) { direction : output ; function : "A'" ; } }
  cell (NOAREA) { pin (A) { direction : input ; } pin (Y) { direction : output ; function : "((((" ; } }
  cell (BIG) { area : 1e400 ; pin (Y) { direction : output
    } }
}
`

// TestParse reads groups, simple and complex attributes, through
// comments, line continuations and a missing semicolon.
func TestParse(t *testing.T) {
	root := liberty.Parse([]byte(tiny))
	require.Len(t, root.Groups, 1)
	lib := root.Groups[0]
	assert.Equal(t, "library", lib.Kind)
	assert.Equal(t, []string{"tiny"}, lib.Args)
	assert.Equal(t, "1ns", lib.Attrs["time_unit"])
	assert.Equal(t, []string{"1", "pf"}, lib.Values("capacitive_load_unit"))
	assert.Nil(t, lib.Values("none"))

	var names []string
	for c := range root.Find("cell") {
		names = append(names, c.Args[0])
	}
	assert.Equal(t, []string{"NAND2X1", "HAX1", "DFFPOSX1", "LATCH", "DONT", "NOAREA", "BIG"}, names)

	nand := lib.Groups[0]
	var tables []*liberty.Group
	for g := range nand.Find("cell_rise") {
		tables = append(tables, g)
	}
	require.Len(t, tables, 1)
	assert.Equal(t, []string{"delay_template_2x2"}, tables[0].Args)
	assert.Equal(t, []string{"0.005, 0.0125"}, tables[0].Values("index_1"))
	assert.Equal(t, []string{"0.06, 0.18"}, tables[0].Values("index_2"))
	assert.Equal(t, []string{"0.04, 0.05", "0.06, 0.07"}, tables[0].Values("values"))
	pin := nand.Groups[0]
	assert.Equal(t, "pin", pin.Kind)
	assert.Equal(t, "0.0121", pin.Attrs["capacitance"])

	big := lib.Groups[len(lib.Groups)-1]
	require.Len(t, big.Groups, 1)
	assert.Equal(t, "output", big.Groups[0].Attrs["direction"], "an attribute ended by its line, not a semicolon")

	stop := 0
	for range root.Find("pin") {
		stop++
		break
	}
	assert.Equal(t, 1, stop, "Find stops when asked")
}

func TestCells(t *testing.T) {
	cells := liberty.Cells([]byte(tiny))
	assert.Len(t, cells, 7)
	nand := cells["NAND2X1"]
	assert.Equal(t, 24.0, nand.Area)
	assert.True(t, nand.HasArea)
	assert.Equal(t, []string{"A", "B"}, nand.Inputs)
	assert.True(t, nand.IsOutput("Y"))
	assert.False(t, nand.IsOutput("A"))
	assert.NotNil(t, nand.Outputs["Y"])
	assert.Empty(t, nand.Clock)

	assert.Len(t, cells["HAX1"].Outputs, 2)
	ff := cells["DFFPOSX1"]
	assert.Equal(t, "CLK", ff.Clock)
	assert.Equal(t, "CLK", ff.ClockPin())
	assert.Equal(t, "!CLK", liberty.Cell{Clock: "(!CLK)"}.ClockPin())
	assert.True(t, cells["LATCH"].Latch)
	assert.True(t, cells["DONT"].DontUse)
	noArea := cells["NOAREA"]
	assert.False(t, noArea.HasArea)
	assert.Contains(t, noArea.Outputs, "Y")
	assert.Nil(t, noArea.Outputs["Y"], "a function that does not parse is none")
	assert.False(t, cells["BIG"].HasArea, "an area past float64 is none")

	assert.Empty(t, liberty.Cells([]byte("not a library")))
}

// TestParseLoose reads what files write loosely: an attribute or a complex
// attribute ended by its group's closing brace rather than a semicolon,
// and a stray closing brace before the library. The brace still closes
// its group, so the next cell is a cell of the library, not one inside.
func TestParseLoose(t *testing.T) {
	for _, src := range []string{
		"library (l) { cell (A) { area : 1 } cell (B) { area : 2 ; } }",
		"library (l) { cell (A) { area : 1 ; foo (1) } cell (B) { area : 2 ; } }",
		"} library (l) { cell (A) { area : 1 ; } cell (B) { area : 2 ; } }",
	} {
		lib := liberty.Parse([]byte(src)).Groups
		require.Len(t, lib, 1, src)
		var kinds []string
		for _, g := range lib[0].Groups {
			kinds = append(kinds, g.Kind+" "+g.Args[0])
		}
		assert.Equal(t, []string{"cell A", "cell B"}, kinds, src)
		cells := liberty.Cells([]byte(src))
		assert.Equal(t, 1.0, cells["A"].Area, src)
		assert.Equal(t, 2.0, cells["B"].Area, src)
	}
}

// TestCellsShapes pins two cells TestCells' library lacks: an area of 0
// (a tap or filler cell's) is an area, and a bank of flip-flops (ff_bank)
// gives its clock and next state as one flip-flop's ff group does.
func TestCellsShapes(t *testing.T) {
	tap := liberty.Cells([]byte("library (l) { cell (TAP) { area : 0 ; } }"))["TAP"]
	assert.Equal(t, liberty.Cell{Area: 0, HasArea: true, Outputs: map[string]*liberty.Function{}}, tap)
	bank := liberty.Cells([]byte(`library (l) { cell (DFF4) { area : 4 ; ff_bank (IQ, IQN, 4) { clocked_on : "CLK" ; next_state : "D" ; } } }`))["DFF4"]
	assert.Equal(t, "CLK", bank.Clock)
	assert.Equal(t, "D", bank.NextState)
}

// TestCellsOSU018 reads the OSU 0.18 µm cells, when the library is
// installed: every combinational cell has an area and a function.
func TestCellsOSU018(t *testing.T) {
	const path = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
	tooltest.File(t, path, "qflow-tech-osu018")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	cells := liberty.Cells(src)
	for _, name := range []string{"AND2X1", "AOI21X1", "INVX1", "NAND2X1", "NOR2X1", "OAI21X1", "XNOR2X1", "XOR2X1", "MUX2X1", "FAX1", "HAX1"} {
		c, ok := cells[name]
		require.True(t, ok, name)
		assert.Positive(t, c.Area, name)
		assert.NotEmpty(t, c.Outputs, name)
		for pin, f := range c.Outputs {
			assert.NotNil(t, f, "%s.%s has a function", name, pin)
		}
	}
	var tt truth
	_, ok := liberty.Eval(cells["DFFPOSX1"].Outputs["Q"], tt, map[string]uint8{"D": a, "CLK": b})
	assert.False(t, ok, "a flip-flop's state is no function of its pins")
	assert.Equal(t, "CLK", cells["DFFPOSX1"].Clock)
	assert.Equal(t, "(!CLK)", cells["DFFNEGX1"].Clock)
}

// truth is the algebra of truth tables over three pins: bit k of a value
// is its value where A = k&1, B = k>>1&1, C = k>>2&1.
type truth struct{ full bool }

const a, b, c uint8 = 0b10101010, 0b11001100, 0b11110000

func (truth) Const(v bool) uint8 {
	if v {
		return 0xff
	}
	return 0
}
func (truth) Not(x uint8) uint8    { return ^x }
func (truth) And(x, y uint8) uint8 { return x & y }
func (truth) Or(x, y uint8) uint8  { return x | y }
func (truth) Xor(x, y uint8) uint8 { return x ^ y }
func (t truth) Full() bool         { return t.full }

// bits writes a truth table as character k for bit k.
func bits(v uint8) string {
	s := ""
	for k := range 8 {
		s += string(rune('0' + v>>k&1))
	}
	return s
}

func TestParseFunction(t *testing.T) {
	tests := []struct {
		in   string
		want string // truth table over A, B, C: character k is the value at A = k&1, B = k>>1&1, C = k>>2&1
	}{
		{"A", "01010101"},
		{"(A B)", "00010001"},
		{"A&B", "00010001"},
		{"A*B", "00010001"},
		{"(A+B)", "01110111"},
		{"A|B", "01110111"},
		{"(A^B)", "01100110"},
		{"!A", "10101010"},
		{"A'", "10101010"},
		{"(!((A B)+C))", "11100000"},
		{"(!((A+B) C))", "11111000"},
		{"A B + C", "00011111"},
		{"A ^ B C", "00000110"}, // ^ binds tighter than and: (A^B) C
		{"A+B^C", "01111101"},
		{"1", "11111111"},
		{"0", "00000000"},
		{"!(A B)'", "00010001"},
		{"A''", "01010101"}, // each ' inverts: twice is A
	}
	env := map[string]uint8{"A": a, "B": b, "C": c}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			f, err := liberty.ParseFunction(tt.in)
			require.NoError(t, err)
			v, ok := liberty.Eval(f, truth{}, env)
			require.True(t, ok)
			assert.Equal(t, tt.want, bits(v))
		})
	}
	f, err := liberty.ParseFunction("(!((S A) + (!S B)))")
	require.NoError(t, err)
	_, ok := liberty.Eval(f, truth{}, env)
	assert.False(t, ok, "a name no pin has")
	for _, bad := range []string{"", "(A", "A)", "A + ", "!", "A $ B", "DS0000 +"} {
		_, err := liberty.ParseFunction(bad)
		require.Error(t, err, "%q", bad)
		assert.Regexp(t, `^liberty: function ".*": `, err.Error())
	}
}

// Groups nested past MaxGroupDepth are skipped whole, their braces
// matched: what follows them is read, and a file of 200 000 nested
// groups is no walk 200 000 deep.
func TestParseGroupDepth(t *testing.T) {
	for _, k := range []int{liberty.MaxGroupDepth, liberty.MaxGroupDepth + 1, 200_000} {
		deep := strings.Repeat("g (x) { a : 1 ; ", k) + strings.Repeat("} ", k)
		src := "library (l) { " + deep + " cell (INV) { area : 2 ; pin (Y) { direction : output ; function : \"!A\" ; } } }\n"
		cells := liberty.Parse([]byte(src)).Cells()
		require.Contains(t, cells, "INV", "depth %d", k)
		assert.Equal(t, 2.0, cells["INV"].Area, "depth %d", k)
		depth, g := 0, liberty.Parse([]byte(src))
		for len(g.Groups) > 0 {
			g, depth = g.Groups[0], depth+1
		}
		assert.LessOrEqual(t, depth, liberty.MaxGroupDepth+1, "depth %d", k)
	}
}

// A function nested past MaxFunctionDepth is refused in a short line: a
// file of millions of parentheses had overflowed Go's stack, which no
// recover catches.
func TestParseFunctionDepth(t *testing.T) {
	nest := func(k int, open string) string {
		return strings.Repeat(open, k) + "A" + strings.Repeat(")", strings.Count(open, "(")*k)
	}
	for _, open := range []string{"(", "!", "(!"} {
		f, err := liberty.ParseFunction(nest(liberty.MaxFunctionDepth/len(open), open))
		require.NoError(t, err, open)
		_, ok := liberty.Eval(f, truth{}, map[string]uint8{"A": a})
		assert.True(t, ok, open)
		for _, k := range []int{liberty.MaxFunctionDepth + 1, 3_000_000} {
			_, err = liberty.ParseFunction(nest(k, open))
			require.Error(t, err, "%q × %d", open, k)
			assert.Contains(t, err.Error(), fmt.Sprintf("nested deeper than %d parentheses and !", liberty.MaxFunctionDepth))
			assert.Less(t, len(err.Error()), 200, "the function quoted cut short")
		}
	}
	// Inversions side by side are no nesting: each ! closes once its operand is read.
	f, err := liberty.ParseFunction(strings.Repeat("!A ", liberty.MaxFunctionDepth+1))
	require.NoError(t, err)
	v, ok := liberty.Eval(f, truth{}, map[string]uint8{"A": a})
	require.True(t, ok)
	assert.Equal(t, bits(^a), bits(v))
}

// An algebra grown full stops the evaluation at the next operand.
func TestEvalFull(t *testing.T) {
	f, err := liberty.ParseFunction("A B")
	require.NoError(t, err)
	_, ok := liberty.Eval(f, truth{full: true}, map[string]uint8{"A": a, "B": b})
	assert.False(t, ok)
	g, err := liberty.ParseFunction("!A")
	require.NoError(t, err)
	_, ok = liberty.Eval(g, truth{full: true}, map[string]uint8{"A": a})
	assert.True(t, ok, "one operand: nothing to stop before")
}

// FuzzParseFunction: any text parses or is refused with an error, and what
// parses evaluates without a panic.
func FuzzParseFunction(f *testing.F) {
	for _, s := range []string{"(!((A B)+C))", "A'^B", "((S A) + (!S B))", "(", "A B C D"} {
		f.Add(s)
	}
	env := map[string]uint8{"A": a, "B": b, "S": c}
	f.Fuzz(func(t *testing.T, s string) {
		fn, err := liberty.ParseFunction(s)
		if err != nil {
			require.True(t, strings.HasPrefix(err.Error(), "liberty: function "), err.Error())
			require.NotContains(t, err.Error(), "\n")
			return
		}
		v, ok := liberty.Eval(fn, truth{}, env)
		// Parenthesized, and inverted twice, it is the same function.
		for _, wrapped := range []string{"(" + s + ")", "!(!(" + s + "))"} {
			g, err := liberty.ParseFunction(wrapped)
			if err != nil {
				// Only one more level than s may have.
				require.Contains(t, err.Error(), "nested deeper than", wrapped)
				continue
			}
			w, wok := liberty.Eval(g, truth{}, env)
			require.Equal(t, ok, wok, wrapped)
			if ok {
				require.Equal(t, bits(v), bits(w), "%q against %q", s, wrapped)
			}
		}
	})
}

// FuzzCells: any text gives cells, never a panic, and every area read is
// a finite number of 0 or more.
func FuzzCells(f *testing.F) {
	f.Add(tiny)
	f.Add(`cell (X) { area : 1e400 ; pin (Y) { direction : output ; function : "((((" } }`)
	f.Add("library (x) { cell (\"")
	f.Fuzz(func(t *testing.T, src string) {
		for name, c := range liberty.Cells([]byte(src)) {
			if c.HasArea {
				require.GreaterOrEqual(t, c.Area, 0.0, name)
			}
		}
	})
}
