package warp_test

import (
	"fmt"

	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// Kogge–Stone of width 8 is three __shfl_up_sync steps, one per level; the
// emulated warp computes the prefix sums.
func ExampleLower() {
	net, err := topologies.KoggeStone(8)
	if err != nil {
		panic(err)
	}
	p, err := warp.Lower(net)
	if err != nil {
		panic(err)
	}
	fmt.Print(p)
	fmt.Println(warp.Run(p, simulate.Add[int]{}, []int{1, 2, 3, 4, 5, 6, 7, 8}))
	// Output:
	// warp program: width 8, 3 steps, 1 register
	// step 1 (level 1): r0 = op(shfl(r0, up 1), r0) on lane in [1,8)
	// step 2 (level 2): r0 = op(shfl(r0, up 2), r0) on lane in [2,8)
	// step 3 (level 3): r0 = op(shfl(r0, up 4), r0) on lane in [4,8)
	// [1 3 6 10 15 21 28 36]
}

// Sklansky's steps are broadcasts within blocks: at step j every lane of the
// upper half of a block of 2^j lanes reads the last lane of the lower half.
// Its program run over Interval shows each output's span.
func ExampleRun() {
	net, err := topologies.Sklansky(4)
	if err != nil {
		panic(err)
	}
	p, err := warp.Lower(net)
	if err != nil {
		panic(err)
	}
	fmt.Print(p)
	in := []simulate.Range{simulate.Unit(0), simulate.Unit(1), simulate.Unit(2), simulate.Unit(3)}
	fmt.Println(warp.Run(p, simulate.Interval{}, in))
	// Output:
	// warp program: width 4, 2 steps, 1 register
	// step 1 (level 1): r0 = op(shfl(r0, bcast 1), r0) on lane & 1 != 0 && lane < 4
	// step 2 (level 2): r0 = op(shfl(r0, bcast 2), r0) on lane in [2,4)
	// [[0,0] [0,1] [0,2] [0,3]]
}
