// Package topologies builds the classic families of parallel-prefix networks
// at every width n ≥ 1, not only at powers of two.
//
// Each constructor builds through network.Builder, so every network it
// returns has been proven: every cell joins adjacent spans, the lower span as
// the left operand, and output i spans [0, i]. The families, in the order of
// All:
//
//   - ripple: the serial chain, size and depth n−1. D. Harris, A Taxonomy of
//     Parallel Prefix Networks, Asilomar 2003, places it among the others.
//   - kogge-stone: recursive doubling, depth ⌈log2 n⌉. P. M. Kogge and
//     H. S. Stone, A Parallel Algorithm for the Efficient Solution of a
//     General Class of Recurrence Equations, IEEE Trans. Computers C-22(8),
//     1973.
//   - brent-kung: up-sweep and down-sweep trees, size below 2n. R. P. Brent
//     and H. T. Kung, A Regular Layout for Parallel Adders, IEEE Trans.
//     Computers C-31(3), 1982.
//   - sklansky: divide and conquer, depth ⌈log2 n⌉. J. Sklansky,
//     Conditional-Sum Addition Logic, IRE Trans. Electronic Computers
//     EC-9(2), 1960.
//   - han-carlson: Kogge–Stone on the odd columns plus one level for the even
//     ones. T. Han and D. A. Carlson, Fast Area-Efficient VLSI Adders,
//     ARITH-8, 1987.
//   - ladner-fischer: the recursive P_k(n), parameter k (default 0). R. E.
//     Ladner and M. J. Fischer, Parallel Prefix Computation, JACM 27(4), 1980.
//
// Widths that are not powers of two: Kogge–Stone, Brent–Kung, Sklansky and
// Han–Carlson are the networks of the next power of two with the columns ≥ n
// left out (a cell depends only on columns at or below its own, so what
// remains is complete); Ladner–Fischer follows the paper's recursion, which
// splits n into ⌈n/2⌉ and ⌊n/2⌋.
//
// The registry (All, Names, Lookup, Build) names the families, describes them
// in one line, gives their references and their parameters with defaults and
// ranges. Topology.Build checks the width and the parameters, and refuses a
// request whose EstimateCells exceeds MaxCells before allocating anything, so
// that a mistyped width cannot ask for gigabytes. ParseParams, Select and
// Compare serve the prefixgen command. Every error is one line prefixed
// "topologies: " that says what is wrong and what is allowed.
//
// Each builder reserves room for its exact size in advance (Builder.Grow), so
// a network is allocated once: building costs about 22 bytes per cell, nearly
// all of it the network itself. Kogge–Stone at n = 65536, about a million
// cells, is built, proven and measured (network.Figures) in about a tenth of
// a second on one core; see the benchmarks.
package topologies
