package gpukernels

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/gpukernels/block"
	"github.com/prefixgen/prefixgen/gpukernels/warp"
	"github.com/prefixgen/prefixgen/network"
)

// SmallSharedBytes is the shared memory a kernel may use without opting
// in: above it, the launchers of a header call cudaFuncSetAttribute with
// cudaFuncAttributeMaxDynamicSharedMemorySize first (Volta and later allow
// up to 96 to 227 KB per block).
const SmallSharedBytes = 48 << 10

// maxPieces is the most closed-form pieces a round or an index function is
// written as; one that needs more reads a table.
const maxPieces = 4

// resolveShared checks the tuning of a shared-memory block scan and lowers
// net onto it.
func (c *config) resolveShared(net *network.Network, opt Options) error {
	threads := opt.BlockThreads
	if threads != 0 && (threads < warp.Lanes || threads > MaxBlockThreads || threads%warp.Lanes != 0) {
		return fmt.Errorf("gpukernels: %d threads per block out of range: allowed multiples of 32 from 32 to %d", threads, MaxBlockThreads)
	}
	p, err := block.Lower(net, block.Options{Threads: threads, NoPad: opt.NoPad})
	if err != nil {
		return fmt.Errorf("gpukernels: %w", err)
	}
	c.program, c.threads, c.warps = p, p.Threads, p.Threads/warp.Lanes
	w := net.Width()
	c.columns = (w + c.threads - 1) / c.threads
	if c.columns > MaxItemsPerThread {
		return fmt.Errorf("gpukernels: %d threads cannot hold %d columns: a thread holds at most %d items; allowed at least %d threads",
			c.threads, w, MaxItemsPerThread, ((w+MaxItemsPerThread-1)/MaxItemsPerThread+warp.Lanes-1)/warp.Lanes*warp.Lanes)
	}
	c.items = opt.ItemsPerThread
	if c.items == 0 {
		c.items = (DefaultItemsPerThread + c.columns - 1) / c.columns * c.columns
	}
	if c.items < 1 || c.items > MaxItemsPerThread || c.items%c.columns != 0 {
		return fmt.Errorf("gpukernels: %d items per thread out of range: allowed multiples of %d (the columns each thread holds) up to %d",
			c.items, c.columns, MaxItemsPerThread)
	}
	return nil
}

// sharedData is a block.Program as the shared template reads it.
type sharedData struct {
	Width, Threads   int
	Slots, ArrayLen  int
	Pad              bool
	Columns          int // columns per thread
	ItemsPerColumn   int
	Cells, Conflicts int
	Bytes            int // of the array, for the header's value type
	Rounds           []roundData
	Inputs, Outputs  indexData
}

// roundData is one round: closed-form pieces, or a table of cells.
type roundData struct {
	Level, Cells int
	Pieces       []pieceData
	// Table names a __device__ table of the cells' padded indices, three
	// per cell (lo, hi, out), listed in TableData; empty for pieces.
	Table, TableData string
}

// pieceData is the cells i in [From, To) of a round, or the columns of an
// index function, whose slots follow one closed form each: C++ (and Go)
// expressions over i.
type pieceData struct {
	From, To    int
	Lo, Hi, Out string
}

// indexData is the slot of every column: pieces (Out only), or a table of
// padded indices.
type indexData struct {
	Pieces           []pieceData
	Table, TableData string
}

// newSharedData renders p, whose values take valueBytes each.
func newSharedData(p *block.Program, columns, itemsPerColumn, valueBytes int) *sharedData {
	d := &sharedData{
		Width: p.Width, Threads: p.Threads, Slots: p.Slots, ArrayLen: p.ArrayLen(), Pad: p.Pad,
		Columns: columns, ItemsPerColumn: itemsPerColumn, Cells: p.Cells(), Conflicts: p.Conflicts(),
		Bytes: p.ArrayLen() * valueBytes,
	}
	for r, round := range p.Rounds {
		rd := roundData{Level: r + 1, Cells: len(round)}
		fields := [3][]int{}
		for _, c := range round {
			fields[0] = append(fields[0], c.Lo)
			fields[1] = append(fields[1], c.Hi)
			fields[2] = append(fields[2], c.Out)
		}
		pieces := findPieces(fields[:])
		if len(pieces) <= maxPieces {
			rd.Pieces = pieces
		} else {
			rd.Table = fmt.Sprintf("kRound%dCells", r+1)
			idx := make([]string, 0, 3*len(round))
			for _, c := range round {
				idx = append(idx, strconv.Itoa(p.Index(c.Lo)), strconv.Itoa(p.Index(c.Hi)), strconv.Itoa(p.Index(c.Out)))
			}
			rd.TableData = wrapList(idx)
		}
		d.Rounds = append(d.Rounds, rd)
	}
	d.Inputs = newIndexData(p, p.Inputs, "kInputSlots")
	d.Outputs = newIndexData(p, p.Outputs, "kOutputSlots")
	return d
}

// newIndexData renders the slots of the columns.
func newIndexData(p *block.Program, slots []int, table string) indexData {
	pieces := findPieces([][]int{slots})
	if len(pieces) <= maxPieces {
		for i := range pieces {
			pieces[i].Out, pieces[i].Lo = pieces[i].Lo, ""
		}
		return indexData{Pieces: pieces}
	}
	idx := make([]string, len(slots))
	for i, s := range slots {
		idx[i] = strconv.Itoa(p.Index(s))
	}
	return indexData{Table: table, TableData: wrapList(idx)}
}

// wrapList joins numbers with ", ", in lines of at most about 100
// characters indented by four spaces.
func wrapList(items []string) string {
	var b strings.Builder
	line := 0
	for i, it := range items {
		if i > 0 {
			b.WriteString(",")
			line++
			if line+len(it) > 96 {
				b.WriteString("\n    ")
				line = 4
			} else {
				b.WriteString(" ")
				line++
			}
		} else {
			b.WriteString("    ")
			line = 4
		}
		b.WriteString(it)
		line += len(it)
	}
	return b.String()
}

// form is the closed form f(j) = C0 + C1·(j >> S) + C2·(j & (2^S − 1)) of
// a run of slots, j counted from the start of the run: an arithmetic
// progression for S = 0, and for S > 0 groups of 2^S, as in Sklansky's
// rounds, whose cells read the last column of the lower half of their
// group.
type form struct{ C0, C1, C2, S int }

func (f form) at(j int) int { return f.C0 + f.C1*(j>>f.S) + f.C2*(j&(1<<f.S-1)) }

// fit returns the form that covers the longest run of vals from vals[0],
// and the length of that run (at least 1).
func fit(vals []int) (form, int) {
	best, run := form{C0: vals[0]}, 1
	for s := 0; s <= 12; s++ {
		var f form
		switch {
		case s == 0 && len(vals) >= 2:
			f = form{C0: vals[0], C1: vals[1] - vals[0]}
		case s > 0 && len(vals) > 1<<s:
			f = form{C0: vals[0], C1: vals[1<<s] - vals[0], C2: vals[1] - vals[0], S: s}
		default:
			continue
		}
		n := 0
		for n < len(vals) && f.at(n) == vals[n] {
			n++
		}
		if n > run {
			best, run = f, n
		}
	}
	return best, run
}

// expr writes f at i − from as an expression over i that reads the same
// in C++ and Go.
func (f form) expr(from int) string {
	x := "i"
	if from != 0 {
		x = fmt.Sprintf("(i - %d)", from)
	}
	var b strings.Builder
	term := func(c int, t string) {
		switch {
		case c == 0:
			return
		case b.Len() == 0 && c < 0:
			b.WriteString("-")
		case b.Len() > 0 && c < 0:
			b.WriteString(" - ")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		if c < 0 {
			c = -c
		}
		if c != 1 {
			fmt.Fprintf(&b, "%d * ", c)
		}
		b.WriteString(t)
	}
	if f.C0 != 0 {
		b.WriteString(strconv.Itoa(f.C0))
	}
	if f.S > 0 {
		term(f.C1, fmt.Sprintf("(%s >> %d)", x, f.S))
		term(f.C2, fmt.Sprintf("(%s & %d)", x, 1<<f.S-1))
	} else {
		term(f.C1, x)
	}
	if b.Len() == 0 {
		return "0"
	}
	return b.String()
}

// findPieces splits the parallel lists of slots into runs that each list
// follows with one form, greedily from the start; it stops once it has
// more than maxPieces. Piece.Lo, Hi and Out are the forms of the first,
// second and third list.
func findPieces(fields [][]int) []pieceData {
	n := len(fields[0])
	var pieces []pieceData
	for a := 0; a < n && len(pieces) <= maxPieces; {
		run := n - a
		for _, f := range fields {
			_, r := fit(f[a:])
			run = min(run, r)
		}
		pd := pieceData{From: a, To: a + run}
		for k, f := range fields {
			fm, _ := fit(f[a : a+run])
			e := fm.expr(a)
			switch k {
			case 0:
				pd.Lo = e
			case 1:
				pd.Hi = e
			default:
				pd.Out = e
			}
		}
		pieces = append(pieces, pd)
		a += run
	}
	return pieces
}

// valueBytes returns sizeof(value_type) of a header: the scalar, an affine
// pair, or a segmented value, as a C++ compiler lays the structs out.
func (c *config) valueBytes() int {
	size, align := c.typ.Bytes, c.typ.Bytes
	if c.op.Affine {
		size *= 2
	}
	if c.flag != nil {
		align = max(align, c.flag.Bytes)
		size = (size + c.flag.Bytes + align - 1) / align * align
	}
	return size
}
