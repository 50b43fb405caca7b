package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/golden"
)

func TestGenLCUWidths(t *testing.T) {
	args := []string{"gen", "-t", "ladner-fischer", "--param", "k=1", "-f", "yosys-lcu", "--widths", "4,2-3"}
	status, out, errOut := prefixgen(args...)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, errOut)
	golden.Check(t, filepath.Join("testdata", "gen-lf1-2-4-lcu.v"), []byte(out))
	_, again, _ := prefixgen(args...)
	assert.Equal(t, out, again, "the same command prints the same bytes")

	status, out, errOut = prefixgen("gen", "-t", "sklansky", "-f", "yosys-lcu", "--widths", "8,16", "--valency", "4")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "module _80_prefixgen_lcu_sklansky_v4 (P, G, CI, CO);")
	assert.Contains(t, out, "        16: begin : w16\n")

	// A family whose default parameters depend on the width builds each
	// width at its own: zero-deficiency at its least depth, carry-select
	// at its least-depth first segment. It had been refused, exit 1, as
	// two topologies.
	for _, c := range []struct{ topo, widths, module, branch string }{
		{"zero-deficiency", "8,16", "_80_prefixgen_lcu_zero_deficiency", "// width 16, d=5: depth 5,"},
		{"carry-select", "4-6", "_80_prefixgen_lcu_carry_select", "// width 6, g=1 l=3: depth 3,"},
	} {
		status, out, errOut = prefixgen("gen", "-t", c.topo, "-f", "yosys-lcu", "--widths", c.widths)
		require.Equal(t, 0, status, errOut)
		assert.Contains(t, out, "module "+c.module+" (P, G, CI, CO);", c.topo)
		assert.Contains(t, out, "// parameters: each width's own, named in its case", c.topo)
		assert.Contains(t, out, c.branch, c.topo)
	}
}

func TestGenLCUWidthsBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "lcu.v")
	allowed := "; allowed: widths and ranges lo-hi from 1 to 1024, comma-separated, as 8,16,32-64"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"empty", []string{"--widths", ""}, "prefixgen gen: --widths is empty: allowed a value, or leave the flag out for its default (see prefixgen gen --help)"},
		{"blank", []string{"--widths", " "}, `prefixgen gen: widths " ": empty` + allowed},
		{"zero", []string{"--widths", "0,8"}, `prefixgen gen: widths "0,8": 0 is out of range` + allowed},
		{"reversed", []string{"--widths", "64-32"}, `prefixgen gen: widths "64-32": range 64-32 is reversed` + allowed},
		{"too wide", []string{"--widths", "1-1025"}, `prefixgen gen: widths "1-1025": 1025 is out of range` + allowed},
		{"twice", []string{"--widths", "8,8"}, `prefixgen gen: widths "8,8": 8 is given twice` + allowed},
		{"with -n", []string{"--widths", "8", "-n", "8"}, "prefixgen gen: -n and --widths both given: use one"},
		{"with verilog", []string{"--widths", "8", "-f", "verilog"}, `prefixgen gen: --widths applies to -f yosys-lcu only, not "verilog"`},
		{"bad module", []string{"--widths", "8", "--module", "wire"},
			`prefixgen gen: module name "wire" is not a legal Verilog identifier: it is a Verilog or SystemVerilog keyword`},
		{"bad param", []string{"--widths", "8", "--param", "k=9"}, "prefixgen gen: "},
		{"valency of sklansky only", []string{"--widths", "8", "--valency", "3", "-t", "brent-kung"},
			"prefixgen gen: --valency 3: brent-kung has no higher-valency form; allowed for kogge-stone, sklansky"},
		{"one width too wide", []string{"-n", "1025"}, "prefixgen gen: width 1025 too wide for a $lcu techmap: allowed 1 to 1024"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := withFlags([]string{"gen", "-t", "sklansky", "-f", "yosys-lcu", "-o", out}, tt.args...)
			status, stdout, stderr := prefixgen(args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, stdout)
			if tt.name == "bad param" {
				assert.Regexp(t, `^prefixgen gen: .*k.*\n$`, stderr)
			} else {
				assert.Equal(t, tt.want+"\n", stderr)
			}
		})
	}
	status, _, stderr := prefixgen("gen", "--from", "testdata/none.json", "-f", "yosys-lcu", "--widths", "8")
	assert.Equal(t, 2, status)
	assert.Equal(t, "prefixgen gen: --widths does not apply to --from: the file fixes one width\n", stderr)
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "refused input leaves no file")
}
