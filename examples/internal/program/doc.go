// Package program holds what the example programs share and nothing of
// their subject: the -t and -param flags that choose a network, the
// difference between bad usage (exit status 2) and a failed check (exit
// status 1), and the printing of the head of a long list.
package program
