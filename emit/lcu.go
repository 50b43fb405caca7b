package emit

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// MaxLCUWidth is the widest $lcu a techmap from YosysLCUWidths covers, and
// the largest width ParseWidths accepts.
const MaxLCUWidth = 1024

// YosysLCUWidths writes one Yosys techmap module for the $lcu cell that
// covers every width of nets: nets are one topology built at distinct
// widths (the order does not matter), with one set of parameters or, as a
// family whose defaults depend on the width builds them (zero-deficiency's
// least depth), each with its own, which its case of the module then names
// (and the module's default name none). The module builds, with one
// generate case per width, the carry tree of the
// network of that width, and sets _TECHMAP_FAIL_ for every other width, so
// that Yosys maps those with its own _90_lcu (Brent–Kung). Its default name,
// LCUWidthsModuleName, has no width in it; it sorts before _90_lcu, so that
// techmap tries it first.
//
// Which widths a design needs: Yosys 0.23 turns y = a + b, a - b and the
// comparisons a < b, a >= b (signed or not) of n-bit operands into an $alu
// and then an $lcu of n bits, and {cout, sum} = a + b + cin, whose result has
// n + 1 bits, into one $alu of n + 1 bits with cin as its carry-in: an $lcu
// of width n + 1.
func YosysLCUWidths(w io.Writer, nets []*network.Network, opt YosysLCUOptions) error {
	if len(nets) == 0 {
		return fmt.Errorf("emit: a $lcu techmap needs at least one width")
	}
	nets = slices.Clone(nets)
	slices.SortFunc(nets, func(a, b *network.Network) int { return a.Width() - b.Width() })
	first := nets[0]
	sameParams := true
	for i, net := range nets {
		if i > 0 && net.Width() == nets[i-1].Width() {
			return fmt.Errorf("emit: two networks of width %d for one $lcu techmap: allowed one per width", net.Width())
		}
		if net.Topology() != first.Topology() {
			return fmt.Errorf("emit: a $lcu techmap covers one topology: %s and %s given", Name(first), Name(net))
		}
		sameParams = sameParams && net.Params().Format(" ") == first.Params().Format(" ")
		if net.Width() > MaxLCUWidth {
			return fmt.Errorf("emit: width %d too wide for a $lcu techmap: allowed 1 to %d", net.Width(), MaxLCUWidth)
		}
	}
	module := opt.Module
	if module == "" {
		module = LCUModuleName(first)
		if len(nets) > 1 {
			module = lcuWidthsModuleName(first.Topology(), nil)
			if sameParams {
				module = LCUWidthsModuleName(first)
			}
		}
	}
	if err := CheckModuleName(module); err != nil {
		return err
	}
	cellType := opt.CellType
	if cellType == "" {
		cellType = "$lcu"
	}
	if cellType == "$lcu" && !opt.Plain {
		if err := CheckLCUModuleName(module); err != nil {
			return err
		}
	}
	if !lcuCellType.MatchString(cellType) {
		return fmt.Errorf("emit: cell type %s of a $lcu techmap: allowed $ followed by letters, digits and _, as $__prefixgen_lcu_3", network.Quote(cellType))
	}
	widths := make([]int, len(nets))
	if opt.Plain && len(nets) > 1 {
		return fmt.Errorf("emit: a plain $lcu module covers one width: %d given", len(nets))
	}
	d := &lcuData{Module: module, CellType: cellType, Plain: opt.Plain}
	for i, net := range nets {
		widths[i] = net.Width()
		vd, err := newVerilogData(net, module, nil)
		if err != nil {
			return err
		}
		f := net.Figures()
		which := fmt.Sprint("width ", vd.Width)
		if !sameParams {
			which += ", " + CommentText(net.Params().Format(" "))
		}
		d.Branches = append(d.Branches, lcuBranch{vd, fmt.Sprintf("%s: depth %d, size %d (%d black, %d gray), max fan-out %d, wire tracks %d, deficiency %d",
			which, f.Depth, f.Size, vd.Black, vd.Gray, f.MaxFanout, f.WireTracks, f.Deficiency)})
	}
	d.Widths = FormatWidths(widths)
	params := CommentText(first.Params().Format(" "))
	if !sameParams {
		params = "each width's own, named in its case"
	}
	d.Header = []string{
		"topology:   " + CommentText(first.Topology()),
		"parameters: " + params,
		"widths:     " + d.Widths,
	}
	var cover []string
	for _, r := range widthRuns(widths) {
		if r[0] == r[1] {
			cover = append(cover, fmt.Sprintf("WIDTH == %d", r[0]))
		} else {
			cover = append(cover, fmt.Sprintf("WIDTH >= %d && WIDTH <= %d", r[0], r[1]))
		}
	}
	d.Covered = strings.Join(cover, " || ")
	return execute(w, "lcu.v.tmpl", d)
}

// yosysLCU is the module of Yosys's own techmap of $lcu (techmap.v).
const yosysLCU = "_90_lcu"

// CheckLCUModuleName reports whether name may be the module of a $lcu
// techmap: one that sorts before Yosys's own _90_lcu, since techmap tries
// the maps of one cell type in the order of their names and takes the
// first that does not fail (_90_lcu never fails). A name after it, as
// my_lcu, would leave the map unused, and Yosys says nothing. Nor may it
// begin with _90_, as the modules of Yosys's techmap.v do (_90_alu,
// _90_fa): techmap reads techmap.v first and ignores a module of a name it
// has read.
func CheckLCUModuleName(name string) error {
	if rest, ok := strings.CutPrefix(name, "_90_"); ok {
		example := "_80_" + rest
		if rest == "" || len(example) > network.QuoteLimit {
			example = "_80_NAME"
		}
		return fmt.Errorf("emit: module name %s begins with _90_, as the modules of Yosys's own techmap.v do, which techmap reads first and keeps: allowed a name that sorts before %s, as %s", network.Quote(name), yosysLCU, example)
	}
	if name < yosysLCU {
		return nil
	}
	example := "_80_" + strings.TrimLeft(name, "_")
	if len(example) > network.QuoteLimit {
		example = "_80_NAME"
	}
	return fmt.Errorf("emit: module name %s sorts after %s, Yosys's own $lcu map, which techmap would take instead: allowed a name that sorts before it, as %s", network.Quote(name), yosysLCU, example)
}

// lcuCellType matches the cell types a $lcu techmap module may map.
var lcuCellType = regexp.MustCompile(`^\$[A-Za-z0-9_]+$`)

// lcuData is what the $lcu techmap template reads: one branch per width.
type lcuData struct {
	Module   string
	CellType string
	Plain    bool
	Header   []string
	Widths   string
	Covered  string
	Branches []lcuBranch
}

// lcuBranch is the network of one width and a line of its figures.
type lcuBranch struct {
	*verilogData
	Summary string
}

// LCUWidthsModuleName returns the default name of a Yosys $lcu techmap
// module that covers several widths of net's topology:
// _80_prefixgen_lcu_<topology>[_<param><value>…], without the width.
func LCUWidthsModuleName(net *network.Network) string {
	return lcuWidthsModuleName(net.Topology(), net.Params())
}

// lcuWidthsModuleName is LCUWidthsModuleName of a topology and parameters:
// none where the widths' parameters differ.
func lcuWidthsModuleName(topo string, params network.Params) string {
	if topo == "" {
		topo = "network"
	}
	return "_80_prefixgen_lcu_" + Identifier(topo, strings.ReplaceAll(params.Format("_"), "=", ""))
}

// ParseWidths reads a list of widths such as "8,16,32-64": comma-separated
// widths and ranges lo-hi (lo ≤ hi), each width 1 … MaxLCUWidth, none given
// twice. It returns the widths in increasing order.
func ParseWidths(s string) ([]int, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("emit: widths %s: %s; allowed: widths and ranges lo-hi from 1 to %d, comma-separated, as 8,16,32-64",
			network.Quote(s), fmt.Sprintf(format, args...), MaxLCUWidth)
	}
	if strings.TrimSpace(s) == "" {
		return nil, bad("empty")
	}
	num := func(t string) (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil {
			return 0, bad("%s is not a width", network.Quote(strings.TrimSpace(t)))
		}
		if n < 1 || n > MaxLCUWidth {
			return 0, bad("%d is out of range", n)
		}
		return n, nil
	}
	seen := make(map[int]bool)
	var widths []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := num(lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = num(hi); err != nil {
				return nil, err
			}
			if b < a {
				return nil, bad("range %d-%d is reversed", a, b)
			}
		}
		for n := a; n <= b; n++ {
			if seen[n] {
				return nil, bad("%d is given twice", n)
			}
			seen[n] = true
			widths = append(widths, n)
		}
	}
	slices.Sort(widths)
	return widths, nil
}

// FormatWidths writes increasing widths as ParseWidths reads them, runs of
// three or more as ranges: 8, 16, 32-64.
func FormatWidths(widths []int) string {
	var parts []string
	for _, r := range widthRuns(widths) {
		switch {
		case r[0] == r[1]:
			parts = append(parts, strconv.Itoa(r[0]))
		case r[1] == r[0]+1:
			parts = append(parts, strconv.Itoa(r[0]), strconv.Itoa(r[1]))
		default:
			parts = append(parts, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
	}
	return strings.Join(parts, ",")
}

// widthRuns splits increasing widths into runs of consecutive ones.
func widthRuns(widths []int) [][2]int {
	var runs [][2]int
	for _, n := range widths {
		if k := len(runs) - 1; k >= 0 && runs[k][1] == n-1 {
			runs[k][1] = n
			continue
		}
		runs = append(runs, [2]int{n, n})
	}
	return runs
}
