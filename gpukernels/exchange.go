package gpukernels

import "fmt"

// exchangeMaskStrides is how many thread strides (items per thread × 32-bit
// words per item) the header's table of padded exchanges covers; a stride
// past it is padded.
const exchangeMaskStrides = 192

// exchangeConflicts returns what one hardware warp's pass through the
// exchange costs in shared-memory wavefronts when a thread's consecutive
// words lie stride words apart: the stride reads or writes of the threads'
// own words, each as many wavefronts as the most lanes that hit one of the
// 32 banks, plus the stride 16-byte vector moves of the warp-striped side.
// Word k lives at k + k/32 when padded, at k otherwise.
func exchangeConflicts(stride int, padded bool) int {
	pos := func(k int) int {
		if padded {
			return k + k/32
		}
		return k
	}
	worst := func(word func(lane int) int) int {
		var banks [32]int
		most := 0
		for lane := range 32 {
			b := pos(word(lane)) % 32
			banks[b]++
			most = max(most, banks[b])
		}
		return most
	}
	cost := 0
	for j := range stride {
		cost += worst(func(lane int) int { return lane*stride + j })
	}
	// The striped side moves 16-byte vectors: one instruction per word of
	// a vector writes word 4·lane + c of each 128-word run, stride of them.
	return cost + stride*worst(func(lane int) int { return 4 * lane })
}

// exchangePadded reports whether the exchange pads a word every 32 at this
// thread stride: whichever layout costs fewer wavefronts, padding on a tie.
// Padding suits the power-of-two strides, and unpadded suits the odd ones
// where padding gathers many threads on one bank (31 words: 31 of them).
func exchangePadded(stride int) bool {
	return exchangeConflicts(stride, true) <= exchangeConflicts(stride, false)
}

// exchangeMasks returns the header's table of exchangePadded, bit s%64 of
// word s/64 for the strides below exchangeMaskStrides, as C++ literals.
func exchangeMasks() []string {
	masks := make([]uint64, exchangeMaskStrides/64)
	for s := 1; s < exchangeMaskStrides; s++ {
		if exchangePadded(s) {
			masks[s/64] |= 1 << (s % 64)
		}
	}
	lits := make([]string, len(masks))
	for i, m := range masks {
		lits[i] = fmt.Sprintf("0x%016xULL", m)
	}
	return lits
}
