package toolcheck_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/toolcheck"
	"github.com/prefixgen/prefixgen/topologies"
)

// fakeTools puts first on PATH a folder holding, for every program Check
// runs, an sh script: the one scripts gives it, or one that prints nothing
// and exits 0.
func fakeTools(t *testing.T, scripts map[string]string) {
	t.Helper()
	dir := t.TempDir()
	for _, tool := range toolcheck.Tools {
		body, ok := scripts[tool.Program]
		if !ok {
			body = "exit 0"
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, tool.Program), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	}
	for name := range scripts {
		require.FileExists(t, filepath.Join(dir, name), "%s is not a tool Check runs", name)
	}
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
}

// A verdict is read from what the tool says, never from its exit status
// alone: a tool that prints junk and exits 0 gave no verdict; one that
// exits 1, crashes or hangs failed (status Error, "yosys failed: …"), which
// says nothing of the design; only a proof the log shows failing, or a
// testbench's FAIL line, or a tool's own warning, fails the design. What a
// tool printed reaches the table escaped, on one line.
func TestToolVerdicts(t *testing.T) {
	net, err := topologies.Build("sklansky", 4, nil)
	require.NoError(t, err)
	type row struct {
		status toolcheck.Status
		detail string
	}
	tests := []struct {
		name    string
		scripts map[string]string
		timeout time.Duration
		want    map[string]row
	}{
		{name: "yosys prints junk and exits 0",
			scripts: map[string]string{"yosys": "echo 'all is well'"},
			want: map[string]row{
				"equivalence":  {toolcheck.Error, "yosys gave no proof: all is well"},
				"synthesis":    {toolcheck.Error, "yosys printed no gate count or longest path: all is well"},
				"$lcu techmap": {toolcheck.Error, "yosys gave no proof: all is well"},
			}},
		{name: "yosys prints nothing and exits 0",
			scripts: map[string]string{"yosys": "exit 0"},
			want: map[string]row{
				"equivalence":  {toolcheck.Error, "yosys gave no proof"},
				"$lcu techmap": {toolcheck.Error, "yosys gave no proof"},
			}},
		{name: "yosys exits 1",
			scripts: map[string]string{"yosys": "echo; echo 'abc: out of memory'; exit 1"},
			want: map[string]row{
				"equivalence":  {toolcheck.Error, "yosys failed: abc: out of memory"},
				"synthesis":    {toolcheck.Error, "yosys failed: abc: out of memory"},
				"$lcu techmap": {toolcheck.Error, "yosys failed: abc: out of memory"},
			}},
		{name: "yosys stops with an error of its own",
			scripts: map[string]string{"yosys": "echo 'ERROR: syntax error in the script' >&2; exit 1"},
			want: map[string]row{
				"equivalence": {toolcheck.Error, "yosys failed: ERROR: syntax error in the script"},
			}},
		{name: "yosys crashes",
			scripts: map[string]string{"yosys": "echo dying; kill -SEGV $$"},
			want: map[string]row{
				"equivalence": {toolcheck.Error, "yosys failed: killed by SIGSEGV, a segmentation fault: dying"},
			}},
		{name: "yosys prints escapes and a carriage return",
			scripts: map[string]string{"yosys": `printf '\033[2Jgone\rback\n' >&2; exit 1`},
			want: map[string]row{
				"equivalence": {toolcheck.Error, `yosys failed: \x1b[2Jgone\rback`},
			}},
		{name: "yosys hangs",
			scripts: map[string]string{"yosys": "exec sleep 30"},
			timeout: 300 * time.Millisecond,
			want: map[string]row{
				"equivalence":  {toolcheck.Error, "yosys ran past its time limit of 300ms and was stopped (allowed: a longer --tool-timeout)"},
				"synthesis":    {toolcheck.Error, "yosys ran past its time limit of 300ms and was stopped (allowed: a longer --tool-timeout)"},
				"$lcu techmap": {toolcheck.Error, "yosys ran past its time limit of 300ms and was stopped (allowed: a longer --tool-timeout)"},
			}},
		{name: "yosys's proof fails",
			scripts: map[string]string{"yosys": "echo 'ERROR: Called with -verify and proof did fail!' >&2; exit 1"},
			want: map[string]row{
				"equivalence":  {toolcheck.Fail, "not equal to a + b + cin"},
				"$lcu techmap": {toolcheck.Fail, "a + b + cin, a - b and a < b through the $lcu techmap are not equal to a + b + cin, a - b and a < b"},
			}},
		{name: "yosys's proof fails and yosys crashes",
			scripts: map[string]string{"yosys": "echo 'ERROR: Called with -verify and proof did fail!' >&2; kill -SEGV $$"},
			want: map[string]row{
				"equivalence": {toolcheck.Error, "yosys failed: killed by SIGSEGV, a segmentation fault: ERROR: Called with -verify and proof did fail!"},
			}},
		{name: "yosys proves the $lcu without the template",
			scripts: map[string]string{"yosys": "echo 'SAT proof finished - no model found: SUCCESS!'"},
			want: map[string]row{
				"$lcu techmap": {toolcheck.Fail, "yosys did not use _80_prefixgen_lcu_sklansky_4 for the $lcu of a + b + cin, a - b and a < b"},
			}},
		{name: "vvp says PASS but exits 1",
			scripts: map[string]string{"vvp": "echo 'PASS prefix_adder_sklansky_4: 10 vectors, 0 mismatches'; exit 1"},
			want: map[string]row{
				"testbench": {toolcheck.Error, "vvp failed: PASS prefix_adder_sklansky_4: 10 vectors, 0 mismatches"},
			}},
		{name: "vvp says FAIL and crashes",
			scripts: map[string]string{"vvp": "echo 'FAIL prefix_adder_sklansky_4: 1 of 10 vectors wrong'; kill -SEGV $$"},
			want: map[string]row{
				"testbench": {toolcheck.Error, "vvp failed: killed by SIGSEGV, a segmentation fault: FAIL prefix_adder_sklansky_4: 1 of 10 vectors wrong"},
			}},
		{name: "vvp passes a module whose name starts alike",
			scripts: map[string]string{"vvp": "echo 'PASS prefix_adder_sklansky_4_pipe: 10 vectors, 0 mismatches'"},
			want: map[string]row{
				"testbench": {toolcheck.Error, "vvp gave no verdict: PASS prefix_adder_sklansky_4_pipe: 10 vectors, 0 mismatches"},
			}},
		{name: "vvp prints junk and exits 0",
			scripts: map[string]string{"vvp": "echo hello"},
			want: map[string]row{
				"testbench": {toolcheck.Error, "vvp gave no verdict: hello"},
			}},
		{name: "vvp passes another module",
			scripts: map[string]string{"vvp": "echo 'PASS other: 10 vectors, 0 mismatches'"},
			want: map[string]row{
				"testbench": {toolcheck.Error, "vvp gave no verdict: PASS other: 10 vectors, 0 mismatches"},
			}},
		{name: "the testbench fails",
			scripts: map[string]string{"vvp": "echo 'MISMATCH a=1 b=2'; echo 'FAIL prefix_adder_sklansky_4: 1 of 10 vectors wrong'; exit 1"},
			want: map[string]row{
				"testbench": {toolcheck.Fail, "FAIL prefix_adder_sklansky_4: 1 of 10 vectors wrong"},
			}},
		{name: "iverilog finds an error",
			scripts: map[string]string{"iverilog": "echo 'prefix_adder_sklansky_4.v:3: syntax error'; exit 2"},
			want: map[string]row{
				"testbench": {toolcheck.Fail, "prefix_adder_sklansky_4.v:3: syntax error"},
			}},
		{name: "iverilog warns",
			scripts: map[string]string{"iverilog": "echo 'warning: Some design elements have no explicit time unit and/or time precision.'"},
			want: map[string]row{
				"testbench": {toolcheck.Fail, "warning: Some design elements have no explicit time unit and/or time precision."},
			}},
		{name: "iverilog exits 3 and prints nothing",
			scripts: map[string]string{"iverilog": "exit 3"},
			want: map[string]row{
				"testbench": {toolcheck.Error, "iverilog failed: exit status 3"},
			}},
		{name: "iverilog exits 1 without a word on the design",
			scripts: map[string]string{"iverilog": "echo 'cannot fork'; exit 1"},
			want: map[string]row{
				"testbench": {toolcheck.Error, "iverilog failed: cannot fork"},
			}},
		{name: "verilator exits 1 without a warning",
			scripts: map[string]string{"verilator": "echo 'Segmentation fault'; exit 1"},
			want: map[string]row{
				"lint -Wall": {toolcheck.Error, "verilator failed: Segmentation fault"},
			}},
		{name: "verilator prints junk and exits 0",
			scripts: map[string]string{"verilator": "echo 'hello'"},
			want: map[string]row{
				"lint -Wall": {toolcheck.Error, "verilator gave no verdict: hello"},
			}},
		{name: "verilator warns",
			scripts: map[string]string{"verilator": "echo '    1 | x'; echo '%Warning-UNUSED: x.v:1:1: Signal is not used'; echo '%Error: Exiting due to 1 warning(s)'; exit 1"},
			want: map[string]row{
				"lint -Wall": {toolcheck.Warn, "%Warning-UNUSED: x.v:1:1: Signal is not used"},
			}},
		{name: "verilator warns of the testbench alone",
			scripts: map[string]string{"verilator": "case \"$*\" in *--timing*) echo '%Warning-UNUSED: tb.v:5:7: Signal is not used: x'; echo '%Error: Exiting due to 1 warning(s)'; exit 1;; esac"},
			want: map[string]row{
				"lint -Wall": {toolcheck.Warn, "%Warning-UNUSED: tb.v:5:7: Signal is not used: x"},
			}},
		{name: "verilator finds an error",
			scripts: map[string]string{"verilator": "echo '%Warning-UNUSED: x.v:1:1: Signal is not used'; echo '%Error: x.v:2:1: syntax error, unexpected endmodule'; echo '%Error: Exiting due to 1 error(s)'; exit 1"},
			want: map[string]row{
				"lint -Wall": {toolcheck.Fail, "%Error: x.v:2:1: syntax error, unexpected endmodule"},
			}},
		{name: "neato draws nothing",
			scripts: map[string]string{"neato": "exit 0"},
			want: map[string]row{
				"layout": {toolcheck.Error, "neato wrote no adder.svg"},
			}},
		{name: "neato prints junk and exits 0",
			scripts: map[string]string{"neato": "echo hello"},
			want: map[string]row{
				"layout": {toolcheck.Error, "neato gave no verdict: hello"},
			}},
		{name: "neato finds an error",
			scripts: map[string]string{"neato": "echo 'Error: adder.dot: syntax error in line 1' >&2; exit 1"},
			want: map[string]row{
				"layout": {toolcheck.Fail, "Error: adder.dot: syntax error in line 1"},
			}},
		{name: "ghdl prints junk and exits 0",
			scripts: map[string]string{"ghdl": "echo hello"},
			want: map[string]row{
				"VHDL": {toolcheck.Error, "ghdl gave no verdict: hello"},
			}},
		{name: "ghdl crashes",
			scripts: map[string]string{"ghdl": "kill -SEGV $$"},
			want: map[string]row{
				"VHDL": {toolcheck.Error, "ghdl failed: killed by SIGSEGV, a segmentation fault"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fakeTools(t, tt.scripts)
			opt := toolcheck.Options{Vectors: 10, Seed: 1, ToolTimeout: tt.timeout}
			d, err := toolcheck.NewDesign(net, opt)
			require.NoError(t, err)
			start := time.Now()
			rs, err := toolcheck.Check(context.Background(), []*toolcheck.Design{d}, opt)
			require.NoError(t, err)
			assert.Less(t, time.Since(start), 10*time.Second)
			for _, r := range rs {
				want, ok := tt.want[r.Check]
				if !ok {
					continue
				}
				assert.Equal(t, want.status, r.Status, "%s: %s", r.Check, r.Detail)
				assert.Equal(t, want.detail, r.Detail, r.Check)
				if r.Status == toolcheck.Error && tt.timeout > 0 {
					_, late := errors.AsType[*toolrun.TimeoutError](r.Err)
					assert.True(t, late, "%s: %v", r.Check, r.Err)
				}
			}
			assert.True(t, toolcheck.Failed(rs))
			var buf bytes.Buffer
			require.NoError(t, toolcheck.Table(&buf, rs))
			assert.NotContains(t, buf.String(), "\x1b")
			assert.NotContains(t, buf.String(), "\r")
			footer := 0
			if slices.ContainsFunc(rs, func(r toolcheck.Result) bool { return r.Status == toolcheck.Warn }) {
				footer = 1
			}
			assert.Len(t, strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n"), len(rs)+1+footer, "one line a row")
		})
	}
}

// A tool's failure is an error a caller can test: FirstToolError wraps the
// first one, a *toolrun.TimeoutError for a tool that ran past its limit.
func TestFirstToolError(t *testing.T) {
	t.Parallel()
	late := &toolrun.TimeoutError{Tool: "yosys", Limit: time.Second}
	rs := []toolcheck.Result{
		{Check: "testbench", Status: toolcheck.Fail, Detail: "FAIL x: 1 of 2 vectors wrong"},
		{Check: "equivalence", Status: toolcheck.Error, Detail: late.Error(), Err: late},
	}
	require.NoError(t, toolcheck.FirstToolError(rs[:1]))
	err := toolcheck.FirstToolError(rs)
	require.Error(t, err)
	assert.Equal(t, late.Error(), err.Error())
	got, ok := errors.AsType[*toolrun.TimeoutError](err)
	require.True(t, ok)
	assert.Same(t, late, got)
}

// Whatever a Result holds, the table gives it one line, escaped: a
// detail of two lines, a tab or an escape sequence cannot break it or
// reach the terminal.
func TestTableOneLine(t *testing.T) {
	t.Parallel()
	rs := []toolcheck.Result{
		{Design: "net\x1b[31m", Width: 4, Tool: "yosys", Check: "equivalence", Status: toolcheck.Error, Detail: "first\nsecond\tthird\r"},
		{Design: "sklansky", Width: 4, Tool: "neato", Check: "layout", Status: toolcheck.Pass, Detail: "neato -n2 draws it"},
	}
	var buf bytes.Buffer
	require.NoError(t, toolcheck.Table(&buf, rs))
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 3, buf.String())
	assert.Regexp(t, `^net\\x1b\[31m +4 +yosys +equivalence +ERROR +first second third\\r$`, lines[1])
	assert.Regexp(t, `^sklansky +4 +neato +layout +pass +neato -n2 draws it$`, lines[2])
}
