// Package emit turns a network into the files people read and tools consume.
//
// This formats are JSON (the prefixgen.network/v1 document of package
// network), a plain-text textbook diagram (Text), the textbook picture as
// Graphviz DOT with pinned positions (DOT) and as SVG drawn without Graphviz
// (SVG), and the tables of figures that the stats and compare commands print
// (Table, CSV, StatsJSON). Every
// emitter takes a *network.Network and never knows which topology made it,
// and every one is deterministic: the same network gives the same bytes.
//
// The fan-out printed everywhere is the logical, unbuffered fan-out of package
// network (cells reading a signal, plus one if it is an output), not Harris's
// per-level lateral fan-out with buffers: Kogge–Stone gets log2 n + 1 here
// where Harris's taxonomy gets 2.
package emit
