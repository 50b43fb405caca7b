package physical

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
)

// Record returns the result's machine-readable fields: topology, params,
// width, the architecture's fields (adder.Architecture.Fields: sparse, 1
// for every carry; valency, 2 for binary cells; ling; stages, 0:
// combinational; no_reset; pg_cells; fa_cells; increment; each nil for a
// user's module and Yosys's a + b + cin, which have no architecture),
// area_um2, delay_ns, std_cells, registers, redundant_um2, critical_from, critical_to,
// liberty, flow, output_load_pf, yosys_version, sta_version and cell_counts
// (the mapped cells by library cell name), named as in emit.Columns.
//
// A result with a Spread (Options.Orders) has orders, area_um2_median,
// area_um2_min, area_um2_max, delay_ns_median, delay_ns_min and
// delay_ns_max after delay_ns.
func (r *Result) Record() emit.Record {
	var width any = r.Width
	if r.Width == 0 {
		width = nil // a user's module of no width known: null, and empty in CSV
	}
	rec := emit.Record{{Column: "topology", Value: r.Topology}, {Column: "params", Value: r.Params}, {Column: "width", Value: width}}
	for _, f := range r.Adder.Fields() {
		var v any = f.Value
		if r.noArch {
			v = nil // a user's module or Yosys's a + b + cin: no architecture
		}
		rec = append(rec, emit.Field{Column: f.Key, Value: v})
	}
	rec = append(rec, emit.Record{
		{Column: "area_um2", Value: r.AreaUM2}, {Column: "delay_ns", Value: r.DelayNS}, {Column: "std_cells", Value: r.StdCells},
		{Column: "registers", Value: r.Registers}, {Column: "redundant_um2", Value: RoundUM2(r.RedundantUM2)}, {Column: "critical_from", Value: r.CriticalFrom}, {Column: "critical_to", Value: r.CriticalTo},
		{Column: "liberty", Value: r.Liberty}, {Column: "flow", Value: string(r.Flow)}, {Column: "output_load_pf", Value: r.OutputLoadPF},
		{Column: "yosys_version", Value: r.YosysVersion}, {Column: "sta_version", Value: r.STAVersion},
		{Column: "cell_counts", Value: r.Cells},
	}...)
	return r.Spread.InsertRecord(rec)
}

// InsertRecord returns rec with the spread's fields (orders,
// area_um2_median, area_um2_min, area_um2_max, delay_ns_median,
// delay_ns_min, delay_ns_max) after its delay_ns field; a nil spread
// returns rec as it is.
func (s *Spread) InsertRecord(rec emit.Record) emit.Record {
	if s == nil {
		return rec
	}
	spread := emit.Record{
		{Column: "orders", Value: s.Orders},
		{Column: "area_um2_median", Value: s.AreaMedian}, {Column: "area_um2_min", Value: s.AreaMin}, {Column: "area_um2_max", Value: s.AreaMax},
		{Column: "delay_ns_median", Value: s.DelayMedian}, {Column: "delay_ns_min", Value: s.DelayMin}, {Column: "delay_ns_max", Value: s.DelayMax},
	}
	i := slices.IndexFunc(rec, func(f emit.Field) bool { return f.Column == "delay_ns" }) + 1
	return slices.Insert(slices.Clone(rec), i, spread...)
}

// Cells returns the spread's two table cells, "median (least–greatest)" of
// the area and of the delay.
func (s *Spread) Cells() (area, delay string) {
	return fmt.Sprintf("%s (%s–%s)", FormatArea(s.AreaMedian), FormatArea(s.AreaMin), FormatArea(s.AreaMax)),
		fmt.Sprintf("%s (%s–%s)", FormatNS(s.DelayMedian), FormatNS(s.DelayMin), FormatNS(s.DelayMax))
}

// SpreadColumns are the table headers of Spread.Cells.
var SpreadColumns = []string{"area median (min–max)", "delay median (min–max)"}

// MarshalJSON encodes the result as one object, the fields of Record.
func (r *Result) MarshalJSON() ([]byte, error) { return r.Record().MarshalJSON() }

// JSON writes the results as an indented JSON array.
func JSON(w io.Writer, results []*Result) error {
	if results == nil {
		results = []*Result{}
	}
	data, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// CSVHeader names the columns of CSV, as the JSON keys name the fields.
var CSVHeader = (&Result{}).Record().Names()

// CSV writes the results as comma-separated values under CSVHeader, with
// the spread's columns too when the results have one; params are k=V pairs
// and cell_counts NAME=count pairs, joined by ';'.
func CSV(w io.Writer, results []*Result) error {
	records := make([]emit.Record, len(results))
	for i, r := range results {
		records[i] = r.Record()
	}
	header := CSVHeader
	if len(results) > 0 && results[0].Spread != nil {
		header = records[0].Names()
	}
	return emit.RecordsCSV(w, header, records)
}

func float(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// FormatArea writes an area in µm² for a table: whole µm² from 100 up (or
// for none), three significant digits below, as an ASAP7 adder's 39.2 or
// a cell's 0.875.
func FormatArea(a float64) string {
	if a >= 100 || a <= 0 || math.IsNaN(a) || math.IsInf(a, 0) {
		return fmt.Sprintf("%.0f", a)
	}
	digits := min(max(2-int(math.Floor(math.Log10(a))), 1), 4)
	return strconv.FormatFloat(a, 'f', digits, 64)
}

// FormatNS writes a time in ns for a table, to the picosecond. A time that
// rounds to zero is written 0.000, whatever its sign: a slack of -0.0002 ns
// is met.
func FormatNS(t float64) string {
	s := strconv.FormatFloat(t, 'f', 3, 64)
	if s == "-0.000" {
		return "0.000"
	}
	return s
}

// RoundUM2 returns the area a rounded to a millionth of a µm², finer than
// any library's cell areas: a sum of cell areas (Result.RedundantUM2) is
// written with their digits, not with the rounding errors of the sum.
func RoundUM2(a float64) float64 {
	return math.Round(a*1e6) / 1e6
}

// Table writes the results as an aligned plain-text table, one row per
// design, and under it the flow, library, load and tool versions (of the
// first result: a Run measures every design the same way).
func Table(w io.Writer, results []*Result) error {
	header := []string{"adder", "width", "area (µm²)", "delay (ns)", "std cells", "redundant (µm²)", "critical path"}
	spread := len(results) > 0 && results[0].Spread != nil
	if spread {
		header = append(header, SpreadColumns...)
	}
	clocked := slices.ContainsFunc(results, func(r *Result) bool { return r.Registers > 0 })
	if clocked {
		header = slices.Insert(header, 5, "registers")
	}
	rows := make([][]string, len(results))
	for i, r := range results {
		width := strconv.Itoa(r.Width)
		if r.Width == 0 {
			width = "—" // a user's module of unknown width
		}
		rows[i] = []string{r.Name(), width, FormatArea(r.AreaUM2), FormatNS(r.DelayNS),
			strconv.Itoa(r.StdCells), FormatArea(r.RedundantUM2), r.CriticalFrom + " → " + r.CriticalTo}
		if clocked {
			rows[i] = slices.Insert(rows[i], 5, strconv.Itoa(r.Registers))
		}
		if s := r.Spread; spread && s != nil {
			area, delay := s.Cells()
			rows[i] = append(rows[i], area, delay)
		}
	}
	if err := emit.WriteTable(w, header, rows); err != nil {
		return err
	}
	if len(results) == 0 {
		return nil
	}
	r := results[0]
	_, err := fmt.Fprintf(w, "flow %s, liberty %s, %s pF on every output; %s, OpenSTA %s\n",
		r.Flow, network.Printable(r.Liberty), float(r.OutputLoadPF), r.YosysVersion, r.STAVersion)
	if err == nil && clocked {
		_, err = fmt.Fprintln(w, "registers counts an adder's flip-flops: where it has any, its delay is the least clock period, a flip-flop's setup time included, and its critical path may start or end at a register")
	}
	if err == nil && spread {
		_, err = fmt.Fprintf(w, "medians and ranges over each design as written and %s of its generic netlist's gates (--orders)\n", OrdersPhrase(r.Spread.Orders))
	}
	return err
}
