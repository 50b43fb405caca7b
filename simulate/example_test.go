package simulate_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
)

// sklansky builds the 4-input Sklansky network by hand.
func sklansky() *network.Network {
	b, err := network.NewBuilder(4)
	if err != nil {
		panic(err)
	}
	s01 := b.Add(0, 1)
	b.Add(s01, 2)
	s23 := b.Add(2, 3)
	b.Add(s01, s23)
	net, err := b.Build()
	if err != nil {
		panic(err)
	}
	return net
}

// The first-order linear recurrence x_i = a_i·x_{i−1} + b_i, solved in
// parallel: the prefixes of the maps x ↦ a_i·x + b_i, applied to x_{−1}.
func ExampleEval() {
	maps := []simulate.AffineMap{{A: 2, B: 1}, {A: 3, B: 0}, {A: 1, B: 5}, {A: 4, B: 2}}
	prefixes := simulate.Eval(sklansky(), simulate.Affine{}, maps)

	x := uint64(1) // x_{−1}
	for i, f := range prefixes {
		x = maps[i].A*x + maps[i].B // the plain loop
		fmt.Println(f.Apply(1), x)
	}
	// Output:
	// 3 3
	// 9 9
	// 14 14
	// 58 58
}

// Sums that restart at every head.
func ExampleSegmented() {
	m := simulate.Segmented[int]{Base: simulate.Add[int]{}}
	in := []simulate.Seg[int]{{Head: true, Value: 1}, {Value: 2}, {Head: true, Value: 3}, {Value: 4}}
	for _, s := range simulate.Eval(sklansky(), m, in) {
		fmt.Print(s.Value, " ")
	}
	fmt.Println()
	// Output:
	// 1 3 3 7
}

// Over Interval, a correct network gives [0, i] at output i, and an
// evaluator that swaps a cell's operands is stopped at the first cell.
func ExampleInterval() {
	in := []simulate.Range{simulate.Unit(0), simulate.Unit(1), simulate.Unit(2), simulate.Unit(3)}
	fmt.Println(simulate.Eval(sklansky(), simulate.Interval{}, in))

	defer func() { fmt.Println(recover()) }()
	simulate.Interval{}.Combine(simulate.Unit(1), simulate.Unit(0))
	// Output:
	// [[0,0] [0,1] [0,2] [0,3]]
	// simulate: interval combine of [1,1] and [0,0]: operands swapped
}

func ExampleVerifyAdder() {
	r, err := simulate.VerifyAdder(sklansky(), simulate.VerifyOptions{Vectors: 1000, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("width %d: %d corner, %d exhaustive, %d random vectors; mismatch: %v\n",
		r.Width, r.Corner, r.Exhaustive, r.Random, r.Mismatch)
	// Output:
	// width 4: 25 corner, 512 exhaustive, 1000 random vectors; mismatch: <nil>
}

func ExampleMismatch_String() {
	m := simulate.Mismatch{A: bigInt(0xff), B: bigInt(1), Got: bigInt(0), Want: bigInt(0x100)}
	fmt.Println(m.String())
	// Output:
	// 0xff + 0x1 + 0: got 0x0, want 0x100
}

// A sparse adder with Ling's carries, checked as it is described, gate by
// gate: the network's carries every second bit, carry-select blocks between.
func ExampleVerifyDescription() {
	d, err := adder.Describe(sklansky(), adder.Architecture{Flags: adder.Carry, Sparse: 2, Ling: true}, nil)
	if err != nil {
		panic(err)
	}
	r, err := simulate.VerifyDescription(d, simulate.VerifyOptions{Vectors: 1000, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("width %d: %d corner, %d exhaustive, %d random vectors; mismatch: %v\n",
		r.Width, r.Corner, r.Exhaustive, r.Random, r.Mismatch)
	// Output:
	// width 4: 25 corner, 512 exhaustive, 1000 random vectors; mismatch: <nil>
}
