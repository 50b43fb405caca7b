package designmap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sumCell is one cell of a test module: an adder, or (typ "$dff") a
// register that reads A.
type sumCell struct {
	name, typ string
	a, b, y   []int
}

// sumModule writes a Yosys JSON module of 2-bit inputs in0… (bits from 2
// on), the cells, and outputs out0… reading the given bits.
func sumModule(t testing.TB, inputs int, cells []sumCell, outputs [][]int) []byte {
	t.Helper()
	bin := func(n int) string { return fmt.Sprintf("%032b", n) }
	ports := map[string]any{}
	for i := range inputs {
		ports["in"+strconv.Itoa(i)] = map[string]any{"direction": "input", "bits": []int{2 + 2*i, 3 + 2*i}}
	}
	for i, o := range outputs {
		ports["out"+strconv.Itoa(i)] = map[string]any{"direction": "output", "bits": o}
	}
	cs := map[string]any{}
	nets := map[string]any{}
	for _, c := range cells {
		switch c.typ {
		case "$dff":
			cs[c.name] = map[string]any{"type": "$dff", "parameters": map[string]any{"WIDTH": bin(len(c.a))},
				"port_directions": map[string]any{"D": "input", "Q": "output"},
				"connections":     map[string]any{"D": c.a, "Q": c.y}}
		default:
			cs[c.name] = map[string]any{"type": c.typ, "hide_name": 1,
				"parameters":      map[string]any{"A_SIGNED": bin(0), "B_SIGNED": bin(0), "A_WIDTH": bin(len(c.a)), "B_WIDTH": bin(len(c.b)), "Y_WIDTH": bin(len(c.y))},
				"port_directions": map[string]any{"A": "input", "B": "input", "Y": "output"},
				"connections":     map[string]any{"A": c.a, "B": c.b, "Y": c.y}}
		}
		nets[c.name+"_y"] = map[string]any{"hide_name": 0, "bits": c.y}
	}
	doc := map[string]any{"modules": map[string]any{"top": map[string]any{"ports": ports, "cells": cs, "netnames": nets}}}
	data, err := json.Marshal(doc)
	require.NoError(t, err)
	return data
}

// evalSums evaluates the outputs (and registers' inputs) of a module of
// adders for the given inputs, each bit of a sum as its cell computes it.
func evalSums(t *testing.T, data []byte, inputs []int) []int {
	t.Helper()
	var doc struct {
		Modules map[string]struct {
			Ports map[string]struct {
				Direction string `json:"direction"`
				Bits      []int  `json:"bits"`
			} `json:"ports"`
			Cells map[string]struct {
				Type        string           `json:"type"`
				Connections map[string][]int `json:"connections"`
			} `json:"cells"`
		} `json:"modules"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	mod := doc.Modules["top"]
	val := map[int]int{}
	for i, v := range inputs {
		p := mod.Ports["in"+strconv.Itoa(i)]
		for j, b := range p.Bits {
			val[b] = v >> j & 1
		}
	}
	word := func(bits []int) (int, bool) {
		w := 0
		for j, b := range bits {
			v, ok := val[b]
			if !ok {
				return 0, false
			}
			w |= v << j
		}
		return w, true
	}
	for progress := true; progress; {
		progress = false
		for _, c := range mod.Cells {
			if c.Type == "$dff" {
				continue
			}
			y := c.Connections["Y"]
			if _, done := val[y[0]]; done {
				continue
			}
			a, okA := word(c.Connections["A"])
			b, okB := word(c.Connections["B"])
			if !okA || !okB {
				continue
			}
			s := a + b
			if c.Type == "$sub" {
				s = a - b
			}
			for j, bit := range y {
				val[bit] = s >> j & 1
			}
			progress = true
		}
	}
	var out []int
	names := make([]string, 0, len(mod.Cells))
	for name := range mod.Cells {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if c := mod.Cells[name]; c.Type == "$dff" {
			w, ok := word(c.Connections["D"])
			require.True(t, ok, "register %s reads a bit nothing drives", name)
			out = append(out, w)
		}
	}
	for i := 0; ; i++ {
		p, ok := mod.Ports["out"+strconv.Itoa(i)]
		if !ok {
			break
		}
		w, ok := word(p.Bits)
		require.True(t, ok, "output %d reads a bit nothing drives", i)
		out = append(out, w)
	}
	return out
}

// sharedSums counts the adders whose sum another adder reads whole while
// anything else reads it too: what alumacc cannot merge.
func sharedSums(t *testing.T, data []byte) (adders, shared int) {
	t.Helper()
	d := decodeSums(t, data)
	_, users := d.index()
	for name, v := range d.cells {
		if !isAdder(v.(map[string]any)) {
			continue
		}
		adders++
		whole, other := d.operands(name, users)
		if len(whole) > 1 || len(whole) == 1 && other {
			shared++
		}
	}
	return adders, shared
}

func decodeSums(t *testing.T, data []byte) *sumDesign {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	require.NoError(t, dec.Decode(&doc))
	mod := doc["modules"].(map[string]any)["top"].(map[string]any)
	return &sumDesign{cells: mod["cells"].(map[string]any), netnames: mod["netnames"].(map[string]any), ports: mod["ports"]}
}

func TestMergeSums(t *testing.T) {
	// Inputs in0..in3 are bits 2-3, 4-5, 6-7, 8-9; sums from 20 on.
	in := func(i int) []int { return []int{2 + 2*i, 3 + 2*i} }
	tests := []struct {
		name    string
		cells   []sumCell
		outputs [][]int
		copies  int
	}{
		{"one reader", []sumCell{
			{"t", "$add", in(0), in(1), []int{20, 21}},
			{"u", "$add", []int{20, 21}, in(2), []int{22, 23}},
		}, [][]int{{22, 23}}, 0},
		{"two adders read t", []sumCell{
			{"t", "$add", in(0), in(1), []int{20, 21}},
			{"u", "$add", []int{20, 21}, in(2), []int{22, 23}},
			{"v", "$sub", in(3), []int{20, 21}, []int{24, 25}},
		}, [][]int{{22, 23}, {24, 25}}, 1},
		{"an adder and an output read t", []sumCell{
			{"t", "$add", in(0), in(1), []int{20, 21}},
			{"u", "$add", []int{20, 21}, in(2), []int{22, 23}},
		}, [][]int{{22, 23}, {20, 21}}, 1},
		{"three adders and a register read a chain of two", []sumCell{
			{"s", "$add", in(0), in(1), []int{18, 19}},
			{"t", "$sub", []int{18, 19}, in(2), []int{20, 21}},
			{"u", "$add", []int{20, 21}, in(2), []int{22, 23}},
			{"v", "$add", in(3), []int{20, 21}, []int{24, 25}},
			{"w", "$add", []int{20, 21}, []int{20, 21}, []int{26, 27}},
			{"r", "$dff", []int{20, 21}, nil, []int{28, 29}},
		}, [][]int{{22, 23}, {24, 25}, {26, 27}}, 8},
		{"part of t", []sumCell{
			{"t", "$add", in(0), in(1), []int{20, 21}},
			{"u", "$add", []int{20, 21}, in(2), []int{22, 23}},
			{"v", "$add", []int{20, 3}, in(2), []int{24, 25}},
		}, [][]int{{22, 23}, {24, 25}}, 1},
		{"wider reader", []sumCell{
			{"t", "$add", in(0), in(1), []int{20, 21}},
			{"u", "$add", []int{20, 21}, in(2), []int{22, 23, 30}},
			{"v", "$add", []int{20, 21}, in(3), []int{24, 25}},
		}, [][]int{{22, 23, 30}, {24, 25}}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := sumModule(t, 4, tt.cells, tt.outputs)
			out, copies, err := mergeSums(data, "top")
			require.NoError(t, err)
			assert.Equal(t, tt.copies, copies)
			if copies == 0 {
				assert.Equal(t, data, out, "unchanged")
			}
			before, _ := sharedSums(t, data)
			after, shared := sharedSums(t, out)
			assert.Equal(t, before+copies, after, "adders")
			assert.Zero(t, shared, "a sum still shared")
			for v := range 1 << 8 {
				ins := []int{v & 3, v >> 2 & 3, v >> 4 & 3, v >> 6 & 3}
				require.Equal(t, evalSums(t, data, ins), evalSums(t, out, ins), "inputs %v", ins)
			}
			again, n, err := mergeSums(out, "top")
			require.NoError(t, err)
			assert.Zero(t, n, "a second pass copies nothing")
			assert.Equal(t, out, again)
		})
	}
}

func TestMergeSumsBadJSON(t *testing.T) {
	_, _, err := mergeSums([]byte("{"), "top")
	assert.ErrorContains(t, err, "designmap: yosys's json: ")
	_, _, err = mergeSums([]byte(`{"modules": {}}`), "top")
	assert.EqualError(t, err, "designmap: yosys's json has no module top")
}

func FuzzMergeSums(f *testing.F) {
	in := func(i int) []int { return []int{2 + 2*i, 3 + 2*i} }
	f.Add(sumModule(f, 4, []sumCell{
		{"t", "$add", in(0), in(1), []int{20, 21}},
		{"u", "$add", []int{20, 21}, in(2), []int{22, 23}},
		{"v", "$sub", in(3), []int{20, 21}, []int{24, 25}},
	}, [][]int{{22, 23}, {24, 25}}))
	f.Add([]byte(`{"modules": {"top": {"cells": {"x": 1}, "netnames": {}}}}`))
	f.Add([]byte(`{"modules": {"top": {"cells": {"x": {"type": "$add", "connections": {"Y": [1, "0"], "A": 7}}}, "netnames": {"n": 3}, "ports": {"p": {"bits": [1]}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, n, err := mergeSums(data, "top")
		if err != nil || n == 0 {
			return
		}
		_, _, err = mergeSums(out, "top")
		require.NoError(t, err, "its own output")
	})
}
