package emit_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/emit"
)

// ModuleNames reads the modules a file declares, skipping comments, as
// TopModule does to find the one to synthesize or check.
func ExampleModuleNames() {
	src := "// module old_adder;\nmodule adder(input [3:0] a, b, output [4:0] s);\n  assign s = a + b;\nendmodule\n/* module draft; */\nmodule top; endmodule\n"
	fmt.Println(emit.ModuleNames([]byte(src)))
	// Output:
	// [adder top]
}
