package toolcheck

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// libertyCells reads a file once, and again when it changes: the cells of
// the file as it is now, never of a file since replaced.
func TestLibertyCellsCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l.lib")
	write := func(cell string) {
		t.Helper()
		src := "library (l) { cell (" + cell + ") { pin (A) { direction : input; } pin (Y) { direction : output; function : \"!A\"; } } }\n"
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	}
	names := func() []string {
		t.Helper()
		cells, err := libertyCells(path)
		require.NoError(t, err)
		var out []string
		for name := range cells {
			out = append(out, name)
		}
		slices.Sort(out)
		return out
	}
	write("INV")
	assert.Equal(t, []string{"INV"}, names())
	first, err := libertyCells(path)
	require.NoError(t, err)
	again, err := libertyCells(path)
	require.NoError(t, err)
	assert.Equal(t, reflect.ValueOf(first).Pointer(), reflect.ValueOf(again).Pointer(), "read once while the file stays")
	write("INVERTER")
	assert.Equal(t, []string{"INVERTER"}, names(), "a file that changed is read again")
	require.NoError(t, os.Remove(path))
	_, err = libertyCells(path)
	require.Error(t, err)
	assert.Equal(t, "toolcheck: cannot read the Liberty file "+path+": no such file or directory", err.Error())
}

// A GHDL that exits non-zero without saying what is wrong with the file
// (a crash) is a tool failure, not bad input: VHDLToVerilog's error is no
// *InputError.
func TestVHDLToVerilogToolFailure(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "ghdl")
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\necho 'raised CONSTRAINT_ERROR' >&2\nexit 1\n"), 0o755))
	t.Setenv("PATH", dir)
	_, _, err := VHDLToVerilog(t.Context(), []byte("entity e is end;"), nil, "", 0)
	require.Error(t, err)
	_, input := errors.AsType[*InputError](err)
	assert.False(t, input, "%v", err)
	assert.Contains(t, err.Error(), "raised CONSTRAINT_ERROR")
}
