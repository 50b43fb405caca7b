package physical_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/physical"
)

// TestModel checks the delay model's library per library: OSU 0.18 µm
// keeps the constants package delay documents; the carried libraries are
// measured from their own cells, ASAP7's sizes its platform forbids left
// out; a library the model cannot stand on is bad input.
func TestModel(t *testing.T) {
	osu, err := physical.Model("", nil)
	require.NoError(t, err)
	assert.Same(t, &delay.OSU018, osu)
	osu, err = physical.Model("osu018", nil)
	require.NoError(t, err)
	assert.Same(t, &delay.OSU018, osu)

	sky, err := physical.Model("sky130hd", nil)
	require.NoError(t, err)
	assert.Equal(t, "sky130hd", sky.Name)
	assert.Equal(t, "sky130_fd_sc_hd__a21oi_1", sky.CellG.Name)
	again, err := physical.Model("sky130hd", nil)
	require.NoError(t, err)
	assert.Same(t, sky, again, "measured once per process")

	asap7, err := physical.Model("asap7", nil)
	require.NoError(t, err)
	assert.Equal(t, "NAND2x1_ASAP7_75t_R", asap7.CellP.Name, "the xp sizes are not to be used")
	noAOI, err := physical.Model("asap7", []string{"AOI21*"})
	require.Nil(t, noAOI)
	assert.EqualError(t, err, "physical: the delay model cannot stand on library asap7: the library has no usable AOI21 cell: the model needs an inverter, NAND2, XOR2 or XNOR2, and AOI21")
	assert.True(t, physical.IsSetup(err))
}
