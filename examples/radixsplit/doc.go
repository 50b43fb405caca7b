// Command radixsplit does one step of a radix sort with prefix networks: a
// stable partition of random bytes by one bit, those with the bit clear first,
// each element placed by two scans of flags, one for the clear bits and one
// for the set bits.
//
// The scans run over a Sklansky network (minimum depth) unless the -t flag
// names another topology (any topology prefixgen list names; -param name=V
// sets its parameters, such as k=1 for ladner-fischer). The result is
// checked against a plain loop that appends the elements with the bit clear
// and then those with it set, one by one.
//
// Usage:
//
//	radixsplit [-t TOPOLOGY] [-param k=V] [-n N] [-bit B] [-seed S]
package main
