package suggest

import "strings"

// Closest returns the candidate word most likely meant, or "" where none is
// close. A candidate is close when it is within a few edits of word (an
// edit inserts, deletes or changes one character, or swaps two neighbours;
// one edit for up to 5 characters, two for up to 9, three beyond), fewer
// edits than word has characters, or when it is the one candidate that
// starts with word of at least 3 characters. Of several, the one with the
// fewest edits and then the first in candidates wins. Case is ignored.
func Closest(word string, candidates []string) string {
	w := []rune(strings.ToLower(word))
	if len(w) == 0 {
		return ""
	}
	best, bestD := "", 0
	for _, c := range candidates {
		d := Distance(string(w), strings.ToLower(c))
		if d == 0 {
			return c
		}
		if d <= limit(len(w)) && d < len(w) && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	if best != "" || len(w) < 3 {
		return best
	}
	for _, c := range candidates {
		if strings.HasPrefix(strings.ToLower(c), string(w)) {
			if best != "" {
				return ""
			}
			best = c
		}
	}
	return best
}

// limit is the most edits Closest allows for a word of n characters.
func limit(n int) int {
	switch {
	case n <= 5:
		return 1
	case n <= 9:
		return 2
	default:
		return 3
	}
}

// Distance returns the optimal string alignment distance between a and b,
// counted in characters: the fewest insertions, deletions, changes and
// swaps of two neighbouring characters that turn a into b, no part edited
// twice.
func Distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// d[i][j] is the distance between s[:i] and t[:j].
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}
