// Package layers reads the floors of docs/architecture.md and checks an
// import graph against them: an import points to a lower floor, or within
// one table entry (a package and those under its folder, named together).
//
// Its test runs the check over the module's own import graph, so that no
// import runs back up the house unnoticed.
package layers
