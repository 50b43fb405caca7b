package network

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format is the format tag of the network file this package reads and
// writes:
//
//	{"format":"prefixgen.network/v1","width":N,"topology":"…","params":{…},"cells":[[lo,hi],…],"outputs":[…]}
const Format = "prefixgen.network/v1"

// MarshalJSON encodes the network in the prefixgen.network/v1 format, one
// cell per line, parameters sorted by name. The same network always encodes
// to the same bytes, and decoding them gives the network back. A network
// whose topology or parameter names the format does not allow
// (CheckTopologyName, CheckParamName; New and Builder take any name) is an
// error, not a document Read would refuse.
func (n *Network) MarshalJSON() ([]byte, error) {
	if err := CheckTopologyName(n.topology); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(n.params)) {
		if err := CheckParamName(name); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	b.Grow(32 + 16*len(n.ops) + 8*n.width)
	b.WriteString("{\n  \"format\": ")
	writeString(&b, Format)
	b.WriteString(",\n  \"width\": ")
	b.WriteString(strconv.Itoa(n.width))
	b.WriteString(",\n  \"topology\": ")
	writeString(&b, n.topology)
	b.WriteString(",\n  \"params\": {")
	for i, name := range n.params.names() {
		if i > 0 {
			b.WriteString(", ")
		}
		writeString(&b, name)
		b.WriteString(": ")
		b.WriteString(strconv.Itoa(n.params[name]))
	}
	b.WriteString("},\n  \"cells\": [")
	for k, p := range n.ops {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    [")
		b.WriteString(strconv.Itoa(int(p.a)))
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(int(p.b)))
		b.WriteByte(']')
	}
	if len(n.ops) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n  \"outputs\": [")
	for i, s := range n.outputs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(int(s)))
	}
	b.WriteString("]\n}\n")
	return b.Bytes(), nil
}

// writeString writes s as a JSON string.
func writeString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s) // a string always marshals
	b.Write(q)
}

// file is the prefixgen.network/v1 document as it is decoded.
type file struct {
	Format   *string        `json:"format"`
	Width    *int           `json:"width"`
	Topology string         `json:"topology"`
	Params   map[string]int `json:"params"`
	Cells    cellList       `json:"cells"`
	Outputs  []int          `json:"outputs"`
}

// fileKeys are the keys of the document, spelled as the format spells
// them: encoding/json would match "Cells" or "cellſ" to cells.
var fileKeys = []string{"format", "width", "topology", "params", "cells", "outputs"}

// cellList is the cells of the document as they are decoded, read from the
// JSON text of the array at once: a cell is two numbers, and a network of
// millions of cells is read into one slice of them. A cell that is not
// two whole numbers leaves err, naming it.
type cellList struct {
	cells []Cell
	err   error
}

// UnmarshalJSON reads the array of cells; the decoder has checked that b
// is one JSON value.
func (l *cellList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '[' {
		if string(b) != "null" {
			l.err = fmt.Errorf("network: not a %s document: field \"cells\" holds %s, which is not allowed there", Format, Article(jsonKind(b)))
		}
		return nil
	}
	count := 0
	eachItem(b, func([]byte) bool { count++; return true })
	l.cells = make([]Cell, 0, count)
	eachItem(b, func(item []byte) bool {
		k := len(l.cells)
		if item[0] != '[' {
			l.err = fmt.Errorf("network: cell %d is %s: want [lo, hi]", k, jsonText(item))
			return false
		}
		var ops [3][]byte
		n := 0
		eachItem(item, func(op []byte) bool { ops[n] = op; n++; return n < len(ops) })
		if n != 2 {
			n := 0
			eachItem(item, func([]byte) bool { n++; return true })
			word := "operands"
			if n == 1 {
				word = "operand"
			}
			l.err = fmt.Errorf("network: cell %d has %d %s: want [lo, hi]", k, n, word)
			return false
		}
		lo, err1 := strconv.Atoi(string(ops[0]))
		hi, err2 := strconv.Atoi(string(ops[1]))
		if err1 != nil || err2 != nil {
			l.err = fmt.Errorf("network: cell %d is [%s, %s]: operands must be signal numbers", k, jsonText(ops[0]), jsonText(ops[1]))
			return false
		}
		l.cells = append(l.cells, Cell{Lo: lo, Hi: hi})
		return true
	})
	return nil
}

// eachItem calls fn with each item of a valid JSON array, trimmed, until
// fn returns false.
func eachItem(array []byte, fn func(item []byte) bool) {
	for i := 1; i < len(array)-1; {
		for i < len(array)-1 && isSpace(array[i]) {
			i++
		}
		if i >= len(array)-1 {
			return
		}
		end := valueEnd(array, i)
		if !fn(array[i:end]) {
			return
		}
		i = end
		for i < len(array)-1 && (isSpace(array[i]) || array[i] == ',') {
			i++
		}
	}
}

// valueEnd returns the index just past the JSON value that starts at
// data[i], in valid JSON.
func valueEnd(data []byte, i int) int {
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '[', '{':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = stringEnd(data, j) - 1
			case '[', '{':
				depth++
			case ']', '}':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) && !isSpace(data[j]) && data[j] != ',' && data[j] != ']' && data[j] != '}' {
		j++
	}
	return j
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// jsonKind names the kind of a valid JSON value: "array", "object",
// "string", "number" or "bool".
func jsonKind(v []byte) string {
	switch v[0] {
	case '[':
		return "array"
	case '{':
		return "object"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	}
	return "number"
}

// jsonText returns a JSON value as a message shows it: a string quoted
// (even "3": the document holds numbers as numbers), anything else as
// written, cut to QuoteLimit characters.
func jsonText(v []byte) string {
	var str string
	if v[0] == '"' && json.Unmarshal(v, &str) == nil {
		return Quote(str)
	}
	var compact bytes.Buffer
	if json.Compact(&compact, v) == nil {
		v = compact.Bytes()
	}
	return cutText(string(v))
}

// cutText returns s cut after QuoteLimit characters (… marks the cut),
// each character that does not print escaped, as Go escapes it.
func cutText(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == QuoteLimit {
			b.WriteString("…")
			break
		}
		n++
		if strconv.IsPrint(r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// Read decodes one network in the prefixgen.network/v1 format from r and
// proves it as New does. Unknown fields (keys match exactly), a key given
// twice, a missing or different format tag, and trailing data are refused.
func Read(r io.Reader) (*Network, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("network: cannot read the %s document: %w", Format, err)
	}
	return unmarshal(data)
}

// Unmarshal decodes a network from data; see Read.
func Unmarshal(data []byte) (*Network, error) {
	return unmarshal(data)
}

func unmarshal(data []byte) (*Network, error) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, errors.New("network: the file starts with a UTF-8 byte-order mark (EF BB BF): save it as UTF-8 without one")
	}
	if err := CheckKeys(data, fileKeys); err != nil {
		if ke, ok := errors.AsType[*KeyError](err); ok && ke.Unknown {
			return nil, fmt.Errorf("network: not a %s document: %v", Format, err)
		}
		return nil, fmt.Errorf("network: %v", err)
	}
	var f file
	if json.Valid(data) {
		// One value, whose keys checkKeys has checked: decoded in place.
		if err := json.Unmarshal(data, &f); err != nil {
			return nil, fmt.Errorf("network: not a %s document: %s", Format, JSONReason(err))
		}
	} else {
		// The decoder names what is wrong, trailing data included.
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return nil, fmt.Errorf("network: not a %s document: %s", Format, JSONReason(err))
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, fmt.Errorf("network: trailing data after the %s document", Format)
		}
	}
	switch {
	case f.Format == nil:
		return nil, fmt.Errorf("network: field \"format\" is missing: want %q", Format)
	case *f.Format != Format:
		return nil, fmt.Errorf("network: format %s is not supported: want %q", Quote(*f.Format), Format)
	case f.Width == nil:
		return nil, errors.New("network: field \"width\" is missing")
	}
	if err := CheckTopologyName(f.Topology); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(f.Params)) {
		if err := CheckParamName(name); err != nil {
			return nil, err
		}
	}
	spec := Spec{Width: *f.Width, Outputs: f.Outputs, Topology: f.Topology, Params: f.Params}
	if f.Cells.err != nil {
		return nil, f.Cells.err
	}
	spec.Cells = f.Cells.cells
	return New(spec)
}

// KeyError is CheckKeys's refusal: a key an object holds twice, or a
// top-level key that is not one of those allowed.
type KeyError struct {
	// Key is the key as the document spells it.
	Key string
	// In says where it is: "the document", or the key of the object.
	In string
	// Unknown says the key is not allowed; else it appears twice.
	Unknown bool
}

// Error says what is wrong, without a package's prefix.
func (e *KeyError) Error() string {
	if e.Unknown {
		return "unknown field " + Quote(e.Key)
	}
	return fmt.Sprintf("key %s appears twice in %s: each key once", Quote(e.Key), e.In)
}

// CheckKeys refuses, as a *KeyError, a JSON document in which an object
// holds the same key twice, which encoding/json would resolve silently to
// the last one, and a document whose top-level object holds a key not in
// keys, spelled exactly (encoding/json matches keys without regard to
// case). Malformed JSON passes: the decoder names that error better. It
// reads the document in one pass, allocating for its keys only.
func CheckKeys(data []byte, keys []string) error {
	if !json.Valid(data) {
		return nil
	}
	type object struct {
		name string // where the object is: "the document" or "params"
		keys map[string]bool
		key  bool // the next string is a key
	}
	var stack []*object // nil for an array
	var lastKey string  // the key of the value about to start
	for i := 0; i < len(data); {
		top := len(stack) - 1
		switch c := data[i]; c {
		case '{':
			name := "the document"
			switch {
			case lastKey != "":
				name = Quote(lastKey)
			case top >= 0:
				name = "an object in the document"
			}
			stack = append(stack, &object{name: name, keys: map[string]bool{}, key: true})
			lastKey = ""
			i++
		case '[':
			stack = append(stack, nil)
			lastKey = ""
			i++
		case '}', ']':
			stack = stack[:top]
			i++
		case ',':
			if top >= 0 && stack[top] != nil {
				stack[top].key = true
			}
			lastKey = ""
			i++
		case '"':
			end := stringEnd(data, i)
			if top < 0 || stack[top] == nil || !stack[top].key {
				lastKey = ""
				i = end
				continue
			}
			var key string
			if raw := data[i:end]; bytes.IndexByte(raw, '\\') < 0 {
				key = string(raw[1 : len(raw)-1])
			} else if json.Unmarshal(raw, &key) != nil {
				return nil
			}
			o := stack[top]
			if o.keys[key] {
				return &KeyError{Key: key, In: o.name}
			}
			if top == 0 && !slices.Contains(keys, key) {
				return &KeyError{Key: key, In: o.name, Unknown: true}
			}
			o.keys[key] = true
			o.key = false
			lastKey = key
			i = end
		default:
			i++ // a colon, white space, or part of a number or literal
		}
	}
	return nil
}

// stringEnd returns the index just past the JSON string that starts at
// data[i], a quote, in valid JSON.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// JSONReason turns an error of encoding/json's decoding into a short
// reason a user can read, without Go's type names: "the input is empty",
// "invalid JSON at byte 7: …", `field "x" holds a string, which is not
// allowed there`, `unknown field "y"`.
func JSONReason(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "the input is empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the input ends early"
	case errors.As(err, &syn):
		if syn.Error() == "unexpected end of JSON input" {
			return "the input ends early"
		}
		return fmt.Sprintf("invalid JSON at byte %d: %s", syn.Offset, syntaxReason(syn.Error()))
	case errors.As(err, &typ):
		if typ.Field != "" {
			return fmt.Sprintf("field %q holds %s, which is not allowed there", typ.Field, Article(typ.Value))
		}
		return fmt.Sprintf("%s where it is not allowed", Article(typ.Value))
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if q, ok := strings.CutPrefix(msg, "unknown field "); ok {
		if name, err := strconv.Unquote(q); err == nil {
			return "unknown field " + Quote(name)
		}
	}
	// Any other reason is cut short too, in case it echoes the input.
	if utf8.RuneCountInString(msg) > maxReason {
		msg = string([]rune(msg)[:maxReason]) + "…"
	}
	return msg
}

// syntaxWhere are the places encoding/json's scanner names in a syntax
// error ("invalid character 'x' looking for beginning of value"), in
// words: what the character stands where.
var syntaxWhere = []struct{ scanner, words string }{
	{"looking for beginning of value", "where a value should begin"},
	{"looking for beginning of object key string", "where a key in double quotes should begin"},
	{"after object key:value pair", "after a field, where ',' or '}' belongs"},
	{"after object key", "after a key, where ':' belongs"},
	{"after array element", "after an element, where ',' or ']' belongs"},
	{"in string literal", "inside a string, where it must be escaped"},
	{"in string escape code", "after a backslash in a string, which escapes none"},
	{"in \\u hexadecimal character escape", "in a \\u escape, where a hexadecimal digit belongs"},
	{"after decimal point in numeric literal", "inside a number"},
	{"in exponent of numeric literal", "inside a number"},
	{"in numeric literal", "inside a number"},
	{"after top-level value", "after the document's end"},
}

// literalWhere reads the scanner's "in literal true (expecting 'r')".
var literalWhere = regexp.MustCompile(`^in literal (\w+) \(expecting ('.+')\)$`)

// syntaxReason words a syntax error of encoding/json's, "json: invalid
// character C PLACE", as "C PLACE-in-words"; one it does not know stays as
// it is.
func syntaxReason(msg string) string {
	msg = strings.TrimPrefix(msg, "json: ")
	rest, ok := strings.CutPrefix(msg, "invalid character ")
	if !ok {
		return msg
	}
	for _, w := range syntaxWhere {
		if char, ok := strings.CutSuffix(rest, " "+w.scanner); ok {
			return char + " " + w.words
		}
	}
	if i := strings.Index(rest, " in literal "); i > 0 {
		if m := literalWhere.FindStringSubmatch(rest[i+1:]); m != nil {
			return fmt.Sprintf("%s in %s, where %s belongs", rest[:i], m[1], m[2])
		}
	}
	return msg
}

// JSONError returns err, an error of encoding/json's decoding, as one line
// for a user: prefix, the reason JSONReason gives, and "(allowed
// ALLOWED)". errors.As still finds err beneath it.
func JSONError(prefix string, err error, allowed string) error {
	return &jsonError{msg: prefix + JSONReason(err) + " (allowed " + allowed + ")", err: err}
}

// jsonError is JSONError's error: its message, and the decoding error.
type jsonError struct {
	msg string
	err error
}

func (e *jsonError) Error() string { return e.msg }
func (e *jsonError) Unwrap() error { return e.err }

// Article returns a JSON kind ("array", "string", "number", or a number
// with its text, "number 1e999") with its indefinite article: "an array",
// "a string"; a number's text is cut after QuoteLimit characters.
func Article(kind string) string {
	// encoding/json names a number by its text ("number 1e999"), which
	// may be as long as the input.
	if word, text, ok := strings.Cut(kind, " "); ok {
		kind = word + " " + cutText(text)
	}
	if kind != "" && strings.ContainsRune("aeiou", rune(kind[0])) {
		return "an " + kind
	}
	return "a " + kind
}

// maxReason is the most characters of a decoding error's own words a
// message keeps.
const maxReason = 160
