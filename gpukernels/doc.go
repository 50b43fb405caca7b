// Package gpukernels lowers a prefix network to a warp program: the steps
// that 32 CUDA lanes run in lockstep to scan 32 values, one per lane, with
// shuffles. Run emulates such a program in Go over any monoid, so that a
// lowering is proven against simulate.Scan without a GPU.
//
// # The register model
//
// Lane i holds column i of the network. A signal lives in the lane of its
// column (the highest position of its span), and never moves lanes: a cell
// sits in the column of its Hi operand, so its result stays in the lane
// that holds its right operand, and only its Lo operand crosses lanes,
// through a shuffle. Each lane has Program.Registers registers: register 0
// is the running value v, the newest value of the lane's column, and the
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
// operand, as everywhere in prefixgen. Lower always writes register 0.
//
// The shuffle reads every lane before any lane writes, so the cells of one
// step may read values that the same step replaces: Kogge–Stone's lane i
// reads lane i−d's value of the previous level while lane i−d replaces it.
// This is the very thing sequential code gets wrong when it updates columns
// in place in the wrong order, as Yosys's and CIRCT's Kogge–Stone did.
//
// # Lowering
//
// Lower groups the cells by level (as soon as possible, network.Level) and
// makes one step of each level, in cell order. A level is split into more
// steps only where one step cannot hold it: when two of its cells share a
// column (a lane combines at most once a step), or when its cells read
// their Lo operands from different registers (a shuffle reads one register
// of every lane) or their Hi operands from different registers. Steps that
// combine nothing are never emitted. Every topology of the registry lowers
// to exactly Depth steps, Size combines and one register.
//
// # Why copies are needed
//
// Register 0 holds the newest value of a column, but a network may go on
// reading an older one: a cell may take as Lo, or as Hi, a signal that a
// later cell of the same column has already replaced. Networks read from a
// file can do anything their spans allow, and splitting a level can make
// one step overwrite what the next step of the same level still reads. A
// lowering that read register 0 regardless would read the wrong value, a
// mistake an idempotent operator such as Max can hide. Lower instead tracks the
// register holding every signal. Before a step overwrites register 0 of a
// lane whose value is still needed (a later cell reads it, or it is an
// output), a Copy saves it into the lowest spare register of that lane that
// holds nothing still needed and is not read by the step; the cells that
// read it later shuffle from, or combine with, that spare. Program.Final
// copies outputs left in spares back to register 0 at the end.
//
// # Shuffles and predicates
//
// Every step records its source lanes and its active lanes exactly, in
// SrcTable and Active, and also as a closed form a kernel can compute
// cheaply, equal to the table and the mask on all 32 lanes. Every lane runs
// every shuffle with the full member mask, as CUB's warp scans do; only the
// combine is predicated. The source forms, tried in this order, are
//
//   - SrcBroadcast D: lane (lane &^ (2D−1)) | (D−1), the last lane of the
//     lower half of the lane's block of 2D lanes: __shfl_sync(mask, r, D−1,
//     2D), one shuffle within segments of 2D lanes (Sklansky, and Brent–Kung's
//     up-sweep);
//   - SrcUp D: lane − D: __shfl_up_sync(mask, r, D), where a lane below D
//     reads its own value (Kogge–Stone);
//   - SrcTable: lane SrcTable[lane]: __shfl_sync(mask, r, SrcTable[lane]),
//     the source lane taken modulo 32 as CUDA does.
//
// Broadcast is tried before Up because both fit wherever only lanes with
// bit D set read lane − D, such as level 1 of Sklansky, and Sklansky's steps
// then read as broadcasts throughout. Lanes that do not combine read what
// the closed form gives them, and their own lane under a table. The
// predicate forms, tried in this order, are PredRange (From ≤ lane < To),
// PredBit (lane & Bit ≠ 0), PredMod (lane % Mod = Rem), each of the last two
// bounded by From ≤ lane < To only where the bound matters, and the
// fallback PredMask ((Active >> lane) & 1).
//
// As-soon-as-possible levels pull some cells of Brent–Kung's down-sweep and
// Han–Carlson's even columns into earlier levels, where their sources no
// longer fit a closed form; those steps use tables, which CUDA writes as
// bit planes of immediates (below), not as memory.
//
// # Emulation
//
// Run executes a program on 32 emulated lanes: lane i < Width starts with
// input i, every other lane and every spare with the monoid's identity. It
// computes sources and predicates from the closed forms, with CUDA's
// shuffle semantics, rather than from the tables, so that a run over
// simulate.Interval (which panics on any combine out of order) or a
// non-commutative monoid checks the forms a kernel would execute.
//
// # CUDA
//
// CUDA writes a header-only library from a network of width 1 to 32 (2 to
// 2048 with the shared-memory block scan, below), from
// text/template files embedded in the package, headed "// Code generated
// by prefixgen; DO NOT EDIT." with the network's figures, the program and
// the tuning. In the style of CUB's warp_scan_shfl.cuh, everything is
// templated on the value type T and the operator functor, which is called
// as scan_op(earlier, later); every lane runs every shuffle with the member
// mask of its logical warp and only the combine is predicated. Each step of
// the program becomes one call of detail::StepUp (SrcUp: __shfl_up_sync by
// D) or detail::StepIndex (every other step: __shfl_sync of a computed
// source lane) and one predicated combine. No step reads memory: a source
// with no closed form is written as bit planes of 32-bit immediates
// (LaneExpr), never a __constant__ table, whose divergent lane-indexed reads
// the constant cache would serialize. For 32-bit built-in operators (int32
// and uint32 add, min, max, and, or, xor; float add) the step is inline PTX
// in the manner of cub::WarpScan: shfl.sync.up.b32 r|p, or for StepIndex an
// idx shuffle whose clamp is kSegment − 2 and whose source is pushed past
// the clamp on the lanes that do not combine, so that the shuffle's own
// predicate p is exactly the step's predicate, and the combine is one
// instruction guarded by @p: no comparison and no select on the path, and
// Kogge–Stone at 32 lanes is 5 shfl.sync.up and 5 add.s32 at -O3 (the PTX
// tests count it; float max and min keep their comparison). Float max and
// min treat a NaN as missing (IEEE 754 maxNum and minNum, as fmaxf does),
// so that they stay associative with NaNs in the input and every network
// gives the same prefixes; a prefix of NaNs alone is NaN. Other types and operators shuffle 32-bit words and
// predicate the combine with the closed form of Pred written out
// ("(lane & 2) != 0 && lane < 6") or a test of the Active mask. Spare
// registers and copies are emitted as the program has them. A value wider
// than 32 bits moves as 32-bit words. Everything lives in namespace
// prefixgen::NAME (DefaultNamespace: topology, parameters, width, type,
// operator), so that headers of several networks can be included together:
//
//   - WarpNetwork::InclusiveScan, WarpInclusiveScan (optionally with the
//     warp aggregate) and WarpExclusiveScan (from an initial value, or
//     undefined on lane 0 as in CUB), by shifting the inclusive scan one
//     lane up.
//   - Logical warps: a network of width w runs in segments of Segment(w)
//     lanes, w rounded up to a power of two, so a hardware warp holds
//     32/Segment(w) logical warps (width 16: two; width 5: four segments of
//     8, lanes 5 to 7 of each holding no value). Every lane of a segment
//     calls; the shuffles take the segment width.
//   - BlockScan<T, ScanOp>: each thread reduces ItemsPerThread items
//     serially, each logical warp scans its thread totals with the
//     network, the first hardware warp scans the warp totals with a second
//     generated network (Options.Totals: by default the same family at the
//     number of logical warps, Kogge–Stone for a network of no family), and
//     each thread combines its prefix into its items. A block has at most
//     32 logical warps, so that one warp scans their totals.
//   - DeviceInclusiveScan and DeviceExclusiveScan (and the non-template
//     InclusiveScan and ExclusiveScan over the header's type and operator,
//     the latter from the operator's identity, or from an initial value for
//     a functor): a single-pass scan with decoupled look-back (Merrill and
//     Garland, 2016) with 64-bit indices, for up to (2^31 − 1) tiles of
//     ItemsPerThread × threads items. Tiles are handed out by an atomic
//     counter in the order blocks start, so a block only waits for blocks
//     already running. A tile publishes its aggregate, looks back over a
//     window of LookBack predecessors at once (one per lane, waiting until
//     none is invalid, stopping at the nearest inclusive prefix and folding
//     the aggregates in order) and publishes its inclusive prefix. A value
//     of at most 8 bytes and its flag share one 16-byte word, written by
//     one st.relaxed.gpu.v2.u64 and read by one ld.relaxed.gpu.v2.u64, as
//     CUB's tile state does, so that a window costs one L2 round trip; a
//     wider value has a flag array and two value arrays (aggregates and
//     inclusive prefixes, so that a reader never sees one replace the
//     other), the value stored before the flag's st.release.gpu and read
//     after its ld.acquire.gpu; no membar. A look-back that finds a tile
//     still invalid backs off with nanosleep (16 ns doubling to 256 ns, on
//     sm_70 and later). Full tiles are moved through a shared-memory
//     exchange, as CUB's BLOCK_LOAD_WARP_TRANSPOSE: each hardware warp
//     loads its consecutive items in warp-striped order, as 16-byte
//     vectors from the first 16-byte boundary on (a misaligned head and
//     the tail as single words), and each thread then reads its own
//     consecutive items from shared memory (word k at k + k/32: the
//     warp's striped and vector writes hit 32 banks, and the threads'
//     reads do when a thread's words, items per thread × words per item,
//     are a power of two; at most other strides two threads share a bank;
//     at the few strides where padding would put many threads on one bank,
//     31 and 62 words among them, word k lies at k, the threads' moves
//     free of conflicts and the vectors' four to a bank); stores go back
//     the same way, with the output's own alignment. Only the last,
//     partial tile moves item by item. The temporary storage may start at
//     any address: as CUB does, the size asked for has room to round its
//     start up to 256 bytes. Called with too little of it
//     (temp_storage_bytes below what the sizing call returned), a device
//     scan returns cudaErrorInvalidValue and launches nothing, as CUB does. In a segmented exclusive scan, an
//     item that starts a segment gets the initial value (Identity() for
//     ExclusiveScan), as Thrust's exclusive_scan_by_key: [0, 1, 0, 3] for
//     add over [1, 2, 3, 4] with heads at 0 and 2.
//   - For Op "carry": the carry monoid over (g, p) packed as g | p << 1,
//     WarpBigAdd (each lane adds its two limbs, uint32 or uint64, and forms
//     (g, p); the network resolves the carries) and BigAddKernel, in which
//     one logical warp of 32 lanes adds two 1024-bit integers.
//
// Types are int32, uint32, int64, uint64, float and double (int32_t …
// double in C++); operators add, max, min, and, or, xor (integers only),
// carry, affine (float and double only) and FunctorPrefix + NAME for a
// user's functor (CheckFunctor: C++ identifiers joined by "::"), which the
// including code defines before the header, as a struct whose const
// __device__ operator()(a, b) is associative with a before b; a functor
// has no identity, so its ExclusiveScan takes the initial value. Tuning
// (Options): ItemsPerThread and BlockThreads (a multiple of 32, at most
// 32 logical warps), by default CUB's sm_90 scan policies (DefaultTuning:
// 128 × 24 for 4-byte values, 224 × 24 for 8-byte values, 128 threads of
// 60/bytes items for structs), and LookBack (default 32 tiles). Every
// kernel is __launch_bounds__(kBlockThreads), and ScanTotalsKernel, the
// grid's only block, __launch_bounds__(kBlockThreads, 1).
//
// # Three-pass scans
//
// Beside the single pass, every header has DeviceInclusiveScanThreePass and
// DeviceExclusiveScanThreePass (and InclusiveScanThreePass,
// ExclusiveScanThreePass), reduce-then-scan built from the same block
// scan: ReduceTilesKernel reduces every tile and writes its total (reading
// every item, writing none), ScanTotalsKernel (one block) replaces the
// totals with their exclusive scan kTileItems at a time, carrying the
// running total in its prefix functor, and ScanTilesKernel scans every
// tile again after its offset (reading and writing every item): 3n
// transfers where the look-back makes 2n; the harness times both. A
// single tile skips the first two passes. The temporary storage holds the
// tile totals.
//
// # Affine and segmented scans
//
// The operator affine scans maps x ↦ a·x + b (struct AffineMap {T a, b;},
// T float or double; affine over an integer type is refused): scan_op(p, q)
// is q ∘ p, {q.a·p.a, q.a·p.b + q.b}, p applied first, exactly
// simulate.Affine's composition (AffineA and AffineB are the two
// expressions; a test evaluates them against simulate.Affine). The
// inclusive scan of the maps of x_i = a_i·x_(i−1) + b_i, applied to x_(−1),
// gives every x_i: a first-order linear recurrence is one scan.
//
// Options.Segmented names the integer type of head flags (a floating-point
// or unknown type is refused); every scan of the header then runs over
// struct SegmentedValue {value; head;} with ScanOp the segmented lift of
// the operator, BaseOp, as simulate.Segmented lifts a monoid: the value
// restarts at every head and the heads are or-ed. It works with every
// operator, functors and affine included. Values wider than 32 bits pass
// through shuffles and the look-back as 32-bit words (the look-back stores
// them before the flag's release store and loads them after its acquire
// load, as for every value of more than 8 bytes).
//
// # Shared-memory block scans
//
// With Options.Block = BlockShared, CUDA takes a network of 2 to 2048
// columns, lowers it with package block onto one block's shared memory,
// and builds the block and device scans on it instead of on warp
// shuffles; the header has no warp scans and no BigAdd. SharedNetwork::Run
// is the program: a __syncthreads() after the block has stored its column
// totals, then, for each round (level), a loop in which thread t runs cells
// t, t + kThreads, … and one __syncthreads(): exactly rounds + 1 barriers.
// Each cell reads slots lo and hi and writes out, at padded indices
// (Index(s) = s + s>>5, GPU Gems 3 ch. 39, unless Options.NoPad). The slots
// of a round's cells are written as at most four closed-form pieces, each
// slot c0 + c1·(j >> s) + c2·(j & (2^s − 1)) of the cell's index j within the
// piece (arithmetic progressions, and Sklansky's groups), and otherwise read
// from a __device__ table of the cells' padded indices (unsigned short,
// three per cell: global memory, as a Kogge–Stone of 2048 columns has about
// 20,000 cells, more than constant memory's 64 KB); the input and output
// slots of the columns likewise. The default block has one thread for two
// columns (⌈width/2⌉ rounded up to whole warps, at most 1024); thread t
// holds kColumnsPerThread consecutive columns of kItemsPerColumn
// consecutive items, reduces each column serially into its slot, and after
// the network scans each column after the block's prefix and the previous
// column's. ItemsPerThread must be a multiple of the columns per thread
// (default: 8 rounded up to one). The shared array takes kArrayLen values,
// stated in the header in bytes; every kernel takes its shared memory as
// dynamic shared memory, and the launchers opt in with cudaFuncSetAttribute
// above SmallSharedBytes (48 KB), as a 2048-column Kogge–Stone of segmented
// double affine maps needs about 100 KB (Volta and later allow 96 to 227 KB
// per block).
//
// # Checking without a GPU
//
// The tests read each emitted warp program back from the CUDA text —
// shuffles, source lanes, predicates (evaluated as Go constant
// expressions), copies — check it lane by lane against the Program and run
// it over simulate.Interval. They read each shared-memory network back
// likewise — every round's closed forms (which read the same in Go) or
// table, cell by cell, the input and output slots, and the number of
// __syncthreads() — check it against block.Lower and run the cells read
// back through block.Run, which refuses a race, over Interval; for every
// topology at widths from 2 to 1024, padded and not, and for fuzzed
// networks and options. The emulators run every topology's warp and block
// programs over simulate.Affine and its segmented lift. Golden files in
// testdata/*.golden pin a few headers (go test -update rewrites them); and
// Debian's clang-14 compiles to PTX every topology at width 32 and at
// narrower widths, every type and operator, the tuning extremes and bigadd,
// the shared-memory block scans of every topology at 1024 columns and of
// odd widths from 2 to 2048, padded and not, affine and segmented scans,
// the three-pass scans, and the whole device side of the harness, with
// testdata/prelude.cuh mapping the intrinsics to clang's __nvvm_* builtins.
// The command line is DESIGN.md's but for the architecture: clang-14
// refuses sm_90, so the check compiles for sm_80 (PTX 7.0). The host side
// of the harness, which only nvcc builds, is type-checked by clang-14
// (-fsyntax-only) against testdata/hoststub, declarations of the CUDA
// runtime and CUB functions it calls with their signatures. The PTX of the
// device scans of every type and operator (segmented, affine and
// shared-memory ones too) is read instruction by instruction: no local
// memory in any scan kernel, no membar, the look-back's one 16-byte relaxed
// load and store for values of up to 8 bytes and acquire/release flags for
// wider ones, a nanosleep back-off, 16-byte vectors for full tiles, and a
// pass 1 that stores no item. The launchers run on the CPU, compiled by
// clang-14 as host code with the launches recorded: sizing, the refusal of
// short temporary storage, the kernels launched and their grids. Where
// nvcc is installed (Debian's CUDA 11.8 in CI), the harness and a user's
// struct functor are built for sm_90 with warnings as errors, so that
// ptxas assembles the inline PTX, and the harness's own device scans are
// held free of spills. None of this runs a kernel: Bench and Suite do, on
// a GPU. They have run on an NVIDIA H200 (docs/gpu-results.md): every
// result matched the CPU, and racecheck's one finding, the exchange
// sharing a 16-byte load with the block scan's prefix, is fixed.
//
// # Benchmark
//
// Harness writes the benchmark program: the headers (per network: the
// scans of the type and operator, bigadd, a shuffle block scan of 512
// threads and about SharedWidth = 1024 items, float affine maps, segmented
// scans with uint32 flags, int32 sums for the applications, and the
// network's family at 1024 columns in shared memory, padded and not, for a
// network of a registered family), harness_kernels.cuh (input fill, the
// warp and block benchmarks and the applications' kernels, device code
// that the clang-14 check compiles) and harness.cu (the host program, which
// needs nvcc and CUB). In one process it runs cudaMemcpy device to device;
// cub::DeviceScan and each network's single-pass and three-pass scans,
// inclusive and exclusive; the warp microbenchmark beside cub::WarpScan;
// the block benchmark, one block per SM each scanning its tile 256 times,
// reported in nanoseconds per block, for cub::BlockScan (512 threads × 2
// items), each network's shuffle block scan and its family in shared
// memory padded and not (the classic comparison of Hillis–Steele,
// Blelloch and conflict-free Blelloch at 1024 elements per block); affine
// and segmented scans, single-pass and three-pass; bigadd; and the
// applications, in elements per second: stream compaction (flags, an
// exclusive int32 scan, a scatter), the radix-sort split by bit 0 (two flag
// scans, a stable scatter) and the recurrence x_i = a_i·x_(i−1) + b_i (an
// affine scan and an apply). It checks every result against a CPU loop
// (exactly for integers, within 1e-5 relative for floating point, whose
// inputs are chosen so that the results are exact anyway: the recurrence's
// a_i are ±1 and its b_i −1, 0 or 1); times each with CUDA events, the
// median of at least 20 runs after warm-up; and prints a BenchReport as
// JSON. The device scans run at every size of BenchOptions.Sizes
// (DefaultBenchSizes: 2^28, 2^20, 1, 31, 2049, 2^20 + 17, 2^28 − 1), with
// both arrays aligned and one item past an aligned address, each checked;
// sizes under 2^20 are timed as batches of launches between one pair of
// events. CUB's baselines take CUB's fast path: InclusiveSum and
// ExclusiveSum for add, CUB's own maximum and minimum functors for max and
// min, and CUB's own sum functor in the warp and block baselines, whose
// predicated shuffle-and-add steps CUB writes for it alone. Every network's scans are also shown to refuse temporary storage
// one byte short, and the segmented scans run exclusive as well. With
// --sanitize the harness runs every kernel once at SanitizeSizes and
// SanitizeItems, untimed, for compute-sanitizer. Bench builds it with nvcc
// -O3 -arch=native -Xptxas -v and runs it; the report gains nvcc's command
// line and ptxas's registers, stack frame, spills and shared memory for
// every kernel (ParsePTXAS). A missing nvcc or device is a *MissingError.
// The JSON has the keys of the issue, and "scan" (inclusive or exclusive),
// "ns_per_block", "elements_per_s", "offset" and "batch" besides.
//
// # The suite
//
// Suite is the one command for a GPU machine (prefixgen cuda bench --suite
// DIR; a static prefixgen built with CGO_ENABLED=0 needs no Go there): it
// builds every table of DefaultSuite (int32 add over every topology, three
// to a table; float max and int64 add over four) at once, one nvcc each; runs every harness
// with --sanitize under compute-sanitizer's memcheck, racecheck and
// synccheck, at once; runs each harness alone; and writes DIR/TABLE.json,
// the report with the sanitizer runs; each timed run writes a line per
// result to DIR/TABLE/run.log as it comes (the harness's --progress). The
// tests run it with a fake nvcc and a fake compute-sanitizer. On an H200
// its builds and sanitizer runs ran, but not its timed runs, which outlasted
// their limits when int32 add over all nine topologies was one table
// (docs/gpu-results.md); the tables of three, the other benchmarks at
// SuiteItems and the checks through pinned memory have not run yet.
//
// # Reports
//
// ReadBenchReport reads a report back from its JSON, and Markdown writes it
// as tables: the device scans at the largest size with their ratios to CUB
// and to cudaMemcpy, throughput by size, the other kernels, registers and
// spills, and whether every result was right (prefixgen cuda report).
// ParseSizes reads the device-scan sizes of cuda bench --sizes.
package gpukernels
