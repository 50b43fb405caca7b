package network

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// compareNames is a total order: every triple of names it orders is
// ordered the same way two by two, numbered names by their numbers.
func TestCompareNamesTotal(t *testing.T) {
	names := []string{"l", "l0", "l1", "l2", "l9", "l10", "l01", "l2x", "a", "a1", "ab", "max_depth", "seed", "k", "f"}
	for _, a := range names {
		assert.Equal(t, 0, compareNames(a, a))
		for _, b := range names {
			assert.Equal(t, -compareNames(b, a), compareNames(a, b), "%s %s", a, b)
			for _, c := range names {
				if compareNames(a, b) < 0 && compareNames(b, c) < 0 {
					assert.Negative(t, compareNames(a, c), "%s < %s < %s", a, b, c)
				}
			}
		}
	}
	assert.Negative(t, compareNames("l9", "l10"))
	assert.Negative(t, compareNames("l", "l0"))
}
