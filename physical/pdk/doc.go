// Package pdk holds the standard-cell libraries prefixgen knows by name and
// their platforms' records, as OpenROAD-flow-scripts keeps them
// (flow/platforms/*/config.mk).
//
// Open turns what a user gives --liberty into a Library: a name (osu018
// and osu035, Debian's files; sky130hd and asap7, carried in this package's
// folder, compressed, with their licences), the path of a Liberty file,
// plain or gzip, paths separated by commas (the files of one library, as
// ASAP7's five), or a folder of them. The files are read by package
// liberty, once per process, and must agree on their units and templates.
//
// A library whose library group's name is a platform's (RecordFor:
// sky130_fd_sc_hd__…, NangateOpenCellLibrary, asap7sc7p5t_…) carries that
// platform's Record, however it was given: the cells never to use, the
// driver cell and output load ABC assumes, and the tie and buffer cells.
// Nangate45 is not carried (its licence does not allow it): its record
// applies to the user's own file. A dont-use list that leaves no cell for a
// basic function the library has is bad input.
//
// File gives the one plain Liberty file Yosys and OpenSTA read: the
// library's own file where it is one plain file with nothing to mark, else
// one written once per process into a private temporary folder (removed by
// RemoveWritten, or at the process's end through internal/cleanup as
// prefixgen's command ends): the first file's header,
// every file's templates and cells, the cells not to use marked
// dont_use : true, and the power tables, which no tool of the flow reads,
// left out.
package pdk
