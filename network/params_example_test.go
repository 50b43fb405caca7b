package network_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/network"
)

func ExampleParams_Format() {
	p := network.Params{"l": 1, "f": 2}
	fmt.Printf("%q %q %q\n", p.Format(" "), p.Format(";"), network.Params{}.Format(" "))
	// Output:
	// "f=2 l=1" "f=2;l=1" ""
}

// Numbered names keep their numbers' order, as a carry-select network's
// segment lengths l0, l1, … read from bit 0 up.
func ExampleParams_Format_numbered() {
	p := network.Params{"l0": 7, "l1": 8, "l2": 8, "l10": 16, "l11": 5, "g": 1}
	fmt.Println(p.Format(";"))
	// Output:
	// g=1;l0=7;l1=8;l2=8;l10=16;l11=5
}
