// Package block lowers a prefix network of any width up to 2048 onto the
// shared memory of one CUDA thread block, and emulates the result in Go so
// that the lowering is proven without a GPU.
//
// The textbook GPU scans are prefix networks wider than a warp: Blelloch's
// up-sweep/down-sweep over 1024 or 2048 elements is Brent–Kung, Hillis and
// Steele's is Kogge–Stone. Lower turns any network into a Program: every
// signal of the network gets a slot of a shared-memory array, and each level
// of the network becomes one round in which the block's threads take the
// level's cells round-robin (thread t takes cells t, t + Threads, …), each
// reading two slots and writing one, followed by one __syncthreads().
//
// Slots are allocated so that no round reads a slot another cell of the same
// round writes, and no two cells of a round write one slot: a cell writes
// over its column's value in place when nothing else reads that value later
// (Brent–Kung, Sklansky), and into a spare slot otherwise (Kogge–Stone, whose
// every level still reads the values it replaces, gets a second copy of each
// column: a double buffer, found rather than assumed). One barrier per level
// is therefore enough, and Run checks it: it executes each round the way a
// block may, every read of the round before any write, and reports a race
// if a slot is read and written, or written twice, by different cells of one
// round.
//
// With padding (the default), slot s lives at index s + s>>5 of the array,
// the bank-conflict-free layout of Harris, Sengupta and Owens (GPU Gems 3,
// chapter 39): strided accesses by powers of two spread over the 32 banks
// instead of landing on one. Conflicts counts the extra bank transactions a
// program costs, so that padded and unpadded layouts can be compared
// without a GPU.
//
// Run is generic over simulate.Monoid, so the same check covers the
// non-commutative monoids the GPU scans serve: Interval, Matrix2, affine
// maps and the segmented lift (package gpukernels runs every topology over
// simulate.Affine and simulate.Segmented through it).
//
// RunExclusive emulates the exclusive block scan from an initial value;
// over simulate.Segmented, with RestartSegment, an item that starts a
// segment gets the initial value, as the emitted ExclusiveScan gives it.
//
// Package gpukernels emits a Program as CUDA (Options.Block = "shared"):
// one loop per round over the round's cells, round-robin over the block's
// threads as here, each followed by one __syncthreads(), with the cells'
// padded indices written as closed forms where the slots follow one and as
// tables otherwise; its tests read the emitted rounds back and compare them
// with the Program cell by cell.
package block
