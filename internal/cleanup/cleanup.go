package cleanup

import (
	"os"
	"slices"
	"sync"
)

var (
	mu      sync.Mutex
	pending = map[int]string{}
	next    int
)

// Add registers path, a temporary file or folder, for RemoveAll, and
// returns the function that drops it again (it does not remove path).
func Add(path string) (drop func()) {
	mu.Lock()
	defer mu.Unlock()
	id := next
	next++
	pending[id] = path
	return func() {
		mu.Lock()
		defer mu.Unlock()
		delete(pending, id)
	}
}

// Pending returns the registered paths, sorted.
func Pending() []string {
	mu.Lock()
	defer mu.Unlock()
	var paths []string
	for _, p := range pending {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// RemoveAll removes every registered path, with whatever a folder holds,
// and drops them all.
func RemoveAll() {
	mu.Lock()
	defer mu.Unlock()
	for id, p := range pending {
		os.RemoveAll(p)
		delete(pending, id)
	}
}
