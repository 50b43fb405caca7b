package gputest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestingT is what RequireBatchedLoads reports to: a *testing.T, or a
// recorder in its own tests.
type TestingT interface {
	Helper()
	Errorf(format string, args ...any)
	FailNow()
}

// SASSInstr is one instruction of cuobjdump -sass: its address, its
// opcode with modifiers, whether a predicate guards it and, for a branch,
// its target (-1 for others).
type SASSInstr struct {
	Addr, Target int64
	Op           string
	Guarded      bool
}

var (
	sassFunction = regexp.MustCompile(`^\s*Function : (\S+)`)
	sassLine     = regexp.MustCompile(`^\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P[0-9T]+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);`)
	sassTarget   = regexp.MustCompile(`0x([0-9a-f]+)\s*$`)
)

// SASSFunctions splits cuobjdump -sass output into its functions'
// instructions, by mangled name.
func SASSFunctions(t testing.TB, sass string) map[string][]SASSInstr {
	t.Helper()
	funcs := map[string][]SASSInstr{}
	name := ""
	for line := range strings.SplitSeq(sass, "\n") {
		if m := sassFunction.FindStringSubmatch(line); m != nil {
			name = m[1]
			continue
		}
		m := sassLine.FindStringSubmatch(line)
		if m == nil || name == "" {
			continue
		}
		addr, err := strconv.ParseInt(m[1], 16, 64)
		require.NoError(t, err)
		in := SASSInstr{Addr: addr, Op: m[3], Target: -1, Guarded: m[2] != ""}
		if strings.HasPrefix(in.Op, "BRA") {
			tm := sassTarget.FindStringSubmatch(strings.TrimSpace(m[4]))
			require.NotNil(t, tm, "branch without a target: %s", line)
			in.Target, err = strconv.ParseInt(tm[1], 16, 64)
			require.NoError(t, err)
		}
		funcs[name] = append(funcs[name], in)
	}
	return funcs
}

// isVectorLoad says whether op loads 16 bytes from global memory with a
// plain load, as the tile loads do (the look-back's status words are
// strong loads).
func isVectorLoad(op string) bool {
	return strings.HasPrefix(op, "LDG.E.128") && !strings.Contains(op, "STRONG")
}

// RequireBatchedLoads checks the SASS of a single-pass ScanKernel whose
// warps each load 32 × items items of words 4-byte words: on the
// full-tile path every global load of the tile (each lane's 16-byte
// vectors, and its one scalar word of the misaligned head or tail) comes
// before the exchange's first shared-memory store, with no backward
// branch among them, and no global load follows that store before the
// next barrier.
func RequireBatchedLoads(t TestingT, kernel []SASSInstr, items, words int) {
	t.Helper()
	laneVectors := (32*items*words/4 + 31) / 32
	first := -1
	for i, in := range kernel {
		if isVectorLoad(in.Op) {
			first = i
			break
		}
	}
	require.GreaterOrEqual(t, first, 0, "the kernel loads no 16-byte vectors")
	store := -1
	for i := first; i < len(kernel); i++ {
		if strings.HasPrefix(kernel[i].Op, "STS") {
			store = i
			break
		}
	}
	require.Greater(t, store, first, "no shared-memory store after the first vector load")
	// The full-tile path starts after the barrier on the tile index
	// or after the end of the path laid out before it.
	start := first
	for start > 0 {
		in := kernel[start-1]
		if strings.HasPrefix(in.Op, "BAR") || strings.HasPrefix(in.Op, "STS") || strings.HasPrefix(in.Op, "EXIT") ||
			strings.HasPrefix(in.Op, "BRA") && !in.Guarded {
			break
		}
		start--
	}
	vectors, scalars := 0, 0
	for _, in := range kernel[start:store] {
		switch {
		case isVectorLoad(in.Op):
			vectors++
		case strings.HasPrefix(in.Op, "LDG"):
			scalars++
		case in.Target >= 0 && in.Target <= in.Addr:
			t.Errorf("a backward branch at %#x, to %#x, among the tile's loads", in.Addr, in.Target)
		}
	}
	assert.Equal(t, laneVectors, vectors, "16-byte loads before the exchange's first store, at %#x", kernel[store].Addr)
	assert.Equal(t, 1, scalars, "scalar loads (one head or tail word) before the exchange's first store")
	for _, in := range kernel[store:] {
		if strings.HasPrefix(in.Op, "BAR") {
			break
		}
		assert.False(t, strings.HasPrefix(in.Op, "LDG"), "a global load at %#x, after the exchange's first store at %#x", in.Addr, kernel[store].Addr)
	}
	for _, in := range kernel {
		assert.False(t, isVectorLoad(in.Op) && in.Addr > kernel[store].Addr, "a 16-byte load at %#x, after the exchange's first store", in.Addr)
	}
}
