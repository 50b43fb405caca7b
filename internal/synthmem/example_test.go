package synthmem_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/internal/synthmem"
)

// A 4096-bit Kogge–Stone adder has 45 057 cells: its synthesis counts 1.7
// GiB, and four of them fit at once in the 8 GiB a machine of 16 GiB
// allows.
func ExampleAdder() {
	b := synthmem.Adder(45057, 4096)
	fmt.Printf("%.1f GiB, %d at once in 8 GiB\n", float64(b)/(1<<30), (8<<30)/b)
	// Output: 1.7 GiB, 4 at once in 8 GiB
}

// A user's design of 1 MiB of Verilog counts 512 MiB.
func ExampleVerilog() {
	fmt.Println(synthmem.Verilog(1<<20)>>20, "MiB")
	// Output: 512 MiB
}
