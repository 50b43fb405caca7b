// Package cleanup removes what a run leaves half done when a signal stops
// it: the temporary file that becomes an output file only once written
// whole, and the temporary folders the tools work in. Code that makes one
// registers it with Add and drops it with the function Add returns once it
// is renamed into place or removed; the command's signal handler calls
// RemoveAll before it exits, so that an interrupted command leaves neither
// a half-written file nor a folder behind.
//
// It lives at the root of the module, as internal/tooltest does, because
// emit, physical, gpukernels and cmd/prefixgen all need it.
package cleanup
