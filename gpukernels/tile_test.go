package gpukernels_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
)

// sassInstr is one instruction of cuobjdump -sass: its address, its
// opcode with modifiers, whether a predicate guards it and, for a
// branch, its target (-1 for others).
type sassInstr struct {
	addr, target int64
	op           string
	guarded      bool
}

var (
	sassFunction = regexp.MustCompile(`^\s*Function : (\S+)`)
	sassLine     = regexp.MustCompile(`^\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P[0-9T]+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);`)
	sassTarget   = regexp.MustCompile(`0x([0-9a-f]+)\s*$`)
)

// sassFunctions splits cuobjdump -sass output into its functions'
// instructions, by mangled name.
func sassFunctions(t *testing.T, sass string) map[string][]sassInstr {
	t.Helper()
	funcs := map[string][]sassInstr{}
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
		in := sassInstr{addr: addr, op: m[3], target: -1, guarded: m[2] != ""}
		if strings.HasPrefix(in.op, "BRA") {
			tm := sassTarget.FindStringSubmatch(strings.TrimSpace(m[4]))
			require.NotNil(t, tm, "branch without a target: %s", line)
			in.target, err = strconv.ParseInt(tm[1], 16, 64)
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

// TestSASSBatchedTileLoads compiles the single-pass scan kernel of int32
// and of int64 at the default tuning with nvcc for sm_90 and reads its
// SASS: on the full-tile path every global load of the tile (each lane's
// 16-byte vectors, and its one scalar word of the misaligned head or
// tail) comes before the exchange's first shared-memory store, with no
// backward branch among them, so that a tile waits for one round trip to
// global memory (CUB's warp-transposed load), not one per trip of a loop.
func TestSASSBatchedTileLoads(t *testing.T) {
	t.Parallel()
	types := []struct{ name, cxx string }{{"int32", "int32_t"}, {"int64", "int64_t"}}
	// One translation unit, one nvcc, for both headers.
	dir := t.TempDir()
	src := ""
	for _, typ := range types {
		header := render(t, gputest.Build(t, "kogge-stone", 32, nil), gpukernels.Options{Type: typ.name})
		require.NoError(t, os.WriteFile(filepath.Join(dir, typ.name+".cuh"), []byte(header), 0o644))
		src += fmt.Sprintf("#include \"%[1]s.cuh\"\n"+
			"cudaError_t Scan(void* d_temp, size_t& bytes, const %[2]s* d_in, %[2]s* d_out, long long n) {\n"+
			"  namespace ps = prefixgen::kogge_stone_32_%[1]s_add;\n"+
			"  return ps::DeviceInclusiveScan(d_temp, bytes, d_in, d_out, n, ps::Sum());\n}\n", typ.name, typ.cxx)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scan.cu"), []byte(src), 0o644))
	out, err := gputest.NVCC(t, dir, "-cubin", "-o", "scan.cubin", "scan.cu")
	require.NoError(t, err, "nvcc said:\n%s", out)
	funcs := sassFunctions(t, gputest.SASS(t, dir, "scan.cubin"))
	for _, typ := range types {
		t.Run(typ.name, func(t *testing.T) {
			ns := "kogge_stone_32_" + typ.name + "_add"
			var kernel []sassInstr
			for name, code := range funcs {
				if strings.Contains(name, ns) && strings.Contains(name, "10ScanKernel") {
					kernel = code
				}
			}
			require.NotEmpty(t, kernel, "no ScanKernel in the SASS")
			requireBatchedLoads(t, kernel, typ.name)
		})
	}
}

// requireBatchedLoads checks the SASS of the ScanKernel over typ at the
// default tuning, as TestSASSBatchedTileLoads says.
func requireBatchedLoads(t *testing.T, kernel []sassInstr, typ string) {
	t.Helper()
	_, items := gpukernels.DefaultTuning(map[string]int{"int32": 4, "int64": 8}[typ])
	warpWords := 32 * items * map[string]int{"int32": 1, "int64": 2}[typ]
	laneVectors := (warpWords/4 + 31) / 32

	first := -1
	for i, in := range kernel {
		if isVectorLoad(in.op) {
			first = i
			break
		}
	}
	require.GreaterOrEqual(t, first, 0, "the kernel loads no 16-byte vectors")
	store := -1
	for i := first; i < len(kernel); i++ {
		if strings.HasPrefix(kernel[i].op, "STS") {
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
		if strings.HasPrefix(in.op, "BAR") || strings.HasPrefix(in.op, "STS") || strings.HasPrefix(in.op, "EXIT") ||
			strings.HasPrefix(in.op, "BRA") && !in.guarded {
			break
		}
		start--
	}
	vectors, scalars := 0, 0
	for _, in := range kernel[start:store] {
		switch {
		case isVectorLoad(in.op):
			vectors++
		case strings.HasPrefix(in.op, "LDG"):
			scalars++
		case in.target >= 0 && in.target <= in.addr:
			t.Errorf("a backward branch at %#x, to %#x, among the tile's loads", in.addr, in.target)
		}
	}
	assert.Equal(t, laneVectors, vectors, "16-byte loads before the exchange's first store, at %#x", kernel[store].addr)
	assert.Equal(t, 1, scalars, "scalar loads (one head or tail word) before the exchange's first store")
	for _, in := range kernel[store:] {
		if strings.HasPrefix(in.op, "BAR") {
			break
		}
		assert.False(t, strings.HasPrefix(in.op, "LDG"), "a global load at %#x, after the exchange's first store at %#x", in.addr, kernel[store].addr)
	}
	for _, in := range kernel {
		assert.False(t, isVectorLoad(in.op) && in.addr > kernel[store].addr, "a 16-byte load at %#x, after the exchange's first store", in.addr)
	}
}

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
