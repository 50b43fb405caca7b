package toolcheck_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit/adder"
	"github.com/prefixgen/prefixgen/emit/toolcheck"
	"github.com/prefixgen/prefixgen/topologies"
)

// archCases are the adder architectures the real tools check: every
// operation, every flag, sparse trees whose groups divide the width and
// whose last group is shorter, and pipelines, alone and together, at small
// widths.
var archCases = []struct {
	topo string
	n    int
	opt  adder.Options
}{
	{"kogge-stone", 8, adder.Options{Op: adder.Sub, Flags: adder.Carry}},
	{"sklansky", 5, adder.Options{Op: adder.Sub, NoCarryIn: true, Flags: adder.Carry | adder.Overflow | adder.Zero | adder.Negative}},
	{"brent-kung", 9, adder.Options{Op: adder.AddSub, Flags: adder.Carry | adder.Overflow}},
	{"han-carlson", 6, adder.Options{Op: adder.AddSub, NoCarryIn: true, Flags: adder.Zero | adder.Negative}},
	{"ripple", 4, adder.Options{NoCarryIn: true}},
	{"kogge-stone", 1, adder.Options{Op: adder.Sub, NoCarryIn: true, Flags: adder.Overflow}},
	{"ladner-fischer", 12, adder.Options{Op: adder.Compare}},
	{"kogge-stone", 1, adder.Options{Op: adder.Compare}},
	{"sklansky", 6, adder.Options{Op: adder.Compare}},
	{"kogge-stone", 16, adder.Options{Flags: adder.Carry, Sparse: 4}},
	{"sklansky", 16, adder.Options{Flags: adder.Carry | adder.Overflow, Sparse: 2}},
	{"brent-kung", 13, adder.Options{Flags: adder.Carry | adder.Overflow | adder.Zero, Sparse: 4}},
	{"kogge-stone", 19, adder.Options{Op: adder.AddSub, Flags: adder.Carry | adder.Overflow, Sparse: 8}},
	{"sklansky", 4, adder.Options{Sparse: 4, Flags: adder.Negative}},
	{"han-carlson", 32, adder.Options{Op: adder.Sub, Flags: adder.Carry, Sparse: 8}},
	{"kogge-stone", 8, adder.Options{Flags: adder.Carry, PipelineAfter: []int{1}}},
	{"sklansky", 8, adder.Options{Flags: adder.Carry, PipelineAfter: []int{0, 2, 3}}},
	{"brent-kung", 16, adder.Options{Op: adder.AddSub, Flags: adder.Carry | adder.Overflow | adder.Zero, Stages: 2}},
	{"kogge-stone", 16, adder.Options{Op: adder.Compare, PipelineAfter: []int{2}}},
	{"kogge-stone", 32, adder.Options{Op: adder.Sub, Flags: adder.Carry | adder.Overflow, Sparse: 4, PipelineAfter: []int{0, 3}}},
}

func TestArchitectures(t *testing.T) {
	requireTools(t)
	var designs []*toolcheck.Design
	for _, tc := range archCases {
		net, err := topologies.Build(tc.topo, tc.n, nil)
		require.NoError(t, err)
		opt := tc.opt
		d, err := toolcheck.NewDesign(net, toolcheck.Options{Vectors: 300, Seed: 3, Adder: &opt})
		require.NoError(t, err, "%s %d %+v", tc.topo, tc.n, tc.opt)
		designs = append(designs, d)
	}
	results, err := toolcheck.Check(context.Background(), designs, toolcheck.Options{})
	require.NoError(t, err)
	for _, r := range results {
		if r.Check == "layout" || r.Check == "$lcu techmap" {
			continue
		}
		assert.Equal(t, toolcheck.Pass, r.Status, "%s (%d bits): %s %s: %s", r.Design, r.Width, r.Tool, r.Check, r.Detail)
	}
	if t.Failed() {
		for _, r := range results {
			fmt.Println(r.Design, r.Tool, r.Check, r.Status, r.Detail)
		}
	}
}
