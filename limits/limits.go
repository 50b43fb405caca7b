package limits

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/synthmem"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// MaxText is the largest text diagram, in bytes, Machine allows: beyond
// it a diagram is too wide and too long to read, and would fill a disk.
const MaxText int64 = 256 << 20

// MaxVectors is the most random vectors a network is verified with: about
// ten seconds at 64 bits, and minutes at thousands.
const MaxVectors = 1_000_000_000

// Budget is what a request may use.
type Budget struct {
	// Memory is the memory, in bytes, a request may plan to use.
	Memory int64
	// Diagram is the largest text diagram, in bytes.
	Diagram int64
}

// Machine returns this machine's budget: Memory is half the lesser of the
// machine's memory (MemTotal in /proc/meminfo) and the control group's
// limit, from 1 GiB to 32 GiB, or 4 GiB where neither is known; under an
// address space limit (ulimit -v), at most half of what the process has
// not yet reserved of it. Diagram is MaxText.
func Machine() Budget {
	memory := int64(-1)
	least := func(b int64) {
		if b > 0 && (memory < 0 || b < memory) {
			memory = b
		}
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) >= 2 && fields[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil && kb < 1<<50 {
					least(kb * 1024)
				}
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			least(v)
		}
	}
	limit, used := addressSpace(strconv.IntSize, addressLimit()), int64(0)
	if limit > 0 {
		used = addressUsed()
	}
	return Budget{Memory: memoryBudget(memory, limit, used), Diagram: MaxText}
}

// memoryBudget is Machine's Memory for a machine of memory bytes (the
// lesser of its memory and its control group's limit, -1 where neither is
// known) and, where limit is above 0, an address space limit of which the
// process holds used.
func memoryBudget(memory, limit, used int64) int64 {
	const gib = 1 << 30
	budget := int64(4 * gib)
	if memory > 0 {
		budget = min(max(memory/2, gib), 32*gib)
	}
	if limit > 0 {
		// Go's runtime reserves hundreds of MiB of address space before
		// any work (about 700 MiB for prefixgen): half of what is left,
		// whatever the floor above.
		budget = min(budget, max(limit-used, 0)/2)
	}
	return budget
}

// addressSpace returns the address space a process whose pointers have
// bits bits may hold, under a limit of limit bytes (0: none): a 32-bit
// process holds at most 4 GiB, whatever the limit above it.
func addressSpace(bits int, limit int64) int64 {
	const space32 = 4 << 30
	if bits == 32 && (limit <= 0 || limit > space32) {
		return space32
	}
	return limit
}

// addressUsed returns the address space the process holds now (VmSize in
// /proc/self/status), 0 where it is not known.
func addressUsed() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			if f := strings.Fields(rest); len(f) >= 1 {
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil && kb < 1<<50 {
					return kb * 1024
				}
			}
		}
	}
	return 0
}

// Error is a request refused for what it would need: bad input, in one
// line.
type Error struct{ msg string }

// Error returns the one-line message.
func (e *Error) Error() string { return e.msg }

func refuse(format string, args ...any) error {
	return &Error{"limits: " + fmt.Sprintf(format, args...)}
}

// CellBytes is the memory one cell of a network costs a request: the
// network and its figures, and what format ("json", "text", "dot", "svg",
// "verilog", "vhdl", "yosys-lcu") builds in memory to write it (measured,
// with room); format "" is a request that builds networks for their
// figures or to simulate them, and writes no network. Format Synth adds
// what the outside tools hold of each cell; a synthesis also costs a share
// for each bit of the adder.
func CellBytes(format string) int64 {
	switch format {
	case "":
		return 512
	case "verilog", "vhdl", "yosys-lcu":
		return 4096
	case "dot":
		return 16384
	case "svg":
		return 1024
	case Synth:
		return 512 + synthmem.CellBytes
	}
	return 192 // text and json: the network and its writer's buffer
}

// Synth is the format of a request whose adders the outside tools
// synthesize and time (prefixgen synth): Yosys, ABC and OpenSTA hold the
// whole adder, and prefixgen reads back what they print.
const Synth = "synth"

// Reference refuses Yosys's own a + b + cin of width n (synth --verilog
// -n), whose synthesis needs more memory than b.Memory, naming the widest
// width that fits.
func (b Budget) Reference(n int) error {
	if synthmem.Reference(n) <= b.Memory {
		return nil
	}
	lo := widest(n, func(m int) bool { return synthmem.Reference(m) <= b.Memory })
	return refuse("synthesizing yosys a+b+cin at width %d needs %s of memory, more than the %s allowed here: allowed widths up to %d", n, about(synthmem.Reference(n)), amount(b.Memory), lo)
}

// Design refuses a design of the user's, size bytes of Verilog (what
// names them: a path, "the design's 3 files"), whose synthesis needs more
// memory than b.Memory, naming the largest design that fits.
func (b Budget) Design(what string, size int64) error {
	need := synthmem.Verilog(size)
	if need <= b.Memory {
		return nil
	}
	return refuse("synthesizing %s (%s) needs %s of memory, more than the %s allowed here: allowed designs up to %s", what, amount(size), about(need), amount(b.Memory), amount(b.Memory/synthmem.VerilogBytes))
}

// about writes an estimate of synthmem: "about" its amount, or where it
// saturated, more than int64 bytes hold.
func about(bytes int64) string {
	if bytes == math.MaxInt64 {
		return "more than 8 EiB"
	}
	return "about " + amount(bytes)
}

// beyond writes size, more than limit, in units of unit bytes (1<<20,
// 1<<30): to a tenth, or to as many more decimals as tell it from limit,
// so that a size just past its limit is not told it is the limit (256.0
// MiB of 256, 1.2 GiB of 1.2).
func beyond(size, limit, unit int64) string {
	for d := 1; ; d++ {
		v := strconv.FormatFloat(float64(size)/float64(unit), 'f', d, 64)
		if d >= 6 || v != strconv.FormatFloat(float64(limit)/float64(unit), 'f', d, 64) {
			return v
		}
	}
}

// amount writes bytes in KiB, MiB or GiB, to a tenth.
func amount(bytes int64) string {
	switch {
	case bytes >= 1<<30:
		return gib(bytes)
	case bytes >= 1<<20:
		return strconv.FormatFloat(float64(bytes)/(1<<20), 'f', 1, 64) + " MiB"
	}
	return strconv.FormatFloat(float64(bytes)/(1<<10), 'f', 1, 64) + " KiB"
}

// gib writes bytes in GiB, to a tenth.
func gib(bytes int64) string {
	return strconv.FormatFloat(float64(bytes)/(1<<30), 'f', 1, 64) + " GiB"
}

// widest returns the largest width below n that fits, by bisection, fits
// taken as true at 0 and false at n; 0 if none does.
func widest(n int, fits func(int) bool) int {
	lo, hi := 0, n
	for hi-lo > 1 {
		if m := lo + (hi-lo)/2; fits(m) {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// Topology refuses, before anything is built, topology name ("all" for
// every one) at width n with params p, written as format (CellBytes),
// when its cells need more memory than b.Memory, naming the widest width
// that fits; as format "text", also when a narrower network of it
// already draws a text diagram larger than b.Diagram (textAhead). A name,
// width or parameter that topologies refuses whatever the machine is let
// through: topologies.Select says what is wrong.
func (b Budget) Topology(name string, n int, p network.Params, format string) error {
	return b.Topologies([]string{name}, n, p, format)
}

// Topologies is Topology for several topologies built and held at once
// (-t ripple,sklansky): their cells are judged together, as those of
// "all" are.
//
// A format's own bound on the width comes first, so that a refusal never
// names a width the format refuses in turn: a yosys-lcu map's
// emit.MaxLCUWidth, and the text diagram's (textAhead).
func (b Budget) Topologies(names []string, n int, p network.Params, format string) error {
	switch format {
	case "yosys-lcu":
		if n > emit.MaxLCUWidth {
			return refuse("width %d too wide for a $lcu techmap: allowed 1 to %d", n, emit.MaxLCUWidth)
		}
	case "svg", "dot":
		if n > MaxPictureWidth {
			return pictureTooWide(n)
		}
	case "text":
		for _, name := range names {
			if err := b.textAhead(name, n, p); err != nil {
				return err
			}
		}
	}
	return b.topologyMemory(names, n, p, format)
}

// textAhead refuses the text diagram of topology name at width n when the
// network of a narrower width, 1 024 and doubled while under n, draws one
// larger than b.Diagram: a diagram grows with the width, and building
// the narrower ones costs at most twice what the widest that fits does,
// where building the network at n may cost gigabytes. A width it lets
// through, or params no narrower network takes, Text judges once built.
func (b Budget) textAhead(name string, n int, p network.Params) error {
	t, err := topologies.Lookup(name)
	if err != nil || n > network.MaxWidth {
		return nil
	}
	fits := func(m int) bool {
		net, err := t.Build(m, p)
		return err == nil && emit.TextSize(net) <= b.Diagram
	}
	for m := 1024; m < n; m *= 2 {
		net, err := t.Build(m, p)
		if err != nil {
			return nil // params of another width: judged once built
		}
		if emit.TextSize(net) > b.Diagram {
			return refuse("the text diagram of %s at width %d would take more than the %d MiB allowed: allowed widths up to %d (%s)", name, n, b.Diagram>>20, widest(m, fits), otherFormat(n))
		}
	}
	return nil
}

// topologyMemory is Topology's judgement of the memory.
func (b Budget) topologyMemory(names []string, n int, p network.Params, format string) error {
	var ts []topologies.Topology
	for _, name := range names {
		if name == "all" {
			ts = append(ts, topologies.All()...)
			continue
		}
		t, err := topologies.Lookup(name)
		if err != nil {
			return nil // topologies says what is wrong
		}
		ts = append(ts, t)
	}
	if len(ts) == 0 || n < 1 || n > network.MaxWidth {
		return nil
	}
	// A network past topologies.MaxCells, which topologies refuses
	// whatever the machine, counts as MaxCells cells (memory): where even
	// those do not fit here, the memory names the widest width, narrower
	// than topologies' bound.
	what := fmt.Sprintf("%s at width %d", strings.Join(names, ","), n)
	switch {
	case len(names) == 1 && names[0] == "all":
		what = fmt.Sprintf("every topology at width %d", n)
	case len(what) > 60:
		what = fmt.Sprintf("the %d topologies at width %d", len(ts), n)
	}
	specs := func(int) []topologies.Spec {
		out := make([]topologies.Spec, len(ts))
		for i, t := range ts {
			out[i] = topologies.Spec{Topology: t, Params: p}
		}
		return out
	}
	return b.memory(specs, n, format, what, len(names) > 1)
}

// Compare refuses the networks prefixgen compare builds at width n
// (topologies.CompareSpecs), written as format, when their cells need
// more memory than b.Memory, naming the widest width that fits.
func (b Budget) Compare(n int, format string) error {
	if n < 1 || n > network.MaxWidth {
		return nil
	}
	return b.memory(topologies.CompareSpecs, n, format, fmt.Sprintf("comparing every topology at width %d", n), false)
}

// memory refuses the networks specs gives at width n, held at once and
// written as format, when they need more than b.Memory: what names them,
// plural whether its verb is. A network estimated past
// topologies.MaxCells counts as that many cells, which topologies would
// refuse: among others, it is the memory that tells the widest width
// that fits (a set with one past it was let through, and built the rest).
func (b Budget) memory(specs func(int) []topologies.Spec, n int, format, what string, plural bool) error {
	// The networks are held at once; their syntheses run a few at a time
	// (synth --jobs), each in tools of its own, no more at once than fit
	// the budget together (physical.Options.Memory). The estimate adds
	// the largest one's once: a request is refused where that one alone
	// does not fit beside the networks.
	need := func(n int) int64 {
		var sum, largest int64
		for _, sp := range specs(n) {
			cells := min(sp.Topology.EstimateCells(n, sp.Params), topologies.MaxCells)
			if format == Synth {
				sum += int64(cells) * CellBytes("")
				largest = max(largest, synthmem.Adder(cells, n))
			} else {
				sum += int64(cells) * CellBytes(format)
			}
		}
		return sum + largest
	}
	if need(n) <= b.Memory {
		return nil
	}
	// Width 1 has no cells: it fits.
	lo := widest(n, func(m int) bool { return need(m) <= b.Memory })
	if format == Synth {
		what = "synthesizing " + what
	}
	verb := "needs"
	if plural {
		verb = "need"
	}
	about := "about"
	for _, sp := range specs(n) {
		if sp.Topology.EstimateCells(n, sp.Params) > topologies.MaxCells {
			about = "more than" // counted as MaxCells cells
		}
	}
	return refuse("%s %s %s %s of memory, more than the %s allowed here: allowed widths up to %d", what, verb, about, beyond(need(n), b.Memory, 1<<30)+" GiB", gib(b.Memory), lo)
}

// lcuCellBytes is the memory a cell of a yosys-lcu map of several widths
// takes, the networks and the map's text together: about 400 bytes
// measured (gen -t kogge-stone -f yosys-lcu --widths 1-512, 425 MB at
// its peak for about a million cells, 2026-12-07), rounded up.
const lcuCellBytes = 512

// Widths refuses a yosys-lcu map of topology name with params p at every
// width of widths, built and held at once, when their cells need more
// memory than b.Memory. A name, width or parameter that topologies
// refuses whatever the machine is let through, as for Topology.
func (b Budget) Widths(name string, widths []int, p network.Params) error {
	t, err := topologies.Lookup(name)
	if err != nil {
		return nil
	}
	var need int64
	for _, n := range widths {
		if n < 1 || n > network.MaxWidth {
			return nil
		}
		cells := t.EstimateCells(n, p)
		if cells > topologies.MaxCells {
			return nil
		}
		need += int64(cells) * lcuCellBytes
	}
	if need <= b.Memory {
		return nil
	}
	return refuse("%s at %d widths needs about %s of memory, more than the %s allowed here: allowed fewer or narrower widths", name, len(widths), beyond(need, b.Memory, 1<<30)+" GiB", gib(b.Memory))
}

// MaxPictureWidth is the most columns of an svg or dot picture: 28
// points a column, 16 384 of them are 458 752 points wide, more than any
// viewer draws, and take seconds to lay out (Kogge–Stone's picture at
// 16 384 bits: 2 s as svg, 10 s and 1.3 GB as dot, 2026-12-07; at 50 000
// bits, 67 s as svg, laying out its wires' lanes).
const MaxPictureWidth = 16384

// otherFormat names the format a network of width n too wide for its text
// diagram may be written in instead: a picture, up to MaxPictureWidth.
func otherFormat(n int) string {
	if n > MaxPictureWidth {
		return "or -f json"
	}
	return "or -f svg"
}

// pictureTooWide is the refusal of a picture of width n.
func pictureTooWide(n int) error {
	return refuse("width %d too wide for a picture: allowed 1 to %d columns (-f svg, dot), or the network as -f json", n, MaxPictureWidth)
}

// Network refuses a network read from a file whose cells, written as
// format (CellBytes), need more memory than b.Memory, or as a picture,
// one wider than MaxPictureWidth.
func (b Budget) Network(net *network.Network, format string) error {
	if (format == "svg" || format == "dot") && net.Width() > MaxPictureWidth {
		return pictureTooWide(net.Width())
	}
	need := int64(net.Size()) * CellBytes(format)
	if format == Synth {
		need = int64(net.Size())*CellBytes("") + synthmem.Adder(net.Size(), net.Width())
	}
	if need <= b.Memory {
		return nil
	}
	if format == Synth {
		n := net.Width()
		most := max(b.Memory-synthmem.Adder(0, n), 0) / CellBytes(Synth)
		if most < int64(n-1) {
			// No network of this width is that small: name the widest
			// whose fewest cells fit.
			w := widest(n, func(m int) bool { return int64(m-1)*CellBytes("")+synthmem.Adder(m-1, m) <= b.Memory })
			return refuse("synthesizing the network of %d cells at width %d needs about %s of memory, more than the %s allowed here: allowed widths up to %d (a network of width N has N − 1 cells or more)", net.Size(), n, beyond(need, b.Memory, 1<<30)+" GiB", gib(b.Memory), w)
		}
		return refuse("synthesizing the network of %d cells at width %d needs about %s of memory, more than the %s allowed here: allowed networks of up to %d cells at that width", net.Size(), net.Width(), beyond(need, b.Memory, 1<<30)+" GiB", gib(b.Memory), most)
	}
	return refuse("the network of %d cells needs about %s of memory, more than the %s allowed here: allowed networks of up to %d cells", net.Size(), beyond(need, b.Memory, 1<<30)+" GiB", gib(b.Memory), b.Memory/CellBytes(format))
}

// Text refuses a text diagram of net (emit.TextSize) larger than b.Diagram,
// naming the widest width of topology topo with params p that fits when
// topo names a registered topology ("" for a network of a file).
func (b Budget) Text(net *network.Network, topo string, p network.Params) error {
	size := emit.TextSize(net)
	if size <= b.Diagram {
		return nil
	}
	t, err := topologies.Lookup(topo)
	if topo == "" || err != nil {
		draw := "draw it as -f svg or dot, or a narrower network"
		if net.Width() > MaxPictureWidth {
			draw = "write it as -f json, or a narrower network"
		}
		return refuse("the text diagram of this network would take about %s MiB, more than the %d MiB allowed: %s", beyond(size, b.Diagram, 1<<20), b.Diagram>>20, draw)
	}
	lo := widest(net.Width(), func(m int) bool {
		sub, err := t.Build(m, p)
		return err == nil && emit.TextSize(sub) <= b.Diagram
	})
	return refuse("the text diagram of %s at width %d would take about %s MiB, more than the %d MiB allowed: allowed widths up to %d (%s)", topo, net.Width(), beyond(size, b.Diagram, 1<<20), b.Diagram>>20, lo, otherFormat(net.Width()))
}
