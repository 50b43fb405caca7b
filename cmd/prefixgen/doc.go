// Command prefixgen builds parallel-prefix networks, proves them, measures
// them and writes them out.
//
// Usage:
//
//	prefixgen COMMAND [options]
//
// The commands: list, gen, stats, verify, compare, check, cuda, explore,
// report, optimize, synth, map, version and completion; prefixgen --help
// lists them, and prefixgen help COMMAND gives every flag of one, with
// examples. docs/commands.md is the whole contract.
//
// Exit status: 0 success, 1 the work failed (a verification mismatch, a
// tool that failed), 2 bad usage or bad input (an -o that cannot be
// written among it). Every error is one line on standard error; 128 + N
// after signal N (SIGINT, SIGTERM, SIGHUP), with nothing half written
// left.
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
// The command only parses flags and prints; the work is done by the
// packages below it (docs/architecture.md).
package main
