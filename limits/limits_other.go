//go:build !unix || openbsd

package limits

// addressLimit returns 0: no address space limit is known.
func addressLimit() int64 { return 0 }
