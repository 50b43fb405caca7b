package emit

import (
	"io"
	"strconv"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
)

// AdderStats are the figures of the adder that package adder builds around
// a network with an architecture: what stats --sparse and --valency print,
// and stats --from an adder's document. Depth and Cells count levels and
// gates of the adder's carry tree, a cell of valency k once, and only the
// cells its carries need.
type AdderStats struct {
	Topology string
	Params   network.Params
	Width    int
	// Adder is the adder measured, in its normal form.
	Adder adder.Architecture
	adder.Figures
}

// NewAdderStats measures the adder of architecture arch around net, its
// library cells (PGCells, FACells) the stand-ins adder.Describe takes
// without a library's.
func NewAdderStats(net *network.Network, arch adder.Architecture) (AdderStats, error) {
	a := arch.Normal()
	d, err := adder.Describe(net, a, nil)
	if err != nil {
		return AdderStats{}, err
	}
	return AdderStats{Topology: net.Topology(), Params: net.Params(), Width: net.Width(), Adder: a, Figures: d.Figures}, nil
}

// Record returns the row's machine-readable fields: topology, params,
// width, sparse, valency, depth, size, max_fanout, wire_tracks,
// black_cells, gray_cells,
// binary_cells, select_blocks and select_muxes (see Columns).
func (s AdderStats) Record() Record {
	return Record{
		{"topology", s.Topology}, {"params", s.Params}, {"width", s.Width}, {"sparse", s.Adder.Sparse}, {"valency", s.Adder.Valency},
		{"depth", s.Depth}, {"size", s.Cells}, {"max_fanout", s.MaxFanout}, {"wire_tracks", s.WireTracks}, {"black_cells", s.Black}, {"gray_cells", s.Gray},
		{"binary_cells", s.BinaryCells}, {"select_blocks", s.Groups}, {"select_muxes", s.Muxes},
	}
}

// MarshalJSON encodes the row as one object, the fields of Record.
func (s AdderStats) MarshalJSON() ([]byte, error) { return s.Record().MarshalJSON() }

// adderStatsHeader names the columns of AdderStatsTable.
var adderStatsHeader = []string{"topology", "width", "sparse", "valency", "depth", "size", "max fan-out", "wire tracks", "black", "gray", "binary cells", "select blocks", "select muxes"}

// AdderStatsTable writes the rows as a table with prose headers.
func AdderStatsTable(w io.Writer, rows []AdderStats) error {
	cells := make([][]string, len(rows))
	for i, s := range rows {
		label := describe(s.Topology, s.Params)
		// The columns give the sparseness and valency; the label names the
		// architecture's other parts (ling, facells, …).
		rest := s.Adder
		rest.Sparse, rest.Valency = 1, 2
		if name := rest.Normal().Name(); name != "" {
			label += ", " + name
		}
		cells[i] = []string{label, strconv.Itoa(s.Width), strconv.Itoa(s.Adder.Sparse), strconv.Itoa(s.Adder.Valency),
			strconv.Itoa(s.Depth), strconv.Itoa(s.Cells), strconv.Itoa(s.MaxFanout), strconv.Itoa(s.WireTracks), strconv.Itoa(s.Black), strconv.Itoa(s.Gray),
			strconv.Itoa(s.BinaryCells), strconv.Itoa(s.Groups), strconv.Itoa(s.Muxes)}
	}
	return WriteTable(w, adderStatsHeader, cells)
}

// AdderStatsCSV writes the rows as CSV under the names of Record.
func AdderStatsCSV(w io.Writer, rows []AdderStats) error {
	records := make([]Record, len(rows))
	for i, s := range rows {
		records[i] = s.Record()
	}
	return RecordsCSV(w, AdderStats{}.Record().Names(), records)
}

// AdderStatsJSON writes one row as an indented JSON object.
func AdderStatsJSON(w io.Writer, s AdderStats) error { return writeJSON(w, s) }

// AdderStatsJSONArray writes the rows as an indented JSON array.
func AdderStatsJSONArray(w io.Writer, rows []AdderStats) error {
	if rows == nil {
		rows = []AdderStats{}
	}
	return writeJSON(w, rows)
}
