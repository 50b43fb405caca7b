package gputest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a TestingT that records failures instead of failing.
type recorder struct {
	errs   []string
	failed bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) FailNow() { r.failed = true; panic(r) }

// check runs RequireBatchedLoads on the SASS text and returns what it
// reported.
func check(t *testing.T, sass string, items, words int) (errs []string) {
	t.Helper()
	r := &recorder{}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
		errs = r.errs
	}()
	fs := SASSFunctions(t, sass)
	require.Len(t, fs, 1)
	for _, code := range fs {
		RequireBatchedLoads(r, code, items, words)
	}
	return r.errs
}

// sass writes a function of cuobjdump -sass from its instructions, one
// every 16 bytes from 0.
func sass(lines ...string) string {
	var b strings.Builder
	b.WriteString("\t\tFunction : _ZN9prefixgen2ns10ScanKernelEv\n")
	for i, l := range lines {
		fmt.Fprintf(&b, "        /*%04x*/                   %s ;   /* 0x000fe2000001ff00 */\n", 16*i, l)
	}
	return b.String()
}

// RequireBatchedLoads passes a tile whose loads all come before the
// exchange's first store, and fails one with nvcc's remainder loop (a
// backward branch among the loads), a load too few, or a load after the
// store: items 4 of 1 word take one 16-byte vector a lane.
func TestRequireBatchedLoads(t *testing.T) {
	for _, c := range []struct {
		name  string
		code  []string
		fails string
	}{
		{"batched", []string{"BAR.SYNC.DEFER_BLOCKING 0x0", "LDG.E.128 R4, [R2.64]", "@P0 LDG.E R8, [R6.64]", "STS.128 [R0], R4", "BAR.SYNC.DEFER_BLOCKING 0x0", "EXIT"}, ""},
		{"remainder loop", []string{"BAR.SYNC.DEFER_BLOCKING 0x0", "LDG.E.128 R4, [R2.64]", "@P0 LDG.E R8, [R6.64]", "@P1 BRA 0x10", "STS.128 [R0], R4", "EXIT"}, "a backward branch"},
		{"no scalar", []string{"BAR.SYNC.DEFER_BLOCKING 0x0", "LDG.E.128 R4, [R2.64]", "STS.128 [R0], R4", "EXIT"}, "scalar loads"},
		{"load after the store", []string{"BAR.SYNC.DEFER_BLOCKING 0x0", "LDG.E.128 R4, [R2.64]", "@P0 LDG.E R8, [R6.64]", "STS.128 [R0], R4", "LDG.E.128 R12, [R2.64+0x10]", "EXIT"}, "a global load at 0x40"},
	} {
		t.Run(c.name, func(t *testing.T) {
			errs := check(t, sass(c.code...), 4, 1)
			if c.fails == "" {
				assert.Empty(t, errs)
				return
			}
			require.NotEmpty(t, errs)
			assert.Contains(t, strings.Join(errs, "\n"), c.fails)
		})
	}
}
