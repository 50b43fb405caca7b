package limits_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/emit"
	"github.com/prefixgen/prefixgen/limits"
	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// budget is the budget of the tests: the same on every machine.
var budget = limits.Budget{Memory: 4 << 30, Diagram: limits.MaxText}

// widestNamed returns the width an error names as the widest that fits.
func widestNamed(t *testing.T, err error) int {
	t.Helper()
	m := regexp.MustCompile(`allowed widths up to (\d+)`).FindStringSubmatch(err.Error())
	require.NotNil(t, m, err.Error())
	n, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return n
}

// A request whose cells need more memory than the budget is refused in
// one line that names the widest width that fits: it fits, and one more
// does not. What topologies refuses whatever the machine is let through.
func TestTopology(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, format string
		n            int
		budget       limits.Budget
		want         string // a regular expression; "" lets it through
	}{
		{"ripple", "", 67108864, budget, `^limits: ripple at width 67108864 needs about 32\.0 GiB of memory, more than the 4\.0 GiB allowed here: allowed widths up to \d+$`},
		{"kogge-stone", "verilog", 1048576, budget, `^limits: kogge-stone at width 1048576 needs about 76\.0 GiB of memory, more than the 4\.0 GiB allowed here: allowed widths up to \d+$`},
		{"sklansky", "", 4000000, budget, `^limits: sklansky at width 4000000 needs about 20\.8 GiB of memory`},
		{"all", "", 1000000, budget, `^limits: every topology at width 1000000 needs about [\d.]+ GiB of memory, more than the 4\.0 GiB allowed here: allowed widths up to \d+$`},
		{"sklansky", "dot", 1 << 14, limits.Budget{Memory: 1 << 20}, `^limits: sklansky at width 16384 needs about 1\.8 GiB of memory, more than the 0\.0 GiB allowed here: allowed widths up to \d+$`},
		{"kogge-stone", limits.Synth, 1048576, budget, `^limits: synthesizing kogge-stone at width 1048576 needs about 697\.5 GiB of memory, more than the 4\.0 GiB allowed here: allowed widths up to \d+$`},
		{"ripple", limits.Synth, 1048576, budget, `^limits: synthesizing ripple at width 1048576 needs about 112\.5 GiB of memory`},
		{"all", limits.Synth, 65536, budget, `^limits: synthesizing every topology at width 65536 needs about`},
		{"kogge-stone", limits.Synth, 4096, budget, ""},
		{"all", limits.Synth, 4096, budget, ""}, // one synthesis at a time: summed, they would not fit
		{"ripple", "json", 1048576, budget, ""},
		{"all", "", 4096, budget, ""},
		{"no-such", "", 1 << 30, budget, ""},
		{"ripple", "", network.MaxWidth + 1, budget, ""},
		// More than topologies.MaxCells: topologies refuses it, naming
		// the widest width of its bound, unless the memory here names a
		// narrower one (it had named 67108865 for ripple as Verilog,
		// which the memory then refused).
		{"kogge-stone", "", network.MaxWidth, limits.Budget{Memory: 1 << 40}, ""},
		{"kogge-stone", "", network.MaxWidth, budget, `^limits: kogge-stone at width 1073741824 needs more than 32\.0 GiB of memory, more than the 4\.0 GiB allowed here: allowed widths up to \d+$`},
		{"ripple", "verilog", 100000000, budget, `^limits: ripple at width 100000000 needs more than [\d.]+ GiB of memory, more than the 4\.0 GiB allowed here: allowed widths up to \d+$`},
	}
	for _, tt := range tests {
		t.Run(tt.name+" "+strconv.Itoa(tt.n)+" "+tt.format, func(t *testing.T) {
			t.Parallel()
			err := tt.budget.Topology(tt.name, tt.n, nil, tt.format)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Regexp(t, tt.want, err.Error())
			assert.IsType(t, &limits.Error{}, err)
			lo := widestNamed(t, err)
			assert.NoError(t, tt.budget.Topology(tt.name, lo, nil, tt.format), "the widest named fits")
			assert.Error(t, tt.budget.Topology(tt.name, lo+1, nil, tt.format), "one more does not")
		})
	}
}

// A network of a file is refused when its cells need more than the
// budget, naming the most cells that fit.
func TestNetwork(t *testing.T) {
	t.Parallel()
	net, err := topologies.Build("ripple", 1000, nil)
	require.NoError(t, err)
	assert.NoError(t, budget.Network(net, "dot"))
	small := limits.Budget{Memory: 16384 * 500}
	assert.EqualError(t, small.Network(net, "dot"), "limits: the network of 999 cells needs about 0.02 GiB of memory, more than the 0.0 GiB allowed here: allowed networks of up to 500 cells")
	assert.NoError(t, small.Network(net, "json"))
	// Synthesized, each cell and each bit costs the outside tools too.
	assert.NoError(t, budget.Network(net, limits.Synth))
	tools := limits.Budget{Memory: 100 << 20}
	// No network of width 1000 has fewer than its 999 cells: the widest
	// width whose fewest cells fit is named, where 689 cells were.
	assert.EqualError(t, tools.Network(net, limits.Synth), "limits: synthesizing the network of 999 cells at width 1000 needs about 0.11 GiB of memory, more than the 0.1 GiB allowed here: allowed widths up to 910 (a network of width N has N − 1 cells or more)")
	wide, err := topologies.Build("sklansky", 1000, nil)
	require.NoError(t, err)
	roomy := limits.Budget{Memory: 140 << 20}
	assert.EqualError(t, roomy.Network(wide, limits.Synth), "limits: synthesizing the network of 4932 cells at width 1000 needs about 0.2 GiB of memory, more than the 0.1 GiB allowed here: allowed networks of up to 1949 cells at that width")
}

// A text diagram larger than the budget is refused, naming the widest
// width of its topology whose diagram fits (and one more does not); a
// network of a file is told to draw itself another way. Kogge–Stone's
// diagram grows with its rows, not its depth.
func TestText(t *testing.T) {
	t.Parallel()
	small := limits.Budget{Diagram: 1 << 20}
	tests := []struct {
		topo string
		n    int
		want string
	}{
		{"ripple", 1000, `^limits: the text diagram of ripple at width 1000 would take about 3.8 MiB, more than the 1 MiB allowed: allowed widths up to \d+ \(or -f svg\)$`},
		{"kogge-stone", 1000, `^limits: the text diagram of kogge-stone at width 1000 would take about 5.1 MiB, more than the 1 MiB allowed: allowed widths up to \d+ \(or -f svg\)$`},
		{"sklansky", 1000, ""},
		{"", 1000, `^limits: the text diagram of this network would take about 3.8 MiB, more than the 1 MiB allowed: draw it as -f svg or dot, or a narrower network$`},
	}
	for _, tt := range tests {
		t.Run(tt.topo, func(t *testing.T) {
			t.Parallel()
			name := tt.topo
			if name == "" {
				name = "ripple"
			}
			net, err := topologies.Build(name, tt.n, nil)
			require.NoError(t, err)
			err = small.Text(net, tt.topo, nil)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Regexp(t, tt.want, err.Error())
			if tt.topo == "" {
				return
			}
			lo := widestNamed(t, err)
			for m, fits := range map[int]bool{lo: true, lo + 1: false} {
				sub, err := topologies.Build(name, m, nil)
				require.NoError(t, err)
				assert.Equal(t, fits, emit.TextSize(sub) <= small.Diagram, "width %d", m)
			}
		})
	}
}

// A text diagram is refused before the network is built where a
// narrower network of its topology already draws too large a diagram,
// naming the same widest width as Text: Kogge–Stone at a million bits
// (20 million cells) is not built to be refused.
func TestTopologyText(t *testing.T) {
	t.Parallel()
	small := limits.Budget{Memory: 64 << 30, Diagram: 1 << 20}
	tests := []struct {
		topo string
		n    int
		want string
	}{
		{"kogge-stone", 1 << 20, `^limits: the text diagram of kogge-stone at width 1048576 would take more than the 1 MiB allowed: allowed widths up to \d+ \(or -f json\)$`},
		{"ripple", 3_000_000, `^limits: the text diagram of ripple at width 3000000 would take more than the 1 MiB allowed: allowed widths up to \d+ \(or -f json\)$`},
		{"ripple", 1000, ""}, // narrow: Text judges it once built
		{"sklansky", 4096, ""},
	}
	for _, tt := range tests {
		t.Run(tt.topo+" "+strconv.Itoa(tt.n), func(t *testing.T) {
			t.Parallel()
			err := small.Topology(tt.topo, tt.n, nil, "text")
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Regexp(t, tt.want, err.Error())
			lo := widestNamed(t, err)
			wide, err := topologies.Build(tt.topo, lo+1, nil)
			require.NoError(t, err)
			assert.Equal(t, lo, widestNamed(t, small.Text(wide, tt.topo, nil)), "the widest Text names")
			assert.NoError(t, small.Topology(tt.topo, lo, nil, "text"))
		})
	}
	// A depth no narrower network has is not judged by them.
	assert.NoError(t, small.Topology("zero-deficiency", 3000, network.Params{"d": 2000}, "text"))
}

// The machine's budget is half its memory, within bounds.
func TestMachine(t *testing.T) {
	t.Parallel()
	b := limits.Machine()
	assert.GreaterOrEqual(t, b.Memory, int64(1<<30))
	assert.LessOrEqual(t, b.Memory, int64(32<<30))
	assert.Equal(t, limits.MaxText, b.Diagram)
}

// A yosys-lcu map of many widths holds every width's network and text at
// once: refused where they do not fit together, though each width does.
func TestWidths(t *testing.T) {
	b := limits.Budget{Memory: 1 << 30, Diagram: limits.MaxText}
	all := make([]int, 1024)
	for i := range all {
		all[i] = i + 1
	}
	assert.EqualError(t, b.Widths("kogge-stone", all, nil), "limits: kogge-stone at 1024 widths needs about 2.2 GiB of memory, more than the 1.0 GiB allowed here: allowed fewer or narrower widths")
	assert.NoError(t, b.Widths("kogge-stone", all[:128], nil))
	assert.NoError(t, b.Widths("ripple", all, nil), "ripple's cells are few")
	assert.NoError(t, b.Widths("nosuch", all, nil), "topologies says what is wrong")
	for _, n := range []int{1024, 512} {
		assert.NoError(t, b.Topology("kogge-stone", n, nil, "yosys-lcu"), "each width alone fits")
	}
}

// Topologies listed one by one are held at once, and judged together as
// "all" is: each of nine fitting did not make the nine fit.
func TestTopologies(t *testing.T) {
	var every []string
	for _, t := range topologies.All() {
		every = append(every, t.Name)
	}
	all := budget.Topology("all", 262144, nil, "")
	require.Error(t, all)
	listed := budget.Topologies(every, 262144, nil, "")
	require.Error(t, listed, "the same networks as all")
	want := strings.Replace(all.Error(), "every topology", fmt.Sprintf("the %d topologies", len(every)), 1)
	assert.Equal(t, strings.Replace(want, " needs ", " need ", 1), listed.Error())
	for _, name := range every {
		assert.NoError(t, budget.Topology(name, 262144, nil, ""), "%s alone fits", name)
	}
	assert.Regexp(t, `^limits: ripple,kogge-stone at width 2000000 need about [\d.]+ GiB of memory, more than the 4\.0 GiB allowed here: allowed widths up to \d+$`,
		budget.Topologies([]string{"ripple", "kogge-stone"}, 2000000, nil, ""))
	assert.NoError(t, budget.Topologies([]string{"ripple", "nosuch"}, 1<<30, nil, ""), "topologies says what is wrong")
}

// A refusal for memory never names a width the format refuses in turn:
// the format's own bound comes first.
func TestTopologyFormatBoundFirst(t *testing.T) {
	assert.EqualError(t, budget.Topology("kogge-stone", 3195660, nil, "yosys-lcu"), "limits: width 3195660 too wide for a $lcu techmap: allowed 1 to 1024")
	assert.EqualError(t, budget.Topology("kogge-stone", emit.MaxLCUWidth+1, nil, "yosys-lcu"), "limits: width 1025 too wide for a $lcu techmap: allowed 1 to 1024")
	assert.NoError(t, budget.Topology("kogge-stone", emit.MaxLCUWidth, nil, "yosys-lcu"))
	err := budget.Topology("kogge-stone", 3195660, nil, "text")
	require.Error(t, err)
	lo := widestNamed(t, err)
	assert.NoError(t, budget.Topology("kogge-stone", lo, nil, "text"), "the widest named fits: %v", err)
}

// A picture is refused past MaxPictureWidth columns, before its network is
// built: Kogge–Stone's svg at 50 000 bits took 67 s and its dot a gigabyte.
func TestPictureWidth(t *testing.T) {
	widest, err := topologies.Build("ripple", limits.MaxPictureWidth, nil)
	require.NoError(t, err)
	for _, format := range []string{"svg", "dot"} {
		assert.NoError(t, budget.Topology("kogge-stone", limits.MaxPictureWidth, nil, format))
		assert.NoError(t, budget.Network(widest, format), "a file's network of the widest picture width")
		assert.EqualError(t, budget.Topology("kogge-stone", limits.MaxPictureWidth+1, nil, format),
			"limits: width 16385 too wide for a picture: allowed 1 to 16384 columns (-f svg, dot), or the network as -f json")
		net, err := topologies.Build("ripple", limits.MaxPictureWidth+1, nil)
		require.NoError(t, err)
		assert.EqualError(t, budget.Network(net, format), "limits: width 16385 too wide for a picture: allowed 1 to 16384 columns (-f svg, dot), or the network as -f json")
		assert.NoError(t, budget.Network(net, "json"))
	}
}

// A request just past the budget is told its need in as many decimals as
// tell it from the budget, and a list of topologies "need".
func TestMemoryJustPast(t *testing.T) {
	b := limits.Budget{Memory: 1288490188, Diagram: limits.MaxText} // 1.2 GiB
	n := 1
	for b.Topologies([]string{"ripple", "kogge-stone"}, n*2, nil, "") == nil {
		n *= 2
	}
	for lo, hi := n, n*2; hi-lo > 1; {
		if m := (lo + hi) / 2; b.Topologies([]string{"ripple", "kogge-stone"}, m, nil, "") == nil {
			lo = m
		} else {
			hi = m
			n = m
		}
	}
	err := b.Topologies([]string{"ripple", "kogge-stone"}, n, nil, "")
	require.Error(t, err)
	assert.Regexp(t, `^limits: ripple,kogge-stone at width \d+ need about 1\.20\d* GiB of memory, more than the 1\.2 GiB allowed here`, err.Error())
}

// A set of topologies with one past topologies.MaxCells is judged by its
// memory too, and the width it names fits every one: stats -t all and
// compare at 2 100 000 bits were let through, Harris's default past the
// cells topologies allows, and built the rest (7 GB in 25 s, on to 17.8).
func TestSetPastMaxCells(t *testing.T) {
	for _, n := range []int{2_097_152, 2_100_000, 3_050_402, 3_195_660} {
		all := budget.Topology("all", n, nil, "")
		require.Error(t, all, n)
		lo := widestNamed(t, all)
		assert.NoError(t, budget.Topology("all", lo, nil, ""), "%d fits", lo)
		cmp := budget.Compare(n, "")
		require.Error(t, cmp, n)
		assert.Regexp(t, fmt.Sprintf("^limits: comparing every topology at width %d needs (about|more than) ", n), cmp.Error())
		lo = widestNamed(t, cmp)
		assert.NoError(t, budget.Compare(lo, ""), "%d fits", lo)
		assert.Error(t, budget.Compare(lo+1, ""))
	}
}
