package topologies_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// The real Ladner–Fischer recursion at width 64: P_0 has Sklansky's minimum
// depth with 168 cells instead of 192; each step of k adds at most one level
// and saves cells and fan-out.
func ExampleLadnerFischer() {
	for k := 0; k <= 3; k++ {
		net, err := topologies.LadnerFischer(64, k)
		if err != nil {
			fmt.Println(err)
			return
		}
		f := net.Figures()
		fmt.Printf("P_%d(64): depth %d, size %d, max fan-out %d\n", k, f.Depth, f.Size, f.MaxFanout)
	}
	// Output:
	// P_0(64): depth 6, size 168, max fan-out 33
	// P_1(64): depth 7, size 137, max fan-out 18
	// P_2(64): depth 8, size 125, max fan-out 11
	// P_3(64): depth 9, size 121, max fan-out 8
}

// Build takes a topology by name; parameters left out take their defaults,
// which the network records.
func ExampleBuild() {
	net, err := topologies.Build("kogge-stone", 8, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	f := net.Figures()
	fmt.Printf("%s: width %d, depth %d, size %d, wire tracks %d\n", net.Topology(), f.Width, f.Depth, f.Size, f.WireTracks)

	net, err = topologies.Build("ladner-fischer", 100, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(net.Topology(), net.Params(), "depth", net.Depth(), "size", net.Size())

	_, err = topologies.Build("ladner-fischer", 100, network.Params{"k": 64})
	fmt.Println(err)
	_, err = topologies.Build("kogge-stone", 10_000_000, nil)
	fmt.Println(err)
	// Output:
	// kogge-stone: width 8, depth 3, size 17, wire tracks 4
	// ladner-fischer map[k:0] depth 7 size 273
	// topologies: ladner-fischer parameter k=64 out of range: allowed 0…63
	// topologies: kogge-stone at width 10000000 needs about 230000000 cells, more than the 67108864 allowed: allowed widths up to 3195660
}

// The registry lists every topology with its parameters.
func ExampleAll() {
	for _, t := range topologies.All() {
		fmt.Print(t.Name)
		for _, p := range t.Params {
			fmt.Printf(" %s=%d (%d…%d)", p.Name, p.Default, p.Min, p.Max)
		}
		fmt.Println()
	}
	// Output:
	// ripple
	// kogge-stone
	// brent-kung
	// sklansky
	// han-carlson
	// ladner-fischer k=0 (0…63)
	// knowles s=0 (0…536870911)
	// harris l=0 (0…29) f=0 (0…29)
	// zero-deficiency d=0 (0…1073741824)
}

func ExampleLookup() {
	_, err := topologies.Lookup("carry-skip")
	fmt.Println(err)
	// Output:
	// topologies: unknown topology "carry-skip": known are ripple, kogge-stone, brent-kung, sklansky, han-carlson, ladner-fischer, knowles, harris, zero-deficiency, carry-select
}
