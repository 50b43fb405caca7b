package carry_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
)

func ExampleCombine() {
	generate := carry.GP{G: true}
	propagate := carry.GP{P: true}
	kill := carry.GP{}
	// A carry made below passes a propagating span above it…
	fmt.Println(carry.Combine(generate, propagate))
	// …but dies under a killing one: the lower span is always on the left.
	fmt.Println(carry.Combine(generate, kill), carry.Combine(kill, generate))
	// Output:
	// {true false}
	// {false false} {true false}
}

// A 4-bit adder around a hand-built Sklansky network, adding 11 + 6 + 1 in
// vector 0 and 5 + 3 in vector 1 of the 64 that one call adds.
func ExampleAdder() {
	b, _ := network.NewBuilder(4)
	s01 := b.Add(0, 1)
	b.Add(s01, 2)
	s23 := b.Add(2, 3)
	b.Add(s01, s23)
	net, err := b.Build()
	if err != nil {
		panic(err)
	}
	a := carry.NewAdder(net)
	x, y, sum := make([]uint64, 4), make([]uint64, 4), make([]uint64, 4)
	for i := range 4 {
		x[i] = uint64(11>>i&1) | uint64(5>>i&1)<<1
		y[i] = uint64(6>>i&1) | uint64(3>>i&1)<<1
	}
	cout := a.Add(sum, x, y, 0b01)
	for j := range 2 {
		v := cout >> j & 1 << 4
		for i := range 4 {
			v |= sum[i] >> j & 1 << i
		}
		fmt.Println(v)
	}
	// Output:
	// 18
	// 8
}
