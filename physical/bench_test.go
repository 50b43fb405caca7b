package physical_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// BenchmarkSynthesize times one adder through each flow, one design at a
// time: the cost of one trial of optimize's flow-in-the-loop search
// (optimize --flow-steps), which runs a design per core at once.
//
//	go test -run '^$' -bench Synthesize -benchtime 10x ./physical
func BenchmarkSynthesize(b *testing.B) {
	tooltest.Path(b, "yosys")
	tooltest.Path(b, "sta")
	for _, n := range []int{32, 64, 128} {
		net, err := topologies.Build("han-carlson", n, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, flow := range []physical.Flow{physical.Keep, physical.ABC} {
			b.Run(fmt.Sprintf("n=%d/flow=%s", n, flow), func(b *testing.B) {
				for b.Loop() {
					if _, err := physical.Synthesize(context.Background(), net, physical.Options{Flow: flow, Jobs: 1}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
