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
	netlistInput = regexp.MustCompile(`(?m)^\s*input\s+(?:\[\s*(\d+)\s*:\s*(\d+)\s*\]\s*)?([A-Za-z_][A-Za-z0-9_$]*)\s*;`)
	internalNet  = regexp.MustCompile(`^_\d+_$`)
	pinName      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// port is an input of a mapped netlist: a bus of width bits from bit lo
// up, or a single wire (width 0).
type port struct {
	name      string
	lo, width int
}

// inputPorts returns the input ports a mapped netlist declares.
func inputPorts(mapped []byte) []port {
	var ports []port
	for _, m := range netlistInput.FindAllStringSubmatch(string(mapped), -1) {
		p := port{name: m[3]}
		if m[1] != "" {
			hi, _ := strconv.Atoi(m[1])
			lo, _ := strconv.Atoi(m[2])
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

// netlistRegisters reads the flip-flops of a mapped netlist (module top)
// with the cells of the Liberty file it was mapped onto. Latches,
// flip-flops on the falling edge and flip-flops clocked from anything but
// an input port are refused: the flow cannot give them one period.
func netlistRegisters(lib, mapped []byte, top string) (registers, error) {
	cells := libertyCells(string(lib))
	insts, _ := netlistCells(string(mapped))
	inputs := map[string]bool{}
	for _, p := range inputPorts(mapped) {
		if p.width == 0 {
			inputs[p.name] = true
			continue
		}
		for i := range min(p.width, maxNetlistBits) {
			inputs[p.name+"["+strconv.Itoa(p.lo+i)+"]"] = true
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
		pin := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(c.clock, "("), ")"))
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
