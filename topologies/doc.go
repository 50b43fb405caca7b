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
//   - knowles: Knowles's minimum-depth family [f_L, …, f_1] of lateral
//     fan-outs per level, from Kogge–Stone to Sklansky, parameter s, the
//     levels where the list doubles (default 0, Kogge–Stone). S. Knowles, A
//     Family of Adders, ARITH-14, 1999. Knowles joins overlapping groups,
//     which only an idempotent operator allows; these networks join adjacent
//     spans and keep his depth and fan-outs.
//   - harris: the point (l, f, t) of Harris's taxonomy, t = ⌈log2 n⌉−1−l−f,
//     parameters l and f (default 0, 0: Kogge–Stone): l Brent–Kung levels
//     around a Knowles network on every 2^l-th column. D. Harris, A Taxonomy
//     of Parallel Prefix Networks, Asilomar 2003.
//   - zero-deficiency: size + depth = 2n − 2, at any depth d from the least
//     that allows it, n ≤ F(d+3) − 1, to n − 1, parameter d (default 0, the
//     least). H. Zhu, C.-K. Cheng and R. Graham, On the Construction of
//     Zero-Deficiency Parallel Prefix Circuits with Minimum Depth, ACM TODAES
//     11(2), 2006.
//
// Besides the families, Lookup and Build know carry-select (Others): the
// carry network of a carry-select adder, segments of ripple chains that
// grow by g bits from a first of l, each joined to the carry into it. O. J.
// Bedrij, Carry-Select Adder, IRE Trans. Electronic Computers EC-11(3),
// 1962. It is not one of All, which every enumeration of the families
// takes: its chains are what a library's full adders make small.
//
// Widths that are not powers of two: Kogge–Stone, Brent–Kung, Sklansky,
// Han–Carlson, Knowles and Harris are the networks of the next power of two
// with the columns ≥ n left out (a cell depends only on columns at or below
// its own, so what remains is complete), and with them any cell that then
// reaches no output; Ladner–Fischer follows the paper's recursion, which
// splits n into ⌈n/2⌉ and ⌊n/2⌋; zero-deficiency fills its blocks to n.
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
