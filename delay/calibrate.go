package delay

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/liberty"
)

// CalibrateOptions are the choices Calibrate makes that a library does not.
type CalibrateOptions struct {
	// Name names the Library made.
	Name string
	// SlewNS is the input transition, in ns, at which the delay tables are
	// read: the column of each table nearest it. 0 means the unit
	// inverter's own output transition driving four copies of itself, as
	// the tables give it, a transition every library has a column near.
	SlewNS float64
	// OutputLoadPF is the capacitance on each output of the adder, in pF;
	// 0 means 10 fF, the load the timing flow puts there.
	OutputLoadPF float64
	// DontUse, when not nil, names cells Calibrate must not stand on,
	// beside those the library marks dont_use: a platform's list.
	DontUse func(cell string) bool
}

// Calibrate measures a Library from the cells of a Liberty library, as the
// package documentation describes for OSU018: root is what liberty.Parse
// returns for the library's file, or a group holding the library groups of
// its several files (templates are looked up in all of them, units read
// from the first). The cells it stands on are the smallest usable cell of
// each function the model needs: an inverter (the unit of capacitance and
// τ), NAND2, XOR2 (XNOR2 where there is none) and AOI21. A library without
// one of them is refused, naming what is missing.
func Calibrate(root *liberty.Group, opt CalibrateOptions) (Library, error) {
	libs := slices.Collect(root.Find("library"))
	if root.Kind == "library" {
		libs = []*liberty.Group{root}
	}
	if len(libs) == 0 {
		return Library{}, errors.New("delay: no library group in the Liberty file")
	}
	c := calibrator{templates: map[string]*liberty.Group{}, opt: opt}
	var err error
	if c.timeNS, err = timeUnit(libs[0]); err != nil {
		return Library{}, err
	}
	if c.capPF, err = capUnit(libs[0]); err != nil {
		return Library{}, err
	}
	for _, l := range libs {
		for _, g := range l.Groups {
			if g.Kind == "lu_table_template" && len(g.Args) == 1 {
				c.templates[g.Args[0]] = g
			}
		}
		for _, g := range l.Groups {
			if g.Kind == "cell" && len(g.Args) == 1 {
				c.cells = append(c.cells, g)
			}
		}
	}
	return c.calibrate()
}

// calibrator holds one library's cells while Calibrate measures them.
type calibrator struct {
	opt       CalibrateOptions
	templates map[string]*liberty.Group
	cells     []*liberty.Group
	// timeNS and capPF are the library's time and capacitance units in ns
	// and pF.
	timeNS, capPF float64
}

// measured is one cell's measurement at the chosen transition: its pins'
// capacitances (pF) in the role order, the intercept (ns) and slope
// (ns/pF) of its delay against its load, and its area.
type measured struct {
	name             string
	pins             []float64
	intercept, slope float64
	area             float64
}

// functions the model's gates compute, as truth tables over up to three
// inputs in role order (bit k of the table is the value at inputs k, the
// first role the lowest bit).
var (
	fnInv   = table(1, func(x []bool) bool { return !x[0] })
	fnNand2 = table(2, func(x []bool) bool { return !(x[0] && x[1]) })
	fnXor2  = table(2, func(x []bool) bool { return x[0] != x[1] })
	fnXnor2 = table(2, func(x []bool) bool { return x[0] == x[1] })
	// AOI21 in the model's pin order: the two inputs in series, then the
	// single one.
	fnAOI21 = table(3, func(x []bool) bool { return !(x[0] && x[1] || x[2]) })
)

func table(n int, f func([]bool) bool) uint8 {
	var t uint8
	for k := range 1 << n {
		x := make([]bool, n)
		for i := range x {
			x[i] = k>>i&1 == 1
		}
		if f(x) {
			t |= 1 << k
		}
	}
	return t
}

func (c *calibrator) calibrate() (Library, error) {
	inv, err := c.find("inverter", fnInv, 1)
	if err != nil {
		return Library{}, err
	}
	nand, err := c.find("NAND2", fnNand2, 2)
	if err != nil {
		return Library{}, err
	}
	xor, err := c.find("XOR2 or XNOR2", fnXor2, 2)
	if err != nil {
		if xor, err = c.find("XOR2 or XNOR2", fnXnor2, 2); err != nil {
			return Library{}, err
		}
	}
	aoi, err := c.find("AOI21", fnAOI21, 3)
	if err != nil {
		return Library{}, err
	}
	slew := c.opt.SlewNS
	if slew == 0 {
		if slew, err = c.fo4Slew(inv); err != nil {
			return Library{}, err
		}
	}
	cinv := inv.caps[0] // pF
	m := map[*liberty.Group]measured{}
	for _, g := range []*found{inv, nand, xor, aoi} {
		if m[g.cell], err = c.measure(g, slew, 9*cinv); err != nil {
			return Library{}, err
		}
	}
	mi := m[inv.cell]
	tau := mi.slope * cinv // ns
	if !(tau > 0) {
		return Library{}, fmt.Errorf("delay: inverter %s has no delay that grows with its load: allowed a library of timing tables", mi.name)
	}
	gate := func(g measured) Gate {
		out := Gate{Name: g.name, Parasitic: g.intercept / tau, Drive: g.slope / mi.slope, Area: g.area}
		for i, p := range g.pins {
			out.Pins[i] = p / cinv
		}
		return out
	}
	load := c.opt.OutputLoadPF
	if load == 0 {
		load = 0.01
	}
	return Library{
		Name:       c.opt.Name,
		FO4:        (mi.intercept + mi.slope*4*cinv) / tau,
		TauNS:      tau,
		Generate:   gate(m[nand.cell]),
		Propagate:  gate(m[xor.cell]),
		Sum:        gate(m[xor.cell]),
		CellG:      gate(m[aoi.cell]),
		CellP:      gate(m[nand.cell]),
		OutputLoad: load / cinv,
	}, nil
}

// found is a cell computing a function, its input pins in role order.
type found struct {
	cell *liberty.Group
	name string
	pins []string
	pin  string // the output
	area float64
	caps []float64 // pF, in role order
}

// find returns the smallest usable cell (by area, then name) whose one
// output computes fn of its n inputs in some order of its pins.
func (c *calibrator) find(what string, fn uint8, n int) (*found, error) {
	var best *found
	for _, g := range c.cells {
		name := g.Args[0]
		cell := g.Cells()[name]
		if cell.DontUse || (c.opt.DontUse != nil && c.opt.DontUse(name)) || !cell.HasArea || cell.Clock != "" || cell.Latch {
			continue
		}
		if len(cell.Inputs) != n || len(cell.Outputs) != 1 {
			continue
		}
		var out string
		var f *liberty.Function
		for o, fo := range cell.Outputs {
			out, f = o, fo
		}
		if f == nil {
			continue
		}
		pins := matchPins(f, cell.Inputs, fn)
		if pins == nil {
			continue
		}
		if best != nil && (cell.Area > best.area || cell.Area == best.area && name > best.name) {
			continue
		}
		best = &found{cell: g, name: name, pins: pins, pin: out, area: cell.Area}
	}
	if best == nil {
		return nil, fmt.Errorf("delay: the library has no usable %s cell: the model needs an inverter, NAND2, XOR2 or XNOR2, and AOI21", what)
	}
	best.caps = make([]float64, len(best.pins))
	for i, p := range best.pins {
		v, err := c.pinCap(best.cell, p)
		if err != nil {
			return nil, err
		}
		best.caps[i] = v
	}
	return best, nil
}

// matchPins returns the order of pins in which f computes fn, or nil.
func matchPins(f *liberty.Function, pins []string, fn uint8) []string {
	for _, perm := range permutations(len(pins)) {
		ok := true
		for k := range 1 << len(pins) {
			env := map[string]bool{}
			for role, i := range perm {
				env[pins[i]] = k>>role&1 == 1
			}
			v, good := liberty.Eval(f, boolAlgebra{}, env)
			if !good || v != (fn>>k&1 == 1) {
				ok = false
				break
			}
		}
		if ok {
			out := make([]string, len(perm))
			for role, i := range perm {
				out[role] = pins[i]
			}
			return out
		}
	}
	return nil
}

// permutations returns every order of 0 … n-1, the identity first.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for at := len(p); at >= 0; at-- {
			q := slices.Insert(slices.Clone(p), at, n-1)
			out = append(out, q)
		}
	}
	return out
}

// boolAlgebra evaluates a Liberty function over plain bools.
type boolAlgebra struct{}

func (boolAlgebra) Const(v bool) bool  { return v }
func (boolAlgebra) Not(x bool) bool    { return !x }
func (boolAlgebra) And(x, y bool) bool { return x && y }
func (boolAlgebra) Or(x, y bool) bool  { return x || y }
func (boolAlgebra) Xor(x, y bool) bool { return x != y }
func (boolAlgebra) Full() bool         { return false }

// pinCap returns the capacitance of a cell's input pin, in pF.
func (c *calibrator) pinCap(cell *liberty.Group, pin string) (float64, error) {
	for p := range cell.Find("pin") {
		if slices.Contains(p.Args, pin) {
			v, err := strconv.ParseFloat(p.Attrs["capacitance"], 64)
			if err != nil || !(v > 0) {
				return 0, fmt.Errorf("delay: cell %s pin %s has no capacitance: allowed a library whose input pins give theirs", cell.Args[0], pin)
			}
			return v * c.capPF, nil
		}
	}
	return 0, fmt.Errorf("delay: cell %s has no pin %s", cell.Args[0], pin)
}

// table2 is one delay or transition table in ns against loads in pF and
// input transitions in ns.
type table2 struct {
	loads, slews []float64
	// at[l][s] is the value at loads[l] and slews[s].
	at [][]float64
}

// tables returns the cell's tables of the given kinds (cell_rise and
// cell_fall, or rise_transition and fall_transition) on arcs that end at
// its output.
func (c *calibrator) tables(f *found, kinds ...string) ([]table2, error) {
	var out []table2
	for p := range f.cell.Find("pin") {
		if !slices.Contains(p.Args, f.pin) {
			continue
		}
		for timing := range p.Find("timing") {
			for _, g := range timing.Groups {
				if !slices.Contains(kinds, g.Kind) {
					continue
				}
				t, err := c.read(f.name, g)
				if err != nil {
					return nil, err
				}
				out = append(out, t)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("delay: cell %s has no %s tables: allowed a library of NLDM timing tables", f.name, strings.Join(kinds, " or "))
	}
	return out, nil
}

// read reads one table, its axes named by its template.
func (c *calibrator) read(cell string, g *liberty.Group) (table2, error) {
	bad := func(why string) error {
		return fmt.Errorf("delay: cell %s: %s table %s: allowed a table over load and input transition", cell, g.Kind, why)
	}
	var vars [2]string
	idx := [2][]float64{}
	if len(g.Args) == 1 {
		if tpl, ok := c.templates[g.Args[0]]; ok {
			vars = [2]string{tpl.Attrs["variable_1"], tpl.Attrs["variable_2"]}
			idx[0], _ = numbers(tpl.Values("index_1"))
			idx[1], _ = numbers(tpl.Values("index_2"))
		}
	}
	for i, name := range []string{"index_1", "index_2"} {
		if v := g.Values(name); v != nil {
			var err error
			if idx[i], err = numbers(v); err != nil {
				return table2{}, bad(err.Error())
			}
		}
	}
	values, err := numbers(g.Values("values"))
	if err != nil {
		return table2{}, bad(err.Error())
	}
	var load, slew int
	switch vars {
	case [2]string{"total_output_net_capacitance", "input_net_transition"}:
		load, slew = 0, 1
	case [2]string{"input_net_transition", "total_output_net_capacitance"}:
		load, slew = 1, 0
	default:
		return table2{}, bad(fmt.Sprintf("with axes %q and %q", vars[0], vars[1]))
	}
	t := table2{loads: idx[load], slews: idx[slew]}
	if len(t.loads) < 3 || len(t.slews) == 0 || len(values) != len(t.loads)*len(t.slews) {
		return table2{}, bad(fmt.Sprintf("of %d values over %d loads and %d transitions", len(values), len(t.loads), len(t.slews)))
	}
	for i := range t.loads {
		t.loads[i] *= c.capPF
	}
	for i := range t.slews {
		t.slews[i] *= c.timeNS
	}
	t.at = make([][]float64, len(t.loads))
	for l := range t.loads {
		t.at[l] = make([]float64, len(t.slews))
		for s := range t.slews {
			k := l*len(t.slews) + s
			if load == 1 {
				k = s*len(t.loads) + l
			}
			t.at[l][s] = values[k] * c.timeNS
		}
	}
	return t, nil
}

// nearest returns the column of t's transitions nearest slew.
func (t table2) nearest(slew float64) int {
	k := 0
	for s := range t.slews {
		if math.Abs(t.slews[s]-slew) < math.Abs(t.slews[k]-slew) {
			k = s
		}
	}
	return k
}

// fit returns the intercept and slope of the least-squares line through
// the table's column nearest slew over the loads up to maxLoad (the first
// three where fewer lie there).
func (t table2) fit(slew, maxLoad float64) (intercept, slope float64) {
	k := t.nearest(slew)
	var xs, ys []float64
	for l, load := range t.loads {
		if load <= maxLoad {
			xs, ys = append(xs, load), append(ys, t.at[l][k])
		}
	}
	if len(xs) < 3 {
		xs, ys = t.loads[:3], []float64{t.at[0][k], t.at[1][k], t.at[2][k]}
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	n := float64(len(xs))
	slope = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return (sy - slope*sx) / n, slope
}

// measure fits the cell's cell_rise and cell_fall tables at slew over the
// loads up to maxLoad, averaged over its arcs and both edges.
func (c *calibrator) measure(f *found, slew, maxLoad float64) (measured, error) {
	ts, err := c.tables(f, "cell_rise", "cell_fall")
	if err != nil {
		return measured{}, err
	}
	m := measured{name: f.name, pins: f.caps, area: f.area}
	for _, t := range ts {
		a, b := t.fit(slew, maxLoad)
		m.intercept += a / float64(len(ts))
		m.slope += b / float64(len(ts))
	}
	return m, nil
}

// fo4Slew returns the inverter's output transition driving four copies of
// itself, read from its transition tables (linear in the load between the
// nearest loads, at the column nearest the transition found so far), in
// ns: the input transition the other tables are then read at.
func (c *calibrator) fo4Slew(inv *found) (float64, error) {
	ts, err := c.tables(inv, "rise_transition", "fall_transition")
	if err != nil {
		return 0, err
	}
	load := 4 * inv.caps[0]
	slew := ts[0].slews[len(ts[0].slews)/2]
	for range 8 {
		next := 0.0
		for _, t := range ts {
			next += t.interpolate(load, t.nearest(slew)) / float64(len(ts))
		}
		if next == slew {
			break
		}
		slew = next
	}
	return slew, nil
}

// interpolate returns the column k of t at load, linear between the
// loads around it (or the two nearest, beyond the table).
func (t table2) interpolate(load float64, k int) float64 {
	l := 0
	for l+2 < len(t.loads) && t.loads[l+1] < load {
		l++
	}
	x0, x1 := t.loads[l], t.loads[l+1]
	y0, y1 := t.at[l][k], t.at[l+1][k]
	return y0 + (y1-y0)*(load-x0)/(x1-x0)
}

// numbers reads a table's values: quoted lists of numbers split by commas.
func numbers(values []string) ([]float64, error) {
	var out []float64
	for _, s := range values {
		for f := range strings.SplitSeq(s, ",") {
			f = strings.TrimSpace(f)
			if f == "" {
				continue
			}
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("a value %q that is not a number", f)
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// timeUnit returns the library's time unit in ns ("1ns", "1ps", "10ps");
// a library that states none counts in ns, Liberty's default.
func timeUnit(lib *liberty.Group) (float64, error) {
	if _, ok := lib.Attrs["time_unit"]; !ok {
		return 1, nil
	}
	return unit(lib.Attrs["time_unit"], "time_unit", map[string]float64{"ns": 1, "ps": 1e-3, "us": 1e3, "fs": 1e-6}, "ns")
}

// capUnit returns the library's capacitance unit in pF
// (capacitive_load_unit (1,ff)); a library that states none counts in pF,
// as synthesis tools take it.
func capUnit(lib *liberty.Group) (float64, error) {
	v := lib.Values("capacitive_load_unit")
	if v == nil {
		return 1, nil
	}
	if len(v) != 2 {
		return 0, fmt.Errorf("delay: the library's capacitive_load_unit %q: allowed a number and a unit, as (1,ff)", strings.Join(v, ","))
	}
	return unit(v[0]+v[1], "capacitive_load_unit", map[string]float64{"pf": 1, "ff": 1e-3, "nf": 1e3}, "pf")
}

// unit reads a number and a unit, "1ps" or "1.0pf", in base units.
func unit(s, what string, units map[string]float64, example string) (float64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	i := strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' })
	if i <= 0 {
		return 0, fmt.Errorf("delay: the library's %s %q: allowed a number and a unit, as 1%s", what, s, example)
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(s[:i]), 64)
	scale, ok := units[strings.TrimSpace(s[i:])]
	if err != nil || !ok || !(n > 0) {
		return 0, fmt.Errorf("delay: the library's %s %q: allowed a number and a unit, as 1%s", what, s, example)
	}
	return n * scale, nil
}
