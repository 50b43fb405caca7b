package bounded

import (
	"fmt"
	"io"
	"os"
	"strconv"
)

// TooLargeError is input that passes the most a reader allows.
type TooLargeError struct {
	// Max is the most bytes allowed.
	Max int64
}

// Error says so: "larger than the 190 MiB allowed".
func (e *TooLargeError) Error() string {
	return "larger than the " + Size(e.Max) + " allowed"
}

// ReadAll reads r to its end, or returns a *TooLargeError once it has
// given more than max bytes.
func ReadAll(r io.Reader, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Max: max}
	}
	return data, nil
}

// ReadFile reads the file at path as os.ReadFile does, FIFOs and other
// streams included, or returns a *TooLargeError once it has read more
// than max bytes, before reading a regular file larger than that at all.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > max {
		return nil, &TooLargeError{Max: max}
	}
	return ReadAll(f, max) // a read's error is the file's *os.PathError
}

// Size writes bytes as a user reads them: "512 bytes", "64 KiB",
// "190 MiB", "1 GiB" (rounded down to the unit).
func Size(bytes int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if bytes >= 1<<u.shift {
			return strconv.FormatInt(bytes>>u.shift, 10) + " " + u.name
		}
	}
	return fmt.Sprintf("%d bytes", bytes)
}
