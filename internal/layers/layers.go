package layers

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Order is the floor of each pattern of the architecture's table. A
// pattern is a package path relative to the module ("physical"), or one
// ending in "/..." that places a package and every package under it.
type Order struct {
	floors   map[string]int
	patterns []string // longest first
}

// Parse reads the table of floors from doc: the first fenced block whose
// first line is "floor  packages", each line after it a floor number and
// the patterns on that floor.
func Parse(doc []byte) (*Order, error) {
	o := &Order{floors: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(doc))
	in, found := false, false
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		switch {
		case !in && !found && strings.HasPrefix(text, "```"):
			if sc.Scan() {
				line++
				if strings.Join(strings.Fields(sc.Text()), " ") == "floor packages" {
					in = true
				}
			}
		case in && strings.HasPrefix(text, "```"):
			in, found = false, true
		case in && text != "":
			f := strings.Fields(text)
			n, err := strconv.Atoi(f[0])
			if err != nil || n < 1 || len(f) < 2 {
				return nil, fmt.Errorf("layers: line %d %q: allowed a floor number from 1, then package patterns", line, text)
			}
			for _, p := range f[1:] {
				if _, dup := o.floors[p]; dup {
					return nil, fmt.Errorf("layers: line %d: %s is placed twice", line, p)
				}
				o.floors[p] = n
				o.patterns = append(o.patterns, p)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("layers: %w", err)
	}
	if !found {
		return nil, fmt.Errorf("layers: no table of floors: allowed a fenced block headed \"floor  packages\"")
	}
	sort.SliceStable(o.patterns, func(i, j int) bool {
		return len(strings.TrimSuffix(o.patterns[i], "/...")) > len(strings.TrimSuffix(o.patterns[j], "/..."))
	})
	return o, nil
}

// Place returns the pattern that places pkg (a path relative to the
// module) and its floor; ok is false when no pattern does.
func (o *Order) Place(pkg string) (pattern string, floor int, ok bool) {
	for _, p := range o.patterns {
		if base, tree := strings.CutSuffix(p, "/..."); tree {
			if pkg == base || strings.HasPrefix(pkg, base+"/") {
				return p, o.floors[p], true
			}
		} else if pkg == p {
			return p, o.floors[p], true
		}
	}
	return "", 0, false
}

// Check returns one line for every package of imports (each package's
// path relative to the module, mapped to the module's packages it imports,
// likewise relative) that the order does not place, and for every import
// that does not point to a lower floor or within its own pattern. The
// lines are sorted.
func (o *Order) Check(imports map[string][]string) []string {
	var bad []string
	for pkg, deps := range imports {
		pp, pf, ok := o.Place(pkg)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s is on no floor of docs/architecture.md", pkg))
			continue
		}
		for _, d := range deps {
			dp, df, ok := o.Place(d)
			switch {
			case !ok:
				// Reported as a package of its own.
			case dp == pp:
			case df >= pf:
				bad = append(bad, fmt.Sprintf("%s (floor %d) imports %s (floor %d): an import points to a lower floor", pkg, pf, d, df))
			}
		}
	}
	sort.Strings(bad)
	return bad
}
