// Package bench times the scans of package gpukernels on a GPU beside CUB.
//
// Harness writes the benchmark program: every network's headers, the
// kernels of the warp and block benchmarks and of the applications, and
// harness.cu, the host program that runs every kernel beside CUB and
// cudaMemcpy, checks each result against a CPU loop and prints a
// BenchReport as JSON. Bench builds it with nvcc and runs it; Suite builds
// the tables of DefaultSuite at once, runs them under compute-sanitizer and
// then alone, and writes one report per table. ReadBenchReport reads a
// report back and Markdown writes it as tables.
//
// Every outside tool (nvcc, the harness, compute-sanitizer) runs through
// internal/toolrun, in its own process group with a time limit
// (BuildOptions.ToolTimeout, SuiteOptions.ToolTimeout). Verdicts are read
// from what the tools print, never from an exit status alone: nvcc has
// built only when it exits 0, the harness binary is there and ptxas has
// reported its kernels (ErrNoBuild otherwise); the harness has run only
// when it prints its report (ErrNoReport otherwise), whose results say
// whether every scan was right; compute-sanitizer has checked only when its
// log ends with an error summary. A tool that fails, crashes or runs out of
// time is reported as such, in one escaped line. A missing nvcc or CUDA
// device is a *MissingError: without a GPU the harness says "no CUDA
// device". docs/cuda.md describes what the harness measures.
package bench
