package liberty

import (
	"math"
	"strconv"
	"strings"
)

// Cell is what prefixgen reads of a Liberty cell.
type Cell struct {
	// Area is the cell's area, and HasArea says the file gives one (a
	// cell without one has Area 0).
	Area    float64
	HasArea bool
	// BadArea is the area as written where the file gives one that is no
	// number of 0 or more ("-2", "big"); empty otherwise.
	BadArea string
	// Outputs maps each output pin to its function, nil where the file
	// gives none that ParseFunction reads (a flip-flop's state, a pin it
	// does not name).
	Outputs map[string]*Function
	// Inputs are the input pins, in the file's order.
	Inputs []string
	// Clock is the pin a flip-flop's state changes on, its ff group's
	// clocked_on as written ("CLK", or "(!CLK)" for the falling edge);
	// empty for a cell that is not a flip-flop.
	Clock string
	// NextState is a flip-flop's next_state as written ("D", or
	// "(SE SI)+(!SE D)" for a scan flip-flop); empty for a cell that is
	// not a flip-flop.
	NextState string
	// State names a flip-flop's state and its complement, its ff group's
	// two arguments as written ("IQ", "IQN"); empty for a cell that is not
	// a flip-flop.
	State [2]string
	// Clear and Preset are a flip-flop's asynchronous clear and preset as
	// written ("!RESET_B"); empty where it has none.
	Clear, Preset string
	// ClearPreset are a flip-flop's clear_preset_var1 and
	// clear_preset_var2, the values of its state and of the complement
	// while clear and preset are both active ("L", "H"); empty where the
	// file gives none.
	ClearPreset [2]string
	// Latch says the cell is a latch.
	Latch bool
	// DontUse says the cell is marked dont_use.
	DontUse bool
}

// IsOutput reports whether pin is an output of c.
func (c Cell) IsOutput(pin string) bool {
	_, ok := c.Outputs[pin]
	return ok
}

// ClockPin returns the pin a flip-flop's clocked_on names, without the
// parentheses Liberty files put around it: "CLK", or "!CLK" for the
// falling edge.
func (c Cell) ClockPin() string {
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(c.Clock, "("), ")"))
}

// Cells reads every cell of a Liberty file, by name. It reads what it
// can: a cell or pin it cannot make out is left out, or left without a
// function; an area that is not a number of 0 or more is none.
func Cells(src []byte) map[string]Cell {
	return Parse(src).Cells()
}

// Cells reads every cell in g, by name, as the package function Cells
// does: a cell group of one name is a cell (g itself may be one); in any
// other group, cells are looked for inside.
func (g *Group) Cells() map[string]Cell {
	cells := map[string]Cell{}
	var walk func(*Group)
	walk = func(g *Group) {
		if g.Kind == "cell" && len(g.Args) == 1 {
			cells[g.Args[0]] = cell(g)
			return
		}
		for _, c := range g.Groups {
			walk(c)
		}
	}
	walk(g)
	return cells
}

// cell reads one cell group.
func cell(g *Group) Cell {
	c := Cell{Outputs: map[string]*Function{}}
	if text, ok := g.Attrs["area"]; ok {
		if a, err := strconv.ParseFloat(text, 64); err == nil && a >= 0 && !math.IsInf(a, 0) {
			c.Area, c.HasArea = a, true
		} else {
			c.BadArea = text
		}
	}
	c.DontUse = strings.TrimSpace(g.Attrs["dont_use"]) == "true"
	for _, p := range g.Groups {
		if p.Kind == "pin" && p.Attrs["direction"] == "input" {
			c.Inputs = append(c.Inputs, p.Args...)
		}
		switch p.Kind {
		case "ff", "ff_bank":
			c.Clock = strings.TrimSpace(p.Attrs["clocked_on"])
			c.NextState = strings.TrimSpace(p.Attrs["next_state"])
			if len(p.Args) == 2 {
				c.State = [2]string{p.Args[0], p.Args[1]}
			}
			c.Clear = strings.TrimSpace(p.Attrs["clear"])
			c.Preset = strings.TrimSpace(p.Attrs["preset"])
			c.ClearPreset = [2]string{strings.TrimSpace(p.Attrs["clear_preset_var1"]), strings.TrimSpace(p.Attrs["clear_preset_var2"])}
		case "latch", "latch_bank":
			c.Latch = true
		}
		if p.Kind != "pin" || p.Attrs["direction"] != "output" {
			continue
		}
		f, err := ParseFunction(p.Attrs["function"])
		if err != nil {
			f = nil
		}
		for _, name := range p.Args {
			c.Outputs[name] = f
		}
	}
	return c
}
