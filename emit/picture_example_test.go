package emit_test

import (
	"fmt"
	"os"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/topologies"
)

// The two-bit network is one gray cell: inputs on top, the cell on level 1,
// outputs at the bottom, every node pinned for neato -n2 (in points, y up).
// The invisible edges keep plain dot's columns in bit order.
func ExampleDOT() {
	net, err := topologies.Sklansky(2)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := emit.DOT(os.Stdout, net, emit.DOTOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// digraph prefix {
	// 	subgraph s1 {
	// 		rank="same";
	// 		n4[fontname="Helvetica",fontsize="10",group="c0",height="0.2",label="0",margin="0",pos="36,80!",shape="plaintext",width="0.3"];
	// 		n5[fontname="Helvetica",fontsize="10",group="c1",height="0.2",label="1",margin="0",pos="0,80!",shape="plaintext",width="0.3"];
	// 	}
	// 	subgraph s2 {
	// 		rank="same";
	// 		n6[color="black",fillcolor="gray70",fixedsize="true",group="c1",height="0.2",label="",pos="0,40!",shape="circle",style="filled",tooltip="[0,1] level 1, gray",width="0.2"];
	// 	}
	// 	subgraph s3 {
	// 		rank="same";
	// 		n7[fontname="Helvetica",fontsize="10",group="c0",height="0.2",label="0:0",margin="0",pos="36,0!",shape="plaintext",width="0.3"];
	// 		n8[fontname="Helvetica",fontsize="10",group="c1",height="0.2",label="1:0",margin="0",pos="0,0!",shape="plaintext",width="0.3"];
	// 	}
	// 	fontname="Helvetica";fontsize="12";label="sklansky, width 2: depth 1, size 1, max fan-out 2, wire tracks 1, deficiency 0";labelloc="t";nodesep="0.1";outputorder="edgesfirst";splines="line";
	// 	n4->n6[arrowhead="none"];
	// 	n4->n7[arrowhead="none"];
	// 	n5->n6[arrowhead="none"];
	// 	n5->n4[style="invis"];
	// 	n6->n8[arrowhead="none"];
	// 	n8->n7[style="invis"];
	// }
}
