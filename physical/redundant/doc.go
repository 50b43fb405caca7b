// Package redundant finds the logic a technology mapper computed twice in
// a mapped netlist: Area is the area of the cells that compute a signal
// the netlist already carries, or its complement.
//
// ABC's mapper works for the least delay: near the critical path it
// computes a signal again in the other polarity, or copies it, rather than
// put an inverter on the path. Area builds every signal of the netlist as
// a binary decision diagram over the library's cell functions (package
// bdd, the functions read by package liberty, the netlist by package
// netlist) and counts the cells whose function, or its complement, an
// input or a larger cell already carries.
//
// It is a package of its own, not a file of physical, because it is an
// analysis of two texts, a library and a netlist, that runs no tool and
// knows nothing of the flow that made them: it is tested, and can be
// used, on any mapped netlist. Package physical calls it on the netlist
// each design maps to (Result.RedundantUM2).
package redundant
