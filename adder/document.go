package adder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// DocumentFormat is the format tag of the adder document, a network and the
// architecture of the adder around it:
//
//	{"format":"prefixgen.adder/v1","sparse":S,"valency":K,"ling":B,"network":{…prefixgen.network/v1…}}
//
// A pipelined adder adds "stages":K and "no_reset":B after "ling" (a
// document without them is the combinational adder), and an adder whose
// generate and propagate are library cells (Options.Cells) "pg_cells":true
// after those (without it they are logic). A
// prefixgen.network/v1 document alone is the plain adder around its
// network.
const DocumentFormat = "prefixgen.adder/v1"

// Architecture is what an adder document records of the adder around its
// network: the sparseness of its carry tree (1, 2, 4 or 8), the valency of
// its gates (2, 3 or 4), whether it computes Ling's pseudo-carries, and the
// register stages of a pipeline, placed by BalancedCuts, with or without a
// reset, and whether each bit's generate and propagate are cells of a
// standard-cell library (see Options). The zero value, like Plain, is the
// plain adder.
type Architecture struct {
	Sparse, Valency int
	Ling            bool
	Stages          int
	NoReset         bool
	// PGCells records Options.Cells: the library, and so its cells, is the
	// reader's to choose (Options leaves Cells nil).
	PGCells bool
}

// Plain is the architecture of the plain adder: every carry, binary cells,
// no Ling carries.
var Plain = Architecture{Sparse: 1, Valency: 2}

// normal returns a with 0 read as the plain value.
func (a Architecture) normal() Architecture {
	if a.Sparse == 0 {
		a.Sparse = 1
	}
	if a.Valency == 0 {
		a.Valency = 2
	}
	return a
}

// IsPlain reports whether a is the plain adder's architecture.
func (a Architecture) IsPlain() bool { return a.normal() == Plain }

// Options returns the options of Describe for the adder {cout, sum} =
// a + b + cin with this architecture; with PGCells the caller sets
// Options.Cells to the cells of its library.
func (a Architecture) Options() Options {
	a = a.normal()
	return Options{Flags: Carry, Sparse: a.Sparse, Valency: a.Valency, Ling: a.Ling, Stages: a.Stages, NoReset: a.NoReset}
}

// Check reports whether the architecture fits net: an allowed sparseness
// no wider than the network, an allowed valency, 1 to the carry tree's
// depth + 1 stages or none, and NoReset only with stages.
func (a Architecture) Check(net *network.Network) error {
	_, err := Describe(net, a.Options())
	return err
}

// MarshalDocument encodes net and arch as a prefixgen.adder/v1 document,
// the network in its prefixgen.network/v1 form; the same network and
// architecture always encode to the same bytes. An architecture that does
// not fit the network is refused.
func MarshalDocument(net *network.Network, arch Architecture) ([]byte, error) {
	arch = arch.normal()
	if err := arch.Check(net); err != nil {
		return nil, err
	}
	doc, err := net.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"format\": \"" + DocumentFormat + "\",\n")
	b.WriteString("  \"sparse\": " + strconv.Itoa(arch.Sparse) + ",\n")
	b.WriteString("  \"valency\": " + strconv.Itoa(arch.Valency) + ",\n")
	b.WriteString("  \"ling\": " + strconv.FormatBool(arch.Ling) + ",\n")
	if arch.Stages > 0 {
		b.WriteString("  \"stages\": " + strconv.Itoa(arch.Stages) + ",\n")
		b.WriteString("  \"no_reset\": " + strconv.FormatBool(arch.NoReset) + ",\n")
	}
	if arch.PGCells {
		b.WriteString("  \"pg_cells\": true,\n")
	}
	b.WriteString("  \"network\": ")
	// Indent the network document one level, as a member of this one.
	doc = bytes.TrimSuffix(doc, []byte("\n"))
	b.Write(bytes.ReplaceAll(doc, []byte("\n"), []byte("\n  ")))
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// WriteDocument writes the document of net and arch to w: the
// prefixgen.network/v1 document when arch is the plain adder's, so that
// every reader of networks reads it, and the prefixgen.adder/v1 one
// otherwise.
func WriteDocument(w io.Writer, net *network.Network, arch Architecture) error {
	var (
		data []byte
		err  error
	)
	if arch.IsPlain() {
		data, err = net.MarshalJSON()
	} else {
		data, err = MarshalDocument(net, arch)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// document is the prefixgen.adder/v1 document as it is decoded.
type document struct {
	Format  *string         `json:"format"`
	Sparse  *int            `json:"sparse"`
	Valency *int            `json:"valency"`
	Ling    *bool           `json:"ling"`
	Stages  *int            `json:"stages"`
	NoReset *bool           `json:"no_reset"`
	PGCells *bool           `json:"pg_cells"`
	Network json.RawMessage `json:"network"`
}

// IsDocument reports whether data claims to be a prefixgen.adder/v1
// document, which records its adder's architecture, rather than a
// prefixgen.network/v1 one, whose adder ReadDocument takes to be the plain
// one. WriteDocument writes the plain adder as a network document, so an
// adder document records an adder that is not plain.
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

// ReadDocument decodes one adder from r: a prefixgen.adder/v1 document, or
// a prefixgen.network/v1 one, the plain adder around its network. The
// network is proven as network.Read proves it; an absent sparse, valency,
// ling, stages, no_reset or pg_cells is the plain adder's; unknown fields, a key given twice, trailing
// data and an architecture that does not fit the network are refused.
func ReadDocument(r io.Reader) (*network.Network, Architecture, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, Architecture{}, fmt.Errorf("adder: cannot read the document: %v", err)
	}
	if f := format(data); f != DocumentFormat {
		// Not an adder document: the network reader names what is wrong,
		// and its errors are those every --from has always given.
		net, err := network.Unmarshal(data)
		if err != nil {
			if s, ok := f.(string); ok && s != network.Format {
				return nil, Architecture{}, fmt.Errorf("adder: format %s is not supported: want %q or %q", network.Quote(s), network.Format, DocumentFormat)
			}
			return nil, Architecture{}, err
		}
		return net, Plain, nil
	}
	if err := topLevelKeysOnce(data); err != nil {
		return nil, Architecture{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var doc document
	if err := dec.Decode(&doc); err != nil {
		if typ, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && typ.Field != "" {
			// Without Go's type names: a reader knows the document's fields.
			return nil, Architecture{}, fmt.Errorf("adder: not a %s document: field %q holds %s, which is not allowed there", DocumentFormat, typ.Field, network.Article(typ.Value))
		}
		return nil, Architecture{}, fmt.Errorf("adder: not a %s document: %s", DocumentFormat, strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, Architecture{}, fmt.Errorf("adder: trailing data after the %s document", DocumentFormat)
	}
	if len(doc.Network) == 0 || string(doc.Network) == "null" {
		return nil, Architecture{}, errors.New(`adder: field "network" is missing: want the prefixgen.network/v1 document of the carry tree`)
	}
	net, err := network.Unmarshal(doc.Network)
	if err != nil {
		return nil, Architecture{}, fmt.Errorf("adder: field \"network\": %v", err)
	}
	arch := Plain
	if doc.Sparse != nil {
		arch.Sparse = *doc.Sparse
		if arch.Sparse < 1 {
			return nil, Architecture{}, fmt.Errorf("adder: sparseness %d not allowed: allowed 1, 2, 4, 8", arch.Sparse)
		}
	}
	if doc.Valency != nil {
		arch.Valency = *doc.Valency
		if arch.Valency < 2 {
			return nil, Architecture{}, fmt.Errorf("adder: valency %d not allowed: allowed 2, 3, 4", arch.Valency)
		}
	}
	if doc.Ling != nil {
		arch.Ling = *doc.Ling
	}
	if doc.Stages != nil {
		if arch.Stages = *doc.Stages; arch.Stages < 1 {
			return nil, Architecture{}, fmt.Errorf("adder: %d pipeline stages not allowed: allowed 1 to the carry tree's depth + 1, or no field stages for a combinational adder", arch.Stages)
		}
	}
	if doc.NoReset != nil {
		arch.NoReset = *doc.NoReset
	}
	if doc.PGCells != nil {
		arch.PGCells = *doc.PGCells
	}
	if err := arch.Check(net); err != nil {
		return nil, Architecture{}, err
	}
	return net, arch, nil
}

// documentKeys are the keys of the adder document, spelled exactly.
var documentKeys = []string{"format", "sparse", "valency", "ling", "stages", "no_reset", "pg_cells", "network"}

// topLevelKeysOnce refuses a document whose top-level object holds a key
// twice, which encoding/json would resolve silently to the last one, or a
// key not spelled as the format spells it (the network reader checks the
// network's own keys).
func topLevelKeysOnce(data []byte) error {
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
			return fmt.Errorf("adder: key %s appears twice in the document: each key once", network.Quote(key))
		}
		if !slices.Contains(documentKeys, key) {
			// encoding/json would match "Sparse" or "ſparse" to sparse.
			return fmt.Errorf("adder: not a %s document: unknown field %s", DocumentFormat, network.Quote(key))
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
	}
	return nil
}
