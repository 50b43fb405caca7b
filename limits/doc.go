// Package limits refuses, before a command starts its work, a request the
// machine cannot finish: it estimates the memory a request's networks and
// what it writes of them need, from the width and the format, and the size
// of a text diagram, and returns a one-line error that names the largest
// width that fits. A huge width then ends in that line, never in the
// runtime's out-of-memory crash or in a file that fills the disk.
//
// Its estimates are measured costs of what the packages below build (a
// network's cells, emit's writers), with room; the text diagram's size is
// emit.TextSize, the rows Text draws counted without drawing them.
package limits
