package physical

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestSlotsFits: a synthesis starts while fewer than jobs run and its bytes
// fit beside theirs; one too large for the memory starts when none runs;
// memory 0 bounds by jobs alone.
func TestSlotsFits(t *testing.T) {
	for _, tc := range []struct {
		name         string
		jobs         int
		memory, used int64
		n            int
		bytes        int64
		want         bool
	}{
		{"none running", 4, 100, 0, 0, 50, true},
		{"none running, too large", 4, 100, 0, 0, 500, true},
		{"fits beside", 4, 100, 60, 1, 40, true},
		{"over the memory", 4, 100, 60, 1, 41, false},
		{"jobs full", 2, 0, 10, 2, 1, false},
		{"no memory bound", 8, 0, 1 << 40, 3, 1 << 40, true},
		{"one job", 1, 0, 0, 1, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSlots(tc.jobs, tc.memory)
			s.n, s.used = tc.n, tc.used
			assert.Equal(t, tc.want, s.fits(tc.bytes))
		})
	}
}

// TestSlotsRendezvous: the syntheses that fit together run together, and
// never more. Each holds its slot until as many as should run at once have
// started (a barrier), so that slots admitting fewer would hang, caught by
// a deadline, and admitting more shows in the peak.
func TestSlotsRendezvous(t *testing.T) {
	for _, tc := range []struct {
		name     string
		jobs     int
		memory   int64
		sizes    []int64
		together int
	}{
		{"jobs bound", 3, 0, []int64{1, 1, 1, 1, 1, 1}, 3},
		{"memory bound", 8, 100, []int64{50, 50, 50, 50}, 2},
		{"too large for the memory runs alone", 8, 100, []int64{300, 300}, 1},
		{"memory below one job's size", 8, 1, []int64{10, 10, 10}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSlots(tc.jobs, tc.memory)
			var (
				mu      sync.Mutex
				arrived int
				gate    = make(chan struct{})
				wg      sync.WaitGroup
			)
			for _, b := range tc.sizes {
				wg.Go(func() {
					s.acquire(b)
					defer s.release(b)
					s.mu.Lock()
					n, used := s.n, s.used
					s.mu.Unlock()
					assert.True(t, n <= tc.jobs, "%d running, %d jobs", n, tc.jobs)
					assert.True(t, tc.memory == 0 || n == 1 || used <= tc.memory, "%d bytes running, %d allowed", used, tc.memory)
					mu.Lock()
					arrived++
					if arrived == tc.together {
						close(gate)
					}
					mu.Unlock()
					<-gate
				})
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("fewer than %d syntheses let in at once", tc.together)
			}
			assert.Equal(t, tc.together, s.peak)
		})
	}
}
