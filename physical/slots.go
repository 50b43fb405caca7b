package physical

import "sync"

// slots bounds the syntheses Run has going at once: at most jobs of them
// and, where memory is above 0, estimated to take at most memory bytes
// together (Design.mem). A synthesis larger than memory runs alone: it is
// let in when no other runs.
type slots struct {
	mu     sync.Mutex
	free   sync.Cond
	jobs   int
	memory int64
	n      int   // syntheses running
	used   int64 // their bytes
	peak   int   // the most that ran at once, for tests
}

func newSlots(jobs int, memory int64) *slots {
	s := &slots{jobs: max(jobs, 1), memory: memory}
	s.free.L = &s.mu
	return s
}

// fits reports whether a synthesis of bytes may start now; s.mu is held.
func (s *slots) fits(bytes int64) bool {
	if s.n == 0 {
		return true
	}
	return s.n < s.jobs && (s.memory <= 0 || s.used+bytes <= s.memory)
}

// acquire waits until a synthesis of bytes fits, and counts it in.
func (s *slots) acquire(bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.fits(bytes) {
		s.free.Wait()
	}
	s.n++
	s.used += bytes
	s.peak = max(s.peak, s.n)
}

// release counts out a synthesis of bytes that acquire let in.
func (s *slots) release(bytes int64) {
	s.mu.Lock()
	s.n--
	s.used -= bytes
	s.mu.Unlock()
	s.free.Broadcast()
}
