package pdk

import (
	"slices"
	"strings"
)

// Record is a platform's record of how a flow uses its library, as
// OpenROAD-flow-scripts keeps one in flow/platforms/PLATFORM/config.mk:
// the cells never to use, what ABC assumes drives the inputs and loads
// the outputs, and the cells that tie a constant and buffer a wire. A
// field left empty is not applied.
type Record struct {
	// Platform is the platform's name in OpenROAD-flow-scripts, as in
	// sky130hd.
	Platform string
	// DontUse are globs (* and ? as in path.Match) of the cells never to
	// use (DONT_USE_CELLS).
	DontUse []string
	// DriverCell is the cell ABC assumes drives every input
	// (ABC_DRIVER_CELL), and LoadFF the load ABC assumes on every output,
	// in fF (ABC_LOAD_IN_FF): what abc -constr reads.
	DriverCell string
	LoadFF     float64
	// TieHigh and TieLow are the cells and output pins that drive a
	// constant 1 and 0 (TIEHI_CELL_AND_PORT, TIELO_CELL_AND_PORT), for
	// Yosys's hilomap.
	TieHigh, TieLow CellPin
	// Buffer is the buffer cell and its pins (MIN_BUF_CELL_AND_PORTS),
	// for Yosys's insbuf.
	Buffer Buffer
}

// CellPin is a cell and one of its pins.
type CellPin struct {
	Cell, Pin string
}

// Buffer is a buffer cell and its input and output pins.
type Buffer struct {
	Cell, In, Out string
}

// records are the platforms' records, from OpenROAD-flow-scripts at commit
// 8c009b0b663703fc3fe2f474eab918b12fffbaf6,
// flow/platforms/{sky130hd,nangate45,asap7}/config.mk: DONT_USE_CELLS,
// ABC_DRIVER_CELL, ABC_LOAD_IN_FF, TIEHI_CELL_AND_PORT,
// TIELO_CELL_AND_PORT and MIN_BUF_CELL_AND_PORTS. ASAP7's cells carry the
// threshold voltage's tag ($(PRIMARY_VT_TAG) there), R here; RecordFor
// gives another threshold voltage its own. match reports whether a
// library, by the name its library group gives it, is the platform's.
var records = []struct {
	match  func(lib string) bool
	record Record
}{
	{
		match: func(lib string) bool { return strings.HasPrefix(lib, "sky130_fd_sc_hd__") },
		record: Record{
			Platform: "sky130hd",
			DontUse: []string{
				"sky130_fd_sc_hd__probe_p_8", "sky130_fd_sc_hd__probec_p_8",
				"sky130_fd_sc_hd__lpflow_bleeder_1",
				"sky130_fd_sc_hd__lpflow_clkbufkapwr_1", "sky130_fd_sc_hd__lpflow_clkbufkapwr_16",
				"sky130_fd_sc_hd__lpflow_clkbufkapwr_2", "sky130_fd_sc_hd__lpflow_clkbufkapwr_4",
				"sky130_fd_sc_hd__lpflow_clkbufkapwr_8",
				"sky130_fd_sc_hd__lpflow_clkinvkapwr_1", "sky130_fd_sc_hd__lpflow_clkinvkapwr_16",
				"sky130_fd_sc_hd__lpflow_clkinvkapwr_2", "sky130_fd_sc_hd__lpflow_clkinvkapwr_4",
				"sky130_fd_sc_hd__lpflow_clkinvkapwr_8",
				"sky130_fd_sc_hd__lpflow_decapkapwr_12", "sky130_fd_sc_hd__lpflow_decapkapwr_3",
				"sky130_fd_sc_hd__lpflow_decapkapwr_4", "sky130_fd_sc_hd__lpflow_decapkapwr_6",
				"sky130_fd_sc_hd__lpflow_decapkapwr_8",
				"sky130_fd_sc_hd__lpflow_inputiso0n_1", "sky130_fd_sc_hd__lpflow_inputiso0p_1",
				"sky130_fd_sc_hd__lpflow_inputiso1n_1", "sky130_fd_sc_hd__lpflow_inputiso1p_1",
				"sky130_fd_sc_hd__lpflow_inputisolatch_1",
				"sky130_fd_sc_hd__lpflow_isobufsrc_1", "sky130_fd_sc_hd__lpflow_isobufsrc_16",
				"sky130_fd_sc_hd__lpflow_isobufsrc_2", "sky130_fd_sc_hd__lpflow_isobufsrc_4",
				"sky130_fd_sc_hd__lpflow_isobufsrc_8",
				"sky130_fd_sc_hd__lpflow_isobufsrckapwr_16",
				"sky130_fd_sc_hd__lpflow_lsbuf_lh_hl_isowell_tap_1", "sky130_fd_sc_hd__lpflow_lsbuf_lh_hl_isowell_tap_2",
				"sky130_fd_sc_hd__lpflow_lsbuf_lh_hl_isowell_tap_4",
				"sky130_fd_sc_hd__lpflow_lsbuf_lh_isowell_4",
				"sky130_fd_sc_hd__lpflow_lsbuf_lh_isowell_tap_1", "sky130_fd_sc_hd__lpflow_lsbuf_lh_isowell_tap_2",
				"sky130_fd_sc_hd__lpflow_lsbuf_lh_isowell_tap_4",
			},
			DriverCell: "sky130_fd_sc_hd__buf_1",
			LoadFF:     5,
			TieHigh:    CellPin{"sky130_fd_sc_hd__conb_1", "HI"},
			TieLow:     CellPin{"sky130_fd_sc_hd__conb_1", "LO"},
			Buffer:     Buffer{"sky130_fd_sc_hd__buf_4", "A", "X"},
		},
	},
	{
		match: func(lib string) bool { return lib == "NangateOpenCellLibrary" },
		record: Record{
			Platform:   "nangate45",
			DontUse:    []string{"TAPCELL_X1", "FILLCELL_X1", "AOI211_X1", "OAI211_X1"},
			DriverCell: "BUF_X1",
			LoadFF:     3.898,
			TieHigh:    CellPin{"LOGIC1_X1", "Z"},
			TieLow:     CellPin{"LOGIC0_X1", "Z"},
			Buffer:     Buffer{"BUF_X1", "A", "Z"},
		},
	},
	{
		match: func(lib string) bool { return strings.HasPrefix(lib, "asap7sc7p5t_") },
		record: Record{
			Platform:   "asap7",
			DontUse:    []string{"*x1p*_ASAP7*", "*xp*_ASAP7*", "SDF*", "ICG*"},
			DriverCell: "BUFx2_ASAP7_75t_R",
			LoadFF:     3.898,
			TieHigh:    CellPin{"TIEHIx1_ASAP7_75t_R", "H"},
			TieLow:     CellPin{"TIELOx1_ASAP7_75t_R", "L"},
			Buffer:     Buffer{"BUFx2_ASAP7_75t_R", "A", "Y"},
		},
	},
}

// asap7VT maps the threshold voltage an ASAP7 library's name carries to
// the tag its cells' names end in.
var asap7VT = map[string]string{"RVT": "R", "LVT": "L", "SLVT": "SL", "SRAM": "SRAM"}

// RecordFor returns the record of the platform whose library has the name
// lib (its library group's: sky130_fd_sc_hd__tt_025C_1v80,
// NangateOpenCellLibrary, asap7sc7p5t_SIMPLE_RVT_TT_nldm_211120), or nil
// for a library of no platform known (the OSU libraries among them).
func RecordFor(lib string) *Record {
	for _, r := range records {
		if !r.match(lib) {
			continue
		}
		rec := r.record
		rec.DontUse = slices.Clone(rec.DontUse)
		if rec.Platform == "asap7" {
			for _, part := range strings.Split(lib, "_") {
				if tag, ok := asap7VT[part]; ok {
					vt := func(cell string) string { return strings.TrimSuffix(cell, "_R") + "_" + tag }
					rec.DriverCell = vt(rec.DriverCell)
					rec.TieHigh.Cell, rec.TieLow.Cell, rec.Buffer.Cell = vt(rec.TieHigh.Cell), vt(rec.TieLow.Cell), vt(rec.Buffer.Cell)
					break
				}
			}
		}
		return &rec
	}
	return nil
}

// Platforms returns the names of the platforms RecordFor knows.
func Platforms() []string {
	var names []string
	for _, r := range records {
		names = append(names, r.record.Platform)
	}
	return names
}
