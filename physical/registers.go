package physical

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// registers is the sequential logic of a mapped netlist.
type registers struct {
	// flops is the number of flip-flops, clocks the input ports on their
	// clock pins (sorted) and names each flip-flop's name by its instance:
	// its output net when the design named it, else the instance.
	flops  int
	clocks []string
	names  map[string]string
}

var (
	netlistPort = regexp.MustCompile(`(?m)^\s*(input|output)\s+(?:\[\s*(\d+)\s*:\s*(\d+)\s*\]\s*)?([A-Za-z_][A-Za-z0-9_$]*|\\[^\s;]+)\s*;`)
	internalNet = regexp.MustCompile(`^_\d+_$`)
	pinName     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// clockPin returns the pin a flip-flop's clocked_on names, without the
// parentheses Liberty files put around it: "CLK", or "!CLK" for the
// falling edge.
func (c libCell) clockPin() string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(c.clock, "("), ")"))
}

// port is an input or output of a mapped netlist: a bus of width bits
// from bit lo up, or a single wire (width 0).
type port struct {
	name      string
	lo, width int
}

// bits returns the names of the port's bits as the cells' pins name them:
// name[i], or for an escaped name (Yosys escapes a name with a $), \name [i].
func (p port) bits() []string {
	if p.width == 0 {
		return []string{p.name}
	}
	open := "["
	if strings.HasPrefix(p.name, `\`) {
		open = " ["
	}
	bits := make([]string, min(p.width, maxNetlistBits))
	for i := range bits {
		bits[i] = p.name + open + strconv.Itoa(p.lo+i) + "]"
	}
	return bits
}

// netlistPorts returns the ports of direction dir (input or output) a
// mapped netlist declares.
func netlistPorts(mapped []byte, dir string) []port {
	var ports []port
	for _, m := range netlistPort.FindAllStringSubmatch(string(mapped), -1) {
		if m[1] != dir {
			continue
		}
		p := port{name: m[4]}
		if m[2] != "" {
			hi, _ := strconv.Atoi(m[2])
			lo, _ := strconv.Atoi(m[3])
			p.lo, p.width = min(hi, lo), max(hi, lo)-min(hi, lo)+1
		}
		ports = append(ports, p)
	}
	return ports
}

// sequentialRule is what the flow times: its figure for a design with
// flip-flops is the least clock period, which needs one clock edge that
// every flip-flop takes from outside.
const sequentialRule = "allowed combinational logic and rising-edge flip-flops clocked from input ports"

// clockRule is what a clock input may drive.
const clockRule = "allowed a clock input that drives only the flip-flops' clock pins"

// netlistRegisters reads the flip-flops of a mapped netlist (module top)
// with the cells of the Liberty file it was mapped onto. Latches,
// flip-flops on the falling edge and flip-flops clocked from anything but
// an input port are refused: the flow cannot give them one period.
func netlistRegisters(lib, mapped []byte, top string) (registers, error) {
	cells := libertyCells(string(lib))
	insts, assigns := netlistCells(string(mapped))
	inputs, outputs := map[string]bool{}, map[string]bool{}
	for _, p := range netlistPorts(mapped, "input") {
		for _, b := range p.bits() {
			inputs[b] = true
		}
	}
	for _, p := range netlistPorts(mapped, "output") {
		for _, b := range p.bits() {
			outputs[b] = true
		}
	}
	r := registers{names: map[string]string{}}
	latches := map[string]int{}
	for _, in := range insts {
		c, ok := cells[in.cell]
		switch {
		case !ok:
			continue
		case c.latch:
			latches[in.cell]++
			continue
		case c.clock == "":
			continue
		}
		pin := c.clockPin()
		if !pinName.MatchString(pin) {
			return registers{}, fmt.Errorf("module %s has flip-flops (%s) clocked on %q, not on the rising edge of one pin: %s", top, in.cell, c.clock, sequentialRule)
		}
		clock := in.pins[pin]
		if !inputs[clock] {
			return registers{}, fmt.Errorf("module %s clocks flip-flops (%s) from %s, which is not an input port: %s", top, in.cell, clock, sequentialRule)
		}
		if !slices.Contains(r.clocks, clock) {
			r.clocks = append(r.clocks, clock)
		}
		r.flops++
		r.names[in.name] = in.name
		for _, p := range sortedKeys(in.pins) {
			if _, out := c.outputs[p]; out && !internalNet.MatchString(in.pins[p]) {
				r.names[in.name] = in.pins[p]
				break
			}
		}
	}
	// A clock read as data would be timed from its falling edge, half a
	// period of the flow's clock: refuse it.
	clock := func(net string) bool { return slices.Contains(r.clocks, net) }
	for _, in := range insts {
		c := cells[in.cell]
		for _, pin := range sortedKeys(in.pins) {
			if clock(in.pins[pin]) && (c.clock == "" || pin != c.clockPin()) {
				return registers{}, fmt.Errorf("module %s reads its clock %s as data (cell %s, pin %s): %s", top, in.pins[pin], in.cell, pin, clockRule)
			}
		}
	}
	for _, a := range assigns {
		if clock(a[1]) && outputs[a[0]] {
			return registers{}, fmt.Errorf("module %s reads its clock %s as data (output %s): %s", top, a[1], a[0], clockRule)
		}
	}
	if len(latches) > 0 {
		kinds, n := sortedKeys(latches), 0
		for _, k := range kinds {
			n += latches[k]
		}
		return registers{}, fmt.Errorf("module %s has %s (%s): %s", top, counted(n, "latch", "latches"), strings.Join(kinds, ", "), sequentialRule)
	}
	slices.Sort(r.clocks)
	return r, nil
}

// counted returns "1 latch" or "n latches".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
