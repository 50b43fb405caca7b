// Command adder64 builds a 64-bit adder around a prefix network, verifies it
// with simulate.VerifyAdder and prints the network's figures.
//
// The network is Kogge–Stone unless the -t flag names another topology (any
// topology prefixgen list names; -param name=V sets its parameters, such as
// k=1 for ladner-fischer). The adder is checked against a plain loop twice
// over: every result of the corner and exhaustive phases against math/big,
// and the random vectors against carry.Ripple, the bit-serial ripple-carry
// loop, itself tied to math/big one vector per batch.
//
// Usage:
//
//	adder64 [-t TOPOLOGY] [-param k=V] [-vectors V] [-seed S]
package main
