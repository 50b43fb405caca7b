package emit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/delay"
	"github.com/prefixgen/prefixgen/network"
)

// Stats is one network's figures together with where it came from: the row
// the stats and compare commands print.
type Stats struct {
	Topology string
	Params   network.Params
	network.Figures
	// DelayFO4 is the logical-effort model's delay of the adder around the
	// network on the OSU 0.18 µm cells, in FO4 delays (package delay).
	DelayFO4 float64
}

// NewStats measures n.
func NewStats(n *network.Network) Stats {
	return Stats{Topology: n.Topology(), Params: n.Params(), Figures: n.Figures(), DelayFO4: delay.FO4(n)}
}

// fo4 formats a delay in FO4 delays with two decimals.
func fo4(d float64) string { return strconv.FormatFloat(d, 'f', 2, 64) }

// Name returns the topology with its parameters, as in "ladner-fischer k=1".
func (s Stats) Name() string { return describe(s.Topology, s.Params) }

// Record returns the row's machine-readable fields: topology, params,
// width, depth, size, max_fanout, wire_tracks, deficiency, lateral_fanout,
// delay_fo4 (two decimals), fanout_histogram and cells_per_level (see
// Columns).
func (s Stats) Record() Record {
	return Record{
		{"topology", s.Topology}, {"params", s.Params}, {"width", s.Width}, {"depth", s.Depth}, {"size", s.Size},
		{"max_fanout", s.MaxFanout}, {"wire_tracks", s.WireTracks}, {"deficiency", s.Deficiency},
		{"lateral_fanout", s.LateralFanout}, {"delay_fo4", json.Number(fo4(s.DelayFO4))},
		{"fanout_histogram", s.FanoutHistogram}, {"cells_per_level", s.CellsPerLevel},
	}
}

// MarshalJSON encodes the row as one object, the fields of Record.
func (s Stats) MarshalJSON() ([]byte, error) { return s.Record().MarshalJSON() }

// StatsJSON writes one row as an indented JSON object.
func StatsJSON(w io.Writer, s Stats) error { return writeJSON(w, s) }

// StatsJSONArray writes the rows as an indented JSON array.
func StatsJSONArray(w io.Writer, rows []Stats) error {
	if rows == nil {
		rows = []Stats{}
	}
	return writeJSON(w, rows)
}

func writeJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}

// statsHeader names the columns of Table and CSV.
var statsHeader = []string{"topology", "width", "depth", "size", "max fan-out", "wire tracks", "deficiency", "lateral fan-out", "delay (FO4)"}

// cells returns the row's columns, in the order of statsHeader.
func (s Stats) cells() []string {
	return []string{s.Name(), strconv.Itoa(s.Width), strconv.Itoa(s.Depth), strconv.Itoa(s.Size),
		strconv.Itoa(s.MaxFanout), strconv.Itoa(s.WireTracks), strconv.Itoa(s.Deficiency),
		strconv.Itoa(s.LateralFanout), fo4(s.DelayFO4)}
}

// Table writes the rows as an aligned plain-text table: the topology left
// aligned, the figures right aligned.
func Table(w io.Writer, rows []Stats) error {
	lines := make([][]string, len(rows))
	for i, s := range rows {
		lines[i] = s.cells()
	}
	return WriteTable(w, statsHeader, lines)
}

// WriteTable writes an aligned plain-text table under a header: the first
// column left aligned, the others right aligned, two spaces apart. A row
// with more cells than the header has columns is an error, and nothing is
// written.
func WriteTable(w io.Writer, header []string, rows [][]string) error {
	for i, row := range rows {
		if len(row) > len(header) {
			return fmt.Errorf("emit: table row %d has %d cells for %d columns", i, len(row), len(header))
		}
	}
	widths := make([]int, len(header))
	for _, line := range append([][]string{header}, rows...) {
		for i, c := range line {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	bw := bufio.NewWriter(w)
	for _, line := range append([][]string{header}, rows...) {
		for i, c := range line {
			pad := strings.Repeat(" ", widths[i]-len([]rune(c)))
			if i == 0 {
				bw.WriteString(c + pad)
			} else {
				bw.WriteString("  " + pad + c)
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// CSV writes the rows as comma-separated values with a header line, the
// columns of Record under the names JSON uses.
func CSV(w io.Writer, rows []Stats) error {
	records := make([]Record, len(rows))
	for i, s := range rows {
		records[i] = s.Record()
	}
	return RecordsCSV(w, Stats{}.Record().Names(), records)
}

// Name names a network by its topology and parameters, as in
// "ladner-fischer k=1", or "network" when it has no topology name.
func Name(n *network.Network) string { return describe(n.Topology(), n.Params()) }

// describe names a network by topology and parameters.
func describe(topology string, p network.Params) string {
	if topology == "" {
		topology = "network"
	}
	if ps := p.Format(" "); ps != "" {
		return topology + " " + ps
	}
	return topology
}
