// Command prefixgen builds parallel-prefix networks, proves them, measures
// them and writes them out.
//
// Usage:
//
//	prefixgen list                                   topologies, parameters, descriptions
//	prefixgen gen     -t TOPO -n N [--param k=V] [-f json|text] [-o FILE]
//	prefixgen gen     --from FILE [-f json|text] [-o FILE]
//	prefixgen stats   -t TOPO[,TOPO…]|all -n N [--param k=V] [-f table|json|csv]
//	prefixgen verify  -t TOPO[,TOPO…]|all -n N [--vectors V] [--seed S]
//	prefixgen compare [-n N[,N…]]                    every topology side by side (default n = 64)
//	prefixgen synth   -t TOPO[,TOPO…]|all -n N [--liberty LIB [--dont-use 'GLOB …']] [--flow keep|abc] [-f table|json|csv]
//	prefixgen version                                the version, the commit and the outside tools (--version, -v)
//	prefixgen completion bash|zsh                    the shell's completion script
//
// Exit status: 0 success, 1 the work failed (a verification mismatch, a
// file that could not be written), 2 bad usage or bad input. Every error is
// one line on standard error; 128 + N after signal N (SIGINT, SIGTERM,
// SIGHUP), with nothing half written left.
//
// Whole-number flags take decimal digits only: -n 010 is 10, and Go's
// other literals (0x10, 0b101, 0o10, 1_000), which urfave/cli's integer
// flags would read, are refused (flags.go). prefixgen help COMMAND
// [SUBCOMMAND] prints what COMMAND [SUBCOMMAND] --help prints, which ends
// with examples (examples.go). A flag that takes one value is refused when
// given twice; an unknown name close to a known one gets "did you mean".
//
// --from reads a prefixgen.network/v1 document (a network, the plain adder
// around it) or a prefixgen.adder/v1 one (a network and the sparseness,
// valency, Ling carries, pipeline and library cells of the adder around it;
// see package adder).
//
// The command only parses flags and prints; the work is done by the packages
// network, topologies, simulate and emit.
package main
