package bdd_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/prefixgen/prefixgen/physical/bdd"
)

// table returns f's truth table over variables 0 … n-1: character k is
// its value where variable v is bit v of k.
func table(b *bdd.BDD, f bdd.Node, n int) string {
	s := ""
	for k := range 1 << n {
		if b.Value(f, func(v int32) bool { return k>>v&1 == 1 }) {
			s += "1"
		} else {
			s += "0"
		}
	}
	return s
}

func TestOperations(t *testing.T) {
	b := bdd.New(0)
	x, y, z := b.Var(0), b.Var(1), b.Var(2)
	tests := []struct {
		name string
		f    bdd.Node
		want string
	}{
		{"x", x, "01010101"},
		{"not x", b.Not(x), "10101010"},
		{"x and y", b.And(x, y), "00010001"},
		{"x or y", b.Or(x, y), "01110111"},
		{"x xor y", b.Xor(x, y), "01100110"},
		{"not (x y + z)", b.Not(b.Or(b.And(x, y), z)), "11100000"},
		{"true", b.Const(true), "11111111"},
		{"false", b.Const(false), "00000000"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, table(b, tt.f, 3), tt.name)
	}
}

// Equal functions are one node, however they were built; a function and
// its complement share a canonical key.
func TestCanonical(t *testing.T) {
	b := bdd.New(0)
	x, y := b.Var(0), b.Var(1)
	nand := b.Not(b.And(x, y))
	orNot := b.Or(b.Not(x), b.Not(y))
	assert.Equal(t, nand, orNot, "De Morgan")
	assert.Equal(t, b.Canonical(nand), b.Canonical(b.And(y, x)))
	assert.NotEqual(t, b.Canonical(nand), b.Canonical(b.Or(x, y)))
	assert.Equal(t, b.Xor(x, y), b.Xor(y, x))
	assert.Equal(t, x, b.Not(b.Not(x)))
	// A node whose two branches are one is no node: a tautology and a
	// contradiction are the constants themselves.
	assert.Equal(t, bdd.True, b.Or(x, b.Not(x)), "x | !x")
	assert.Equal(t, bdd.False, b.And(x, b.Not(x)), "x & !x")
}

func TestLimit(t *testing.T) {
	b := bdd.New(4)
	assert.Equal(t, 2, b.Len(), "the constants")
	assert.False(t, b.Full())
	x, y := b.Var(0), b.Var(1)
	assert.False(t, b.Full())
	b.Xor(x, y)
	assert.True(t, b.Full())
	assert.False(t, bdd.New(0).Full(), "no limit")
}
