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
