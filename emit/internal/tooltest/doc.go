// Package tooltest finds the outside tools (iverilog, verilator, yosys, dot)
// that tests run on what package emit writes. A test that needs a missing
// tool is skipped with a line that names it, unless the environment variable
// PREFIXGEN_REQUIRE_TOOLS is 1, as in CI: then the test fails.
package tooltest
