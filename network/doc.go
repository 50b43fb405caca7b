// Package network holds the parallel-prefix network: the one type every other
// package of prefixgen reads.
//
// A network of width n has n inputs and a list of cells in topological order.
// Signals 0 … n−1 are the inputs; signal n+k is the output of cell k. Every
// signal covers a contiguous Span of positions: input i covers [i, i]. Cell k
// combines two earlier signals Lo and Hi whose spans are adjacent
// (Lo = [a, m], Hi = [m+1, b]) and covers [a, b]. The operator is applied as
// op(Lo, Hi): the lower positions are always the left operand. Output i is the
// signal whose span is [0, i].
//
// If every cell joins adjacent spans and every output spans [0, i], the network
// computes the correct prefixes for every associative operator, commutative or
// not. That is a proof, and it is what Builder and New check: a Network value
// exists only once it has been proven. Simulation (package simulate) is a
// second, independent check.
//
// Figures follow one definition, used everywhere in prefixgen:
//
//   - level: 0 for an input; 1 + the larger level of its operands for a cell
//     (as soon as possible). Depth is the largest level of an output.
//   - size: the number of cells.
//   - fan-out of a signal: the number of cells that read it, plus one if it is
//     an output (logical, unbuffered fan-out). MaxFanout is the largest over
//     all signals, inputs included.
//   - wire tracks: the largest number, over levels L and column boundaries, of
//     distinct Lo signals read by cells of level L whose wire crosses that
//     boundary. A cell at column b reading a Lo signal that ends at column
//     c < b crosses the boundaries c … b−1 (boundary j lies between columns j
//     and j+1).
//   - lateral fan-out (Harris's convention, A Taxonomy of Parallel Prefix
//     Networks, 2003): the largest number, over signals s and levels L, of
//     cells of level L that read s as their Lo operand, plus one for s
//     continuing down its own column. Kogge–Stone has 2 at every width from
//     2, where its fan-out above is ⌈log2 n⌉ + 1; at n = 2^k, Sklansky has
//     n/2 + 1, Harris's point (0, f, t) 2^f + 1 and Knowles's
//     [f_L, …, f_1] 1 + the largest f_j (at other widths at most these;
//     with l > 0, Harris's down-sweep readers may share a level and count
//     together). Levels are as soon as possible, so
//     a network drawn with a signal read laterally on two rows may count
//     both readers on one level here. A network without cells has 0.
//   - deficiency: size + depth − (2n − 2), never negative (Snir, 1986).
//
// Every function of prefixgen that takes a *Network, in this package and
// every other, takes a network that Builder or New made, never nil: a nil
// network is a programmer's error and panics, as a nil pointer does in the
// standard library, whether or not the function returns an error. The
// errors are for networks and options that are wrong, not missing.
//
// The package imports nothing else of prefixgen. Graph gives a
// gonum.org/v1/gonum/graph view so that gonum's algorithms run on a network,
// and the JSON encoding is the prefixgen.network/v1 format.
package network
