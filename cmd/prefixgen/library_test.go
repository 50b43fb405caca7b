package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/physical"
)

// smallLib is a library of the cells every design maps onto, in time
// unit unit: two NAND2s, and no OAI21.
func smallLib(name, unit string) string {
	return "library (" + name + ") {\n  time_unit : \"" + unit + "\" ;\n  capacitive_load_unit (1,pf) ;\n" +
		`  cell (INV) { area : 1 ; pin (A) { direction : input ; } pin (Y) { direction : output ; function : "!A" ; } }
  cell (NAND2) { area : 2 ; pin (A) { direction : input ; } pin (B) { direction : input ; } pin (Y) { direction : output ; function : "!(A B)" ; } }
  cell (NAND2B) { area : 3 ; pin (A) { direction : input ; } pin (B) { direction : input ; } pin (Y) { direction : output ; function : "!(A B)" ; } }
}
`
}

// TestLibraryBadInput gives every command that takes --liberty a library
// that is bad input: each says what is wrong in one line, exits 2 and
// makes nothing, before any work and without the tools.
func TestLibraryBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	fake := write("fake.lib.gz", smallLib("fake", "1ns"))
	ns := write("ns.lib", smallLib("ns", "1ns"))
	ps := write("ps.lib", strings.Replace(smallLib("ps", "1ps"), "cell (", "cell (PS", -1))
	kps := write("kps.lib", smallLib("kps", "1000ps"))
	specs := []struct {
		name    string
		liberty []string // --liberty and what follows
		want    string
	}{
		{"not gzip", []string{fake}, fake + " is named .gz but is not gzip: allowed a gzip file, or a plain Liberty file named without .gz"},
		{"units", []string{ns + "," + ps}, ns + " and " + ps + ` disagree on time_unit: "1ns" in ` + ns + `, "1ps" in ` + ps + ": allowed files of one library, whose units agree"},
		{"time unit", []string{kps}, "Liberty file " + kps + `: time_unit "1000ps" not allowed: allowed 1ps, 10ps, 100ps or 1ns, Liberty's time units`},
		{"no NAND2 left", []string{ns, "--dont-use", "NAND2 NAND2B"}, "the cells not to use (NAND2 NAND2B) leave library " + ns + " no cell for a two-input NAND, which it has (NAND2, NAND2B): allowed a dont-use list that keeps one"},
		{"unknown", []string{"sky130"}, `unknown library "sky130" (did you mean sky130hd?): allowed osu018, osu035, sky130hd, asap7, a Liberty file (.lib or .lib.gz), files separated by commas, or a folder of them`},
	}
	commands := [][]string{
		{"synth", "-t", "sklansky", "-n", "4"},
		{"explore", "-n", "4", "--synth", "--no-optimize"},
		{"report", "-n", "4", "--synth", "--no-optimize"},
		{"optimize", "-n", "4", "--max-delay-ns", "1"},
		{"gen", "-t", "sklansky", "-n", "4", "-f", "verilog", "--pg-cells"},
		{"check", "-t", "sklansky", "-n", "4", "--pg-cells"},
		{"check", "--verilog", ns},
	}
	for _, cmd := range commands {
		for _, s := range specs {
			t.Run(cmd[0]+" "+s.name, func(t *testing.T) {
				out := t.TempDir()
				args := append(append(slices.Clone(cmd), "--liberty"), s.liberty...)
				if cmd[0] == "check" {
					args = append(args, "--keep", filepath.Join(out, "keep"))
				} else {
					args = append(args, "-o", filepath.Join(out, "out"))
				}
				status, stdout, errOut := prefixgen(args...)
				assert.Equal(t, 2, status, errOut)
				assert.Empty(t, stdout)
				assert.Equal(t, "prefixgen "+cmd[0]+": "+s.want+"\n", errOut)
				entries, err := os.ReadDir(out)
				require.NoError(t, err)
				assert.Empty(t, entries, "nothing made")
			})
		}
	}

	// --pg-cells needs a NAND2 and an OAI21: the library lacks the OAI21.
	for _, cmd := range [][]string{
		{"gen", "-t", "sklansky", "-n", "4", "-f", "verilog", "--pg-cells"},
		{"check", "-t", "sklansky", "-n", "4", "--pg-cells"},
		{"explore", "-n", "4", "--synth", "--no-optimize", "--pg-cells"},
	} {
		status, _, errOut := prefixgen(append(slices.Clone(cmd), "--liberty", ns)...)
		assert.Equal(t, 2, status, errOut)
		assert.Equal(t, "prefixgen "+cmd[0]+": Liberty file "+ns+" has no cell for an OAI21, !((A | B) & C): allowed a library with both, or the adder without library cells\n", errOut)
	}
}

// TestLibraryUnread: a Liberty file Yosys cannot read is bad input to
// check as to synth (exit 2, one line). check said so with exit 1, as if
// a tool had failed.
func TestLibraryUnread(t *testing.T) {
	needCheckTools(t)
	osu, err := os.ReadFile(physical.Libraries["osu018"])
	require.NoError(t, err)
	stray := filepath.Join(t.TempDir(), "stray.lib")
	text := strings.Replace(string(osu), "\ncell (", "\n@@@ ;\ncell (", 1)
	require.NotEqual(t, string(osu), text)
	require.NoError(t, os.WriteFile(stray, []byte(text), 0o644))
	for _, cmd := range [][]string{
		{"synth", "-t", "sklansky", "-n", "4"},
		{"check", "-t", "sklansky", "-n", "4", "--pg-cells"},
	} {
		status, stdout, errOut := prefixgen(append(slices.Clone(cmd), "--liberty", stray)...)
		assert.Equal(t, 2, status, "%v: %s", cmd, errOut)
		assert.Empty(t, stdout)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), errOut)
		assert.Contains(t, errOut, stray, cmd)
	}
}

// TestLibraryNames: gen --pg-cells takes its cells from the library
// --liberty names, never one its platform's record, or --dont-use,
// forbids (ASAP7's smaller NAND2xp5 is one).
func TestLibraryNames(t *testing.T) {
	tests := []struct {
		liberty []string
		want    string
	}{
		{[]string{"asap7"}, "    NAND2x1_ASAP7_75t_R u_g_n_0 (.A(a[0]), .B(b[0]), .Y(g_n[0]));\n    OAI21x1_ASAP7_75t_R u_p_n_0 (.A1(a[0]), .A2(b[0]), .B(g_n[0]), .Y(p_n[0]));\n"},
		{[]string{"asap7", "--dont-use", "NAND2x1_*"}, "    NAND2x2_ASAP7_75t_R u_g_n_0 ("},
		{[]string{"sky130hd"}, "    sky130_fd_sc_hd__nand2_1 u_g_n_0 (.A(a[0]), .B(b[0]), .Y(g_n[0]));\n    sky130_fd_sc_hd__o21ai_0 u_p_n_0 (.A1(a[0]), .A2(b[0]), .B1(g_n[0]), .Y(p_n[0]));\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.liberty, " "), func(t *testing.T) {
			t.Parallel()
			status, v, errOut := prefixgen(append([]string{"gen", "-t", "sklansky", "-n", "2", "-f", "verilog", "--pg-cells", "--liberty"}, tt.liberty...)...)
			require.Equal(t, 0, status, errOut)
			assert.Contains(t, v, tt.want)
		})
	}
}
