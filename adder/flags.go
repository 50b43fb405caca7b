package adder

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/prefixgen/prefixgen/network"
)

// The names of the architecture's command-line flags, without the leading
// dashes, as every prefixgen command that takes them spells them.
const (
	FlagOp            = "op"
	FlagNoCarryIn     = "no-cin"
	FlagFlags         = "flags"
	FlagSparse        = "sparse"
	FlagValency       = "valency"
	FlagLing          = "ling"
	FlagPGCells       = "pg-cells"
	FlagFACells       = "fa-cells"
	FlagIncrement     = "increment"
	FlagPipelineAfter = "pipeline-after"
	FlagStages        = "stages"
	FlagNoReset       = "no-reset"
)

// FlagNames lists the architecture's flags in the order Args writes them.
var FlagNames = []string{FlagOp, FlagNoCarryIn, FlagFlags, FlagSparse, FlagValency, FlagLing, FlagPGCells, FlagFACells, FlagIncrement, FlagPipelineAfter, FlagStages, FlagNoReset}

// DocumentFlags lists the flags whose parts the adder document records
// (see DocumentFormat).
var DocumentFlags = []string{FlagSparse, FlagValency, FlagLing, FlagPGCells, FlagFACells, FlagIncrement, FlagStages, FlagNoReset}

// boolFlags are the flags that take no value: given alone they are true.
var boolFlags = []string{FlagNoCarryIn, FlagLing, FlagPGCells, FlagFACells, FlagIncrement, FlagNoReset}

// FlagSource is a command line's flags as a flag package holds them: IsSet
// reports whether the flag name was given, and Value returns its value (a
// bool, an int or a string, or any value whose fmt.Sprint is the text of
// one), or nil when the command has no such flag. The *cli.Context of
// github.com/urfave/cli/v2 is one.
type FlagSource interface {
	IsSet(name string) bool
	Value(name string) any
}

// Recorded is the architecture a document records, which flags may repeat
// but not change; Path names the document in messages.
type Recorded struct {
	Architecture
	Path string
}

// ReadFlags returns the architecture that the flags of src build: Standard,
// or with rec the architecture rec records, changed by every flag of
// FlagNames that src has and was given. It checks what needs no network: a
// known operation and known flags, no --flags or --no-cin for compare, an
// allowed sparseness and valency, levels for --pipeline-after, one of
// --stages and --pipeline-after, at least one stage, --no-reset with a
// pipeline, --pg-cells with add, --fa-cells with what it applies to; and
// with rec, that no flag contradicts
// rec. Its errors name the flag and what is allowed, one line each;
// Check takes the architecture to a network.
func ReadFlags(src FlagSource, rec *Recorded) (Architecture, error) {
	return readFlags(src, rec, false)
}

// readFlags is ReadFlags; with list the sparseness is ReadFlagList's to
// read, and what FACells needs of it is left for ReadFlagList to check.
func readFlags(src FlagSource, rec *Recorded, list bool) (Architecture, error) {
	f := flagReader{src}
	arch := Standard
	if rec != nil {
		arch = rec.Normal()
	}
	doc := arch
	contradicts := func(name, given, part string) error {
		return fmt.Errorf("adder: %s contradicts %s, %s: leave --%s out", given, rec.Path, part, name)
	}
	if f.set(FlagSparse) {
		s, err := f.int(FlagSparse)
		if err != nil {
			return Architecture{}, err
		}
		if !slices.Contains(Sparseness, s) {
			return Architecture{}, fmt.Errorf("adder: sparseness %d not allowed: allowed %s", s, sparseAllowed())
		}
		if rec != nil && s != doc.Sparse {
			return Architecture{}, contradicts(FlagSparse, fmt.Sprintf("--sparse %d", s), sparseWords(doc.Sparse))
		}
		arch.Sparse = s
	}
	if f.set(FlagValency) {
		k, err := f.int(FlagValency)
		if err != nil {
			return Architecture{}, err
		}
		if k < 2 || k > MaxValency {
			return Architecture{}, fmt.Errorf("adder: --valency %d not allowed: allowed 2, 3, 4", k)
		}
		if rec != nil && k != doc.Valency {
			return Architecture{}, contradicts(FlagValency, fmt.Sprintf("--valency %d", k), fmt.Sprintf("the valency-%d adder", doc.Valency))
		}
		arch.Valency = k
	}
	for _, b := range []struct {
		name  string
		field *bool
		words func(bool) string
	}{{FlagLing, &arch.Ling, lingWords}, {FlagPGCells, &arch.PGCells, pgCellsWords}, {FlagFACells, &arch.FACells, faCellsWords}, {FlagIncrement, &arch.Increment, incrementWords}} {
		if !f.set(b.name) {
			continue
		}
		v, err := f.bool(b.name)
		if err != nil {
			return Architecture{}, err
		}
		if rec != nil && v != *b.field {
			return Architecture{}, contradicts(b.name, boolFlag(b.name, v), b.words(*b.field))
		}
		*b.field = v
	}
	if rec != nil && f.set(FlagPipelineAfter) {
		return Architecture{}, contradicts(FlagPipelineAfter, "--"+FlagPipelineAfter, pipelineWords(doc.Stages, doc.NoReset))
	}
	if f.set(FlagStages) {
		k, err := f.int(FlagStages)
		if err != nil {
			return Architecture{}, err
		}
		if rec != nil && k != doc.Stages {
			return Architecture{}, contradicts(FlagStages, fmt.Sprintf("--stages %d", k), pipelineWords(doc.Stages, doc.NoReset))
		}
		arch.Stages = k
	}
	if f.set(FlagNoReset) {
		v, err := f.bool(FlagNoReset)
		if err != nil {
			return Architecture{}, err
		}
		if rec != nil && v != doc.NoReset {
			return Architecture{}, contradicts(FlagNoReset, boolFlag(FlagNoReset, v), pipelineWords(doc.Stages, doc.NoReset))
		}
		arch.NoReset = v
	}
	if f.set(FlagOp) {
		op, err := ParseOp(f.text(FlagOp))
		if err != nil {
			return Architecture{}, fmt.Errorf("adder: --op: %s", strings.TrimPrefix(err.Error(), "adder: "))
		}
		arch.Op = op
	}
	if arch.Op == Compare && arch.Sparse > 1 && rec != nil && !f.set(FlagSparse) {
		return Architecture{}, fmt.Errorf("adder: --op compare does not apply to %s, %s: compare uses only the carry out, of a dense tree: allowed a dense adder's file", rec.Path, sparseWords(arch.Sparse))
	}
	if arch.PGCells && arch.Op != Add {
		source := "--" + FlagPGCells
		if rec != nil && !f.set(FlagPGCells) {
			source = rec.Path + ", an adder of library cells,"
		}
		return Architecture{}, fmt.Errorf("adder: %s applies to --op add only: the cells take a and b as they are", source)
	}
	if arch.FACells {
		source := "--" + FlagFACells
		if rec != nil && !f.set(FlagFACells) {
			source = rec.Path + ", an adder of full-adder cells,"
		}
		why := arch.faCellsFit()
		if list {
			why = arch.faCellsFitAnySparse()
		}
		if why != "" {
			return Architecture{}, fmt.Errorf("adder: %s %s", source, why)
		}
	}
	if arch.Increment {
		source := "--" + FlagIncrement
		if rec != nil && !f.set(FlagIncrement) {
			source = rec.Path + ", an adder of carry-increment blocks,"
		}
		why := arch.incrementFit()
		if list && arch.FACells {
			why = "" // ReadFlagList's to check, sparseness by sparseness
		}
		if why != "" {
			return Architecture{}, fmt.Errorf("adder: %s %s", source, why)
		}
	}
	if arch.Op == Compare {
		if f.set(FlagFlags) {
			return Architecture{}, fmt.Errorf("adder: --flags applies to --op add, sub and addsub; compare outputs lt, ltu and eq")
		}
		if f.set(FlagNoCarryIn) {
			return Architecture{}, fmt.Errorf("adder: --no-cin applies to --op add, sub and addsub; compare has no carry-in")
		}
		arch.Flags = 0
	} else {
		if f.set(FlagFlags) {
			flags, err := ParseFlags(f.text(FlagFlags))
			if err != nil {
				return Architecture{}, fmt.Errorf("adder: --flags: %s", strings.TrimPrefix(err.Error(), "adder: "))
			}
			arch.Flags = flags
		}
		if f.set(FlagNoCarryIn) {
			v, err := f.bool(FlagNoCarryIn)
			if err != nil {
				return Architecture{}, err
			}
			arch.NoCarryIn = v
		}
	}
	if f.set(FlagPipelineAfter) {
		text := f.text(FlagPipelineAfter)
		arch.PipelineAfter = nil
		for l := range strings.SplitSeq(text, ",") {
			level, err := strconv.Atoi(strings.TrimSpace(l))
			if err != nil {
				return Architecture{}, fmt.Errorf("adder: --pipeline-after %s: want comma-separated levels, such as 0,3", network.Quote(text))
			}
			if k := len(arch.PipelineAfter); level < 0 || k > 0 && level <= arch.PipelineAfter[k-1] {
				return Architecture{}, fmt.Errorf("adder: --pipeline-after %s: allowed distinct levels from 0 up, smallest first, such as 0,3", network.Quote(text))
			}
			arch.PipelineAfter = append(arch.PipelineAfter, level)
		}
	}
	if f.set(FlagStages) && f.set(FlagPipelineAfter) {
		return Architecture{}, fmt.Errorf("adder: --stages and --pipeline-after both given: use one")
	}
	if f.set(FlagStages) && arch.Stages < 1 {
		return Architecture{}, fmt.Errorf("adder: --stages %d out of range: allowed 1 to the depth of the carry tree + 1", arch.Stages)
	}
	if arch.NoReset && !arch.pipelined() {
		with := "--stages"
		if src.Value(FlagPipelineAfter) != nil {
			with += " or --pipeline-after"
		}
		return Architecture{}, fmt.Errorf("adder: --no-reset applies to a pipelined adder: allowed with %s", with)
	}
	return arch.Normal(), nil
}

// ReadFlagList is ReadFlags for the commands that measure several adders,
// whose --sparse is a comma-separated list of sparseness values: it
// returns one architecture per sparseness, in the order given, each at
// most width. Without --sparse the list is 1, or with rec the sparseness
// rec records, which a list given must hold.
func ReadFlagList(src FlagSource, rec *Recorded, width int) ([]Architecture, error) {
	arch, err := readFlags(without{src, []string{FlagSparse}}, rec, true)
	if err != nil {
		return nil, err
	}
	f := flagReader{src}
	text := "1"
	if f.set(FlagSparse) {
		text = f.text(FlagSparse)
	}
	var list []int
	for _, item := range strings.Split(text, ",") {
		s, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil || !slices.Contains(Sparseness, s) {
			return nil, fmt.Errorf("adder: --sparse %s: sparseness %s not allowed: allowed %s, or a comma-separated list of them", network.Quote(text), network.Quote(item), sparseAllowed())
		}
		if s > width {
			return nil, fmt.Errorf("adder: --sparse %s: sparseness %d exceeds the width %d: allowed at most n", network.Quote(text), s, width)
		}
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	if rec != nil {
		switch s := arch.Sparse; {
		case !f.set(FlagSparse):
			list = []int{s}
		case !slices.Contains(list, s):
			return nil, fmt.Errorf("adder: --sparse %s leaves out %s's sparseness %d: add %d to the list, or leave --sparse out", text, rec.Path, s, s)
		}
	}
	archs := make([]Architecture, len(list))
	for i, s := range list {
		archs[i] = arch
		archs[i].Sparse = s
		if why := archs[i].faCellsFit(); archs[i].FACells && why != "" {
			return nil, fmt.Errorf("adder: --%s %s", FlagFACells, why)
		}
		if s == 1 {
			// A dense adder has no blocks: the list's sparse ones take
			// them.
			archs[i].Increment = false
		}
	}
	if arch.Increment && !slices.ContainsFunc(archs, func(a Architecture) bool { return a.Increment }) {
		return nil, fmt.Errorf("adder: --%s %s", FlagIncrement, arch.incrementFit())
	}
	return archs, nil
}

// ParseArgs reads the architecture that the flags args build, as Args
// writes them and prefixgen gen takes them: each flag of FlagNames at most
// once, as --name value or --name=value, a flag without a value (--ling,
// --pg-cells, --no-cin, --no-reset) alone for true. It checks them as
// ReadFlags does.
func ParseArgs(args []string) (Architecture, error) {
	src := argSource{}
	for i := 0; i < len(args); i++ {
		name, ok := strings.CutPrefix(args[i], "--")
		if !ok {
			return Architecture{}, fmt.Errorf("adder: %s is not a flag: allowed --%s", network.Quote(args[i]), strings.Join(FlagNames, ", --"))
		}
		name, value, hasValue := strings.Cut(name, "=")
		if !slices.Contains(FlagNames, name) {
			return Architecture{}, fmt.Errorf("adder: unknown flag --%s: allowed --%s", name, strings.Join(FlagNames, ", --"))
		}
		if _, twice := src[name]; twice {
			return Architecture{}, fmt.Errorf("adder: --%s given twice: each flag once", name)
		}
		if !hasValue {
			if slices.Contains(boolFlags, name) {
				value = "true"
			} else if i++; i < len(args) {
				value = args[i]
			} else {
				return Architecture{}, fmt.Errorf("adder: --%s needs a value", name)
			}
		}
		src[name] = value
	}
	return ReadFlags(src, nil)
}

// argSource is the flags ParseArgs read, by name: a FlagSource of every
// flag of FlagNames.
type argSource map[string]string

func (s argSource) IsSet(name string) bool { _, ok := s[name]; return ok }

func (s argSource) Value(name string) any {
	if !slices.Contains(FlagNames, name) {
		return nil
	}
	return s[name]
}

// Without returns src with the flags names hidden, as if its command had
// no such flags: for a command whose flag of that name means something
// else, such as explore's --valency, a list of the valencies of the
// networks it measures.
func Without(src FlagSource, names ...string) FlagSource { return without{src, names} }

// without hides flags of a FlagSource.
type without struct {
	FlagSource
	names []string
}

func (w without) IsSet(name string) bool {
	return !slices.Contains(w.names, name) && w.FlagSource.IsSet(name)
}

func (w without) Value(name string) any {
	if slices.Contains(w.names, name) {
		return nil
	}
	return w.FlagSource.Value(name)
}

// flagReader reads the values of a FlagSource.
type flagReader struct{ src FlagSource }

// set reports whether the command has the flag name and it was given.
func (f flagReader) set(name string) bool {
	return f.src.Value(name) != nil && f.src.IsSet(name)
}

// text returns the flag's value as text.
func (f flagReader) text(name string) string { return fmt.Sprint(f.src.Value(name)) }

// int returns the flag's value as a whole number.
func (f flagReader) int(name string) (int, error) {
	v, err := strconv.Atoi(f.text(name))
	if err != nil {
		return 0, fmt.Errorf("adder: --%s %s: want a whole number", name, network.Quote(f.text(name)))
	}
	return v, nil
}

// bool returns the flag's value as true or false.
func (f flagReader) bool(name string) (bool, error) {
	v, err := strconv.ParseBool(f.text(name))
	if err != nil {
		return false, fmt.Errorf("adder: --%s=%s: want true or false", name, network.Quote(f.text(name)))
	}
	return v, nil
}

// sparseAllowed lists Sparseness, as in "1, 2, 4, 8".
func sparseAllowed() string { return joinInts(Sparseness, ", ") }

// boolFlag writes the boolean flag name set to v as a user gives it:
// --ling, --ling=false.
func boolFlag(name string, v bool) string {
	if v {
		return "--" + name
	}
	return "--" + name + "=false"
}

// sparseWords names an adder by its sparseness, as "the sparse-2 adder" or
// "the dense adder".
func sparseWords(sparse int) string {
	if sparse > 1 {
		return fmt.Sprintf("the sparse-%d adder", sparse)
	}
	return "the dense adder"
}

// lingWords names an adder by its carries.
func lingWords(ling bool) string {
	if ling {
		return "the Ling adder"
	}
	return "an adder without Ling's carries"
}

// pgCellsWords names an adder by its pre-processing.
func pgCellsWords(cells bool) string {
	if cells {
		return "the adder whose generate and propagate are library cells"
	}
	return "an adder whose generate and propagate are logic"
}

// faCellsWords names an adder by its full adders.
func faCellsWords(cells bool) string {
	if cells {
		return "the adder of full-adder cells"
	}
	return "an adder without full-adder cells"
}

// incrementWords names an adder by its carry-select blocks of full
// adders, as a document's parts name it.
func incrementWords(inc bool) string {
	if inc {
		return "the adder of carry-increment blocks"
	}
	return "an adder without carry-increment blocks"
}

// pipelineWords names an adder by its pipeline, as "the 2 register stages,
// no reset pipeline" or "the combinational adder".
func pipelineWords(stages int, noReset bool) string {
	if stages == 0 {
		return "the combinational adder"
	}
	w := fmt.Sprintf("%d register stage", stages)
	if stages != 1 {
		w += "s"
	}
	if noReset {
		w += ", no reset"
	}
	return "the " + w + " pipeline"
}
