package explore

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/topologies"
)

// Measured is a point with its area and delay after synthesis and static
// timing (package physical).
type Measured struct {
	Point
	// Adder is the architecture of the adder measured around the point's
	// network, in its normal form: its sparseness, Ling's carries, library
	// cells, register stages (see package adder).
	Adder adder.Architecture
	// Result is what the flow measured of the point's adder.
	Result *physical.Result
	// OnFront says whether no other measured point is at least as small
	// and as fast and better in one (see AreaDelayFront).
	OnFront bool
	// reference says the row is Yosys's a + b + cin (ReferenceRow).
	reference bool
}

// ReferenceRow returns Yosys's own a + b + cin, whose result ref is, as a
// row of MeasuredJSON and MeasuredCSV, named as MeasuredTable's footer
// names it, of family physical.Reference. It has no network of
// prefixgen's: its network's figures, architecture, on_front, command and
// network_json are nil (null in JSON, empty in CSV).
func ReferenceRow(ref *physical.Result) Measured {
	return Measured{Point: Point{Name: physical.ReferenceName, Family: physical.Reference, Figures: network.Figures{Width: ref.Width}}, Result: ref, reference: true}
}

// Synthesize runs the standard adder of every point through the physical
// flow, opt.Jobs at a time, together with Yosys's own a + b + cin of the
// same width, and marks the area–delay front. It returns the measured
// points in the order of points, and the reference's result.
func Synthesize(ctx context.Context, points []Point, opt physical.Options) ([]Measured, *physical.Result, error) {
	return SynthesizeAdders(ctx, points, nil, nil, opt)
}

// AdderError reports an adder that cannot be built around a network as
// its architecture asks, such as more register stages than its carry tree
// has levels to split: bad input, not a failed tool. It wraps the error of
// package adder (through physical and emit) that says why.
type AdderError struct {
	// Point names the network.
	Point string
	Err   error
}

// Error returns the one-line message.
func (e *AdderError) Error() string {
	msg := e.Err.Error()
	for _, prefix := range []string{"physical: ", "emit: ", "adder: "} {
		msg = strings.TrimPrefix(msg, prefix)
	}
	return fmt.Sprintf("explore: %s: %s", e.Point, msg)
}

// Unwrap returns the error of the adder.
func (e *AdderError) Unwrap() error { return e.Err }

// SynthesizeAdders is Synthesize with the adders of every architecture of
// adders (nil: adder.Standard alone) built around every point, each bit's
// generate and propagate the library's cells where an architecture has
// PGCells (see physical.PGCells): it returns, for each point in order, one
// measured point per architecture in the order of adders, and marks the
// area–delay front over all of them. The adder of a radix-k point (see
// Options.Valencies) has cells of k inputs, as gen --valency k builds it,
// whatever valency the architecture asks for. A pipelined adder's delay is
// its least clock period.
func SynthesizeAdders(ctx context.Context, points []Point, adders []adder.Architecture, cells *adder.Cells, opt physical.Options) ([]Measured, *physical.Result, error) {
	if len(points) == 0 {
		return nil, nil, fmt.Errorf("explore: no network to synthesize")
	}
	if len(adders) == 0 {
		adders = []adder.Architecture{adder.Standard}
	}
	return SynthesizeEach(ctx, Each(points, adders), cells, opt)
}

// Each returns the adders SynthesizeAdders measures, not yet measured: for
// each point in order, one per architecture of adders, the valency of a
// radix-k point's k. A dense adder's full adders (FACells) are binary
// cells of its network: a radix-k point has none at sparse 1.
func Each(points []Point, adders []adder.Architecture) []Measured {
	each := make([]Measured, 0, len(points)*len(adders))
	for _, p := range points {
		for _, a := range adders {
			if k := topologies.ValencyOf(p.Network); k > 2 {
				if a.FACells && a.Sparse <= 1 {
					continue
				}
				a.Valency = k
			}
			each = append(each, Measured{Point: p, Adder: a})
		}
	}
	return each
}

// FileFamily is the family of a point read from a file, such as an
// adder document that optimize wrote, measured beside the named networks
// (explore --synth --with).
const FileFamily = "file"

// SynthesizeEach runs each adder given, a point and the architecture of
// the adder around its network (Measured without its Result), through the
// physical flow, opt.Jobs at a time, together with Yosys's own a + b + cin
// of the width of the first, and marks the area–delay front over them: the
// adders of SynthesizeAdders, or any others, such as those of documents
// written by optimize, measured in the same run as the named ones. It
// returns them measured, in order, their architectures in normal form, and
// the reference's result.
func SynthesizeEach(ctx context.Context, adders []Measured, cells *adder.Cells, opt physical.Options) ([]Measured, *physical.Result, error) {
	if len(adders) == 0 {
		return nil, nil, fmt.Errorf("explore: no network to synthesize")
	}
	width := adders[0].Network.Width()
	designs := make([]*physical.Design, 0, len(adders)+1)
	measured := make([]Measured, len(adders))
	stages := make([]error, len(adders))
	for i, m := range adders {
		if w := m.Network.Width(); w != width {
			return nil, nil, &AdderError{Point: m.Name, Err: fmt.Errorf("width %d differs from the other adders' %d: allowed one width in a run", w, width)}
		}
		d, err := physical.ArchitectureDesign(m.Network, m.Adder, cells)
		if _, ok := errors.AsType[*adder.StagesError](err); ok {
			stages[i] = err
			continue
		}
		if err != nil {
			return nil, nil, &AdderError{Point: m.Name, Err: err}
		}
		designs = append(designs, d)
		measured[i] = Measured{Point: m.Point, Adder: m.Adder.Normal()}
	}
	// Too many stages for some: the range all take is the shallowest's.
	if se, i := adder.Shallowest(stages); se != nil {
		return nil, nil, &AdderError{Point: adders[i].Name, Err: se}
	}
	ref, err := physical.ReferenceDesign(width)
	if err != nil {
		return nil, nil, fmt.Errorf("explore: %w", err)
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
		strconv.Itoa(f.MaxFanout), strconv.Itoa(f.WireTracks), strconv.Itoa(m.Adder.Normal().Sparse), physical.FormatArea(r.AreaUM2), physical.FormatNS(r.DelayNS)}
	if r.Spread != nil {
		area, delay := r.Spread.Cells()
		row = append(row, area, delay)
	}
	row = append(row, strconv.Itoa(r.StdCells))
	if clocked {
		row = append(row, strconv.Itoa(r.Registers))
	}
	return append(row, physical.FormatArea(r.RedundantUM2), r.CriticalFrom+" → "+r.CriticalTo, front, m.AdderCommand())
}

// clocked says whether any of the points has register stages.
func clocked(points []Measured) bool {
	return slices.ContainsFunc(points, func(m Measured) bool { return m.Adder.Stages > 0 })
}

// AdderName names the adder measured: its architecture's name
// (adder.Architecture.Name), such as "sparse=2", "ling", "sparse=4 ling
// pgcells" or "ling stages=2 noreset", or "dense" for the standard adder.
func (m Measured) AdderName() string {
	if name := m.Adder.Name(); name != "" {
		return name
	}
	return "dense"
}

// AdderCommand returns the command that rebuilds the point, and for an
// adder that is not the standard one the one that writes its Verilog: gen's
// flags of its architecture (adder.Architecture.Args) after a family's
// command, and --liberty naming the library of its cells when they are not
// the default library's, or are a file's adder's; for a point whose command writes a network
// document (the optimizer's, ending in -f json) that command writing
// network.json, then gen --from network.json. A family's radix-k point's
// command gives --valency k already; a file's or the optimizer's is read
// by gen --from, after which it is added.
func (m Measured) AdderCommand() string {
	arch := m.Adder
	// A family's radix-k point's command builds it with --valency k; a
	// file's or the optimizer's network is read by gen --from, which
	// needs it.
	fromFile := m.Family == FileFamily || strings.HasSuffix(m.Command, " -f json")
	if m.Network != nil && topologies.ValencyOf(m.Network) == arch.Normal().Valency && !fromFile {
		arch.Valency = 2 // the point's command says it
	}
	if m.Command == "" || arch.IsStandard() {
		return m.Command
	}
	cmd := m.Command + " -f verilog"
	if strings.HasSuffix(m.Command, " -f json") {
		cmd = m.Command + " -o network.json && prefixgen gen --from network.json -f verilog"
	}
	cmd += " " + strings.Join(arch.Args(), " ")
	// The cells are the library's the flow measured them in. A file's
	// adder names it even where it is the default: gen --from takes the
	// library the file records.
	if m.Adder.InstantiatesCells() && m.Result != nil && m.Result.Liberty != "" {
		switch {
		case physical.LibertyFile(m.Result.Liberty) != physical.LibertyFile(""):
			cmd += " --liberty " + emit.ShellWord(m.Result.Liberty)
		case m.Family == FileFamily:
			cmd += " --liberty " + physical.DefaultLibrary
		}
	}
	return cmd
}

// MeasuredTable writes the points as an aligned table, one row each: the
// figures of Table, then the sparseness, area, delay, standard cells, the
// critical path, a star on the area–delay front, and the command (for an
// adder other than the standard one, the one that writes its Verilog: see
// AdderCommand); under it the reference (Yosys's a + b + cin), when not
// nil, and the flow, library and tools.
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
		if _, err := fmt.Fprintf(w, "%s: %s µm², %s ns, %d std cells%s\n", physical.ReferenceName, physical.FormatArea(ref.AreaUM2), physical.FormatNS(ref.DelayNS), ref.StdCells, median); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "flow %s, liberty %s, %s pF on every output; %s, OpenSTA %s\n",
		r.Flow, network.Printable(r.Liberty), strconv.FormatFloat(r.OutputLoadPF, 'f', -1, 64), r.YosysVersion, r.STAVersion)
	if err == nil && pipelined {
		_, err = fmt.Fprintf(w, "the adders are pipelined (%s; Yosys's a + b + cin is not): a delay is the least clock period, a flip-flop's setup time included, and registers counts the flip-flops\n", points[0].AdderName())
	}
	if err == nil && spread {
		_, err = fmt.Fprintf(w, "the front is taken over medians of each design as written and %s of its generic netlist's gates (--orders)\n", physical.OrdersPhrase(r.Spread.Orders))
	}
	return err
}

// Record returns the measured point's machine-readable fields, named as in
// emit.Columns: the fields of Point.Record but command, then sparse, valency, ling,
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
	var doc any = json.RawMessage("null")
	if m.Network != nil {
		var compact bytes.Buffer
		if data, err := m.Network.MarshalJSON(); err == nil && json.Compact(&compact, data) == nil {
			doc = json.RawMessage(compact.Bytes())
		}
	}
	for _, f := range m.Adder.Fields() {
		rec = append(rec, emit.Field{Column: f.Key, Value: f.Value})
	}
	var onFront, command any = m.OnFront, m.AdderCommand()
	if m.reference {
		for i := range rec {
			switch rec[i].Column {
			case "topology":
				rec[i].Value = physical.Reference
			case "params":
				rec[i].Value = network.Params{}
			case "network", "family", "width":
			default: // the network's figures and the architecture
				rec[i].Value = nil
			}
		}
		onFront, command, doc = nil, nil, nil
	}
	return r.Spread.InsertRecord(append(rec, emit.Record{
		{Column: "area_um2", Value: r.AreaUM2}, {Column: "delay_ns", Value: r.DelayNS}, {Column: "std_cells", Value: r.StdCells}, {Column: "registers", Value: r.Registers},
		{Column: "redundant_um2", Value: physical.RoundUM2(r.RedundantUM2)}, {Column: "critical_from", Value: r.CriticalFrom}, {Column: "critical_to", Value: r.CriticalTo},
		{Column: "on_front", Value: onFront}, {Column: "liberty", Value: r.Liberty}, {Column: "flow", Value: string(r.Flow)},
		{Column: "output_load_pf", Value: r.OutputLoadPF}, {Column: "yosys_version", Value: r.YosysVersion},
		{Column: "sta_version", Value: r.STAVersion}, {Column: "command", Value: command},
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
			return fmt.Errorf("explore: %w", err)
		}
		// obj ends in "\n  }": put the network document before that.
		obj = bytes.TrimSuffix(obj, []byte("\n  }"))
		if i > 0 {
			buf.WriteString(",")
		}
		buf.WriteString("\n  ")
		buf.Write(obj)
		fmt.Fprintf(&buf, ",\n    %q: ", doc.Column)
		if raw, ok := doc.Value.(json.RawMessage); ok {
			buf.Write(raw)
		} else {
			buf.WriteString("null") // Yosys's a + b + cin: no network
		}
		buf.WriteString("\n  }")
	}
	if len(points) > 0 {
		buf.WriteString("\n")
	}
	buf.WriteString("]\n")
	_, err := w.Write(buf.Bytes())
	return err
}
