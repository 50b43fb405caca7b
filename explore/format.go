package explore

import (
	"fmt"
	"io"
	"strconv"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/network"
)

// columns are the columns of Table and CSV.
var columns = []string{"network", "from", "width", "depth", "size", "max fan-out", "wire tracks", "deficiency", "command"}

func row(p Point) []string {
	f := p.Figures
	return []string{p.Name, p.Family, strconv.Itoa(f.Width), strconv.Itoa(f.Depth), strconv.Itoa(f.Size),
		strconv.Itoa(f.MaxFanout), strconv.Itoa(f.WireTracks), strconv.Itoa(f.Deficiency), p.Command}
}

// Table writes the points as an aligned table, one row each: name, family,
// width, depth, size, max fan-out, wire tracks, deficiency and the command
// that rebuilds the network.
func Table(w io.Writer, points []Point) error {
	rows := make([][]string, len(points))
	for i, p := range points {
		rows[i] = row(p)
	}
	return emit.WriteTable(w, columns, rows)
}

// Record returns the point's machine-readable fields: network, family,
// topology, params, width, depth, size, max_fanout, wire_tracks, deficiency
// and command (see emit.Columns).
func (p Point) Record() emit.Record {
	f := p.Figures
	var topology string
	var params network.Params
	if p.Network != nil {
		topology, params = p.Network.Topology(), p.Network.Params()
	}
	return emit.Record{
		{Column: "network", Value: p.Name}, {Column: "family", Value: p.Family},
		{Column: "topology", Value: topology}, {Column: "params", Value: params},
		{Column: "width", Value: f.Width}, {Column: "depth", Value: f.Depth}, {Column: "size", Value: f.Size},
		{Column: "max_fanout", Value: f.MaxFanout}, {Column: "wire_tracks", Value: f.WireTracks},
		{Column: "deficiency", Value: f.Deficiency}, {Column: "command", Value: p.Command},
	}
}

// records returns the points' records.
func records(points []Point) []emit.Record {
	out := make([]emit.Record, len(points))
	for i, p := range points {
		out[i] = p.Record()
	}
	return out
}

// CSV writes the points as CSV with a header row: the columns of Record,
// under the names JSON uses.
func CSV(w io.Writer, points []Point) error {
	return emit.RecordsCSV(w, Point{}.Record().Names(), records(points))
}

// JSON writes the points as an indented JSON array of objects with the
// fields of Record (the figures as in stats -f json).
func JSON(w io.Writer, points []Point) error {
	if err := emit.RecordsJSON(w, records(points)); err != nil {
		return fmt.Errorf("explore: %w", err)
	}
	return nil
}
