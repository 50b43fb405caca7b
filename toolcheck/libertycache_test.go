package toolcheck

import (
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
