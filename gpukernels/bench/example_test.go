package bench_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/gpukernels/bench"
)

// ParseSizes reads the sizes of prefixgen cuda bench --sizes.
func ExampleParseSizes() {
	sizes, err := bench.ParseSizes("2^28,2^28-1,2^20+17,31")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sizes)
	_, err = bench.ParseSizes("2^41")
	fmt.Println(err)
	// Output:
	// [268435456 268435455 1048593 31]
	// bench: size "2^41" out of range: allowed 1 to 2^40
}
