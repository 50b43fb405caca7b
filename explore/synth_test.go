package explore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
)

// measured gives the first points at width 8 made-up areas and delays.
func measured(t *testing.T, ad ...[2]float64) []explore.Measured {
	t.Helper()
	points := enumerate(t, 8, explore.Options{})
	require.GreaterOrEqual(t, len(points), len(ad))
	out := make([]explore.Measured, len(ad))
	for i, v := range ad {
		out[i] = explore.Measured{Point: points[i], Adder: adder.Standard, Result: &physical.Result{
			Topology: points[i].Network.Topology(), Params: points[i].Network.Params(), Width: 8, Adder: adder.Standard,
			AreaUM2: v[0], DelayNS: v[1], StdCells: 10 + i, CriticalFrom: "a[0]", CriticalTo: "sum[7]",
			Liberty: "/lib/cells.lib", Flow: physical.Keep, OutputLoadPF: 0.01, YosysVersion: "Yosys 0.23", STAVersion: "2.0.17",
		}}
	}
	return out
}

func TestAreaDelayFront(t *testing.T) {
	m := measured(t,
		[2]float64{100, 5}, // dominated by the next
		[2]float64{90, 4},  // front
		[2]float64{200, 1}, // front: fastest
		[2]float64{90, 4},  // equal to an earlier one: off
		[2]float64{50, 9},  // front: smallest
		[2]float64{60, 4},  // front, and dominates [90, 4]
	)
	front := explore.AreaDelayFront(m)
	var on []bool
	for _, p := range m {
		on = append(on, p.OnFront)
	}
	assert.Equal(t, []bool{false, false, true, false, true, true}, on)
	require.Len(t, front, 3)
	assert.Equal(t, []float64{1, 4, 9}, []float64{front[0].Result.DelayNS, front[1].Result.DelayNS, front[2].Result.DelayNS})
	assert.Equal(t, m[5].Name, front[1].Name)

	// Of two equal points, dominated by no other, the first alone is on the front.
	twins := measured(t, [2]float64{90, 4}, [2]float64{90, 4})
	front = explore.AreaDelayFront(twins)
	require.Len(t, front, 1)
	assert.Equal(t, []bool{true, false}, []bool{twins[0].OnFront, twins[1].OnFront})
}

// TestAreaDelayFrontMedians takes the front over medians when the points
// were measured in several orders of their gates: a lucky draw as written
// does not put a point on it, and the table, JSON and CSV carry the spread.
func TestAreaDelayFrontMedians(t *testing.T) {
	m := measured(t,
		[2]float64{100, 2}, // median 100, 2: front
		[2]float64{90, 2},  // a lucky draw: median 120, 2.5, dominated
		[2]float64{80, 3},  // median 80, 3: front
	)
	medians := [][2]float64{{100, 2}, {120, 2.5}, {80, 3}}
	for i := range m {
		m[i].Result.Spread = &physical.Spread{Orders: 2, AreaMedian: medians[i][0], AreaMin: medians[i][0] - 10, AreaMax: medians[i][0] + 10,
			DelayMedian: medians[i][1], DelayMin: medians[i][1], DelayMax: medians[i][1] + 0.5}
	}
	explore.AreaDelayFront(m)
	assert.Equal(t, []bool{true, false, true}, []bool{m[0].OnFront, m[1].OnFront, m[2].OnFront})

	var table bytes.Buffer
	require.NoError(t, explore.MeasuredTable(&table, m, nil))
	assert.Contains(t, table.String(), "area median (min–max)")
	assert.Contains(t, table.String(), "120 (110–130)")
	assert.Contains(t, table.String(), "the front is taken over medians of each design as written and 2 orders of its generic netlist's gates (--orders)")
	var csv bytes.Buffer
	require.NoError(t, explore.MeasuredCSV(&csv, m))
	assert.Contains(t, strings.SplitN(csv.String(), "\n", 2)[0], ",delay_ns,orders,area_um2_median,")
	assert.Equal(t, 120.0, field(t, m[1].Record(), "area_um2_median"))
	assert.Equal(t, 90.0, field(t, m[1].Record(), "area_um2"), "area_um2 stays the design as written")
}

func TestMeasuredFormats(t *testing.T) {
	m := measured(t, [2]float64{100, 2.5}, [2]float64{80, 3.25})
	explore.AreaDelayFront(m)
	ref := &physical.Result{Topology: physical.Reference, Width: 8, AreaUM2: 120, DelayNS: 3, StdCells: 30}

	var table bytes.Buffer
	require.NoError(t, explore.MeasuredTable(&table, m, ref))
	lines := strings.Split(strings.TrimSpace(table.String()), "\n")
	require.Len(t, lines, 5, table.String())
	assert.Regexp(t, `^network\s+from\s+width\s+depth\s+size\s+max fan-out\s+wire tracks\s+sparse\s+area \(µm²\)\s+delay \(ns\)\s+std cells\s+redundant \(µm²\)\s+critical path\s+front\s+command$`, lines[0])
	assert.Regexp(t, `\s100\s+2\.500\s+10\s+0\s+a\[0\] → sum\[7\]\s+\*\s+prefixgen gen `, lines[1])
	assert.Equal(t, "yosys a+b+cin: 120 µm², 3.000 ns, 30 std cells", lines[3])
	assert.Equal(t, "flow keep, liberty /lib/cells.lib, 0.01 pF on every output; Yosys 0.23, OpenSTA 2.0.17", lines[4])

	var csv bytes.Buffer
	require.NoError(t, explore.MeasuredCSV(&csv, m))
	rows := strings.Split(strings.TrimSpace(csv.String()), "\n")
	require.Len(t, rows, 3)
	assert.Equal(t, "network,family,topology,params,width,depth,size,max_fanout,wire_tracks,deficiency,sparse,valency,ling,stages,no_reset,pg_cells,fa_cells,increment,area_um2,delay_ns,std_cells,registers,redundant_um2,critical_from,critical_to,on_front,liberty,flow,output_load_pf,yosys_version,sta_version,command,network_json", rows[0])
	assert.Contains(t, rows[1], ",1,2,false,0,false,false,false,false,100,2.5,10,0,0,a[0],sum[7],true,/lib/cells.lib,keep,")

	var js bytes.Buffer
	require.NoError(t, explore.MeasuredJSON(&js, m))
	var objs []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(js.Bytes(), &objs), js.String())
	require.Len(t, objs, 2)
	for _, key := range []string{"network", "topology", "params", "width", "depth", "size", "max_fanout", "wire_tracks", "deficiency", "area_um2", "delay_ns", "on_front", "network_json"} {
		assert.Contains(t, objs[0], key)
	}
	// The network document reads back as the same network.
	for i, o := range objs {
		net, err := network.Unmarshal(o["network_json"])
		require.NoError(t, err)
		assert.Equal(t, m[i].Network.Spec(), net.Spec())
	}
	assert.Equal(t, "true", string(objs[0]["on_front"]))

	var empty bytes.Buffer
	require.NoError(t, explore.MeasuredJSON(&empty, nil))
	assert.Equal(t, "[]\n", empty.String())

	// Yosys's a + b + cin, the table's footer, is a row of its own for
	// scripts: no network's figures, architecture, front or command.
	ref.Liberty, ref.Flow, ref.CriticalFrom, ref.CriticalTo = "/lib/cells.lib", physical.Keep, "a[0]", "sum[7]"
	withRef := append(slices.Clone(m), explore.ReferenceRow(ref))
	csv.Reset()
	require.NoError(t, explore.MeasuredCSV(&csv, withRef))
	rows = strings.Split(strings.TrimSpace(csv.String()), "\n")
	require.Len(t, rows, 4)
	assert.True(t, strings.HasPrefix(rows[3], "yosys a+b+cin,yosys,yosys,,8,,,,,,,,,,,,,,120,3,30,0,0,a[0],sum[7],,/lib/cells.lib,keep,"), rows[3])
	assert.True(t, strings.HasSuffix(rows[3], ",,"), "no command, no network: %s", rows[3])
	js.Reset()
	require.NoError(t, explore.MeasuredJSON(&js, withRef))
	objs = nil
	require.NoError(t, json.Unmarshal(js.Bytes(), &objs), js.String())
	require.Len(t, objs, 3)
	for _, key := range []string{"depth", "size", "sparse", "ling", "on_front", "command", "network_json"} {
		assert.Equal(t, "null", string(objs[2][key]), key)
	}
	assert.Equal(t, `"yosys a+b+cin"`, string(objs[2]["network"]))
	assert.Equal(t, "120", string(objs[2]["area_um2"]))
}

// TestMeasuredRedundantDigits checks that a point's redundant area is
// written with the digits of the library's areas, not the rounding errors
// of their sum.
func TestMeasuredRedundantDigits(t *testing.T) {
	m := measured(t, [2]float64{100, 2.5})
	m[0].Result.RedundantUM2 = 221.46240000000023
	var csv bytes.Buffer
	require.NoError(t, explore.MeasuredCSV(&csv, m))
	assert.Contains(t, csv.String(), ",100,2.5,10,0,221.4624,a[0],sum[7],")
}

// A pipelined adder's table has a registers column and says what its delay
// is; its command writes the pipelined Verilog.
func TestMeasuredPipelined(t *testing.T) {
	m := measured(t, [2]float64{100, 2.5}, [2]float64{80, 3.25})
	for i := range m {
		m[i].Adder.Stages, m[i].Adder.NoReset = 2, true
		m[i].Result.Adder, m[i].Result.Registers = m[i].Adder, 17+i
	}
	explore.AreaDelayFront(m)
	assert.Equal(t, "stages=2 noreset", m[0].AdderName())
	assert.Equal(t, "prefixgen gen -t ripple -n 8 -f verilog --stages 2 --no-reset", m[0].AdderCommand())
	m[1].Adder.Sparse, m[1].Adder.Ling, m[1].Adder.Stages, m[1].Adder.NoReset = 2, true, 1, false
	assert.Equal(t, "sparse=2 ling stages=1", m[1].AdderName())
	cells := m[1]
	cells.Adder.Stages, cells.Adder.PGCells = 0, true
	assert.Equal(t, "sparse=2 ling pgcells", cells.AdderName(), "as synth names it")
	assert.Equal(t, "prefixgen gen -t kogge-stone -n 8 -f verilog --sparse 2 --ling --pg-cells --liberty /lib/cells.lib", cells.AdderCommand(),
		"the cells are those of the library measured")
	cells.Adder.Sparse, cells.Adder.Ling = 1, false
	r := *cells.Result
	r.Liberty = physical.LibertyFile("")
	cells.Result = &r
	assert.Equal(t, "prefixgen gen -t kogge-stone -n 8 -f verilog --pg-cells", cells.AdderCommand(), "a dense adder of cells needs its Verilog too; the default library goes without saying")
	m[1].Adder.Sparse, m[1].Adder.Ling, m[1].Adder.Stages, m[1].Adder.NoReset = 1, false, 2, true
	opt := m[1]
	opt.Command = "prefixgen optimize -n 8 --max-depth 4 --seed 1 -f json"
	assert.Equal(t, "prefixgen optimize -n 8 --max-depth 4 --seed 1 -f json -o network.json && prefixgen gen --from network.json -f verilog --stages 2 --no-reset", opt.AdderCommand(),
		"optimize cannot write the pipelined adder: gen reads its network")

	var table bytes.Buffer
	require.NoError(t, explore.MeasuredTable(&table, m, nil))
	lines := strings.Split(strings.TrimSpace(table.String()), "\n")
	assert.Regexp(t, `\sstd cells\s+registers\s+redundant \(µm²\)\s`, lines[0])
	assert.Regexp(t, `\s100\s+2\.500\s+10\s+17\s+0\s+a\[0\] → sum\[7\]\s+\*\s+prefixgen gen -t ripple -n 8 -f verilog --stages 2 --no-reset$`, lines[1])
	assert.Contains(t, table.String(), "the adders are pipelined (stages=2 noreset; Yosys's a + b + cin is not): a delay is the least clock period")
	assert.Equal(t, 2, field(t, m[0].Record(), "stages"))
	assert.Equal(t, true, field(t, m[0].Record(), "no_reset"))
	assert.Equal(t, 18, field(t, m[1].Record(), "registers"))

	// One stage is a pipeline too: its table has the registers column.
	one := measured(t, [2]float64{100, 2})
	one[0].Adder.Stages = 1
	table.Reset()
	require.NoError(t, explore.MeasuredTable(&table, one, nil))
	assert.Regexp(t, `\sstd cells\s+registers\s+redundant \(µm²\)\s`, strings.SplitN(table.String(), "\n", 2)[0])
}

// A radix-k point's command builds the radix-k adder already: the adder's
// command adds its other flags, not --valency again, and its record says
// the valency.
func TestMeasuredValency(t *testing.T) {
	points := enumerate(t, 8, explore.Options{Valencies: []int{3}})
	m := explore.Measured{Point: points[0], Adder: adder.Architecture{Flags: adder.Carry, Sparse: 1, Valency: 3}, Result: &physical.Result{}}
	assert.Equal(t, "prefixgen gen -t kogge-stone -n 8 --valency 3", m.AdderCommand())
	assert.Equal(t, 3, field(t, m.Record(), "valency"))
	m.Adder.Sparse, m.Adder.PGCells = 2, true
	assert.Equal(t, "prefixgen gen -t kogge-stone -n 8 --valency 3 -f verilog --sparse 2 --pg-cells", m.AdderCommand())
	binary := measured(t, [2]float64{1, 1})[0]
	assert.Equal(t, 2, field(t, binary.Record(), "valency"))

	// A file's radix-3 network is read by gen --from, which builds it
	// with binary cells but for --valency 3.
	file := m
	file.Family, file.Command = explore.FileFamily, "prefixgen gen --from ks3.json"
	file.Adder = adder.Architecture{Flags: adder.Carry, Sparse: 1, Valency: 3}
	assert.Equal(t, "prefixgen gen --from ks3.json -f verilog --valency 3", file.AdderCommand())
	file.Adder.Sparse = 2
	assert.Equal(t, "prefixgen gen --from ks3.json -f verilog --sparse 2 --valency 3", file.AdderCommand())
	// A file's adder of library cells is rebuilt in the library measured,
	// the default one included: gen --from takes the file's own library
	// (a document made for asap7 measured on osu018).
	file.Adder.PGCells = true
	file.Result = &physical.Result{Liberty: physical.LibertyFile("")}
	assert.Equal(t, "prefixgen gen --from ks3.json -f verilog --sparse 2 --valency 3 --pg-cells --liberty osu018", file.AdderCommand())
	file.Result.Liberty = "/lib/x.lib"
	assert.Equal(t, "prefixgen gen --from ks3.json -f verilog --sparse 2 --valency 3 --pg-cells --liberty /lib/x.lib", file.AdderCommand())
	m.Result = &physical.Result{Liberty: physical.LibertyFile("")}
	assert.Equal(t, "prefixgen gen -t kogge-stone -n 8 --valency 3 -f verilog --sparse 2 --pg-cells", m.AdderCommand(), "a family's takes the default")
}

// Each gives a radix-k point every architecture but a dense adder of full
// adders (FACells at sparse 1), which has no binary cells to put them on,
// and gives each the point's valency; a binary point gets them all as they are.
func TestEach(t *testing.T) {
	radix := enumerate(t, 8, explore.Options{Valencies: []int{3}})[0]
	binary := enumerate(t, 8, explore.Options{})[0]
	archs := []adder.Architecture{{FACells: true, Sparse: 1}, {FACells: true, Sparse: 2}, {Sparse: 1}}
	var got []adder.Architecture
	for _, m := range explore.Each([]explore.Point{radix, binary}, archs) {
		got = append(got, m.Adder)
	}
	assert.Equal(t, []adder.Architecture{
		{FACells: true, Sparse: 2, Valency: 3}, {Sparse: 1, Valency: 3},
		{FACells: true, Sparse: 1}, {FACells: true, Sparse: 2}, {Sparse: 1},
	}, got)
}

// TestSynthesizeValency measures the radix-3 networks of width 8 with
// cells of three inputs, as gen --valency 3 builds them, whatever valency
// the architectures ask for.
func TestSynthesizeValency(t *testing.T) {
	needFlow(t)
	points := enumerate(t, 8, explore.Options{Valencies: []int{3}})
	m, _, err := explore.SynthesizeAdders(context.Background(), points, sparse(adder.Standard, 1, 2), nil, physical.Options{})
	require.NoError(t, err)
	require.Len(t, m, 2*len(points))
	for _, r := range m {
		assert.Equal(t, 3, r.Adder.Valency, r.Name)
		assert.Equal(t, 3, r.Result.Adder.Valency, r.Name)
	}
	assert.Equal(t, "kogge-stone v=3 sparse=2", m[1].Result.Name())
}

// TestSynthesize runs every network of width 4 through the flow.
func TestSynthesize(t *testing.T) {
	needFlow(t)
	points := enumerate(t, 4, explore.Options{})
	m, ref, err := explore.Synthesize(context.Background(), points, physical.Options{})
	require.NoError(t, err)
	require.Len(t, m, len(points))
	assert.Equal(t, physical.Reference, ref.Topology)
	assert.Equal(t, 4, ref.Width)
	front := 0
	for i, p := range m {
		assert.Equal(t, points[i].Name, p.Name)
		assert.Equal(t, p.Network.Topology(), p.Result.Topology)
		assert.Positive(t, p.Result.DelayNS)
		if p.OnFront {
			front++
		}
	}
	assert.Positive(t, front)
	_, _, err = explore.Synthesize(context.Background(), nil, physical.Options{})
	assert.Error(t, err)
}

// TestSynthesizeSparse measures every network of width 8 dense and sparse-4:
// one row each, in order, the sparse adder a different circuit carrying its
// sparseness in its record, the front taken over both.
func TestSynthesizeSparse(t *testing.T) {
	needFlow(t)
	points := enumerate(t, 8, explore.Options{})[:3] // ripple, kogge-stone, brent-kung
	m, _, err := explore.SynthesizeAdders(context.Background(), points, sparse(adder.Standard, 1, 4), nil, physical.Options{})
	require.NoError(t, err)
	require.Len(t, m, 2*len(points))
	for i, p := range points {
		dense, sparse := m[2*i], m[2*i+1]
		assert.Equal(t, p.Name, dense.Name)
		assert.Equal(t, p.Name, sparse.Name)
		assert.Equal(t, 1, dense.Adder.Sparse)
		assert.Equal(t, 4, sparse.Adder.Sparse)
		assert.NotContains(t, dense.Result.Params, "sparse")
		assert.Equal(t, 4, sparse.Result.Adder.Sparse)
		assert.NotContains(t, sparse.Result.Params, "sparse", "sparseness is not a topology parameter")
		assert.NotEqual(t, [2]float64{dense.Result.AreaUM2, dense.Result.DelayNS}, [2]float64{sparse.Result.AreaUM2, sparse.Result.DelayNS}, p.Name)
		rec := sparse.Record()
		assert.Equal(t, field(t, rec, "sparse"), 4)
		assert.Equal(t, field(t, rec, "command"), p.Command+" -f verilog --sparse 4")
		assert.Equal(t, field(t, dense.Record(), "command"), p.Command)
	}
	// Kogge–Stone is the fastest dense adder; its sparse-4 form is smaller
	// than it, so both are on the front.
	assert.True(t, m[2].OnFront)
	assert.True(t, m[3].OnFront)
	assert.Less(t, m[3].Result.AreaUM2, m[2].Result.AreaUM2)
}

// TestSynthesizeLing measures networks of width 8 as Ling adders, sparse
// and dense: each a different circuit from its plain adder, saying so in
// its result, its record and its command.
func TestSynthesizeLing(t *testing.T) {
	needFlow(t)
	points := enumerate(t, 8, explore.Options{})[1:3] // kogge-stone, brent-kung
	plain, _, err := explore.SynthesizeAdders(context.Background(), points, sparse(adder.Standard, 1, 2), nil, physical.Options{})
	require.NoError(t, err)
	lingArch := adder.Standard
	lingArch.Ling = true
	ling, _, err := explore.SynthesizeAdders(context.Background(), points, sparse(lingArch, 1, 2), nil, physical.Options{})
	require.NoError(t, err)
	require.Len(t, ling, 2*len(points))
	for i, m := range ling {
		p := points[i/2]
		sparse := []int{1, 2}[i%2]
		assert.Equal(t, p.Name, m.Name)
		assert.True(t, m.Adder.Ling)
		assert.True(t, m.Result.Adder.Ling, "the result says it is a Ling adder")
		assert.Equal(t, sparse, m.Result.Adder.Sparse)
		assert.False(t, plain[i].Adder.Ling)
		assert.False(t, plain[i].Result.Adder.Ling)
		assert.NotEqual(t, [2]float64{plain[i].Result.AreaUM2, plain[i].Result.DelayNS}, [2]float64{m.Result.AreaUM2, m.Result.DelayNS}, "%s sparse %d", p.Name, sparse)
		rec := m.Record()
		assert.Equal(t, true, field(t, rec, "ling"))
		assert.Equal(t, false, field(t, plain[i].Record(), "ling"))
		want := p.Command + " -f verilog --ling"
		if sparse > 1 {
			want = p.Command + " -f verilog --sparse 2 --ling"
		}
		assert.Equal(t, want, field(t, rec, "command"))
	}
}

// sparse returns arch at each sparseness.
func sparse(arch adder.Architecture, list ...int) []adder.Architecture {
	archs := make([]adder.Architecture, len(list))
	for i, s := range list {
		archs[i] = arch
		archs[i].Sparse = s
	}
	return archs
}

// An architecture that does not fit a network is an *AdderError naming the
// network, which wraps why, before any tool runs.
func TestSynthesizeAddersRefused(t *testing.T) {
	points := enumerate(t, 4, explore.Options{})[:1]
	noReset := adder.Standard
	noReset.NoReset = true
	_, _, err := explore.SynthesizeAdders(context.Background(), points, []adder.Architecture{noReset}, nil, physical.Options{Yosys: "/nonexistent/yosys"})
	var bad *explore.AdderError
	require.ErrorAs(t, err, &bad)
	assert.Equal(t, points[0].Name, bad.Point)
	assert.Equal(t, "explore: "+points[0].Name+": no reset given for a combinational adder: allowed only with register stages", err.Error())
	assert.NotNil(t, errors.Unwrap(err))
}

// needFlow skips the test, or fails it under PREFIXGEN_REQUIRE_TOOLS=1,
// when yosys, sta or the default Liberty file is missing.
func needFlow(t *testing.T) {
	t.Helper()
	tooltest.Flow(t, physical.LibertyFile(""))
}

// field returns the value of the named column of rec.
func field(t *testing.T, rec emit.Record, column string) any {
	t.Helper()
	for _, f := range rec {
		if f.Column == column {
			return f.Value
		}
	}
	t.Fatalf("no column %s", column)
	return nil
}
