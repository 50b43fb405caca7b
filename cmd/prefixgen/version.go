package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/internal/toolrun"
	"github.com/prefixgen/prefixgen/network"
)

func init() {
	// prefixgen --version and -v: what prefixgen version prints.
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version, the commit and the outside tools found, then exit", DisableDefaultText: true}
	cli.VersionPrinter = func(c *cli.Context) {
		// urfave/cli prints the version whatever follows the flag; a word
		// after it is refused as prefixgen version refuses one.
		if c.Args().Present() {
			c.App.Metadata[deferredKey] = fmt.Errorf("prefixgen: unexpected argument %s: --version takes none", network.Quote(c.Args().First()))
			return
		}
		writeVersion(c.Context, c.App.Writer)
	}
}

// outsideTool is a tool some command runs, and the flag that makes it say
// its version.
type outsideTool struct {
	Program, Flag, Used string
}

// outsideTools are the tools --version looks for, in the order it lists
// them.
var outsideTools = []outsideTool{
	{"yosys", "-V", "synth, check, explore --synth, optimize --max-delay-ns, map"},
	{"sta", "-version", "synth, explore --synth, map (OpenSTA)"},
	{"iverilog", "-V", "check"},
	{"verilator", "--version", "check"},
	{"ghdl", "--version", "check, synth --vhdl"},
	{"neato", "-V", "check (Graphviz)"},
	{"nvcc", "--version", "cuda bench"},
}

// versionTimeout is how long --version waits for one tool to say its
// version.
const versionTimeout = 5 * time.Second

// moduleVersion returns prefixgen's version as the build recorded it: the
// module's version (a pseudo-version such as v0.0.0-20261207014504-
// 8dfdfebb96fb+dirty for a build from a checkout, as Go 1.24 and later
// stamp it; "(devel)" where the build recorded none, as with
// -buildvcs=false) and the commit,
// with " (modified)" when the checkout had changes; "unknown" where the
// build recorded none. short cuts the commit to 12 digits.
func moduleVersion(short bool) (version, commit string) {
	version, commit = "(devel)", "unknown"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return version, commit
	}
	if info.Main.Version != "" {
		version = info.Main.Version
	}
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if short && len(commit) > 12 {
		commit = commit[:12]
	}
	if modified && commit != "unknown" {
		commit += " (modified)"
	}
	return version, commit
}

// noCommit says why --version names no commit: the build recorded none.
const noCommit = "(built without version control information: go build in a git checkout records it, unless -buildvcs=false; go run does not)"

// appVersion is the version the app's help shows.
func appVersion() string {
	version, commit := moduleVersion(true)
	return version + ", commit " + commit
}

// toolVersion returns the line in which t says its version, or why there
// is none: "not found" where PATH has no t.
func toolVersion(ctx context.Context, t outsideTool) string {
	path, err := toolrun.LookPath(t.Program)
	if err != nil {
		return "not found (needed by " + t.Used + ")"
	}
	ctx, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	if t.Program == "nvcc" {
		// nvcc says its version on its fourth line.
		res, err := toolrun.Run(ctx, toolrun.Cmd{Path: path, Args: []string{t.Flag}, Timeout: versionTimeout})
		if err == nil {
			for line := range strings.Lines(string(res.Output)) {
				if strings.Contains(line, "release") {
					return path + ": " + toolrun.OneLine(line)
				}
			}
			return path + ": " + toolrun.FirstLine(string(res.Output))
		}
		return path + ": no version (" + toolrun.OneLine(dropWords(err.Error(), modulePackages)) + ")"
	}
	v, err := toolrun.Version(ctx, path, t.Flag, versionTimeout)
	if err != nil {
		return path + ": no version (" + toolrun.OneLine(dropWords(err.Error(), modulePackages)) + ")"
	}
	return path + ": " + v
}

// writeVersion writes prefixgen's version, its commit, the Go that built it
// and each outside tool with the line of its version, asked all at once.
func writeVersion(ctx context.Context, w io.Writer) {
	if ctx == nil {
		ctx = context.Background()
	}
	version, commit := moduleVersion(false)
	if commit == "unknown" {
		commit += " " + noCommit
	}
	lines := make([]string, len(outsideTools))
	var wg sync.WaitGroup
	for i, t := range outsideTools {
		wg.Go(func() { lines[i] = toolVersion(ctx, t) })
	}
	wg.Wait()
	fmt.Fprintf(w, "prefixgen %s\ncommit %s\nbuilt with %s\noutside tools:\n", version, commit, runtime.Version())
	for i, t := range outsideTools {
		fmt.Fprintf(w, "  %-10s %s\n", t.Program, lines[i])
	}
}

// versionCommand is prefixgen version, which prints what --version does.
func versionCommand() *cli.Command {
	return &cli.Command{
		Name:         "version",
		Usage:        "print the version, the commit and the outside tools found (as --version does)",
		UsageText:    "prefixgen version",
		OnUsageError: onUsageError,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			writeVersion(c.Context, c.App.Writer)
			return nil
		},
	}
}
