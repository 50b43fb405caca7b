package emit_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/liberty"
)

// A cell's model drives each output by its Liberty function; a cell the
// library lacks, or an output whose function it does not state, is
// refused.
func TestVHDLCellModels(t *testing.T) {
	cells := liberty.Cells([]byte(`library (l) {
  cell (sky130_fd_sc_hd__nand2_1) {
    pin (A) { direction : input; }
    pin (B) { direction : input; }
    pin (Y) { direction : output; function : "!(A&B)"; }
  }
  cell (FAx1) {
    pin (A) { direction : input; }
    pin (B) { direction : input; }
    pin (CI) { direction : input; }
    pin (CON) { direction : output; function : "(!A * !B) + (!A * !CI) + (!B * !CI)"; }
    pin (SN) { direction : output; function : "!(A ^ B ^ CI)"; }
  }
  cell (DFF) {
    pin (D) { direction : input; }
    pin (CK) { direction : input; clock : true; }
    pin (Q) { direction : output; function : "IQ"; }
  }
}`))
	var b bytes.Buffer
	require.NoError(t, emit.VHDLCellModels(&b, cells, []string{"sky130_fd_sc_hd__nand2_1", "FAx1"}))
	got := b.String()
	assert.Contains(t, got, "entity \\sky130_fd_sc_hd__nand2_1\\ is\n    port (\n        A : in std_logic := '0';\n        B : in std_logic := '0';\n        Y : out std_logic\n    );\n")
	assert.Contains(t, got, "    Y <= (not (A and B));\n")
	assert.Contains(t, got, "    CON <= ((((not A) and (not B)) or ((not A) and (not CI))) or ((not B) and (not CI)));\n")
	assert.Contains(t, got, "    SN <= (not ((A xor B) xor CI));\n")
	assert.Contains(t, got, "end architecture model;\n")

	err := emit.VHDLCellModels(&b, cells, []string{"NAND3"})
	require.Error(t, err)
	assert.Equal(t, `emit: no cell "NAND3" in the library: allowed a cell the library has`, err.Error())
	err = emit.VHDLCellModels(&b, cells, []string{"DFF"})
	require.Error(t, err)
	assert.Equal(t, "emit: cell DFF: output Q reads a pin that is not an input: allowed cells of combinational functions and flip-flops", err.Error())
}

// A flip-flop's model loads its state at its clock's edge and sets it at
// once under its clear and preset, both active as its clear_preset_vars
// say; its outputs read the state. A latch, a clock that is no input pin
// and a state without its two names are refused.
func TestVHDLCellModelsFlipFlops(t *testing.T) {
	cells := liberty.Cells([]byte(`library (l) {
  cell (DFFR) {
    ff (IQ, IQN) { clocked_on : "CK"; next_state : "D"; clear : "!RN"; }
    pin (D) { direction : input; }
    pin (CK) { direction : input; clock : true; }
    pin (RN) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; }
    pin (QN) { direction : output; function : "IQN"; }
  }
  cell (SDFFNRS) {
    ff (IQ, IQN) { clocked_on : "(!CK)"; next_state : "(SE SI)+(!SE D)"; clear : "!RN"; preset : "!SN"; clear_preset_var1 : L; clear_preset_var2 : H; }
    pin (D) { direction : input; }
    pin (SI) { direction : input; }
    pin (SE) { direction : input; }
    pin (CK) { direction : input; clock : true; }
    pin (RN) { direction : input; }
    pin (SN) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; }
  }
  cell (LAT) {
    latch (IQ, IQN) { enable : "G"; data_in : "D"; }
    pin (D) { direction : input; }
    pin (G) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; }
  }
  cell (BADCK) {
    ff (IQ, IQN) { clocked_on : "CLK"; next_state : "D"; }
    pin (D) { direction : input; }
    pin (CK) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; }
  }
  cell (ONENAME) {
    ff (IQ) { clocked_on : "CK"; next_state : "D"; }
    pin (D) { direction : input; }
    pin (CK) { direction : input; }
    pin (Q) { direction : output; function : "IQ"; }
  }
}`))
	var b bytes.Buffer
	require.NoError(t, emit.VHDLCellModels(&b, cells, []string{"DFFR", "SDFFNRS"}))
	got := b.String()
	for _, want := range []string{
		"architecture model of DFFR is\n    signal state_q, state_qn : std_logic;\nbegin\n" +
			"    process (D, CK, RN)\n    begin\n" +
			"        if (not RN) = '1' then state_q <= '0'; state_qn <= '1';\n" +
			"        elsif rising_edge(CK) then state_q <= D; state_qn <= not (D);\n" +
			"        end if;\n    end process;\n" +
			"    Q <= state_q;\n    QN <= state_qn;\nend architecture model;\n",
		"        if (not RN) = '1' and (not SN) = '1' then state_q <= '0'; state_qn <= '1';\n" +
			"        elsif (not RN) = '1' then state_q <= '0'; state_qn <= '1';\n" +
			"        elsif (not SN) = '1' then state_q <= '1'; state_qn <= '0';\n" +
			"        elsif falling_edge(CK) then state_q <= ((SE and SI) or ((not SE) and D)); state_qn <= not (((SE and SI) or ((not SE) and D)));\n",
	} {
		assert.Contains(t, got, want)
	}
	for name, want := range map[string]string{
		"LAT":     "emit: cell LAT: a latch: allowed cells of combinational functions and flip-flops of one clock pin",
		"BADCK":   `emit: cell BADCK: clocked_on "CLK" is not an input pin: allowed cells of combinational functions and flip-flops of one clock pin`,
		"ONENAME": "emit: cell ONENAME: a flip-flop without its state's two names: allowed cells of combinational functions and flip-flops of one clock pin",
	} {
		err := emit.VHDLCellModels(&b, cells, []string{name})
		require.Error(t, err, name)
		assert.Equal(t, want, err.Error())
	}
}

// FuzzVHDLName feeds VHDLName the names a Liberty file may hold: each is
// refused, kept as a basic identifier (CheckEntityName's rules but for the
// adder's own names), or written as an extended identifier that reads
// back as the name.
func FuzzVHDLName(f *testing.F) {
	for _, s := range []string{"NAND2_X1", "sky130_fd_sc_hd__nand2_1", "out", `a\b`, "", "a\tb", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, err := emit.VHDLName(name)
		if err != nil {
			return
		}
		if got == name {
			require.NotContains(t, name, `\`)
			return
		}
		require.True(t, len(got) >= 3 && got[0] == '\\' && got[len(got)-1] == '\\', "%q", got)
		inner := got[1 : len(got)-1]
		assert.Equal(t, name, strings.ReplaceAll(inner, `\\`, `\`))
		assert.NotContains(t, strings.ReplaceAll(inner, `\\`, ""), `\`, "a lone backslash ends the identifier")
	})
}

// FuzzTopEntity feeds TopEntity what a user's VHDL file may hold: it
// returns one of the entities EntityNames finds, in lower case, or a
// one-line error.
func FuzzTopEntity(f *testing.F) {
	f.Add([]byte("entity a is end;"), "")
	f.Add([]byte("entity a is end; entity B is end;"), "b")
	f.Add([]byte("-- entity x is\nentity y is end;"), "x")
	f.Fuzz(func(t *testing.T, src []byte, top string) {
		got, err := emit.TopEntity(src, top)
		if err != nil {
			assert.NotContains(t, err.Error(), "\n")
			return
		}
		assert.Contains(t, emit.EntityNames(src), got)
		assert.Equal(t, strings.ToLower(got), got)
	})
}

// FuzzVHDLCellModels feeds VHDLCellModels the cells of any Liberty text: it
// writes an entity for every cell asked for, or refuses in one line.
func FuzzVHDLCellModels(f *testing.F) {
	f.Add([]byte(`library (l) { cell (NAND2) { pin (A) { direction : input; } pin (B) { direction : input; } pin (Y) { direction : output; function : "!(A B)"; } } }`))
	f.Add([]byte(`library (l) { cell (X) { pin (Q) { direction : output; function : "IQ"; } } }`))
	f.Add([]byte(`library (l) { cell (F) { ff (IQ, IQN) { clocked_on : "(!CK)"; next_state : "D"; clear : "!R"; preset : "S"; clear_preset_var1 : H; } pin (D) { direction : input; } pin (CK) { direction : input; } pin (R) { direction : input; } pin (S) { direction : input; } pin (state_q) { direction : input; } pin (Q) { direction : output; function : "IQN"; } } }`))
	f.Add([]byte(`library (l) { cell (c__d) { pin (in) { direction : input; } pin (out) { direction : output; function : "in'"; } } }`))
	f.Fuzz(func(t *testing.T, src []byte) {
		cells := liberty.Cells(src)
		names := make([]string, 0, len(cells))
		for name := range cells {
			names = append(names, name)
		}
		slices.Sort(names)
		var b bytes.Buffer
		if err := emit.VHDLCellModels(&b, cells, names); err != nil {
			assert.NotContains(t, err.Error(), "\n")
			return
		}
		assert.Equal(t, len(names), strings.Count(b.String(), "\nentity "))
	})
}

// The names of a user's file as Yosys and GHDL read them: a module after
// an attribute, an entity not in a VHDL-2008 block comment; a --top too
// long is echoed cut.
func TestDesignNames(t *testing.T) {
	assert.Equal(t, []string{"attr"}, emit.ModuleNames([]byte("(* keep_hierarchy *)module attr(input a, output y);\n  assign y = a;\nendmodule\n")))
	assert.Equal(t, []string{"add"}, emit.ModuleNames([]byte("module add(input a, output y); always @(*) begin end\nendmodule\n")))
	assert.Equal(t, []string{"vadd"}, emit.EntityNames([]byte("/* entity vadd_old is end entity;\n*/\nentity vadd is end entity;\n")))
	long := strings.Repeat("a", 82)
	_, err := emit.TopModule([]byte("module add; endmodule\n"), long)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), long)
	assert.Contains(t, err.Error(), strings.Repeat("a", 40)+"…")
	_, err = emit.TopModule([]byte("module add; endmodule\n"), "a-b"+long)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), long)
	_, err = emit.TopEntity([]byte("entity e is end;\n"), "a-b"+long)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), long)

	// Many modules are listed ten at a time, each name cut: a file of
	// 5 000 modules had every name in the one line.
	var many strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&many, "module m%04d_%s; endmodule\n", i, long)
	}
	_, err = emit.TopModule([]byte(many.String()), "")
	require.Error(t, err)
	msg := err.Error()
	require.Less(t, len(msg), 700, "%.200s…", msg)
	assert.Regexp(t, `^the Verilog declares 5000 modules \(m0000_a{34}…, .* and 4990 more\): allowed a top module named`, msg)
	_, err = emit.TopModule([]byte(many.String()), "top")
	require.Error(t, err)
	msg = err.Error()
	require.Less(t, len(msg), 700, "%.200s…", msg)
	assert.Contains(t, msg, " and 4990 more")

	// A file that starts with a byte-order mark is read by Yosys as no
	// Verilog at all: it is named as the obstacle, not its modules.
	_, err = emit.TopModule([]byte("\xef\xbb\xbfmodule add; endmodule\n"), "add")
	assert.EqualError(t, err, "the Verilog starts with a UTF-8 byte-order mark (EF BB BF), which Yosys reads as no Verilog at all: allowed the file saved as UTF-8 without one")
}
