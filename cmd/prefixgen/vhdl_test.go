package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/golden"
)

func TestGenVHDLGolden(t *testing.T) {
	tests := []struct {
		file string
		args []string
	}{
		{"gen-hc-8.vhd", []string{"gen", "-t", "han-carlson", "-n", "8", "-f", "vhdl"}},
		{"gen-hc-8_tb.vhd", []string{"gen", "-t", "han-carlson", "-n", "8", "-f", "vhdl", "--testbench", "--vectors", "50", "--seed", "9"}},
		{"gen-ks-4-entity.vhd", []string{"gen", "-t", "kogge-stone", "-n", "4", "-f", "vhdl", "--module", "Ks4_Adder"}},
		{"gen-sk-8-addsub-pipe.vhd", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "vhdl", "--op", "addsub", "--flags", "carry,zero", "--sparse", "2", "--stages", "2"}},
		{"gen-sk-8-sparse2_tb.vhd", []string{"gen", "-t", "sklansky", "-n", "8", "-f", "vhdl", "--sparse", "2", "--testbench", "--vectors", "10"}},
		{"gen-ks-4-pipe-noreset.vhd", []string{"gen", "-t", "kogge-stone", "-n", "4", "-f", "vhdl", "--stages", "2", "--no-reset"}},
		{"gen-ks-4-pipe-noreset_tb.vhd", []string{"gen", "-t", "kogge-stone", "-n", "4", "-f", "vhdl", "--testbench", "--stages", "2", "--no-reset", "--vectors", "10"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			status, out, errOut := prefixgen(tt.args...)
			require.Equal(t, 0, status, errOut)
			assert.Empty(t, errOut)
			golden.Check(t, filepath.Join("testdata", tt.file), []byte(out))
			_, again, _ := prefixgen(tt.args...)
			assert.Equal(t, out, again, "the same command prints the same bytes")
		})
	}
}

// The VHDL testbench covers every operation and flag, as the Verilog one.
func TestGenVHDLTestbenchSub(t *testing.T) {
	status, out, errOut := prefixgen("gen", "-t", "sklansky", "-n", "8", "-f", "vhdl", "--testbench", "--op", "sub", "--flags", "carry,overflow")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "-- check applies the inputs and compares sum & cout & overflow, in port order,\n        -- with a + ~b + cin, overflow.\n")
	assert.Contains(t, out, "dut : entity work.prefix_adder_sklansky_8_sub_flags_co port map (a => a, b => b, cin => cin, sum => sum, cout => cout, overflow => overflow);")
}

func TestGenVHDLBadInput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "adder.vhd")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"reserved entity", []string{"--module", "Process"},
			`prefixgen gen: entity name "Process" is not a legal VHDL identifier: it is a VHDL reserved word`},
		{"double underscore", []string{"--module", "my__adder"},
			`prefixgen gen: entity name "my__adder" is not a legal VHDL identifier: two underscores in a row; allowed: a letter, then letters, digits and single underscores`},
		{"port name", []string{"--module", "Cout", "--testbench"},
			`prefixgen gen: entity name "Cout" is not a legal VHDL identifier: the testbench declares "cout" inside (VHDL ignores case)`},
		{"seed too large", []string{"--testbench", "--seed", "4294967296"},
			"prefixgen gen: --seed 4294967296 out of range for a testbench: allowed 0 to 4294967295"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"gen", "-t", "sklansky", "-n", "8", "-f", "vhdl", "-o", out}, tt.args...)
			status, stdout, stderr := prefixgen(args...)
			assert.Equal(t, 2, status)
			assert.Empty(t, stdout)
			assert.Equal(t, tt.want+"\n", stderr)
		})
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "refused input leaves no file")
}
