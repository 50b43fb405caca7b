package liberty

import (
	"iter"
	"strings"
)

// Group is a Liberty group, kind (args) { … }: its simple attributes
// (name : value ;), its complex attributes (name (value, …) ;) and the
// groups inside it, in the file's order.
type Group struct {
	// Kind is the group's name, as in library, cell, pin, ff or
	// cell_rise; the root Parse returns has none.
	Kind string
	// Args are the values in its parentheses, without their quotes.
	Args []string
	// Attrs are its simple attributes by name; of one given twice, the
	// last. A quoted value loses its quotes; a value of several words is
	// joined by spaces.
	Attrs map[string]string
	// Complex are its complex attributes, in the file's order.
	Complex []Attribute
	// Groups are the groups inside it.
	Groups []*Group

	// start is the offset of the group's kind in the file, open the
	// offset after its {, and end the offset after its } (the file's
	// length for a group the file does not close, closed false): the text
	// a writer copies.
	start, open, end int
	closed           bool
}

// Attribute is a complex attribute, name (values) ;, such as
// index_1 ("0.005, 0.0125") or capacitive_load_unit (1,pf).
type Attribute struct {
	// Name is the attribute's name, as in index_1.
	Name string
	// Args are its values, without their quotes.
	Args []string
}

// Values returns the values of g's last complex attribute name, or nil.
func (g *Group) Values(name string) []string {
	for i := len(g.Complex) - 1; i >= 0; i-- {
		if g.Complex[i].Name == name {
			return g.Complex[i].Args
		}
	}
	return nil
}

// Find yields the groups of the kind inside g, at any depth, in the file's
// order; it does not look inside a group it yields.
func (g *Group) Find(kind string) iter.Seq[*Group] {
	return func(yield func(*Group) bool) {
		g.find(kind, yield)
	}
}

func (g *Group) find(kind string, yield func(*Group) bool) bool {
	for _, c := range g.Groups {
		if c.Kind == kind {
			if !yield(c) {
				return false
			}
			continue
		}
		if !c.find(kind, yield) {
			return false
		}
	}
	return true
}

// MaxGroupDepth is how deep Parse reads groups inside groups: far past any
// library's (library, cell, pin, timing, cell_rise), and a walk over them
// recurses on each. A deeper group is skipped whole.
const MaxGroupDepth = 64

// Parse reads the groups and attributes of a Liberty file, skipping what
// it does not understand (and groups deeper than MaxGroupDepth). Comments and line continuations are dropped;
// quoted values lose their quotes. It returns a root group, of no kind,
// holding the file's groups (one library, in a well-formed file).
func Parse(src []byte) *Group {
	toks, pos := tokens(string(src))
	root := &Group{Attrs: map[string]string{}, end: len(src)}
	stack := []*Group{root}
	skip := 0 // the braces open of a group deeper than MaxGroupDepth
	for i := 0; i < len(toks); i++ {
		if skip > 0 {
			switch toks[i] {
			case "{":
				skip++
			case "}":
				skip--
			}
			continue
		}
		top := stack[len(stack)-1]
		switch t := toks[i]; {
		case t == "}":
			if len(stack) > 1 {
				top.end, top.closed = pos[i]+1, true
				stack = stack[:len(stack)-1]
			}
		case i+1 < len(toks) && toks[i+1] == ":":
			// name : value ;
			j := i + 2
			var val []string
			for ; j < len(toks) && toks[j] != ";" && toks[j] != "}" && toks[j] != "\n"; j++ {
				val = append(val, toks[j])
			}
			top.Attrs[t] = strings.Join(val, " ")
			i = j
			if j < len(toks) && toks[j] == "}" {
				i--
			}
		case i+1 < len(toks) && toks[i+1] == "(":
			j := i + 2
			var args []string
			for ; j < len(toks) && toks[j] != ")"; j++ {
				if toks[j] != "," && toks[j] != "\n" {
					args = append(args, toks[j])
				}
			}
			j++
			for j < len(toks) && toks[j] == "\n" {
				j++
			}
			if j < len(toks) && toks[j] == "{" && len(stack) > MaxGroupDepth {
				skip = 1 // past any library's groups: skipped whole
			} else if j < len(toks) && toks[j] == "{" {
				g := &Group{Kind: t, Args: args, Attrs: map[string]string{}, start: pos[i], open: pos[j] + 1, end: len(src)}
				top.Groups = append(top.Groups, g)
				stack = append(stack, g)
			} else {
				top.Complex = append(top.Complex, Attribute{Name: t, Args: args})
				if j < len(toks) && toks[j] != ";" {
					j--
				}
			}
			i = j
		}
	}
	return root
}

// tokens splits a Liberty file into words, quoted strings (without their
// quotes), punctuation and newlines (which end an attribute whose
// semicolon is missing), and gives the offset of each in src.
func tokens(src string) (toks []string, pos []int) {
	add := func(t string, at int) {
		toks = append(toks, t)
		pos = append(pos, at)
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return toks, pos
			}
			i += end + 4
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r'):
			i += 2
		case c == '\n':
			add("\n", i)
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '"':
			end := strings.IndexByte(src[i+1:], '"')
			if end < 0 {
				add(src[i+1:], i)
				return toks, pos
			}
			add(src[i+1:i+1+end], i)
			i += end + 2
		case strings.IndexByte("(){}:;,", c) >= 0:
			add(src[i:i+1], i)
			i++
		default:
			j := i
			for j < len(src) && strings.IndexByte("(){}:;,\" \t\r\n", src[j]) < 0 {
				j++
			}
			add(src[i:j], i)
			i = j
		}
	}
	return toks, pos
}
