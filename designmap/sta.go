package designmap

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/network"
)

// staProbe is the Tcl procedure that finds the pin driving a probe net.
const staProbe = `proc prefixgen_driver {name} {
    set net [get_nets -quiet $name]
    if {$net eq ""} { return "" }
    foreach p [get_pins -quiet -of_objects $net] {
        if {[get_property $p direction] eq "output"} { return $p }
    }
    return ""
}
`

// staScript is the OpenSTA script that times mapped.v, its library read
// from lib, against the clock: every other input arriving at 0 and every
// output required at the next edge, the worst slack, and, probed, when
// each adder's bits (its carry-in with bit 0) arrive and its outputs
// leave, and the worst slack through its outputs.
func (r *run) staScript(lib string, d *design, probe bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "read_liberty %s\n", quote(lib))
	b.WriteString("read_verilog mapped.v\n")
	fmt.Fprintf(&b, "link_design {%s}\n", r.opt.Top)
	b.WriteString("set_cmd_units -time ns -capacitance pF\n")
	clk, period := r.opt.clock(), strconv.FormatFloat(r.opt.PeriodNS, 'g', -1, 64)
	if r.virtual {
		clk = "virtual_clock"
		fmt.Fprintf(&b, "create_clock -name {%s} -period %s\n", clk, period)
		fmt.Fprintf(&b, "set_input_delay 0 -clock {%s} [all_inputs]\n", clk)
	} else {
		fmt.Fprintf(&b, "create_clock -name {%s} -period %s [get_ports {%s}]\n", clk, period, clk)
		fmt.Fprintf(&b, "set_input_delay 0 -clock {%s} [delete_from_list [all_inputs] [get_ports {%s}]]\n", clk, clk)
	}
	fmt.Fprintf(&b, "set_output_delay 0 -clock {%s} [all_outputs]\n", clk)
	fmt.Fprintf(&b, "set_load %g [all_outputs]\n", DefaultLoadPF)
	if !r.virtual && !r.clockChecked.Load() {
		// Registers the clock misses: the choices of networks change no
		// register, and a run that found none spares the others the check.
		b.WriteString("check_setup -no_clock\n")
	}
	b.WriteString("report_checks -path_delay max -format full -digits 4\n")
	b.WriteString("puts \"prefixgen-worst\"\nreport_worst_slack -digits 6\n")
	if !probe {
		return b.String()
	}
	b.WriteString(staProbe)
	for i, a := range d.adders {
		for j := 0; j < a.width; j++ {
			for _, kind := range []string{"p", "g"} {
				fmt.Fprintf(&b, "set d [prefixgen_driver {%s.probe_%s[%d]}]\n", a.cell, kind, j)
				fmt.Fprintf(&b, "if {$d ne \"\"} { puts \"prefixgen-arrival %d %d\"; report_arrival $d }\n", i, j)
			}
		}
		// The carry-in is bit 0's: the network folds it into bit 0's
		// generate, so a late one makes bit 0 late.
		fmt.Fprintf(&b, "set d [prefixgen_driver {%s.probe_ci}]\n", a.cell)
		fmt.Fprintf(&b, "if {$d ne \"\"} { puts \"prefixgen-arrival %d 0\"; report_arrival $d }\n", i)
		b.WriteString("set outs {}\n")
		for j := 0; j < a.width; j++ {
			fmt.Fprintf(&b, "set d [prefixgen_driver {%s.probe_co[%d]}]\n", a.cell, j)
			fmt.Fprintf(&b, "if {$d ne \"\"} { lappend outs $d; puts \"prefixgen-out %d\"; report_arrival $d }\n", i)
		}
		fmt.Fprintf(&b, "puts \"prefixgen-slack %d\"\n", i)
		b.WriteString("if {[llength $outs] > 0} { report_checks -through $outs -path_delay max -format end -digits 6 }\n")
	}
	b.WriteString("puts \"prefixgen-end\"\n")
	return b.String()
}

// time runs OpenSTA on dir's mapped.v and reads the worst path and, when
// probed, the adders' timing into m.
func (r *run) time(ctx context.Context, dir string, m *measure, d *design, probe bool) error {
	// OpenSTA reads no Liberty file whose path holds a space: the run's
	// folder may, and the library is liberty.lib in it.
	lib, err := filepath.Rel(dir, r.lib)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "sta.tcl"), []byte(r.staScript(lib, d, probe)), 0o644); err != nil {
		return err
	}
	res, err := toolrun.Run(ctx, toolrun.Cmd{Path: r.sta, Args: []string{"-no_init", "-no_splash", "-exit", "sta.tcl"}, Dir: dir, Timeout: r.opt.timeout()})
	out := ""
	if res != nil {
		out = string(res.Output)
	}
	if err != nil {
		if _, exited := errors.AsType[*toolrun.ExitError](err); !exited {
			return fmt.Errorf("designmap: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "sta.log"), []byte(out), 0o644); err != nil {
		return err
	}
	if m2 := staError.FindStringSubmatch(out); m2 != nil {
		return fmt.Errorf("designmap: sta: %s", toolrun.OneLine(m2[1]))
	}
	if m2 := unclocked.FindStringSubmatch(out); m2 != nil {
		return bad("%s register bits of %s are not clocked by %s: allowed a design whose registers one input clocks, named by --clock", m2[1], r.opt.Top, network.Quote(r.opt.clock()))
	}
	if err := r.readTiming(out, m, d, probe); err != nil {
		return err
	}
	r.clockChecked.Store(true)
	return nil
}

// unclocked matches OpenSTA's warning of check_setup -no_clock: registers
// no clock reaches.
var unclocked = regexp.MustCompile(`(?m)^Warning: There (?:are|is) (\d+) unclocked register/latch pins?\.$`)

// staError matches OpenSTA's first error.
var staError = regexp.MustCompile(`(?m)^Error: (.*)$`)

var (
	worstLine   = regexp.MustCompile(`^worst slack (\S+)`)
	arrivalLine = regexp.MustCompile(`r (-?[0-9.]+):(-?[0-9.]+) f (-?[0-9.]+):(-?[0-9.]+)`)
	slackRow    = regexp.MustCompile(`(-?[0-9.]+)\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s+\((?:MET|VIOLATED)\)\s*$`)
)

// readTiming reads what staScript printed.
func (r *run) readTiming(out string, m *measure, d *design, probe bool) error {
	if probe {
		m.arrivals = make([][]float64, len(d.adders))
		m.slack = make([]float64, len(d.adders))
		m.cout = make([]float64, len(d.adders))
		for i, a := range d.adders {
			m.arrivals[i] = make([]float64, a.width)
			for j := range m.arrivals[i] {
				m.arrivals[i][j] = math.NaN()
			}
			m.slack[i] = math.Inf(1)
			m.cout[i] = math.NaN()
		}
	}
	worst := math.NaN()
	section, adder, bit := "", 0, 0
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "prefixgen-"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return fmt.Errorf("designmap: sta printed a marker with no section")
			}
			section, adder, bit = f[0], 0, 0
			var err error
			if len(f) > 1 {
				if adder, err = strconv.Atoi(f[1]); err != nil {
					return fmt.Errorf("designmap: sta printed adder %q", f[1])
				}
			}
			if len(f) > 2 {
				if bit, err = strconv.Atoi(f[2]); err != nil {
					return fmt.Errorf("designmap: sta printed bit %q", f[2])
				}
			}
			if !probe && section != "worst" {
				section = ""
			}
			if section != "worst" && section != "end" && section != "" && (adder < 0 || adder >= len(d.adders)) {
				return fmt.Errorf("designmap: sta printed adder %d of %d", adder, len(d.adders))
			}
			continue
		}
		switch section {
		case "worst":
			if s := worstLine.FindStringSubmatch(line); s != nil {
				v, err := strconv.ParseFloat(s[1], 64)
				if err != nil {
					v = math.Inf(1)
				}
				worst = v
			}
		case "arrival", "out":
			s := arrivalLine.FindStringSubmatch(line)
			if s == nil {
				continue
			}
			late := math.Max(num(s[2]), num(s[4]))
			if section == "arrival" {
				if bit >= 0 && bit < len(m.arrivals[adder]) {
					m.arrivals[adder][bit] = nanMax(m.arrivals[adder][bit], late)
				}
			} else {
				m.cout[adder] = nanMax(m.cout[adder], late)
			}
		case "slack":
			if s := slackRow.FindStringSubmatch(line); s != nil {
				m.slack[adder] = math.Min(m.slack[adder], num(s[3]))
			}
		}
	}
	if math.IsNaN(worst) {
		return fmt.Errorf("designmap: sta printed no worst slack")
	}
	if math.IsInf(worst, 1) {
		// No path is timed against the clock.
		worst = r.opt.PeriodNS
	}
	m.worst = r.opt.PeriodNS - worst
	if probe {
		for i := range m.arrivals {
			fill(m.arrivals[i])
		}
	}
	return nil
}

func num(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// nanMax is the larger of a and b, either of which may be NaN (unknown).
func nanMax(a, b float64) float64 {
	switch {
	case math.IsNaN(a):
		return b
	case math.IsNaN(b):
		return a
	}
	return math.Max(a, b)
}

// fill gives the bits whose arrival is unknown (constant, or merged away)
// the earliest known one, and all 0 where none is known.
func fill(at []float64) {
	low := math.Inf(1)
	for _, v := range at {
		if !math.IsNaN(v) {
			low = math.Min(low, v)
		}
	}
	if math.IsInf(low, 1) {
		low = 0
	}
	for j, v := range at {
		if math.IsNaN(v) {
			at[j] = low
		}
	}
}
