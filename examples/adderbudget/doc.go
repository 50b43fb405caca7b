// Command adderbudget answers a hardware designer's question with the
// physical package: which prefix adder is the smallest that is a given
// fraction faster than the adder Yosys builds for a + b + cin?
//
// It builds every topology of the registry at its default parameters and
// the given width (leaving out a network with the cells of an earlier one:
// Knowles s=0 and Harris f=0 l=0 are Kogge–Stone), puts each adder and Yosys's own through the synthesis and
// static-timing flow (Yosys onto a Liberty library, then OpenSTA; see package
// physical), and prints them by area, marking the ones within the delay
// budget: Yosys's adder's delay less -faster per cent. It ends with the
// smallest adder within the budget, or says that none is and exits with
// status 1. It needs yosys and sta (Debian packages yosys and opensta) and
// the library (Debian qflow-tech-osu018 for the default).
//
// Usage:
//
//	adderbudget [-n N] [-faster P] [-flow keep|abc] [-liberty osu018|osu035|sky130hd|asap7|FILE[,FILE…]|DIR]
package main
