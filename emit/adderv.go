package emit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/network"
)

// adderData is what adder.v.tmpl reads: the description rendered into
// Verilog lines.
type adderData struct {
	Module   string
	Header   []string
	Summary  []string
	Cells    bool // the design has prefix cells, black or gray
	Ports    []string
	Regs     []string
	Sections []adderSection
	Stages   []adderStage
}

type adderSection struct {
	Comment []string
	Lines   []adderLine
}

type adderLine struct{ Comment, Code string }

type adderStage struct {
	Title       string
	Reset, Load []string
}

// adderOptions returns the architecture an emitter was given, Standard for
// nil.
func adderOptions(o *adder.Architecture) adder.Architecture {
	if o == nil {
		return adder.Standard
	}
	return *o
}

// AdderModuleName returns the default name of the module Verilog writes for
// net and arch: ModuleName(net), followed by arch.Suffix() when it is not
// empty, as in prefix_adder_sklansky_16_sub_sparse4. A network built with
// the valency (its parameter v) names it already.
func AdderModuleName(net *network.Network, arch adder.Architecture) string {
	if s := ownValency(net.Params(), arch).Suffix(); s != "" {
		return ModuleName(net) + "_" + s
	}
	return ModuleName(net)
}

// AdderName names the adder of arch around the network of topology and
// params, as rows print it: the network's name (Name), then arch.Name()
// where it is not the standard adder's, as in "kogge-stone sparse=4 ling".
// A network built with the valency (its parameter v) names it already:
// "kogge-stone v=3", not "kogge-stone v=3 valency=3".
func AdderName(topology string, params network.Params, arch adder.Architecture) string {
	name := describe(topology, params)
	if s := ownValency(params, arch).Name(); s != "" {
		name += " " + s
	}
	return name
}

// ownValency returns arch without its valency where params' v names it.
func ownValency(params network.Params, arch adder.Architecture) adder.Architecture {
	if v := params["v"]; v > 2 && v == arch.Valency {
		arch.Valency = 2
	}
	return arch
}

// verilogInstance writes the instance of a library cell that drives the
// targets of outs (adder.Assign.Cell), the assignments of one instance:
// named outs[0].Instance, or u_ and the target's name and bit.
func verilogInstance(outs []adder.Assign) string {
	a := outs[0]
	pins := make([]string, 0, len(a.CellArgs)+len(outs))
	for i, arg := range a.CellArgs {
		pins = append(pins, fmt.Sprintf(".%s(%s)", verilogName(a.Cell.Inputs[i]), arg))
	}
	for _, o := range outs {
		pin := o.CellPin
		if pin == "" {
			pin = o.Cell.Output
		}
		pins = append(pins, fmt.Sprintf(".%s(%s)", verilogName(pin), o.Target))
	}
	inst := a.Instance
	if inst == "" {
		inst = "u_" + a.Target.Name
		if a.Target.Bit >= 0 {
			inst += "_" + strconv.Itoa(a.Target.Bit)
		}
	}
	return fmt.Sprintf("%s %s (%s);", verilogName(a.Cell.Name), inst, strings.Join(pins, ", "))
}

// verilogName returns s as a Verilog identifier: itself when it is a simple
// identifier and no keyword, otherwise escaped (\s followed by a space).
func verilogName(s string) string {
	if CheckModuleName(s) == nil {
		return s
	}
	return "\\" + s + " "
}

// newAdderData describes the adder around net and renders it.
func newAdderData(net *network.Network, module string, arch adder.Architecture, cells *adder.Cells) (*adderData, *adder.Description, error) {
	if module == "" {
		module = AdderModuleName(net, arch)
	}
	if err := CheckModuleName(module); err != nil {
		return nil, nil, err
	}
	if err := CheckModuleCells(module, cells, false); err != nil {
		return nil, nil, err
	}
	d, err := adder.Describe(net, arch, cells)
	if err != nil {
		return nil, nil, fmt.Errorf("emit: %w", err)
	}
	ad := &adderData{Module: module, Summary: d.Summary, Cells: d.Cells > 0, Header: adderHeader(net, d)}

	rngFrom := func(w, lo int) string {
		if w == 0 {
			return ""
		}
		return fmt.Sprintf("[%d:%d]", lo+w-1, lo)
	}
	rng := func(w int) string { return rngFrom(w, 0) }
	pad := len(rng(d.Width))
	for i, p := range d.Ports {
		dir := "input "
		if p.Dir == adder.Out {
			dir = "output"
		}
		line := fmt.Sprintf("%s wire %-*s %s", dir, pad, rng(p.Width), p.Name)
		if i < len(d.Ports)-1 {
			line += ","
		}
		ad.Ports = append(ad.Ports, line)
	}
	for _, r := range d.Registers() {
		ad.Regs = append(ad.Regs, strings.Join(strings.Fields("reg "+rngFrom(r.Q.Width, r.Q.Lo)+" "+r.Q.Name), " ")+";")
	}
	for _, sec := range d.Sections {
		as := adderSection{Comment: sec.Comment}
		for _, b := range sec.Buses {
			as.Lines = append(as.Lines, adderLine{Code: fmt.Sprintf("wire %s %s;", rngFrom(b.Width, b.Lo), b.Name)})
		}
		for i := 0; i < len(sec.Assigns); i++ {
			a := sec.Assigns[i]
			var code string
			if a.Cell != nil {
				// The outputs of one instance are assignments in a row; a
				// wire an output drives is declared before it.
				first := i
				for a.Instance != "" && i+1 < len(sec.Assigns) && sec.Assigns[i+1].Instance == a.Instance {
					i++
				}
				outs := sec.Assigns[first : i+1]
				comment := a.Comment
				for _, o := range outs {
					if o.Declare {
						as.Lines = append(as.Lines, adderLine{Comment: comment, Code: fmt.Sprintf("wire %s;", strings.TrimSpace(rng(o.Width)+" "+o.Target.Name))})
						comment = ""
					}
				}
				as.Lines = append(as.Lines, adderLine{Comment: comment, Code: verilogInstance(outs)})
				continue
			}
			if a.Declare {
				code = fmt.Sprintf("wire %s = %s;", strings.TrimSpace(rng(a.Width)+" "+a.Target.Name), verilogExpr(a.Expr))
			} else {
				code = fmt.Sprintf("assign %s = %s;", a.Target, verilogExpr(a.Expr))
			}
			as.Lines = append(as.Lines, adderLine{Comment: a.Comment, Code: code})
		}
		ad.Sections = append(ad.Sections, as)
	}
	for k, st := range d.Stages {
		as := adderStage{Title: fmt.Sprintf("Register stage %d, after level %d.", k+1, st.After)}
		for _, r := range st.Registers {
			zero := "1'b0"
			if r.Q.Width > 0 {
				zero = strconv.Itoa(r.Q.Width) + "'d0"
			}
			if !d.Architecture.NoReset {
				as.Reset = append(as.Reset, fmt.Sprintf("%s <= %s;", r.Q.Name, zero))
			}
			as.Load = append(as.Load, fmt.Sprintf("%s <= %s;", r.Q.Name, r.D))
		}
		ad.Stages = append(ad.Stages, as)
	}
	return ad, d, nil
}

// adderHeader returns the header lines of the adder d around net, common to
// the Verilog and the VHDL: topology, parameters, width and figures.
func adderHeader(net *network.Network, d *adder.Description) []string {
	f := net.Figures()
	h := []string{
		"topology:   " + CommentText(net.Topology()),
		"parameters: " + CommentText(net.Params().Format(" ")),
		fmt.Sprintf("width:      %d bits", d.Width),
		fmt.Sprintf("depth:      %d levels of prefix cells", d.Depth),
		fmt.Sprintf("size:       %d cells (%d black, %d gray)", d.Cells, d.Black, d.Gray),
	}
	if d.BinaryCells != d.Cells {
		h[4] = fmt.Sprintf("size:       %d cells of up to %d inputs (%d black, %d gray), %d binary cells",
			d.Cells, d.Architecture.Valency, d.Black, d.Gray, d.BinaryCells)
	}
	if d.BinaryCells == f.Size && d.Depth == f.Depth && d.MaxFanout == f.MaxFanout && d.WireTracks == f.WireTracks {
		h = append(h,
			fmt.Sprintf("max fan-out %d (logical: cells reading a signal, +1 if it is an output)", f.MaxFanout),
			fmt.Sprintf("wire tracks %d, deficiency %d", f.WireTracks, f.Deficiency))
	} else {
		// The adder's tree is not the network: its own figures, as stats
		// --sparse and --valency print them, and the network's beside.
		network := fmt.Sprintf("network:    depth %d, %d binary cells", f.Depth, f.Size)
		if d.BinaryCells < f.Size {
			network += ", of which the adder keeps those its outputs need"
		}
		h = append(h, network,
			fmt.Sprintf("            max fan-out %d, wire tracks %d, deficiency %d", f.MaxFanout, f.WireTracks, f.Deficiency),
			fmt.Sprintf("max fan-out %d (logical, over the adder's gates: gates reading a signal, +1 if it is a carry used)", d.MaxFanout),
			fmt.Sprintf("wire tracks %d (over the adder's gates)", d.WireTracks))
	}
	if d.Groups > 0 {
		blocks := fmt.Sprintf("%d carry-select blocks of %d bits", d.Groups, d.Architecture.Sparse)
		if last := d.Width % d.Architecture.Sparse; last != 0 {
			// The last block holds what is left of the width.
			blocks = fmt.Sprintf("%d carry-select blocks, %d of %d bits and 1 of %d", d.Groups, d.Groups-1, d.Architecture.Sparse, last)
		}
		h = append(h, fmt.Sprintf("sparse:     %s, %d sum multiplexers", blocks, d.Muxes))
	}
	if c := d.LibraryCells; c != nil && d.Architecture.PGCells {
		h = append(h, fmt.Sprintf("cells:      %s and %s of a standard-cell library compute each bit's generate and propagate", c.NAND2.Name, c.OAI21.Name))
	}
	if c := d.LibraryCells; c != nil && d.Architecture.FACells {
		h = append(h, fmt.Sprintf("cells:      %d full adders (%s of a standard-cell library), %d sum multiplexers", d.FullAdders, c.FA.Name, d.Muxes))
	}
	if d.Latency > 0 {
		h = append(h, fmt.Sprintf("pipeline:   %d register stage(s) after levels %s, %d register bits",
			d.Latency, strings.Trim(fmt.Sprint(d.Architecture.PipelineAfter), "[]"), d.RegisterBits))
	}
	return h
}

// verilogExpr spells e in Verilog, with parentheses around every operand
// that is itself an operation of two or more operands.
func verilogExpr(e adder.Expr) string {
	operand := func(x adder.Expr) string {
		s := verilogExpr(x)
		switch x.Op {
		case adder.OpRef, adder.OpConst, adder.OpNot:
			return s
		}
		return "(" + s + ")"
	}
	switch e.Op {
	case adder.OpRef:
		return e.Ref.String()
	case adder.OpConst:
		if e.Value {
			return "1'b1"
		}
		return "1'b0"
	case adder.OpNot:
		return "~" + operand(e.Args[0])
	case adder.OpAnd, adder.OpOr, adder.OpXor:
		sep := map[adder.ExprOp]string{adder.OpAnd: " & ", adder.OpOr: " | ", adder.OpXor: " ^ "}[e.Op]
		parts := make([]string, len(e.Args))
		for i, a := range e.Args {
			parts[i] = operand(a)
		}
		return strings.Join(parts, sep)
	case adder.OpMux:
		return operand(e.Args[0]) + " ? " + operand(e.Args[1]) + " : " + operand(e.Args[2])
	case adder.OpReduceAnd:
		return "&" + operand(e.Args[0])
	case adder.OpReduceOr:
		return "|" + operand(e.Args[0])
	}
	panic(fmt.Sprintf("emit: unknown expression operator %d", e.Op))
}

// CheckModuleCells refuses a module name (fold: an entity's, whose case
// VHDL ignores) that is the name of a library cell of cells, which the
// adder may instantiate: the module would instantiate itself.
func CheckModuleCells(module string, cells *adder.Cells, fold bool) error {
	if cells == nil {
		return nil
	}
	for _, name := range []string{cells.NAND2.Name, cells.OAI21.Name, cells.FA.Name} {
		if name != "" && (name == module || fold && strings.EqualFold(name, module)) {
			return fmt.Errorf("emit: module name %s is the name of a library cell the adder may instantiate: allowed another name", network.Quote(module))
		}
	}
	return nil
}
