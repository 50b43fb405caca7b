// Package designmap maps the adders of a whole design, each to a
// parallel-prefix network chosen for its place in it (prefixgen map).
//
// Map reads a design with Yosys and runs it up to alumacc and Yosys's
// techmap, so that every addition, subtraction, comparison and the final
// adder of every multi-operand sum ($macc, a carry-save tree of $fa cells
// and an $alu) is one $lcu carry tree: one adder. It synthesizes the design
// as Yosys does by default (Result.Before) and with every adder as each of
// Baselines, and times each with OpenSTA against the clock. Where a sum
// is an operand of other sums (a sum of sums, such as SHA-256's t1, read
// by both a_new and e_new), Yosys resolves its carries before the sums
// after it can start; Map also prepares the design with that sum's adders
// copied into each sum that reads it, so that alumacc makes each chain one
// carry-save tree and one final adder, and measures Yosys's own and every
// family on it too (Result.SumCopies). A network of
// prefixgen's is a module of its own that ABC maps without rewriting, then
// flattened: merged into the design, ABC's rewriting would turn any
// network into a ripple of majority gates.
//
// From the best of those on each prepared design, probed, it reads when each bit of each adder
// arrives and the slack of its outputs, and gives each adder networks by
// the delay model with those arrivals (package optimize): the model's
// fastest where the adder lacks slack, the fewest cells within part of its
// slack or Yosys's own merged where it has some. It measures each choice
// and goes on from the best while that helps; the better end of the
// searches from each design is the result.
//
// Result holds the mapped netlist, the design with its adders as generic
// gates for any other flow, a row per adder, the worst path and area
// before and after and, with Options.Compare, the baselines; Options.Check
// proves the result equal to the design with Yosys's own networks (a
// miter from Yosys, proven by ABC's dprove).
package designmap
