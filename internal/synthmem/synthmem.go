package synthmem

import "math"

// The memory a synthesis takes, per cell of the adder's network and per
// bit. Measured on a 4096-bit Kogge–Stone adder kept as written on ASAP7
// (45 057 cells of the network, 95 579 of the library; at their peaks
// Yosys 919 MB, prefixgen 558 MB, OpenSTA 159 MB; the abc flow alike) and
// on a 1024-bit one (Yosys 188 MB, prefixgen 381 MB), with room: about
// 16 KiB a cell of the library, two to a cell of the network and five to
// a bit (its generate, propagate and sum, and their inverters).
const (
	CellBytes = 32 << 10
	BitBytes  = 80 << 10
)

// VerilogBytes is the memory a synthesis takes per byte of a design's
// Verilog that is not a network's adder (a user's own): of the 8.6 MB
// emit writes of the 4096-bit Kogge–Stone adder above, Yosys took 107
// bytes a byte and the whole synthesis 190; of the 1.6 MB of the 1024-bit
// one, 115 and 350. With room, 512.
const VerilogBytes = 512

// Adder returns the memory a synthesis of an adder of width n takes whose
// network has cells cells, math.MaxInt64 where it is more.
func Adder(cells, n int) int64 {
	return add(mul(cells, CellBytes), mul(n, BitBytes))
}

// Verilog returns the memory a synthesis of a design of size bytes of
// Verilog takes, math.MaxInt64 where it is more.
func Verilog(size int64) int64 {
	if size > math.MaxInt64/VerilogBytes {
		return math.MaxInt64
	}
	return max(size, 0) * VerilogBytes
}

// Reference returns the memory a synthesis of Yosys's own a + b + cin of
// width n takes: an adder of a Brent–Kung network, about 2n cells;
// math.MaxInt64 where it is more.
func Reference(n int) int64 { return mul(n, 2*CellBytes+BitBytes) }

// mul returns count × each, count below 0 taken as 0, math.MaxInt64 where
// the product is more.
func mul(count int, each int64) int64 {
	if count <= 0 {
		return 0
	}
	if int64(count) > math.MaxInt64/each {
		return math.MaxInt64
	}
	return int64(count) * each
}

// add returns a + b of two sums of mul, math.MaxInt64 where it is more.
func add(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// Jobs returns how many syntheses to run at once: jobs, or fewer where as
// many of the largest, largest bytes each, would take more than memory
// together (memory 0: no bound); one at least.
func Jobs(jobs int, memory, largest int64) int {
	if memory <= 0 || largest <= 0 {
		return max(jobs, 1)
	}
	return int(max(min(int64(jobs), memory/largest), 1))
}
