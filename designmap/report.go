package designmap

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/physical"
)

// WriteReport writes res as map prints it: a row per adder (its width, the
// spread of its bits' arrivals and its slack in Yosys's mapping, the
// network chosen, its size and depth), then the worst path and area
// before and after, and the baselines.
func WriteReport(w io.Writer, res *Result) error {
	var buf bytes.Buffer
	if err := writeReport(&buf, res); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func writeReport(w io.Writer, res *Result) error {
	ew := &errWriter{w: w}
	if len(res.Adders) == 0 {
		fmt.Fprintln(ew, "no adders in the design: written as Yosys maps it")
	} else {
		tw := tabwriter.NewWriter(&trimWriter{w: ew}, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "adder\tbits\tspread (ns)\tslack (ns)\tsize\tdepth\t")
		for _, a := range res.Adders {
			size, depth := "-", "-"
			if a.Network != nil {
				f := a.Network.Figures()
				size, depth = fmt.Sprint(f.Size), fmt.Sprint(f.Depth)
			}
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%s\t%s\t%s\t\n", a.Cell, a.Width, a.SpreadNS, slack(a.SlackNS), size, depth)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(ew)
		for _, a := range res.Adders {
			fmt.Fprintf(ew, "%s: %s\n", a.Cell, networkName(a))
		}
		if res.SumCopies > 0 {
			fmt.Fprintf(ew, "chains of sums merged: %d %s copied, so that each chain is one carry-save tree and one adder\n", res.SumCopies, plural(res.SumCopies, "adder", "adders"))
		}
	}
	fmt.Fprintln(ew)
	rows := []Outcome{res.Before, res.After}
	if len(res.Adders) == 0 || res.After.Choice == res.Before.Choice {
		// Nothing measured beat Yosys's own mapping: it is the result.
		rows = rows[:1]
	}
	if err := outcomes(ew, "networks", "against Yosys's", rows, &res.Before); err != nil {
		return err
	}
	if len(res.Adders) > 0 && len(rows) == 1 {
		fmt.Fprintln(ew, "nothing measured beat Yosys's own mapping at this clock: it is the result")
	}
	if len(res.Baselines) > 0 {
		fmt.Fprintln(ew)
		if err := outcomes(ew, "every adder as", "result against it", res.Baselines, &res.After); err != nil {
			return err
		}
	}
	if res.VirtualClock {
		fmt.Fprintf(ew, "\nno clock input and no registers: timed from the inputs to the outputs against a virtual clock of %s ns\n", strconv.FormatFloat(res.PeriodNS, 'g', -1, 64))
	}
	if res.LibraryName != "" {
		record := "no platform record: ABC neither buffers nor sizes for a driver and a load"
		if res.Record {
			record = "its platform record: cells not to use, ABC's driver and load, the buffer"
		}
		fmt.Fprintf(ew, "\nlibrary %s (%s); %s\n", res.LibraryName, record, strings.Join(res.Tools, ", "))
	}
	switch {
	case res.Proved && res.SumCopies > 0:
		fmt.Fprintln(ew, "\nproved equal to the design with its sums merged and Yosys's own networks, and the merge to the design as written (ABC's dprove)")
	case res.Proved:
		fmt.Fprintln(ew, "\nproved equal to the design with Yosys's own networks (ABC's dprove)")
	}
	return ew.err
}

// outcomes writes a table of outcomes. The first table gives each row's
// change against ref (Yosys's); the baselines' gives the result's change
// against each row.
func outcomes(w io.Writer, head, relHead string, rows []Outcome, ref *Outcome) error {
	tw := tabwriter.NewWriter(&trimWriter{w: w}, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tarea (µm²)\tworst path (ns)\t%s\t\n", head, relHead)
	for i, o := range rows {
		rel := ""
		switch {
		case head == "networks" && i > 0:
			rel = fmt.Sprintf("%s area, %s path", percent(o.AreaUM2, ref.AreaUM2), percent(o.WorstNS, ref.WorstNS))
		case head != "networks":
			rel = fmt.Sprintf("%s area, %s path", percent(ref.AreaUM2, o.AreaUM2), percent(ref.WorstNS, o.WorstNS))
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%.3f\t%s\t\n", o.Choice, o.AreaUM2, o.WorstNS, rel)
	}
	return tw.Flush()
}

// percent is a against b, as "−12.3 %".
func percent(a, b float64) string {
	if b == 0 {
		return "n/a"
	}
	p := 100 * (a - b) / b
	s := fmt.Sprintf("%+.1f %%", p)
	return strings.Replace(s, "-", "−", 1)
}

func slack(s float64) string {
	if math.IsInf(s, 1) {
		return "none"
	}
	return physical.FormatNS(s)
}

// networkName names the network chosen for a, Yosys's own where none.
func networkName(a Adder) string {
	if a.Network == nil {
		return "Yosys's own (Brent–Kung), merged into the logic around it"
	}
	return emit.Name(a.Network)
}

// errWriter keeps the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return len(p), nil
	}
	_, e.err = e.w.Write(p)
	return len(p), nil
}

// trimWriter drops the spaces that end each line a tabwriter writes.
type trimWriter struct {
	w       io.Writer
	pending []byte
}

func (t *trimWriter) Write(p []byte) (int, error) {
	for _, c := range p {
		switch c {
		case ' ':
			t.pending = append(t.pending, c)
			continue
		case '\n':
			t.pending = t.pending[:0]
		}
		if len(t.pending) > 0 {
			if _, err := t.w.Write(t.pending); err != nil {
				return 0, err
			}
			t.pending = t.pending[:0]
		}
		if _, err := t.w.Write([]byte{c}); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
