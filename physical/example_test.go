package physical_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/physical"
)

// The Yosys script of the keep flow, as Run writes it into each design's
// folder (liberty.lib is a link to the library), for a design with
// registers (a pipelined adder).
func ExampleYosysScript() {
	fmt.Print(physical.YosysScript(physical.Keep, "prefix_adder_sklansky_8", physical.LibertyFile("osu018"), nil, true))
	// Output:
	// # keep flow; liberty.lib is /usr/share/qflow/tech/osu018/osu018_stdcells.lib
	// read_verilog design.v
	// synth -flatten -top prefix_adder_sklansky_8 -noabc
	// dfflibmap -liberty liberty.lib
	// abc -liberty liberty.lib -script +strash;&get,-n;&nf,{D};&put
	// opt_clean
	// tee -q -o stat.txt stat
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
