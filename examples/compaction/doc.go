// Command compaction does stream compaction with a prefix network: it keeps
// the elements of a random stream that pass a test, in their order, at the
// places an exclusive scan of the keep-flags gives them.
//
// The scan runs over a Brent–Kung network (work-efficient: fewer than 2n
// cells) unless the -t flag names another topology (any topology prefixgen
// list names; -param name=V sets its parameters, such as k=1 for
// ladner-fischer). The exclusive scan is the inclusive one of simulate.Eval
// shifted one place, with the identity 0 in front. The result is checked
// against a plain loop that appends the kept elements one by one.
//
// Usage:
//
//	compaction [-t TOPOLOGY] [-param k=V] [-n N] [-seed S]
package main
