package physical_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got))
}

// results are two made-up results, as Run returns them.
func results() []*physical.Result {
	common := physical.Result{Width: 64, Liberty: "/usr/share/qflow/tech/osu018/osu018_stdcells.lib", Flow: physical.Keep,
		OutputLoadPF: 0.01, YosysVersion: "Yosys 0.23 (git sha1 7ce5011c24b)", STAVersion: "2.0.17"}
	a, b := common, common
	a.Topology, a.Params = "ladner-fischer", network.Params{"k": 1}
	a.AreaUM2, a.DelayNS, a.StdCells, a.CriticalFrom, a.CriticalTo = 17861, 1.9487, 544, "b[0]", "sum[34]"
	a.Cells = map[string]int{"NAND2X1": 500, "INVX1": 44}
	b.Topology, b.Params = physical.Reference, network.Params{}
	b.AreaUM2, b.DelayNS, b.StdCells, b.CriticalFrom, b.CriticalTo = 13823, 2.3324, 398, "a[0]", "sum[63]"
	return []*physical.Result{&a, &b}
}

func TestWriters(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(*bytes.Buffer, []*physical.Result) error
	}{
		{"results.txt", func(w *bytes.Buffer, r []*physical.Result) error { return physical.Table(w, r) }},
		{"results.csv", func(w *bytes.Buffer, r []*physical.Result) error { return physical.CSV(w, r) }},
		{"results.json", func(w *bytes.Buffer, r []*physical.Result) error { return physical.JSON(w, r) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, tc.write(&buf, results()))
			golden(t, tc.name, buf.Bytes())
		})
	}
}
