package physical_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/physical"
)

// The Yosys script of the keep flow, as Run writes it into each design's
// folder (liberty.lib is a link to the library).
func ExampleYosysScript() {
	fmt.Print(physical.YosysScript(physical.Keep, "prefix_adder_sklansky_8", physical.LibertyFile("osu018")))
	// Output:
	// # keep flow; liberty.lib is /usr/share/qflow/tech/osu018/osu018_stdcells.lib
	// read_verilog design.v
	// synth -flatten -top prefix_adder_sklansky_8 -noabc
	// dfflibmap -liberty liberty.lib
	// abc -liberty liberty.lib -script +strash;&get,-n;&nf,{D};&put
	// opt_clean
	// tee -q -o stat.txt stat -liberty liberty.lib
	// write_verilog -noattr -noexpr -simple-lhs mapped.v
}

// The OpenSTA script: a virtual clock, no delay outside the design, 10 fF on
// every output, the worst path reported.
func ExampleSTAScript() {
	fmt.Print(physical.STAScript("prefix_adder_sklansky_8", physical.LibertyFile(""), physical.DefaultOutputLoadPF))
	// Output:
	// # liberty.lib is /usr/share/qflow/tech/osu018/osu018_stdcells.lib
	// read_liberty liberty.lib
	// read_verilog mapped.v
	// link_design prefix_adder_sklansky_8
	// set_cmd_units -time ns -capacitance pF
	// create_clock -name virtual_clock -period 1000
	// set_input_delay 0 -clock virtual_clock [all_inputs]
	// set_output_delay 0 -clock virtual_clock [all_outputs]
	// set_load 0.01 [all_outputs]
	// report_checks -path_delay max -format full -digits 4
}

// ShuffleAssigns reorders a netlist's assign statements and leaves the rest
// where it is: the same gates, met by the tools in another order (seed 0
// swaps these two).
func ExampleShuffleAssigns() {
	netlist := "module m(a, b, y, z);\n  input a;\n  input b;\n  output y;\n  output z;\n  assign y = a & b;\n  assign z = a ^ b;\nendmodule\n"
	fmt.Print(string(physical.ShuffleAssigns([]byte(netlist), 0)))
	// Output:
	// module m(a, b, y, z);
	//   input a;
	//   input b;
	//   output y;
	//   output z;
	//   assign z = a ^ b;
	//   assign y = a & b;
	// endmodule
}

// A generate bit mapped twice, as an AND2 for one reader and a NAND2 for
// another, and an inverter on an input: 24 µm² of the NAND2 (the AND2, the
// larger, is kept) and 16 of the inverter compute nothing new.
func ExampleRedundantArea() {
	lib := []byte(`library (tiny) {
  cell (AND2X1) { area : 32 ; pin (A) { direction : input ; } pin (B) { direction : input ; }
    pin (Y) { direction : output ; function : "(A B)" ; } }
  cell (NAND2X1) { area : 24 ; pin (A) { direction : input ; } pin (B) { direction : input ; }
    pin (Y) { direction : output ; function : "(!(A B))" ; } }
  cell (INVX1) { area : 16 ; pin (A) { direction : input ; } pin (Y) { direction : output ; function : "(!A)" ; } }
}`)
	mapped := []byte(`module top(a, b, y);
  input [1:0] a;
  input [1:0] b;
  output [2:0] y;
  AND2X1 _1_ ( .A(a[0]), .B(b[0]), .Y(y[0]) );
  NAND2X1 _2_ ( .A(a[0]), .B(b[0]), .Y(y[1]) );
  INVX1 _3_ ( .A(a[1]), .Y(y[2]) );
endmodule
`)
	fmt.Println(physical.RedundantArea(lib, mapped), "µm² computed twice")
	// Output:
	// 40 µm² computed twice
}
