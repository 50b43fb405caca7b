// Package liberty reads Liberty files, the standard-cell libraries of
// synthesis and timing tools: the one tokenizer and parser of them in
// prefixgen.
//
// Parse reads a file's groups, such as library (…) { cell (…) { pin (…)
// { timing () { cell_rise (…) { … } } } } }, with their simple attributes
// (name : value ;) and complex ones (name (value, …) ;), skipping what it
// does not understand: it never fails, and Yosys and OpenSTA, which read
// the file too, say whether it is well formed. Cells reads what the flow
// needs of every cell: its area, its input pins, its output pins'
// functions, whether it is a flip-flop (and on what clock) or a latch, and
// whether it is marked dont_use.
//
// ParseFunction reads a pin's function ("(!((A B)+C))"), and Eval
// evaluates one in any Algebra: a bdd.BDD, truth tables, plain bools.
//
// It imports nothing of prefixgen.
package liberty
