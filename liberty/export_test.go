package liberty

// SetMaxSize lowers the largest file read to n bytes until the returned
// function restores it.
func SetMaxSize(n int64) (restore func()) {
	old := maxSize
	maxSize = n
	return func() { maxSize = old }
}
