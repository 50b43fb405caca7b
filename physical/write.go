package physical

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
)

// resultJSON fixes the field names and order of the JSON form.
type resultJSON struct {
	Topology     string         `json:"topology"`
	Params       network.Params `json:"params"`
	Width        int            `json:"width"`
	AreaUM2      float64        `json:"area_um2"`
	DelayNS      float64        `json:"delay_ns"`
	StdCells     int            `json:"std_cells"`
	CriticalFrom string         `json:"critical_from"`
	CriticalTo   string         `json:"critical_to"`
	Liberty      string         `json:"liberty"`
	Flow         Flow           `json:"flow"`
	OutputLoadPF float64        `json:"output_load_pf"`
	YosysVersion string         `json:"yosys_version"`
	STAVersion   string         `json:"sta_version"`
	CellCounts   map[string]int `json:"cell_counts"`
}

// MarshalJSON encodes the result as an object with the fields topology,
// params, width, area_um2, delay_ns, std_cells, critical_from, critical_to,
// liberty, flow, output_load_pf, yosys_version, sta_version and cell_counts
// (the mapped cells by library cell name).
func (r *Result) MarshalJSON() ([]byte, error) {
	p := r.Params
	if p == nil {
		p = network.Params{}
	}
	cells := r.Cells
	if cells == nil {
		cells = map[string]int{}
	}
	return json.Marshal(resultJSON{
		Topology: r.Topology, Params: p, Width: r.Width,
		AreaUM2: r.AreaUM2, DelayNS: r.DelayNS, StdCells: r.StdCells,
		CriticalFrom: r.CriticalFrom, CriticalTo: r.CriticalTo,
		Liberty: r.Liberty, Flow: r.Flow, OutputLoadPF: r.OutputLoadPF,
		YosysVersion: r.YosysVersion, STAVersion: r.STAVersion, CellCounts: cells,
	})
}

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
var CSVHeader = []string{"topology", "params", "width", "area_um2", "delay_ns", "std_cells", "critical_from", "critical_to", "liberty", "flow", "output_load_pf", "yosys_version", "sta_version"}

// CSV writes the results as comma-separated values under CSVHeader; params
// are k=V pairs joined by ';'.
func CSV(w io.Writer, results []*Result) error {
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader)
	for _, r := range results {
		cw.Write([]string{r.Topology, r.Params.Format(";"), strconv.Itoa(r.Width),
			float(r.AreaUM2), float(r.DelayNS), strconv.Itoa(r.StdCells), r.CriticalFrom, r.CriticalTo,
			r.Liberty, string(r.Flow), float(r.OutputLoadPF), r.YosysVersion, r.STAVersion})
	}
	cw.Flush()
	return cw.Error()
}

func float(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// Table writes the results as an aligned plain-text table, one row per
// design, and under it the flow, library, load and tool versions (of the
// first result: a Run measures every design the same way).
func Table(w io.Writer, results []*Result) error {
	header := []string{"adder", "width", "area (µm²)", "delay (ns)", "std cells", "critical path"}
	rows := make([][]string, len(results))
	for i, r := range results {
		rows[i] = []string{r.Name(), strconv.Itoa(r.Width), fmt.Sprintf("%.0f", r.AreaUM2), fmt.Sprintf("%.3f", r.DelayNS),
			strconv.Itoa(r.StdCells), r.CriticalFrom + " → " + r.CriticalTo}
	}
	if err := emit.WriteTable(w, header, rows); err != nil {
		return err
	}
	if len(results) == 0 {
		return nil
	}
	r := results[0]
	_, err := fmt.Fprintf(w, "flow %s, liberty %s, %s pF on every output; %s, OpenSTA %s\n",
		r.Flow, r.Liberty, float(r.OutputLoadPF), r.YosysVersion, r.STAVersion)
	return err
}
