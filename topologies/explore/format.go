package explore

import (
	"encoding/csv"
	"encoding/json"
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

// CSV writes the points as CSV with a header row, the columns of Table.
func CSV(w io.Writer, points []Point) error {
	cw := csv.NewWriter(w)
	cw.Write(columns)
	for _, p := range points {
		cw.Write(row(p))
	}
	cw.Flush()
	return cw.Error()
}

// pointJSON fixes the field names and order of the JSON form.
type pointJSON struct {
	Network    string         `json:"network"`
	Family     string         `json:"family"`
	Topology   string         `json:"topology"`
	Params     network.Params `json:"params"`
	Width      int            `json:"width"`
	Depth      int            `json:"depth"`
	Size       int            `json:"size"`
	MaxFanout  int            `json:"max_fanout"`
	WireTracks int            `json:"wire_tracks"`
	Deficiency int            `json:"deficiency"`
	Command    string         `json:"command"`
}

// JSON writes the points as an indented JSON array of objects with the
// fields network, family, topology, params, width, depth, size, max_fanout,
// wire_tracks, deficiency and command (the figures as in stats -f json).
func JSON(w io.Writer, points []Point) error {
	out := make([]pointJSON, len(points))
	for i, p := range points {
		params := p.Network.Params()
		if params == nil {
			params = network.Params{}
		}
		f := p.Figures
		out[i] = pointJSON{p.Name, p.Family, p.Network.Topology(), params, f.Width, f.Depth, f.Size,
			f.MaxFanout, f.WireTracks, f.Deficiency, p.Command}
	}
	data, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("explore: %v", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
