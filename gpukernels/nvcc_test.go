package gpukernels_test

import (
	"os"
	"path/filepath"
	"strings"
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

// TestNVCCFunctorWordSize: the device scans move a tile's values as 4-byte
// words, so a functor's value type must be a multiple of 4 bytes, aligned
// to 4; one that is not (2 bytes, 6 bytes) is refused by the header in
// words, not compiled into loads that miss bytes.
func TestNVCCFunctorWordSize(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	net := gputest.Build(t, "sklansky", 32, nil)
	for _, name := range []string{"Add16", "Add48"} {
		header := render(t, net, gpukernels.Options{Op: "functor:" + name})
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".cuh"), []byte(header), 0o644))
	}
	src := `#include <stdint.h>
struct Add16 { __device__ uint16_t operator()(const uint16_t& a, const uint16_t& b) const { return a + b; } };
struct Three { uint16_t x, y, z; };
struct Add48 { __device__ Three operator()(const Three& a, const Three& b) const { return {uint16_t(a.x + b.x), uint16_t(a.y + b.y), uint16_t(a.z + b.z)}; } };
#include "Add16.cuh"
#include "Add48.cuh"
cudaError_t Scan16(void* t, size_t& bytes, uint16_t* d, long long n) {
  return prefixgen::sklansky_32_int32_functor_Add16::InclusiveScan(t, bytes, d, d, n);
}
cudaError_t Scan48(void* t, size_t& bytes, Three* d, long long n) {
  return prefixgen::sklansky_32_int32_functor_Add48::InclusiveScan(t, bytes, d, d, n);
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "use.cu"), []byte(src), 0o644))
	out, err := gputest.NVCC(t, dir, "-c", "-o", "use.o", "use.cu")
	require.Error(t, err, "nvcc compiled values of 2 and 6 bytes:\n%s", out)
	assert.Equal(t, 2, strings.Count(out, "prefixgen: the device scans move values as 4-byte words"), "nvcc said:\n%s", out)
	assert.NotContains(t, out, "zero-sized")
}
