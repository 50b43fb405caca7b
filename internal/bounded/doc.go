// Package bounded reads outside input up to a size: a file too large, a
// FIFO that never ends or a gzip stream that inflates without end is
// refused with a *TooLargeError once it passes the size, never read until
// memory runs out.
package bounded
