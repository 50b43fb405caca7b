package network_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/network"
)

func TestJSONGolden(t *testing.T) {
	got, err := sklansky4(t).MarshalJSON()
	require.NoError(t, err)
	golden.Check(t, filepath.Join("testdata", "sklansky4.golden"), got)
}

func TestJSONRoundTripsByteForByte(t *testing.T) {
	for _, n := range []*network.Network{sklansky4(t), koggeStone8(t)} {
		first, err := n.MarshalJSON()
		require.NoError(t, err)
		m, err := network.Unmarshal(first)
		require.NoError(t, err)
		second, err := m.MarshalJSON()
		require.NoError(t, err)
		assert.Equal(t, string(first), string(second))
		assert.Equal(t, n.Spec(), m.Spec())
	}
}

// The decoder accepts any JSON layout of the same document.
func TestReadCompact(t *testing.T) {
	n, err := network.Read(strings.NewReader(`{"format":"prefixgen.network/v1","width":3,"topology":"mine","params":{"k":2},"cells":[[0,1],[3,2]],"outputs":[0,3,4]}`))
	require.NoError(t, err)
	assert.Equal(t, 3, n.Width())
	assert.Equal(t, "mine", n.Topology())
	assert.Equal(t, network.Params{"k": 2}, n.Params())
	assert.Equal(t, 2, n.Depth())
}

func TestReadRefuses(t *testing.T) {
	const head = `"format":"prefixgen.network/v1",`
	tests := []struct {
		name, doc, want string
	}{
		{"empty", ``, "network: not a prefixgen.network/v1 document: the input is empty"},
		{"not json", `hello`, "network: not a prefixgen.network/v1 document: invalid JSON at byte 1: 'h' where a value should begin"},
		{"truncated", `{"format":`, "network: not a prefixgen.network/v1 document: the input ends early"},
		{"unknown field", `{` + head + `"width":1,"cells":[],"outputs":[0],"colour":1}`, `network: not a prefixgen.network/v1 document: unknown field "colour"`},
		{"no format", `{"width":1,"cells":[],"outputs":[0]}`, `network: field "format" is missing: want "prefixgen.network/v1"`},
		{"other format", `{"format":"v0","width":1,"cells":[],"outputs":[0]}`, `network: format "v0" is not supported: want "prefixgen.network/v1"`},
		{"no width", `{` + head + `"cells":[],"outputs":[0]}`, `network: field "width" is missing`},
		{"width string", `{` + head + `"width":"4"}`, `network: not a prefixgen.network/v1 document: field "width" holds a string, which is not allowed there`},
		{"width zero", `{` + head + `"width":0,"cells":[],"outputs":[]}`, "network: width 0 out of range: allowed 1…1073741824"},
		{"huge width", `{` + head + `"width":1073741825,"cells":[],"outputs":[0]}`, "network: width 1073741825 out of range: allowed 1…1073741824"},
		{"width mismatch", `{` + head + `"width":3,"cells":[[0,1]],"outputs":[0,3]}`, "network: 2 outputs for width 3: want one output per position"},
		{"three operands", `{` + head + `"width":2,"cells":[[0,1,1]],"outputs":[0,2]}`, "network: cell 0 has 3 operands: want [lo, hi]"},
		{"fraction", `{` + head + `"width":2,"cells":[[0,1.5]],"outputs":[0,2]}`, "network: cell 0 is [0, 1.5]: operands must be signal numbers"},
		{"forward reference", `{` + head + `"width":2,"cells":[[0,2]],"outputs":[0,2]}`, "network: cell 0 reads signal 2, which is not an earlier signal: allowed 0…1"},
		{"non-adjacent", `{` + head + `"width":3,"cells":[[0,2],[0,1]],"outputs":[0,4,3]}`, "network: cell 0 joins [0,0] and [2,2]: spans not adjacent"},
		{"missing output", `{` + head + `"width":2,"cells":[[0,1]],"outputs":[0,1]}`, "network: output 1 is signal 1 spanning [1,1]: want [0,1]"},
		{"dead cell", `{` + head + `"width":3,"cells":[[0,1],[1,2],[3,2]],"outputs":[0,3,5]}`, "network: cell 1 [1,2] reaches no output: dead cell"},
		{"trailing", `{` + head + `"width":1,"cells":[],"outputs":[0]} {}`, "network: trailing data after the prefixgen.network/v1 document"},
		{"byte-order mark", "\ufeff{" + head + `"width":1,"cells":[],"outputs":[0]}`, "network: the file starts with a UTF-8 byte-order mark (EF BB BF): save it as UTF-8 without one"},
		{"cells a number", `{` + head + `"width":1,"cells":5,"outputs":[0]}`, `network: not a prefixgen.network/v1 document: field "cells" holds a number, which is not allowed there`},
		{"cells an object", `{` + head + `"width":1,"cells":{"a":[0,1]},"outputs":[0]}`, `network: not a prefixgen.network/v1 document: field "cells" holds an object, which is not allowed there`},
		{"a cell a number", `{` + head + `"width":2,"cells":[[0,1], 7],"outputs":[0,2]}`, `network: cell 1 is 7: want [lo, hi]`},
		{"a cell of strings with brackets", `{` + head + `"width":2,"cells":[["]",  "[,"]],"outputs":[0,2]}`, `network: cell 0 is ["]", "[,"]: operands must be signal numbers`},
		{"cells null", `{` + head + `"width":1,"cells":null,"outputs":[0]}`, ""},
		{"white space everywhere", "{\n\t" + head + "\"width\" : 2 ,\r\n\"cells\" : [ [ 0 , 1 ] ] , \"outputs\":[0,2]}\n", ""},
		{"key in capitals", `{` + head + `"width":1,"Cells":[],"outputs":[0]}`, `network: not a prefixgen.network/v1 document: unknown field "Cells"`},
		{"key with a long s", `{` + head + `"width":1,"cells":[],"outputs":[0],"cellſ":[[0,1]]}`, `network: not a prefixgen.network/v1 document: unknown field "cellſ"`},
		{"escaped key", `{` + head + `"width":1,"cell\u0073":[],"outputs":[0],"cells":[]}`, `network: key "cells" appears twice in the document: each key once`},
		{"string in the fifth cell", `{` + head + `"width":2,"cells":[[0,1],[0,"2"]],"outputs":[0,2]}`, `network: cell 1 is [0, "2"]: operands must be signal numbers`},
		{"duplicate width", `{` + head + `"width":1,"cells":[],"outputs":[0],"width":2}`, `network: key "width" appears twice in the document: each key once`},
		{"duplicate format", `{` + head + head + `"width":1,"cells":[],"outputs":[0]}`, `network: key "format" appears twice in the document: each key once`},
		{"duplicate param", `{` + head + `"width":1,"params":{"k":1,"k":2},"cells":[],"outputs":[0]}`, `network: key "k" appears twice in "params": each key once`},
		{"duplicate long key", `{` + head + `"width":1,"params":{"` + strings.Repeat("k", 3000) + `":1,"` + strings.Repeat("k", 3000) + `":2},"cells":[],"outputs":[0]}`, `network: key "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…" appears twice in "params": each key once`},
		{"unknown long field", `{` + head + `"width":1,"cells":[],"outputs":[0],"` + strings.Repeat("c", 3000) + `":1}`, `network: not a prefixgen.network/v1 document: unknown field "cccccccccccccccccccccccccccccccccccccccc…"`},
		{"long string for a number", `{` + head + `"width":2,"cells":[[0,"` + strings.Repeat("9x", 3000) + `"]],"outputs":[0,1]}`, `network: cell 0 is [0, "9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x…"]: operands must be signal numbers`},
		{"quoted number", `{` + head + `"width":2,"cells":[[0,"1"]],"outputs":[0,2]}`, `network: cell 0 is [0, "1"]: operands must be signal numbers`},
		{"null operand", `{` + head + `"width":2,"cells":[[null,1]],"outputs":[0,2]}`, "network: cell 0 is [null, 1]: operands must be signal numbers"},
		{"exponent", `{` + head + `"width":2,"cells":[[0,1e0]],"outputs":[0,2]}`, "network: cell 0 is [0, 1e0]: operands must be signal numbers"},
		{"huge operand", `{` + head + `"width":2,"cells":[[0,` + strings.Repeat("9", 3000) + `]],"outputs":[0,2]}`, "network: cell 0 is [0, 9999999999999999999999999999999999999999…]: operands must be signal numbers"},
		{"nested operand", `{` + head + `"width":2,"cells":[[0,[1]]],"outputs":[0,2]}`, "network: cell 0 is [0, [1]]: operands must be signal numbers"},
		{"negative operand", `{` + head + `"width":2,"cells":[[-1,1]],"outputs":[0,2]}`, "network: cell 0 reads signal -1, which is not an earlier signal: allowed 0…1"},
		{"string for a number", `{` + head + `"width":2,"cells":[[0,"x"]],"outputs":[0,1]}`, `network: cell 0 is [0, "x"]: operands must be signal numbers`},
		{"long topology", `{` + head + `"width":1,"topology":"` + strings.Repeat("x", 3000) + `","cells":[],"outputs":[0]}`, `network: topology name "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…" (3000 bytes) not allowed: a name is at most 64 characters a-z, 0-9, '-' and '_', starting with a letter`},
		{"odd topology", `{` + head + `"width":1,"topology":"My Net","cells":[],"outputs":[0]}`, `network: topology name "My Net" not allowed: a name is at most 64 characters a-z, 0-9, '-' and '_', starting with a letter`},
		{"odd parameter", `{` + head + `"width":1,"topology":"mine","params":{"k-1":1},"cells":[],"outputs":[0]}`, `network: parameter name "k-1" not allowed: a name is at most 32 characters a-z, 0-9 and '_', starting with a letter`},
		{"long width", `{` + head + `"width":` + strings.Repeat("9", 3000) + `,"cells":[],"outputs":[0]}`, `network: not a prefixgen.network/v1 document: field "width" holds a number 9999999999999999999999999999999999999999…, which is not allowed there`},
		{"long output", `{` + head + `"width":1,"cells":[],"outputs":[1` + strings.Repeat("0", 3000) + `]}`, `network: not a prefixgen.network/v1 document: field "outputs" holds a number 1000000000000000000000000000000000000000…, which is not allowed there`},
		{"a cell an object", `{` + head + `"width":2,"cells":[{"lo": 0,` + "\n" + `"hi":1}],"outputs":[0,2]}`, `network: cell 0 is {"lo":0,"hi":1}: want [lo, hi]`},
		{"a cell a long object", `{` + head + `"width":2,"cells":[{"lo":"` + strings.Repeat("x", 100) + `"}],"outputs":[0,2]}`, `network: cell 0 is {"lo":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…: want [lo, hi]`},
		{"one operand", `{` + head + `"width":2,"cells":[[0]],"outputs":[0,2]}`, "network: cell 0 has 1 operand: want [lo, hi]"},
		{"long format", `{"format":"` + strings.Repeat("v", 100) + `","width":1,"cells":[],"outputs":[0]}`, `network: format "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv…" is not supported: want "prefixgen.network/v1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := network.Unmarshal([]byte(tt.doc))
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tt.want)
		})
	}
}

// FuzzRead feeds arbitrary bytes to the decoder and Validate: no input may
// panic, and whatever decodes must encode and decode back to the same bytes.
func FuzzRead(f *testing.F) {
	for _, n := range []*network.Network{sklansky4(f), koggeStone8(f)} {
		js, err := n.MarshalJSON()
		require.NoError(f, err)
		f.Add(js)
	}
	f.Add([]byte(`{"format":"prefixgen.network/v1","width":3,"cells":[[0,2],[0,1]],"outputs":[0,4,3]}`))
	f.Add([]byte(`{"format":"prefixgen.network/v1","width":2,"cells":[[1,0]],"outputs":[0,2]}`))
	f.Add([]byte(`{"format":"prefixgen.network/v1","width":1,"cells":[],"outputs":[0]}`))
	f.Add([]byte("\ufeff" + `{"format":"prefixgen.network/v1","width":1,"cells":[],"outputs":[0]}`))
	f.Add([]byte(`{"format":"prefixgen.network/v1","width":1,"params":{"k":1,"k":1},"cells":[],"outputs":[0]}`))
	f.Add([]byte(`{"format":"prefixgen.network/v1","width":1,"topology":"a-b_c","cells":[],"outputs":[0],"width":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := network.Unmarshal(data)
		if err != nil {
			assert.True(t, strings.HasPrefix(err.Error(), "network: "), err.Error())
			assert.NotContains(t, err.Error(), "\n")
			assert.LessOrEqual(t, len(err.Error()), 300, "input echoed in an error is cut short: %q", err.Error())
			return
		}
		first, err := n.MarshalJSON()
		require.NoError(t, err)
		m, err := network.Read(bytes.NewReader(first))
		require.NoError(t, err)
		second, err := m.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, string(first), string(second))
		require.NoError(t, n.Spec().Validate())
		f := n.Figures()
		require.GreaterOrEqual(t, f.Deficiency, 0, "Snir's bound")
	})
}

func TestQuote(t *testing.T) {
	assert.Equal(t, `"kogge-stone"`, network.Quote("kogge-stone"))
	assert.Equal(t, `""`, network.Quote(""))
	assert.Equal(t, `"`+strings.Repeat("é", 40)+`…"`, network.Quote(strings.Repeat("é", 41)))
	assert.Equal(t, `"a\nb"`, network.Quote("a\nb"))
	assert.Equal(t, `"\xff"`, network.Quote("\xff"))
}

// A network built with a name the document format does not allow is not
// encoded into a document that Read would refuse.
func TestMarshalRefusesNames(t *testing.T) {
	for _, spec := range []network.Spec{
		{Width: 1, Outputs: []int{0}, Topology: "My Net"},
		{Width: 1, Outputs: []int{0}, Topology: "mine", Params: network.Params{"K": 1}},
	} {
		n, err := network.New(spec)
		require.NoError(t, err, "New takes any name")
		_, err = n.MarshalJSON()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "not allowed")
	}
}

// TestReadWrapsReaderError checks that the reader's own error reaches
// Read's caller wrapped: errors.Is finds it behind the package's line.
func TestReadWrapsReaderError(t *testing.T) {
	gone := errors.New("connection reset")
	_, err := network.Read(iotest.ErrReader(gone))
	assert.ErrorIs(t, err, gone)
	assert.EqualError(t, err, "network: cannot read the prefixgen.network/v1 document: connection reset")
	_, err = network.Read(iotest.TimeoutReader(strings.NewReader(`{"format":`)))
	assert.ErrorIs(t, err, iotest.ErrTimeout)
}

// TestJSONError: a decoding error as one line without Go's type names,
// the decoding error still beneath it.
func TestJSONError(t *testing.T) {
	var v struct {
		Times []float64 `json:"times"`
	}
	for _, c := range []struct{ in, want string }{
		{``, "file: the input is empty (allowed {\"times\": [numbers]})"},
		{`{"times": [1e400]}`, `file: field "times" holds a number 1e400, which is not allowed there (allowed {"times": [numbers]})`},
		{`{"times": [1,}`, `file: invalid JSON at byte 14: '}' where a value should begin (allowed {"times": [numbers]})`},
		{`{"times" [1]}`, `file: invalid JSON at byte 10: '[' after a key, where ':' belongs (allowed {"times": [numbers]})`},
		{`{"times": [1] x}`, `file: invalid JSON at byte 15: 'x' after a field, where ',' or '}' belongs (allowed {"times": [numbers]})`},
		{`{"times": [1 2]}`, `file: invalid JSON at byte 14: '2' after an element, where ',' or ']' belongs (allowed {"times": [numbers]})`},
		{`{times: [1]}`, `file: invalid JSON at byte 2: 't' where a key in double quotes should begin (allowed {"times": [numbers]})`},
		{"{\"ti\tmes\": [1]}", `file: invalid JSON at byte 5: '\t' inside a string, where it must be escaped (allowed {"times": [numbers]})`},
		{`{"ti\qmes": [1]}`, `file: invalid JSON at byte 6: 'q' after a backslash in a string, which escapes none (allowed {"times": [numbers]})`},
		{`{"times": [1.x]}`, `file: invalid JSON at byte 14: 'x' inside a number (allowed {"times": [numbers]})`},
		{`{"times": [1]} {`, `file: invalid JSON at byte 16: '{' after the document's end (allowed {"times": [numbers]})`},
		{`{"times": [tru]}`, `file: invalid JSON at byte 15: ']' in true, where 'e' belongs (allowed {"times": [numbers]})`},
		{`{"times": [1]`, `file: the input ends early (allowed {"times": [numbers]})`},
	} {
		err := json.Unmarshal([]byte(c.in), &v)
		if c.in == "" {
			err = json.NewDecoder(strings.NewReader(c.in)).Decode(&v)
		}
		require.Error(t, err, c.in)
		got := network.JSONError("file: ", err, `{"times": [numbers]}`)
		assert.EqualError(t, got, c.want)
		assert.ErrorIs(t, got, err)
	}
}
