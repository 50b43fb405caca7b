// Package toolrun is the one way prefixgen runs an outside tool (Yosys,
// OpenSTA, Icarus, Verilator, GHDL, Graphviz, nvcc, a GPU harness).
//
// Every run has a time limit, runs in a process group of its own that is
// killed whole when the context ends, when the limit passes or when
// prefixgen is stopped by a signal (KillAll), and dies with prefixgen
// should prefixgen be killed outright. Each run has a private TMPDIR,
// made for it and removed after it, so that a tool's own temporary files
// (Yosys's abc pass makes a folder) never outlive it. Its output is
// captured; Escape and FirstLine make what a tool printed safe to show on
// a terminal and in a table.
//
// A run's error says which tool failed and how (*ExitError, *TimeoutError,
// or the context's error), never what the tool's verdict on a design was:
// that is read from what the tool prints, by the package that runs it.
package toolrun
