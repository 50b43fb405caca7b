// Package optimize searches for the smallest parallel-prefix network of a
// given width under a depth bound and, optionally, a fan-out bound.
//
// Minimize works in three stages, every one deterministic:
//
//  1. Every named family of package topologies at every parameter setting
//     that meets the bounds, including Zhu, Cheng and Graham's
//     zero-deficiency networks, which are optimal (size 2n − 2 − depth,
//     Snir's bound) wherever they exist.
//  2. A constructive search: a dynamic program over series compositions
//     (split the inputs, solve the lower part, solve the upper part with the
//     lower part's prefix as its first input, as Ladner–Fischer and
//     Zhu–Cheng–Graham chain their parts), late carries (Sklansky's upper
//     half), blocks reduced by trees and completed from the prefix entering
//     them (Brent–Kung's and Ladner–Fischer's pairing generalized to trees
//     of any depth), and Zhu–Cheng–Graham block trees whose subtrees may be
//     solved either way, and blocks solved as prefix problems of their own,
//     each completed in one level from the prefix entering it, which hold
//     up to 2^u elements where a tree completed in one level holds u + 1.
//     At the least depth and one level above, the blocks may end with
//     larger blocks of up to two kinds, up to three of each (deeper trees,
//     or prefix problems of their own completed in one level), whose totals
//     reach the block totals' problem one or two levels late; that problem
//     keeps its late elements through every way, in both parts of a split
//     or of a carry tree. An annealed 32-input network showed the way, and a
//     SAT solver run over every network of small subproblems (CaDiCaL; the
//     tests run it) showed where one kind in one part fell a cell short. With them the recursion alone builds Sergeev's optimum at 2^k
//     inputs and depth k for every k up to 8, and 128 inputs at depth 8 in
//     272 cells (275 without larger blocks, 273 with one kind).
//     Each subproblem is solved under its own bounds on the level of its
//     first input, of its last prefix and of the others, so the program
//     finds the best of exponentially many recursions, in about a second
//     at n = 256.
//  3. Simulated annealing on the form of Roy et al. (PrefixRL, 2021): a
//     network is the set of spans [j, i] it computes, each span's cell
//     joins it from the next shorter span of its column and the span just
//     below that, which is added when missing; a move adds, moves or removes
//     one span. Options.Chains chains with seeds (Seed, k) run in parallel
//     on every core from the best network of stages 1 and 2; the smallest
//     network any chain meets within the bounds wins, ties going to the
//     earlier chain, so the result depends on the seed and not on the number
//     of cores. Under a fan-out bound that no network of stages 1 and 2
//     meets, the chains start from the smallest within the depth and count
//     the excess fan-out as a penalty.
//
// Under a delay bound (Options.MaxDelay) or the delay objective
// (Options.Objective = Delay), Minimize scores networks by package delay's
// logical-effort model of the adder on the OSU 0.18 µm cells instead of by
// their cells alone: every named network within the depth and the
// constructive search's network at every depth from ⌈log2 n⌉ to the bound
// are scored, the best by the objective (the model's area within the delay
// bound, or the model's delay, ties going to the smaller) starts the
// annealing chains, and their energy is the objective plus, beyond the
// delay bound, one cell per τ of excess. Depth, size, fan-out and wire
// tracks all enter through the model: levels through the gates on the
// path, fan-out through the load each gate drives, wires through their
// length. Copies of cells do not pay there: synthesis merges a copy into
// the cell it copies (Yosys's opt_merge, ABC's structural hashing), so the
// model merges them too and the search copies cells only to meet a fan-out
// bound. The model is not the flow: a network annealed against it can come
// out of synthesis slower than the model ranks it, and the README says by
// how much.
//
// MinimizeFlow and MinimizeFlowSparse put the flow itself in the loop.
// They measure up to FlowCandidates networks of those searches through
// package physical's flow, and with Options.FlowSteps they go on with a
// flow-in-the-loop search: simulated annealing on the span grid of
// anneal's moves, starting from the FlowStarts measured adders of least
// energy (the area, plus ten times the area per fraction of delay over the
// bound), where every step synthesizes a batch of four trials in parallel
// (four on any machine, so that the result does not follow the cores) and
// takes the best by the Metropolis rule. It judges a network by what
// survives synthesis, the mapper's duplication and the slew the model does
// not see, at the price of a synthesis per trial (about 0.5 s of a core
// at 64 bits). A trial that changes only cells the adder does not read (a
// sparse adder reads every s-th carry) is not measured again. Under a
// fan-out bound the search moves on the span grid within the depth alone
// and measures each trial's network with cells copied until it keeps the
// bound, as the constructive search does; the grid holds one cell a span,
// so without the copies every neighbour of a network that needs them would
// break the bound.
// MinimizeFlowDelay asks the other question of the same candidates and
// search: the least delay among adders whose area is at most a bound, the
// energy then the delay plus ten times the delay per fraction of area over
// it.
//
// Every result is proven again from its plain description (network.New) and
// checked by simulation (simulate.Verify: the interval monoid, 2×2 matrices
// and the adder against math/big) before Minimize returns it, and it comes
// with its figures: Figures.Deficiency is its distance to Snir's bound, and
// Result.LowerBound Snir's lower bound on the size of any network within
// the depth, met only at depths where a zero-deficiency network exists.
//
// Check refuses what no network can meet, naming the least bound that can
// be: a depth below ⌈log2 n⌉, and a fan-out bound below LeastFanout, which
// is exact: 2 means ripple (depth n − 1), and 3 is met at every depth from
// ⌈log2 n⌉ on (Sklansky's or Kogge–Stone's network with cells copied; a test
// checks every width). Widths above MaxWidth are refused. Under a fan-out
// bound the search copies cells where a signal feeds too many (a copy has the
// same operands, so the depth does not change). Should it find nothing within
// bounds that Check accepts, Minimize returns a *NotFoundError: a result, not
// bad input.
//
// How good it is: at minimum depth, I. S. Sergeev (On the complexity of
// parallel prefix circuits, ECCC TR13-041, 2013) gives the exact least size
// for n = 2^k, 167 at 64 inputs, 364 at 128 and 773 at 256, which the
// recursion alone finds. One level above, at 128 inputs and depth 8, it
// finds 272 cells, 23 fewer than every named family and one fewer than
// ArithTreeRL (NeurIPS 2024) published. From the depth where a
// zero-deficiency network exists on, its result is optimal.
//
// Package optimize imports package simulate to check its results, a
// departure from the design's rule that topologies import only network: a
// search result is not a construction proven by its shape, and the design
// asks that every one be simulated before it is printed.
package optimize
