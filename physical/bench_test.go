package physical_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// BenchmarkRun times a batch of four adders (Han–Carlson, Kogge–Stone,
// Brent–Kung, Sklansky) through each flow on one core, as optimize's
// flow-in-the-loop search (optimize --flow-steps) measures a batch of
// trials, and reports the time per adder: the cost of one trial on one
// core, the tools' start-up checks included.
//
//	go test -run '^$' -bench Run -benchtime 5x ./physical
func BenchmarkRun(b *testing.B) {
	tooltest.Path(b, "yosys")
	tooltest.Path(b, "sta")
	for _, n := range []int{32, 64, 128} {
		var designs []*physical.Design
		for _, name := range []string{"han-carlson", "kogge-stone", "brent-kung", "sklansky"} {
			net, err := topologies.Build(name, n, nil)
			if err != nil {
				b.Fatal(err)
			}
			d, err := physical.AdderDesign(net)
			if err != nil {
				b.Fatal(err)
			}
			designs = append(designs, d)
		}
		for _, flow := range []physical.Flow{physical.Keep, physical.ABC} {
			b.Run(fmt.Sprintf("n=%d/flow=%s", n, flow), func(b *testing.B) {
				start := time.Now()
				for b.Loop() {
					if _, err := physical.Run(context.Background(), designs, physical.Options{Flow: flow, Jobs: 1}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(time.Since(start).Seconds()/float64(b.N*len(designs)), "s/adder")
			})
		}
	}
}
