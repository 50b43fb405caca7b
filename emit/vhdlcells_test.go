package emit_test

import (
	"bytes"
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
	assert.Equal(t, "emit: cell DFF: output Q reads a pin that is not an input: allowed cells of combinational functions", err.Error())
}
