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
// A missing nvcc or CUDA device is a *MissingError: without a GPU the
// harness says "no CUDA device". docs/cuda.md describes what the harness
// measures.
package bench
