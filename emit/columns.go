package emit

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// Column is one machine-readable column of the tables the commands print
// (stats, compare, explore, synth): one snake_case Name, which is both the
// CSV header and the JSON key everywhere, the Header a human table prints
// above it, what it means, and its unit.
type Column struct {
	Name    string // snake_case ASCII: the CSV header and the JSON key
	Header  string // the prose header of a human table
	Meaning string
	Unit    string // "" where the value has none
}

// Columns lists every machine-readable column, once. A command that prints
// a new figure adds its column here (and a row to the README's table, which
// a test compares with this list); Records then write it under the same
// name in CSV and JSON.
var Columns = []Column{
	{"network", "network", "the network's name: its topology and parameters, as in \"ladner-fischer k=1\"", ""},
	{"family", "from", "where the network came from: a topology family, or the optimizer", ""},
	{"topology", "topology", "the topology name that rebuilds the network with -t (\"\" for your own)", ""},
	{"params", "params", "the topology's parameters; CSV: name=value pairs joined by ';'", ""},
	{"width", "width", "number of inputs n (bits of the adder)", "inputs"},
	{"depth", "depth", "levels of cells on the longest path, as soon as possible", "cells"},
	{"size", "size", "number of prefix cells", "cells"},
	{"max_fanout", "max fan-out", "most readers of one signal: cells reading it, +1 if it is an output (logical, unbuffered)", "readers"},
	{"wire_tracks", "wire tracks", "most distinct long wires crossing one column boundary in one level", "wires"},
	{"deficiency", "deficiency", "size + depth − (2n − 2); Snir: never negative", "cells"},
	{"lateral_fanout", "lateral fan-out", "Harris's lateral fan-out: most cells of one level reading one signal as their low operand, +1", "readers"},
	{"delay_fo4", "delay (FO4)", "the logical-effort model's delay of the adder around the network on the OSU 0.18 µm cells (package delay)", "FO4"},
	{"sparse", "sparse", "the adder's sparseness: its carry tree computes the carry into every s-th bit, s-bit carry-select blocks the rest (stats, synth and explore --synth, --sparse)", "bits"},
	{"valency", "valency", "the most inputs of one cell of the adder's carry tree (stats, synth and explore --synth, --valency)", "inputs"},
	{"ling", "Ling", "whether the adder's tree computes Ling's pseudo-carries (synth and explore --synth, --ling)", "—"},
	{"stages", "stages", "the adder's register stages (synth --stages; 0: combinational)", "stages"},
	{"no_reset", "no reset", "whether the adder's registers have no reset (synth --no-reset)", "—"},
	{"pg_cells", "pg cells", "whether each bit's generate and propagate are the library's NAND2 and OAI21 cells (synth and explore --synth, --pg-cells)", "—"},
	{"fa_cells", "fa cells", "whether the bits the network joins one at a time are the library's full adders (synth and explore --synth, --fa-cells)", "—"},
	{"increment", "increment", "whether the carry-select blocks of full adders are carry-increment blocks (synth and explore --synth, --increment)", "—"},
	{"black_cells", "black", "cells of the adder that compute G and P", "cells"},
	{"gray_cells", "gray", "cells of the adder that compute G only", "cells"},
	{"binary_cells", "binary cells", "the adder's cells counted as the binary cells of the network (a cell of valency k is k − 1 of them)", "cells"},
	{"select_blocks", "select blocks", "carry-select blocks of a sparse adder", "blocks"},
	{"select_muxes", "select muxes", "sum multiplexers of the carry-select blocks", "multiplexers"},
	{"fanout_histogram", "fan-out histogram", "entry f: how many signals have fan-out f; CSV: joined by ';'", "signals"},
	{"cells_per_level", "cells per level", "entry l: how many cells sit at level l (entry 0, the inputs' level, is always 0); CSV: joined by ';'", "cells"},
	{"command", "command", "the prefixgen command that rebuilds the network", ""},
	{"area_um2", "area (µm²)", "cell area after synthesis onto the Liberty library (the sum Yosys's stat -liberty gives)", "µm²"},
	{"delay_ns", "delay (ns)", "worst input-to-output arrival after synthesis (OpenSTA); for a design with flip-flops the least clock period", "ns"},
	{"std_cells", "std cells", "standard cells after synthesis", "cells"},
	{"registers", "registers", "flip-flops after synthesis: 0 for a combinational adder, more for a pipelined one (--stages) or a user's module with registers (synth --verilog)", "flip-flops"},
	{"redundant_um2", "redundant (µm²)", "area of mapped cells that compute a signal the netlist already carries, or its complement", "µm²"},
	{"critical_from", "critical path", "start point of the worst path", ""},
	{"critical_to", "critical path", "end point of the worst path", ""},
	{"liberty", "liberty", "the Liberty library synthesized onto", ""},
	{"flow", "flow", "the synthesis flow (keep: the network's cells kept; abc: re-optimized)", ""},
	{"output_load_pf", "output load (pF)", "capacitance put on every output for timing", "pF"},
	{"yosys_version", "Yosys", "the Yosys that synthesized", ""},
	{"sta_version", "OpenSTA", "the OpenSTA that timed", ""},
	{"on_front", "front", "whether no other measured network is at least as small and as fast and better in one (explore --synth)", ""},
	{"network_json", "network", "the network as a one-line prefixgen.network/v1 document (gen --from reads it back)", ""},
	{"orders", "orders", "reorderings of the design's generic netlist measured besides the design as written (synth --orders)", "designs"},
	{"area_um2_median", "area median (µm²)", "median area over the design as written and its reorderings (synth --orders)", "µm²"},
	{"area_um2_min", "area min (µm²)", "least area over them", "µm²"},
	{"area_um2_max", "area max (µm²)", "greatest area over them", "µm²"},
	{"delay_ns_median", "delay median (ns)", "median delay over the design as written and its reorderings (synth --orders)", "ns"},
	{"delay_ns_min", "delay min (ns)", "least delay over them", "ns"},
	{"delay_ns_max", "delay max (ns)", "greatest delay over them", "ns"},
	{"cell_counts", "cells", "mapped cells by library cell name; CSV: name=count pairs joined by ';'", "cells"},
}

// LookupColumn returns the column called name.
func LookupColumn(name string) (Column, bool) {
	i := slices.IndexFunc(Columns, func(c Column) bool { return c.Name == name })
	if i < 0 {
		return Column{}, false
	}
	return Columns[i], true
}

// Field is one column's value in a Record. Value is a string, an int, a
// float64, a bool, a []int, a network.Params, a map[string]int or a
// json.RawMessage (a JSON value, written as it is in CSV too); anything
// else is written with fmt's %v.
type Field struct {
	Column string
	Value  any
}

// Record is one row of a machine-readable table: its fields in column
// order. RecordsCSV and RecordsJSON write the same names, so a CSV header
// and the keys of the JSON objects always agree.
type Record []Field

// Names returns the record's column names in order.
func (r Record) Names() []string {
	names := make([]string, len(r))
	for i, f := range r {
		names[i] = f.Column
	}
	return names
}

// check reports a column that is not in Columns, which is a programming
// error caught by the tests.
func (r Record) check() error {
	for _, f := range r {
		if _, ok := LookupColumn(f.Column); !ok {
			return fmt.Errorf("emit: column %q is not listed in emit.Columns", f.Column)
		}
	}
	return nil
}

// MarshalJSON encodes the record as one JSON object, keys in column order.
func (r Record) MarshalJSON() ([]byte, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(f.Column)
		b.Write(key)
		b.WriteByte(':')
		v := f.Value
		switch x := v.(type) {
		case network.Params:
			if x == nil {
				v = network.Params{}
			}
		case map[string]int:
			if x == nil {
				v = map[string]int{}
			}
		case []int:
			if x == nil {
				v = []int{}
			}
		}
		data, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		b.Write(data)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// csvValue writes one value as a CSV cell.
func csvValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "" // null in JSON: not known
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []int:
		s := make([]string, len(x))
		for i, n := range x {
			s[i] = strconv.Itoa(n)
		}
		return strings.Join(s, ";")
	case network.Params:
		return x.Format(";")
	case map[string]int:
		return network.Params(x).Format(";")
	case json.RawMessage:
		return string(x)
	}
	return fmt.Sprint(v)
}

// RecordsCSV writes the records as comma-separated values under a header
// of their column names (header names the columns when there are no
// records).
func RecordsCSV(w io.Writer, header []string, records []Record) error {
	if len(records) > 0 {
		header = records[0].Names()
	}
	cw := csv.NewWriter(w)
	cw.Write(header)
	for _, r := range records {
		if err := r.check(); err != nil {
			return err
		}
		if !slices.Equal(r.Names(), header) {
			return fmt.Errorf("emit: a CSV record has columns %v, not %v", r.Names(), header)
		}
		line := make([]string, len(r))
		for i, f := range r {
			line[i] = csvValue(f.Value)
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}

// RecordsJSON writes the records as an indented JSON array of objects.
func RecordsJSON(w io.Writer, records []Record) error {
	if records == nil {
		records = []Record{}
	}
	return writeJSON(w, records)
}

// RecordJSON writes one record as an indented JSON object.
func RecordJSON(w io.Writer, r Record) error { return writeJSON(w, r) }
