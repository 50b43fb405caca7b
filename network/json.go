package network

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
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
	names := make([]string, 0, len(n.params))
	for name := range n.params {
		names = append(names, name)
	}
	slices.Sort(names)
	for i, name := range names {
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
	Format   *string             `json:"format"`
	Width    *int                `json:"width"`
	Topology string              `json:"topology"`
	Params   map[string]int      `json:"params"`
	Cells    [][]json.RawMessage `json:"cells"`
	Outputs  []int               `json:"outputs"`
}

// Read decodes one network in the prefixgen.network/v1 format from r and
// proves it as New does. Unknown fields, a missing or different format tag,
// and trailing data are refused.
func Read(r io.Reader) (*Network, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("network: cannot read the %s document: %v", Format, err)
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, errors.New("network: the file starts with a UTF-8 byte-order mark (EF BB BF): save it as UTF-8 without one")
	}
	if err := checkDuplicateKeys(data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("network: not a %s document: %s", Format, jsonReason(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("network: trailing data after the %s document", Format)
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
	spec.Cells = make([]Cell, len(f.Cells))
	for k, c := range f.Cells {
		if len(c) != 2 {
			return nil, fmt.Errorf("network: cell %d has %d operands: want [lo, hi]", k, len(c))
		}
		lo, ok1, err1 := operand(c[0])
		hi, ok2, err2 := operand(c[1])
		if err := cmp.Or(err1, err2); err != nil {
			return nil, err
		}
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("network: cell %d is [%s, %s]: operands must be signal numbers", k, rawText(c[0]), rawText(c[1]))
		}
		spec.Cells[k] = Cell{Lo: lo, Hi: hi}
	}
	return New(spec)
}

// operand returns the whole number an operand holds, and whether it holds
// one. A string, even "3", is an error: the document holds numbers as
// numbers.
func operand(raw json.RawMessage) (int, bool, error) {
	var str string
	if bytes.HasPrefix(raw, []byte(`"`)) && json.Unmarshal(raw, &str) == nil {
		return 0, false, fmt.Errorf("network: not a %s document: a string, %s, where a number is allowed", Format, Quote(str))
	}
	i, err := strconv.Atoi(string(raw))
	return i, err == nil, nil
}

// rawText returns an operand's JSON text as a message shows it, cut to
// QuoteLimit characters.
func rawText(raw json.RawMessage) string {
	q := Quote(string(raw))
	return q[1 : len(q)-1]
}

// checkDuplicateKeys refuses a document in which an object holds the same
// key twice, which encoding/json would silently resolve to the last one.
// Malformed JSON passes: the decoder names that error better.
func checkDuplicateKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	type object struct {
		name string // where the object is: "the document" or "params"
		keys map[string]bool
		key  bool // the next string token is a key
	}
	var stack []*object
	var lastKey string // the key of the value about to start
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				name := "the document"
				switch {
				case lastKey != "":
					name = Quote(lastKey)
				case top >= 0:
					name = "an object in the document"
				}
				stack = append(stack, &object{name: name, keys: map[string]bool{}, key: true})
				continue
			case '[':
				stack = append(stack, nil)
				continue
			default:
				stack = stack[:top]
			}
		case string:
			if top >= 0 && stack[top] != nil && stack[top].key {
				o := stack[top]
				if o.keys[t] {
					return fmt.Errorf("network: key %s appears twice in %s: each key once", Quote(t), o.name)
				}
				o.keys[t] = true
				o.key = false
				lastKey = t
				continue
			}
		}
		// A value ended: the next string in an object is a key again.
		if top = len(stack) - 1; top >= 0 && stack[top] != nil {
			stack[top].key = true
		}
		lastKey = ""
	}
}

// Unmarshal decodes a network from data; see Read.
func Unmarshal(data []byte) (*Network, error) {
	return Read(bytes.NewReader(data))
}

// jsonReason turns a decoding error into a short reason without Go type
// names.
func jsonReason(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "the input is empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the input ends early"
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.As(err, &typ):
		if typ.Field != "" {
			return fmt.Sprintf("field %q holds a %s, which is not allowed there", typ.Field, typ.Value)
		}
		return fmt.Sprintf("a %s where it is not allowed", typ.Value)
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

// maxReason is the most characters of a decoding error's own words a
// message keeps.
const maxReason = 160
