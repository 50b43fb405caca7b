package physical

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMemoryJobs: the syntheses at once are Jobs, fewer where as many of
// the largest design would not fit in Memory together, and one at least.
func TestMemoryJobs(t *testing.T) {
	for _, tc := range []struct {
		name            string
		jobs            int
		memory, largest int64
		want            int
	}{
		{"no memory bound", 16, 0, 1 << 40, 16},
		{"all fit", 4, 100, 25, 4},
		{"memory bounds", 16, 8 << 30, 1817972096, 4},
		{"larger than the memory runs alone", 16, 100, 500, 1},
		{"nothing to run", 3, 100, 0, 3},
		{"no jobs given", 0, 0, 10, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, memoryJobs(tc.jobs, tc.memory, tc.largest))
		})
	}
}
