// Package gputest holds what the tests of gpukernels, gpukernels/warp and
// gpukernels/bench share: the networks they lower (every family of the
// registry, networks that need spare registers, random networks), and the
// compilers they check the generated CUDA with: clang-14 compiling to PTX
// or type-checking host code without a CUDA toolkit, against the
// declarations in gpukernels/testdata (prelude.cuh, hoststub), and nvcc.
// Every clang-14 run of one test binary shares one pool of one run per
// CPU, so that tests run in parallel do not crowd the machine.
//
// It is a package of the tests: nothing outside them imports it.
package gputest
