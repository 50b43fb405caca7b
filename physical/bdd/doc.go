// Package bdd is a store of reduced ordered binary decision diagrams: every
// Boolean function of the store's variables is one Node, so that two
// signals compute the same function exactly when they are the same node.
//
// Variables are ordered by their numbers. A store may be bounded (New's
// limit): Full then says it has outgrown the bound, and a caller stops
// building. A BDD is the Algebra in which package liberty evaluates a
// cell's function (liberty.Eval), and package redundant compares a mapped
// netlist's signals with it.
//
// It imports nothing of prefixgen.
package bdd
