package gpukernels_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/prefixgen/prefixgen/gpukernels"
	"github.com/prefixgen/prefixgen/gpukernels/internal/gputest"
)

// TestNVCCStructFunctor builds a header over the README's float2 functor
// with the real compiler, for sm_90 with warnings as errors, so that ptxas
// assembles the inline PTX that clang-14 passes through unread. (The
// harness, with every other header, is built in package bench.)
func TestNVCCStructFunctor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	header := render(t, gputest.Build(t, "sklansky", 32, nil), gpukernels.Options{Type: "float", Op: "functor:Affine"})
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scan_affine.cuh"), []byte(header), 0o644))
	src := `struct Affine {
  __device__ float2 operator()(const float2& a, const float2& b) const { return make_float2(a.x * b.x, a.y * b.x + b.y); }
};
#include "scan_affine.cuh"
namespace sa = prefixgen::sklansky_32_float_functor_Affine;
cudaError_t Scan(void* d_temp, size_t& bytes, float2* d_maps, long long n) {
  return sa::InclusiveScan(d_temp, bytes, d_maps, d_maps, n);
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "use.cu"), []byte(src), 0o644))
	out, err := gputest.NVCC(t, dir, "-c", "-o", "use.o", "use.cu")
	require.NoError(t, err, "nvcc said:\n%s", out)
	assert.Contains(t, out, "ScanKernel", "ptxas compiled no scan kernel")
}
