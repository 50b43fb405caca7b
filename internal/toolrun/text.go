package toolrun

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLine is the most runes FirstLine keeps of a line.
const MaxLine = 200

// Escape returns s with every control character but newline and tab, and
// every byte that is not UTF-8, written as a Go escape (\x1b, \r, \u009b),
// so that a tool's output cannot move the cursor, clear the screen or
// change a terminal's colours when prefixgen prints it.
func Escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			q := fmt.Sprintf("%+q", string(r))
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// FirstLine returns the first line of out that says something, trimmed,
// escaped (Escape, tabs as spaces) and cut to MaxLine runes with "…", so
// that it fits one line of a table.
func FirstLine(out string) string {
	for line := range strings.Lines(out) {
		if l := OneLine(line); l != "" {
			return l
		}
	}
	return ""
}

// LastLine is FirstLine from the end: the last line that says something.
func LastLine(out string) string {
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := OneLine(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// OneLine makes s one line of a table: escaped, its line breaks and tabs
// as spaces, trimmed, and cut to MaxLine runes with "…".
func OneLine(s string) string {
	s = Escape(s)
	s = strings.NewReplacer("\n", " ", "\t", " ").Replace(s)
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > MaxLine {
		s = string([]rune(s)[:MaxLine-1]) + "…"
	}
	return s
}

// yosysUndeclared matches Yosys's error for a module that instantiates one
// nothing declares.
var yosysUndeclared = regexp.MustCompile("Module `\\\\?([^']+)' referenced in module `\\\\?([^']+)' in cell `[^']*' is not part of the design")

// YosysUndeclared reads Yosys's error for a module that instantiates one
// that nothing read declares ("Module `\X' referenced in module `\top' in
// cell `\u1' is not part of the design"): the module instantiated, the
// one instantiating it, and whether msg is that error.
func YosysUndeclared(msg string) (module, parent string, ok bool) {
	m := yosysUndeclared.FindStringSubmatch(msg)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}
