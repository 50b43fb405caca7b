// Package stage writes a folder of results whole or not at all: a run
// writes into a temporary folder (Folder.Dir), made beside the folder the
// results go to so that moving them there is a rename, and only once the
// whole run has succeeded does Commit move what it wrote into that folder,
// made then. A run that fails, is refused or is stopped by a signal
// (package cleanup removes the temporary folder) leaves the folder as it
// was, and does not make it.
package stage
