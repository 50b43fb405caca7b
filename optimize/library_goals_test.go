package optimize_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/adder"
	"github.com/prefixgen/prefixgen/explore"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/optimize"
	"github.com/prefixgen/prefixgen/physical"
	"github.com/prefixgen/prefixgen/physical/pdk"
	"github.com/prefixgen/prefixgen/topologies"
)

// libraryGoals are the adders of docs/goals made for a library, the
// library first in the file's name (docs/libraries.md reports them): g1
// is as fast as the fastest named adder with at least 10 % less area, g2
// no larger than the smallest named adder with at least 20 % less delay,
// the named adders being every family at every setting explore
// enumerates, each as written and with its generate and propagate of
// library cells, measured in the same run through the same flow. An
// adder may meet both. The named adders are sparse 1 unless sparse is set,
// and then sparse 1, 2, 4 and 8: with sparse trees, faster named adders
// appear, and of the G1 adders at 64 bits only the -sparse ones are as
// fast as the fastest (docs/libraries.md, "The named set with sparse
// trees"). With ling they are also each with Ling's carries, at the same
// sparseness: with them the fastest named adders are faster still
// (docs/libraries.md, "Ling's carries in the named set"). With valency
// they also count the radix-3 and radix-4 Kogge–Stone and Sklansky (gen
// --valency), each with every architecture above, the fastest named
// adders of all on Nangate45 and ASAP7 (docs/libraries.md, "Valency 3 and
// 4 in the named set").
var libraryGoals = []libraryGoal{
	{"nangate45-fast-abc-64-valency.json", physical.ABC, true, false, true, true, true},
	{"sky130hd-fast-abc-64-sparse.json", physical.ABC, true, false, true, false, false},
	{"nangate45-fast-abc-64-ling.json", physical.ABC, true, false, true, true, false},
	{"nangate45-fast-abc-64-sparse.json", physical.ABC, true, false, true, false, false},
	{"asap7-fast-abc-64-valency.json", physical.ABC, true, false, true, true, true},
	{"asap7-fast-abc-64-ling.json", physical.ABC, true, false, true, true, false},
	{"asap7-fast-abc-64-sparse.json", physical.ABC, true, false, true, false, false},
	{"sky130hd-fast-abc-64.json", physical.ABC, true, false, false, false, false},
	{"asap7-fast-abc-64.json", physical.ABC, true, false, false, false, false},
	{"nangate45-fast-abc-64.json", physical.ABC, true, false, false, false, false},
	// G2 at 64 bits: no larger than the smallest named adder,
	// zero-deficiency d=15 --pg-cells, at 79 % of its delay.
	{"nangate45-small-abc-64.json", physical.ABC, false, true, false, false, false},
	{"sky130hd-fast-keep-64-valency.json", physical.Keep, true, false, false, false, true},
	{"asap7-fast-keep-64-valency.json", physical.Keep, true, false, false, false, true},
	{"sky130hd-fast-keep-64.json", physical.Keep, true, false, false, false, false},
	// Ling's carries through keep: against the set without them.
	{"nangate45-fast-keep-64-ling.json", physical.Keep, true, false, false, false, false},
	{"asap7-fast-keep-64-ling.json", physical.Keep, true, false, false, false, false},
	// Through keep against every option at sparse 1: against the fastest
	// of that set (recorded), radix-4 Kogge–Stone with Ling's
	// carries at 64 bits, radix-3 with them and --pg-cells at 32.
	{"asap7-fast-keep-64-every.json", physical.Keep, true, false, false, true, true},
	{"sky130hd-fast-keep-32-ling.json", physical.Keep, true, false, false, false, false},
	{"nangate45-fast-keep-32-ling.json", physical.Keep, true, false, false, false, false},
	{"asap7-fast-keep-32-ling.json", physical.Keep, true, false, false, false, false},
	{"asap7-fast-keep-32-every.json", physical.Keep, true, false, false, true, true},
	// Ling's carries through keep at 128 bits: against the fastest of the
	// set without them (recorded).
	{"asap7-fast-keep-128-ling.json", physical.Keep, true, false, false, false, false},
	{"nangate45-fast-keep-128-ling.json", physical.Keep, true, false, false, false, false},
	{"sky130hd-fast-keep-128-ling.json", physical.Keep, true, false, false, false, false},
	{"nangate45-fast-abc-32-valency.json", physical.ABC, true, false, false, false, true},
	{"nangate45-fast-abc-32-every.json", physical.ABC, true, false, true, true, true},
	{"asap7-fast-abc-32-valency.json", physical.ABC, true, false, false, false, true},
	{"sky130hd-fast-abc-32.json", physical.ABC, true, false, false, false, true},
	{"nangate45-fast-abc-32.json", physical.ABC, true, true, false, false, false},
	{"asap7-fast-abc-32.json", physical.ABC, true, false, false, false, false},
	{"sky130hd-fast-abc-128-valency.json", physical.ABC, true, false, false, false, true},
	{"nangate45-fast-abc-128.json", physical.ABC, true, false, false, false, true},
	{"asap7-fast-abc-128-valency.json", physical.ABC, true, false, false, false, true},
	{"sky130hd-fast-abc-128.json", physical.ABC, true, false, false, false, false},
	// G2 at 128 bits: no larger than the smallest named adder,
	// zero-deficiency d=126, at 39 % of its delay.
	{"nangate45-small-abc-128.json", physical.ABC, false, true, false, false, true},
	// Against every option at 128 bits, which explore's one run per
	// library measures in most of an hour (docs/libraries.md): here
	// against the fastest adder of that run (recorded) alone, on sky130hd
	// since 2026-12-06 the faster radix-3 Kogge–Stone with full adders
	// beside its tree (not a whole run: docs/libraries.md, "Full adders
	// beside any tree"). They need not hold against a smaller set:
	// Nangate45's is faster than the fastest of sparse 1, and larger.
	{"sky130hd-fast-abc-128-every.json", physical.ABC, true, false, true, true, true},
	{"asap7-fast-abc-128-every.json", physical.ABC, true, false, true, true, true},
	{"nangate45-fast-abc-128-every.json", physical.ABC, true, false, true, true, true},
	// G2 on ASAP7 with its full adders (--fa-cells): carry-select adders
	// within the area of the smallest named adder of the plain set, which
	// has no full adders (ripple or zero-deficiency d=N−4), 20 to 37 %
	// faster.
	{"asap7-small-abc-32.json", physical.ABC, false, true, false, false, false},
	{"asap7-small-keep-32.json", physical.Keep, false, true, false, false, false},
	{"asap7-small-abc-64.json", physical.ABC, false, true, false, false, false},
	{"asap7-small-keep-64.json", physical.Keep, false, true, false, false, false},
	{"asap7-small-abc-128.json", physical.ABC, false, true, false, false, false},
	{"asap7-small-keep-128.json", physical.Keep, false, true, false, false, false},
	// G2 on sky130hd at 32 bits: from carry-select networks of logic, a
	// chain of searches within ripple --pg-cells's area, 21 % faster.
	{"sky130hd-small-abc-32.json", physical.ABC, false, true, false, false, false},
	// G1 on ASAP7 at 128 bits against the plain set, judged by medians
	// (byMedians): a carry-select adder of its full adders whose segments
	// optimize --carry-select moved.
	{"asap7-fast-abc-128-medians.json", physical.ABC, true, false, false, false, false},
	// G1 on sky130hd at 64 bits against every option, whose fastest adder
	// has full adders beside a radix-3 tree of Ling's carries since
	// 2026-12-06, judged by medians (byMedians); as written it is not met
	// (docs/libraries.md, "Full adders beside any tree").
	{"sky130hd-fast-abc-64-every-medians.json", physical.ABC, true, false, true, true, true},
	// G1 on sky130hd at 32 bits against every option with carry-increment
	// blocks (adder.EachIncrement), whose fastest named adder is one of
	// them since 2026-12-06: a sparse adder of full adders in such blocks
	// beside a tree of Ling's carries.
	{"sky130hd-fast-abc-32-increment.json", physical.ABC, true, false, true, true, true},
	// And on ASAP7, where the fastest named adder of every option stays
	// the fastest with them (zero-deficiency d=8 sparse 4 with Ling's
	// carries and full adders in carry-select blocks): a chain of three
	// searches from that network in carry-increment blocks.
	{"asap7-fast-abc-32-increment.json", physical.ABC, true, false, true, true, true},
	// At 128 bits on ASAP7 a sparse adder with carry-increment blocks is
	// the fastest named adder of every option with them, faster than the
	// goal against every option: a search from it under its delay.
	{"asap7-fast-abc-128-increment.json", physical.ABC, true, false, true, true, true},
	// And at 64 bits, where the fastest named adder of every option stays
	// the fastest with them: radix-3 Sklansky sparse 4 with Ling's
	// carries, --pg-cells and full adders.
	{"sky130hd-fast-abc-64-increment.json", physical.ABC, true, false, true, true, true},
}

// libraryGoal is a goal adder of docs/goals and the named set it is judged
// against (libraryGoals).
type libraryGoal struct {
	file                          string
	flow                          physical.Flow
	g1, g2, sparse, ling, valency bool
}

// every reports whether g is judged against every option: Ling's carries
// and valency 3 and 4 in its set (and sparse trees through abc), whose
// adders of binary cells come with the library's full adders too.
func (g libraryGoal) every() bool { return g.ling && g.valency }

// byMedians holds the goals judged, with their named adders, by the
// medians of their area and delay over the design as written and this
// many more orders of its gates (physical.Options.Orders, synth
// --orders): as written each is one of ABC's draws, which for the fastest
// adders of sky130hd spread over a fifth of their delay
// (docs/libraries.md, "Not measured yet"). Such a goal is measured in a
// group of its own, every design in it over the same orders.
var byMedians = map[string]int{
	"asap7-fast-abc-128-medians.json":         6,
	"sky130hd-fast-abc-64-every-medians.json": 6,
}

// recorded names, for each goal, the named adders of its set it is
// judged against, as a run of the whole set found them: its fastest for
// G1, its smallest for G2 (docs/libraries.md; "The claims against the
// large sets"). TestClaimLibraryGoals measures them in the same run as
// the goal and judges the goal against them alone, so that a claim costs
// a few syntheses, not the minutes to an hour of the whole set. With
// fullSetsEnv the whole sets are measured too, and each record is
// checked to be its set's fastest or smallest.
var recorded = map[string]struct{ fastest, smallest namedAdder }{
	// Every option at 64 bits, whose fastest since 2026-12-06 has full
	// adders beside a radix-3 tree: explore -n 64 --synth --all
	// --every-option --valency 2,3,4 --no-optimize --liberty L --flow abc.
	"nangate45-fast-abc-64-valency.json": {fastest: namedAdder{"kogge-stone v=3", 4, true, true, true, false}},
	"sky130hd-fast-abc-64-sparse.json":   {fastest: namedAdder{"zero-deficiency d=8", 4, false, false, false, false}},
	"nangate45-fast-abc-64-ling.json":    {fastest: namedAdder{"zero-deficiency d=11", 2, true, true, false, false}},
	"nangate45-fast-abc-64-sparse.json":  {fastest: namedAdder{"knowles s=8", 4, false, false, false, false}},
	"asap7-fast-abc-64-valency.json":     {fastest: namedAdder{"kogge-stone v=3", 4, true, true, true, false}},
	"asap7-fast-abc-64-ling.json":        {fastest: namedAdder{"zero-deficiency d=11", 2, true, true, false, false}},
	"asap7-fast-abc-64-sparse.json":      {fastest: namedAdder{"zero-deficiency d=8", 2, false, false, false, false}},
	"sky130hd-fast-abc-64.json":          {fastest: namedAdder{"knowles s=21", 1, false, false, false, false}},
	"asap7-fast-abc-64.json":             {fastest: namedAdder{"knowles s=6", 1, false, false, false, false}},
	"nangate45-fast-abc-64.json":         {fastest: namedAdder{"knowles s=5", 1, false, true, false, false}},
	"nangate45-small-abc-64.json":        {smallest: namedAdder{"zero-deficiency d=15", 1, false, true, false, false}},
	"sky130hd-fast-keep-64-valency.json": {fastest: namedAdder{"kogge-stone v=3", 1, false, false, false, false}},
	"asap7-fast-keep-64-valency.json":    {fastest: namedAdder{"kogge-stone v=3", 1, false, false, false, false}},
	"sky130hd-fast-keep-64.json":         {fastest: namedAdder{"kogge-stone", 1, false, false, false, false}},
	"nangate45-fast-keep-64-ling.json":   {fastest: namedAdder{"kogge-stone", 1, false, true, false, false}},
	"asap7-fast-keep-64-ling.json":       {fastest: namedAdder{"knowles s=16", 1, false, false, false, false}},
	"asap7-fast-keep-64-every.json":      {fastest: namedAdder{"kogge-stone v=4", 1, true, false, false, false}},
	"sky130hd-fast-keep-32-ling.json":    {fastest: namedAdder{"kogge-stone", 1, false, false, false, false}},
	"nangate45-fast-keep-32-ling.json":   {fastest: namedAdder{"kogge-stone", 1, false, true, false, false}},
	"asap7-fast-keep-32-ling.json":       {fastest: namedAdder{"kogge-stone", 1, false, false, false, false}},
	"asap7-fast-keep-32-every.json":      {fastest: namedAdder{"kogge-stone v=3", 1, true, true, false, false}},
	"asap7-fast-keep-128-ling.json":      {fastest: namedAdder{"knowles s=8", 1, false, false, false, false}},
	"nangate45-fast-keep-128-ling.json":  {fastest: namedAdder{"kogge-stone", 1, false, true, false, false}},
	"sky130hd-fast-keep-128-ling.json":   {fastest: namedAdder{"knowles s=32", 1, false, true, false, false}},
	"nangate45-fast-abc-32-valency.json": {fastest: namedAdder{"kogge-stone v=4", 1, false, false, false, false}},
	"nangate45-fast-abc-32-every.json":   {fastest: namedAdder{"kogge-stone v=3", 4, false, false, true, false}},
	"asap7-fast-abc-32-valency.json":     {fastest: namedAdder{"kogge-stone v=4", 1, false, false, false, false}},
	"sky130hd-fast-abc-32.json":          {fastest: namedAdder{"sklansky v=4", 1, false, false, false, false}},
	"nangate45-fast-abc-32.json":         {fastest: namedAdder{"knowles s=11", 1, false, true, false, false}, smallest: namedAdder{"zero-deficiency d=11", 1, false, true, false, false}},
	"asap7-fast-abc-32.json":             {fastest: namedAdder{"knowles s=13", 1, false, false, false, false}},
	"sky130hd-fast-abc-128-valency.json": {fastest: namedAdder{"kogge-stone v=4", 1, false, true, false, false}},
	"nangate45-fast-abc-128.json":        {fastest: namedAdder{"harris f=0 l=2", 1, false, false, false, false}},
	"asap7-fast-abc-128-valency.json":    {fastest: namedAdder{"kogge-stone v=4", 1, false, false, false, false}},
	"sky130hd-fast-abc-128.json":         {fastest: namedAdder{"harris f=0 l=2", 1, false, false, false, false}},
	"nangate45-small-abc-128.json":       {smallest: namedAdder{"zero-deficiency d=126", 1, false, false, false, false}},
	"sky130hd-fast-abc-128-every.json":   {fastest: namedAdder{"kogge-stone v=3", 4, true, true, true, false}},
	"asap7-fast-abc-128-every.json":      {fastest: namedAdder{"kogge-stone v=3", 2, false, false, false, false}},
	"nangate45-fast-abc-128-every.json":  {fastest: namedAdder{"kogge-stone v=3", 2, false, false, false, false}},
	"asap7-small-abc-32.json":            {smallest: namedAdder{"zero-deficiency d=28", 1, false, false, false, false}},
	"asap7-small-keep-32.json":           {smallest: namedAdder{"ripple", 1, false, false, false, false}},
	"asap7-small-abc-64.json":            {smallest: namedAdder{"zero-deficiency d=60", 1, false, false, false, false}},
	"asap7-small-keep-64.json":           {smallest: namedAdder{"ripple", 1, false, false, false, false}},
	"asap7-small-abc-128.json":           {smallest: namedAdder{"zero-deficiency d=124", 1, false, false, false, false}},
	"asap7-small-keep-128.json":          {smallest: namedAdder{"ripple", 1, false, false, false, false}},
	"sky130hd-small-abc-32.json":         {smallest: namedAdder{"ripple", 1, false, true, false, false}},
	// explore -n 128 --synth --all --no-optimize --liberty asap7 --flow
	// abc --orders 6, with and without --pg-cells.
	"asap7-fast-abc-128-medians.json": {fastest: namedAdder{"knowles s=7", 1, false, false, false, false}},
	// The fastest of every option at 64 bits on sky130hd by medians: of
	// the 20 fastest as written of the sparse adders of full adders beside
	// trees of Ling's carries, --pg-cells or valency 3 and 4 (993), each
	// measured by synth --orders 6 on 2026-12-06, and the fastest by
	// medians before, zero-deficiency d=13 sparse 4 with full adders.
	"sky130hd-fast-abc-64-every-medians.json": {fastest: namedAdder{"kogge-stone v=3", 4, true, true, true, false}},
	// Every option with carry-increment blocks at 32 bits: explore -n 32
	// --synth --all --every-option --increment --valency 2,3,4
	// --no-optimize --liberty sky130hd --flow abc (2026-12-06).
	"sky130hd-fast-abc-32-increment.json": {fastest: namedAdder{"kogge-stone v=3", 2, false, false, true, true}},
	// On ASAP7 the record of every option stands with them (same run).
	"asap7-fast-abc-32-increment.json": {fastest: namedAdder{"zero-deficiency d=8", 4, true, false, true, false}},
	// At 128 bits: the every-option runs of 2026-12-05 and 2026-12-06 and
	// explore -n 128 --synth --all --fa-cells --increment --sparse 2,4,8
	// --valency 2,3,4 [--ling] [--pg-cells] --no-optimize (2 532 more).
	"asap7-fast-abc-128-increment.json": {fastest: namedAdder{"kogge-stone v=3", 8, false, false, true, true}},
	// At 64 bits: the every-option run of 2026-12-06 (3 157 named) and
	// explore -n 64 --synth --all --fa-cells --increment --sparse 2,4,8
	// --valency 2,3,4 [--ling] [--pg-cells] --no-optimize (1 308 more).
	"sky130hd-fast-abc-64-increment.json": {fastest: namedAdder{"sklansky v=3", 4, true, true, true, false}},
}

// namedAdder is one adder of a named set: a network as explore names it
// (Point.Name) with an architecture.
type namedAdder struct {
	network string
	sparse  int
	ling    bool
	pg      bool // with --pg-cells
	fa      bool // with --fa-cells
	inc     bool // with --increment
}

// key names n in a fingerprint (flowPrint), as it did before the adders of
// full adders were named.
func (n namedAdder) key() string {
	k := fmt.Sprintf("{network:%s sparse:%d ling:%t pg:%t}", n.network, n.sparse, n.ling, n.pg)
	if n.fa {
		k += " fa"
	}
	if n.inc {
		k += " increment"
	}
	return k
}

// fullSetsEnv, when "1", makes TestClaimLibraryGoals measure the whole
// named set of every goal, those with a recorded fastest adder too (up
// to an hour a library at 128 bits): what checks recorded.
const fullSetsEnv = "PREFIXGEN_CLAIMS_FULL"

// librarySpec returns the --liberty of the library a goal adder was made
// for, as its document records it: the carried libraries by name,
// Nangate45 (by its Liberty name) from the shared folder.
func librarySpec(t *testing.T, target adder.Target) string {
	if target.Library == nangate45 {
		return tooltest.Shared(t, "pdk/nangate45/nangate45_typ.lib.gz")
	}
	return target.Library
}

// nangate45 is the Liberty name of Nangate45's library, which the goal
// adders made for it record.
const nangate45 = "NangateOpenCellLibrary"

// readGoal reads a goal adder of docs/goals and what it was made for.
func readGoal(t *testing.T, file string) (*network.Network, adder.Architecture, adder.Target) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "docs", "goals", file))
	require.NoError(t, err)
	defer f.Close()
	net, arch, target, err := adder.ReadDocumentFor(f)
	require.NoError(t, err, file)
	return net, arch, target
}

// Every goal adder of docs/goals records what it was made for, as issue
// 38 asks: the library its file's name starts with (OSU 0.18 µm for the
// goals of issue 17, whose names name none), and the flow its name names.
// The claims read both from the document.
func TestGoalFilesMadeFor(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "docs", "goals", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	flows := map[string]physical.Flow{}
	for _, g := range libraryGoals {
		flows[g.file] = g.flow
	}
	for _, g := range goalNetworks {
		if strings.Contains(g.file, "-abc-") || strings.Contains(g.file, "-keep-") {
			flows[g.file] = g.flow
		}
	}
	for _, path := range files {
		file := filepath.Base(path)
		if strings.HasPrefix(file, "arrival-") {
			continue // networks of the model's search, made for no library
		}
		t.Run(file, func(t *testing.T) {
			_, _, target := readGoal(t, file)
			want := "osu018"
			switch prefix, _, _ := strings.Cut(file, "-"); prefix {
			case "sky130hd", "asap7":
				want = prefix
			case "nangate45":
				want = nangate45
			}
			assert.Equal(t, want, target.Library)
			assert.Equal(t, string(flows[file]), target.Flow, "the flow its claim measures it through")
		})
	}
}

// TestClaimLibraryGoals measures every adder of libraryGoals against the
// named adders recorded for it (recorded) in the same run, as
// docs/libraries.md says. The goals of one library, width and flow share
// one run. With fullSetsEnv the run also measures the named sets whole
// (sparse 1, 2, 4 and 8 where any goal of the group is sparse, Ling's
// carries and valency 3 and 4 likewise), each goal judged against those
// its entry names, and checks the records against them.
func TestClaimLibraryGoals(t *testing.T) {
	tooltest.Claims(t)
	tooltest.Path(t, "yosys")
	tooltest.Path(t, "sta")
	full := os.Getenv(fullSetsEnv) == "1"
	ctx := context.Background()
	type goal struct {
		entry int
		net   *network.Network
		arch  adder.Architecture
	}
	type group struct {
		name   string
		spec   string
		flow   physical.Flow
		width  int
		orders int
		goals  []goal
	}
	var groups []*group
	for i, g := range libraryGoals {
		net, arch, target := readGoal(t, g.file)
		require.Equal(t, string(g.flow), target.Flow, "%s: the flow it was made for", g.file)
		spec := librarySpec(t, target)
		name := goalGroup(g.file, net.Width(), g.flow)
		k := slices.IndexFunc(groups, func(gr *group) bool { return gr.name == name })
		if k < 0 {
			groups = append(groups, &group{name: name, spec: spec, flow: g.flow, width: net.Width(), orders: byMedians[g.file]})
			k = len(groups) - 1
		}
		groups[k].goals = append(groups[k].goals, goal{i, net, arch})
	}
	for _, gr := range groups {
		t.Run(gr.name, func(t *testing.T) {
			var err error
			var designs []*physical.Design
			for _, g := range gr.goals {
				designs = append(designs, goalDesign(t, gr.spec, g.net, g.arch))
			}
			// The adders a run of each goal's set found its fastest and
			// smallest, after the goals.
			all := map[string][]explore.Point{}
			enumerate := func(valencies []int) []explore.Point {
				k := fmt.Sprint(valencies)
				if all[k] == nil {
					all[k], err = explore.Enumerate(ctx, gr.width, explore.Options{Valencies: valencies})
					require.NoError(t, err)
				}
				return all[k]
			}
			fastestOf, smallestOf := map[int]int{}, map[int]int{} // goal → index into results
			at := map[namedAdder]int{}                            // each recorded adder measured once
			for j, g := range gr.goals {
				e := libraryGoals[g.entry]
				rec := recorded[e.file]
				for _, r := range []struct {
					want  bool
					named namedAdder
					of    map[int]int
				}{{e.g1, rec.fastest, fastestOf}, {e.g2, rec.smallest, smallestOf}} {
					if !r.want {
						continue
					}
					if k, ok := at[r.named]; ok {
						r.of[j] = k
						continue
					}
					r.of[j], at[r.named] = len(designs), len(designs)
					designs = append(designs, namedDesign(t, gr.spec, named(t, enumerate([]int{2, 3, 4}), r.named.network), r.named))
				}
			}
			// The named sets whole, under fullSetsEnv: the options of every
			// goal of the group.
			sparses, lings, valencies, every, increment := []int{1}, []bool{false}, []int{2}, false, false
			for _, g := range gr.goals {
				e := libraryGoals[g.entry]
				increment = increment || g.arch.Increment
				if e.sparse {
					sparses = []int{1, 2, 4, 8}
				}
				if e.ling {
					lings = []bool{false, true}
				}
				if e.valency {
					valencies = []int{2, 3, 4}
				}
				every = every || e.every()
			}
			named := len(designs)
			var sparseOf []int  // the sparseness of each named adder
			var lingOf []bool   // whether it has Ling's carries
			var valencyOf []int // the valency of its cells
			var faOf []bool     // whether its bits are full adders
			var incOf []bool    // whether its blocks are carry-increment blocks
			add := func(p explore.Point, n namedAdder) {
				designs = append(designs, namedDesign(t, gr.spec, p, n))
				sparseOf = append(sparseOf, n.sparse)
				lingOf = append(lingOf, n.ling)
				valencyOf = append(valencyOf, topologies.ValencyOf(p.Network))
				faOf = append(faOf, n.fa)
				incOf = append(incOf, n.inc)
			}
			if full {
				for _, p := range enumerate(valencies) {
					for _, pg := range []bool{false, true} {
						for _, ling := range lings {
							for _, s := range sparses {
								add(p, namedAdder{p.Name, s, ling, pg, false, false})
							}
						}
					}
					// Every option holds the library's full adders too
					// (adder.EachOption): the dense adders' of binary
					// cells without Ling's carries or --pg-cells, the
					// sparse adders' beside every tree.
					if !every {
						continue
					}
					for _, s := range sparses {
						for _, pg := range []bool{false, true} {
							for _, ling := range lings {
								if s > 1 || !pg && !ling && topologies.ValencyOf(p.Network) == 2 {
									add(p, namedAdder{p.Name, s, ling, pg, true, false})
								}
								// A goal of carry-increment blocks is judged
								// against a set with them (adder.EachIncrement).
								if s > 1 && increment {
									add(p, namedAdder{p.Name, s, ling, pg, true, true})
								}
							}
						}
					}
				}
			}
			results, err := physical.Run(ctx, designs, physical.Options{Liberty: gr.spec, Flow: gr.flow, Orders: gr.orders})
			require.NoError(t, err)
			// Each figure is the design's as written, or with orders its
			// median over them.
			area := func(r *physical.Result) float64 { return r.MedianAreaUM2() }
			delay := func(r *physical.Result) float64 { return r.MedianDelayNS() }
			by := ""
			if gr.orders > 0 {
				by = fmt.Sprintf(" (medians over %d orders)", gr.orders+1)
			}
			for j, g := range gr.goals {
				e := libraryGoals[g.entry]
				got := results[j]
				what := fmt.Sprintf("%s through flow %s on %s%s: %.1f µm², %.4f ns", e.file, gr.flow, gr.spec, by, area(got), delay(got))
				// G1: at most 90 % of the fastest's area, no slower; G2: no
				// larger than the smallest, at most 80 % of its delay.
				for _, c := range []struct {
					goal, ref   string
					of          map[int]int
					area, delay float64
				}{{"G1", "fastest", fastestOf, 0.9, 1}, {"G2", "smallest", smallestOf, 1, 0.8}} {
					k, ok := c.of[j]
					if !ok {
						continue
					}
					r := results[k]
					rec := fmt.Sprintf("%s: %s; the %s named adder recorded, %s: %.1f µm², %.4f ns", c.goal, what, c.ref, r.Name(), area(r), delay(r))
					assert.LessOrEqual(t, area(got), c.area*area(r), rec)
					assert.LessOrEqual(t, delay(got), c.delay*delay(r), rec)
					t.Log(rec)
				}
				if !full {
					continue
				}
				// The records against the set the goal names.
				var set []*physical.Result
				for i, r := range results[named:] {
					if (e.sparse || sparseOf[i] == 1) && (e.ling || !lingOf[i]) && (e.valency || valencyOf[i] == 2) && (e.every() || !faOf[i]) && (g.arch.Increment || !incOf[i]) {
						set = append(set, r)
					}
				}
				require.NotEmpty(t, set, e.file)
				fast, small := set[0], set[0]
				for _, r := range set {
					if delay(r) < delay(fast) || delay(r) == delay(fast) && area(r) < area(fast) {
						fast = r
					}
					if area(r) < area(small) || area(r) == area(small) && delay(r) < delay(small) {
						small = r
					}
				}
				whole := fmt.Sprintf("%s; %d named adders, the fastest %s: %.1f µm², %.4f ns, the smallest %s: %.1f µm², %.4f ns",
					what, len(set), fast.Name(), area(fast), delay(fast), small.Name(), area(small), delay(small))
				if k, ok := fastestOf[j]; ok {
					assert.LessOrEqual(t, delay(results[k]), delay(fast), "the fastest adder recorded for %s, %s, against the set's: %s", e.file, results[k].Name(), whole)
				}
				if k, ok := smallestOf[j]; ok {
					assert.LessOrEqual(t, area(results[k]), area(small), "the smallest adder recorded for %s, %s, against the set's: %s", e.file, results[k].Name(), whole)
				}
				t.Log(whole)
			}
		})
	}
}

// goalGroup names the group of TestClaimLibraryGoals that claims the goal
// adder of file, of width bits made for flow: its library, width and flow
// (nangate45-64-abc), one run of the tools; a goal judged by medians has
// a group of its own, named for its orders (sky130hd-32-abc-medians6).
func goalGroup(file string, width int, flow physical.Flow) string {
	lib, _, _ := strings.Cut(file, "-")
	if byMedians[file] > 0 {
		return fmt.Sprintf("%s-%d-%s-medians%d", lib, width, flow, byMedians[file])
	}
	return fmt.Sprintf("%s-%d-%s", lib, width, flow)
}

// goalDesign is the design of a goal adder for the library spec.
func goalDesign(t *testing.T, spec string, net *network.Network, arch adder.Architecture) *physical.Design {
	t.Helper()
	c, err := physical.LibraryCells(spec, arch)
	require.NoError(t, err)
	d, err := physical.ArchitectureDesign(net, arch, c)
	require.NoError(t, err)
	return d
}

// named returns the point of ps that explore names name.
func named(t *testing.T, ps []explore.Point, name string) explore.Point {
	t.Helper()
	k := slices.IndexFunc(ps, func(p explore.Point) bool { return p.Name == name })
	require.GreaterOrEqual(t, k, 0, "no named network %q", name)
	return ps[k]
}

// namedDesign is the design of the named adder n, whose network is p's,
// with the library spec's generate and propagate cells or its full adders
// where n has them.
func namedDesign(t *testing.T, spec string, p explore.Point, n namedAdder) *physical.Design {
	t.Helper()
	a := adder.Standard
	a.Sparse, a.Ling, a.Valency = n.sparse, n.ling, topologies.ValencyOf(p.Network)
	a.PGCells, a.FACells, a.Increment = n.pg, n.fa, n.inc
	c, err := physical.LibraryCells(spec, a)
	require.NoError(t, err)
	d, err := physical.ArchitectureDesign(p.Network, a, c)
	require.NoError(t, err)
	return d
}

// flowsRecorded is, for each group of TestClaimLibraryGoals, the
// fingerprint (flowPrint) of what decided the figures recorded was read
// from: the flow's scripts for Yosys, ABC and OpenSTA, the platform's
// record, the library's Liberty files as the tools read them, and the Verilog
// of the group's goals and recorded adders. A change to any of them may
// make another named adder the fastest or the smallest, which the claims
// (judging against the records alone) would not see. It leaves out the
// tools' versions and the Verilog of the named adders not recorded: a
// change there is for PREFIXGEN_CLAIMS_FULL to find.
var flowsRecorded = map[string]string{
	"asap7-128-abc":            "d4005c96d9ce438b",
	"asap7-128-abc-medians6":   "bcddee8803f8f428",
	"asap7-128-keep":           "33cde794b7063055",
	"asap7-32-abc":             "2f00012bb60a91d8",
	"asap7-32-keep":            "5f5d7d8d4b469a79",
	"asap7-64-abc":             "3e3e2512d26d7be9",
	"asap7-64-keep":            "2dbf2bd4e572e267",
	"nangate45-128-abc":        "e0ee88f9b71146ee",
	"nangate45-128-keep":       "b5ce3fe1cfaf3fbd",
	"nangate45-32-abc":         "700b4da7ebdfe871",
	"nangate45-32-keep":        "718cb437659f0d72",
	"nangate45-64-abc":         "f728147f0b45eec4",
	"nangate45-64-keep":        "945197116ad49684",
	"sky130hd-128-abc":         "2566f2253e161e59",
	"sky130hd-128-keep":        "97f7e8a7d7c7103a",
	"sky130hd-32-abc":          "0dc9cde4d53eaf29",
	"sky130hd-32-keep":         "8ce2c644a6fa882a",
	"sky130hd-64-abc":          "41b289b6f62888bd",
	"sky130hd-64-abc-medians6": "7dd1dc0f97437473",
	"sky130hd-64-keep":         "dd794b86da427c4f",
}

// flowPrint returns the fingerprint of a group of TestClaimLibraryGoals,
// the goals of libraryGoals at entries, of width bits, for the library
// spec through flow.
func flowPrint(t *testing.T, spec string, flow physical.Flow, width int, entries []int) string {
	t.Helper()
	lib, err := pdk.Open(spec, nil)
	require.NoError(t, err)
	name := lib.Liberty().Name()
	var liberty [2][]byte // the file OpenSTA reads the cells of, and ABC's
	for i, file := range []func() (string, error){lib.File, lib.MapFile} {
		path, err := file()
		require.NoError(t, err)
		liberty[i], err = os.ReadFile(path)
		require.NoError(t, err)
	}
	h := sha256.New()
	part := func(what string, b []byte) {
		fmt.Fprintf(h, "%s %d\n", what, len(b))
		h.Write(b)
	}
	part("yosys", []byte(physical.YosysScript(flow, "adder", name, lib.Record, false)))
	part("abc.constr", []byte(physical.ABCConstraints(lib.Record)))
	part("sta", []byte(physical.STAScript("adder", name, physical.DefaultOutputLoadPF)))
	part("record", fmt.Appendf(nil, "%+v", lib.Record))
	for _, i := range entries {
		if k := byMedians[libraryGoals[i].file]; k > 0 {
			part("orders", fmt.Append(nil, k))
			break
		}
	}
	part("liberty", liberty[0])
	part("liberty to map onto", liberty[1])
	ps, err := explore.Enumerate(context.Background(), width, explore.Options{Valencies: []int{2, 3, 4}})
	require.NoError(t, err)
	for _, i := range entries {
		e := libraryGoals[i]
		net, arch, _ := readGoal(t, e.file)
		part(e.file, goalDesign(t, spec, net, arch).Verilog)
		rec := recorded[e.file]
		for _, n := range []namedAdder{rec.fastest, rec.smallest} {
			if n.network != "" {
				part(n.key(), namedDesign(t, spec, named(t, ps, n.network), n).Verilog)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// The records were taken through the flows and of the adders as they are:
// a group whose fingerprint has changed since has its whole sets to
// measure again, which the failure says how to do.
func TestLibraryGoalsFlowsRecorded(t *testing.T) {
	type group struct {
		file    string // of its first goal, which gives the library
		flow    physical.Flow
		width   int
		entries []int
	}
	groups := map[string]*group{}
	for i, g := range libraryGoals {
		net, _, _ := readGoal(t, g.file)
		name := goalGroup(g.file, net.Width(), g.flow)
		if groups[name] == nil {
			groups[name] = &group{file: g.file, flow: g.flow, width: net.Width()}
		}
		groups[name].entries = append(groups[name].entries, i)
	}
	for _, name := range slices.Sorted(maps.Keys(groups)) {
		gr := groups[name]
		t.Run(name, func(t *testing.T) {
			_, _, target := readGoal(t, gr.file)
			got := flowPrint(t, librarySpec(t, target), gr.flow, gr.width, gr.entries)
			assert.Equal(t, flowsRecorded[name], got, "%s: the flow, the library or the adders changed since recorded was taken: measure the whole sets again (PREFIXGEN_CLAIMS=1 %s=1 go test ./optimize -run 'TestClaimLibraryGoals/^%s$' -v -timeout 3h), mend recorded where it finds another fastest or smallest adder, then set flowsRecorded[%q] to %q", name, fullSetsEnv, name, name, got)
		})
	}
	for name := range flowsRecorded {
		assert.Contains(t, groups, name, "flowsRecorded: no goal of libraryGoals is claimed in group %s", name)
	}
	// The fingerprint can fail: ASAP7's 32-bit group through the other
	// flow's scripts, or without one of its goals, is another.
	gr := groups["asap7-32-abc"]
	require.NotNil(t, gr)
	require.Greater(t, len(gr.entries), 1)
	assert.NotEqual(t, flowsRecorded["asap7-32-abc"], flowPrint(t, "asap7", physical.Keep, 32, gr.entries), "through keep")
	assert.NotEqual(t, flowsRecorded["asap7-32-abc"], flowPrint(t, "asap7", physical.ABC, 32, gr.entries[1:]), "a goal left out")
}

// Every goal of libraryGoals has the named adders it is judged against
// recorded: the fastest of its set for G1, the smallest for G2, and no
// record it is not judged against.
func TestLibraryGoalsRecorded(t *testing.T) {
	files := map[string]bool{}
	for _, g := range libraryGoals {
		files[g.file] = true
		rec, ok := recorded[g.file]
		require.True(t, ok, "%s: no named adders recorded", g.file)
		assert.Equal(t, g.g1, rec.fastest.network != "", "%s: a fastest adder recorded where it is a G1 goal", g.file)
		assert.Equal(t, g.g2, rec.smallest.network != "", "%s: a smallest adder recorded where it is a G2 goal", g.file)
	}
	for file := range recorded {
		assert.True(t, files[file], "%s: recorded, but no goal of libraryGoals", file)
	}
}

// TestClaimRadixCandidates: the flow search measures the radix-k networks
// whatever the model says of them. At 32 bits on ASAP7 through the abc
// flow radix-4 Kogge–Stone (0.4148 ns) is faster than every other named
// adder (Knowles s=13, 0.499 ns, docs/libraries.md): under its delay as
// the bound it is the one named adder within it.
func TestClaimRadixCandidates(t *testing.T) {
	tooltest.Claims(t)
	tooltest.Path(t, "yosys")
	tooltest.Path(t, "sta")
	opt := optimize.Options{Width: 32, MaxDepth: 10, Seed: 1, Chains: 2, Steps: 500}
	r, err := optimize.MinimizeFlow(context.Background(), opt, 0.4148, physical.Options{Liberty: "asap7", Flow: physical.ABC})
	require.NoError(t, err)
	require.NotNil(t, r.NamedMeasured)
	require.NotNil(t, r.Named)
	assert.Equal(t, "kogge-stone v=4", r.Named.Topology()+" "+r.Named.Params().Format(" "))
	assert.LessOrEqual(t, r.Measured.DelayNS, 0.4148)
	assert.LessOrEqual(t, r.Measured.AreaUM2, r.NamedMeasured.AreaUM2)
	t.Logf("%s: %.2f µm², %.4f ns; %d networks measured", r.Source, r.NamedMeasured.AreaUM2, r.NamedMeasured.DelayNS, r.Tried)
}

// The G2 goal adders of ASAP7's full adders are carry-select networks of
// two segments, each cell for cell the network of -t carry-select with
// its lower segment's length and g=0, as docs/libraries.md says: the
// goal's cells claimed as that network pass the claim check, and claimed
// as the network one bit longer below do not.
func TestSmallGoalsAreCarrySelect(t *testing.T) {
	for file, lower := range map[string]int{
		"asap7-small-abc-32.json": 19, "asap7-small-keep-32.json": 17,
		"asap7-small-abc-64.json": 37, "asap7-small-keep-64.json": 33,
		"asap7-small-abc-128.json": 69, "asap7-small-keep-128.json": 66,
	} {
		net, arch, _ := readGoal(t, file)
		require.True(t, arch.FACells, file)
		for l, ok := range map[int]bool{lower: true, lower + 1: false} {
			spec := net.Spec()
			spec.Topology, spec.Params = "carry-select", network.Params{"l": l, "g": 0}
			claimed, err := network.New(spec)
			require.NoError(t, err, file)
			assert.Equal(t, ok, topologies.CheckClaim(claimed) == nil, "%s as l=%d", file, l)
		}
	}
}
