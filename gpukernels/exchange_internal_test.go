package gpukernels

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The exchange pads where padding saves wavefronts: at power-of-two
// strides it makes the threads' reads conflict-free, and at 31 words,
// where padding puts 31 threads on one bank, the exchange goes unpadded.
func TestExchangePadded(t *testing.T) {
	for _, tt := range []struct {
		stride       int
		padded, bare int // wavefronts per warp pass
		pad          bool
	}{
		{1, 1 + 1, 1 + 4, true},
		{8, 8 + 8, 8*8 + 8*4, true},
		{24, 24*2 + 24, 24*8 + 24*4, true}, // the default, int32: two threads a bank padded, eight bare
		{31, 736 + 31, 31 + 31*4, false},   // padded, up to 31 threads a bank
		{32, 32 + 32, 32*32 + 32*4, true},
	} {
		assert.Equal(t, tt.padded, exchangeConflicts(tt.stride, true), "stride %d padded", tt.stride)
		assert.Equal(t, tt.bare, exchangeConflicts(tt.stride, false), "stride %d bare", tt.stride)
		assert.Equal(t, tt.pad, exchangePadded(tt.stride), "stride %d", tt.stride)
	}
	var bare []int
	for s := 1; s < exchangeMaskStrides; s++ {
		if !exchangePadded(s) {
			bare = append(bare, s)
		}
	}
	assert.Equal(t, []int{31, 62, 93, 124, 133, 150, 155, 181, 186}, bare)
	assert.Equal(t, []string{"0xbfffffff7ffffffeULL", "0xefffffffdfffffffULL", "0xfbdffffff7bfffdfULL"}, exchangeMasks())
}
