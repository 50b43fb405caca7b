// Package gpukernels writes CUDA: a header-only library of warp, block and
// device-wide scans built from one prefix network, in the style of CUB.
//
// CUDA lowers a network of width 1 to 32 to a warp program (package warp)
// and writes it as shuffles, in every warp of a block (BlockShuffle) or in
// the first warp over raked thread totals (BlockRaking); or, with
// Options.Block = BlockShared, lowers a network of 2 to 2048 columns onto
// one block's shared memory (package block). On any block scan it builds a
// single-pass device-wide scan with decoupled look-back (Merrill and
// Garland, 2016) and a three-pass one.
// Everything is templated on the value type and on the operator, called as
// scan_op(earlier, later), and lives in namespace prefixgen::NAME
// (DefaultNamespace), so that headers of several networks can be included
// together. A header has
//
//   - WarpNetwork::InclusiveScan, WarpInclusiveScan and WarpExclusiveScan
//     (shuffle headers only);
//   - BlockScan<T, ScanOp>;
//   - DeviceInclusiveScan, DeviceExclusiveScan and their ThreePass forms,
//     and InclusiveScan and ExclusiveScan over the header's type and
//     operator;
//   - for Op carry, WarpBigAdd and BigAddKernel, a warp-wide adder of
//     multi-precision integers.
//
// Types lists the value types and Operators the built-in operators; a
// user's functor is FunctorPrefix + its C++ name (CheckFunctor), affine
// scans maps x ↦ a·x + b, and Options.Segmented makes every scan segmented.
// DefaultTuning holds the tile shapes an H200 ran fastest. Resolve says what CUDA makes of
// Options for a network.
//
// The header is rendered from the templates under templates/, one file per
// level as CUB splits its headers (util, operators, warp, block,
// block_shared, lookback, tile, device, bigadd), put together into one
// header by scan.cuh.tmpl. docs/cuda.md describes the generated code and how the tests hold it
// without a GPU: read back into Go and emulated, compiled to PTX by clang-14
// and read instruction by instruction, and built by nvcc where it is
// installed. Package gpukernels/bench builds the benchmark harness and runs
// it on a GPU.
package gpukernels
