package network

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuoteLimit is the most characters of outside input Quote shows.
const QuoteLimit = 40

// Cut returns a name of the user's as a message echoes it unquoted: cut
// after QuoteLimit characters with "…".
func Cut(s string) string {
	if r := []rune(s); len(r) > QuoteLimit {
		return string(r[:QuoteLimit]) + "…"
	}
	return s
}

// Printable returns s with its control characters and its bytes that are
// not UTF-8 escaped as Go writes them (\x1b, \t, \xff), and as it is
// where it has none: a file's name in a table or a message, which a
// terminal would otherwise act on rather than show.
func Printable(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case unicode.IsControl(r):
			b.WriteString(strings.Trim(strconv.QuoteRune(r), "'"))
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}

// Quote returns s as a Go string literal for an error message, cut after
// QuoteLimit characters with "…" so that echoed input stays readable.
func Quote(s string) string {
	if utf8.RuneCountInString(s) <= QuoteLimit {
		return strconv.Quote(s)
	}
	n := 0
	for i := range s {
		if n == QuoteLimit {
			q := strconv.Quote(s[:i])
			return q[:len(q)-1] + `…"`
		}
		n++
	}
	return strconv.Quote(s)
}

// MaxTopologyName and MaxParamName are the longest names a network may
// carry as its topology and as a parameter.
const (
	MaxTopologyName = 64
	MaxParamName    = 32
)

// CheckTopologyName reports whether name may be a network's topology name:
// empty (an unnamed network), or at most MaxTopologyName characters a-z,
// 0-9, '-' and '_', starting with a letter. Names end up in file names,
// Verilog module names and CUDA namespaces, so they are kept to these.
func CheckTopologyName(name string) error {
	if name == "" || validName(name, MaxTopologyName, true) {
		return nil
	}
	return fmt.Errorf("network: topology name %s not allowed: a name is at most %d characters a-z, 0-9, '-' and '_', starting with a letter", quoteSized(name), MaxTopologyName)
}

// CheckParamName reports whether name may name a parameter: at most
// MaxParamName characters a-z, 0-9 and '_', starting with a letter.
func CheckParamName(name string) error {
	if validName(name, MaxParamName, false) {
		return nil
	}
	return fmt.Errorf("network: parameter name %s not allowed: a name is at most %d characters a-z, 0-9 and '_', starting with a letter", quoteSized(name), MaxParamName)
}

// quoteSized quotes s, adding its length when Quote cuts it.
func quoteSized(s string) string {
	if utf8.RuneCountInString(s) <= QuoteLimit {
		return Quote(s)
	}
	return fmt.Sprintf("%s (%d bytes)", Quote(s), len(s))
}

// validName reports whether name has 1 to limit bytes of a-z, 0-9, '_' (and
// '-' if dash), the first a letter.
func validName(name string, limit int, dash bool) bool {
	if len(name) == 0 || len(name) > limit || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || dash && c == '-') {
			return false
		}
	}
	return true
}
