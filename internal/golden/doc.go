// Package golden holds the tests' golden files: the exact bytes a test
// expects, kept beside it (testdata/*.golden, and the figures under docs/
// that the README shows).
//
// Check compares what a test produced with its file; Tree lists a folder
// whole, for a test to compare. When the test binary
// is given -update (go test ./emit -update), Check first rewrites the file
// with what the test produced, so that a deliberate change is refreshed by
// one command and reviewed in git diff. A mismatch names the file and the
// command that refreshes it.
//
// The -update flag is registered here, once per test binary that imports
// the package; tests must not register a flag of that name themselves. Only
// tests import it.
package golden
