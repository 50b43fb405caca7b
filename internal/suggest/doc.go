// Package suggest finds the word a user most likely meant when a name they
// typed is unknown: a topology, a format, a command ("did you mean
// kogge-stone?").
package suggest
