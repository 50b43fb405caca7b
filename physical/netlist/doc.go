// Package netlist reads a gate-level netlist as Yosys writes one
// (write_verilog -noattr -noexpr -simple-lhs): the cell instances and the
// nets on their pins, the assignments bit by bit, and the input and output
// ports.
//
// It reads what Yosys writes, not Verilog at large: a statement it does
// not make out is left out, and Parse never fails. Bits are named as the
// cells' pins name them: a[3] for a bit of a bus, \ck$b [1] for a bit of
// an escaped one, 1'h0 and 1'h1 for constants.
//
// It imports nothing of prefixgen.
package netlist
