package warp_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
	"github.com/prefixgen/prefixgen/topologies"
)

// lower builds the topology at width w and lowers it.
func lower(t *testing.T, top gputest.Topology, w int) (*network.Network, *warp.Program) {
	t.Helper()
	net, err := topologies.Build(top.Name, w, top.Params)
	require.NoError(t, err)
	p, err := warp.Lower(net)
	require.NoError(t, err)
	return net, p
}

// requireScan runs the program over Interval and over random 2×2 matrices
// and compares both with simulate.Scan.
func requireScan(t *testing.T, p *warp.Program, rng *rand.Rand) {
	t.Helper()
	units := make([]simulate.Range, p.Width)
	for i := range units {
		units[i] = simulate.Unit(i)
	}
	iv := simulate.Interval{}
	require.Equal(t, simulate.Scan(iv, units), warp.Run(p, iv, units), "Interval")

	const mod = 1_000_000_007
	mats := make([]simulate.Mat2, p.Width)
	for i := range mats {
		for r := range 2 {
			for c := range 2 {
				mats[i][r][c] = rng.Uint64N(mod)
			}
		}
	}
	mm := simulate.Matrix2{Mod: mod}
	require.Equal(t, simulate.Scan(mm, mats), warp.Run(p, mm, mats), "Matrix2")
}

// requireWellFormed checks a program lane by lane: the closed forms equal
// the table and the mask on all 32 lanes, only lanes below the width
// combine, each reading a lower lane, registers are in range, and a table
// or a mask is used only where no closed form fits.
func requireWellFormed(t *testing.T, p *warp.Program) {
	t.Helper()
	require.GreaterOrEqual(t, p.Registers, 1)
	width := uint32(1)<<p.Width - 1
	if p.Width == warp.Lanes {
		width = ^uint32(0)
	}
	reg := func(r int) { require.True(t, 0 <= r && r < p.Registers, "register %d of %d", r, p.Registers) }
	copies := func(cs []warp.Copy) {
		for _, c := range cs {
			reg(c.From)
			reg(c.To)
			require.NotEqual(t, c.From, c.To)
			require.NotZero(t, c.Mask)
			require.Zero(t, c.Mask&^width, "copy on lanes beyond the width")
		}
	}
	for i := range p.Steps {
		s := &p.Steps[i]
		copies(s.Copies)
		reg(s.FromReg)
		reg(s.HiReg)
		require.Zero(t, s.ToReg)
		require.NotZero(t, s.Active, "step %d combines nothing", i)
		require.Zero(t, s.Active&^width, "step %d combines beyond the width", i)
		for lane := range warp.Lanes {
			active := s.Active>>uint(lane)&1 == 1
			require.Equal(t, s.SrcTable[lane], s.Source(lane), "step %d (%v) lane %d", i, s.Src, lane)
			require.Equal(t, active, s.Fires(lane), "step %d (%v) lane %d", i, s.Pred, lane)
			require.True(t, 0 <= s.SrcTable[lane] && s.SrcTable[lane] < warp.Lanes)
			if active {
				require.Less(t, s.SrcTable[lane], lane, "step %d: the Lo operand lies in a lower lane", i)
			}
		}
		switch s.Src.Kind {
		case warp.SrcUp:
			require.True(t, 1 <= s.Src.D && s.Src.D < warp.Lanes)
		case warp.SrcBroadcast:
			require.True(t, s.Src.D >= 1 && s.Src.D < warp.Lanes && bits.OnesCount(uint(s.Src.D)) == 1)
		case warp.SrcTable:
			// No closed form reproduces the active lanes' sources.
			for d := 1; d < warp.Lanes; d++ {
				for _, src := range []warp.Src{{Kind: warp.SrcUp, D: d}, {Kind: warp.SrcBroadcast, D: d}} {
					if src.Kind == warp.SrcBroadcast && bits.OnesCount(uint(d)) != 1 {
						continue
					}
					try := *s
					try.Src = src
					fits := true
					for lane := range warp.Lanes {
						if s.Active>>uint(lane)&1 == 1 && try.Source(lane) != s.SrcTable[lane] {
							fits = false
						}
					}
					require.False(t, fits, "step %d: a table where %v fits", i, src)
				}
			}
		default:
			t.Fatalf("step %d: unknown source kind %d", i, s.Src.Kind)
		}
		if s.Pred.Kind == warp.PredRange {
			require.Equal(t, bits.OnesCount32(s.Active), s.Pred.To-s.Pred.From)
		}
	}
	copies(p.Final)
	for _, c := range p.Final {
		require.Zero(t, c.To, "final copies restore register 0")
	}
}

func TestLowerRange(t *testing.T) {
	for _, w := range []int{33, 64} {
		net, err := topologies.KoggeStone(w)
		require.NoError(t, err)
		_, err = warp.Lower(net)
		require.EqualError(t, err, fmt.Sprintf("warp: width %d out of range: a warp program allows 1 to 32", w))
	}
}

// TestRunScan runs every family at every width over Interval and 2×2
// matrices.
func TestRunScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, top := range gputest.Families() {
		for _, w := range gputest.Widths {
			t.Run(fmt.Sprintf("%v/%d", top, w), func(t *testing.T) {
				net, p := lower(t, top, w)
				require.Equal(t, w, p.Width)
				requireWellFormed(t, p)
				requireScan(t, p, rng)
				assert.Equal(t, net.Size(), p.Combines(), "one combine per cell")
				assert.Equal(t, 1, p.Registers, "the registry's networks need no spare")
				assert.Empty(t, p.Final)
				if w > 1 {
					assert.Len(t, p.Steps, net.Depth(), "one step per level")
				} else {
					assert.Empty(t, p.Steps)
				}
			})
		}
	}
}

// TestStepsAreLevels is the structural check that catches a lowering
// serialized into a chain: at width 32 the parallel families take exactly
// Depth steps, without copies, and make Size combines.
func TestStepsAreLevels(t *testing.T) {
	tops := []gputest.Topology{
		{Name: "kogge-stone"}, {Name: "sklansky"}, {Name: "brent-kung"}, {Name: "han-carlson"},
		{Name: "ladner-fischer"},
		{Name: "ladner-fischer", Params: network.Params{"k": 1}},
		{Name: "ladner-fischer", Params: network.Params{"k": 2}},
	}
	want := map[string]int{"kogge-stone": 5, "sklansky": 5, "brent-kung": 8, "han-carlson": 6, "ladner-fischer": 5}
	for _, top := range tops {
		t.Run(top.String(), func(t *testing.T) {
			net, p := lower(t, top, 32)
			if top.Params == nil {
				require.Equal(t, want[top.Name], net.Depth(), "the closed-form depth")
			}
			require.Len(t, p.Steps, net.Depth())
			require.Equal(t, net.Size(), p.Combines())
			for i, s := range p.Steps {
				require.Equal(t, i+1, s.Level)
				require.Empty(t, s.Copies)
				require.Zero(t, s.FromReg)
				require.Zero(t, s.HiReg)
			}
		})
	}
}

// TestKoggeStoneSteps checks that Kogge–Stone is a chain of __shfl_up_sync
// steps. (At width 2 its one step, lane 1 reading lane 0, is equally a
// broadcast, and is classified as one.)
func TestKoggeStoneSteps(t *testing.T) {
	for _, w := range []int{3, 5, 8, 31, 32} {
		_, p := lower(t, gputest.Topology{Name: "kogge-stone"}, w)
		d := 1
		for i, s := range p.Steps {
			require.Equal(t, warp.Src{Kind: warp.SrcUp, D: d}, s.Src, "width %d step %d", w, i)
			require.Equal(t, warp.Pred{Kind: warp.PredRange, From: d, To: w}, s.Pred, "width %d step %d", w, i)
			d *= 2
		}
		require.Equal(t, d, 1<<bits.Len(uint(w-1)), "width %d: d = 1, 2, 4, … below the width", w)
	}
}

func TestSklanskySteps(t *testing.T) {
	for _, w := range []int{2, 5, 8, 31, 32} {
		_, p := lower(t, gputest.Topology{Name: "sklansky"}, w)
		d := 1
		for i, s := range p.Steps {
			require.Equal(t, warp.Src{Kind: warp.SrcBroadcast, D: d}, s.Src, "width %d step %d", w, i)
			for lane := range warp.Lanes {
				want := lane&d != 0 && lane < w
				require.Equal(t, want, s.Fires(lane), "width %d step %d lane %d", w, i, lane)
				if want {
					require.Equal(t, lane&^(2*d-1)+d-1, s.SrcTable[lane])
				}
			}
			d *= 2
		}
	}
}

// TestBrentKungSweeps checks the up-sweep at width 32: broadcasts from the
// lane d below to the lanes ≡ 2d−1 (mod 2d).
func TestBrentKungSweeps(t *testing.T) {
	_, p := lower(t, gputest.Topology{Name: "brent-kung"}, 32)
	for i, d := range []int{1, 2, 4} {
		s := p.Steps[i]
		require.Equal(t, warp.Src{Kind: warp.SrcBroadcast, D: d}, s.Src)
		for lane := d; lane < warp.Lanes; lane += 2 * d {
			require.True(t, s.Fires(lane+d-1), "up-sweep lane %d", lane+d-1)
		}
	}
}

func TestClosedForms(t *testing.T) {
	for _, c := range []struct {
		src  warp.Src
		want [8]int // lanes 0 … 7
	}{
		{warp.Src{Kind: warp.SrcUp, D: 1}, [8]int{0, 0, 1, 2, 3, 4, 5, 6}},
		{warp.Src{Kind: warp.SrcUp, D: 3}, [8]int{0, 1, 2, 0, 1, 2, 3, 4}},
		{warp.Src{Kind: warp.SrcBroadcast, D: 1}, [8]int{0, 0, 2, 2, 4, 4, 6, 6}},
		{warp.Src{Kind: warp.SrcBroadcast, D: 2}, [8]int{1, 1, 1, 1, 5, 5, 5, 5}},
		{warp.Src{Kind: warp.SrcBroadcast, D: 4}, [8]int{3, 3, 3, 3, 3, 3, 3, 3}},
	} {
		s := warp.Step{Src: c.src}
		for lane, want := range c.want {
			assert.Equal(t, want, s.Source(lane), "%v lane %d", c.src, lane)
		}
	}
	// A table lane is taken modulo 32, as __shfl_sync does.
	s := warp.Step{}
	s.SrcTable[3] = 33
	assert.Equal(t, 1, s.Source(3))

	for _, c := range []struct {
		pred warp.Pred
		want uint32
		str  string
	}{
		{warp.Pred{Kind: warp.PredRange, From: 2, To: 5}, 0x1c, "lane in [2,5)"},
		{warp.Pred{Kind: warp.PredRange, From: 2, To: 32}, 0xfffffffc, "lane >= 2"},
		{warp.Pred{Kind: warp.PredBit, Bit: 2, To: 32}, 0xcccccccc, "lane & 2 != 0"},
		{warp.Pred{Kind: warp.PredBit, Bit: 1, To: 6}, 0x2a, "lane & 1 != 0 && lane < 6"},
		{warp.Pred{Kind: warp.PredMod, Mod: 4, Rem: 3, From: 7, To: 32}, 0x88888880, "lane % 4 == 3 && lane >= 7"},
		{warp.Pred{Kind: warp.PredMask}, 0x5, "mask"},
	} {
		s := warp.Step{Pred: c.pred, Active: 0x5}
		var got uint32
		for lane := range warp.Lanes {
			if s.Fires(lane) {
				got |= 1 << lane
			}
		}
		assert.Equal(t, c.want, got, "%v", c.pred)
		assert.Equal(t, c.str, c.pred.String())
	}
}

// TestSpareRegisters lowers the two networks that read a value their
// column has replaced, checks that the lowering saves it, and that the
// program reading register 0 instead would be wrong.
func TestSpareRegisters(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		name string
		net  *network.Network
		// stale makes the step that reads a spare read register 0 instead.
		stale func(s *warp.Step) bool
	}{
		{"lo", gputest.LoOld(t), func(s *warp.Step) bool {
			if s.FromReg == 0 {
				return false
			}
			s.FromReg = 0
			return true
		}},
		{"hi", gputest.HiOld(t), func(s *warp.Step) bool {
			if s.HiReg == 0 {
				return false
			}
			s.HiReg = 0
			return true
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := warp.Lower(c.net)
			require.NoError(t, err)
			requireWellFormed(t, p)
			requireScan(t, p, rng)
			require.Equal(t, c.net.Size(), p.Combines())
			require.Greater(t, p.Registers, 1)
			saves := 0
			for _, s := range p.Steps {
				saves += len(s.Copies)
			}
			require.Positive(t, saves)
			assert.Contains(t, p.String(), "save r1 = r0")

			stale := &warp.Program{Width: p.Width, Registers: p.Registers, Final: p.Final}
			stale.Steps = append(stale.Steps, p.Steps...)
			changed := false
			for i := range stale.Steps {
				if c.stale(&stale.Steps[i]) {
					changed = true
				}
			}
			require.True(t, changed, "some step reads a spare")
			units := make([]simulate.Range, p.Width)
			for i := range units {
				units[i] = simulate.Unit(i)
			}
			assert.Panics(t, func() { warp.Run(stale, simulate.Interval{}, units) },
				"reading the replaced value joins the wrong spans")
		})
	}
}

// TestSpareRegistersProgram pins the lowering of hiOld. Step 1 saves input
// 1, which [1,3] still reads after [0,1] replaces it; step 2 computes [1,3]
// from that spare and saves [2,3] first; [0,2] has a step of its own since
// its operands lie in other registers; step 4 computes [0,3] from the saved
// [2,3] and saves [1,3], which [1,5] reads from the spare in step 6.
func TestSpareRegistersProgram(t *testing.T) {
	p, err := warp.Lower(gputest.HiOld(t))
	require.NoError(t, err)
	require.Equal(t, `warp program: width 6, 7 steps, 3 registers
step 1 (level 1): save r1 = r0 on mask 0x00000002
step 1 (level 1): r0 = op(shfl(r0, bcast 1), r0) on lane & 1 != 0 && lane < 6
step 2 (level 2): save r2 = r0 on mask 0x00000008
step 2 (level 2): r0 = op(shfl(r1, bcast 2), r0) on lane in [3,4)
step 3 (level 2): r0 = op(shfl(r0, bcast 2), r0) on lane in [2,3)
step 4 (level 2): save r1 = r0 on mask 0x00000008
step 4 (level 2): r0 = op(shfl(r0, bcast 2), r2) on lane in [3,4)
step 5 (level 3): r0 = op(shfl(r0, bcast 4), r0) on lane in [4,5)
step 6 (level 3): r0 = op(shfl(r1, bcast 4), r0) on lane in [5,6)
step 7 (level 4): r0 = op(shfl(r0, up 5), r0) on lane in [5,6)
`, p.String())
}

func TestRunWidth(t *testing.T) {
	_, p := lower(t, gputest.Topology{Name: "sklansky"}, 4)
	assert.PanicsWithValue(t, "warp: Run of a width-4 program on 3 inputs", func() {
		warp.Run(p, simulate.Add[int]{}, []int{1, 2, 3})
	})
}
