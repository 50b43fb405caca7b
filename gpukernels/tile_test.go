package gpukernels_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
)

// warpSpanDriver checks WarpSpan, the split of a warp's words that
// LoadFull and StoreFull move, on the host: at each misalignment and word
// count, with the rounds a warp of that many words takes, every word is
// moved exactly once, each vector starts on a 16-byte boundary, and every
// vector a lane loads lies within the warp's words.
const warpSpanDriver = `#include <cstdio>
#include <cstring>
#include "ns.cuh"
using namespace prefixgen::ns;
int main() {
  static int moved[4096];
  int failures = 0;
  for (int misaligned = 0; misaligned < 4; ++misaligned) {
    for (int words = 0; words <= 3000; ++words) {
      const uintptr_t at = 256 + 4 * misaligned;
      const WarpSpan span(reinterpret_cast<const void*>(at), words);
      const int rounds = (words / 4 + 31) / 32;
      std::memset(moved, 0, sizeof(moved));
      bool ok = span.vectors == 0 || (at + 4 * span.head) % 16 == 0;
      for (int lane = 0; lane < 32; ++lane) {
        int k;
        if (span.Scalar(lane, k)) {
          if (k < 0 || k >= words) ok = false; else ++moved[k];
        }
        for (int r = 0; r < rounds; ++r) {
          const int j = span.Round(lane, r);
          if (span.vectors > 0 && (j < 0 || j >= span.vectors)) ok = false;
          if (!span.Moves(lane, r)) continue;
          for (int w = 0; w < 4; ++w) {
            const int word = span.head + 4 * j + w;
            if (word < 0 || word >= words) ok = false; else ++moved[word];
          }
        }
      }
      for (int k = 0; k < words; ++k) ok = ok && moved[k] == 1;
      if (!ok && failures++ < 5) std::printf("FAIL misaligned %d words %d\n", misaligned, words);
    }
  }
  std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
`

// TestWarpSpan runs warpSpanDriver against a scan's header; a WarpSpan
// whose tail is one word short fails it.
func TestWarpSpan(t *testing.T) {
	t.Parallel()
	header := render(t, gputest.Build(t, "kogge-stone", 32, nil), gpukernels.Options{Namespace: "ns"})
	out, ok := runHost(t, header, warpSpanDriver)
	assert.True(t, ok, out)
	t.Run("planted", func(t *testing.T) {
		t.Parallel()
		short := strings.Replace(header, "lane < 8 && k < words", "lane < 8 && k < words - 1", 1)
		require.NotEqual(t, header, short)
		out, ok := runHost(t, short, warpSpanDriver)
		assert.False(t, ok, out)
	})
}
