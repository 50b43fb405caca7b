package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/internal/golden"
	"github.com/prefixgen/prefixgen/limits"
	"github.com/prefixgen/prefixgen/network"
)

// prefixgen runs the command in-process and returns its exit status and
// outputs.
func prefixgen(args ...string) (status int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	status = run(append([]string{"prefixgen"}, args...), &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestGolden(t *testing.T) {
	tests := []struct {
		file string
		args []string
	}{
		{"compare.txt", []string{"compare"}},
		{"compare-100.csv", []string{"compare", "-n", "100", "-f", "csv"}},
		{"list.txt", []string{"list"}},
		{"stats-all-100.json", []string{"stats", "-t", "all", "-n", "100", "-f", "json"}},
		{"stats-lf1-32.json", []string{"stats", "-t", "ladner-fischer", "--param", "k=1", "-n", "32", "-f", "json"}},
		{"gen-sklansky-16.txt", []string{"gen", "-t", "sklansky", "-n", "16"}},
		{"gen-lf1-32.txt", []string{"gen", "-t", "ladner-fischer", "--param", "k=1", "-n", "32", "-f", "text"}},
		{"gen-bk-12.json", []string{"gen", "-t", "brent-kung", "-n", "12", "-f", "json"}},
		{"verify-all-33.txt", []string{"verify", "-t", "all", "-n", "33", "--vectors", "6400"}},
		{"explore-24.txt", []string{"explore", "-n", "24"}},
		{"explore-24-fanout4.csv", []string{"explore", "-n", "24", "--max-fanout", "4", "-f", "csv"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			status, out, errOut := prefixgen(tt.args...)
			require.Equal(t, 0, status, errOut)
			assert.Empty(t, errOut)
			golden.Check(t, filepath.Join("testdata", tt.file), []byte(out))
			// The same command prints the same bytes.
			_, again, _ := prefixgen(tt.args...)
			assert.Equal(t, out, again)
		})
	}
}

// The figures compare prints are the closed forms of DESIGN.md at n = 64.
func TestCompareFigures(t *testing.T) {
	status, out, _ := prefixgen("compare", "-f", "json")
	require.Equal(t, 0, status)
	var rows []struct {
		Topology   string         `json:"topology"`
		Params     network.Params `json:"params"`
		Width      int            `json:"width"`
		Depth      int            `json:"depth"`
		Size       int            `json:"size"`
		MaxFanout  int            `json:"max_fanout"`
		WireTracks int            `json:"wire_tracks"`
		Deficiency int            `json:"deficiency"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	type fig struct{ depth, size, fanout, tracks int }
	want := map[string]fig{
		"ripple":           {63, 63, 2, 1},
		"kogge-stone":      {6, 64*6 - 64 + 1, 7, 32},
		"brent-kung":       {2*6 - 2, 2*64 - 2 - 6, 7, 1},
		"sklansky":         {6, 32 * 6, 33, 1},
		"han-carlson":      {7, 32 * 6, 7, 16},
		"ladner-fischer/0": {6, 168, 33, 1},
	}
	seen := 0
	for _, r := range rows {
		assert.Equal(t, 64, r.Width)
		assert.Equal(t, r.Size+r.Depth-126, r.Deficiency)
		key := r.Topology
		if k, ok := r.Params["k"]; ok {
			key += "/" + string(rune('0'+k))
		}
		if w, ok := want[key]; ok {
			seen++
			assert.Equal(t, w, fig{r.Depth, r.Size, r.MaxFanout, r.WireTracks}, key)
		}
	}
	assert.Equal(t, len(want), seen)
}

// A network written with gen -f json reads back with --from and goes
// everywhere a built-in one does, with the same figures.
func TestFromFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lf1.json")
	status, out, errOut := prefixgen("gen", "-t", "ladner-fischer", "--param", "k=1", "-n", "32", "-f", "json", "-o", path)
	require.Equal(t, 0, status, errOut)
	assert.Empty(t, out)
	data, err := os.ReadFile(path)
	require.NoError(t, err)

	status, out, _ = prefixgen("gen", "--from", path, "-f", "json")
	require.Equal(t, 0, status)
	assert.Equal(t, string(data), out, "JSON round-trips byte for byte")

	_, fromText, _ := prefixgen("gen", "--from", path, "-f", "text")
	_, builtText, _ := prefixgen("gen", "-t", "ladner-fischer", "--param", "k=1", "-n", "32")
	assert.Equal(t, builtText, fromText)

	_, fromStats, _ := prefixgen("stats", "--from", path, "-f", "csv")
	_, builtStats, _ := prefixgen("stats", "-t", "ladner-fischer", "--param", "k=1", "-n", "32", "-f", "csv")
	assert.Equal(t, builtStats, fromStats)

	status, out, errOut = prefixgen("verify", "--from", path, "--vectors", "640")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "ladner-fischer k=1     32  proven")
}

func TestBadInput(t *testing.T) {
	// A machine of 1 TiB: the messages are the same on every machine the
	// suite runs on (a smaller one's memory names a narrower width than
	// topologies' bound, TestLimits).
	defer func(b limits.Budget) { budget = b }(budget)
	budget = limits.Budget{Memory: 1 << 40, Diagram: limits.MaxText}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	swapped := write("swapped.json", `{"format":"prefixgen.network/v1","width":2,"topology":"","params":{},"cells":[[1,0]],"outputs":[0,2]}`)
	dead := write("dead.json", `{"format":"prefixgen.network/v1","width":3,"cells":[[0,1],[1,2],[3,2]],"outputs":[0,3,5]}`)
	garbage := write("garbage.json", `not json`)
	out := filepath.Join(dir, "out.json")

	tests := []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"width zero", []string{"gen", "-t", "sklansky", "-n", "0"}, 2, "prefixgen gen: sklansky: width 0 out of range: allowed 1…1073741824"},
		{"width negative", []string{"stats", "-t", "all", "-n", "-3"}, 2, "prefixgen stats: width -3 out of range: allowed 1…1073741824"},
		{"width not a number", []string{"gen", "-t", "sklansky", "-n", "abc"}, 2, `prefixgen gen: invalid value "abc" for flag -n: want a whole number (see prefixgen gen --help)`},
		{"width too large", []string{"stats", "-t", "kogge-stone", "-n", "10000000"}, 2, "prefixgen stats: kogge-stone at width 10000000 needs about 230000000 cells, more than the 67108864 allowed: allowed widths up to 3195660"},
		{"unknown topology", []string{"gen", "-t", "wallace", "-n", "8"}, 2, `prefixgen gen: unknown topology "wallace": known are ripple, kogge-stone, brent-kung, sklansky, han-carlson, ladner-fischer, knowles, harris, zero-deficiency, carry-select`},
		{"k out of range", []string{"gen", "-t", "ladner-fischer", "-n", "8", "--param", "k=-1"}, 2, "prefixgen gen: ladner-fischer parameter k=-1 out of range: allowed 0…63"},
		{"unknown parameter", []string{"gen", "-t", "sklansky", "-n", "8", "--param", "k=1"}, 2, `prefixgen gen: sklansky has no parameter "k": it takes none`},
		{"malformed parameter", []string{"gen", "-t", "ladner-fischer", "-n", "8", "--param", "k:1"}, 2, `prefixgen gen: parameter "k:1" is not name=value: write it as, e.g., k=1`},
		{"missing file", []string{"gen", "--from", filepath.Join(dir, "nope.json")}, 2, "prefixgen gen: cannot read network file " + filepath.Join(dir, "nope.json") + ": no such file or directory: allowed a prefixgen.network/v1 or prefixgen.adder/v1 file"},
		{"standard input", []string{"gen", "--from", "-"}, 2, `prefixgen gen: cannot read network file "-": standard input is not read: allowed the path of a prefixgen.network/v1 or prefixgen.adder/v1 file`},
		{"a folder", []string{"stats", "--from", dir}, 2, "prefixgen stats: cannot read network file " + dir + ": it is a folder: allowed a prefixgen.network/v1 or prefixgen.adder/v1 file"},
		{"garbage file", []string{"stats", "--from", garbage}, 2, "prefixgen stats: " + garbage + ": not a prefixgen.network/v1 document: invalid JSON at byte 2: 'o' in null, where 'u' belongs"},
		{"swapped operands", []string{"gen", "--from", swapped, "-o", out}, 2, "prefixgen gen: " + swapped + ": cell 0 joins [1,1] and [0,0]: operands swapped, the lower span must come first"},
		{"dead cell", []string{"verify", "--from", dead}, 2, "prefixgen verify: " + dead + ": cell 1 [1,2] reaches no output: dead cell"},
		{"both -t and --from", []string{"gen", "-t", "sklansky", "--from", dead}, 2, "prefixgen gen: -t and --from both given: use one"},
		{"no width", []string{"gen", "-t", "sklansky"}, 2, "prefixgen gen: -n WIDTH is required with -t"},
		{"unknown format", []string{"stats", "-t", "sklansky", "-n", "8", "-f", "xml"}, 2, `prefixgen stats: unknown format "xml": allowed table, json, csv`},
		{"unknown command", []string{"synthesize"}, 2, `prefixgen: unknown command "synthesize": known are list, gen, stats, verify, compare, check, cuda, explore, report, optimize, synth, map, version, completion (see prefixgen --help)`},
		{"unknown flag", []string{"compare", "--fast"}, 2, "prefixgen compare: unknown flag --fast (see prefixgen compare --help)"},
		{"unknown flag of list", []string{"list", "--fast"}, 2, "prefixgen list: unknown flag --fast (see prefixgen list --help)"},
		{"unknown flag of cuda", []string{"cuda", "--fast"}, 2, "prefixgen cuda: unknown flag --fast (see prefixgen cuda --help)"},
		{"flag without its value", []string{"gen", "-t", "sklansky", "--width"}, 2, "prefixgen gen: a value is missing after --width (see prefixgen gen --help)"},
		{"short flag without its value", []string{"gen", "-t", "sklansky", "-n"}, 2, "prefixgen gen: a value is missing after -n (see prefixgen gen --help)"},
		{"unknown cuda command", []string{"cuda", "emitt"}, 2, `prefixgen cuda: unknown command "emitt" (did you mean emit?): known are emit, bench, report (see prefixgen cuda --help)`},
		{"help for no command", []string{"help", "synthesize"}, 2, `prefixgen help: unknown command "synthesize": known are list, gen, stats, verify, compare, check, cuda, explore, report, optimize, synth, map, version, completion (see prefixgen --help)`},
		{"cuda help for no command", []string{"cuda", "help", "emitt"}, 2, `prefixgen cuda help: unknown command "emitt" (did you mean emit?): known are emit, bench, report (see prefixgen cuda --help)`},
		{"negative vectors", []string{"verify", "-t", "all", "-n", "8", "--vectors", "-5"}, 2, "prefixgen verify: --vectors -5 out of range: allowed 0 or more"},
		{"stray argument", []string{"list", "all"}, 2, `prefixgen list: unexpected argument "all": this command takes only flags`},
		{"unwritable output", []string{"gen", "-t", "sklansky", "-n", "8", "-o", filepath.Join(dir, "no", "such", "dir.json")}, 2, "prefixgen gen: cannot write " + filepath.Join(dir, "no", "such", "dir.json") + ": no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, stdout, stderr := prefixgen(tt.args...)
			assert.Equal(t, tt.status, status)
			assert.Empty(t, stdout)
			assert.Equal(t, tt.want+"\n", stderr, "one line naming the problem")
			assert.NotContains(t, stderr, "goroutine")
		})
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "a refused network leaves no output file")
}

func TestHelp(t *testing.T) {
	status, out, _ := prefixgen("--help")
	require.Equal(t, 0, status)
	for _, cmd := range []string{"list", "gen", "stats", "verify", "compare"} {
		assert.Contains(t, out, cmd)
	}
	for _, cmd := range []string{"gen", "stats", "verify", "compare"} {
		status, out, _ := prefixgen(cmd, "--help")
		require.Equal(t, 0, status)
		want := "--width value, -n value"
		if cmd == "compare" {
			want = "--width LIST, -n LIST" // one width or several
		}
		assert.True(t, strings.Contains(out, want), cmd)
	}
}

// TestAppsShareNoFlag builds two apps, as two runs in one process do (the
// tests' parallel runs), and finds no flag object in both but urfave/cli's
// own help flag: urfave/cli writes into a flag as it parses, so a shared
// one is a data race between the runs.
func TestAppsShareNoFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	flags := func(app *cli.App) map[cli.Flag]string {
		seen := map[cli.Flag]string{}
		var walk func(prefix string, cmds []*cli.Command)
		walk = func(prefix string, cmds []*cli.Command) {
			for _, cmd := range cmds {
				for _, f := range cmd.Flags {
					seen[f] = prefix + cmd.Name + " --" + f.Names()[0]
				}
				walk(prefix+cmd.Name+" ", cmd.Subcommands)
			}
		}
		walk("", app.Commands)
		return seen
	}
	first := flags(newApp(&out, &errOut))
	for f, name := range flags(newApp(&out, &errOut)) {
		if _, shared := first[f]; shared && f != cli.HelpFlag {
			t.Errorf("%s is one flag object in both apps", name)
		}
	}
}
