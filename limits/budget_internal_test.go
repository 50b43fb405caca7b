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
