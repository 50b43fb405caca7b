package synthmem_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/prefixgen/prefixgen/internal/synthmem"
)

// TestSaturates: a width or size past what int64 bytes hold estimates
// math.MaxInt64, never a product that wrapped below the budget (synth
// --verilog -n 10^14 passed the bound so, and Yosys failed on the adder);
// a negative count estimates nothing.
func TestSaturates(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  int64
		want int64
		wide bool // saturates only where an int has 64 bits
	}{
		{"reference 10^14 bits", synthmem.Reference(saturated(100_000_000_000_000)), math.MaxInt64, true},
		{"reference MaxInt", synthmem.Reference(math.MaxInt), math.MaxInt64, true},
		{"reference 2^62 bits", synthmem.Reference(saturated(1 << 62)), math.MaxInt64, true},
		{"reference 64 bits", synthmem.Reference(64), 64 * (2*synthmem.CellBytes + synthmem.BitBytes), false},
		{"adder of MaxInt cells", synthmem.Adder(math.MaxInt, 64), math.MaxInt64, true},
		{"adder just past", synthmem.Adder(saturated(math.MaxInt64/synthmem.CellBytes), saturated(math.MaxInt64/synthmem.BitBytes)), math.MaxInt64, true},
		{"verilog MaxInt64", synthmem.Verilog(math.MaxInt64), math.MaxInt64, false},
		// A file past 4 GiB, whose size an int of 32 bits had wrapped.
		{"verilog past 4 GiB", synthmem.Verilog(4<<30 + 4096), (4<<30 + 4096) * synthmem.VerilogBytes, false},
		{"negative verilog", synthmem.Verilog(-1), 0, false},
		{"negative", synthmem.Adder(-5, -1), 0, false},
		{"negative reference", synthmem.Reference(-3), 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.wide && strconv.IntSize < 64 {
				t.Skip("an int of 32 bits holds no count the estimate saturates at")
			}
			assert.Equal(t, tc.want, tc.got)
		})
	}
}

// TestJobs: the syntheses at once are jobs, fewer where as many of the
// largest would not fit in memory together, and one at least.
func TestJobs(t *testing.T) {
	for _, tc := range []struct {
		name            string
		jobs            int
		memory, largest int64
		want            int
	}{
		{"no memory bound", 16, 0, 1 << 40, 16},
		{"all fit", 4, 100, 25, 4},
		{"memory bounds", 16, 8 << 30, synthmem.Adder(45057, 4096), 4},
		{"larger than the memory runs alone", 16, 100, 500, 1},
		{"nothing to run", 3, 100, 0, 3},
		{"no jobs given", 0, 0, 10, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, synthmem.Jobs(tc.jobs, tc.memory, tc.largest))
		})
	}
}

// saturated is n as an int, or the largest int where n is larger (a build
// of 32 bits), so that a case of a count past 2^31 compiles there too.
func saturated(n int64) int {
	return int(min(n, math.MaxInt))
}
