package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/limits"
)

// Requests too big for the machine are refused before any work, fast, in
// one line with exit status 2, naming the widest width that fits (issue
// 37). Not parallel: it fixes the budget for every machine.
func TestLimits(t *testing.T) {
	defer func(b limits.Budget) { budget = b }(budget)
	budget = limits.Budget{Memory: 4 << 30, Diagram: limits.MaxText}
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	status, _, errOut := prefixgen("gen", "-t", "ripple", "-n", "65536", "-f", "json", "-o", big)
	require.Equal(t, 0, status, errOut)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"stats", "-t", "ripple", "-n", "67108864"}, "prefixgen stats: ripple at width 67108864 needs about 32.0 GiB of memory, more than the 4.0 GiB allowed here: allowed widths up to 8388609"},
		{[]string{"gen", "-t", "kogge-stone", "-n", "1048576", "-f", "verilog"}, "prefixgen gen: kogge-stone at width 1048576 needs about 76.0 GiB of memory, more than the 4.0 GiB allowed here: allowed widths up to "},
		// Past topologies' bound of cells, the memory here names a
		// narrower width than that bound.
		{[]string{"stats", "-t", "kogge-stone", "-n", "10000000"}, "prefixgen stats: kogge-stone at width 10000000 needs more than 32.0 GiB of memory, more than the 4.0 GiB allowed here: allowed widths up to "},
		{[]string{"stats", "-t", "sklansky", "-n", "4000000"}, "prefixgen stats: sklansky at width 4000000 needs about 20.8 GiB of memory, more than the 4.0 GiB allowed here: allowed widths up to "},
		{[]string{"stats", "-t", "all", "-n", "1000000"}, "prefixgen stats: every topology at width 1000000 needs about "},
		{[]string{"compare", "-n", "1000000"}, "prefixgen compare: comparing every topology at width 1000000 needs about "},
		{[]string{"gen", "--from", big, "-f", "dot"}, "prefixgen gen: width 65536 too wide for a picture: allowed 1 to 16384 columns (-f svg, dot), or the network as -f json"},
		{[]string{"gen", "-t", "kogge-stone", "-n", "16385", "-f", "svg"}, "prefixgen gen: width 16385 too wide for a picture: allowed 1 to 16384 columns (-f svg, dot), or the network as -f json"},
		{[]string{"gen", "-t", "ripple", "-n", "1048576", "-f", "text"}, "prefixgen gen: the text diagram of ripple at width 1048576 would take more than the 256 MiB allowed: allowed widths up to 8190 (or -f json)"},
		{[]string{"gen", "-t", "kogge-stone", "-n", "1000000", "-f", "text"}, "prefixgen gen: the text diagram of kogge-stone at width 1000000 would take more than the 256 MiB allowed: allowed widths up to 7028 (or -f json)"},
		{[]string{"gen", "-t", "kogge-stone", "-n", "8190", "-f", "text"}, "prefixgen gen: the text diagram of kogge-stone at width 8190 would take about 341.6 MiB, more than the 256 MiB allowed: allowed widths up to "},
		// Just past the limit, as many decimals as tell the two apart.
		{[]string{"gen", "-t", "kogge-stone", "-n", "7029", "-f", "text"}, "prefixgen gen: the text diagram of kogge-stone at width 7029 would take about 256.02 MiB, more than the 256 MiB allowed: allowed widths up to 7028 (or -f svg)"},
		{[]string{"gen", "--from", big, "-f", "text"}, "prefixgen gen: the text diagram of this network would take about 16384.9 MiB, more than the 256 MiB allowed: write it as -f json, or a narrower network"},
		{[]string{"synth", "-t", "kogge-stone", "-n", "1048576"}, "prefixgen synth: synthesizing kogge-stone at width 1048576 needs about 697.5 GiB of memory, more than the 4.0 GiB allowed here: allowed widths up to "},
		{[]string{"synth", "--from", big, "--liberty", "asap7"}, "prefixgen synth: synthesizing the network of 65535 cells at width 65536 needs about 7.0 GiB of memory, more than the 4.0 GiB allowed here: allowed widths up to "},
		{[]string{"verify", "-t", "ripple", "-n", "8", "--vectors", "9223372036854775807"}, "prefixgen verify: --vectors 9223372036854775807 out of range: allowed 0 to 1000000000 (more would run for hours at wide widths; run again with another --seed for more)"},
	}
	for _, tt := range tests {
		start := time.Now()
		status, out, errOut := prefixgen(tt.args...)
		// Before the work: building the networks and their outputs
		// would take minutes, and gigabytes.
		assert.Less(t, time.Since(start), 20*time.Second, "%v: refused fast", tt.args)
		assert.Equal(t, 2, status, "%v: %s", tt.args, errOut)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: one line: %s", tt.args, errOut)
		assert.True(t, strings.HasPrefix(errOut, tt.want), "%v:\n got %s\nwant %s", tt.args, errOut, tt.want)
	}
	// The widest width named fits.
	status, _, errOut = prefixgen("gen", "-t", "ripple", "-n", "8190", "-f", "text", "-o", filepath.Join(dir, "t.txt"))
	require.Equal(t, 0, status, errOut)
	fi, err := os.Stat(filepath.Join(dir, "t.txt"))
	require.NoError(t, err)
	assert.LessOrEqual(t, fi.Size(), limits.MaxText)
}

// fifo makes a FIFO in dir that gives line over and over to each reader,
// 65 MiB and more, and returns its path: past the 64 MiB a budget of 4 GiB
// allows, and an end where a reader that does not stop reaches it.
func fifo(t *testing.T, dir, name, line string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, syscall.Mkfifo(p, 0o600))
	go func() {
		chunk := bytes.Repeat([]byte(line), 1<<12)
		for {
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			for written := 0; written < 65<<20; written += len(chunk) {
				if _, err := f.Write(chunk); err != nil {
					break // the reader has gone
				}
			}
			f.Close()
		}
	}()
	return p
}

// A file of the user's larger than a 64th of the budget, a FIFO's stream
// included, is refused once past it, in one line with exit status 2, not
// read to its end (which a FIFO may never reach) and then parsed.
func TestLimitsInput(t *testing.T) {
	defer func(b limits.Budget) { budget = b }(budget)
	budget = limits.Budget{Memory: 4 << 30, Diagram: limits.MaxText}
	dir := t.TempDir()
	net := fifo(t, dir, "net.json", `{"format":"prefixgen.network/v1",`)
	design := fifo(t, dir, "adder.v", "// a comment\n")
	report := fifo(t, dir, "bench.json", "[1,")
	const over = " is larger than the 64 MiB allowed here, a 64th of the 4.0 GiB of memory a request may use\n"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"stats", "--from", net}, "prefixgen stats: network file " + net + over},
		{[]string{"optimize", "-n", "8", "--max-delay-ns", "1", "--liberty", "asap7", "--start", net}, "prefixgen optimize: start file " + net + over},
		{[]string{"synth", "--verilog", design, "--liberty", "asap7"}, "prefixgen synth: --verilog " + design + over},
		{[]string{"cuda", "report", report}, "prefixgen cuda report: report " + report + over},
	}
	for _, tt := range tests {
		status, out, errOut := prefixgen(tt.args...)
		assert.Equal(t, 2, status, "%v: %s", tt.args, errOut)
		assert.Empty(t, out)
		assert.Equal(t, tt.want, errOut, "%v", tt.args)
	}
}

// TestLimitsSynthVerilog: synth --verilog and map are refused before any
// tool runs where the user's design, or Yosys's a + b + cin of -n bits
// beside it, would take more memory to synthesize than a request may use.
// With -n it was bounded by nothing: -n 1048576 set Yosys building a
// million-bit adder. Not parallel: it fixes the budget.
func TestLimitsSynthVerilog(t *testing.T) {
	defer func(b limits.Budget) { budget = b }(budget)
	budget = limits.Budget{Memory: 2 << 20, Diagram: limits.MaxText}
	dir := t.TempDir()
	small := filepath.Join(dir, "small.v")
	require.NoError(t, os.WriteFile(small, []byte("module inv(input a, output y);\n  assign y = ~a;\nendmodule\n"), 0o644))
	padded := filepath.Join(dir, "padded.v")
	require.NoError(t, os.WriteFile(padded, []byte(strings.Repeat("// a comment of padding\n", 1000)+"module inv(input a, output y);\n  assign y = ~a;\nendmodule\n"), 0o644))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"synth", "--verilog", small, "-n", "64"}, "prefixgen synth: synthesizing yosys a+b+cin at width 64 needs about 9.0 MiB of memory, more than the 2.0 MiB allowed here: allowed widths up to 14\n"},
		// Past what int64 bytes hold: the estimate wrapped below the
		// budget, and Yosys failed on the adder.
		{[]string{"synth", "--verilog", small, "-n", "100000000000000"}, "prefixgen synth: synthesizing yosys a+b+cin at width 100000000000000 needs more than 8 EiB of memory, more than the 2.0 MiB allowed here: allowed widths up to 14\n"},
		{[]string{"synth", "--verilog", small, "-n", "9223372036854775807"}, "prefixgen synth: synthesizing yosys a+b+cin at width 9223372036854775807 needs more than 8 EiB of memory, more than the 2.0 MiB allowed here: allowed widths up to 14\n"},
		{[]string{"synth", "--verilog", padded}, "prefixgen synth: synthesizing " + padded + " (23.5 KiB) needs about 11.7 MiB of memory, more than the 2.0 MiB allowed here: allowed designs up to 4.0 KiB\n"},
		{[]string{"map", padded, "--top", "inv", "--clock-period", "10"}, "prefixgen map: synthesizing " + padded + " (23.5 KiB) needs about 11.7 MiB of memory, more than the 2.0 MiB allowed here: allowed designs up to 4.0 KiB\n"},
		{[]string{"map", small, padded, "--top", "inv", "--clock-period", "10"}, "prefixgen map: synthesizing the design's 2 files (23.6 KiB) needs about 11.8 MiB of memory, more than the 2.0 MiB allowed here: allowed designs up to 4.0 KiB\n"},
	} {
		status, out, errOut := prefixgen(tt.args...)
		assert.Equal(t, 2, status, "%v: %s", tt.args, errOut)
		assert.Empty(t, out)
		assert.Equal(t, tt.want, errOut, "%v", tt.args)
	}
}
