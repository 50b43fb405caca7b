package network_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/network"
)

// A 4-input Sklansky network, built by hand. Each cell names its lower
// operand first; the builder checks the spans meet.
func ExampleBuilder() {
	b, err := network.NewBuilder(4)
	if err != nil {
		panic(err)
	}
	s01 := b.Add(0, 1)       // [0,1]
	b.Add(s01, 2)            // [0,2]
	s23 := b.Add(2, 3)       // [2,3]
	b.Add(s01, s23)          // [0,3]
	fmt.Println(b.Add(0, 2)) // [0,0] and [2,2] do not meet
	fmt.Println(b.Err())
	// Output:
	// -1
	// network: cell 4 joins [0,0] and [2,2]: spans not adjacent
}

func ExampleNetwork_Figures() {
	n, err := network.New(network.Spec{
		Width:   4,
		Cells:   []network.Cell{{0, 1}, {4, 2}, {2, 3}, {4, 6}},
		Outputs: []int{0, 4, 5, 7},
	})
	if err != nil {
		panic(err)
	}
	f := n.Figures()
	fmt.Printf("depth %d, size %d, max fan-out %d, wire tracks %d, deficiency %d\n",
		f.Depth, f.Size, f.MaxFanout, f.WireTracks, f.Deficiency)
	fmt.Println("cells per level:", f.CellsPerLevel[1:])
	// Output:
	// depth 2, size 4, max fan-out 3, wire tracks 1, deficiency 0
	// cells per level: [2 2]
}

func ExampleSpec_Validate() {
	s := network.Spec{Width: 2, Cells: []network.Cell{{1, 0}}, Outputs: []int{0, 2}}
	fmt.Println(s.Validate())
	// Output:
	// network: cell 0 joins [1,1] and [0,0]: operands swapped, the lower span must come first
}

// A file's name with an escape sequence and a byte that is not UTF-8 is
// shown escaped; one without is shown as it is.
func ExamplePrintable() {
	fmt.Println(network.Printable("adders/q\x1b[7mz\xff.json"))
	fmt.Println(network.Printable("adders/kogge-stone 64.json"))
	// Output:
	// adders/q\x1b[7mz\xff.json
	// adders/kogge-stone 64.json
}
