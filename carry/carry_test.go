package carry_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// allGP lists the four generate/propagate pairs.
var allGP = []carry.GP{{G: false, P: false}, {G: false, P: true}, {G: true, P: false}, {G: true, P: true}}

// built returns the named topology at width n, default parameters.
func built(t testing.TB, name string, n int) *network.Network {
	t.Helper()
	net, err := topologies.Build(name, n, nil)
	require.NoError(t, err)
	return net
}

func TestCombineAssociative(t *testing.T) {
	for _, a := range allGP {
		for _, b := range allGP {
			for _, c := range allGP {
				left := carry.Combine(carry.Combine(a, b), c)
				right := carry.Combine(a, carry.Combine(b, c))
				assert.Equal(t, left, right, "(%v·%v)·%v vs %v·(%v·%v)", a, b, c, a, b, c)
			}
		}
	}
}

func TestCombineNotCommutative(t *testing.T) {
	// A generating lower span under a killing upper span: the carry dies.
	gen, kill := carry.GP{G: true}, carry.GP{}
	assert.Equal(t, carry.GP{G: false, P: false}, carry.Combine(gen, kill))
	assert.Equal(t, carry.GP{G: true, P: false}, carry.Combine(kill, gen))
}

func TestIdentity(t *testing.T) {
	var m carry.Monoid
	assert.Equal(t, carry.GP{G: false, P: true}, m.Identity())
	for _, a := range allGP {
		assert.Equal(t, a, carry.Combine(carry.Identity, a), "identity on the left of %v", a)
		assert.Equal(t, a, carry.Combine(a, carry.Identity), "identity on the right of %v", a)
		for _, b := range allGP {
			assert.Equal(t, carry.Combine(a, b), m.Combine(a, b))
		}
	}
}

func TestCombineTable(t *testing.T) {
	tests := []struct {
		lo, hi, want carry.GP
	}{
		{lo: carry.GP{G: true}, hi: carry.GP{P: true}, want: carry.GP{G: true}},                   // generated, propagated
		{lo: carry.GP{P: true}, hi: carry.GP{P: true}, want: carry.GP{P: true}},                   // propagate chain
		{lo: carry.GP{G: true}, hi: carry.GP{}, want: carry.GP{}},                                 // killed above
		{lo: carry.GP{}, hi: carry.GP{G: true}, want: carry.GP{G: true}},                          // generated above
		{lo: carry.GP{G: true, P: true}, hi: carry.GP{P: true}, want: carry.GP{G: true, P: true}}, // both kept
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, carry.Combine(tt.lo, tt.hi), "Combine(%v, %v)", tt.lo, tt.hi)
	}
}

func TestCombineSliceAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		lo := carry.Slice{G: rng.Uint64(), P: rng.Uint64()}
		hi := carry.Slice{G: rng.Uint64(), P: rng.Uint64()}
		got := carry.CombineSlice(lo, hi)
		for j := range 64 {
			want := carry.Combine(lane(lo, j), lane(hi, j))
			require.Equal(t, want, lane(got, j), "lane %d", j)
		}
	}
}

func lane(s carry.Slice, j int) carry.GP {
	return carry.GP{G: s.G>>j&1 == 1, P: s.P>>j&1 == 1}
}

// addFunc is the shape of Adder.Add.
type addFunc func(sum, x, y []uint64, cin uint64) uint64

// checkExhaustive adds every (a, b, cin) of n bits with add, 64 at a time,
// and compares each result with math/big. It returns the number of
// mismatches.
func checkExhaustive(t *testing.T, n int, add addFunc) int {
	t.Helper()
	total := uint64(1) << (2*n + 1)
	x, y, sum := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	mask := uint64(1)<<n - 1
	bad := 0
	for base := uint64(0); base < total; base += 64 {
		clear(x)
		clear(y)
		var cin uint64
		lanes := min(64, total-base)
		for j := range lanes {
			v := base + j
			a, b, c := v&mask, v>>n&mask, v>>(2*n)
			for i := range n {
				x[i] |= (a >> i & 1) << j
				y[i] |= (b >> i & 1) << j
			}
			cin |= c << j
		}
		cout := add(sum, x, y, cin)
		for j := range lanes {
			v := base + j
			a, b, c := v&mask, v>>n&mask, v>>(2*n)
			want := new(big.Int).Add(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
			want.Add(want, new(big.Int).SetUint64(c))
			got := new(big.Int)
			for i := range n {
				got.SetBit(got, i, uint(sum[i]>>j&1))
			}
			got.SetBit(got, n, uint(cout>>j&1))
			if got.Cmp(want) != 0 {
				bad++
			}
		}
	}
	return bad
}

func TestAdderExhaustive(t *testing.T) {
	tests := []struct {
		name string
		net  *network.Network
	}{
		{"sklansky-4", built(t, "sklansky", 4)},
	}
	for n := 1; n <= 6; n++ {
		tests = append(tests,
			struct {
				name string
				net  *network.Network
			}{fmt.Sprintf("ripple-%d", n), built(t, "ripple", n)},
			struct {
				name string
				net  *network.Network
			}{fmt.Sprintf("kogge-stone-%d", n), built(t, "kogge-stone", n)},
		)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := carry.NewAdder(tt.net)
			assert.Equal(t, tt.net.Width(), a.Width())
			assert.Zero(t, checkExhaustive(t, tt.net.Width(), a.Add))
		})
	}
}

func TestRippleExhaustive(t *testing.T) {
	for n := 1; n <= 6; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			assert.Zero(t, checkExhaustive(t, n, carry.Ripple))
		})
	}
}

// TestAdderWide checks wide adders against math/big on random vectors, with
// the result written over an operand.
func TestAdderWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{7, 64, 65, 200} {
		a := carry.NewAdder(built(t, "kogge-stone", n))
		x, y, want := make([]uint64, n), make([]uint64, n), make([]uint64, n)
		for range 8 {
			for i := range n {
				x[i], y[i] = rng.Uint64(), rng.Uint64()
			}
			cin := rng.Uint64()
			wantOut := carry.Ripple(want, x, y, cin)
			for j := 0; j < 64; j += 13 {
				av, bv, sv := extract(x, j), extract(y, j), extract(want, j)
				sv.SetBit(sv, n, uint(wantOut>>j&1))
				exp := new(big.Int).Add(av, bv)
				exp.Add(exp, big.NewInt(int64(cin>>j&1)))
				require.Zero(t, exp.Cmp(sv), "ripple, n %d lane %d", n, j)
			}
			gotOut := a.Add(x, x, y, cin) // sum over x
			assert.Equal(t, want, x, "n %d", n)
			assert.Equal(t, wantOut, gotOut, "n %d", n)
		}
	}
}

// extract returns lane j of a bit-sliced number.
func extract(s []uint64, j int) *big.Int {
	v := new(big.Int)
	for i, w := range s {
		v.SetBit(v, i, uint(w>>j&1))
	}
	return v
}

func TestAdderPanicsOnLength(t *testing.T) {
	a := carry.NewAdder(built(t, "sklansky", 4))
	four, three := make([]uint64, 4), make([]uint64, 3)
	assert.PanicsWithValue(t,
		"carry: adding slices of lengths sum 4, x 3, y 4 with a 4-bit adder: want all 4",
		func() { a.Add(four, three, four, 0) })
	assert.Panics(t, func() { carry.Ripple(four, three, four, 0) })
}

// TestSwappedOperandsDetected runs a local copy of the adder whose combine can
// be replaced, and checks that the exhaustive comparison with math/big catches
// a combine with its operands swapped.
func TestSwappedOperandsDetected(t *testing.T) {
	right := func(lo, hi carry.Slice) carry.Slice { return carry.CombineSlice(lo, hi) }
	swapped := func(lo, hi carry.Slice) carry.Slice {
		return carry.Slice{G: lo.G | lo.P&hi.G, P: hi.P & lo.P}
	}
	net := built(t, "sklansky", 4)
	assert.Zero(t, checkExhaustive(t, 4, localAdder(net, right)), "the local copy itself")
	assert.Positive(t, checkExhaustive(t, 4, localAdder(net, swapped)), "the planted bug")
}

// localAdder is a plain copy of Adder.Add with a replaceable combine.
func localAdder(net *network.Network, combine func(lo, hi carry.Slice) carry.Slice) addFunc {
	return func(sum, x, y []uint64, cin uint64) uint64 {
		n := net.Width()
		ws := make([]carry.Slice, net.Signals())
		for i := range n {
			ws[i] = carry.Slice{G: x[i] & y[i], P: x[i] ^ y[i]}
		}
		ws[0].G |= ws[0].P & cin
		for k := range net.Size() {
			c := net.Cell(k)
			ws[net.CellSignal(k)] = combine(ws[c.Lo], ws[c.Hi])
		}
		c := cin
		for i := range n {
			sum[i] = ws[i].P ^ c
			c = ws[net.Output(i)].G
		}
		return c
	}
}

func BenchmarkAdder64(b *testing.B) {
	net := built(b, "kogge-stone", 64)
	a := carry.NewAdder(net)
	rng := rand.New(rand.NewPCG(5, 6))
	x, y, sum := make([]uint64, 64), make([]uint64, 64), make([]uint64, 64)
	for i := range x {
		x[i], y[i] = rng.Uint64(), rng.Uint64()
	}
	for b.Loop() {
		a.Add(sum, x, y, 0)
	}
	b.ReportMetric(float64(64*b.N)/b.Elapsed().Seconds(), "vectors/s")
}

func BenchmarkRipple64(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, y, sum := make([]uint64, 64), make([]uint64, 64), make([]uint64, 64)
	for i := range x {
		x[i], y[i] = rng.Uint64(), rng.Uint64()
	}
	for b.Loop() {
		carry.Ripple(sum, x, y, 0)
	}
	b.ReportMetric(float64(64*b.N)/b.Elapsed().Seconds(), "vectors/s")
}

func TestKinds(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		black int
	}{
		// Ripple reads every cell as Lo only: all gray.
		{"ripple", 8, 0},
		// Sklansky 8: [2,3], [6,7], [4,5], [4,6] and [4,7] are read as Hi.
		{"sklansky", 8, 5},
		// Kogge–Stone 8: the six [i−1,i] with i ≥ 2 and the four spans of
		// level 2 that do not start at 0 are read as Hi.
		{"kogge-stone", 8, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			net := built(t, tt.name, tt.n)
			black := 0
			for _, kind := range carry.Kinds(net) {
				if kind == carry.Black {
					black++
				}
			}
			assert.Equal(t, tt.black, black)
		})
	}
	assert.Equal(t, "black", carry.Black.String())
	assert.Equal(t, "gray", carry.Gray.String())
}

// TestKindsLoOfBlack: a black cell needs the P of both its operands, so a
// cell read only as the Lo of a black cell is black too. Here cell 1 = [1,3]
// is read as Hi and so is black, and it reads cell 0 = [1,2] as Lo: black.
func TestKindsLoOfBlack(t *testing.T) {
	net, err := network.New(network.Spec{
		Width:   4,
		Cells:   []network.Cell{{Lo: 1, Hi: 2}, {Lo: 4, Hi: 3}, {Lo: 0, Hi: 5}, {Lo: 0, Hi: 1}, {Lo: 7, Hi: 2}},
		Outputs: []int{0, 7, 8, 6},
	})
	require.NoError(t, err)
	assert.Equal(t, []carry.Kind{carry.Black, carry.Black, carry.Gray, carry.Gray, carry.Gray}, carry.Kinds(net))
}

// TestKindsExactly checks Kinds against its meaning, by exhaustive
// simulation of every topology at small widths: forcing the P of a gray cell
// to either value never changes a carry, and for every black cell some input
// and some forced value does.
func TestKindsExactly(t *testing.T) {
	for _, name := range topologies.Names() {
		for n := 1; n <= 6; n++ {
			net := built(t, name, n)
			kinds := carry.Kinds(net)
			require.Len(t, kinds, net.Size())
			for k, kind := range kinds {
				changes := false
				for in := range 1 << (2 * n) {
					want := carries(net, in, -1, false)
					for _, forced := range []bool{false, true} {
						if carries(net, in, k, forced) != want {
							changes = true
						}
					}
				}
				assert.Equal(t, kind == carry.Black, changes, "%s n=%d cell %d %s", name, n, k, kind)
			}
		}
	}
}

// carries evaluates the carries G[0,i] of net on the (g, p) inputs packed in
// in (bit 2i is g_i, bit 2i+1 is p_i), with the P of cell forced to p (no
// cell is forced for cell < 0), and packs them into an integer.
func carries(net *network.Network, in, cell int, p bool) int {
	v := make([]carry.GP, net.Signals())
	for i := range net.Width() {
		v[i] = carry.GP{G: in>>(2*i)&1 == 1, P: in>>(2*i+1)&1 == 1}
	}
	for k := range net.Size() {
		c := net.Cell(k)
		v[net.CellSignal(k)] = carry.Combine(v[c.Lo], v[c.Hi])
		if k == cell {
			v[net.CellSignal(k)].P = p
		}
	}
	out := 0
	for i := range net.Width() {
		if v[net.Output(i)].G {
			out |= 1 << i
		}
	}
	return out
}
