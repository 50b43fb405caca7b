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

// EntityNames reads the entities a VHDL file declares, in lower case
// (VHDL ignores case), skipping comments, as TopEntity does to find the one
// to synthesize or check.
func ExampleEntityNames() {
	src := "-- entity draft is\nlibrary ieee;\nuse ieee.std_logic_1164.all;\nENTITY My_Adder IS port (a : in std_logic); end;\nentity top is end entity top;\n"
	fmt.Println(emit.EntityNames([]byte(src)))
	top, err := emit.TopEntity([]byte(src), "MY_ADDER")
	fmt.Println(top, err)
	// Output:
	// [my_adder top]
	// my_adder <nil>
}
