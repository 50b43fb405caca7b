// Package cleanup removes what a run leaves half done when a signal stops
// it: the temporary file that becomes an output file only once written
// whole, and the temporary folders the tools work in. Code makes one with
// CreateTemp or MkdirTemp (or Track), which register it as they make it,
// and drops it with the function they return once it is renamed into
// place or removed; the command's signal handler calls RemoveAll before it
// exits, so that an interrupted command leaves neither a half-written file
// nor a folder behind. Making and registering is one step under the
// registry's lock: a signal between the two would leave the file.
//
// It lives at the root of the module, as internal/tooltest does, because
// emit, physical, gpukernels and cmd/prefixgen all need it.
package cleanup
