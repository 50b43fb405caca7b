package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/prefixgen/prefixgen/network"
	"github.com/prefixgen/prefixgen/topologies"
)

// A request is refused before its work when the memory it needs, estimated
// from its cells and what it writes, exceeds memoryBudget, or when a text
// diagram would exceed maxTextBytes: a huge width ends in one line naming
// the widest that fits, never in the runtime's out-of-memory crash.

// memoryBudget is the memory, in bytes, a command may plan to use: half
// the machine's memory (MemTotal in /proc/meminfo), from 1 GiB to 32 GiB,
// or 4 GiB where that is unknown. Tests set it to make limits the same on
// every machine.
var memoryBudget = machineBudget()

// maxTextBytes is the largest text diagram gen draws: beyond it a diagram
// is too wide and too long to read, and would fill a disk.
var maxTextBytes int64 = 256 << 20

// maxVerifyVectors is the most random vectors verify checks a network
// with: about ten seconds at 64 bits, and minutes at thousands.
const maxVerifyVectors = 1_000_000_000

// machineBudget returns the default memoryBudget: half the least of the
// machine's memory, the control group's limit and the process's address
// space limit (ulimit -v), from 1 GiB to 32 GiB; 4 GiB where none is known.
func machineBudget() int64 {
	const gib = 1 << 30
	memory := int64(-1)
	least := func(b int64) {
		if b > 0 && (memory < 0 || b < memory) {
			memory = b
		}
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) >= 2 && fields[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil && kb < 1<<50 {
					least(kb * 1024)
				}
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			least(v)
		}
	}
	least(addressLimit())
	if memory < 0 {
		return 4 * gib
	}
	return min(max(memory/2, gib), 32*gib)
}

// cellBytes is the memory one cell of a network costs the command c runs:
// the network and its figures, and what its format builds in memory
// (measured, with room).
func cellBytes(c *cli.Context) int64 {
	if c.Command.Name != "gen" {
		return 512
	}
	switch c.String("format") {
	case "verilog", "vhdl", "yosys-lcu":
		return 4096
	case "dot":
		return 16384
	case "svg":
		return 1024
	}
	return 192 // text and json: the network and its writer's buffer
}

// gib writes bytes in GiB, to a tenth.
func gib(bytes int64) string {
	return strconv.FormatFloat(float64(bytes)/(1<<30), 'f', 1, 64) + " GiB"
}

// checkSize refuses, before anything is built, topology name ("all" for
// every one) at width n with params p where its cells need more memory
// than memoryBudget, naming the widest width that fits.
func checkSize(c *cli.Context, name string, n int, p network.Params) error {
	var ts []topologies.Topology
	if name == "all" {
		ts = topologies.All()
	} else if t, err := topologies.Lookup(name); err == nil {
		ts = []topologies.Topology{t}
	}
	if len(ts) == 0 || n < 1 || n > network.MaxWidth {
		return nil // Select says what is wrong
	}
	for _, t := range ts {
		if t.EstimateCells(n, p) > topologies.MaxCells {
			return nil // Select refuses it whatever the machine
		}
	}
	per := cellBytes(c)
	need := func(n int) int64 {
		var sum int64
		for _, t := range ts {
			cells := int64(t.EstimateCells(n, p))
			if cells > (1<<62)/per {
				return 1 << 62
			}
			sum += cells * per
		}
		return sum
	}
	if need(n) <= memoryBudget {
		return nil
	}
	lo, hi := 0, n // need(lo) fits, need(hi) does not
	for hi-lo > 1 {
		if m := lo + (hi-lo)/2; need(m) <= memoryBudget {
			lo = m
		} else {
			hi = m
		}
	}
	what := fmt.Sprintf("%s at width %d", name, n)
	if name == "all" {
		what = fmt.Sprintf("every topology at width %d", n)
	}
	if lo == 0 {
		return usage(c, "%s needs about %s of memory, more than the %s allowed here: no width fits", what, gib(need(n)), gib(memoryBudget))
	}
	return usage(c, "%s needs about %s of memory, more than the %s allowed here: allowed widths up to %d", what, gib(need(n)), gib(memoryBudget), lo)
}

// checkNetworkSize refuses a network read from a file whose cells need more
// memory than memoryBudget.
func checkNetworkSize(c *cli.Context, net *network.Network) error {
	per := cellBytes(c)
	if need := int64(net.Size()) * per; need > memoryBudget {
		return usage(c, "the network of %d cells needs about %s of memory, more than the %s allowed here: allowed networks of up to %d cells", net.Size(), gib(need), gib(memoryBudget), memoryBudget/per)
	}
	return nil
}

// textBytes estimates the size of the text diagram of net: four bytes a
// column for every row.
func textBytes(net *network.Network) int64 {
	return 4 * int64(net.Width()+1) * int64(net.Depth()+3)
}

// checkText refuses a text diagram larger than maxTextBytes, naming the
// widest width of the same topology that fits when topo names one.
func checkText(c *cli.Context, net *network.Network, topo string, p network.Params) error {
	size := textBytes(net)
	if size <= maxTextBytes {
		return nil
	}
	t, err := topologies.Lookup(topo)
	if err != nil {
		return usage(c, "the text diagram of this network would take about %d MiB, more than the %d MiB allowed: draw it as -f svg or dot, or a narrower network", size>>20, maxTextBytes>>20)
	}
	lo, hi := 0, net.Width()
	for hi-lo > 1 {
		m := lo + (hi-lo)/2
		if sub, err := t.Build(m, p); err == nil && textBytes(sub) <= maxTextBytes {
			lo = m
		} else {
			hi = m
		}
	}
	return usage(c, "the text diagram of %s at width %d would take about %d MiB, more than the %d MiB allowed: allowed widths up to %d (or -f svg)", topo, net.Width(), size>>20, maxTextBytes>>20, lo)
}
