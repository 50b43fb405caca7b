package carry

import (
	"fmt"

	"github.com/prefixgen/prefixgen/network"
)

// Adder is a binary adder of the width of its network, evaluated over 64
// vectors at a time in bit-sliced form. It precomputes the network's operands
// as flat arrays and keeps a workspace between calls, so Add allocates
// nothing.
//
// An Adder is not safe for concurrent use: its workspace is shared by every
// call. Give each goroutine its own Adder. Make one with NewAdder: the zero
// Adder has no network.
type Adder struct {
	width   int
	ops     []operands // per cell
	outputs []int32    // per position: the signal spanning [0, i]
	ws      []Slice    // per signal: its (G, P) for the current 64 vectors
}

// operands are the signals a cell reads.
type operands struct{ lo, hi int32 }

// NewAdder returns the adder built around net.
func NewAdder(net *network.Network) *Adder {
	w, size := net.Width(), net.Size()
	a := &Adder{
		width:   w,
		ops:     make([]operands, size),
		outputs: make([]int32, w),
		ws:      make([]Slice, net.Signals()),
	}
	for k := range size {
		c := net.Cell(k)
		a.ops[k] = operands{lo: int32(c.Lo), hi: int32(c.Hi)}
	}
	for i := range w {
		a.outputs[i] = int32(net.Output(i))
	}
	return a
}

// Width returns the number of bits the adder adds.
func (a *Adder) Width() int { return a.width }

// Add adds 64 pairs of width-bit numbers in bit-sliced form: x[i], y[i] and
// sum[i] hold bit i of the 64 vectors, bit j of each word belonging to vector
// j, and bit j of cin is vector j's carry-in. It returns the 64 carry-outs in
// the same form.
//
// The inputs are pre-processed into g = x ∧ y and p = x ⊕ y, with the
// carry-in folded into position 0 (g0 = g0 ∨ p0 ∧ cin); the network computes
// G[0,i] for every i; the carry into bit i is cin for i = 0 and G[0,i−1]
// otherwise; sum_i = p_i ⊕ carry_i; and the carry-out is G[0,n−1].
//
// sum may be x or y. Add panics if a slice's length is not the adder's width:
// that is a programming error, not a condition to handle.
func (a *Adder) Add(sum, x, y []uint64, cin uint64) (cout uint64) {
	n := a.width
	if len(sum) != n || len(x) != n || len(y) != n {
		panic(fmt.Sprintf("carry: adding slices of lengths sum %d, x %d, y %d with a %d-bit adder: want all %d", len(sum), len(x), len(y), n, n))
	}
	ws := a.ws[:len(a.ws)]
	x, y = x[:n], y[:n]
	for i := range n {
		ws[i] = Slice{G: x[i] & y[i], P: x[i] ^ y[i]}
	}
	ws[0].G |= ws[0].P & cin
	combineCells(ws, ws[n:], a.ops)
	// ws[i].P still holds p_i for the inputs: cells never overwrite inputs.
	outs := a.outputs[:n]
	sum = sum[:n]
	carry := cin
	for i, o := range outs {
		sum[i] = ws[i].P ^ carry
		carry = ws[o].G
	}
	return carry
}

// combineCells computes every cell, in order: cells[k] is the output of cell
// k, whose operands index ws. Kept apart from Add so that its few variables
// all stay in registers.
func combineCells(ws, cells []Slice, ops []operands) {
	cells = cells[:len(ops)]
	for k, op := range ops {
		sl, sh := ws[op.lo], ws[op.hi]
		cells[k] = Slice{G: sh.G | sh.P&sl.G, P: sh.P & sl.P}
	}
}

// Ripple adds 64 pairs of numbers in the bit-sliced form of Adder.Add, one bit
// position after the other (c_{i+1} = x_i y_i ∨ c_i (x_i ⊕ y_i)), without any
// network: it is the independent reference an adder is checked against. sum
// may be x or y. Ripple panics if the lengths of sum, x and y differ.
func Ripple(sum, x, y []uint64, cin uint64) (cout uint64) {
	n := len(x)
	if len(sum) != n || len(y) != n {
		panic(fmt.Sprintf("carry: ripple over slices of lengths sum %d, x %d, y %d: want all equal", len(sum), len(x), len(y)))
	}
	y, sum = y[:n], sum[:n]
	c := cin
	for i, xi := range x {
		yi := y[i]
		p := xi ^ yi
		sum[i] = p ^ c
		c = xi&yi | c&p
	}
	return c
}
