// Package progress shows how far long work has come on standard error:
// done of total, and an estimate of the time left. On a terminal it
// redraws one line; forced where standard error is not a terminal (a log,
// CI) it prints a line every few seconds. Standard output is never
// touched, so that what a command prints stays the same bytes.
package progress
