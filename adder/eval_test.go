package adder_test

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/topologies"
)

// eval runs a description in Go: inputs maps an input port to its bits; the
// inputs are held for Latency + 1 clock cycles, so that every register holds
// what they make, and the outputs are returned by name. It is a second,
// independent reading of the description next to the simulators that run
// the emitted Verilog and VHDL.
func eval(t testing.TB, d *adder.Description, inputs map[string][]bool) map[string][]bool {
	t.Helper()
	vals := map[string][]bool{}
	lows := map[string]int{} // a bus's lowest bit
	width := func(w int) int { return max(w, 1) }
	for _, p := range d.Ports {
		if p.Dir == adder.In {
			v, ok := inputs[p.Name]
			if !ok {
				v = make([]bool, width(p.Width)) // clk, rst: 0
			}
			vals[p.Name] = v
		}
	}
	for _, r := range d.Registers() {
		vals[r.Q.Name], lows[r.Q.Name] = make([]bool, width(r.Q.Width)), r.Q.Lo
	}
	var expr func(e adder.Expr) []bool
	expr = func(e adder.Expr) []bool {
		switch e.Op {
		case adder.OpRef:
			v, ok := vals[e.Ref.Name]
			require.True(t, ok, "%s read before it is driven", e.Ref.Name)
			if e.Ref.Bit >= 0 {
				return []bool{v[e.Ref.Bit-lows[e.Ref.Name]]}
			}
			return v
		case adder.OpConst:
			return []bool{e.Value}
		case adder.OpNot:
			x := expr(e.Args[0])
			out := make([]bool, len(x))
			for i := range x {
				out[i] = !x[i]
			}
			return out
		case adder.OpAnd, adder.OpOr, adder.OpXor:
			out := append([]bool(nil), expr(e.Args[0])...)
			for _, a := range e.Args[1:] {
				x := expr(a)
				require.Len(t, x, len(out))
				for i := range out {
					switch e.Op {
					case adder.OpAnd:
						out[i] = out[i] && x[i]
					case adder.OpOr:
						out[i] = out[i] || x[i]
					default:
						out[i] = out[i] != x[i]
					}
				}
			}
			return out
		case adder.OpMux:
			if expr(e.Args[0])[0] {
				return expr(e.Args[1])
			}
			return expr(e.Args[2])
		case adder.OpReduceAnd, adder.OpReduceOr:
			all, any := true, false
			for _, b := range expr(e.Args[0]) {
				all, any = all && b, any || b
			}
			if e.Op == adder.OpReduceAnd {
				return []bool{all}
			}
			return []bool{any}
		}
		t.Fatalf("unknown operator %d", e.Op)
		return nil
	}
	settle := func() {
		for _, p := range d.Outputs() {
			vals[p.Name] = make([]bool, width(p.Width))
		}
		for _, sec := range d.Sections {
			for _, b := range sec.Buses {
				vals[b.Name], lows[b.Name] = make([]bool, b.Width), b.Lo
			}
			for _, a := range sec.Assigns {
				v := expr(a.Expr)
				if a.Target.Bit >= 0 {
					require.Len(t, v, 1, "%s", a.Target)
					vals[a.Target.Name][a.Target.Bit-lows[a.Target.Name]] = v[0]
					continue
				}
				vals[a.Target.Name] = append([]bool(nil), v...)
			}
		}
	}
	for range d.Latency + 1 {
		settle()
		next := map[string][]bool{}
		for _, r := range d.Registers() {
			next[r.Q.Name] = append([]bool(nil), expr(adder.Expr{Op: adder.OpRef, Ref: r.D})...)
		}
		for name, v := range next {
			vals[name] = v
		}
	}
	settle()
	out := map[string][]bool{}
	for _, p := range d.Outputs() {
		out[p.Name] = vals[p.Name]
	}
	return out
}

func toBits(x *big.Int, n int) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = x.Bit(i) == 1
	}
	return b
}

// want computes the outputs of the operation with math/big.
func want(opt adder.Architecture, n int, a, b *big.Int, cin, mode bool) map[string][]bool {
	mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(n)), big.NewInt(1))
	bx := new(big.Int).Set(b)
	sub := opt.Op == adder.Sub || opt.Op == adder.Compare || opt.Op == adder.AddSub && mode
	if sub {
		bx.Xor(bx, mask)
	}
	ci := cin
	if opt.NoCarryIn || opt.Op == adder.Compare {
		ci = opt.Op == adder.Sub || opt.Op == adder.Compare || opt.Op == adder.AddSub && mode
	}
	full := new(big.Int).Add(a, bx)
	if ci {
		full.Add(full, big.NewInt(1))
	}
	out := map[string][]bool{}
	if opt.Op == adder.Compare {
		signed := func(x *big.Int) *big.Int {
			if x.Bit(n-1) == 1 {
				return new(big.Int).Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(n)))
			}
			return x
		}
		out["lt"] = []bool{signed(a).Cmp(signed(b)) < 0}
		out["ltu"] = []bool{a.Cmp(b) < 0}
		out["eq"] = []bool{a.Cmp(b) == 0}
		return out
	}
	sum := new(big.Int).And(full, mask)
	out["sum"] = toBits(sum, n)
	if opt.Flags&adder.Carry != 0 {
		out["cout"] = []bool{full.Bit(n) == 1}
	}
	if opt.Flags&adder.Overflow != 0 {
		out["overflow"] = []bool{a.Bit(n-1) == bx.Bit(n-1) && sum.Bit(n-1) != a.Bit(n-1)}
	}
	if opt.Flags&adder.Zero != 0 {
		out["zero"] = []bool{sum.Sign() == 0}
	}
	if opt.Flags&adder.Negative != 0 {
		out["negative"] = []bool{sum.Bit(n-1) == 1}
	}
	return out
}

// checkDescription runs random and corner vectors through the description
// and compares every output with math/big.
func checkDescription(t testing.TB, d *adder.Description, rng *rand.Rand, vectors int) {
	t.Helper()
	n := d.Width
	for v := range vectors {
		a, b := new(big.Int), new(big.Int)
		for i := range n {
			if v == 1 || rng.IntN(2) == 1 {
				a.SetBit(a, i, 1)
			}
			if v != 0 && v != 2 && rng.IntN(2) == 1 || v == 3 {
				b.SetBit(b, i, 1)
			}
		}
		cin, mode := rng.IntN(2) == 1, rng.IntN(2) == 1
		in := map[string][]bool{"a": toBits(a, n), "b": toBits(b, n), "cin": {cin}, "mode": {mode}}
		require.Equal(t, want(d.Architecture, n, a, b, cin, mode), eval(t, d, in), "a=%x b=%x cin=%v mode=%v", a, b, cin, mode)
	}
	if !d.Architecture.FACells { // left as measured: see adder's prune
		require.Empty(t, unread(d), "declared but never read (a lint warning in the emitted HDL)")
	}
}

// unread lists the bits of d's wires, buses and registers that no
// assignment, register or output reads, but for the wires named unused_…
// that a library cell's output no one reads drives.
func unread(d *adder.Description) []string {
	read := map[adder.Ref]bool{}
	var walk func(e adder.Expr)
	walk = func(e adder.Expr) {
		if e.Op == adder.OpRef {
			read[e.Ref] = true
		}
		for _, a := range e.Args {
			walk(a)
		}
	}
	for _, sec := range d.Sections {
		for _, a := range sec.Assigns {
			walk(a.Expr)
			for _, r := range a.CellArgs {
				read[r] = true
			}
		}
	}
	var declared []adder.Signal
	for _, r := range d.Registers() {
		read[r.D] = true
		declared = append(declared, r.Q)
	}
	for _, sec := range d.Sections {
		declared = append(declared, sec.Buses...)
		for _, a := range sec.Assigns {
			if a.Declare {
				declared = append(declared, adder.Signal{Name: a.Target.Name, Width: a.Width})
			}
		}
	}
	var out []string
	for _, s := range declared {
		if strings.HasPrefix(s.Name, "unused_") {
			continue
		}
		if s.Width == 0 || read[adder.Whole(s.Name)] {
			if !read[adder.Whole(s.Name)] {
				out = append(out, s.Name)
			}
			continue
		}
		for i := s.Lo; i < s.Lo+s.Width; i++ {
			if !read[adder.Bit(s.Name, i)] {
				out = append(out, adder.Bit(s.Name, i).String())
			}
		}
	}
	return out
}

// Every operation, flag set, sparseness, valency and pipeline, at widths
// that divide and do not divide the sparseness, with the carries or with
// Ling's pseudo-carries, computes what math/big computes.
func TestDescriptionComputes(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 1))
	ops := []adder.Op{adder.Add, adder.Sub, adder.AddSub, adder.Compare}
	for _, topo := range []string{"kogge-stone", "sklansky", "brent-kung", "ripple", "han-carlson", "zero-deficiency"} {
		for _, n := range []int{1, 2, 5, 8, 13, 16} {
			for trial := range 12 {
				opt := adder.Architecture{Op: ops[trial%4], NoCarryIn: trial%3 == 0, Ling: trial >= 6}
				if opt.Op == adder.Add && trial%8 < 4 {
					opt.PGCells = true
				}
				if opt.Op != adder.Compare {
					opt.Flags = adder.Flags(rng.IntN(16))
					opt.Sparse = []int{1, 2, 4, 8}[rng.IntN(4)]
					if opt.Sparse > n {
						opt.Sparse = 1
					}
				}
				net := build(t, topo, n)
				if v := 2 + rng.IntN(3); (topo == "kogge-stone" || topo == "sklansky") && trial%2 == 1 {
					var err error
					net, err = topologies.Valency(topo, n, v)
					require.NoError(t, err)
					opt.Valency = v
				}
				if trial%6 >= 3 {
					opt.Stages = 1 + rng.IntN(2)
				}
				d, err := adder.Describe(net, opt, &osuCells)
				if err != nil {
					require.Contains(t, err.Error(), "pipeline stages", "%s n=%d %+v", topo, n, opt)
					continue
				}
				checkDescription(t, d, rng, 40)
			}
		}
	}
}

// FuzzDescribe builds adders from arbitrary options: Describe refuses or
// builds, never panics, and what it builds computes the right outputs.
func FuzzDescribe(f *testing.F) {
	f.Add(uint8(8), uint8(0), uint8(1), uint8(1), uint8(2), uint8(0), false, uint16(0))
	f.Add(uint8(13), uint8(2), uint8(15), uint8(4), uint8(3), uint8(1), true, uint16(5))
	f.Add(uint8(11), uint8(0), uint8(3), uint8(2), uint8(3), uint8(0), false, uint16(1<<15|2)) // Ling
	f.Add(uint8(9), uint8(2), uint8(1), uint8(1), uint8(2), uint8(2), false, uint16(1<<14|5))  // no reset
	f.Add(uint8(12), uint8(0), uint8(1), uint8(2), uint8(2), uint8(1), false, uint16(1<<13|1)) // library cells
	f.Add(uint8(10), uint8(0), uint8(3), uint8(1), uint8(0), uint8(0), false, uint16(1<<12))   // full adders
	f.Fuzz(func(t *testing.T, n, op, flags, sparse, valency, topo uint8, nocin bool, cuts uint16) {
		width := int(n%24) + 1
		names := topologies.ValencyFamilies
		net, err := topologies.Valency(names[int(topo)%len(names)], width, int(valency%3)+2)
		require.NoError(t, err)
		opt := adder.Architecture{Op: adder.Op(op % 5), Flags: adder.Flags(flags % 32), Sparse: int(sparse % 10),
			Valency: int(valency%3) + 2, NoCarryIn: nocin, Ling: cuts&(1<<15) != 0, NoReset: cuts&(1<<14) != 0}
		for l := range 6 {
			if cuts&(1<<l) != 0 {
				opt.PipelineAfter = append(opt.PipelineAfter, l)
			}
		}
		var cells *adder.Cells
		if cuts&(1<<13) != 0 {
			opt.PGCells, cells = true, &osuCells // refused for every operation but add
		}
		if cuts&(1<<12) != 0 {
			// Refused but with add, dense, binary, without Ling or a pipeline.
			opt.FACells, cells = true, &faCells[int(op)%2]
		}
		d, err := adder.Describe(net, opt, cells)
		if err != nil {
			require.Contains(t, err.Error(), "allowed")
			return
		}
		checkDescription(t, d, rand.New(rand.NewPCG(uint64(n), uint64(cuts))), 8)
		for _, p := range d.Inputs() {
			require.False(t, p.Name == "rst" && opt.NoReset, "no rst without a reset")
			require.False(t, p.Name == "clk" && !d.Clocked(), "no clk without registers")
		}
	})
}
