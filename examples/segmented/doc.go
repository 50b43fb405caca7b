// Command segmented computes segmented sums with a prefix network: running
// sums of random numbers that restart at every segment head, through the
// segmented lift of addition (simulate.Segmented over simulate.Add).
//
// The scan runs over a Han–Carlson network unless the -t flag names another
// topology (any topology prefixgen list names; -param name=V sets its
// parameters, such as k=1 for ladner-fischer). The result is checked against
// a plain loop that adds up and starts again at every head.
//
// Usage:
//
//	segmented [-t TOPOLOGY] [-param k=V] [-n N] [-seed S]
package main
