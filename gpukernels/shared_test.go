package gpukernels_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/block"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/simulate"
)

// sharedWidths are the widths the shared-memory block scan is read back at.
var sharedWidths = []int{2, 33, 64, 100, 256, 1024}

// evalIndex evaluates an emitted index expression, which reads the same in
// Go, at i: integer literals, i, parentheses, + - * >> &.
func evalIndex(t tester, e ast.Expr, i int) int {
	t.Helper()
	switch e := e.(type) {
	case *ast.BasicLit:
		v, err := strconv.Atoi(e.Value)
		require.NoError(t, err)
		return v
	case *ast.Ident:
		require.Equal(t, "i", e.Name)
		return i
	case *ast.ParenExpr:
		return evalIndex(t, e.X, i)
	case *ast.UnaryExpr:
		require.Equal(t, token.SUB, e.Op)
		return -evalIndex(t, e.X, i)
	case *ast.BinaryExpr:
		x, y := evalIndex(t, e.X, i), evalIndex(t, e.Y, i)
		switch e.Op {
		case token.ADD:
			return x + y
		case token.SUB:
			return x - y
		case token.MUL:
			return x * y
		case token.SHR:
			return x >> y
		case token.AND:
			return x & y
		}
	}
	require.Failf(t, "unexpected index expression", "%T", e)
	return 0
}

// piece is a closed form read back: the cells or columns below To.
type piece struct {
	to          int // -1: the rest
	lo, hi, out ast.Expr
}

func parseExpr(t tester, s string) ast.Expr {
	t.Helper()
	e, err := parser.ParseExpr(s)
	require.NoError(t, err, "expression %q", s)
	return e
}

// sharedBack is a SharedNetwork read back from a header, in array indices.
type sharedBack struct {
	width, threads, arrayLen int
	pad                      bool
	syncs                    int
	inputs, outputs          []int
	rounds                   [][]block.Cell
}

var (
	reRound     = regexp.MustCompile(`(?m)^    // round (\d+): (\d+) cells?(?: from (\w+)|, (\d+) closed forms?)$`)
	reLoop      = regexp.MustCompile(`^    for \(int i = threadIdx\.x; i < (\d+); i \+= kThreads\) \{$`)
	reAssign    = regexp.MustCompile(`^\s+(?:const int )?(lo|hi|out) = (.+);$`)
	reIf        = regexp.MustCompile(`^\s+(?:\} else )?if \(i < (\d+)\) \{$`)
	reTableData = regexp.MustCompile(`(?s)static __device__ unsigned short (\w+)\[[^\]]*\] = \{\n(.*?)\n\};`)
	reEnum      = regexp.MustCompile(`(?m)^    (k\w+) = (\d+),`)
	reIndexRet  = regexp.MustCompile(`^\s+(?:if \(i < (\d+)\) )?return (?:Index\((.+)\)|(\w+)\[i\]);$`)
)

// readBackShared parses SharedNetwork out of a header: its constants, its
// tables, the closed forms or tables of every round evaluated cell by cell,
// and the input and output index functions evaluated column by column.
func readBackShared(t tester, src string) *sharedBack {
	t.Helper()
	tables := map[string][]int{}
	for _, m := range reTableData.FindAllStringSubmatch(src, -1) {
		var vals []int
		for f := range strings.FieldsFuncSeq(m[2], func(r rune) bool { return r == ',' || r == ' ' || r == '\n' }) {
			v, err := strconv.Atoi(f)
			require.NoError(t, err)
			vals = append(vals, v)
		}
		tables[m[1]] = vals
	}
	start := strings.Index(src, "struct SharedNetwork {")
	require.GreaterOrEqual(t, start, 0, "no SharedNetwork")
	body := src[start:]
	body = body[:strings.Index(body, "\n};\n")]
	b := &sharedBack{}
	consts := map[string]int{}
	for _, m := range reEnum.FindAllStringSubmatch(body, -1) {
		consts[m[1]], _ = strconv.Atoi(m[2])
	}
	b.width, b.threads, b.arrayLen = consts["kWidth"], consts["kThreads"], consts["kArrayLen"]
	switch {
	case strings.Contains(body, "int Index(int slot) { return slot + (slot >> 5); }"):
		b.pad = true
	case strings.Contains(body, "int Index(int slot) { return slot; }"):
	default:
		require.Fail(t, "no Index function")
	}
	index := func(s int) int {
		if b.pad {
			return s + s>>5
		}
		return s
	}

	// An index function: "if (i < N) return Index(E);" lines and a last
	// "return Index(E);", or "return TABLE[i];".
	indexFunc := func(name string) []int {
		fn := body[strings.Index(body, "int "+name+"(int i) {"):]
		fn = fn[:strings.Index(fn, "\n  }\n")]
		var pieces []piece
		var table string
		for _, line := range strings.Split(fn, "\n")[1:] {
			m := reIndexRet.FindStringSubmatch(line)
			require.NotNil(t, m, "%s: line %q", name, line)
			if m[3] != "" {
				table = m[3]
				continue
			}
			to := -1
			if m[1] != "" {
				to, _ = strconv.Atoi(m[1])
			}
			pieces = append(pieces, piece{to: to, out: parseExpr(t, m[2])})
		}
		out := make([]int, b.width)
		for i := range out {
			if table != "" {
				require.Contains(t, tables, table)
				out[i] = tables[table][i]
				continue
			}
			k := 0
			for pieces[k].to >= 0 && i >= pieces[k].to {
				k++
			}
			out[i] = index(evalIndex(t, pieces[k].out, i))
		}
		return out
	}
	b.inputs, b.outputs = indexFunc("InputIndex"), indexFunc("OutputIndex")

	run := body[strings.Index(body, "static __device__ __forceinline__ void Run("):]
	run = run[:strings.LastIndex(run, "\n  }")+1]
	b.syncs = strings.Count(run, "__syncthreads();")
	locs := reRound.FindAllStringSubmatchIndex(run, -1)
	for r, loc := range locs {
		m := reRound.FindStringSubmatch(run[loc[0]:loc[1]])
		require.Equal(t, strconv.Itoa(r+1), m[1], "rounds in order")
		n, _ := strconv.Atoi(m[2])
		end := len(run)
		if r+1 < len(locs) {
			end = locs[r+1][0]
		}
		lines := strings.Split(strings.TrimRight(run[loc[1]+1:end], "\n"), "\n")
		lm := reLoop.FindStringSubmatch(lines[0])
		require.NotNil(t, lm, "round %d: loop %q", r+1, lines[0])
		require.Equal(t, m[2], lm[1], "round %d: the loop covers the cells", r+1)
		require.Equal(t, "    __syncthreads();", lines[len(lines)-1], "round %d ends with a barrier", r+1)
		cells := make([]block.Cell, n)
		if table := m[3]; table != "" {
			require.Contains(t, tables, table)
			vals := tables[table]
			require.Len(t, vals, 3*n)
			for i := range cells {
				cells[i] = block.Cell{Lo: vals[3*i], Hi: vals[3*i+1], Out: vals[3*i+2]}
			}
		} else {
			var pieces []piece
			cur := piece{to: -1}
			for _, line := range lines[1:] {
				if m := reIf.FindStringSubmatch(line); m != nil {
					if cur.lo != nil {
						pieces = append(pieces, cur)
					}
					to, _ := strconv.Atoi(m[1])
					cur = piece{to: to}
				} else if strings.TrimSpace(line) == "} else {" {
					pieces = append(pieces, cur)
					cur = piece{to: -1}
				} else if m := reAssign.FindStringSubmatch(line); m != nil {
					e := parseExpr(t, m[2])
					switch m[1] {
					case "lo":
						cur.lo = e
					case "hi":
						cur.hi = e
					default:
						cur.out = e
					}
				}
			}
			pieces = append(pieces, cur)
			wantPieces, _ := strconv.Atoi(m[4])
			require.Len(t, pieces, wantPieces, "round %d", r+1)
			require.Contains(t, run[loc[1]:end], "values[Index(out)] = scan_op(values[Index(lo)], values[Index(hi)]);")
			for i := range cells {
				k := 0
				for pieces[k].to >= 0 && i >= pieces[k].to {
					k++
				}
				p := pieces[k]
				cells[i] = block.Cell{Lo: index(evalIndex(t, p.lo, i)), Hi: index(evalIndex(t, p.hi, i)), Out: index(evalIndex(t, p.out, i))}
			}
		}
		b.rounds = append(b.rounds, cells)
	}
	return b
}

// requireEmittedShared reads the shared network back from src and checks
// it cell by cell against the program lowered from net, then runs the
// cells it read over Interval (as a program in array indices, which
// block.Run checks for races) and compares with Scan.
func requireEmittedShared(t tester, net *network.Network, opt block.Options, src string) {
	t.Helper()
	p, err := block.Lower(net, opt)
	require.NoError(t, err)
	b := readBackShared(t, src)
	require.Equal(t, p.Width, b.width)
	require.Equal(t, p.Threads, b.threads)
	require.Equal(t, p.ArrayLen(), b.arrayLen)
	require.Equal(t, p.Pad, b.pad)
	require.Equal(t, len(p.Rounds)+1, b.syncs, "one __syncthreads() before the rounds and one after each")
	require.Len(t, b.rounds, len(p.Rounds))
	for j := range p.Width {
		require.Equal(t, p.Index(p.Inputs[j]), b.inputs[j], "input slot of column %d", j)
		require.Equal(t, p.Index(p.Outputs[j]), b.outputs[j], "output slot of column %d", j)
	}
	for r, round := range p.Rounds {
		for i, c := range round {
			want := block.Cell{Lo: p.Index(c.Lo), Hi: p.Index(c.Hi), Out: p.Index(c.Out)}
			require.Equal(t, want, b.rounds[r][i], "round %d cell %d", r+1, i)
		}
	}
	q := &block.Program{Width: b.width, Threads: b.threads, Slots: b.arrayLen, Inputs: b.inputs, Outputs: b.outputs, Rounds: b.rounds}
	in := make([]simulate.Range, b.width)
	for i := range in {
		in[i] = simulate.Unit(i)
	}
	got, err := block.Run(q, simulate.Interval{}, in)
	require.NoError(t, err)
	require.Equal(t, simulate.Scan(simulate.Interval{}, in), got)
}

// TestSharedMatchesProgram reads the shared-memory network back from the
// CUDA of every topology at several widths, padded and not, and checks it
// cell by cell against block.Lower and by running it.
func TestSharedMatchesProgram(t *testing.T) {
	tableRounds, formRounds := 0, 0
	for _, top := range gputest.Families() {
		for _, w := range sharedWidths {
			for _, pad := range []bool{true, false} {
				net := gputest.Build(t, top.Name, w, top.Params)
				src := render(t, net, gpukernels.Options{Block: gpukernels.BlockShared, NoPad: !pad})
				t.Run(fmt.Sprintf("%v/%d/pad=%v", top, w, pad), func(t *testing.T) {
					requireEmittedShared(t, net, block.Options{NoPad: !pad}, src)
				})
				tableRounds += strings.Count(src, " cells from kRound")
				formRounds += strings.Count(src, " closed form")
			}
		}
	}
	t.Logf("%d rounds in closed forms, %d from tables", formRounds, tableRounds)
	require.Positive(t, tableRounds)
	require.Positive(t, formRounds)
}

// Fewer threads than cells: each thread loops over the round.
func TestSharedThreads(t *testing.T) {
	net := gputest.Build(t, "kogge-stone", 256, nil)
	src := render(t, net, gpukernels.Options{Block: gpukernels.BlockShared, BlockThreads: 64})
	requireEmittedShared(t, net, block.Options{Threads: 64}, src)
	assert.Contains(t, src, "kBlockThreads = 64,")
	assert.Contains(t, src, "kColumnsPerThread = 4,")
	assert.Contains(t, src, "kItemsPerColumn = 2,")
}

// A header whose rounds disagreed with the lowering would be caught.
func TestSharedReadBackCatches(t *testing.T) {
	for _, c := range []struct {
		name     string
		from, to string
	}{
		{"brent-kung", "const int lo = 2 * i;", "const int lo = 2 * i + 1;"},
		{"brent-kung", "const int out = 1 + 2 * i;", "const int out = 2 * i;"},
		{"kogge-stone", "kThreads = 64,", "kThreads = 32,"},
		{"brent-kung", "    __syncthreads();\n    // round 2", "    // round 2"},
	} {
		net := gputest.Build(t, c.name, 128, nil)
		src := render(t, net, gpukernels.Options{Block: gpukernels.BlockShared})
		bad := strings.Replace(src, c.from, c.to, 1)
		require.NotEqual(t, src, bad, "%q is in the text", c.from)
		r := &recorder{}
		func() {
			defer func() {
				if p := recover(); p != nil && p != r {
					panic(p)
				}
			}()
			requireEmittedShared(r, net, block.Options{}, bad)
		}()
		assert.True(t, r.failed, "read-back misses %q → %q", c.from, c.to)
	}
	// A table entry changed.
	net := gputest.Build(t, "kogge-stone", 256, nil)
	src := render(t, net, gpukernels.Options{Block: gpukernels.BlockShared})
	m := reTableData.FindStringSubmatchIndex(src)
	require.NotNil(t, m, "kogge-stone 256 has a table")
	data := src[m[4]:m[5]]
	first := strings.TrimSpace(strings.SplitN(data, ",", 2)[0])
	v, _ := strconv.Atoi(first)
	bad := src[:m[4]] + strings.Replace(data, first, strconv.Itoa(v+1), 1) + src[m[5]:]
	r := &recorder{}
	func() {
		defer func() {
			if p := recover(); p != nil && p != r {
				panic(p)
			}
		}()
		requireEmittedShared(r, net, block.Options{}, bad)
	}()
	assert.True(t, r.failed, "read-back misses a changed table entry")
}

// TestSharedHeader checks what the shared header states and holds.
func TestSharedHeader(t *testing.T) {
	net := gputest.Build(t, "kogge-stone", 2048, nil)
	p, err := block.Lower(net, block.Options{})
	require.NoError(t, err)
	src := render(t, net, gpukernels.Options{Block: gpukernels.BlockShared, Type: "double", Op: "affine", Segmented: "uint32"})
	bytes := p.ArrayLen() * 24
	for _, want := range []string{
		"// width:      2048 columns\n",
		"// banks:      ",
		fmt.Sprintf("// program:    11 rounds in shared memory, %d cells, 12 __syncthreads(), %d slots (padded: slot s at s + s/32)\n", net.Size(), p.Slots),
		"// value type: affine maps x -> a*x + b, a and b double (double), segmented: head flags uint32 (uint32_t)\n",
		fmt.Sprintf("// shared:     %d values of 24 bytes = %d bytes for the network; dynamic shared memory, opted into above 49152 bytes\n", p.ArrayLen(), bytes),
		"// tuning:     8 items per thread (2 columns of 4), 1024 threads per block",
		"namespace kogge_stone_2048_double_affine_segmented_uint32_shared {",
		"T values[SharedNetwork::kArrayLen];",
		"cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));",
		"extern __shared__ __align__(16) unsigned char kernel_shared[];",
		"struct AffineMap {\n  double a;\n  double b;\n};",
		"struct SegmentedValue {\n  AffineMap value;\n  uint32_t head;\n};",
		"typedef SegmentedValue value_type;",
		"return SegmentedValue{AffineMap{1.0, 0.0}, 0};",
		"typedef Compose BaseOp;",
		"typedef Segmented ScanOp;",
		"DeviceInclusiveScanThreePass",
		"ExclusiveScanThreePass(",
	} {
		assert.True(t, strings.Contains(src, want), "the header holds %q", want)
	}
	assert.Greater(t, bytes, gpukernels.SmallSharedBytes, "this one needs the opt-in")
	for _, no := range []string{"WarpNetwork", "TotalsNetwork", "BigAdd", "WarpInclusiveScan"} {
		assert.False(t, strings.Contains(src, no), "a shared header holds no %s", no)
	}

	nopad := render(t, gputest.Build(t, "brent-kung", 1024, nil), gpukernels.Options{Block: gpukernels.BlockShared, NoPad: true})
	assert.Contains(t, nopad, "static __device__ __forceinline__ int Index(int slot) { return slot; }")
	assert.Contains(t, nopad, "namespace brent_kung_1024_int32_add_shared_nopad {")
	assert.Contains(t, nopad, "1024 slots (unpadded)")

	// Padding cuts Brent–Kung's bank conflicts, and the header says so.
	padded := render(t, gputest.Build(t, "brent-kung", 1024, nil), gpukernels.Options{Block: gpukernels.BlockShared})
	conflicts := func(src string) int {
		m := regexp.MustCompile(`// banks:      (\d+) extra`).FindStringSubmatch(src)
		require.NotNil(t, m)
		n, _ := strconv.Atoi(m[1])
		return n
	}
	assert.Less(t, conflicts(padded), conflicts(nopad))
}

// The three-pass scan is built from the block scan of either kind, with
// its three kernels launched in order.
func TestThreePassStructure(t *testing.T) {
	for _, opt := range []gpukernels.Options{{}, {Block: gpukernels.BlockShared}} {
		w := 32
		if opt.Block == gpukernels.BlockShared {
			w = 1024
		}
		src := render(t, gputest.Build(t, "sklansky", w, nil), opt)
		body := src[strings.Index(src, "cudaError_t DeviceScanThreePass("):]
		body = body[:strings.Index(body, "\n}\n")]
		i1 := strings.Index(body, "ReduceTilesKernel<T, ScanOp><<<static_cast<unsigned>(num_tiles)")
		i2 := strings.Index(body, "ScanTotalsKernel<T, ScanOp><<<1, kBlockThreads")
		i3 := strings.Index(body, "ScanTilesKernel<T, ScanOp><<<static_cast<unsigned>(num_tiles)")
		require.True(t, i1 > 0 && i2 > i1 && i3 > i2, "three passes in order:\n%s", body)
		assert.Contains(t, src, "BlockScan<T, ScanOp>(storage.scan).Scan(items.item, scan_op, true, prefix, aggregate);")
	}
}

// The affine operator's coefficients compose as simulate.Affine does: b ∘ a,
// a applied first. The emitted expressions read the same in Go.
func TestAffineComposition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		lo := simulate.AffineMap{A: rng.Uint64N(1000), B: rng.Uint64N(1000)}
		hi := simulate.AffineMap{A: rng.Uint64N(1000), B: rng.Uint64N(1000)}
		want := simulate.Affine{}.Combine(lo, hi)
		eval := func(expr string) uint64 {
			r := strings.NewReplacer("a.a", strconv.FormatUint(lo.A, 10), "a.b", strconv.FormatUint(lo.B, 10),
				"b.a", strconv.FormatUint(hi.A, 10), "b.b", strconv.FormatUint(hi.B, 10))
			tv, err := types.Eval(token.NewFileSet(), nil, token.NoPos, r.Replace(expr))
			require.NoError(t, err)
			v, err := strconv.ParseUint(tv.Value.String(), 10, 64)
			require.NoError(t, err)
			return v
		}
		require.Equal(t, want.A, eval(gpukernels.AffineA))
		require.Equal(t, want.B, eval(gpukernels.AffineB))
	}
	src := render(t, gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Type: "float", Op: "affine"})
	assert.Contains(t, src, "return T{"+gpukernels.AffineA+", "+gpukernels.AffineB+"};")
	assert.Contains(t, src, "return AffineMap{1.0f, 0.0f};")
}

// The segmented lift in the header is simulate.Segmented's.
func TestSegmentedLift(t *testing.T) {
	src := render(t, gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Type: "int64", Op: "max", Segmented: "int32"})
	for _, want := range []string{
		"struct SegmentedValue {\n  int64_t value;\n  int32_t head;\n};",
		"r.value = b.head ? b.value : BaseOp()(a.value, b.value);\n    r.head = a.head | b.head;",
		"typedef Max BaseOp;",
		"return SegmentedValue{(-9223372036854775807ll - 1), 0};",
		"namespace sklansky_8_int64_max_segmented_int32 {",
		"value_type is the type the scans of ScanOp run over (16 bytes).",
	} {
		assert.Contains(t, src, want)
	}
	fn := render(t, gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Type: "float", Op: "functor:my::Op", Segmented: "uint64"})
	assert.Contains(t, fn, "typedef ::my::Op BaseOp;")
	assert.Contains(t, fn, "value_type is the type the scans of ScanOp run over (16 bytes).")
	assert.NotContains(t, fn, "Identity()")
}

// The emulators run the warp and block programs of every topology over
// simulate's affine maps and their segmented lift, both non-commutative.
func TestAffineSegmentedEmulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	seg := simulate.Segmented[simulate.AffineMap]{Base: simulate.Affine{}}
	inputs := func(n int) ([]simulate.AffineMap, []simulate.Seg[simulate.AffineMap]) {
		maps := make([]simulate.AffineMap, n)
		segs := make([]simulate.Seg[simulate.AffineMap], n)
		for i := range maps {
			maps[i] = simulate.AffineMap{A: rng.Uint64() | 1, B: rng.Uint64()}
			segs[i] = simulate.Seg[simulate.AffineMap]{Head: rng.IntN(5) == 0, Value: maps[i]}
		}
		return maps, segs
	}
	for _, top := range gputest.Families() {
		for _, w := range []int{5, 32} {
			net := gputest.Build(t, top.Name, w, top.Params)
			p, err := warp.Lower(net)
			require.NoError(t, err)
			maps, segs := inputs(w)
			require.Equal(t, simulate.Scan(simulate.Affine{}, maps), warp.Run(p, simulate.Affine{}, maps), "%v %d", top, w)
			require.Equal(t, simulate.Scan(seg, segs), warp.Run(p, seg, segs), "%v %d", top, w)
		}
		for _, w := range []int{64, 100, 256, 1024} {
			net := gputest.Build(t, top.Name, w, top.Params)
			p, err := block.Lower(net, block.Options{})
			require.NoError(t, err)
			maps, segs := inputs(w)
			got, err := block.Run(p, simulate.Affine{}, maps)
			require.NoError(t, err)
			require.Equal(t, simulate.Scan(simulate.Affine{}, maps), got, "%v %d", top, w)
			gotSeg, err := block.Run(p, seg, segs)
			require.NoError(t, err)
			require.Equal(t, simulate.Scan(seg, segs), gotSeg, "%v %d", top, w)
		}
	}
}

func TestSharedBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		net  *network.Network
		opt  gpukernels.Options
		want string
	}{
		{"too wide", gputest.Build(t, "sklansky", 4096, nil), gpukernels.Options{Block: "shared"}, "gpukernels: width 4096 out of range: a shared-memory block scan allows 2 to 2048 columns"},
		{"too narrow", gputest.Build(t, "sklansky", 1, nil), gpukernels.Options{Block: "shared"}, "gpukernels: width 1 out of range: a shared-memory block scan allows 2 to 2048 columns"},
		{"wide shuffle", gputest.Build(t, "sklansky", 64, nil), gpukernels.Options{}, "gpukernels: width 64 out of range: a warp scan allows 1 to 32 lanes; the shared-memory block scan (Block: shared) takes 2 to 2048 columns"},
		{"unknown block", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Block: "global"}, `gpukernels: unknown block scan "global": allowed shuffle, raking, shared`},
		{"pad raking", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Block: "raking", NoPad: true}, "gpukernels: padding applies to the shared block scan only, not raking"},
		{"totals raking", gputest.Build(t, "sklansky", 32, nil), gpukernels.Options{Block: "raking", Totals: gputest.Build(t, "sklansky", 4, nil)}, "gpukernels: a totals network applies to the shuffle block scan only, not raking"},
		{"stride not a power of two", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{StatusStride: 24}, "gpukernels: status stride 24 out of range: allowed powers of two from the status word's 8 bytes to 128"},
		{"stride below the word", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Type: "int64", StatusStride: 8}, "gpukernels: status stride 8 out of range: allowed powers of two from the status word's 16 bytes to 128"},
		{"stride above a line", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{StatusStride: 256}, "gpukernels: status stride 256 out of range: allowed powers of two from the status word's 8 bytes to 128"},
		{"stride of a struct", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Type: "double", Op: "affine", StatusStride: 32}, "gpukernels: a status stride applies to values of at most 8 bytes, whose flag shares a word with them, not to values of 16 bytes"},
		{"wide raking", gputest.Build(t, "sklansky", 64, nil), gpukernels.Options{Block: "raking"}, "gpukernels: width 64 out of range: a warp scan allows 1 to 32 lanes; the shared-memory block scan (Block: shared) takes 2 to 2048 columns"},
		{"pad shuffle", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{NoPad: true}, "gpukernels: padding applies to the shared block scan only, not shuffle"},
		{"totals shared", gputest.Build(t, "sklansky", 64, nil), gpukernels.Options{Block: "shared", Totals: gputest.Build(t, "sklansky", 8, nil)}, "gpukernels: a totals network applies to the shuffle block scan only, not shared"},
		{"threads", gputest.Build(t, "sklansky", 64, nil), gpukernels.Options{Block: "shared", BlockThreads: 48}, "gpukernels: 48 threads per block out of range: allowed multiples of 32 from 32 to 1024"},
		{"few threads", gputest.Build(t, "sklansky", 2048, nil), gpukernels.Options{Block: "shared", BlockThreads: 32}, "gpukernels: 32 threads cannot hold 2048 columns: a thread holds at most 32 items; allowed at least 64 threads"},
		{"items", gputest.Build(t, "sklansky", 1024, nil), gpukernels.Options{Block: "shared", ItemsPerThread: 3}, "gpukernels: 3 items per thread out of range: allowed multiples of 2 (the columns each thread holds) up to 32"},
		{"affine int", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Type: "int32", Op: "affine"}, "gpukernels: operator affine takes float or double coefficients, not int32"},
		{"affine default type", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Op: "affine"}, "gpukernels: operator affine takes float or double coefficients, not int32"},
		{"float flags", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Segmented: "float"}, "gpukernels: head flags do not fit type float: allowed int32, uint32, int64, uint64"},
		{"unknown flags", gputest.Build(t, "sklansky", 8, nil), gpukernels.Options{Segmented: "bool"}, `gpukernels: unknown head-flag type "bool": allowed int32, uint32, int64, uint64`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			err := gpukernels.CUDA(&b, c.net, c.opt)
			require.EqualError(t, err, c.want)
			require.Zero(t, b.Len())
		})
	}
}

// FuzzSharedCUDA emits the shared-memory block scan of any network a file
// could hold, and of any options a command line could give: an accepted
// one reads back as its lowering; a refused one is one line naming the
// package and writes nothing.
func FuzzSharedCUDA(f *testing.F) {
	f.Add([]byte{31, 1, 2, 3, 4, 5, 6}, "shared", "uint32", "add", false)
	f.Add([]byte{7, 9, 9}, "shared", "", "affine", true)
	f.Add([]byte{3}, "shuffle", "float", "max", false)
	f.Add([]byte{0}, "shared", "int32", "carry", true)
	f.Fuzz(func(t *testing.T, data []byte, blk, flag, op string, nopad bool) {
		net := gputest.RandomNetwork(t, data)
		if net == nil {
			return
		}
		opt := gpukernels.Options{Block: blk, Segmented: flag, Op: op, NoPad: nopad}
		if op == "affine" {
			opt.Type = "float"
		}
		var b strings.Builder
		err := gpukernels.CUDA(&b, net, opt)
		if err != nil {
			require.Zero(t, b.Len())
			require.True(t, strings.HasPrefix(err.Error(), "gpukernels: "), err.Error())
			require.NotContains(t, err.Error(), "\n")
			return
		}
		if blk == gpukernels.BlockShared {
			requireEmittedShared(t, net, block.Options{NoPad: nopad}, b.String())
		}
	})
}
