package adder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/prefixgen/prefixgen/network"
)

// DocumentFormat is the format tag of the adder document, a network and the
// architecture of the adder around it:
//
//	{"format":"prefixgen.adder/v1","sparse":S,"valency":K,"ling":B,"network":{…prefixgen.network/v1…}}
//
// A pipelined adder adds "stages":K and "no_reset":B after "ling" (a
// document without them is the combinational adder), and an adder whose
// generate and propagate are library cells (Architecture.PGCells)
// "pg_cells":true after those (without it they are logic), and an adder of
// full-adder cells (Architecture.FACells) "fa_cells":true, and one whose
// blocks of full adders are carry-increment blocks (Increment)
// "increment":true after that. The members
// are Architecture's JSON (MarshalJSON). What the adder was made for, where
// the document says (Target), follows: "library":"asap7" and "flow":"abc".
// A prefixgen.network/v1 document alone is the standard adder around its
// network, made for nothing in particular.
const DocumentFormat = "prefixgen.adder/v1"

// Target is what an adder was made for: the standard-cell library and the
// synthesis flow through which the search that found it measured it, as
// optimize records them in the adder document. A command that reads the
// document takes them as its --liberty and --flow where those are not
// given, so that the adder is measured as it was found. Either may be
// empty: the document does not say.
type Target struct {
	// Library names the library as --liberty does (osu018, osu035,
	// sky130hd, asap7), or, for a library read from files, by the name its
	// Liberty library group gives (NangateOpenCellLibrary), which a reader
	// must be given the files of.
	Library string
	// Flow is the flow's name as --flow takes it (keep, abc); the reader
	// checks that it knows it.
	Flow string
}

// IsZero reports whether the target says nothing.
func (t Target) IsZero() bool { return t == Target{} }

// fields returns the members the adder document records of t, in its
// order: library, then flow, each where it is set.
func (t Target) fields() []Field {
	var f []Field
	if t.Library != "" {
		f = append(f, Field{"library", t.Library})
	}
	if t.Flow != "" {
		f = append(f, Field{"flow", t.Flow})
	}
	return f
}

// check refuses a target the document cannot hold: a name that is not one
// line of printable characters without spaces at its ends, or too long to
// be a library's or a flow's; an empty one only where set holds its key
// (a document's "library":"").
func (t Target) check(set map[string]bool) error {
	for _, f := range []Field{{"library", t.Library}, {"flow", t.Flow}} {
		v := f.Value.(string)
		if v == "" && !set[f.Key] {
			continue
		}
		if v == "" || len(v) > maxTargetName || strings.TrimSpace(v) != v || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsPrint(r) }) {
			return fmt.Errorf("adder: %s %s not allowed: allowed a name of 1 to %d printable characters, without spaces at its ends", f.Key, network.Quote(v), maxTargetName)
		}
	}
	return nil
}

// maxTargetName is the longest library or flow name a document holds.
const maxTargetName = 256

// Field is one machine-readable field of an architecture: its key, as JSON
// and CSV headers name it, and its value.
type Field struct {
	Key   string
	Value any
}

// Fields returns the architecture's machine-readable fields, named as the
// adder document and every record (synth and explore -f json and csv)
// name them: sparse (1 for every carry), valency (2 for binary cells),
// ling, stages (0: combinational), no_reset, pg_cells, fa_cells and
// increment.
func (a Architecture) Fields() []Field {
	a = a.Normal()
	return []Field{{"sparse", a.Sparse}, {"valency", a.Valency}, {"ling", a.Ling}, {"stages", a.Stages}, {"no_reset", a.NoReset}, {"pg_cells", a.PGCells}, {"fa_cells", a.FACells}, {"increment", a.Increment}}
}

// documentFields returns the fields the adder document records of a, in
// its order: sparse, valency and ling; stages and no_reset for a pipeline;
// pg_cells when the generate and propagate are cells; fa_cells for full
// adders, and increment for their carry-increment blocks. An architecture the
// document cannot record (another operation, flags or carry-in than
// Standard's, pipeline levels) is refused.
func (a Architecture) documentFields() ([]Field, error) {
	extra := Architecture{Op: a.Op, NoCarryIn: a.NoCarryIn, Flags: a.Flags, PipelineAfter: a.PipelineAfter}
	if s := extra.Name(); s != "" {
		return nil, fmt.Errorf("adder: the %s document records {cout, sum} = a + b + cin with its sparseness, valency, Ling carries, stages, reset and pg cells: not %s", DocumentFormat, s)
	}
	f := a.Fields()
	fields := f[:3]
	if a.Stages > 0 {
		fields = append(fields, f[3], f[4])
	}
	if a.PGCells {
		fields = append(fields, f[5])
	}
	if a.FACells {
		fields = append(fields, f[6])
	}
	if a.Increment {
		fields = append(fields, f[7])
	}
	return fields, nil
}

// MarshalJSON encodes the architecture as the adder document writes it,
// the members beside "format" and "network", as in
// {"sparse":2,"valency":2,"ling":true} (see DocumentFormat). It refuses
// what the document cannot record: another operation, flags or carry-in
// than Standard's, pipeline levels.
func (a Architecture) MarshalJSON() ([]byte, error) {
	fields, err := a.documentFields()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		v, _ := json.Marshal(f.Value) // ints and bools
		fmt.Fprintf(&b, "%q:%s", f.Key, v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON decodes an architecture as MarshalJSON encodes it: absent
// members are Standard's; unknown members, a member given twice and values
// out of range are refused. Whether the architecture fits a network is
// Check's to say.
func (a *Architecture) UnmarshalJSON(data []byte) error {
	if err := keysOnce(data, architectureKeys, "architecture"); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m members
	if err := dec.Decode(&m); err != nil {
		return decodeError(err, "architecture")
	}
	arch, err := m.architecture()
	if err != nil {
		return err
	}
	*a = arch
	return nil
}

// MarshalDocument encodes net and arch as a prefixgen.adder/v1 document,
// the network in its prefixgen.network/v1 form; the same network and
// architecture always encode to the same bytes. An architecture that does
// not fit the network, or that the document cannot record (see
// MarshalJSON), is refused.
func MarshalDocument(net *network.Network, arch Architecture) ([]byte, error) {
	return MarshalDocumentFor(net, arch, Target{})
}

// MarshalDocumentFor encodes net and arch as MarshalDocument does, with
// what the adder was made for (target) after the architecture.
func MarshalDocumentFor(net *network.Network, arch Architecture, target Target) ([]byte, error) {
	arch = arch.Normal()
	fields, err := arch.documentFields()
	if err != nil {
		return nil, err
	}
	if err := arch.Check(net); err != nil {
		return nil, err
	}
	if err := target.check(nil); err != nil {
		return nil, err
	}
	fields = append(fields, target.fields()...)
	doc, err := net.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"format\": \"" + DocumentFormat + "\",\n")
	for _, f := range fields {
		v, _ := json.Marshal(f.Value) // ints, bools and names
		fmt.Fprintf(&b, "  %q: %s,\n", f.Key, v)
	}
	b.WriteString("  \"network\": ")
	// Indent the network document one level, as a member of this one.
	doc = bytes.TrimSuffix(doc, []byte("\n"))
	b.Write(bytes.ReplaceAll(doc, []byte("\n"), []byte("\n  ")))
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// WriteDocument writes the document of net and arch to w: the
// prefixgen.network/v1 document when arch is Standard, so that every
// reader of networks reads it, and the prefixgen.adder/v1 one otherwise.
func WriteDocument(w io.Writer, net *network.Network, arch Architecture) error {
	return WriteDocumentFor(w, net, arch, Target{})
}

// WriteDocumentFor writes the document of net and arch, made for target,
// to w: the prefixgen.network/v1 document when arch is Standard and the
// target says nothing, the prefixgen.adder/v1 one otherwise.
func WriteDocumentFor(w io.Writer, net *network.Network, arch Architecture, target Target) error {
	var (
		data []byte
		err  error
	)
	if arch.IsStandard() && target.IsZero() {
		data, err = net.MarshalJSON()
	} else {
		data, err = MarshalDocumentFor(net, arch, target)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// members are the architecture's members of the adder document as they
// are decoded, nil where absent.
type members struct {
	Sparse    *int  `json:"sparse"`
	Valency   *int  `json:"valency"`
	Ling      *bool `json:"ling"`
	Stages    *int  `json:"stages"`
	NoReset   *bool `json:"no_reset"`
	PGCells   *bool `json:"pg_cells"`
	FACells   *bool `json:"fa_cells"`
	Increment *bool `json:"increment"`
}

// architectureKeys are the keys of members, spelled exactly.
var architectureKeys = []string{"sparse", "valency", "ling", "stages", "no_reset", "pg_cells", "fa_cells", "increment"}

// architecture returns the architecture m records, Standard's where a
// member is absent, refusing values out of range.
func (m members) architecture() (Architecture, error) {
	arch := Standard
	if m.Sparse != nil {
		arch.Sparse = *m.Sparse
		if !slices.Contains(Sparseness, arch.Sparse) {
			return Architecture{}, fmt.Errorf("adder: sparseness %d not allowed: allowed 1, 2, 4, 8", arch.Sparse)
		}
	}
	if m.Valency != nil {
		arch.Valency = *m.Valency
		if arch.Valency < 2 || arch.Valency > MaxValency {
			return Architecture{}, fmt.Errorf("adder: valency %d not allowed: allowed 2, 3, 4", arch.Valency)
		}
	}
	if m.Ling != nil {
		arch.Ling = *m.Ling
	}
	if m.Stages != nil {
		if arch.Stages = *m.Stages; arch.Stages < 1 {
			return Architecture{}, fmt.Errorf("adder: %d pipeline stages not allowed: allowed 1 to the carry tree's depth + 1, or no field stages for a combinational adder", arch.Stages)
		}
	}
	if m.NoReset != nil {
		arch.NoReset = *m.NoReset
	}
	if m.PGCells != nil {
		arch.PGCells = *m.PGCells
	}
	if m.FACells != nil {
		arch.FACells = *m.FACells
	}
	if m.Increment != nil {
		arch.Increment = *m.Increment
	}
	return arch, nil
}

// document is the prefixgen.adder/v1 document as it is decoded.
type document struct {
	Format *string `json:"format"`
	members
	Library *string         `json:"library"`
	Flow    *string         `json:"flow"`
	Network json.RawMessage `json:"network"`
}

// documentKeys are the keys of the adder document, spelled exactly.
var documentKeys = append([]string{"format", "network", "library", "flow"}, architectureKeys...)

// IsDocument reports whether data claims to be a prefixgen.adder/v1
// document, which records its adder's architecture, rather than a
// prefixgen.network/v1 one, whose adder ReadDocument takes to be the
// standard one. WriteDocument writes the standard adder as a network
// document, so an adder document records an adder that is not standard.
func IsDocument(data []byte) bool { return format(data) == DocumentFormat }

// format returns the format member of the JSON value data starts with: nil
// when there is none, or the value does not decode.
func format(data []byte) any {
	var head struct {
		Format any `json:"format"`
	}
	if json.NewDecoder(bytes.NewReader(data)).Decode(&head) != nil {
		return nil
	}
	return head.Format
}

// claimedFormat returns format(data) or, where data is malformed further
// on, the format member its top-level object gives before what is wrong:
// the reader a malformed document is refused by.
func claimedFormat(data []byte) any {
	if f := format(data); f != nil {
		return f
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var value any
		if err := dec.Decode(&value); err != nil {
			return nil
		}
		if key == "format" {
			return value
		}
	}
	return nil
}

// ReadDocument decodes one adder from r: a prefixgen.adder/v1 document, or
// a prefixgen.network/v1 one, the standard adder around its network. The
// network is proven as network.Read proves it; an absent sparse, valency,
// ling, stages, no_reset, pg_cells or fa_cells is Standard's; unknown
// fields, a key
// given twice, trailing data and an architecture that does not fit the
// network are refused. The architecture is in its normal form.
func ReadDocument(r io.Reader) (*network.Network, Architecture, error) {
	net, arch, _, err := ReadDocumentFor(r)
	return net, arch, err
}

// ReadDocumentFor decodes one adder from r as ReadDocument does, and what
// the document says it was made for: its library and flow (the zero
// Target for a prefixgen.network/v1 document, or an adder document that
// records neither). A library or flow that is not a name is refused.
func ReadDocumentFor(r io.Reader) (*network.Network, Architecture, Target, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, Architecture{}, Target{}, fmt.Errorf("adder: cannot read the document: %w", err)
	}
	return decodeDocument(data)
}

// decodeDocument decodes the document data, as ReadDocumentFor.
func decodeDocument(data []byte) (*network.Network, Architecture, Target, error) {
	if f := claimedFormat(data); f != DocumentFormat {
		// Not an adder document: the network reader names what is wrong,
		// and its errors are those every --from has always given.
		net, err := network.Unmarshal(data)
		if err != nil {
			switch s, ok := f.(string); {
			case ok && s != network.Format:
				return nil, Architecture{}, Target{}, fmt.Errorf("adder: format %s is not supported: want %q or %q", network.Quote(s), network.Format, DocumentFormat)
			case !ok && f != nil:
				v, _ := json.Marshal(f) // a number, true, an object: as written
				if r := []rune(string(v)); len(r) > 40 {
					v = []byte(string(r[:40]) + "…")
				}
				return nil, Architecture{}, Target{}, fmt.Errorf("adder: format %s is not supported: want %q or %q", v, network.Format, DocumentFormat)
			}
			return nil, Architecture{}, Target{}, err
		}
		return net, Standard, Target{}, nil
	}
	if err := keysOnce(data, documentKeys, "document"); err != nil {
		return nil, Architecture{}, Target{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc document
	if err := dec.Decode(&doc); err != nil {
		return nil, Architecture{}, Target{}, decodeError(err, "document")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, Architecture{}, Target{}, fmt.Errorf("adder: trailing data after the %s document", DocumentFormat)
	}
	if len(doc.Network) == 0 || string(doc.Network) == "null" {
		return nil, Architecture{}, Target{}, errors.New(`adder: field "network" is missing: want the prefixgen.network/v1 document of the carry tree`)
	}
	net, err := network.Unmarshal(doc.Network)
	if err != nil {
		return nil, Architecture{}, Target{}, fmt.Errorf("adder: field \"network\": %w", err)
	}
	arch, err := doc.architecture()
	if err != nil {
		return nil, Architecture{}, Target{}, err
	}
	if err := arch.Check(net); err != nil {
		return nil, Architecture{}, Target{}, err
	}
	var target Target
	set := map[string]bool{}
	if doc.Library != nil {
		target.Library, set["library"] = *doc.Library, true
	}
	if doc.Flow != nil {
		target.Flow, set["flow"] = *doc.Flow, true
	}
	if err := target.check(set); err != nil {
		return nil, Architecture{}, Target{}, err
	}
	return net, arch.Normal(), target, nil
}

// notA says what a JSON value that is not what is decoded is not: a
// document, or an architecture's members.
func notA(what string) string {
	if what == "document" {
		return "not a " + DocumentFormat + " document"
	}
	return "not an adder architecture"
}

// decodeError words an error of encoding/json decoding the document or
// architecture (what), without Go's type names: a reader knows the
// document's fields.
func decodeError(err error, what string) error {
	if typ, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && typ.Field != "" {
		// The document's members are those of its embedded members.
		field := strings.TrimPrefix(typ.Field, "members.")
		return fmt.Errorf("adder: %s: field %q holds %s, which is not allowed there", notA(what), field, network.Article(typ.Value))
	}
	return fmt.Errorf("adder: %s: %s", notA(what), network.JSONReason(err))
}

// keysOnce refuses a document or architecture (what) whose top-level
// object holds a key twice, which encoding/json would resolve silently to
// the last one, or a key not spelled as one of keys (the network reader
// checks the network's own keys).
func keysOnce(data []byte, keys []string, what string) error {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return nil // the decoder names this error better
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return nil
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := tok.(string)
		if seen[key] {
			return fmt.Errorf("adder: key %s appears twice in the %s: each key once", network.Quote(key), what)
		}
		if !slices.Contains(keys, key) {
			// encoding/json would match "Sparse" or "ſparse" to sparse.
			return fmt.Errorf("adder: %s: unknown field %s", notA(what), network.Quote(key))
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
	}
	return nil
}
