package adder_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
)

// sameCells reports whether two networks have the same width, cells and
// outputs.
func sameCells(t *testing.T, want, got *network.Network) {
	t.Helper()
	w, err := want.MarshalJSON()
	require.NoError(t, err)
	g, err := got.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, string(w), string(g))
}

func TestDocumentRoundTrip(t *testing.T) {
	tests := []struct {
		topo string
		n    int
		arch adder.Architecture
	}{
		{"kogge-stone", 8, adder.Architecture{Flags: adder.Carry, Sparse: 2, Valency: 2, Ling: true}},
		{"brent-kung", 16, adder.Architecture{Flags: adder.Carry, Sparse: 4, Valency: 2}},
		{"sklansky", 16, adder.Architecture{Flags: adder.Carry, Sparse: 1, Valency: 4}},
		{"han-carlson", 32, adder.Architecture{Flags: adder.Carry, Sparse: 8, Valency: 3, Ling: true}},
		{"ripple", 1, adder.Architecture{Flags: adder.Carry, Ling: true}}, // zero sparse and valency: the standard ones
		{"sklansky", 16, adder.Architecture{Flags: adder.Carry, Sparse: 2, Stages: 2}},
		{"kogge-stone", 8, adder.Architecture{Flags: adder.Carry, Stages: 4, NoReset: true}},
		{"sklansky", 8, adder.Architecture{Flags: adder.Carry, Sparse: 2, PGCells: true}},
		{"han-carlson", 16, adder.Architecture{Flags: adder.Carry, Ling: true, Stages: 2, PGCells: true}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.topo, tt.n, tt.arch), func(t *testing.T) {
			net := build(t, tt.topo, tt.n)
			data, err := adder.MarshalDocument(net, tt.arch)
			require.NoError(t, err)
			assert.True(t, bytes.HasPrefix(data, []byte("{\n  \"format\": \"prefixgen.adder/v1\",\n")), "%s", data)
			got, arch, err := adder.ReadDocument(bytes.NewReader(data))
			require.NoError(t, err)
			sameCells(t, net, got)
			want := tt.arch
			want.Sparse, want.Valency = max(want.Sparse, 1), max(want.Valency, 2)
			assert.Equal(t, want, arch)
			again, err := adder.MarshalDocument(got, arch)
			require.NoError(t, err)
			assert.Equal(t, string(data), string(again), "the same adder encodes to the same bytes")
		})
	}
}

// A network document is the standard adder around its network, and
// WriteDocument writes one for the standard adder, so that every reader of
// networks reads it.
func TestDocumentNetwork(t *testing.T) {
	net := build(t, "ladner-fischer", 16)
	var b bytes.Buffer
	require.NoError(t, adder.WriteDocument(&b, net, adder.Standard))
	want, err := net.MarshalJSON()
	require.NoError(t, err)
	assert.Equal(t, string(want), b.String())
	got, arch, err := adder.ReadDocument(&b)
	require.NoError(t, err)
	sameCells(t, net, got)
	assert.Equal(t, adder.Standard, arch)
	assert.True(t, arch.IsStandard())
	assert.True(t, adder.Architecture{Flags: adder.Carry}.IsStandard(), "sparse 0 is 1, valency 0 is 2")
	assert.False(t, adder.Architecture{}.IsStandard(), "the zero value has no cout")
	assert.False(t, adder.Architecture{Flags: adder.Carry, Ling: true}.IsStandard())
	assert.False(t, adder.Architecture{Flags: adder.Carry, Stages: 1}.IsStandard())

	b.Reset()
	require.NoError(t, adder.WriteDocument(&b, net, adder.Architecture{Flags: adder.Carry, Sparse: 2}))
	assert.Contains(t, b.String(), `"format": "prefixgen.adder/v1"`)
	_, err = network.Unmarshal(b.Bytes())
	assert.Error(t, err, "a sparse adder is not a network document")
}

func TestDocumentGolden(t *testing.T) {
	data, err := adder.MarshalDocument(build(t, "brent-kung", 4), adder.Architecture{Flags: adder.Carry, Sparse: 2, Ling: true})
	require.NoError(t, err)
	assert.Equal(t, `{
  "format": "prefixgen.adder/v1",
  "sparse": 2,
  "valency": 2,
  "ling": true,
  "network": {
    "format": "prefixgen.network/v1",
    "width": 4,
    "topology": "brent-kung",
    "params": {},
    "cells": [
      [0, 1],
      [2, 3],
      [4, 5],
      [4, 2]
    ],
    "outputs": [0, 4, 7, 6]
  }
}
`, string(data))
}

// A pipelined adder's document records its stages and reset after ling,
// and a combinational adder's document has neither field, as before.
func TestDocumentStagesGolden(t *testing.T) {
	data, err := adder.MarshalDocument(build(t, "brent-kung", 4), adder.Architecture{Flags: adder.Carry, Stages: 2, NoReset: true})
	require.NoError(t, err)
	assert.Contains(t, string(data), "  \"ling\": false,\n  \"stages\": 2,\n  \"no_reset\": true,\n  \"network\": {\n")
	data, err = adder.MarshalDocument(build(t, "brent-kung", 4), adder.Architecture{Flags: adder.Carry, Sparse: 2})
	require.NoError(t, err)
	assert.NotContains(t, string(data), "stages")
	assert.NotContains(t, string(data), "no_reset")
}

func TestReadDocumentErrors(t *testing.T) {
	const net4 = `{"format":"prefixgen.network/v1","width":4,"topology":"brent-kung","params":{},"cells":[[0,1],[2,3],[4,5],[4,2]],"outputs":[0,4,7,6]}`
	doc := func(fields string) string {
		return `{"format":"prefixgen.adder/v1",` + fields + `}`
	}
	tests := []struct {
		name, in, want string
	}{
		{"no network", doc(`"sparse":2`), `adder: field "network" is missing: want the prefixgen.network/v1 document of the carry tree`},
		{"null network", doc(`"network":null`), `adder: field "network" is missing`},
		{"unknown field", doc(`"sparse":2,"radix":4,"network":` + net4), `adder: not a prefixgen.adder/v1 document: unknown field "radix"`},
		{"key twice", doc(`"sparse":2,"sparse":4,"network":` + net4), `adder: key "sparse" appears twice in the document: each key once`},
		{"sparse 3", doc(`"sparse":3,"network":` + net4), "adder: sparseness 3 not allowed: allowed 1, 2, 4, 8"},
		{"sparse 0", doc(`"sparse":0,"network":` + net4), "adder: sparseness 0 not allowed: allowed 1, 2, 4, 8"},
		{"sparse 8 of 4 bits", doc(`"sparse":8,"network":` + net4), "adder: sparseness 8 exceeds the width 4"},
		{"valency 5", doc(`"valency":5,"network":` + net4), "adder: valency 5 not allowed: allowed 2, 3, 4"},
		{"valency 1", doc(`"valency":1,"network":` + net4), "adder: valency 1 not allowed: allowed 2, 3, 4"},
		{"key in capitals", doc(`"Sparse":4,"network":` + net4), `adder: not a prefixgen.adder/v1 document: unknown field "Sparse"`},
		{"network an array", doc(`"network":[1]`), `adder: field "network": network: not a prefixgen.network/v1 document: an array where it is not allowed`},
		{"sparse a long number", doc(`"sparse":` + strings.Repeat("9", 500) + `,"network":` + net4), `adder: not a prefixgen.adder/v1 document: field "sparse" holds a number 9999999999999999999999999999999999999999…, which is not allowed there`},
		{"ling a number", doc(`"ling":1,"network":` + net4), `adder: not a prefixgen.adder/v1 document: field "ling" holds a number, which is not allowed there`},
		{"pg_cells a string", doc(`"pg_cells":"yes","network":` + net4), `adder: not a prefixgen.adder/v1 document: field "pg_cells" holds a string, which is not allowed there`},
		{"pg_cells twice", doc(`"pg_cells":true,"pg_cells":false,"network":` + net4), `adder: key "pg_cells" appears twice in the document: each key once`},
		{"stages 0", doc(`"stages":0,"network":` + net4), "adder: 0 pipeline stages not allowed: allowed 1 to the carry tree's depth + 1, or no field stages for a combinational adder"},
		{"stages beyond the depth", doc(`"stages":4,"network":` + net4), "adder: 4 pipeline stages for a carry tree of depth 2: allowed 1 to 3"},
		{"no reset alone", doc(`"no_reset":true,"network":` + net4), "adder: no reset given for a combinational adder: allowed only with register stages"},
		{"bad network", doc(`"network":{"format":"prefixgen.network/v1","width":2,"cells":[[0,0]],"outputs":[0,2]}`), `adder: field "network": network: `},
		{"trailing data", doc(`"network":`+net4) + "{}", "adder: trailing data after the prefixgen.adder/v1 document"},
		{"other format", `{"format":"prefixgen.adder/v2"}`, `adder: format "prefixgen.adder/v2" is not supported: want "prefixgen.network/v1" or "prefixgen.adder/v1"`},
		{"format a number", `{"format":2,"network":` + net4 + `}`, `adder: format 2 is not supported: want "prefixgen.network/v1" or "prefixgen.adder/v1"`},
		{"syntax error in an adder document", doc(`"ling":tru,"network":` + net4), `adder: not a prefixgen.adder/v1 document: invalid JSON at byte 42`},
		{"network error as ever", `{"format":"prefixgen.network/v1","width":2}`, "network: "},
		{"not JSON", `sparse: 2`, "network: not a prefixgen.network/v1 document"},
		{"library empty", doc(`"library":"","network":` + net4), `adder: library "" not allowed: allowed a name of 1 to 256 printable characters, without spaces at its ends`},
		{"library a number", doc(`"library":7,"network":` + net4), `adder: not a prefixgen.adder/v1 document: field "library" holds a number, which is not allowed there`},
		{"library of two lines", doc(`"library":"asap7\nsky130hd","network":` + net4), `adder: library "asap7\nsky130hd" not allowed`},
		{"flow with a space", doc(`"flow":"abc ","network":` + net4), `adder: flow "abc " not allowed`},
		{"flow twice", doc(`"flow":"abc","flow":"keep","network":` + net4), `adder: key "flow" appears twice in the document: each key once`},
		{"library too long", doc(`"library":"` + strings.Repeat("x", 257) + `","network":` + net4), `adder: library "xxx`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := adder.ReadDocument(strings.NewReader(tt.in))
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tt.want), "%q does not start with %q", err, tt.want)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
	// Absent fields are the plain adder's.
	net, arch, err := adder.ReadDocument(strings.NewReader(doc(`"network":` + net4)))
	require.NoError(t, err)
	assert.Equal(t, 4, net.Width())
	assert.Equal(t, adder.Standard, arch)
}

// FuzzReadDocument: whatever the input, ReadDocument returns an adder or a
// one-line error, never panics, and an adder it reads encodes to a document
// that reads back to the same adder.
func FuzzReadDocument(f *testing.F) {
	seeds := []string{
		`{"format":"prefixgen.adder/v1","sparse":2,"valency":2,"ling":true,"network":{"format":"prefixgen.network/v1","width":4,"topology":"brent-kung","params":{},"cells":[[0,1],[2,3],[4,5],[4,2]],"outputs":[0,4,7,6]}}`,
		`{"format":"prefixgen.network/v1","width":2,"topology":"","params":{},"cells":[[0,1]],"outputs":[0,2]}`,
		`{"format":"prefixgen.adder/v1","network":{"format":"prefixgen.network/v1","width":1,"cells":[],"outputs":[0]}}`,
		`{"format":"prefixgen.adder/v1","sparse":8}`,
		`{"format":"prefixgen.adder/v1","library":"asap7","flow":"abc","network":{"format":"prefixgen.network/v1","width":1,"cells":[],"outputs":[0]}}`,
		`{"format":1}`,
		`[]`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		net, arch, target, err := adder.ReadDocumentFor(bytes.NewReader(data))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		var b bytes.Buffer
		if err := adder.WriteDocumentFor(&b, net, arch, target); err != nil {
			t.Fatalf("an adder read does not write: %v", err)
		}
		again, arch2, target2, err := adder.ReadDocumentFor(&b)
		if err != nil {
			t.Fatalf("the document written does not read back: %v\n%s", err, b.String())
		}
		if target2 != target {
			t.Fatalf("read back made for %+v; want %+v", target2, target)
		}
		if !arch2.Equal(arch) || again.Size() != net.Size() || again.Width() != net.Width() {
			t.Fatalf("read back %v, %d cells of %d bits; want %v, %d cells of %d bits", arch2, again.Size(), again.Width(), arch, net.Size(), net.Width())
		}
	})
}

// What an adder was made for, its library and flow, follows its
// architecture, reads back, and makes the standard adder's document an
// adder document; ReadDocument reads such a document as any other.
func TestDocumentTarget(t *testing.T) {
	net := build(t, "brent-kung", 4)
	target := adder.Target{Library: "asap7", Flow: "abc"}
	data, err := adder.MarshalDocumentFor(net, adder.Architecture{Flags: adder.Carry, PGCells: true}, target)
	require.NoError(t, err)
	assert.Contains(t, string(data), "  \"pg_cells\": true,\n  \"library\": \"asap7\",\n  \"flow\": \"abc\",\n  \"network\": {\n")
	got, arch, gotTarget, err := adder.ReadDocumentFor(bytes.NewReader(data))
	require.NoError(t, err)
	sameCells(t, net, got)
	assert.True(t, arch.PGCells)
	assert.Equal(t, target, gotTarget)
	_, _, err = adder.ReadDocument(bytes.NewReader(data))
	require.NoError(t, err)

	for _, tt := range []adder.Target{{Library: "NangateOpenCellLibrary"}, {Flow: "keep"}} {
		var b bytes.Buffer
		require.NoError(t, adder.WriteDocumentFor(&b, net, adder.Standard, tt))
		assert.True(t, adder.IsDocument(b.Bytes()), "a standard adder made for %+v", tt)
		assert.NotContains(t, b.String(), `"pg_cells"`)
		_, arch, gotTarget, err := adder.ReadDocumentFor(&b)
		require.NoError(t, err)
		assert.True(t, arch.IsStandard())
		assert.Equal(t, tt, gotTarget)
	}
	var b bytes.Buffer
	require.NoError(t, adder.WriteDocumentFor(&b, net, adder.Standard, adder.Target{}))
	assert.False(t, adder.IsDocument(b.Bytes()), "made for nothing: the network document")
	_, _, gotTarget, err = adder.ReadDocumentFor(&b)
	require.NoError(t, err)
	assert.True(t, gotTarget.IsZero())

	_, err = adder.MarshalDocumentFor(net, adder.Standard, adder.Target{Library: " asap7"})
	assert.EqualError(t, err, `adder: library " asap7" not allowed: allowed a name of 1 to 256 printable characters, without spaces at its ends`)
}

func ExampleReadDocument() {
	const doc = `{"format": "prefixgen.adder/v1", "sparse": 2, "ling": true,
	  "network": {"format": "prefixgen.network/v1", "width": 4, "topology": "brent-kung", "params": {},
	              "cells": [[0, 1], [2, 3], [4, 5], [4, 2]], "outputs": [0, 4, 7, 6]}}`
	net, arch, err := adder.ReadDocument(strings.NewReader(doc))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Printf("%s, %d bits, %d cells: sparse %d, valency %d, Ling %t\n", net.Topology(), net.Width(), net.Size(), arch.Sparse, arch.Valency, arch.Ling)
	// Output:
	// brent-kung, 4 bits, 4 cells: sparse 2, valency 2, Ling true
}

// IsDocument tells an adder document from a network document and from
// anything else by its format member alone.
func TestIsDocument(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{`{"format":"prefixgen.adder/v1","sparse":2}`, true},
		{`{"sparse":1,"format":"prefixgen.adder/v1"}`, true},
		{`{"format":"prefixgen.network/v1","width":2}`, false},
		{`{"format":"prefixgen.adder/v2"}`, false},
		{`{"format":"prefixgen.adder/v1"`, false},
		{`[]`, false},
		{``, false},
	} {
		assert.Equal(t, tc.want, adder.IsDocument([]byte(tc.in)), tc.in)
	}
}
