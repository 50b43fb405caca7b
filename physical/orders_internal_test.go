package physical

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMedianDigits: the median of an even count is the mean of the middle
// two written with their digits, not with the rounding error of the sum
// (0.5891500000000001 in JSON and CSV).
func TestMedianDigits(t *testing.T) {
	for _, tc := range []struct {
		xs                      []float64
		median, least, greatest float64
	}{
		{[]float64{0.5892, 0.5891}, 0.58915, 0.5891, 0.5892},
		{[]float64{0.1, 0.2, 0.7}, 0.2, 0.1, 0.7},
		{[]float64{0.1, 0.2}, 0.15, 0.1, 0.2},
		{[]float64{733.0368, 720.9248, 702.0, 800.5}, 726.9808, 702, 800.5},
	} {
		median, least, greatest := medianMinMax(tc.xs)
		assert.Equal(t, tc.median, median, "%v", tc.xs)
		assert.Equal(t, tc.least, least)
		assert.Equal(t, tc.greatest, greatest)
	}
}

// TestSpreadOf: the design as written and two reorderings make a spread
// over two orders, with the median, least and greatest of each figure.
func TestSpreadOf(t *testing.T) {
	s := spreadOf([]*Result{{AreaUM2: 10, DelayNS: 1.5}, {AreaUM2: 12, DelayNS: 1.2}, {AreaUM2: 9, DelayNS: 1.4}})
	assert.Equal(t, &Spread{Orders: 2, AreaMedian: 10, AreaMin: 9, AreaMax: 12, DelayMedian: 1.4, DelayMin: 1.2, DelayMax: 1.5}, s)
}
