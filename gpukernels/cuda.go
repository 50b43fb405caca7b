package gpukernels

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	"hash/fnv"
	"io"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"text/template"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/gpukernels/block"
	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

//go:embed templates/*.tmpl
var templateFiles embed.FS

// templates holds the CUDA templates, parsed once.
var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"plural": plural,
	"inc":    func(i int) int { return i + 1 },
	"sub":    func(a, b int) int { return a - b },
	"div":    func(a, b int) int { return a / b },
	"mask":   func(m uint32) string { return fmt.Sprintf("0x%08xu", m) },
}).ParseFS(templateFiles, "templates/*.tmpl"))

// Type is a value type of the CUDA kernels.
type Type struct {
	// Name is the name Options.Type takes, such as "int32".
	Name string
	// CXX is the C++ spelling, such as "int32_t".
	CXX string
	// Bytes is the size of a value.
	Bytes int
	// Float is set for the floating-point types.
	Float bool
}

// Types lists the value types, in the order errors and help list them.
var Types = []Type{
	{"int32", "int32_t", 4, false},
	{"uint32", "uint32_t", 4, false},
	{"int64", "int64_t", 8, false},
	{"uint64", "uint64_t", 8, false},
	{"float", "float", 4, true},
	{"double", "double", 8, true},
}

// LookupType returns the type called name.
func LookupType(name string) (Type, error) {
	for _, t := range Types {
		if t.Name == name {
			return t, nil
		}
	}
	return Type{}, fmt.Errorf("gpukernels: unknown type %q: allowed %s", name, strings.Join(typeNames(Types), ", "))
}

// flagTypes lists the types head flags may take: the integer types.
func flagTypes() []string {
	var names []string
	for _, t := range Types {
		if !t.Float {
			names = append(names, t.Name)
		}
	}
	return names
}

func typeNames(ts []Type) []string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names
}

// Operators lists the built-in operators, in the order errors and help
// list them. Besides these, Options.Op takes FunctorPrefix + the name of a
// user's C++ functor.
var Operators = []string{"add", "max", "min", "and", "or", "xor", "carry", "affine"}

// FunctorPrefix starts an Options.Op that names a user's C++ functor, as in
// "functor:MyOp".
const FunctorPrefix = "functor:"

// operator is one operator's C++ form.
type operator struct {
	// Name is the name Options.Op takes.
	Name string
	// Struct is the name of the functor the header defines; CXX the user's
	// functor for a functor operator.
	Struct, CXX string
	// Expr is the body of the functor, over a (earlier) and b (later).
	Expr string
	// Functor is set for a user's functor.
	Functor bool
	// Bitwise operators are not defined for floating-point types.
	Bitwise bool
	// Affine composes maps x ↦ a·x + b of a floating-point type.
	Affine bool
}

var operators = map[string]operator{
	"add": {Name: "add", Struct: "Sum", Expr: "a + b"},
	// A NaN is missing to max and min (IEEE 754 maxNum and minNum, as
	// fmaxf and max.f32 have it): a < b ? b : a alone is not associative
	// once a NaN comes in, and the prefixes would follow the network.
	"max":   {Name: "max", Struct: "Max", Expr: "(a < b || detail::IsNaN(a)) ? b : a"},
	"min":   {Name: "min", Struct: "Min", Expr: "(b < a || detail::IsNaN(a)) ? b : a"},
	"and":   {Name: "and", Struct: "BitAnd", Expr: "a & b", Bitwise: true},
	"or":    {Name: "or", Struct: "BitOr", Expr: "a | b", Bitwise: true},
	"xor":   {Name: "xor", Struct: "BitXor", Expr: "a ^ b", Bitwise: true},
	"carry": {Name: "carry", Struct: "Carry", Expr: "((b | ((b >> 1) & a)) & 1u) | (a & b & 2u)", Bitwise: true},
	// AffineA and AffineB, the coefficients of b ∘ a: simulate.Affine's
	// composition, a applied first.
	"affine": {Name: "affine", Struct: "Compose", Expr: "T{" + AffineA + ", " + AffineB + "}", Affine: true},
}

// AffineA and AffineB are the coefficients of the affine operator's
// result, C++ expressions over a (the earlier map, applied first) and b
// (the later one): b ∘ a is x ↦ b.a·(a.a·x + a.b) + b.b, the composition
// of simulate.Affine. They read the same in Go.
const (
	AffineA = "b.a * a.a"
	AffineB = "b.a * a.b + b.b"
)

// identities[op][type] is the identity of op over type, as a C++
// expression that host and device code can evaluate.
var identities = map[string]map[string]string{
	"add": {"int32": "0", "uint32": "0u", "int64": "0ll", "uint64": "0ull", "float": "0.0f", "double": "0.0"},
	"max": {
		"int32": "(-2147483647 - 1)", "uint32": "0u", "int64": "(-9223372036854775807ll - 1)", "uint64": "0ull",
		"float": "detail::FloatFromBits(0xff800000u)", "double": "detail::DoubleFromBits(0xfff0000000000000ull)",
	},
	"min": {
		"int32": "2147483647", "uint32": "0xffffffffu", "int64": "9223372036854775807ll", "uint64": "0xffffffffffffffffull",
		"float": "detail::FloatFromBits(0x7f800000u)", "double": "detail::DoubleFromBits(0x7ff0000000000000ull)",
	},
	"and": {"int32": "-1", "uint32": "0xffffffffu", "int64": "-1ll", "uint64": "0xffffffffffffffffull"},
	"or":  {"int32": "0", "uint32": "0u", "int64": "0ll", "uint64": "0ull"},
	"xor": {"int32": "0", "uint32": "0u", "int64": "0ll", "uint64": "0ull"},
	// (g, p) = (0, 1).
	"carry": {"uint32": "2u", "uint64": "2u"},
	// x ↦ 1·x + 0.
	"affine": {"float": "AffineMap{1.0f, 0.0f}", "double": "AffineMap{1.0, 0.0}"},
}

// Default tuning.
const (
	// DefaultItemsPerThread is the items per thread that the default
	// Options.ItemsPerThread of a shared-memory block scan (BlockShared)
	// rounds up to a multiple of the columns each thread holds. The
	// shuffle block scans take DefaultTuning's.
	DefaultItemsPerThread = 8
	// DefaultLookBack is the default Options.LookBack.
	DefaultLookBack = 32
	// MaxItemsPerThread is the largest Options.ItemsPerThread.
	MaxItemsPerThread = 32
	// MaxBlockThreads is the largest Options.BlockThreads.
	MaxBlockThreads = 1024
)

// DefaultTuning returns the default BlockThreads and ItemsPerThread of
// the shuffle block and device scans over values of valueBytes bytes,
// measured on an H200 (docs/gpu-results.md, the sweep of 2026-12-04): 128
// threads of 32 items for values of up to 4 bytes (CUB's sm_90 policy
// has 24; 32 ran 2.7 % faster at 2^28 items); 256 threads of 16 items for
// 8 bytes (CUB's MemBoundScaling makes 224 × 12 of its 224 × 24; the
// generated scan ran 3.6 % faster at 256 × 16 than at 224 × 24, and 7 %
// faster than at 224 × 12); and for a struct (affine maps, segmented
// values) 128 threads of 60 / valueBytes items (at least 1), as CUB scales
// its default of 15 four-byte items to larger values. The threads are
// lowered to 32 logical warps for logical warps narrower than 4 lanes.
func DefaultTuning(valueBytes int) (threads, items int) {
	switch {
	case valueBytes <= 4:
		return 128, 32
	case valueBytes <= 8:
		return 256, 16
	default:
		return 128, max(1, 60/valueBytes)
	}
}

// MaxDelayGrid is the largest Delays.Grid: the most blocks a grid has
// (gridDim.x, 2^31 − 1).
const MaxDelayGrid = 1<<31 - 1

// Delays are the sleeps of the decoupled look-back, in nanoseconds, as
// CCCL's delay constructors give them: once a tile has published its
// aggregate it sleeps Partial before its first look, and it sleeps Poll
// before each new look at a tile that has published nothing yet. Both
// apply only in grids of at least Grid blocks; in smaller grids a
// look-back looks again at once, then after sleeps of 16 ns doubling up
// to 256 ns. In Options, a negative field takes DefaultDelays's.
type Delays struct {
	Partial, Poll, Grid int
}

// MaxDelayNs is the largest delay of Delays.
const MaxDelayNs = 1 << 20

// DefaultDelays returns CCCL 3.x's look-back delays for sm_90 over values
// of valueBytes bytes: 1 245 ns after publishing and 648 ns before each
// new look for values of 4 bytes, 1 290 and 632 for 8 bytes; for other
// values, and for structs (primitive false), CUB's defaults: 450 and 350
// for a primitive type, 450 and none for a struct. Grid is 500 blocks in
// each.
func DefaultDelays(valueBytes int, primitive bool) Delays {
	switch {
	case !primitive:
		return Delays{Partial: 450, Poll: 0, Grid: 500}
	case valueBytes == 4:
		return Delays{Partial: 1245, Poll: 648, Grid: 500}
	case valueBytes == 8:
		return Delays{Partial: 1290, Poll: 632, Grid: 500}
	default:
		return Delays{Partial: 450, Poll: 350, Grid: 500}
	}
}

// The tile orders of Options.TileOrder.
const (
	// TileOrderAtomic takes each block's tile from a counter in device
	// memory, by atomicAdd, in the order blocks start: every tile a block
	// waits for belongs to a block already running.
	TileOrderAtomic = "atomic"
	// TileOrderBlock takes tile blockIdx.x, as CUB does, which saves the
	// atomic and a barrier before the first load but relies on the GPU
	// starting blocks in order of their index.
	TileOrderBlock = "block"
)

// Options are the options of CUDA. The zero value asks for int32 addition
// (uint32 limbs for carry) with the default tuning.
type Options struct {
	// Type is the value type: int32, uint32, int64, uint64, float or double
	// (Types); empty means int32, or uint32 for carry, whose limbs it is.
	Type string
	// Op is the operator: add, max, min, and, or, xor (not for float and
	// double), carry (limbs uint32 or uint64), or FunctorPrefix + the name of
	// a user's functor (CheckFunctor).
	Op string
	// ItemsPerThread is the number of items each thread of a block scan
	// scans serially, 1 to MaxItemsPerThread; 0 means DefaultTuning's for
	// the value type (for BlockShared, DefaultItemsPerThread rounded up to
	// a multiple of the columns each thread holds).
	ItemsPerThread int
	// BlockThreads is the number of threads of a block, a multiple of 32
	// from 32 to MaxBlockThreads, and at most 32 logical warps; 0 means
	// DefaultTuning's for the value type, or 32 logical warps if fewer.
	BlockThreads int
	// LookBack is the window of the decoupled look-back, the number of
	// predecessor tiles read at once, 1 to 32; 0 means DefaultLookBack.
	LookBack int
	// Namespace is the namespace inside namespace prefixgen that holds
	// everything, a C++ identifier other than the C and CUDA names the
	// header uses (int32_t, size_t, threadIdx, cudaStream_t, …), which it
	// would hide; empty means DefaultNamespace.
	Namespace string
	// Totals is the network that scans the warp totals of a block of
	// BlockShuffle, of width BlockThreads / segment; nil means the
	// network's own family at that width with its parameters, or
	// Kogge–Stone for a network of no family (or one its family cannot build at that width).
	Totals *network.Network
	// Block is the block scan: BlockShuffle (empty means it), the warp
	// network over thread totals with a second network over warp totals,
	// for a network of width 1 to 32; BlockRaking, the thread totals
	// reduced serially in shared memory by the lanes of the first warp,
	// whose network scans them once, for the same widths; or BlockShared,
	// the whole network in shared memory (package block), for a width of 2
	// to 2048.
	Block string
	// NoPad turns off the bank-conflict-free padding of BlockShared.
	NoPad bool
	// Segmented, when set, makes every scan segmented: it names the
	// integer type of the head flags (int32, uint32, int64 or uint64)
	// carried beside each value, and the operator is lifted as
	// simulate.Segmented lifts a monoid. An exclusive scan's initial
	// value stands before the first item, in its segment, and every
	// item that starts a segment gets it (docs/cuda.md).
	Segmented string
	// Delays are the look-back's sleeps, each 0 to MaxDelayNs, Grid at
	// least 1; nil, or a negative field, means DefaultDelays's for the
	// value type.
	Delays *Delays
	// WideStatus keeps each tile's status and a value of at most 4 bytes
	// in a 16-byte word (8 bytes each), rather than one 8-byte word (4
	// bytes each) as CUB does; a larger value is refused it.
	WideStatus bool
	// StatusStride is the bytes from one tile's status word to the next's,
	// for values of at most 8 bytes (whose flag shares a word with them):
	// 0 means DefaultStatusStride; otherwise a power of two from the word's
	// own 8 or 16 bytes (packed) to MaxStatusStride, so that fewer tiles
	// share a 32-byte sector of L2 while each word is still read and
	// written whole.
	StatusStride int
	// TileOrder is how a block of the single-pass scan finds its tile:
	// TileOrderAtomic (empty means it) or TileOrderBlock.
	TileOrder string
}

// The block scans of Options.Block.
const (
	BlockShuffle = "shuffle"
	BlockRaking  = "raking"
	BlockShared  = "shared"
)

// config is Options resolved and checked.
type config struct {
	typ, limb      Type
	op             operator
	flag           *Type // head flags of a segmented scan, or nil
	shared         bool
	raking         bool           // BlockRaking
	program        *block.Program // the shared-memory lowering
	columns        int            // columns per thread of a shared block
	items, threads int
	lookBack       int
	delays         Delays
	wideStatus     bool
	statusStride   int  // bytes, 0 for a flag apart
	blockOrder     bool // TileOrderBlock
	namespace      string
	segment, warps int
	totals         *network.Network
}

// Segment returns the number of hardware lanes a logical warp of width
// lanes occupies: width rounded up to a power of two.
func Segment(width int) int {
	if width <= 1 {
		return 1
	}
	return 1 << bits.Len(uint(width-1))
}

// parseOp returns the operator of Options.Op.
func parseOp(op string) (operator, error) {
	if name, ok := strings.CutPrefix(op, FunctorPrefix); ok {
		if err := CheckFunctor(name); err != nil {
			return operator{}, err
		}
		return operator{Name: op, CXX: name, Functor: true}, nil
	}
	o, ok := operators[op]
	if !ok {
		return operator{}, fmt.Errorf("gpukernels: unknown operator %q: allowed %s, %sNAME", op, strings.Join(Operators, ", "), FunctorPrefix)
	}
	return o, nil
}

// resolve checks opt against the network and fills in the defaults.
func (opt Options) resolve(net *network.Network) (*config, error) {
	w := net.Width()
	c := &config{segment: Segment(w)}
	switch opt.Block {
	case "", BlockShuffle, BlockRaking:
		c.raking = opt.Block == BlockRaking
		if w < 1 || w > warp.Lanes {
			return nil, fmt.Errorf("gpukernels: width %d out of range: a warp scan allows 1 to %d lanes; the shared-memory block scan (Block: %s) takes %d to %d columns", w, warp.Lanes, BlockShared, block.MinWidth, block.MaxWidth)
		}
	case BlockShared:
		if w < block.MinWidth || w > block.MaxWidth {
			return nil, fmt.Errorf("gpukernels: width %d out of range: a shared-memory block scan allows %d to %d columns", w, block.MinWidth, block.MaxWidth)
		}
		c.shared = true
	default:
		return nil, fmt.Errorf("gpukernels: unknown block scan %q: allowed %s, %s, %s", opt.Block, BlockShuffle, BlockRaking, BlockShared)
	}
	if opt.NoPad && !c.shared {
		return nil, fmt.Errorf("gpukernels: padding applies to the %s block scan only, not %s", BlockShared, cmp.Or(opt.Block, BlockShuffle))
	}
	if opt.Totals != nil && opt.Block != "" && opt.Block != BlockShuffle {
		return nil, fmt.Errorf("gpukernels: a totals network applies to the %s block scan only, not %s", BlockShuffle, opt.Block)
	}
	if opt.Op == "" {
		opt.Op = "add"
	}
	var err error
	if c.op, err = parseOp(opt.Op); err != nil {
		return nil, err
	}
	carry := c.op.Name == "carry"
	if opt.Type == "" {
		opt.Type = "int32"
		if carry {
			opt.Type = "uint32"
		}
	}
	if c.typ, err = LookupType(opt.Type); err != nil {
		return nil, err
	}
	switch {
	case carry && (c.typ.Name != "uint32" && c.typ.Name != "uint64"):
		return nil, fmt.Errorf("gpukernels: operator carry takes limbs of type uint32 or uint64, not %s", c.typ.Name)
	case carry:
		c.limb = c.typ
		c.typ = Type{Name: "uint32", CXX: "uint32_t", Bytes: 4}
	case c.op.Bitwise && c.typ.Float:
		return nil, fmt.Errorf("gpukernels: operator %s is not defined for %s: allowed for %s are add, max, min, affine and %sNAME", c.op.Name, c.typ.Name, c.typ.Name, FunctorPrefix)
	case c.op.Affine && !c.typ.Float:
		return nil, fmt.Errorf("gpukernels: operator affine takes float or double coefficients, not %s", c.typ.Name)
	}
	if opt.Segmented != "" {
		f, err := LookupType(opt.Segmented)
		if err != nil {
			return nil, fmt.Errorf("gpukernels: unknown head-flag type %q: allowed %s", opt.Segmented, strings.Join(flagTypes(), ", "))
		}
		if f.Float {
			return nil, fmt.Errorf("gpukernels: head flags do not fit type %s: allowed %s", f.Name, strings.Join(flagTypes(), ", "))
		}
		c.flag = &f
	}

	if c.shared {
		if err := c.resolveShared(net, opt); err != nil {
			return nil, err
		}
	} else {
		threads, items := DefaultTuning(c.valueBytes())
		c.items = cmp.Or(opt.ItemsPerThread, items)
		if c.items < 1 || c.items > MaxItemsPerThread {
			return nil, fmt.Errorf("gpukernels: %d items per thread out of range: allowed 1 to %d", c.items, MaxItemsPerThread)
		}
		maxThreads := min(MaxBlockThreads, warp.Lanes*c.segment)
		c.threads = cmp.Or(opt.BlockThreads, min(threads, maxThreads))
		if c.threads < warp.Lanes || c.threads > maxThreads || c.threads%warp.Lanes != 0 {
			allowed := fmt.Sprintf("multiples of 32 from 32 to %d", maxThreads)
			if maxThreads == warp.Lanes {
				allowed = "32 alone"
			}
			lanes := "lanes"
			if c.segment == 1 {
				lanes = "lane"
			}
			return nil, fmt.Errorf("gpukernels: %d threads per block out of range: allowed %s (at most 32 logical warps of %d %s)", c.threads, allowed, c.segment, lanes)
		}
		c.warps = c.threads / c.segment
	}
	c.lookBack = cmp.Or(opt.LookBack, DefaultLookBack)
	if c.lookBack < 1 || c.lookBack > warp.Lanes {
		return nil, fmt.Errorf("gpukernels: look-back window %d out of range: allowed 1 to %d tiles", c.lookBack, warp.Lanes)
	}

	c.delays = DefaultDelays(c.valueBytes(), !c.op.Affine && c.flag == nil)
	if d := opt.Delays; d != nil {
		for _, f := range []struct{ to, from *int }{{&c.delays.Partial, &d.Partial}, {&c.delays.Poll, &d.Poll}, {&c.delays.Grid, &d.Grid}} {
			if *f.from >= 0 {
				*f.to = *f.from
			}
		}
	}
	for _, d := range []struct {
		name string
		ns   int
	}{{"partial", c.delays.Partial}, {"poll", c.delays.Poll}} {
		if d.ns < 0 || d.ns > MaxDelayNs {
			return nil, fmt.Errorf("gpukernels: %s delay %d ns out of range: allowed 0 to %d", d.name, d.ns, MaxDelayNs)
		}
	}
	if c.delays.Grid < 1 || c.delays.Grid > MaxDelayGrid {
		return nil, fmt.Errorf("gpukernels: delay grid %d out of range: allowed 1 to %d blocks, the largest grid", c.delays.Grid, MaxDelayGrid)
	}
	if opt.WideStatus && c.valueBytes() > 4 {
		kept := "whose word is 16 bytes already"
		if c.valueBytes() > 8 {
			kept = "whose flag is kept apart from them"
		}
		return nil, fmt.Errorf("gpukernels: a wide status word applies to values of at most 4 bytes, not to values of %d bytes, %s", c.valueBytes(), kept)
	}
	c.wideStatus = opt.WideStatus
	word := statusBytes(c.valueBytes(), c.wideStatus)
	switch s := opt.StatusStride; {
	case s == 0 && word == 0:
		c.statusStride = 0
	case s == 0:
		c.statusStride = max(word, DefaultStatusStride)
	case word == 0:
		return nil, fmt.Errorf("gpukernels: a status stride applies to values of at most 8 bytes, whose flag shares a word with them, not to values of %d bytes", c.valueBytes())
	case s < word || s > MaxStatusStride || s&(s-1) != 0:
		return nil, fmt.Errorf("gpukernels: status stride %d out of range: allowed powers of two from the status word's %d bytes to %d", s, word, MaxStatusStride)
	default:
		c.statusStride = s
	}
	switch opt.TileOrder {
	case "", TileOrderAtomic:
	case TileOrderBlock:
		c.blockOrder = true
	default:
		return nil, fmt.Errorf("gpukernels: unknown tile order %q: allowed %s, %s", opt.TileOrder, TileOrderAtomic, TileOrderBlock)
	}

	c.namespace = opt.Namespace
	if c.namespace == "" {
		c.namespace = DefaultNamespace(net, c.typ.Name, opt.Op)
		if carry {
			c.namespace = DefaultNamespace(net, c.limb.Name, opt.Op)
		}
		if c.flag != nil {
			c.namespace += "_segmented_" + c.flag.Name
		}
		if c.shared {
			c.namespace += "_shared"
			if opt.NoPad {
				c.namespace += "_nopad"
			}
		}
		if c.raking {
			c.namespace += "_raking"
		}
		c.namespace = fitIdentifier(c.namespace)
	}
	if err := checkIdentifier("namespace", c.namespace); err != nil {
		return nil, err
	}
	if headerNames[c.namespace] {
		return nil, fmt.Errorf("gpukernels: namespace name %q is a name the header uses from C or CUDA, which the namespace would hide inside prefixgen: allowed any other identifier", c.namespace)
	}
	if c.shared || c.raking {
		return c, nil
	}

	c.totals = opt.Totals
	if c.totals == nil {
		c.totals = totalsNetwork(net, c.warps)
	}
	if c.totals.Width() != c.warps {
		return nil, fmt.Errorf("gpukernels: the totals network has width %d: a block of %d threads has %d logical warps of %d lanes", c.totals.Width(), c.threads, c.warps, c.segment)
	}
	return c, nil
}

// Resolve returns opt with every default filled in as CUDA fills it in
// for net: the type (for carry, the limbs), the operator, the block scan,
// the tuning, the namespace (DefaultNamespace's, with the suffixes of a
// segmented or shared-memory header) and, for the shuffle block scan, the
// totals network; or the error CUDA would return for opt. CUDA writes the
// same header from opt and from what Resolve returns.
func (opt Options) Resolve(net *network.Network) (Options, error) {
	c, err := opt.resolve(net)
	if err != nil {
		return Options{}, err
	}
	r := Options{
		Type: c.typ.Name, Op: c.op.Name, ItemsPerThread: c.items, BlockThreads: c.threads, LookBack: c.lookBack,
		Namespace: c.namespace, Totals: c.totals, Block: BlockShuffle, NoPad: opt.NoPad,
		Delays: &c.delays, WideStatus: c.wideStatus, StatusStride: c.statusStride, TileOrder: TileOrderAtomic,
	}
	if c.blockOrder {
		r.TileOrder = TileOrderBlock
	}
	if c.op.Name == "carry" {
		r.Type = c.limb.Name
	}
	if c.shared {
		r.Block = BlockShared
	}
	if c.raking {
		r.Block = BlockRaking
	}
	if c.flag != nil {
		r.Segmented = c.flag.Name
	}
	return r, nil
}

// OperatorExpr returns the C++ expression of the built-in operator op over
// a (the earlier operand) and b (the later one), such as "a + b": the body
// of the functor a header defines, which host code can evaluate too.
func OperatorExpr(op string) (string, error) {
	o, ok := operators[op]
	if !ok {
		return "", fmt.Errorf("gpukernels: unknown operator %q: allowed %s", op, strings.Join(Operators, ", "))
	}
	return o.Expr, nil
}

// DefaultStatusStride is the bytes between two tiles' status words unless
// Options.StatusStride says otherwise: one word to a 32-byte sector of L2.
// On an H200 the int32 scan of 2^28 items ran 8 % faster with its 8-byte
// words 32 bytes apart than packed, and the int64 scan 1 % faster
// (docs/gpu-results.md).
const DefaultStatusStride = 32

// MaxStatusStride is the largest Options.StatusStride: a tile's status
// word alone in a 128-byte cache line.
const MaxStatusStride = 128

// statusBytes returns the bytes of the look-back's status word over
// values of valueBytes bytes: 8 for values of at most 4 bytes (16 when
// wide), 16 for 8 bytes, and 0, a flag apart, for wider values.
func statusBytes(valueBytes int, wide bool) int {
	switch {
	case valueBytes <= 4 && !wide:
		return 8
	case valueBytes <= 8:
		return 16
	default:
		return 0
	}
}

// plural returns word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// totalsNetwork returns the network of net's family at width warps, with
// its parameters (any family Lookup knows, carry-select among them), or
// Kogge–Stone where there is none: a network of no family, or one the
// family cannot build at that width with those parameters.
func totalsNetwork(net *network.Network, warps int) *network.Network {
	if t, err := topologies.AtWidth(net, warps); err == nil {
		return t
	}
	t, err := topologies.KoggeStone(warps)
	if err != nil {
		panic(fmt.Sprintf("gpukernels: Kogge–Stone of width %d: %v", warps, err))
	}
	return t
}

// DefaultNamespace returns the namespace CUDA puts a header in when
// Options.Namespace is empty: the topology, parameters, width, type and
// operator, with every run of characters a C++ identifier cannot hold
// turned into one underscore, as in ladner_fischer_k1_32_float_add. A
// network of no topology is "network" and the FNV-1a hash of its cells and
// outputs in hex, so that the headers of two such networks can be included
// together: network_1A2B3C4D_6_double_max.
func DefaultNamespace(net *network.Network, typ, op string) string {
	topo := net.Topology()
	if topo == "" {
		h := fnv.New32a()
		fmt.Fprint(h, net.Width())
		for k := range net.Size() {
			c := net.Cell(k)
			fmt.Fprintf(h, " %d,%d", c.Lo, c.Hi)
		}
		for i := range net.Width() {
			fmt.Fprintf(h, " %d", net.Output(i))
		}
		topo = fmt.Sprintf("network_%08X", h.Sum32())
	}
	return fitIdentifier(emit.Identifier(topo, strings.ReplaceAll(net.Params().Format("_"), "=", ""), strconv.Itoa(net.Width()), typ, op))
}

// fitIdentifier returns a made-up identifier, such as a default namespace,
// cut to maxIdentifier characters where it is longer: its start, then "_"
// and the FNV-1a hash of the whole in hex, so that two long names stay
// apart.
func fitIdentifier(name string) string {
	if len(name) <= maxIdentifier {
		return name
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	sum := fmt.Sprintf("%016x", h.Sum64())
	return strings.TrimRight(name[:maxIdentifier-len(sum)-1], "_") + "_" + sum
}

// maxIdentifier bounds the length of a functor or namespace name.
const maxIdentifier = 256

// CheckFunctor returns an error unless name can name a user's functor: C++
// identifiers (letters, digits and underscores, not starting with a digit)
// joined by "::", none a C++ keyword or a reserved identifier (containing
// "__", or "_" and a capital first), at most 256 characters in all.
func CheckFunctor(name string) error {
	if len(name) > maxIdentifier {
		return fmt.Errorf("gpukernels: functor name of %d characters is too long: allowed at most %d", len(name), maxIdentifier)
	}
	for part := range strings.SplitSeq(name, "::") {
		if err := checkIdentifier("functor", part); err != nil {
			if part != name {
				return fmt.Errorf("%w in functor %s", err, network.Quote(name))
			}
			return err
		}
	}
	return nil
}

// checkIdentifier returns an error unless name is a C++ identifier that is
// neither a keyword nor reserved.
func checkIdentifier(what, name string) error {
	bad := func(why string) error {
		return fmt.Errorf("gpukernels: %s name %s is not a C++ identifier: %s", what, network.Quote(name), why)
	}
	switch {
	case name == "":
		return bad("it is empty; allowed: a letter or _, then letters, digits or _")
	case len(name) > maxIdentifier:
		return bad(fmt.Sprintf("longer than %d characters", maxIdentifier))
	case cxxKeywords[name]:
		return bad("it is a C++ keyword")
	case strings.Contains(name, "__") || len(name) > 1 && name[0] == '_' && name[1] >= 'A' && name[1] <= 'Z':
		return bad("identifiers with __ or starting with _ and a capital are reserved")
	}
	for i, r := range name {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if i == 0 && !letter {
			return bad("allowed: a letter or _ first, then letters, digits or _")
		}
		if !letter && !(r >= '0' && r <= '9') {
			return bad(fmt.Sprintf("%q is not allowed; allowed: letters, digits and _", r))
		}
	}
	return nil
}

// headerNames are the names from C's headers and CUDA that the emitted
// header uses without qualification: a namespace prefixgen::NAME of one of
// them would hide it from the code inside prefixgen (NULL, a macro, would
// not compile).
var headerNames = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(`
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t size_t
uintptr_t ptrdiff_t uint4 dim3 threadIdx blockIdx blockDim gridDim warpSize
atomicAdd cudaError_t cudaStream_t cudaSuccess cudaErrorInvalidValue
cudaFuncSetAttribute cudaFuncAttributeMaxDynamicSharedMemorySize
cudaPeekAtLastError NULL`) {
		m[w] = true
	}
	return m
}()

// cxxKeywords are the keywords and alternative tokens of C++20.
var cxxKeywords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(`
alignas alignof and and_eq asm auto bitand bitor bool break case catch char
char8_t char16_t char32_t class compl concept const consteval constexpr
constinit const_cast continue co_await co_return co_yield decltype default
delete do double dynamic_cast else enum explicit export extern false float for
friend goto if inline int long mutable namespace new noexcept not not_eq
nullptr operator or or_eq private protected public register reinterpret_cast
requires return short signed sizeof static static_assert static_cast struct
switch template this thread_local throw true try typedef typeid typename union
unsigned using virtual void volatile wchar_t while xor xor_eq`) {
		m[w] = true
	}
	return m
}()

// cudaData is what the header template reads.
type cudaData struct {
	Header         []string
	Namespace      string
	Guard          string
	Type, Limb     Type
	Op             operator
	Identity       string
	Carry          bool
	BigAddBits     int
	Warp, Totals   netData
	ItemsPerThread int
	BlockThreads   int
	LookBack       int
	Delays         Delays
	// StatusBytes is the bytes of a tile's status word, flag and value
	// together: 8 or 16, or 0 for a flag and value apart.
	StatusBytes int
	// StatusStride is the bytes from one tile's status word to the next's.
	StatusStride int
	BlockOrder   bool
	Warps        int
	TileItems    int
	// Value is the C++ of value_type: the scalar, AffineMap or
	// SegmentedValue; Inner the type of a segmented value's value.
	Value, Inner string
	ValueBytes   int
	Affine       bool
	// Flag is the type of the head flags of a segmented scan; its Name is
	// empty otherwise.
	Flag Type
	// Fast is the predicated form of the warp steps over the header's
	// type and operator; nil where there is none.
	Fast *fastData
	// Inverse is the C++ expression of a lane's exclusive scan from its
	// inclusive scan and its input, for an operator with an inverse over
	// the header's type (integer add, xor), as cub::WarpScan's sum takes
	// it: no shuffle. It is empty for the others.
	Inverse string
	// Shared is the shared-memory block scan; nil for the others.
	Shared *sharedData
	// Raking is set for BlockRaking, and Rake is the padded array of its
	// thread totals: one more value than there are totals per warp lane.
	Raking      bool
	Rake        int
	SmallShared int
	// ExchangeMasks is the table of the thread strides at which the
	// exchange pads (exchangeMasks).
	ExchangeMasks []string
	// ExchangeStrides are the strides each word of ExchangeMasks ends
	// below: 64, 128, ….
	ExchangeStrides []int
}

// fastData is the predicated form of a warp step over one 32-bit type and
// built-in operator: a shuffle whose own predicate guards one instruction.
type fastData struct {
	// CXX is the type, Struct the operator's functor.
	CXX, Struct string
	// Instr is the PTX instruction that combines, such as "add.s32".
	Instr string
	// Reg is the PTX register type and Constraint the inline-assembly
	// constraint of a value: "b32" and "r", or "f32" and "f".
	Reg, Constraint string
}

// fastInstrs[op][type] is the PTX instruction of op over type where the
// predicated form applies: the 32-bit integer operators, and float
// addition (float max and min keep their comparison, which treats a NaN
// as missing as max.f32 does, but has not been timed against it on a GPU).
var fastInstrs = map[string]map[string]string{
	"add": {"int32": "add.s32", "uint32": "add.u32", "float": "add.f32"},
	"max": {"int32": "max.s32", "uint32": "max.u32"},
	"min": {"int32": "min.s32", "uint32": "min.u32"},
	"and": {"int32": "and.b32", "uint32": "and.b32"},
	"or":  {"int32": "or.b32", "uint32": "or.b32"},
	"xor": {"int32": "xor.b32", "uint32": "xor.b32"},
}

// unsignedOf is the unsigned type of each integer value type, in which
// subtraction wraps as the scan's addition does.
var unsignedOf = map[string]string{"int32": "uint32_t", "uint32": "uint32_t", "int64": "uint64_t", "uint64": "uint64_t"}

// netData is one lowered network, as the network template reads it.
type netData struct {
	Name, Description string
	Width, Segment    int
	Registers         int
	Combines          int
	SegmentMask       string
	Spares            []int
	Steps             []stepData
	Final             []warp.Copy
}

// stepData is one step, as the network template reads it: one call of
// detail::StepUp (Up set) or detail::StepIndex.
type stepData struct {
	Level   int
	Comment string
	Copies  []warp.Copy
	// Selects set the source lane src of a step whose sources follow no
	// closed form and take at most maxSelects distinct lanes, one lane at a
	// time.
	Selects []selectData
	// Up is the distance of a StepUp: the shuffle's own predicate, lane −
	// Up in the segment, is exactly the step's on every lane of the
	// segment. It is 0 for a StepIndex.
	Up int
	// Src and SrcWidth are the source lane of StepIndex's generic shuffle,
	// an expression over lane, and the width of the segments it is taken
	// within (an integer or "kSegment").
	Src, SrcWidth string
	// Bounded is the source lane of StepIndex's predicated shuffle within
	// segments of Segment lanes (kSegment, or 2D for a broadcast), an
	// expression over lane from 32-bit immediates: the source on the lanes
	// that combine and Segment − 1 on the others, so that the shuffle's
	// clamp at Segment − 2 makes its predicate the step's.
	Bounded, Segment string
	Pred             string
	From             int
	Hi, To           int
}

// selectData makes the lanes of Mask read lane Lane.
type selectData struct {
	Mask uint32
	Lane int
}

// maxSelects is the largest number of distinct source lanes a table step
// sets with selects; a step with more computes them from bit planes
// (LaneExpr).
const maxSelects = 4

// CUDA writes a header-only CUDA library built from net, of width 1 to 32
// (2 to 2048 with the shared-memory block scan): the warp scan lowered
// from net (warp.Lower), inclusive and exclusive; a block scan; a
// single-pass and a three-pass device-wide scan; and for the carry operator
// a warp-wide multi-precision adder. Everything is templated on the value
// type and the operator and lives in namespace prefixgen::<opt.Namespace>;
// the type and operator of opt are the defaults of the non-template entry
// points. docs/cuda.md describes what is generated.
func CUDA(w io.Writer, net *network.Network, opt Options) error {
	d, err := newCUDAData(net, opt)
	if err != nil {
		return err
	}
	// The include guard names the namespace and a hash of the rest of the
	// header: two headers that differ never share one, so that two in one
	// namespace (a functor ns::Op beside ns_Op, --namespace foo beside FOO)
	// fail to compile together rather than the second being left out.
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, "scan.cuh.tmpl", d); err != nil {
		return fmt.Errorf("gpukernels: %w", err)
	}
	h := fnv.New32a()
	h.Write(b.Bytes())
	guard := fmt.Sprintf("%s_%08X_CUH", strings.TrimSuffix(d.Guard, "_CUH"), h.Sum32())
	if _, err := w.Write(bytes.ReplaceAll(b.Bytes(), []byte(d.Guard), []byte(guard))); err != nil {
		return fmt.Errorf("gpukernels: %w", err)
	}
	return nil
}

// newCUDAData lowers net and the totals network and fills the template
// data.
func newCUDAData(net *network.Network, opt Options) (*cudaData, error) {
	c, err := opt.resolve(net)
	if err != nil {
		return nil, err
	}
	d := &cudaData{
		Namespace:      c.namespace,
		Guard:          "PREFIXGEN_" + strings.ToUpper(c.namespace) + "_CUH", // CUDA adds the hash
		Type:           c.typ,
		Limb:           c.limb,
		Op:             c.op,
		Carry:          c.op.Name == "carry" && !c.shared,
		BigAddBits:     net.Width() * c.limb.Bytes * 8,
		ItemsPerThread: c.items,
		BlockThreads:   c.threads,
		LookBack:       c.lookBack,
		Delays:         c.delays,
		StatusBytes:    statusBytes(c.valueBytes(), c.wideStatus),
		StatusStride:   c.statusStride,
		BlockOrder:     c.blockOrder,
		Warps:          c.warps,
		Value:          c.typ.CXX,
		ValueBytes:     c.valueBytes(),
		Affine:         c.op.Affine,
		SmallShared:    SmallSharedBytes,
		ExchangeMasks:  exchangeMasks(),
	}
	for i := range d.ExchangeMasks {
		d.ExchangeStrides = append(d.ExchangeStrides, 64*(i+1))
	}
	if c.op.Affine {
		d.Value = "AffineMap"
	}
	if instr, ok := fastInstrs[c.op.Name][c.typ.Name]; ok && c.flag == nil && !c.shared {
		d.Fast = &fastData{CXX: c.typ.CXX, Struct: c.op.Struct, Instr: instr, Reg: "b32", Constraint: "r"}
		if c.typ.Float {
			d.Fast.Reg, d.Fast.Constraint = "f32", "f"
		}
	}
	if u, ok := unsignedOf[c.typ.Name]; ok && c.flag == nil && !c.op.Functor {
		switch c.op.Name {
		case "add":
			d.Inverse = fmt.Sprintf("static_cast<value_type>(static_cast<%s>(inclusive) - static_cast<%s>(input))", u, u)
		case "xor":
			d.Inverse = "inclusive ^ input"
		}
	}
	if c.flag != nil {
		d.Inner, d.Flag, d.Value = d.Value, *c.flag, "SegmentedValue"
	}
	if !c.op.Functor {
		key := c.typ.Name
		if c.op.Name == "carry" {
			key = c.limb.Name
		}
		d.Identity = identities[c.op.Name][key]
		if c.flag != nil {
			d.Identity = fmt.Sprintf("SegmentedValue{%s, 0}", d.Identity)
		}
	}
	f := net.Figures()
	typ := fmt.Sprintf("%s (%s)", c.typ.Name, c.typ.CXX)
	switch {
	case c.op.Name == "carry":
		typ = fmt.Sprintf("(g, p) pairs packed in uint32_t, limbs %s (%s)", c.limb.Name, c.limb.CXX)
	case c.op.Affine:
		typ = fmt.Sprintf("affine maps x -> a*x + b, a and b %s (%s)", c.typ.Name, c.typ.CXX)
	}
	if c.flag != nil {
		typ += fmt.Sprintf(", segmented: head flags %s (%s)", c.flag.Name, c.flag.CXX)
	}
	d.Header = []string{
		"topology:   " + emit.CommentText(net.Topology()),
		"parameters: " + emit.CommentText(net.Params().Format(" ")),
	}
	if c.shared {
		p := c.program
		d.Shared = newSharedData(p, c.columns, c.items/c.columns, d.ValueBytes)
		d.TileItems = net.Width() * (c.items / c.columns)
		pad := "padded: slot s at s + s/32"
		if !p.Pad {
			pad = "unpadded"
		}
		d.Header = append(d.Header,
			fmt.Sprintf("width:      %d %s", net.Width(), plural(net.Width(), "column")),
			fmt.Sprintf("figures:    depth %d, size %d, max fan-out %d, wire tracks %d, deficiency %d",
				f.Depth, f.Size, f.MaxFanout, f.WireTracks, f.Deficiency),
			fmt.Sprintf("program:    %d %s in shared memory, %d %s, %d __syncthreads(), %d %s (%s)",
				len(p.Rounds), plural(len(p.Rounds), "round"), p.Cells(), plural(p.Cells(), "cell"), p.Barriers(),
				p.Slots, plural(p.Slots, "slot"), pad),
			fmt.Sprintf("banks:      %d extra shared-memory %s per block scan for 4-byte values", d.Shared.Conflicts, plural(d.Shared.Conflicts, "transaction")),
			"value type: "+typ,
			"operator:   "+emit.CommentText(c.op.Name),
			fmt.Sprintf("tuning:     %d %s per thread (%d %s of %d), %d threads per block, look-back window of %d %s",
				c.items, plural(c.items, "item"), c.columns, plural(c.columns, "column"), c.items/c.columns,
				c.threads, c.lookBack, plural(c.lookBack, "tile")),
			fmt.Sprintf("shared:     %d values of %d bytes = %d bytes for the network; dynamic shared memory, opted into above %d bytes",
				d.Shared.ArrayLen, d.ValueBytes, d.Shared.Bytes, SmallSharedBytes),
		)
		return d, nil
	}
	p, err := warp.Lower(net)
	if err != nil {
		return nil, err
	}
	d.Warp = newNetData("WarpNetwork", net, p)
	totals := fmt.Sprintf("totals:     %d thread %s reduced serially %d to a lane, then scanned by the network (raking)",
		c.warps*net.Width(), plural(c.warps*net.Width(), "total"), c.warps)
	if c.raking {
		d.Raking = true
		d.Rake = (c.warps + 1) * net.Width()
	} else {
		tp, err := warp.Lower(c.totals)
		if err != nil {
			return nil, err
		}
		d.Totals = newNetData("TotalsNetwork", c.totals, tp)
		totals = "totals:     " + d.Totals.Description
	}
	d.TileItems = c.warps * net.Width() * c.items
	d.Header = append(d.Header,
		fmt.Sprintf("width:      %d %s", net.Width(), plural(net.Width(), "lane")),
		fmt.Sprintf("figures:    depth %d, size %d, max fan-out %d, wire tracks %d, deficiency %d",
			f.Depth, f.Size, f.MaxFanout, f.WireTracks, f.Deficiency),
		fmt.Sprintf("program:    %d shuffle %s, %d %s, %d %s per lane",
			len(p.Steps), plural(len(p.Steps), "step"), p.Combines(), plural(p.Combines(), "combine"), p.Registers, plural(p.Registers, "register")),
		"value type: "+typ,
		"operator:   "+emit.CommentText(c.op.Name),
		fmt.Sprintf("tuning:     %d %s per thread, %d threads per block, look-back window of %d %s",
			c.items, plural(c.items, "item"), c.threads, c.lookBack, plural(c.lookBack, "tile")),
		totals,
	)
	return d, nil
}

// newNetData renders the program p lowered from net.
func newNetData(name string, net *network.Network, p *warp.Program) netData {
	seg := Segment(p.Width)
	d := netData{
		Name:        name,
		Description: describe(net),
		Width:       p.Width,
		Segment:     seg,
		Registers:   p.Registers,
		Combines:    p.Combines(),
		SegmentMask: fmt.Sprintf("0x%08xu", uint32(uint64(1)<<seg-1)),
		Final:       p.Final,
	}
	for r := 1; r < p.Registers; r++ {
		d.Spares = append(d.Spares, r)
	}
	for i := range p.Steps {
		s := &p.Steps[i]
		t := *s
		t.Copies = nil
		sd := stepData{
			Level:   s.Level,
			Comment: t.Describe(p.Width),
			Copies:  s.Copies,
			Pred:    PredExpr(s.Pred, s.Active, seg),
			Hi:      s.HiReg,
			To:      s.ToReg,
		}
		sd.From = s.FromReg
		switch {
		case s.Src.Kind == warp.SrcUp && s.Active == rangeMask(s.Src.D, seg):
			sd.Up = s.Src.D
		case s.Src.Kind == warp.SrcUp:
			sd.Src, sd.SrcWidth = fmt.Sprintf("lane - %d", s.Src.D), "kSegment"
		case s.Src.Kind == warp.SrcBroadcast:
			sd.Src, sd.SrcWidth = strconv.Itoa(s.Src.D-1), strconv.Itoa(2*s.Src.D)
		default:
			sd.SrcWidth = "kSegment"
			if sd.Selects = selects(s, seg); len(sd.Selects) <= maxSelects {
				sd.Src = "src"
			} else {
				sd.Selects = nil
				var table [warp.Lanes]int
				for lane := range seg {
					table[lane] = s.SrcTable[lane]
				}
				sd.Src = LaneExpr(&table, seg)
			}
		}
		switch {
		case sd.Up != 0:
		case s.Src.Kind == warp.SrcBroadcast && s.Active == bitMask(s.Src.D, seg):
			// Segments of 2D lanes clamped at 2D − 2: a lane with bit D
			// set reads lane D − 1 of its block, any other lane 2D − 1,
			// past the clamp.
			d := s.Src.D
			sd.Segment = strconv.Itoa(2 * d)
			sd.Bounded = fmt.Sprintf("(((lane & %d) ^ %d) | %d)", d, d, d-1)
		case s.Src.Kind == warp.SrcUp || s.Src.Kind == warp.SrcBroadcast:
			// The closed form's source, with every bit of a lane that does
			// not combine set (−1 & (kSegment − 1)), so that it reads past
			// the clamp: a few instructions where bit planes take five
			// shifts, masks and ors a bit.
			sd.Segment = "kSegment"
			src := fmt.Sprintf("(lane - %d)", s.Src.D)
			if s.Src.Kind == warp.SrcBroadcast {
				src = fmt.Sprintf("((lane | %d) - %d)", 2*s.Src.D-1, s.Src.D)
			}
			idle := ^s.Active & uint32(uint64(1)<<seg-1)
			sd.Bounded = fmt.Sprintf("(%s | (-((0x%08xu >> lane) & 1u) & %d))", src, idle, seg-1)
		default:
			sd.Segment = "kSegment"
			var bounded [warp.Lanes]int
			for lane := range seg {
				bounded[lane] = seg - 1
				if s.Active>>lane&1 == 1 {
					bounded[lane] = s.SrcTable[lane]
				}
			}
			sd.Bounded = LaneExpr(&bounded, seg)
		}
		d.Steps = append(d.Steps, sd)
	}
	return d
}

// bitMask returns the mask of the lanes below seg with bit set.
func bitMask(bit, seg int) uint32 {
	var m uint32
	for lane := range seg {
		if lane&bit != 0 {
			m |= 1 << lane
		}
	}
	return m
}

// rangeMask returns the mask of lanes from ≤ lane < to.
func rangeMask(from, to int) uint32 {
	return uint32(uint64(1)<<to-1) &^ uint32(uint64(1)<<from-1)
}

// LaneExpr returns a C++ expression over the int lane (0 ≤ lane < seg)
// whose value is v[lane], from 32-bit immediates alone: a constant, or the
// bit planes of v, bit k of v[lane] being bit lane of the k-th immediate, as
// "((((0x000000aau >> lane) & 1u) << 1) | (((0x000000f0u >> lane) & 1u) << 2))". It
// needs no memory, no comparison and no select, and reads the same in Go,
// but for the u suffixes. The values must lie in 0 … 31.
func LaneExpr(v *[warp.Lanes]int, seg int) string {
	var planes [5]uint32
	same := true
	for lane := range seg {
		same = same && v[lane] == v[0]
		for k := range planes {
			if v[lane]>>k&1 == 1 {
				planes[k] |= 1 << lane
			}
		}
	}
	if same {
		return strconv.Itoa(v[0])
	}
	full := uint32(uint64(1)<<seg - 1)
	var terms []string
	constant := 0
	for k, m := range planes {
		if m == full {
			constant |= 1 << k
		}
	}
	if constant != 0 {
		terms = append(terms, strconv.Itoa(constant))
	}
	for k, m := range planes {
		switch {
		case m == 0 || m == full:
		case k == 0:
			terms = append(terms, fmt.Sprintf("((0x%08xu >> lane) & 1u)", m))
		default:
			terms = append(terms, fmt.Sprintf("(((0x%08xu >> lane) & 1u) << %d)", m, k))
		}
	}
	return "(" + strings.Join(terms, " | ") + ")"
}

// selects groups the lanes below seg that do not read their own lane by the
// lane they read, in the order of that lane.
func selects(s *warp.Step, seg int) []selectData {
	var out []selectData
	for lane := range seg {
		src := s.SrcTable[lane]
		if src == lane {
			continue
		}
		i := slices.IndexFunc(out, func(sel selectData) bool { return sel.Lane == src })
		if i < 0 {
			out = append(out, selectData{Lane: src})
			i = len(out) - 1
		}
		out[i].Mask |= 1 << lane
	}
	slices.SortFunc(out, func(a, b selectData) int { return a.Lane - b.Lane })
	return out
}

// PredExpr returns the C++ condition on the int lane (0 ≤ lane < seg, the
// lane within a logical warp of seg lanes) under which a step with
// predicate p and active lanes active combines: the closed form, with only
// the bounds that constrain lanes below seg, or a test of the mask. The
// condition reads the same in Go, but for the u suffix of a mask.
func PredExpr(p warp.Pred, active uint32, seg int) string {
	var terms []string
	switch p.Kind {
	case warp.PredMask:
		return fmt.Sprintf("((0x%08xu >> lane) & 1u) != 0", active)
	case warp.PredBit:
		terms = append(terms, fmt.Sprintf("(lane & %d) != 0", p.Bit))
	case warp.PredMod:
		terms = append(terms, fmt.Sprintf("lane %% %d == %d", p.Mod, p.Rem))
	}
	if p.From > 0 {
		terms = append(terms, fmt.Sprintf("lane >= %d", p.From))
	}
	if p.To < seg {
		terms = append(terms, fmt.Sprintf("lane < %d", p.To))
	}
	if len(terms) == 0 {
		return "true"
	}
	return strings.Join(terms, " && ")
}

// describe names a network and its figures in a phrase, such as
// "sklansky of width 8 (depth 3, size 12)".
func describe(net *network.Network) string {
	name := emit.CommentText(net.Topology())
	if net.Topology() == "" {
		name = "a network"
	}
	if ps := net.Params().Format(" "); ps != "" {
		name += " " + emit.CommentText(ps)
	}
	return fmt.Sprintf("%s of width %d (depth %d, size %d)", name, net.Width(), net.Depth(), net.Size())
}
