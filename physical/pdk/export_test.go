package pdk

// SetMaxText lowers the most Liberty text one library's files may hold
// together to n bytes until the returned function restores it.
func SetMaxText(n int64) (restore func()) {
	old := maxText
	maxText = n
	return func() { maxText = old }
}
