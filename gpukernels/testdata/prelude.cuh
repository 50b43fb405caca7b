// prelude.cuh: the test-only header that lets Debian's clang-14 compile the
// generated CUDA to PTX without the CUDA toolkit (-nocudainc -nocudalib).
// It declares the few parts of the CUDA language and runtime the headers
// use and maps each intrinsic to the clang builtin it stands for, with
// CUDA's signatures, so that a call the toolkit would reject fails here too.
#include <__clang_cuda_builtin_vars.h>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))

// Runtime API: just what a launch and the error checks need.
typedef struct CUstream_st* cudaStream_t;
enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
typedef enum cudaError cudaError_t;
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
extern "C" cudaError_t __cudaPushCallConfiguration(dim3 grid, dim3 block, unsigned long shared = 0,
                                                   cudaStream_t stream = 0);
extern "C" cudaError_t cudaConfigureCall(dim3 grid, dim3 block, unsigned long shared = 0, cudaStream_t stream = 0);
extern "C" cudaError_t cudaPeekAtLastError(void);
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };
template <class T>
cudaError_t cudaFuncSetAttribute(T* entry, enum cudaFuncAttribute attr, int value);

struct __attribute__((aligned(16))) uint4 {
  unsigned x, y, z, w;
};

// Warp shuffles: c packs the segment width as clang's __clang_cuda_intrinsics.h does.
static __device__ __forceinline__ unsigned __shfl_sync(unsigned mask, unsigned var, int src_lane, int width = 32) {
  return __nvvm_shfl_sync_idx_i32(mask, var, src_lane, ((32 - width) << 8) | 0x1f);
}
static __device__ __forceinline__ unsigned __shfl_up_sync(unsigned mask, unsigned var, unsigned delta, int width = 32) {
  return __nvvm_shfl_sync_up_i32(mask, var, delta, (32 - width) << 8);
}
static __device__ __forceinline__ unsigned __shfl_down_sync(unsigned mask, unsigned var, unsigned delta,
                                                            int width = 32) {
  return __nvvm_shfl_sync_down_i32(mask, var, delta, ((32 - width) << 8) | 0x1f);
}

// Warp votes.
static __device__ __forceinline__ unsigned __ballot_sync(unsigned mask, int pred) {
  return __nvvm_vote_ballot_sync(mask, pred);
}
static __device__ __forceinline__ int __any_sync(unsigned mask, int pred) { return __nvvm_vote_any_sync(mask, pred); }

// Fences, atomics and bit tricks.
static __device__ __forceinline__ void __threadfence(void) { __nvvm_membar_gl(); }
static __device__ __forceinline__ unsigned long long atomicAdd(unsigned long long* address, unsigned long long val) {
  return (unsigned long long)__nvvm_atom_add_gen_ll((long long*)address, (long long)val);
}
static __device__ __forceinline__ int __ffs(int x) { return __builtin_ffs(x); }

// Barriers.
static __device__ __forceinline__ void __syncwarp(unsigned mask = 0xffffffffu) { __nvvm_bar_warp_sync(mask); }
