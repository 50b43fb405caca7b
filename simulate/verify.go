package simulate

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
)

// MaxExhaustiveWidth is the widest adder VerifyAdder checks on every vector:
// 2^(2n+1) vectors, two million at n = 10.
const MaxExhaustiveWidth = 10

// allBitsCorners is the widest adder whose single-bit corner vectors are
// made at every bit position; wider adders get them at the lowest and highest
// 64 positions and around every power of two.
const allBitsCorners = 256

// VerifyOptions are the settings of VerifyAdder.
type VerifyOptions struct {
	// Vectors is the number of random vectors to check after the corner and
	// exhaustive ones; 0 checks none. It must not be negative.
	Vectors int
	// Seed seeds the random vectors: the same seed checks the same vectors.
	Seed uint64
	// Progress, when not nil, is called now and then with the random
	// vectors checked and Vectors.
	Progress func(done, total int)
}

// AdderReport is what VerifyAdder checked and the first mismatch it found.
type AdderReport struct {
	// Width is the number of bits of the adder.
	Width int
	// Corner, Exhaustive and Random are the numbers of vectors checked in
	// each phase. When a mismatch stops the verification, the count of that
	// phase includes the batch of up to 64 vectors it was found in, and the
	// later phases are 0.
	Corner, Exhaustive, Random int
	// Mismatch is the first wrong sum found, or nil if there was none.
	Mismatch *Mismatch
}

// Mismatch is one addition the adder got wrong.
type Mismatch struct {
	// A and B are the addends and Cin the carry-in.
	A, B *big.Int
	Cin  bool
	// Got is the adder's result and Want the exact one, both as the
	// (Width+1)-bit number cout·2^Width + sum.
	Got, Want *big.Int
}

// String describes the mismatch in hexadecimal, as
// "0xff + 0x1 + 0: got 0x0, want 0x100".
func (m *Mismatch) String() string {
	cin := 0
	if m.Cin {
		cin = 1
	}
	return fmt.Sprintf("%#x + %#x + %d: got %#x, want %#x", m.A, m.B, cin, m.Got, m.Want)
}

// VerifyAdder checks the adder that package carry builds around net in three
// phases, stopping at the first wrong result:
//
//   - corner vectors, compared with math/big: 0 + 0, all ones + 1, all ones
//     plus all ones, all ones + 0 with the carry-in (a full propagate
//     chain), alternating 0101… and 1010… patterns, and at single bit
//     positions i a carry generated there (2^i + 2^i), a carry generated
//     there and propagated to the top (all ones + 2^i) and a carry-in
//     propagated up to there and killed (all ones but bit i, + 0, carry-in
//     1). Adders wider than 256 bits get the single-bit vectors at the lowest
//     and highest 64 positions and at 2^k − 1, 2^k and 2^k + 1;
//   - for widths up to MaxExhaustiveWidth, every (a, b, cin), compared with
//     math/big;
//   - opt.Vectors random vectors drawn from math/rand/v2's PCG seeded with
//     (opt.Seed, 0), generated directly in bit-sliced form 64 at a time and
//     compared with carry.Ripple on the same words. In every batch one lane,
//     rotating through the 64, is also extracted and compared with math/big,
//     so that the reference is itself tied to exact arithmetic.
//
// A wrong sum is not an error: it is reported in AdderReport.Mismatch. The
// error is for bad options only (a negative number of vectors).
//
// VerifyAdder checks upwards of 50 million random vectors a second on one
// core for a 64-bit Kogge–Stone adder.
func VerifyAdder(net *network.Network, opt VerifyOptions) (AdderReport, error) {
	if opt.Vectors < 0 {
		return AdderReport{}, fmt.Errorf("simulate: %d vectors: want 0 or more", opt.Vectors)
	}
	return verify(net.Width(), carry.NewAdder(net).Add, carry.Ripple, opt), nil
}

// addFunc is the shape of carry.Adder.Add and carry.Ripple.
type addFunc func(sum, x, y []uint64, cin uint64) (cout uint64)

// verifier holds the bit-sliced operands of one batch and the big.Int
// scratch of the comparisons with math/big.
type verifier struct {
	n          int
	add        addFunc
	x, y, sum  []uint64
	ref        []uint64
	cin, cout  uint64
	aw, bw, gw []big.Word // one lane's a, b and result
	a, b, c    big.Int
	got, want  big.Int
}

// verify runs the phases of VerifyAdder for the n-bit adder add, with ref as
// the bit-sliced reference of the random phase. Tests plant bugs in add or in
// ref through it.
func verify(n int, add, ref addFunc, opt VerifyOptions) AdderReport {
	words := (n + bits.UintSize) / bits.UintSize // n+1 bits
	v := &verifier{
		n: n, add: add,
		x: make([]uint64, n), y: make([]uint64, n),
		sum: make([]uint64, n), ref: make([]uint64, n),
		aw: make([]big.Word, words), bw: make([]big.Word, words), gw: make([]big.Word, words),
	}
	r := AdderReport{Width: n}
	if r.Corner, r.Mismatch = v.corners(); r.Mismatch != nil {
		return r
	}
	if n <= MaxExhaustiveWidth {
		if r.Exhaustive, r.Mismatch = v.exhaustive(); r.Mismatch != nil {
			return r
		}
	}
	r.Random, r.Mismatch = v.random(ref, opt)
	return r
}

// pattern is an operand of a corner vector.
type pattern struct {
	kind int // one of the pattern kinds below
	pos  int // the bit position of bitAt and allBut
}

const (
	zeros  = iota
	ones   // every bit set
	fives  // 0101…01: bits 0, 2, 4, … set
	as     // 1010…10: bits 1, 3, 5, … set
	bitAt  // 2^pos
	allBut // every bit but pos
)

// bit returns bit i of the pattern.
func (p pattern) bit(i int) uint64 {
	switch p.kind {
	case ones:
		return 1
	case fives:
		return uint64(i&1) ^ 1
	case as:
		return uint64(i & 1)
	case bitAt:
		if i == p.pos {
			return 1
		}
	case allBut:
		if i != p.pos {
			return 1
		}
	}
	return 0
}

// corner is one corner vector a + b + cin.
type corner struct {
	a, b pattern
	cin  uint64
}

// cornerVectors lists the corner vectors of an n-bit adder.
func cornerVectors(n int) []corner {
	p := func(kind int) pattern { return pattern{kind: kind} }
	cs := []corner{
		{p(zeros), p(zeros), 0},
		{p(zeros), p(zeros), 1},
		{p(ones), p(bitAt), 0}, // all ones + 1
		{p(ones), p(zeros), 1}, // full propagate chain, carry-in
		{p(zeros), p(ones), 1},
		{p(ones), p(ones), 0},
		{p(ones), p(ones), 1},
		{p(fives), p(as), 0},
		{p(fives), p(as), 1},
		{p(as), p(fives), 0},
		{p(as), p(fives), 1},
		{p(fives), p(fives), 0},
		{p(as), p(as), 1},
	}
	for _, i := range cornerPositions(n) {
		cs = append(cs,
			corner{pattern{bitAt, i}, pattern{bitAt, i}, 0},  // generated at i
			corner{pattern{ones, 0}, pattern{bitAt, i}, 0},   // generated at i, propagated to the top
			corner{pattern{allBut, i}, pattern{zeros, 0}, 1}, // carried in, killed at i
		)
	}
	return cs
}

// cornerPositions returns the bit positions of the single-bit corner vectors,
// in increasing order.
func cornerPositions(n int) []int {
	if n <= allBitsCorners {
		pos := make([]int, n)
		for i := range pos {
			pos[i] = i
		}
		return pos
	}
	seen := make(map[int]bool)
	var pos []int
	add := func(i int) {
		if i >= 0 && i < n && !seen[i] {
			seen[i] = true
			pos = append(pos, i)
		}
	}
	for i := range 64 {
		add(i)
		add(n - 64 + i)
	}
	for p := 64; p < n; p *= 2 {
		add(p - 1)
		add(p)
		add(p + 1)
	}
	slices.Sort(pos)
	return pos
}

// corners checks the corner vectors against math/big, 64 at a time.
func (v *verifier) corners() (int, *Mismatch) {
	cs := cornerVectors(v.n)
	for base := 0; base < len(cs); base += 64 {
		batch := cs[base:min(base+64, len(cs))]
		clear(v.x)
		clear(v.y)
		v.cin = 0
		for j, c := range batch {
			for i := range v.n {
				v.x[i] |= c.a.bit(i) << j
				v.y[i] |= c.b.bit(i) << j
			}
			v.cin |= c.cin << j
		}
		v.cout = v.add(v.sum, v.x, v.y, v.cin)
		for j := range batch {
			if m := v.checkLane(v.sum, v.cout, j); m != nil {
				return base + len(batch), m
			}
		}
	}
	return len(cs), nil
}

// exhaustive checks every (a, b, cin) against math/big, 64 at a time: vector
// number k is a = k mod 2^n, b = ⌊k / 2^n⌋ mod 2^n, cin = ⌊k / 2^2n⌋.
func (v *verifier) exhaustive() (int, *Mismatch) {
	n := v.n
	total := uint64(1) << (2*n + 1)
	mask := uint64(1)<<n - 1
	for base := uint64(0); base < total; base += 64 {
		lanes := min(64, total-base)
		clear(v.x)
		clear(v.y)
		v.cin = 0
		for j := range lanes {
			k := base + j
			a, b := k&mask, k>>n&mask
			for i := range n {
				v.x[i] |= (a >> i & 1) << j
				v.y[i] |= (b >> i & 1) << j
			}
			v.cin |= (k >> (2 * n)) << j
		}
		v.cout = v.add(v.sum, v.x, v.y, v.cin)
		for j := range int(lanes) {
			if m := v.checkLane(v.sum, v.cout, j); m != nil {
				return int(base + lanes), m
			}
		}
	}
	return int(total), nil
}

// random checks count seeded random vectors against ref, and one lane of
// every batch against math/big.
func (v *verifier) random(ref addFunc, opt VerifyOptions) (int, *Mismatch) {
	src := rand.NewPCG(opt.Seed, 0)
	x, y, sum, rsum := v.x, v.y, v.sum, v.ref
	y = y[:len(x)]
	for done, batch := 0, 0; done < opt.Vectors; batch++ {
		lanes := min(64, opt.Vectors-done)
		done += lanes
		if opt.Progress != nil && (batch%1024 == 0 || done == opt.Vectors) {
			opt.Progress(done, opt.Vectors)
		}
		mask := ^uint64(0) >> (64 - lanes)
		for i := range x {
			x[i] = src.Uint64()
			y[i] = src.Uint64()
		}
		v.cin = src.Uint64()
		v.cout = v.add(sum, x, y, v.cin)
		rcout := ref(rsum, x, y, v.cin)
		diff := v.cout ^ rcout
		for i, s := range sum {
			diff |= s ^ rsum[i]
		}
		if diff &= mask; diff != 0 {
			j := bits.TrailingZeros64(diff)
			m := v.checkLane(sum, v.cout, j)
			if m == nil {
				// The adder agrees with math/big where the reference does
				// not: the reference is wrong, which its own tests rule out.
				panic(fmt.Sprintf("simulate: the reference adder disagrees with math/big in lane %d of random batch %d", j, batch))
			}
			return done, m
		}
		// The adder equals the reference on every lane; tie the reference
		// to math/big on one of them.
		if m := v.checkLane(sum, v.cout, batch%lanes); m != nil {
			return done, m
		}
	}
	return opt.Vectors, nil
}

// checkLane compares lane j of the current batch, whose result is sum and
// cout, with math/big, and returns the mismatch if they differ.
func (v *verifier) checkLane(sum []uint64, cout uint64, j int) *Mismatch {
	lanes(v.aw, v.bw, v.gw, v.x, v.y, sum, j)
	n := len(sum)
	v.gw[n/bits.UintSize] |= big.Word(cout>>j&1) << (n % bits.UintSize)
	v.a.SetBits(v.aw)
	v.b.SetBits(v.bw)
	v.got.SetBits(v.gw)
	v.c.SetUint64(v.cin >> j & 1)
	v.want.Add(&v.a, &v.b)
	v.want.Add(&v.want, &v.c)
	if v.got.Cmp(&v.want) == 0 {
		return nil
	}
	return &Mismatch{
		A:    new(big.Int).Set(&v.a),
		B:    new(big.Int).Set(&v.b),
		Cin:  v.cin>>j&1 == 1,
		Got:  new(big.Int).Set(&v.got),
		Want: new(big.Int).Set(&v.want),
	}
}

// lanes writes lane j of the bit-sliced numbers x, y and s, all of one
// length, into xw, yw and sw as big.Int words. The three extractions share one
// loop so that they overlap.
func lanes(xw, yw, sw []big.Word, x, y, s []uint64, j int) {
	const wb = bits.UintSize
	n := len(s)
	x, y = x[:n], y[:n]
	for c := range sw {
		lo, hi := min(c*wb, n), min(c*wb+wb, n)
		var a, b, g big.Word
		for k := lo; k < hi; k++ {
			sh := k - lo
			a |= big.Word(x[k]>>j&1) << sh
			b |= big.Word(y[k]>>j&1) << sh
			g |= big.Word(s[k]>>j&1) << sh
		}
		xw[c], yw[c], sw[c] = a, b, g
	}
}
