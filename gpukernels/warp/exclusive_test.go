package warp_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels/block"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// segmentedExclusive is the exclusive segmented scan from the identity,
// written out segment by segment as Thrust's exclusive_scan_by_key
// defines it: the identity at every head, and otherwise the sum of the
// segment's earlier items; the head flag is set from the first head on.
func segmentedExclusive[T any](base simulate.Monoid[T], in []simulate.Seg[T]) []simulate.Seg[T] {
	out := make([]simulate.Seg[T], len(in))
	acc, seen := base.Identity(), false
	for i, x := range in {
		if x.Head {
			acc, seen = base.Identity(), true
		}
		out[i] = simulate.Seg[T]{Head: seen, Value: acc}
		acc = base.Combine(acc, x.Value)
	}
	return out
}

// The example: add over [1, 2, 3, 4] with heads at 0 and 2 is
// [0, 1, 0, 3] in the warp and the shared-memory block emulators, for every
// topology; without the restart it is the old [0, 1, 3, 3].
func TestExclusiveRestartsAtHeads(t *testing.T) {
	seg := simulate.Segmented[int]{Base: simulate.Add[int]{}}
	in := []simulate.Seg[int]{{Head: true, Value: 1}, {Value: 2}, {Head: true, Value: 3}, {Value: 4}}
	values := func(s []simulate.Seg[int]) []int {
		var v []int
		for _, x := range s {
			v = append(v, x.Value)
		}
		return v
	}
	for _, top := range gputest.Families() {
		t.Run(top.String(), func(t *testing.T) {
			net, p := lower(t, top, 4)
			got := warp.RunExclusive(p, seg, in, seg.Identity(), block.RestartSegment[int])
			require.Equal(t, []int{0, 1, 0, 3}, values(got))
			require.Equal(t, segmentedExclusive[int](simulate.Add[int]{}, in), got)
			require.Equal(t, []int{0, 1, 3, 3}, values(warp.RunExclusive(p, seg, in, seg.Identity(), nil)),
				"without the restart a head gets the previous segment's running value")

			bp, err := block.Lower(net, block.Options{})
			require.NoError(t, err)
			bgot, err := block.RunExclusive(bp, seg, in, seg.Identity(), block.RestartSegment[int])
			require.NoError(t, err)
			require.Equal(t, []int{0, 1, 0, 3}, values(bgot))
		})
	}
}

// Every topology's warp and shared-memory programs give the exclusive
// segmented scan over random heads, over a non-commutative base (affine
// maps mod 2^64) and over Interval, and a
// scan without segments gives initial ⊕ the earlier items.
func TestExclusiveScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	aff := simulate.Affine{}
	seg := simulate.Segmented[simulate.AffineMap]{Base: aff}
	for _, top := range gputest.Families() {
		for _, w := range append(gputest.Widths, 100) {
			if w > warp.Lanes && w < block.MinWidth {
				continue
			}
			t.Run(fmt.Sprintf("%v/%d", top, w), func(t *testing.T) {
				net, err := topologies.Build(top.Name, w, top.Params)
				require.NoError(t, err)
				in := make([]simulate.Seg[simulate.AffineMap], w)
				for i := range in {
					in[i] = simulate.Seg[simulate.AffineMap]{
						Head:  rng.IntN(4) == 0,
						Value: simulate.AffineMap{A: rng.Uint64(), B: rng.Uint64()},
					}
				}
				want := segmentedExclusive(simulate.Monoid[simulate.AffineMap](aff), in)
				units := make([]simulate.Range, w)
				for i := range units {
					units[i] = simulate.Unit(i)
				}
				iv := simulate.Interval{}
				ivWant := append([]simulate.Range{iv.Identity()}, simulate.Scan(iv, units)[:w-1]...)
				if w <= warp.Lanes {
					p, err := warp.Lower(net)
					require.NoError(t, err)
					require.Equal(t, want, warp.RunExclusive(p, seg, in, seg.Identity(), block.RestartSegment))
					require.Equal(t, ivWant, warp.RunExclusive(p, iv, units, iv.Identity(), nil))
				}
				if w >= block.MinWidth {
					bp, err := block.Lower(net, block.Options{NoPad: w%2 == 1})
					require.NoError(t, err)
					got, err := block.RunExclusive(bp, seg, in, seg.Identity(), block.RestartSegment)
					require.NoError(t, err)
					require.Equal(t, want, got)
					ivGot, err := block.RunExclusive(bp, iv, units, iv.Identity(), nil)
					require.NoError(t, err)
					require.Equal(t, ivWant, ivGot)
				}
			})
		}
	}
}
