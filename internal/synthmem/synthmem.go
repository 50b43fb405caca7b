package synthmem

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
// Verilog that is not a network's adder (a user's own): the 4096-bit
// Kogge–Stone adder above takes about 190 a byte of the 8.6 MB emit
// writes, the 1024-bit one about 350.
const VerilogBytes = 512

// Adder returns the memory a synthesis of an adder of width n takes whose
// network has cells cells.
func Adder(cells, n int) int64 {
	return int64(max(cells, 0))*CellBytes + int64(max(n, 0))*BitBytes
}

// Verilog returns the memory a synthesis of a design of size bytes of
// Verilog takes.
func Verilog(size int) int64 { return int64(max(size, 0)) * VerilogBytes }
