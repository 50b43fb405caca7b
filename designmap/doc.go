// Package designmap maps the adders of a whole design, each to a
// parallel-prefix network chosen for its place in it.
//
// Map reads a design with Yosys and runs it up to alumacc, so that every
// addition, subtraction, comparison and multi-operand sum ($macc, mapped to
// a carry-save tree and a final adder) becomes an $lcu cell: one carry tree
// per adder. It synthesizes the design with Yosys's own networks, buffering
// and sizing as ABC does with the platform's constraints, and times it with
// OpenSTA against the clock: that gives when each bit of each adder
// arrives and how much slack each adder's outputs have. It then gives
// every adder a network of its own (package optimize, by the delay model
// with the arrivals as a delay.Profile): the least cells that meet the
// time its outputs are needed by, or the fastest where none does; it
// synthesizes and times the design again, and re-chooses while that helps.
//
// Result holds the mapped netlist, the design with its adders as generic
// gates for any other flow, a row per adder, and the worst path and area
// before and after; Options.Compare adds the design with every adder as one
// named family, and Options.Check proves the result equal to the design
// as Yosys synthesizes it (equiv_make, equiv_simple, equiv_induct).
package designmap
