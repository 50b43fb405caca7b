// Package tooltest finds the outside tools the tests run on what prefixgen
// emits: iverilog, verilator, yosys and Graphviz for the hardware and
// pictures, clang-14 for the CUDA kernels, chromium for the HTML report,
// the cadical SAT solver for the optimizer's proofs of optimality, and
// OpenSTA (sta), GHDL and the OSU standard-cell libraries for the physical
// flow and the VHDL adders, and nvcc (Debian's CUDA 11.8) for the GPU
// benchmark harness. A test that needs a missing tool (Path) or file
// (File) is skipped with a line that names it, unless the environment
// variable PREFIXGEN_REQUIRE_TOOLS is 1, as in CI: then the test fails.
// Claims marks the tests that re-measure a figure docs/ reports: they run
// only with PREFIXGEN_CLAIMS=1, in CI's step of their own. Sweep and
// SweepOnly mark the sweeps, which go test ./... samples and CI runs
// whole with PREFIXGEN_SWEEPS=1.
//
// It lives at the root of the module, outside the packages the design
// lists, because Go lets an internal package be imported only from below
// its parent, and emit, gpukernels, optimize and cmd/prefixgen
// all need it.
package tooltest
