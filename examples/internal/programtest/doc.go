// Package programtest tests what every example program shares, through the
// program's run function: every topology at several widths, help, and bad
// usage reported as a program.UsageError.
package programtest
