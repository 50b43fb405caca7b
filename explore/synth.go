package explore

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/physical"
)

// Measured is a point with its area and delay after synthesis and static
// timing (package physical).
type Measured struct {
	Point
	// Sparse is the sparseness of the adder measured: 1 (or 0) when the
	// network computes every carry, 2, 4 or 8 when it computes every s-th
	// one and s-bit carry-select blocks make the sums (see package
	// adder).
	Sparse int
	// Ling says whether the adder measured computes Ling's pseudo-carries
	// (adder.Options.Ling) instead of the carries themselves.
	Ling bool
	// Stages is the number of the adder's register stages (0:
	// combinational; adder.Options.Stages), and NoReset says its registers
	// have no reset.
	Stages  int
	NoReset bool
	// PGCells says the adder's generate and propagate are library cells
	// (adder.Options.Cells).
	PGCells bool
	// Result is what the flow measured of the point's adder.
	Result *physical.Result
	// OnFront says whether no other measured point is at least as small
	// and as fast and better in one (see AreaDelayFront).
	OnFront bool
}

// Synthesize runs the adder of every point through the physical flow,
// opt.Jobs at a time, together with Yosys's own a + b + cin of the same
// width, and marks the area–delay front. It returns the measured points in
// the order of points, and the reference's result.
func Synthesize(ctx context.Context, points []Point, opt physical.Options) ([]Measured, *physical.Result, error) {
	return SynthesizeAdders(ctx, points, Adders{}, opt)
}

// Adders says which adders SynthesizeAdders builds around every network.
type Adders struct {
	// Sparse lists the sparseness values, each of adder.Sparseness and at
	// most the width; nil means dense only.
	Sparse []int
	// Ling builds every adder with Ling's pseudo-carries
	// (adder.Options.Ling).
	Ling bool
	// Stages pipelines every adder with that many register stages placed
	// to balance its logic (adder.Options.Stages; 0: combinational), and
	// NoReset leaves the registers without a reset. The flow then reports
	// each adder's least clock period as its delay.
	Stages  int
	NoReset bool
	// Cells, when not nil, builds every adder with each bit's generate and
	// propagate as these library cells (adder.Options.Cells,
	// physical.PGCells).
	Cells *adder.Cells
}

// AdderError reports an adder that cannot be built around a network as
// Adders asks, such as more register stages than its carry tree has levels
// to split: bad input, not a failed tool.
type AdderError struct{ msg string }

// Error returns the one-line message.
func (e *AdderError) Error() string { return e.msg }

// SynthesizeAdders is Synthesize with every point's adder built as a says:
// it returns, for each point in order, one measured point per sparseness
// in the order of a.Sparse, and marks the area–delay front over all of
// them.
func SynthesizeAdders(ctx context.Context, points []Point, a Adders, opt physical.Options) ([]Measured, *physical.Result, error) {
	if len(points) == 0 {
		return nil, nil, fmt.Errorf("explore: no network to synthesize")
	}
	if a.Stages < 0 {
		return nil, nil, &AdderError{fmt.Sprintf("explore: %d register stages: allowed 0 (combinational) or more", a.Stages)}
	}
	if a.NoReset && a.Stages == 0 {
		return nil, nil, &AdderError{"explore: no reset asked for a combinational adder: allowed with register stages"}
	}
	sparse := a.Sparse
	if len(sparse) == 0 {
		sparse = []int{1}
	}
	designs := make([]*physical.Design, 0, len(points)*len(sparse)+1)
	measured := make([]Measured, 0, len(points)*len(sparse))
	for _, p := range points {
		for _, s := range sparse {
			d, err := physical.ArchitectureDesign(p.Network, adder.Options{Flags: adder.Carry, Sparse: s, Ling: a.Ling, Stages: a.Stages, NoReset: a.NoReset, Cells: a.Cells})
			if err != nil {
				return nil, nil, &AdderError{fmt.Sprintf("explore: %s: %s", p.Name, strings.TrimPrefix(strings.TrimPrefix(err.Error(), "physical: "), "emit: "))}
			}
			designs = append(designs, d)
			measured = append(measured, Measured{Point: p, Sparse: max(s, 1), Ling: a.Ling, Stages: a.Stages, NoReset: a.NoReset, PGCells: a.Cells != nil})
		}
	}
	ref, err := physical.ReferenceDesign(points[0].Network.Width())
	if err != nil {
		return nil, nil, err
	}
	designs = append(designs, ref)
	results, err := physical.Run(ctx, designs, opt)
	if err != nil {
		return nil, nil, err
	}
	for i := range measured {
		measured[i].Result = results[i]
	}
	AreaDelayFront(measured)
	return measured, results[len(measured)], nil
}

// AreaDelayFront sets OnFront of every point that no other one dominates
// over (area, delay), the medians where the flow measured several orders of
// the gates (physical.Options.Orders): one dominates another when it is no
// larger and no slower, and smaller or faster. Of points with equal area and delay only
// the first is on the front. It returns the front sorted by delay, then
// area.
func AreaDelayFront(points []Measured) []Measured {
	var front []Measured
	for i := range points {
		p := points[i].Result
		on := true
		for j, q := range points {
			if i == j {
				continue
			}
			r := q.Result
			ra, rd, pa, pd := r.MedianAreaUM2(), r.MedianDelayNS(), p.MedianAreaUM2(), p.MedianDelayNS()
			no := ra <= pa && rd <= pd
			if no && (ra < pa || rd < pd || j < i) {
				on = false
				break
			}
		}
		points[i].OnFront = on
		if on {
			front = append(front, points[i])
		}
	}
	slices.SortStableFunc(front, func(a, b Measured) int {
		return cmp.Or(cmp.Compare(a.Result.MedianDelayNS(), b.Result.MedianDelayNS()), cmp.Compare(a.Result.MedianAreaUM2(), b.Result.MedianAreaUM2()))
	})
	return front
}

// measuredColumns are the columns of MeasuredTable and MeasuredCSV.
var measuredColumns = []string{"network", "from", "width", "depth", "size", "max fan-out", "wire tracks", "sparse", "area (µm²)", "delay (ns)", "std cells", "redundant (µm²)", "critical path", "front", "command"}

// registersColumn is the column of the flip-flops' count a table of
// pipelined adders has after "std cells".
const registersColumn = "registers"

func measuredRow(m Measured, clocked bool) []string {
	f, r := m.Figures, m.Result
	front := ""
	if m.OnFront {
		front = "*"
	}
	row := []string{m.Name, m.Family, strconv.Itoa(f.Width), strconv.Itoa(f.Depth), strconv.Itoa(f.Size),
		strconv.Itoa(f.MaxFanout), strconv.Itoa(f.WireTracks), strconv.Itoa(max(m.Sparse, 1)), fmt.Sprintf("%.0f", r.AreaUM2), fmt.Sprintf("%.3f", r.DelayNS)}
	if r.Spread != nil {
		area, delay := r.Spread.Cells()
		row = append(row, area, delay)
	}
	row = append(row, strconv.Itoa(r.StdCells))
	if clocked {
		row = append(row, strconv.Itoa(r.Registers))
	}
	return append(row, fmt.Sprintf("%.0f", r.RedundantUM2), r.CriticalFrom+" → "+r.CriticalTo, front, m.AdderCommand())
}

// clocked says whether any of the points has register stages.
func clocked(points []Measured) bool {
	return slices.ContainsFunc(points, func(m Measured) bool { return m.Stages > 0 })
}

// Adder names the adder measured: "dense" for the plain one, otherwise its
// sparseness, Ling's pseudo-carries, library cells and register stages,
// such as "sparse 2", "Ling", "sparse 4, Ling, pg cells" or "Ling, 2
// stages, no reset".
func (m Measured) Adder() string {
	var parts []string
	if m.Sparse > 1 {
		parts = append(parts, "sparse "+strconv.Itoa(m.Sparse))
	}
	if m.Ling {
		parts = append(parts, "Ling")
	}
	if m.PGCells {
		parts = append(parts, "pg cells")
	}
	if m.Stages > 0 {
		stages := strconv.Itoa(m.Stages) + " stages"
		if m.Stages == 1 {
			stages = "1 stage"
		}
		parts = append(parts, stages)
		if m.NoReset {
			parts = append(parts, "no reset")
		}
	}
	if parts == nil {
		return "dense"
	}
	return strings.Join(parts, ", ")
}

// AdderCommand returns the command that rebuilds the point, and for a
// sparse, Ling, pipelined or library-cell adder the one that writes its
// Verilog (naming the library of the cells when it is not the default): gen's
// flags after a family's command, and for a point whose command writes a
// network document (the optimizer's, ending in -f json) that command
// writing network.json, then gen --from network.json.
func (m Measured) AdderCommand() string {
	if m.Command == "" || (m.Sparse <= 1 && !m.Ling && !m.PGCells && m.Stages == 0) {
		return m.Command
	}
	cmd := m.Command + " -f verilog"
	if strings.HasSuffix(m.Command, " -f json") {
		cmd = m.Command + " -o network.json && prefixgen gen --from network.json -f verilog"
	}
	if m.Sparse > 1 {
		cmd += " --sparse " + strconv.Itoa(m.Sparse)
	}
	if m.Ling {
		cmd += " --ling"
	}
	if m.PGCells {
		cmd += " --pg-cells"
		// The cells are the library's the flow measured them in.
		if m.Result != nil && m.Result.Liberty != "" && m.Result.Liberty != physical.LibertyFile("") {
			cmd += " --liberty " + emit.ShellWord(m.Result.Liberty)
		}
	}
	if m.Stages > 0 {
		cmd += " --stages " + strconv.Itoa(m.Stages)
		if m.NoReset {
			cmd += " --no-reset"
		}
	}
	return cmd
}

// MeasuredTable writes the points as an aligned table, one row each: the
// figures of Table, then the sparseness, area, delay, standard cells, the
// critical path, a star on the area–delay front, and the command (for a
// sparse, Ling or library-cell adder, the one that writes its Verilog, which names
// --ling); under it the reference (Yosys's a + b + cin), when not nil, and
// the flow, library and tools.
func MeasuredTable(w io.Writer, points []Measured, ref *physical.Result) error {
	pipelined := clocked(points)
	rows := make([][]string, len(points))
	for i, m := range points {
		rows[i] = measuredRow(m, pipelined)
	}
	columns := measuredColumns
	spread := len(points) > 0 && points[0].Result.Spread != nil
	if spread {
		i := slices.Index(columns, "delay (ns)") + 1
		columns = slices.Insert(slices.Clone(columns), i, physical.SpreadColumns...)
	}
	if pipelined {
		i := slices.Index(columns, "std cells") + 1
		columns = slices.Insert(slices.Clone(columns), i, registersColumn)
	}
	if err := emit.WriteTable(w, columns, rows); err != nil {
		return err
	}
	r := ref
	if len(points) > 0 {
		r = points[0].Result
	}
	if r == nil {
		return nil
	}
	if ref != nil {
		median := ""
		if s := ref.Spread; s != nil {
			area, delay := s.Cells()
			median = fmt.Sprintf(" (median %s µm², %s ns)", area, delay)
		}
		if _, err := fmt.Fprintf(w, "%s: %.0f µm², %.3f ns, %d std cells%s\n", physical.ReferenceName, ref.AreaUM2, ref.DelayNS, ref.StdCells, median); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "flow %s, liberty %s, %s pF on every output; %s, OpenSTA %s\n",
		r.Flow, r.Liberty, strconv.FormatFloat(r.OutputLoadPF, 'f', -1, 64), r.YosysVersion, r.STAVersion)
	if err == nil && pipelined {
		_, err = fmt.Fprintf(w, "the adders are pipelined (%s; Yosys's a + b + cin is not): a delay is the least clock period, a flip-flop's setup time included, and registers counts the flip-flops\n", points[0].Adder())
	}
	if err == nil && spread {
		_, err = fmt.Fprintf(w, "the front is taken over medians of each design as written and %s of its generic netlist's gates (--orders)\n", physical.OrdersPhrase(r.Spread.Orders))
	}
	return err
}

// Record returns the measured point's machine-readable fields, named as in
// emit.Columns: the fields of Point.Record but command, then sparse, ling,
// stages, no_reset, area_um2, delay_ns, std_cells, registers,
// redundant_um2, critical_from, critical_to, on_front, liberty, flow,
// output_load_pf, yosys_version, sta_version, command, and network_json:
// the prefixgen.network/v1 document on one line, so that anyone can put the
// point through a flow of their own (gen --from reads it back).
func (m Measured) Record() emit.Record {
	rec := m.Point.Record()
	rec = rec[:len(rec)-1] // command comes last but one
	r := m.Result
	if r == nil {
		r = &physical.Result{}
	}
	var doc json.RawMessage = []byte("null")
	if m.Network != nil {
		var compact bytes.Buffer
		if data, err := m.Network.MarshalJSON(); err == nil && json.Compact(&compact, data) == nil {
			doc = compact.Bytes()
		}
	}
	return r.Spread.InsertRecord(append(rec, emit.Record{
		{Column: "sparse", Value: max(m.Sparse, 1)}, {Column: "ling", Value: m.Ling}, {Column: "stages", Value: m.Stages}, {Column: "no_reset", Value: m.NoReset},
		{Column: "pg_cells", Value: m.PGCells}, {Column: "area_um2", Value: r.AreaUM2}, {Column: "delay_ns", Value: r.DelayNS}, {Column: "std_cells", Value: r.StdCells}, {Column: "registers", Value: r.Registers},
		{Column: "redundant_um2", Value: r.RedundantUM2}, {Column: "critical_from", Value: r.CriticalFrom}, {Column: "critical_to", Value: r.CriticalTo},
		{Column: "on_front", Value: m.OnFront}, {Column: "liberty", Value: r.Liberty}, {Column: "flow", Value: string(r.Flow)},
		{Column: "output_load_pf", Value: r.OutputLoadPF}, {Column: "yosys_version", Value: r.YosysVersion},
		{Column: "sta_version", Value: r.STAVersion}, {Column: "command", Value: m.AdderCommand()},
		{Column: "network_json", Value: doc},
	}...))
}

// MeasuredCSV writes the points as CSV under a header of the names of
// Record, which are the keys of MeasuredJSON.
func MeasuredCSV(w io.Writer, points []Measured) error {
	records := make([]emit.Record, len(points))
	for i, m := range points {
		records[i] = m.Record()
	}
	header := Measured{}.Record().Names()
	if len(records) > 0 && points[0].Result != nil && points[0].Result.Spread != nil {
		header = records[0].Names()
	}
	return emit.RecordsCSV(w, header, records)
}

// MeasuredJSON writes the points as a JSON array of objects with the fields
// of Record. The objects are indented; each network document is on one
// line.
func MeasuredJSON(w io.Writer, points []Measured) error {
	var buf bytes.Buffer
	buf.WriteString("[")
	for i, m := range points {
		rec := m.Record()
		doc := rec[len(rec)-1]
		obj, err := json.MarshalIndent(rec[:len(rec)-1], "  ", "  ")
		if err != nil {
			return fmt.Errorf("explore: %v", err)
		}
		// obj ends in "\n  }": put the network document before that.
		obj = bytes.TrimSuffix(obj, []byte("\n  }"))
		if i > 0 {
			buf.WriteString(",")
		}
		buf.WriteString("\n  ")
		buf.Write(obj)
		fmt.Fprintf(&buf, ",\n    %q: ", doc.Column)
		buf.Write(doc.Value.(json.RawMessage))
		buf.WriteString("\n  }")
	}
	if len(points) > 0 {
		buf.WriteString("\n")
	}
	buf.WriteString("]\n")
	_, err := w.Write(buf.Bytes())
	return err
}
