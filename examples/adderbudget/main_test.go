package main

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/examples/internal/program"
	"github.com/prefixgen/prefixgen/internal/tooltest"
	"github.com/prefixgen/prefixgen/physical"
)

// TestMain removes the libraries the tests had written for the tools.
func TestMain(m *testing.M) { tooltest.Main(m) }

// needTools skips the test when Yosys, OpenSTA or the OSU 0.18 µm library
// is missing (fails under PREFIXGEN_REQUIRE_TOOLS=1).
func needTools(t *testing.T) {
	t.Helper()
	tooltest.Path(t, "yosys")
	tooltest.Path(t, "sta")
	tooltest.File(t, physical.Libraries[physical.DefaultLibrary], "qflow-tech-osu018")
}

var (
	budgetLine = regexp.MustCompile(`^budget ([0-9.]+) ns: 20% below yosys a\+b\+cin \(([0-9]+) µm², ([0-9.]+) ns\)$`)
	row        = regexp.MustCompile(`^(\S+(?: \S+=\S+)*) +([0-9]+) +([0-9.]+)  (yes)?$`)
	bestLine   = regexp.MustCompile(`^smallest within the budget: (.+), ([0-9]+) µm² \(`)
)

// TestBudget checks what the table claims: the rows go by area, a row is
// marked exactly when its delay is within the budget, the budget is 20 %
// below Yosys's adder, and the answer is the first marked row.
func TestBudget(t *testing.T) {
	needTools(t)
	for _, flow := range []string{"keep", "abc"} {
		t.Run(flow, func(t *testing.T) {
			var out strings.Builder
			require.NoError(t, run(&out, []string{"-n", "16", "-flow", flow}))
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			require.Greater(t, len(lines), 6, out.String())
			assert.Contains(t, lines[0], "16-bit adders, flow "+flow+", osu018; Yosys ")

			m := budgetLine.FindStringSubmatch(lines[1])
			require.NotNil(t, m, lines[1])
			budget, yosysDelay := number(t, m[1]), number(t, m[3])
			assert.InDelta(t, 0.8*yosysDelay, budget, 0.0006)

			var names []string
			var first string
			lastArea := 0.0
			for _, line := range lines[4:] {
				if line == "" {
					break
				}
				r := row.FindStringSubmatch(line)
				require.NotNil(t, r, "row %q", line)
				area, delay := number(t, r[2]), number(t, r[3])
				assert.GreaterOrEqual(t, area, lastArea, "rows go by area")
				lastArea = area
				assert.Equal(t, delay <= budget, r[4] == "yes", line)
				if r[4] == "yes" && first == "" {
					first = r[1]
				}
				names = append(names, r[1])
			}
			assert.Contains(t, names, "kogge-stone")
			assert.NotContains(t, names, "knowles s=0", "Kogge–Stone's cells are measured once")
			require.NotEmpty(t, first, "Kogge–Stone is within 20 %% of Yosys's adder at 16 bits")
			b := bestLine.FindStringSubmatch(lines[len(lines)-1])
			require.NotNil(t, b, lines[len(lines)-1])
			assert.Equal(t, first, b[1])
		})
	}
}

func number(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return v
}

// TestNoneWithin: a budget no adder meets is a result (exit status 1), and
// the table is still printed.
func TestNoneWithin(t *testing.T) {
	needTools(t)
	var out strings.Builder
	err := run(&out, []string{"-n", "8", "-faster", "95"})
	require.Error(t, err)
	assert.Regexp(t, `^adderbudget: no family's 8-bit adder is within [0-9.]+ ns$`, err.Error())
	_, usage := errors.AsType[*program.UsageError](err)
	assert.False(t, usage, "a result, not bad usage")
	assert.Contains(t, out.String(), "kogge-stone")
}

func TestBadUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-n", "1"}, "adderbudget: -n 1 out of range: allowed 2 to 128"},
		{[]string{"-n", "129"}, "adderbudget: -n 129 out of range: allowed 2 to 128"},
		{[]string{"-faster", "100"}, "adderbudget: -faster 100 out of range: allowed 0 to 99"},
		{[]string{"-faster", "NaN"}, "adderbudget: -faster NaN out of range: allowed 0 to 99"},
		{[]string{"-flow", "fast"}, "adderbudget: physical: unknown flow \"fast\""},
		{[]string{"-x"}, "adderbudget: flag provided but not defined: -x"},
		{[]string{"extra"}, `adderbudget: unexpected argument "extra": only flags are allowed`},
	}
	for _, c := range cases {
		var out strings.Builder
		err := run(&out, c.args)
		require.Error(t, err, "%q", c.args)
		assert.True(t, strings.HasPrefix(err.Error(), c.want), "%q: %q does not start with %q", c.args, err, c.want)
		_, usage := errors.AsType[*program.UsageError](err)
		assert.True(t, usage, "%q is bad usage, exit status 2", c.args)
		assert.Empty(t, out.String(), "%q", c.args)
	}
}

// TestMissingLibrary: a Liberty file that cannot be read is bad usage.
func TestMissingLibrary(t *testing.T) {
	needTools(t)
	var out strings.Builder
	err := run(&out, []string{"-n", "8", "-liberty", t.TempDir() + "/none.lib"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "adderbudget: physical: Liberty file ")
	_, usage := errors.AsType[*program.UsageError](err)
	assert.True(t, usage)
	assert.Empty(t, out.String())
}

func TestHelp(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(&out, []string{"-h"}))
	for _, flag := range []string{"-n int", "-faster float", "-flow string", "-liberty string"} {
		assert.Contains(t, out.String(), flag)
	}
}
