package limits

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMemoryBudget: half the machine's memory from 1 GiB to 32 GiB, and
// under ulimit -v at most half of the address space the process has not
// reserved, below the floor too: at ulimit -v 1000000 (977 MiB), of which
// Go held 700 MiB, the budget had been 1 GiB, and a request it let
// through crashed with Go's out-of-memory trace.
func TestMemoryBudget(t *testing.T) {
	const mib, gib = 1 << 20, 1 << 30
	for _, tc := range []struct {
		memory, limit, used, want int64
	}{
		{24 * gib, 0, 0, 12 * gib},
		{1 * gib, 0, 0, 1 * gib},
		{128 * gib, 0, 0, 32 * gib},
		{-1, 0, 0, 4 * gib},
		{24 * gib, 977 * mib, 700 * mib, 277 * mib / 2},
		{24 * gib, 64 * gib, 700 * mib, 12 * gib},
		{24 * gib, 500 * mib, 700 * mib, 0},
	} {
		assert.Equal(t, tc.want, memoryBudget(tc.memory, tc.limit, tc.used), "%+v", tc)
	}
}

// TestAddressSpace: a 32-bit process has 4 GiB of address space whatever
// ulimit -v says above it, and so half of what Go has not reserved of it:
// a 386 build had budgeted half the machine's memory, and crashed with
// Go's out-of-memory trace at a width it had named as allowed.
func TestAddressSpace(t *testing.T) {
	const mib, gib = 1 << 20, 1 << 30
	assert.Equal(t, int64(4*gib), addressSpace(32, 0))
	assert.Equal(t, int64(4*gib), addressSpace(32, 16*gib))
	assert.Equal(t, int64(1*gib), addressSpace(32, 1*gib))
	assert.Equal(t, int64(0), addressSpace(64, 0))
	assert.Equal(t, int64(16*gib), addressSpace(64, 16*gib))
	assert.Equal(t, int64(4*gib-700*mib)/2, memoryBudget(24*gib, addressSpace(32, 0), 700*mib))
}

// TestAmounts pins how refusals write sizes: a whole GiB in GiB, not 1024
// MiB; a need just past its limit to as many decimals as tell the two
// apart, up to six; and the widest picture's width still offered svg.
func TestAmounts(t *testing.T) {
	const mib, gib = 1 << 20, 1 << 30
	for _, tc := range []struct {
		bytes int64
		want  string
	}{
		{gib, "1.0 GiB"},
		{gib - mib, "1023.0 MiB"},
		{mib, "1.0 MiB"},
		{512, "0.5 KiB"},
	} {
		assert.Equal(t, tc.want, amount(tc.bytes), "%d bytes", tc.bytes)
	}
	for _, tc := range []struct {
		size, limit int64
		want        string
	}{
		{3 * gib / 2, gib, "1.5"},
		{gib + gib/8000, gib, "1.0001"},
		{gib + 1, gib, "1.000000"},
	} {
		assert.Equal(t, tc.want, beyond(tc.size, tc.limit, gib), "%d of %d", tc.size, tc.limit)
	}
	assert.Equal(t, "or -f svg", otherFormat(MaxPictureWidth))
	assert.Equal(t, "or -f json", otherFormat(MaxPictureWidth+1))
}
