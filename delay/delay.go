package delay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/prefixgen/prefixgen/carry"
	"github.com/prefixgen/prefixgen/network"
)

// Gate is the logical-effort description of one library gate at unit drive.
type Gate struct {
	// Name is the library cell it stands for, as in "AOI21X1".
	Name string
	// Parasitic is the delay of the gate driving no load, in τ.
	Parasitic float64
	// Drive is the gate's drive resistance over the unit inverter's: the
	// delay it adds per unit-inverter input capacitance of load, in τ.
	Drive float64
	// Pins are the input capacitances of its pins, in unit-inverter input
	// capacitances, in the order the Library's field documents; a gate of
	// two pins leaves the third 0. An array, so that a copy of a Gate or a
	// Library changes nothing of the original.
	Pins [3]float64
	// Area is the cell's area in the library's unit (µm² for OSU018).
	Area float64
}

// delay returns the gate's delay, in τ, driving load.
func (g Gate) delay(load float64) float64 { return g.Parasitic + g.Drive*load }

// Library is the cell library the model stands on. The zero Library
// describes no cells, and the model over it means nothing: start from
// OSU018 and change what differs.
type Library struct {
	// Name names the library.
	Name string
	// FO4 is the delay of a unit inverter driving four copies of itself, in
	// τ.
	FO4 float64
	// TauNS is τ in nanoseconds.
	TauNS float64
	// Generate computes g_i = a_i ∧ b_i; Pins: a, b.
	Generate Gate
	// Propagate computes p_i = a_i ⊕ b_i and Sum sum_i = p_i ⊕ carry_i;
	// Pins: the first operand, the second.
	Propagate, Sum Gate
	// CellG computes a cell's G = G_hi ∨ P_hi ∧ G_lo; Pins: G_lo, P_hi,
	// G_hi (the two in series, then the single).
	CellG Gate
	// CellP computes a black cell's P = P_hi ∧ P_lo; Pins: P_lo, P_hi.
	CellP Gate
	// OutputLoad is the capacitance on each output of the adder, in
	// unit-inverter input capacitances.
	OutputLoad float64
	// WireCap is the capacitance of a Lo operand's wire per column it
	// spans, in unit-inverter input capacitances.
	WireCap float64
}

// OSU018 is the OSU 0.18 µm standard-cell library of Debian's
// qflow-tech-osu018 (/usr/share/qflow/tech/osu018/osu018_stdcells.lib),
// measured as the package documentation describes; OutputLoad is the 10 fF
// the timing flow puts on each output.
var OSU018 = Library{
	Name:       "osu018",
	FO4:        6.472,
	TauNS:      0.01809,
	Generate:   Gate{Name: "NAND2X1", Parasitic: 2.977, Drive: 0.886, Pins: [3]float64{1.341, 1.384}, Area: 24},
	Propagate:  Gate{Name: "XOR2X1", Parasitic: 5.568, Drive: 0.751, Pins: [3]float64{3.180, 3.675}, Area: 56},
	Sum:        Gate{Name: "XOR2X1", Parasitic: 5.568, Drive: 0.751, Pins: [3]float64{3.180, 3.675}, Area: 56},
	CellG:      Gate{Name: "AOI21X1", Parasitic: 3.428, Drive: 0.870, Pins: [3]float64{1.862, 1.928, 1.617}, Area: 32},
	CellP:      Gate{Name: "NAND2X1", Parasitic: 2.977, Drive: 0.886, Pins: [3]float64{1.341, 1.384}, Area: 24},
	OutputLoad: 10.0 / 9.32456,
}

// Report is what the model says of one adder.
type Report struct {
	// Tau is the delay of the slowest path, in τ.
	Tau float64
	// FO4 is Tau in FO4 delays.
	FO4 float64
	// NS is Tau in nanoseconds, a scale rather than a prediction.
	NS float64
	// Area is the sum of the areas of the model's gates.
	Area float64
	// Path is the slowest path, from the input bit where it starts through
	// the signals of the network to the output position where it ends.
	Path Path
}

// Path is a path through the adder.
type Path struct {
	// From is the input bit the path starts at.
	From int
	// Signals are the network's signals along it, the input first.
	Signals []int
	// To is the sum bit it ends at; Width means the carry-out.
	To int
}

// Analyze runs the model on the adder around net. Cells that join the same
// two signals, copies such as the optimizer makes to bound fan-out, are
// first merged into one, as synthesis's structural hashing merges them
// (Yosys's opt_merge, ABC's strash): the model charges for the network a
// synthesis flow maps, and a copy buys nothing there. Report.Path names the
// signals of the merged network; for a network without copies, net's.
func (lib *Library) Analyze(net *network.Network) Report {
	return lib.AnalyzeProfile(net, nil)
}

// Profile is the timing an adder meets in its design: when each bit of its
// operands arrives, and when each output is required, in ns. A carry-save
// tree in front of a final adder delivers its middle bits last; a
// comparison reads the carry-out first.
type Profile struct {
	// Arrival is when a_i and b_i arrive, one entry per bit (the carry-in
	// with bit 0); nil means every bit at 0.
	Arrival []float64
	// Required is when each output is needed: sum_0 to sum_(n−1), then the
	// carry-out; nil means every output at 0.
	Required []float64
}

// Check returns an error naming what is wrong with p for an adder of
// width inputs: a list of another length, or a time that is not a finite
// number of ns.
func (p *Profile) Check(width int) error {
	if p == nil {
		return nil
	}
	if p.Arrival != nil && len(p.Arrival) != width {
		return fmt.Errorf("delay: %d arrival times for an adder of %d bits: allowed one per bit", len(p.Arrival), width)
	}
	if p.Required != nil && len(p.Required) != width+1 {
		return fmt.Errorf("delay: %d required times for an adder of %d bits: allowed one per sum bit and one for the carry-out, %d", len(p.Required), width, width+1)
	}
	for _, l := range []struct {
		what string
		ts   []float64
	}{{"arrival", p.Arrival}, {"required", p.Required}} {
		for i, t := range l.ts {
			if math.IsNaN(t) || math.IsInf(t, 0) || math.Abs(t) > 1e6 {
				return fmt.Errorf("delay: %s time %d is %v: allowed a number of ns from -1e6 to 1e6", l.what, i, t)
			}
		}
	}
	return nil
}

// AnalyzeProfile runs the model, as Analyze does, on the adder around net
// in the timing p gives it (nil: every input at 0, every output required
// at 0, which is Analyze). The delay reported is then the worst lateness:
// the latest of each output's arrival less its required time, the inputs'
// arrival included, converted to τ by the library's TauNS; Report.Path is
// that output's path. p must pass Check for net's width; a profile of
// another width is a bug in the caller, and panics.
func (lib *Library) AnalyzeProfile(net *network.Network, p *Profile) Report {
	if err := p.Check(net.Width()); err != nil {
		panic(err.Error())
	}
	net = merged(net)
	m := lib.arrivals(net, lib.profileTau(p))
	r := Report{Tau: m.worst, FO4: m.worst / lib.FO4, NS: m.worst * lib.TauNS, Area: m.area}
	r.Path = m.path(net)
	return r
}

// tauProfile is a Profile in τ.
type tauProfile struct{ arrival, required []float64 }

func (lib *Library) profileTau(p *Profile) tauProfile {
	var t tauProfile
	if p == nil {
		return t
	}
	scale := func(ns []float64) []float64 {
		if ns == nil {
			return nil
		}
		out := make([]float64, len(ns))
		for i, v := range ns {
			out[i] = v / lib.TauNS
		}
		return out
	}
	return tauProfile{scale(p.Arrival), scale(p.Required)}
}

// timeAt returns ts[i], or 0 where ts is nil.
func timeAt(ts []float64, i int) float64 {
	if ts == nil {
		return 0
	}
	return ts[i]
}

// merged returns net with every cell that joins the same two signals as an
// earlier one (after merging those) merged into the earlier one, or net
// itself when there is none.
func merged(net *network.Network) *network.Network {
	w := net.Width()
	canon := make([]int, net.Signals()) // signal → merged signal
	for i := range w {
		canon[i] = i
	}
	seen := make(map[[2]int]int, net.Size())
	var cells []network.Cell
	for k := range net.Size() {
		c := net.Cell(k)
		key := [2]int{canon[c.Lo], canon[c.Hi]}
		if s, ok := seen[key]; ok {
			canon[w+k] = s
			continue
		}
		canon[w+k] = w + len(cells)
		seen[key] = canon[w+k]
		cells = append(cells, network.Cell{Lo: key[0], Hi: key[1]})
	}
	if len(cells) == net.Size() {
		return net
	}
	outs := make([]int, w)
	for i := range w {
		outs[i] = canon[net.Output(i)]
	}
	out, err := network.New(network.Spec{Width: w, Cells: cells, Outputs: outs, Topology: net.Topology(), Params: net.Params()})
	if err != nil {
		panic("delay: merging copies broke a valid network: " + err.Error())
	}
	return out
}

// FO4 returns the model's delay of the adder around net in FO4 delays, on
// the OSU018 library.
func FO4(net *network.Network) float64 { return OSU018.Analyze(net).FO4 }

// model holds the arrivals of one analysis.
type model struct {
	gArr, pArr []float64 // per signal, τ
	gFrom      []int     // per cell signal: the operand its G arrival came through
	worst      float64
	end        int // the signal the worst path leaves the network at
	endBit     int
	area       float64
}

// arrivals computes the loads by one pass from the last cell back, and the
// arrivals by one pass forward.
func (lib *Library) arrivals(net *network.Network, prof tauProfile) *model {
	w, signals := net.Width(), net.Signals()
	kinds := carry.Kinds(net)
	gLoad := make([]float64, signals)
	pLoad := make([]float64, signals)
	// The farthest column a Lo reader sits in: of a signal's G, any cell's;
	// of its P, a black cell's (a gray cell reads G_lo alone).
	reach := make([]int, signals)
	pReach := make([]int, signals)
	for s := range reach {
		reach[s] = net.Column(s)
		pReach[s] = reach[s]
	}
	for i := range w {
		// p_i feeds sum_i; the carry G[0, i] feeds sum_(i+1), or is the
		// carry-out.
		pLoad[i] += lib.Sum.Pins[0]
		if i+1 < w {
			gLoad[net.Output(i)] += lib.Sum.Pins[1]
		} else {
			gLoad[net.Output(i)] += lib.OutputLoad
		}
	}
	// Readers come after what they read: going back, each cell's wire is
	// known when its load is.
	for k := net.Size() - 1; k >= 0; k-- {
		c, s := net.Cell(k), w+k
		col := net.Column(s)
		reach[c.Lo] = max(reach[c.Lo], col)
		gLoad[s] += lib.WireCap * float64(reach[s]-col)
		pLoad[s] += lib.WireCap * float64(pReach[s]-col)
		gLoad[c.Lo] += lib.CellG.Pins[0]
		gLoad[c.Hi] += lib.CellG.Pins[2]
		pLoad[c.Hi] += lib.CellG.Pins[1]
		if kinds[k] == carry.Black {
			pReach[c.Lo] = max(pReach[c.Lo], col)
			pLoad[c.Lo] += lib.CellP.Pins[0]
			pLoad[c.Hi] += lib.CellP.Pins[1]
		}
	}
	m := &model{gArr: make([]float64, signals), pArr: make([]float64, signals), gFrom: make([]int, signals), end: -1, worst: math.Inf(-1)}
	for i := range w {
		m.gArr[i] = timeAt(prof.arrival, i) + lib.Generate.delay(gLoad[i]+lib.WireCap*float64(reach[i]-i))
		m.pArr[i] = timeAt(prof.arrival, i) + lib.Propagate.delay(pLoad[i]+lib.WireCap*float64(pReach[i]-i))
		m.gFrom[i] = -1
		m.area += lib.Generate.Area + lib.Propagate.Area + lib.Sum.Area
	}
	for k := range net.Size() {
		c, s := net.Cell(k), w+k
		from, at := c.Lo, m.gArr[c.Lo]
		if a := max(m.gArr[c.Hi], m.pArr[c.Hi]); a > at {
			from, at = c.Hi, a
		}
		m.gArr[s] = at + lib.CellG.delay(gLoad[s])
		m.gFrom[s] = from
		m.area += lib.CellG.Area
		if kinds[k] == carry.Black {
			m.pArr[s] = max(m.pArr[c.Lo], m.pArr[c.Hi]) + lib.CellP.delay(pLoad[s])
			m.area += lib.CellP.Area
		}
	}
	out := lib.Sum.delay(lib.OutputLoad)
	for i := range w {
		// sum_i = p_i ⊕ carry_i, carry_0 being cin, an input.
		at, src := m.pArr[i], i
		if i > 0 && m.gArr[net.Output(i-1)] > at {
			at, src = m.gArr[net.Output(i-1)], net.Output(i-1)
		}
		if late := at + out - timeAt(prof.required, i); late > m.worst {
			m.worst, m.end, m.endBit = late, src, i
		}
	}
	if late := m.gArr[net.Output(w-1)] - timeAt(prof.required, w); late > m.worst {
		m.worst, m.end, m.endBit = late, net.Output(w-1), w
	}
	return m
}

// path walks the worst path back from where it leaves the network.
func (m *model) path(net *network.Network) Path {
	var rev []int
	for s := m.end; s >= 0; {
		rev = append(rev, s)
		if s < net.Width() {
			break
		}
		s = m.gFrom[s]
	}
	p := Path{To: m.endBit, Signals: make([]int, len(rev))}
	for i, s := range rev {
		p.Signals[len(rev)-1-i] = s
	}
	if len(p.Signals) > 0 {
		p.From = p.Signals[0]
	}
	return p
}

// profileJSON is a Profile's file: {"arrival_ns": [...], "required_ns":
// [...]}, either list optional.
type profileJSON struct {
	Arrival  []*float64 `json:"arrival_ns"`
	Required []*float64 `json:"required_ns"`
}

// profileKeys are the keys of a profile's object, spelled as they must be.
var profileKeys = []string{"arrival_ns", "required_ns"}

// ProfileFormat is the form of a profile's JSON, as messages name it.
const ProfileFormat = `{"arrival_ns": [ns per bit], "required_ns": [ns per output]}`

// ReadProfile reads a Profile from JSON, {"arrival_ns": [t0, t1, …],
// "required_ns": [r0, …, rn]}, arrival_ns one time per bit of the operands
// (bit 0 first, the carry-in with it) and required_ns one per sum bit and
// then the carry-out; either may be left out. It refuses unknown fields, a
// time that is not a number, and anything after the object; Check then
// says whether the profile fits a width.
func ReadProfile(r io.Reader) (*Profile, error) {
	const allowed = ProfileFormat
	data, err := io.ReadAll(io.LimitReader(r, maxProfileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("delay: profile: %w", err)
	}
	if err := network.CheckKeys(data, profileKeys); err != nil {
		if ke, ok := errors.AsType[*network.KeyError](err); ok && ke.Unknown {
			return nil, fmt.Errorf("delay: profile: %v (allowed %s)", err, allowed)
		}
		return nil, fmt.Errorf("delay: profile: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f profileJSON
	if err := dec.Decode(&f); err != nil {
		return nil, network.JSONError("delay: profile: ", err, allowed)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("delay: profile: more after its JSON object: allowed one object")
	}
	if f.Arrival == nil && f.Required == nil {
		return nil, errors.New("delay: profile: neither arrival_ns nor required_ns: allowed either or both")
	}
	p := &Profile{}
	for _, l := range []struct {
		name string
		in   []*float64
		out  *[]float64
	}{{"arrival_ns", f.Arrival, &p.Arrival}, {"required_ns", f.Required, &p.Required}} {
		if l.in == nil {
			continue
		}
		*l.out = make([]float64, len(l.in))
		for i, t := range l.in {
			if t == nil {
				return nil, fmt.Errorf("delay: profile: %s[%d] is null: allowed a number of ns", l.name, i)
			}
			(*l.out)[i] = *t
		}
	}
	return p, nil
}

// maxProfileBytes bounds a profile file: a million bits of times.
const maxProfileBytes = 64 << 20
