// Package explore maps the trade-off space of prefix networks at one width:
// it builds every family of package topologies at every distinct setting of
// its parameters, adds the networks an optimizer finds, and keeps the ones no
// other network beats on depth, size, maximum fan-out and wire tracks at once
// (the Pareto front).
//
// A Point carries its network, its figures, where it came from and the
// prefixgen command that rebuilds it, so that every row of a table or dot of a
// plot can be reproduced. Enumerate and Front are deterministic: the same
// width and options give the same points in the same order.
//
// SynthesizeAdders measures the adders of a list of adder.Architecture
// values around every point through package physical's flow; each
// Measured row holds its architecture whole, names it as synth does
// (AdderName, adder.Architecture.Name) and gives the command that writes
// it (AdderCommand, adder.Architecture.Args).
package explore
