package adder_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/topologies"
)

// withStandard returns Standard with the changes fn makes.
func withStandard(fn func(a *adder.Architecture)) adder.Architecture {
	a := adder.Standard
	fn(&a)
	return a
}

// Every architecture has one spelling as flags, as a name, as a module
// name's suffix and (where the adder document records it) as JSON; the
// flags and the JSON read back to the same architecture.
func TestArchitectureSpellings(t *testing.T) {
	tests := []struct {
		arch         adder.Architecture
		args         string
		name, suffix string
		json         string // "" where the document cannot record it
	}{
		{adder.Standard, "", "", "", `{"sparse":1,"valency":2,"ling":false}`},
		{withStandard(func(a *adder.Architecture) { a.Sparse, a.Ling, a.Stages, a.NoReset, a.PGCells = 4, true, 2, true, true }),
			"--sparse 4 --ling --pg-cells --stages 2 --no-reset", "sparse=4 ling stages=2 noreset pgcells", "sparse4_ling_pgcells_pipe2_noreset",
			`{"sparse":4,"valency":2,"ling":true,"stages":2,"no_reset":true,"pg_cells":true}`},
		{withStandard(func(a *adder.Architecture) { a.Valency = 3 }), "--valency 3", "valency=3", "valency3", `{"sparse":1,"valency":3,"ling":false}`},
		{withStandard(func(a *adder.Architecture) { a.PGCells = true }), "--pg-cells", "pgcells", "pgcells", `{"sparse":1,"valency":2,"ling":false,"pg_cells":true}`},
		{withStandard(func(a *adder.Architecture) { a.FACells = true }), "--fa-cells", "facells", "facells", `{"sparse":1,"valency":2,"ling":false,"fa_cells":true}`},
		{withStandard(func(a *adder.Architecture) { a.Sparse, a.Ling, a.FACells, a.Increment = 4, true, true, true }), "--sparse 4 --ling --fa-cells --increment",
			"sparse=4 ling facells increment", "sparse4_ling_facells_increment", `{"sparse":4,"valency":2,"ling":true,"fa_cells":true,"increment":true}`},
		{withStandard(func(a *adder.Architecture) { a.Stages = 1 }), "--stages 1", "stages=1", "pipe1", `{"sparse":1,"valency":2,"ling":false,"stages":1,"no_reset":false}`},
		{withStandard(func(a *adder.Architecture) { a.PipelineAfter, a.NoReset = []int{0, 4}, true }),
			"--pipeline-after 0,4 --no-reset", "pipeline-after=0,4 noreset", "pipe2_at0_4_noreset", ""},
		{withStandard(func(a *adder.Architecture) {
			a.Op, a.NoCarryIn, a.Flags, a.Sparse = adder.Sub, true, adder.Carry|adder.Overflow|adder.Zero|adder.Negative, 4
		}),
			"--op sub --no-cin --flags carry,overflow,zero,negative --sparse 4", "sub nocin flags=carry,overflow,zero,negative sparse=4", "sub_nocin_flags_cozn_sparse4", ""},
		{withStandard(func(a *adder.Architecture) { a.Op, a.Flags = adder.AddSub, 0 }), "--op addsub --flags none", "addsub flags=none", "addsub_flags_none", ""},
		{adder.Architecture{Op: adder.Compare}, "--op compare", "compare", "compare", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.args, strings.Join(tt.arch.Args(), " "))
			assert.Equal(t, tt.name, tt.arch.Name())
			assert.Equal(t, tt.suffix, tt.arch.Suffix())

			back, err := adder.ParseArgs(tt.arch.Args())
			require.NoError(t, err)
			assert.True(t, back.Equal(tt.arch), "%+v from %q", back, tt.arch.Args())
			assert.Equal(t, tt.arch.Normal(), back, "ParseArgs returns the normal form")

			data, err := json.Marshal(tt.arch)
			if tt.json == "" {
				require.Error(t, err, "the document records no %s", tt.name)
				assert.Contains(t, err.Error(), "document records {cout, sum} = a + b + cin")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.json, string(data))
			var fromJSON adder.Architecture
			require.NoError(t, json.Unmarshal(data, &fromJSON))
			assert.Equal(t, tt.arch.Normal(), fromJSON)
		})
	}
}

// The flags as a user writes them, in any order and form, read to the
// architecture.
func TestParseArgs(t *testing.T) {
	a, err := adder.ParseArgs([]string{"--stages=2", "--ling=true", "--sparse", "2", "--no-reset", "--pg-cells=false"})
	require.NoError(t, err)
	assert.Equal(t, withStandard(func(a *adder.Architecture) { a.Sparse, a.Ling, a.Stages, a.NoReset = 2, true, 2, true }), a)

	a, err = adder.ParseArgs(nil)
	require.NoError(t, err)
	assert.Equal(t, adder.Standard, a)

	a, err = adder.ParseArgs([]string{"--op", "compare"})
	require.NoError(t, err)
	assert.Equal(t, adder.Architecture{Op: adder.Compare, Sparse: 1, Valency: 2}, a, "compare has no flags")
}

func TestParseArgsErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--sparse", "3"}, "adder: sparseness 3 not allowed: allowed 1, 2, 4, 8"},
		{[]string{"--sparse", "0"}, "adder: sparseness 0 not allowed: allowed 1, 2, 4, 8"},
		{[]string{"--sparse", "two"}, `adder: --sparse "two": want a whole number`},
		{[]string{"--valency", "5"}, "adder: --valency 5 not allowed: allowed 2, 3, 4"},
		{[]string{"--ling=maybe"}, `adder: --ling="maybe": want true or false`},
		{[]string{"--op", "mul"}, `adder: --op: unknown operation "mul": allowed add, sub, addsub, compare`},
		{[]string{"--flags", "carry,carry"}, `adder: --flags: flag "carry" given twice in "carry,carry": each flag once`},
		{[]string{"--op", "compare", "--flags", "zero"}, "adder: --flags applies to --op add, sub and addsub; compare outputs lt, ltu and eq"},
		{[]string{"--op", "compare", "--no-cin"}, "adder: --no-cin applies to --op add, sub and addsub; compare has no carry-in"},
		{[]string{"--op", "sub", "--pg-cells"}, "adder: --pg-cells applies to --op add only: the cells take a and b as they are"},
		{[]string{"--pipeline-after", "one"}, `adder: --pipeline-after "one": want comma-separated levels, such as 0,3`},
		{[]string{"--pipeline-after", "2,1"}, `adder: --pipeline-after "2,1": allowed distinct levels from 0 up, smallest first, such as 0,3`},
		{[]string{"--pipeline-after", "1,1"}, `adder: --pipeline-after "1,1": allowed distinct levels from 0 up, smallest first, such as 0,3`},
		{[]string{"--pipeline-after", "-1"}, `adder: --pipeline-after "-1": allowed distinct levels from 0 up, smallest first, such as 0,3`},
		{[]string{"--pipeline-after", "1", "--stages", "2"}, "adder: --stages and --pipeline-after both given: use one"},
		{[]string{"--stages", "0"}, "adder: --stages 0 out of range: allowed 1 to the depth of the carry tree + 1"},
		{[]string{"--no-reset"}, "adder: --no-reset applies to a pipelined adder: allowed with --stages or --pipeline-after"},
		{[]string{"--radix", "4"}, "adder: unknown flag --radix: allowed --op, --no-cin, --flags, --sparse, --valency, --ling, --pg-cells, --fa-cells, --increment, --pipeline-after, --stages, --no-reset"},
		{[]string{"--increment"}, "adder: --increment applies to the carry-select blocks of full adders: allowed with --fa-cells and --sparse 2, 4 or 8"},
		{[]string{"--sparse", "4", "--increment"}, "adder: --increment applies to the carry-select blocks of full adders: allowed with --fa-cells and --sparse 2, 4 or 8"},
		{[]string{"--fa-cells", "--increment"}, "adder: --increment applies to the carry-select blocks of full adders: allowed with --fa-cells and --sparse 2, 4 or 8"},
		{[]string{"sparse"}, `adder: "sparse" is not a flag: allowed --op,`},
		{[]string{"--ling", "--ling"}, "adder: --ling given twice: each flag once"},
		{[]string{"--stages"}, "adder: --stages needs a value"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, err := adder.ParseArgs(tt.args)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tt.want), "%q does not start with %q", err, tt.want)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}

// flagSource is a command line's flags as a flag package holds them: the
// flags the command has, with the values given.
type flagSource struct {
	has   []string
	given map[string]any
}

func (s flagSource) IsSet(name string) bool { _, ok := s.given[name]; return ok }

func (s flagSource) Value(name string) any {
	for _, h := range s.has {
		if h == name {
			if v, ok := s.given[name]; ok {
				return v
			}
			return ""
		}
	}
	return nil
}

// A recorded architecture is the base the flags repeat; a flag that
// changes it names the document and what it records.
func TestReadFlagsRecorded(t *testing.T) {
	rec := &adder.Recorded{Architecture: withStandard(func(a *adder.Architecture) { a.Sparse, a.Stages, a.NoReset, a.PGCells = 2, 2, true, true }), Path: "a.json"}
	all := adder.FlagNames
	tests := []struct {
		given map[string]any
		want  string
	}{
		{map[string]any{"sparse": 4}, "adder: --sparse 4 contradicts a.json, the sparse-2 adder: leave --sparse out"},
		{map[string]any{"valency": 3}, "adder: --valency 3 contradicts a.json, the valency-2 adder: leave --valency out"},
		{map[string]any{"ling": true}, "adder: --ling contradicts a.json, an adder without Ling's carries: leave --ling out"},
		{map[string]any{"pg-cells": false}, "adder: --pg-cells=false contradicts a.json, the adder whose generate and propagate are library cells: leave --pg-cells out"},
		{map[string]any{"stages": 3}, "adder: --stages 3 contradicts a.json, the 2 register stages, no reset pipeline: leave --stages out"},
		{map[string]any{"no-reset": false}, "adder: --no-reset=false contradicts a.json, the 2 register stages, no reset pipeline: leave --no-reset out"},
		{map[string]any{"pipeline-after": "1"}, "adder: --pipeline-after contradicts a.json, the 2 register stages, no reset pipeline: leave --pipeline-after out"},
		{map[string]any{"op": "sub"}, "adder: a.json, an adder of library cells, applies to --op add only: the cells take a and b as they are"},
		{map[string]any{"op": "compare"}, "adder: --op compare does not apply to a.json, the sparse-2 adder: compare uses only the carry out, of a dense tree: allowed a dense adder's file"},
		{map[string]any{"sparse": 2, "stages": 2, "pg-cells": true}, ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.given), func(t *testing.T) {
			arch, err := adder.ReadFlags(flagSource{all, tt.given}, rec)
			if tt.want == "" {
				require.NoError(t, err)
				assert.Equal(t, rec.Normal(), arch, "flags that repeat the document change nothing")
				return
			}
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
	// A command without --pipeline-after does not offer it.
	_, err := adder.ReadFlags(flagSource{[]string{"stages", "no-reset"}, map[string]any{"no-reset": true}}, nil)
	assert.EqualError(t, err, "adder: --no-reset applies to a pipelined adder: allowed with --stages")
	// A flag the command does not have is not read, given or not.
	arch, err := adder.ReadFlags(flagSource{[]string{"sparse"}, map[string]any{"sparse": 2, "ling": true}}, nil)
	require.NoError(t, err)
	assert.Equal(t, withStandard(func(a *adder.Architecture) { a.Sparse = 2 }), arch)
}

func TestReadFlagList(t *testing.T) {
	has := []string{"sparse", "ling", "pg-cells", "stages", "no-reset"}
	archs, err := adder.ReadFlagList(flagSource{has, map[string]any{"sparse": "1,4,1", "ling": true}}, nil, 8)
	require.NoError(t, err)
	ling := withStandard(func(a *adder.Architecture) { a.Ling = true })
	ling4 := ling
	ling4.Sparse = 4
	assert.Equal(t, []adder.Architecture{ling, ling4}, archs, "in the order given, each once")

	archs, err = adder.ReadFlagList(flagSource{has, nil}, nil, 8)
	require.NoError(t, err)
	assert.Equal(t, []adder.Architecture{adder.Standard}, archs)

	rec := &adder.Recorded{Architecture: withStandard(func(a *adder.Architecture) { a.Sparse = 2 }), Path: "a.json"}
	archs, err = adder.ReadFlagList(flagSource{has, nil}, rec, 8)
	require.NoError(t, err)
	assert.Equal(t, []adder.Architecture{rec.Architecture}, archs, "the document's sparseness without --sparse")

	for _, tt := range []struct {
		given map[string]any
		rec   *adder.Recorded
		want  string
	}{
		{map[string]any{"sparse": "1,3"}, nil, `adder: --sparse "1,3": sparseness "3" not allowed: allowed 1, 2, 4, 8, or a comma-separated list of them`},
		{map[string]any{"sparse": "8"}, nil, `adder: --sparse "8": sparseness 8 exceeds the width 4: allowed at most n`},
		{map[string]any{"sparse": "1,4"}, rec, "adder: --sparse 1,4 leaves out a.json's sparseness 2: add 2 to the list, or leave --sparse out"},
		{map[string]any{"stages": 0}, nil, "adder: --stages 0 out of range: allowed 1 to the depth of the carry tree + 1"},
	} {
		_, err := adder.ReadFlagList(flagSource{has, tt.given}, tt.rec, 4)
		assert.EqualError(t, err, tt.want)
	}
}

func TestArchitectureJSONErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"sparse":2,"sparse":4}`, `adder: key "sparse" appears twice in the architecture: each key once`},
		{`{"radix":4}`, `adder: not an adder architecture: unknown field "radix"`},
		{`{"ling":1}`, `adder: not an adder architecture: field "ling" holds a number, which is not allowed there`},
		{`{"valency":1}`, "adder: valency 1 not allowed: allowed 2, 3, 4"},
		{`{"valency":99}`, "adder: valency 99 not allowed: allowed 2, 3, 4"},
		{`{"sparse":3}`, "adder: sparseness 3 not allowed: allowed 1, 2, 4, 8"},
		{`{"sparse":16}`, "adder: sparseness 16 not allowed: allowed 1, 2, 4, 8"},
		{`[]`, "adder: not an adder architecture: an array where it is not allowed"},
	} {
		var a adder.Architecture
		err := json.Unmarshal([]byte(tt.in), &a)
		require.Error(t, err, tt.in)
		assert.True(t, strings.HasPrefix(err.Error(), tt.want), "%q does not start with %q", err, tt.want)
	}
}

// Fields names the architecture as every record does, its values those of
// the normal form.
func TestArchitectureFields(t *testing.T) {
	assert.Equal(t, []adder.Field{{"sparse", 1}, {"valency", 2}, {"ling", false}, {"stages", 0}, {"no_reset", false}, {"pg_cells", false}, {"fa_cells", false}, {"increment", false}},
		adder.Architecture{Flags: adder.Carry}.Fields())
}

// Equal sees every field: a field added to Architecture and left out of
// Equal fails here.
func TestArchitectureEqualSeesEveryField(t *testing.T) {
	base := reflect.ValueOf(adder.Standard)
	for i := range base.NumField() {
		changed := adder.Standard
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Uint8:
			if f.Kind() == reflect.Int {
				f.SetInt(f.Int() + 1)
			} else {
				f.SetUint(f.Uint() + 1)
			}
		case reflect.Slice:
			f.Set(reflect.ValueOf([]int{1}))
		default:
			t.Fatalf("field %s of kind %s: teach this test and Equal", base.Type().Field(i).Name, f.Kind())
		}
		assert.False(t, changed.Equal(adder.Standard), "Equal misses %s", base.Type().Field(i).Name)
	}
	assert.True(t, adder.Architecture{Flags: adder.Carry, PipelineAfter: []int{}}.Equal(adder.Standard))
	assert.True(t, adder.Architecture{Op: adder.Compare, NoCarryIn: true}.Equal(adder.Architecture{Op: adder.Compare}), "compare has no carry-in")
}

// FuzzParseArgs: whatever the flags, ParseArgs returns an architecture or
// a one-line error, never panics, and an architecture it reads writes
// flags (Args) that read back to the same one.
func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{
		"--sparse 4 --ling --pg-cells --stages 2 --no-reset",
		"--op sub --no-cin --flags carry,overflow,zero,negative --sparse 4",
		"--op compare",
		"--pipeline-after 0,4 --no-reset",
		"--valency=3 --ling=false",
		"--flags none --op addsub",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		arch, err := adder.ParseArgs(strings.Fields(line))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		again, err := adder.ParseArgs(arch.Args())
		if err != nil {
			t.Fatalf("%q reads, but its Args %q do not: %v", line, arch.Args(), err)
		}
		if !again.Equal(arch) {
			t.Fatalf("%q reads as %+v, its Args %q as %+v", line, arch, arch.Args(), again)
		}
	})
}

// Every architecture EachOption lists is one Describe builds, whatever
// the operation and with carry-increment blocks asked for: it had listed
// library cells for the generate and propagate of a subtractor, and
// carry-increment blocks without full adders.
func TestEachOptionDescribes(t *testing.T) {
	net, err := topologies.Build("sklansky", 16, nil)
	require.NoError(t, err)
	var list []adder.Architecture
	for _, op := range []adder.Op{adder.Add, adder.Sub, adder.AddSub, adder.Compare} {
		for _, s := range []int{1, 4} {
			for _, inc := range []bool{false, true} {
				a := adder.Standard
				a.Op, a.Sparse, a.Increment = op, s, inc && s > 1
				if op == adder.Compare && s > 1 {
					continue
				}
				if op == adder.Compare {
					a.Flags = 0
				}
				list = append(list, a)
			}
		}
	}
	for _, a := range adder.EachOption(list) {
		_, err := adder.Describe(net, a, nil)
		assert.NoError(t, err, "%s %s", a.Op, a.Name())
	}
}

// EachIncrement adds carry-increment blocks to each sparse adder of full
// adders only: a dense one (sparse 1, or 0 as written) has no blocks, and
// one that has them already is not listed twice.
func TestEachIncrement(t *testing.T) {
	list := []adder.Architecture{
		{FACells: true, Sparse: 1},
		{FACells: true, Sparse: 2, PipelineAfter: []int{1}},
		{Sparse: 4},
		{FACells: true, Sparse: 4, Increment: true},
		{FACells: true},
	}
	got := adder.EachIncrement(list)
	assert.Equal(t, []adder.Architecture{
		{FACells: true, Sparse: 1},
		{FACells: true, Sparse: 2, PipelineAfter: []int{1}},
		{FACells: true, Sparse: 2, PipelineAfter: []int{1}, Increment: true},
		{Sparse: 4},
		{FACells: true, Sparse: 4, Increment: true},
		{FACells: true},
	}, got)
	got[2].PipelineAfter[0] = 9
	assert.Equal(t, []int{1}, list[1].PipelineAfter, "the added adder's levels are its own")
}

func ExampleEachOption() {
	sparse := adder.Standard
	sparse.Sparse = 4
	for _, a := range adder.EachOption([]adder.Architecture{adder.Standard, sparse}) {
		fmt.Printf("%q\n", a.Name())
	}
	// Output:
	// ""
	// "ling"
	// "pgcells"
	// "ling pgcells"
	// "facells"
	// "sparse=4"
	// "sparse=4 ling"
	// "sparse=4 pgcells"
	// "sparse=4 ling pgcells"
	// "sparse=4 facells"
	// "sparse=4 ling facells"
	// "sparse=4 pgcells facells"
	// "sparse=4 ling pgcells facells"
}
