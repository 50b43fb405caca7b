package physical

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/physical/netlist"
)

// registers is the sequential logic of a mapped netlist.
type registers struct {
	// flops is the number of flip-flops, clocks the input ports on their
	// clock pins (sorted) and names each flip-flop's name by its instance:
	// its output net when the design named it, else the instance.
	flops  int
	clocks []string
	names  map[string]string
	// bySlack says the delay is read from the worst slack, not from the
	// worst path's arrival: outputs required at their own times.
	bySlack bool
}

var (
	internalNet = regexp.MustCompile(`^_\d+_$`)
	pinName     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// sequentialRule is what the flow times: its figure for a design with
// flip-flops is the least clock period, which needs one clock edge that
// every flip-flop takes from outside.
const sequentialRule = "allowed combinational logic and rising-edge flip-flops clocked from input ports"

// clockRule is what a clock input may drive.
const clockRule = "allowed a clock input that drives only the flip-flops' clock pins"

// netlistRegisters reads the flip-flops of a mapped netlist n (module top)
// with the cells of the Liberty file it was mapped onto. Latches,
// flip-flops on the falling edge and flip-flops clocked from anything but
// an input port are refused: the flow cannot give them one period.
func netlistRegisters(cells map[string]liberty.Cell, n *netlist.Netlist, top string) (registers, error) {
	insts, assigns := n.Instances, n.Assigns
	inputs, outputs := map[string]bool{}, map[string]bool{}
	for _, p := range n.Inputs {
		for _, b := range p.Bits() {
			inputs[b] = true
		}
	}
	for _, p := range n.Outputs {
		for _, b := range p.Bits() {
			outputs[b] = true
		}
	}
	r := registers{names: map[string]string{}}
	latches := map[string]int{}
	for _, in := range insts {
		c, ok := cells[in.Cell]
		switch {
		case !ok:
			continue
		case c.Latch:
			latches[in.Cell]++
			continue
		case c.Clock == "":
			continue
		}
		pin := c.ClockPin()
		if !pinName.MatchString(pin) {
			return registers{}, fmt.Errorf("module %s has flip-flops (%s) clocked on %q, not on the rising edge of one pin: %s", top, in.Cell, c.Clock, sequentialRule)
		}
		clock := in.Pins[pin]
		if !inputs[clock] {
			return registers{}, fmt.Errorf("module %s clocks flip-flops (%s) from %s, which is not an input port: %s", top, in.Cell, clock, sequentialRule)
		}
		if name := strings.TrimSuffix(staPortName(clock), busIndex.FindString(staPortName(clock))); strings.ContainsAny(name, staPattern) {
			return registers{}, fmt.Errorf("module %s clocks flip-flops (%s) from %s, a name OpenSTA would read as a pattern or as Tcl (%s): allowed a clock named without them", top, in.Cell, staPortName(clock), staPattern)
		}
		if !slices.Contains(r.clocks, clock) {
			r.clocks = append(r.clocks, clock)
		}
		r.flops++
		r.names[in.Name] = in.Name
		for _, p := range slices.Sorted(maps.Keys(in.Pins)) {
			if c.IsOutput(p) && !internalNet.MatchString(in.Pins[p]) {
				r.names[in.Name] = in.Pins[p]
				break
			}
		}
	}
	// A clock read as data would be timed from its falling edge, half a
	// period of the flow's clock: refuse it.
	clock := func(net string) bool { return slices.Contains(r.clocks, net) }
	for _, in := range insts {
		c := cells[in.Cell]
		for _, pin := range slices.Sorted(maps.Keys(in.Pins)) {
			if clock(in.Pins[pin]) && (c.Clock == "" || pin != c.ClockPin()) {
				return registers{}, fmt.Errorf("module %s reads its clock %s as data (cell %s, pin %s): %s", top, in.Pins[pin], in.Cell, pin, clockRule)
			}
		}
	}
	for _, a := range assigns {
		if clock(a.Right) && outputs[a.Left] {
			return registers{}, fmt.Errorf("module %s reads its clock %s as data (output %s): %s", top, a.Right, a.Left, clockRule)
		}
	}
	if len(latches) > 0 {
		kinds, k := slices.Sorted(maps.Keys(latches)), 0
		for _, kind := range kinds {
			k += latches[kind]
		}
		return registers{}, fmt.Errorf("module %s has %s (%s): %s", top, counted(k, "latch", "latches"), strings.Join(kinds, ", "), sequentialRule)
	}
	slices.Sort(r.clocks)
	return r, nil
}

// staPattern are the characters of a port's name that OpenSTA's
// get_ports reads as a pattern (* ? [ ]) and Tcl's braces as their own ({
// } \), and busIndex a bus bit's index at the end of a name ([3]), which
// get_ports reads as the bit.
const staPattern = `*?[]{}\`

var busIndex = regexp.MustCompile(`\[\d+\]$`)

// counted returns "1 latch" or "n latches".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
