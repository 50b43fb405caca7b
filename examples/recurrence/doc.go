// Command recurrence solves the first-order linear recurrence
// x_i = a_i·x_{i−1} + b_i mod 2^64 with a prefix network: the prefixes of the
// maps x ↦ a_i·x + b_i under composition (the simulate.Affine monoid), each
// applied to x_{−1}, are the x_i.
//
// The composition runs over a Kogge–Stone network (minimum depth, the usual
// choice for a GPU warp) unless the -t flag names another topology (any
// topology prefixgen list names; -param name=V sets its parameters, such as
// k=1 for ladner-fischer). The result is checked against the plain loop x =
// a_i·x + b_i.
//
// Usage:
//
//	recurrence [-t TOPOLOGY] [-param k=V] [-n N] [-x0 X] [-seed S]
package main
