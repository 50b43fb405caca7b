// Package warp lowers a prefix network of width 1 to 32 to a warp program:
// the steps that 32 CUDA lanes run in lockstep to scan 32 values, one per
// lane, with shuffles. Run emulates a program in Go over any monoid, so
// that a lowering is proven against simulate.Scan without a GPU. Package
// gpukernels writes a program as CUDA.
//
// # The register model
//
// Lane i holds column i of the network. A signal lives in the lane of its
// column (the highest position of its span) and never moves lanes: a cell
// sits in the column of its Hi operand, so its result stays in the lane
// that holds its right operand, and only its Lo operand crosses lanes,
// through a shuffle. Each lane has Program.Registers registers: register 0
// is the running value, the newest value of the lane's column, and the
// others are spares. Lanes from the network's width up take part in every
// shuffle but never combine, and nothing they hold reaches a result.
//
// # Steps
//
// A Step runs in three phases, every lane in lockstep: its Copies (each lane
// of a copy's mask copies one register into another); a shuffle, in which
// every lane reads register FromReg of one source lane; and a predicated
// combine, r[ToReg] = op(shuffled, r[HiReg]) on the lanes whose predicate
// holds. The shuffled value covers the lower positions, so it is the left
// operand, as everywhere in prefixgen. The shuffle reads every lane before
// any lane writes, so the cells of one step may read values that the same
// step replaces: Kogge–Stone's lane i reads lane i−d's value of the
// previous level while lane i−d replaces it. This is the very thing
// sequential code gets wrong when it updates columns in place in the wrong
// order, as Yosys's and CIRCT's Kogge–Stone did.
//
// # Lowering
//
// Lower groups the cells by level (as soon as possible, network.Level) and
// makes one step of each level, in cell order. A level is split into more
// steps only where one step cannot hold it: when two of its cells share a
// column (a lane combines at most once a step), or when its cells read
// their Lo operands, or their Hi operands, from different registers (a
// shuffle reads one register of every lane). Steps that combine nothing are
// never emitted. Every topology of the registry lowers to exactly Depth
// steps, Size combines and one register.
//
// A network may go on reading a value its column has replaced: a cell may
// take as Lo, or as Hi, a signal that a later cell of the same column has
// already overwritten (networks read from a file can do anything their
// spans allow, and splitting a level can make one step overwrite what the
// next step of the same level still reads). Reading register 0 regardless
// would read the wrong value, a mistake an idempotent operator such as Max
// can hide. Lower instead tracks the register holding every signal. Before
// a step overwrites register 0 of a lane whose value is still needed, a
// Copy saves it into the lowest spare of that lane that holds nothing still
// needed and is not read by the step; the cells that read it later shuffle
// from, or combine with, that spare. Program.Final copies outputs left in
// spares back to register 0 at the end.
//
// # Shuffles and predicates
//
// Every step records its source lanes and its active lanes exactly, in
// SrcTable and Active, and also as a closed form a kernel computes cheaply,
// equal to the table and the mask on all 32 lanes. Every lane runs every
// shuffle; only the combine is predicated. The source forms, tried in this
// order, are
//
//   - SrcBroadcast D: lane (lane &^ (2D−1)) | (D−1), the last lane of the
//     lower half of the lane's block of 2D lanes: __shfl_sync(mask, r, D−1,
//     2D) (Sklansky, and Brent–Kung's up-sweep);
//   - SrcUp D: lane − D: __shfl_up_sync(mask, r, D), where a lane below D
//     reads its own value (Kogge–Stone);
//   - SrcTable: lane SrcTable[lane], taken modulo 32 as CUDA does.
//
// Broadcast is tried first because both fit wherever only lanes with bit D
// set read lane − D, such as level 1 of Sklansky, whose steps then read as
// broadcasts throughout. The predicate forms, tried in this order, are
// PredRange (From ≤ lane < To), PredBit (lane & Bit ≠ 0), PredMod
// (lane % Mod = Rem), each of the last two bounded by From ≤ lane < To only
// where the bound matters, and the fallback PredMask ((Active >> lane) & 1).
// As-soon-as-possible levels pull some cells of Brent–Kung's down-sweep and
// Han–Carlson's even columns into earlier levels, where their sources no
// longer fit a closed form; those steps use tables.
//
// # Emulation
//
// Run executes a program on 32 emulated lanes: lane i < Width starts with
// input i, every other lane and every spare with the monoid's identity. It
// computes sources and predicates from the closed forms, with CUDA's
// shuffle semantics, rather than from the tables, so that a run over
// simulate.Interval (which panics on any combine out of order) or a
// non-commutative monoid checks the forms a kernel would execute.
// RunExclusive emulates the exclusive scan built on it.
package warp
