package designmap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/internal/bounded"
	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/liberty"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/physical"
)

// keepLCU is the techmap that turns every $lcu into a cell of a type no
// map knows, so that synth's techmap leaves the carry trees for Map to
// give one network each.
const keepLCU = `(* techmap_celltype = "$lcu" *)
module _10_prefixgen_keep_lcu (P, G, CI, CO);
    parameter WIDTH = 2;
    (* force_downto *) input [WIDTH-1:0] P, G;
    input CI;
    (* force_downto *) output [WIDTH-1:0] CO;
    \$__prefixgen_lcu #(.WIDTH(WIDTH)) _TECHMAP_REPLACE_ (.P(P), .G(G), .CI(CI), .CO(CO));
endmodule
`

// quote quotes a path for a Yosys script.
func quote(s string) string { return `"` + s + `"` }

// noTop is the error of a --top the design has no module of, naming the
// modules Yosys read.
func (r *run) noTop() error {
	list, _ := os.ReadFile(filepath.Join(r.dir, "modules.txt"))
	var modules []string
	for _, l := range strings.Split(string(list), "\n") {
		if strings.HasPrefix(l, "  ") && !strings.ContainsAny(strings.TrimSpace(l), " $\\") {
			modules = append(modules, strings.TrimSpace(l))
		}
	}
	if len(modules) == 0 {
		return bad("top module %s is not in the design, which has no module", network.Quote(r.opt.Top))
	}
	slices.Sort(modules)
	const most = 10
	more := ""
	if len(modules) > most {
		more = fmt.Sprintf(" and %d more", len(modules)-most)
		modules = modules[:most]
	}
	return bad("top module %s is not in the design: allowed one of its modules, %s%s (--top)", network.Quote(r.opt.Top), strings.Join(modules, ", "), more)
}

// design is one prepared design: its RTLIL file in the run's folder and
// its adders' $lcu cells.
type design struct {
	file   string
	adders []lcu
}

// The prepared designs: the design as Yosys extracts its adders, and the
// same with each chain of sums merged (mergeSums), where that changes it.
const (
	asExtracted = iota
	sumsMerged
)

// prepare reads the design, runs it up to alumacc and maps every $alu and
// $macc down to the $lcu cells it numbers, and writes prepared.il; then,
// where mergeSums merges chains of sums, the same with the chains merged,
// merged.il.
func (r *run) prepare(ctx context.Context) error {
	var b strings.Builder
	b.WriteString("read_verilog")
	// A SystemVerilog file among them makes the read SystemVerilog's,
	// as a tool given one reads the rest.
	for _, f := range r.opt.Files {
		if strings.EqualFold(filepath.Ext(f), ".sv") {
			b.WriteString(" -sv")
			break
		}
	}
	for _, d := range r.opt.Defines {
		b.WriteString(" -D" + d)
	}
	flags, err := physical.IncludeFlags(r.dir, r.opt.Includes)
	if err != nil {
		return fmt.Errorf("designmap: %w", err)
	}
	for _, f := range flags {
		b.WriteString(" " + f)
	}
	for i, f := range r.opt.Files {
		abs, err := r.readable(i, f)
		if err != nil {
			return err
		}
		b.WriteString(" " + quote(abs))
	}
	b.WriteString("\n")
	top := r.opt.Top
	hierarchy := fmt.Sprintf("hierarchy -check -top %s\n", top)
	read := b.String() + hierarchy
	b.WriteString("tee -q -o modules.txt ls\n") // what --top may name
	b.WriteString(hierarchy)
	// Every module is merged into the top, those marked to be kept apart
	// too: the adders are numbered, and replaced, in the top alone.
	b.WriteString("setattr -mod -unset keep_hierarchy; setattr -unset keep_hierarchy\n")
	fmt.Fprintf(&b, "synth -top %s -flatten -run begin:fine\n", top)
	// The adders are named prefixgen_lcu_N: a name of the design's own
	// of that form would be taken twice.
	fmt.Fprintf(&b, "%s\n", reservedCheck)
	b.WriteString(lcuTail("prepared"))
	fmt.Fprintf(&b, "tee -q -o inputs.txt select -list %s/i:*\n", top)
	fmt.Fprintf(&b, "tee -q -o bits.txt select -list %s/i:* %s/s:1 %%i\n", top, top)
	// What keeps state: registers, latches and memories, before fine
	// maps them onto gates; and the latches alone.
	// The library's own cells that keep state count too, where the
	// design instantiates them by name.
	latches := append([]string{"$*latch*", "$*LATCH*", "$sr", "$_SR_*"}, r.latches...)
	b.WriteString("tee -q -o state.txt select -list")
	for _, t := range slices.Concat([]string{"$*ff*", "$*FF*", "$mem*"}, r.flops, latches) {
		fmt.Fprintf(&b, " %s/t:%s", top, t)
	}
	b.WriteString("\ntee -q -o latches.txt select -list")
	for _, t := range latches {
		fmt.Fprintf(&b, " %s/t:%s", top, t)
	}
	b.WriteString("\n")
	files := map[string]string{"prepare.ys": b.String(), "keep_lcu.v": keepLCU}
	if _, err := r.yosysRun(ctx, r.dir, files, "prepare.ys", true); err != nil {
		if strings.Contains(err.Error(), "Module `"+top+"' not found") {
			return r.noTop()
		}
		if strings.Contains(err.Error(), "Assertion failed: selection is not empty") && strings.Contains(err.Error(), "prefixgen_lcu_") {
			return bad("the design has a name of the form prefixgen_lcu_N in %s, the names map gives its adders: allowed other names", network.Quote(top))
		}
		return err
	}
	inputs, err := os.ReadFile(filepath.Join(r.dir, "inputs.txt"))
	if err != nil {
		return fmt.Errorf("designmap: yosys listed no inputs: %w", err)
	}
	clock := r.opt.clock()
	found := false
	for _, l := range strings.Fields(string(inputs)) {
		if _, name, _ := strings.Cut(l, "/"); name == clock {
			found = true
		}
	}
	state, err := os.ReadFile(filepath.Join(r.dir, "state.txt"))
	if err != nil {
		return fmt.Errorf("designmap: yosys listed no registers: %w", err)
	}
	// Yosys maps no latch onto a library's cells (dfflibmap maps
	// flip-flops), and OpenSTA times no black box.
	latched, err := os.ReadFile(filepath.Join(r.dir, "latches.txt"))
	if err != nil {
		return fmt.Errorf("designmap: yosys listed no latches: %w", err)
	}
	if len(strings.Fields(string(latched))) > 0 {
		return bad("%s holds latches, which map neither maps nor times: allowed a design whose registers are flip-flops", top)
	}
	switch {
	case !found && r.opt.Clock == "" && len(strings.Fields(string(state))) == 0:
		r.virtual = true
	case !found && r.opt.Clock == "":
		return bad("clock %s is not an input of %s, whose registers need one: allowed an input port (--clock)", network.Quote(clock), r.opt.Top)
	case !found:
		return bad("clock %s is not an input of %s: allowed an input port (--clock)", network.Quote(clock), r.opt.Top)
	}
	bits, err := os.ReadFile(filepath.Join(r.dir, "bits.txt"))
	if err != nil {
		return fmt.Errorf("designmap: yosys listed no inputs of one bit: %w", err)
	}
	if !r.virtual && !slices.Contains(strings.Fields(string(bits)), top+"/"+clock) {
		return bad("clock %s is an input of more than one bit: allowed an input port of one bit (--clock)", network.Quote(clock))
	}
	d, err := r.readDesign("prepared")
	if err != nil {
		return err
	}
	r.designs = []*design{d}
	if len(d.adders) == 0 {
		return nil
	}

	// The same before alumacc, its shared sums copied, then on.
	script := read + fmt.Sprintf("synth -top %s -flatten -noalumacc -run begin:fine\nwrite_json sums.json\n", top)
	if _, err := r.yosysRun(ctx, r.dir, map[string]string{"sums.ys": script}, "sums.ys", true); err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(r.dir, "sums.json"))
	if err != nil {
		return fmt.Errorf("designmap: yosys wrote no json: %w", err)
	}
	merged, copies, err := mergeSums(data, top)
	if err != nil || copies == 0 {
		return err
	}
	r.sumCopies = copies
	if err := os.WriteFile(filepath.Join(r.dir, "merged.json"), merged, 0o644); err != nil {
		return err
	}
	script = "read_json merged.json\nalumacc\nopt\nopt_clean\n" + lcuTail("merged")
	if _, err := r.yosysRun(ctx, r.dir, map[string]string{"merge.ys": script}, "merge.ys", false); err != nil {
		return err
	}
	m, err := r.readDesign("merged")
	if err != nil {
		return err
	}
	r.designs = append(r.designs, m)
	return nil
}

// reservedCheck is the Yosys command that fails on a wire or cell of the
// flattened top named as map names its adders.
const reservedCheck = "select -assert-none w:prefixgen_lcu_* c:prefixgen_lcu_*"

// lcuTail is the end of a script that prepares a design after alumacc:
// what synth runs next, then every $alu and $macc down to $lcu cells,
// numbered, listed in NAME-lcus.txt, the design written to NAME.il.
func lcuTail(name string) string {
	return "opt -fast -full\nmemory_map\nopt -full\n" +
		"techmap -map +/techmap.v -map keep_lcu.v\nopt -fast\n" +
		"rename -enumerate -pattern prefixgen_lcu_% t:$__prefixgen_lcu\n" +
		"tee -q -o " + name + "-lcus.txt dump t:$__prefixgen_lcu\n" +
		"write_rtlil " + name + ".il\n"
}

// readDesign reads the adders of the design lcuTail prepared as name.
func (r *run) readDesign(name string) (*design, error) {
	dump, err := os.ReadFile(filepath.Join(r.dir, name+"-lcus.txt"))
	if err != nil {
		return nil, fmt.Errorf("designmap: yosys listed no adders: %w", err)
	}
	adders, err := parseLCUs(dump)
	if err != nil {
		return nil, err
	}
	return &design{file: name + ".il", adders: adders}, nil
}

// lcuCell matches one numbered $lcu cell and its width in Yosys's dump.
var lcuCell = regexp.MustCompile(`cell \$__prefixgen_lcu \\(prefixgen_lcu_(\d+))\s+parameter \\WIDTH (\d+)`)

// parseLCUs reads the cells of Yosys's dump, in the order of their numbers.
func parseLCUs(dump []byte) ([]lcu, error) {
	type numbered struct {
		lcu
		k int
	}
	var cells []numbered
	for _, m := range lcuCell.FindAllSubmatch(dump, -1) {
		k, _ := strconv.Atoi(string(m[2]))
		w, err := strconv.Atoi(string(m[3]))
		if err != nil || w < 1 || w > emit.MaxLCUWidth {
			return nil, bad("the design has an adder of %s bits: allowed adders of 1 to %d bits", m[3], emit.MaxLCUWidth)
		}
		cells = append(cells, numbered{lcu{string(m[1]), w}, k})
	}
	if n := bytes.Count(dump, []byte("cell $__prefixgen_lcu ")); n != len(cells) {
		return nil, fmt.Errorf("designmap: yosys listed %d adders, %d of them read", n, len(cells))
	}
	sort.Slice(cells, func(i, j int) bool { return cells[i].k < cells[j].k })
	out := make([]lcu, len(cells))
	for i, c := range cells {
		out[i] = c.lcu
	}
	return out, nil
}

// choice is a network for every adder of one prepared design
// (r.designs[design]): nets[i] nil (or nets nil for all) is Yosys's own,
// merged into the logic around it as Yosys maps it; another is kept whole.
type choice struct {
	design int
	nets   []*network.Network
}

func yosysChoice() choice { return choice{} }

// kept reports whether any adder of c has a network kept whole.
func (c choice) kept() bool {
	for _, n := range c.nets {
		if n != nil {
			return true
		}
	}
	return false
}

// uniform is the choice of family b for every adder of design d.
func (r *run) uniform(b Baseline, d int) (choice, error) {
	adders := r.designs[d].adders
	c := choice{design: d, nets: make([]*network.Network, len(adders))}
	for i, a := range adders {
		net, err := buildFamily(b, a.width)
		if err != nil {
			return c, err
		}
		c.nets[i] = net
	}
	return c, nil
}

// lcuMap writes what gives every adder its network: a techmap (lcus.v)
// with one module per adder's cell type, and, for networks of prefixgen's,
// the networks as modules of their own (nets.v, keep_hierarchy) that the
// techmap instantiates, so that ABC maps each network as it is. With
// probe, wires OpenSTA can find (probe_p, probe_g, probe_ci, probe_co) are
// kept at each adder's ports.
func (r *run) lcuMap(c choice, probe bool) (lcus, nets string, err error) {
	var b, n strings.Builder
	b.WriteString("// Code generated by prefixgen map; DO NOT EDIT.\n")
	for i, a := range r.designs[c.design].adders {
		k := strings.TrimPrefix(a.cell, "prefixgen_lcu_")
		net := c.network(i)
		inner := `\$lcu #(.WIDTH(WIDTH))`
		if net != nil {
			inner = "prefixgen_net_" + k
		}
		fmt.Fprintf(&b, "\n(* techmap_celltype = \"$__prefixgen_lcu_%s\" *)\nmodule _prefixgen_adder_%s (P, G, CI, CO);\n", k, k)
		fmt.Fprintf(&b, "    parameter WIDTH = %d;\n    (* force_downto *) input [WIDTH-1:0] P, G;\n    input CI;\n    (* force_downto *) output [WIDTH-1:0] CO;\n", a.width)
		if probe {
			b.WriteString("    (* keep *) wire [WIDTH-1:0] probe_p = P;\n    (* keep *) wire [WIDTH-1:0] probe_g = G;\n    (* keep *) wire probe_ci = CI;\n    (* keep *) wire [WIDTH-1:0] probe_co;\n")
			fmt.Fprintf(&b, "    %s carry (.P(probe_p), .G(probe_g), .CI(probe_ci), .CO(probe_co));\n    assign CO = probe_co;\n", inner)
		} else {
			fmt.Fprintf(&b, "    %s carry (.P(P), .G(G), .CI(CI), .CO(CO));\n", inner)
		}
		b.WriteString("endmodule\n")
		if net != nil {
			if n.Len() > 0 {
				n.WriteString("\n")
			}
			if err := emit.YosysLCU(&n, net, emit.YosysLCUOptions{Module: "prefixgen_net_" + k, Plain: true}); err != nil {
				return "", "", err
			}
		}
	}
	return b.String(), n.String(), nil
}

// mapScript is the Yosys script that reads the prepared design of c, gives
// each adder its network (lcus.v, and nets.v where the networks are
// modules of their own) and ends with lines.
func (r *run) mapScript(c choice, lines ...string) string {
	var b strings.Builder
	d := r.designs[c.design]
	fmt.Fprintf(&b, "read_rtlil ../%s\n", d.file)
	kept := c.kept()
	if kept {
		b.WriteString("read_verilog nets.v\n")
	}
	for _, a := range d.adders {
		k := strings.TrimPrefix(a.cell, "prefixgen_lcu_")
		fmt.Fprintf(&b, "chtype -set $__prefixgen_lcu_%s %s/%s\n", k, r.opt.Top, a.cell)
	}
	b.WriteString("techmap -map lcus.v\n")
	if kept {
		fmt.Fprintf(&b, "hierarchy -top %s\n", r.opt.Top)
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// keptScript is the ABC script of the networks kept whole: structural
// hashing and the Liberty mapper, without the rewriting that would merge a
// network into a ripple of majority gates, then ABC's buffering and sizing.
const keptScript = "+strash;&get,-n;&nf,{D};&put;buffer;upsize,{D};dnsize,{D}"

// flatten is what ends the flow of networks kept whole: every module
// merged into the top, the networks' modules then dropped.
func (r *run) flatten() []string {
	return []string{"setattr -mod -unset keep_hierarchy", "flatten", "hierarchy -top " + r.opt.Top}
}

// measure is one synthesized and timed design.
type measure struct {
	area, worst float64
	netlist     []byte
	// arrivals[i][j] is when bit j of adder i arrives (ns), slack[i] the
	// slack through its outputs, cout[i] its latest output; probed only.
	arrivals [][]float64
	slack    []float64
	cout     []float64
}

func (m *measure) outcome(name string) Outcome {
	return Outcome{Choice: name, AreaUM2: m.area, WorstNS: m.worst}
}

// synthesize maps and times the design with choice c.
func (r *run) synthesize(ctx context.Context, c choice, probe bool) (*measure, error) {
	select {
	case r.jobs <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-r.jobs }()
	dir, err := r.subdir("synth")
	if err != nil {
		return nil, err
	}
	lcus, nets, err := r.lcuMap(c, probe)
	if err != nil {
		return nil, err
	}
	constr := ""
	if s := physical.ABCConstraints(r.rec); s != "" {
		constr = " -constr abc.constr"
	}
	abc := fmt.Sprintf("abc -liberty %s%s -D %d", quote(r.lib), constr, int(r.opt.PeriodNS*1000+0.5))
	top := r.opt.Top
	var lines []string
	if !c.kept() {
		// Yosys as a user runs it: synth, then ABC over the whole design.
		lines = []string{"synth -top " + top + " -flatten -run fine:", "dfflibmap -liberty " + quote(r.lib), abc}
	} else {
		lines = []string{"synth -top " + top + " -noabc -run fine:", "dfflibmap -liberty " + quote(r.lib),
			abc + " -script " + quote(keptScript) + " prefixgen_net_*", abc + " " + top}
		lines = append(lines, r.flatten()...)
	}
	lines = append(lines, "opt_clean -purge")
	// Probed, a probe wire is another name of a wire: insbuf would buffer
	// it, and OpenSTA would time the buffer's dangling output.
	lines = append(lines, physical.PlatformCommands(r.rec, !probe)...)
	lines = append(lines, "tee -q -o stat.txt stat -liberty "+quote(r.lib), "write_verilog -noattr -noexpr -simple-lhs mapped.v")
	files := map[string]string{"map.ys": r.mapScript(c, lines...), "lcus.v": lcus, "nets.v": nets}
	if constr != "" {
		files["abc.constr"] = physical.ABCConstraints(r.rec)
	}
	if _, err := r.yosysRun(ctx, dir, files, "map.ys", false); err != nil {
		return nil, err
	}
	stat, err := os.ReadFile(filepath.Join(dir, "stat.txt"))
	if err != nil {
		return nil, fmt.Errorf("designmap: yosys wrote no statistics: %w", err)
	}
	area, err := chipArea(stat)
	if err != nil {
		return nil, err
	}
	netlist, err := os.ReadFile(filepath.Join(dir, "mapped.v"))
	if err != nil {
		return nil, fmt.Errorf("designmap: yosys wrote no netlist: %w", err)
	}
	meas := &measure{area: area, netlist: netlist}
	if err := r.time(ctx, dir, meas, r.designs[c.design], probe); err != nil {
		return nil, err
	}
	r.step()
	return meas, nil
}

// chipAreaLine matches Yosys's stat -liberty area of the top module.
var chipAreaLine = regexp.MustCompile(`Chip area for (?:top )?module '[^']*': ([0-9.eE+-]+)`)

// cellsLine matches Yosys's count of a module's cells.
var cellsLine = regexp.MustCompile(`Number of cells:\s+(\d+)`)

// chipArea reads the area of the top module from Yosys's statistics: 0
// for a design of no cells (wires alone), of which Yosys names no area.
func chipArea(stat []byte) (float64, error) {
	m := chipAreaLine.FindAllSubmatch(stat, -1)
	if m == nil {
		if c := cellsLine.FindAllSubmatch(stat, -1); c != nil && string(c[len(c)-1][1]) == "0" {
			return 0, nil
		}
		return 0, fmt.Errorf("designmap: yosys's statistics name no chip area")
	}
	return strconv.ParseFloat(string(m[len(m)-1][1]), 64)
}

// generic writes the design with choice c's networks as Yosys's generic
// gates.
func (r *run) generic(ctx context.Context, c choice) ([]byte, error) {
	lcus, nets, err := r.lcuMap(c, false)
	if err != nil {
		return nil, err
	}
	return r.genericFrom(ctx, c, lcus, nets)
}

// genericFrom writes the design of c with the adders the techmap lcus
// (and the networks' modules nets, where c keeps any whole) gives them as
// Yosys's generic gates, flat.
func (r *run) genericFrom(ctx context.Context, c choice, lcus, nets string) ([]byte, error) {
	dir, err := r.subdir("generic")
	if err != nil {
		return nil, err
	}
	var lines []string
	if c.kept() {
		lines = r.flatten()
	}
	// The adders' own names hidden, so that a net an adder shares with the
	// design (a register that is an operand) keeps the design's name
	// whatever the adder's network.
	lines = append(lines, "techmap", "rename -hide w:prefixgen_lcu_*",
		"opt -fast", "opt_clean -purge", "write_verilog -noattr generic.v")
	files := map[string]string{"generic.ys": r.mapScript(c, lines...), "lcus.v": lcus, "nets.v": nets}
	if _, err := r.yosysRun(ctx, dir, files, "generic.ys", false); err != nil {
		return nil, err
	}
	out, err := os.ReadFile(filepath.Join(dir, "generic.v"))
	if err != nil {
		return nil, fmt.Errorf("designmap: yosys wrote no generic netlist: %w", err)
	}
	return out, nil
}

// yosysError matches the first error Yosys prints.
var yosysError = regexp.MustCompile(`(?m)^(.*?)ERROR: (.*)$`)

// yosysRun writes files into dir and runs Yosys on script there. An error
// Yosys prints is bad input where input says so (reading the user's
// design), a failure otherwise.
func (r *run) yosysRun(ctx context.Context, dir string, files map[string]string, script string, input bool) (string, error) {
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	res, err := toolrun.Run(ctx, toolrun.Cmd{Path: r.yosys, Args: []string{"-q", "-s", script}, Dir: dir, Timeout: r.opt.timeout()})
	out := ""
	if res != nil {
		out = string(res.Output)
	}
	if m := yosysError.FindStringSubmatch(out); m != nil {
		msg := toolrun.OneLine(strings.TrimSpace(m[1] + m[2]))
		if input {
			return out, bad("yosys: %s", msg)
		}
		return out, fmt.Errorf("designmap: yosys: %s", msg)
	}
	if err != nil {
		if _, exited := errors.AsType[*toolrun.ExitError](err); exited {
			return out, fmt.Errorf("designmap: yosys failed without an error line: %s", toolrun.OneLine(toolrun.LastLine(out)))
		}
		return out, fmt.Errorf("designmap: %w", err)
	}
	return out, nil
}

// yosysName matches a cell name a Yosys selection takes as it is.
var yosysName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// stateCells returns the names of a library's flip-flops and latches, in
// order, for the selections that find what keeps state. A name a Yosys
// selection would read as a pattern is left out.
func stateCells(cells map[string]liberty.Cell) (flops, latches []string) {
	for name, c := range cells {
		switch {
		case !yosysName.MatchString(name):
		case c.Latch:
			latches = append(latches, name)
		case c.Clock != "":
			flops = append(flops, name)
		}
	}
	slices.Sort(flops)
	slices.Sort(latches)
	return flops, latches
}

// readable returns the path Yosys reads the design's file f, the i-th,
// from: f's own, or where f is a FIFO or a shell's <(…), which Yosys reads
// nothing from, a copy of it in the run's folder, read once, with its
// extension (.sv is read as SystemVerilog).
func (r *run) readable(i int, f string) (string, error) {
	abs, err := filepath.Abs(f)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || st.Mode().IsRegular() {
		return abs, nil
	}
	// As much as a design file of the user's may hold against the memory
	// (Yosys reading a design takes dozens of times its bytes): a 64th.
	most := int64(1 << 30)
	if r.opt.Memory > 0 {
		most = max(r.opt.Memory/64, 1<<20)
	}
	src, err := bounded.ReadFile(abs, most)
	if err != nil {
		return "", bad("design file %s cannot be read: %v", network.Quote(f), err)
	}
	if emit.HasByteOrderMark(src) {
		// As a regular file's is found before (Options.check).
		return "", bad(bomMessage, network.Quote(f))
	}
	ext := filepath.Ext(f)
	if !strings.EqualFold(ext, ".sv") {
		ext = ".v"
	}
	copied := filepath.Join(r.dir, fmt.Sprintf("design_%d%s", i, ext))
	if err := os.WriteFile(copied, src, 0o644); err != nil {
		return "", fmt.Errorf("designmap: %w", err)
	}
	return copied, nil
}
