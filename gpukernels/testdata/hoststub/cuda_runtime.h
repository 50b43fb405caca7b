// cuda_runtime.h: a test-only stand-in for the CUDA runtime's host API,
// declaring exactly what harness.cu calls with the toolkit's signatures, so
// that clang-14 can check the harness's host code (-fsyntax-only) on a
// machine without the toolkit. Nothing here is ever linked or run. The
// types and launch support shared with device code come from prelude.cuh.
#ifndef PREFIXGEN_TEST_CUDA_RUNTIME_H
#define PREFIXGEN_TEST_CUDA_RUNTIME_H

#include <stddef.h>

#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 4
#define __CUDACC_VER_BUILD__ 131

typedef struct CUevent_st* cudaEvent_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
struct cudaDeviceProp {
  char name[256];
  int multiProcessorCount;
};

extern "C" {
const char* cudaGetErrorString(cudaError_t error);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaMalloc(void** p, size_t size);
cudaError_t cudaFree(void* p);
cudaError_t cudaMallocHost(void** p, size_t size);
cudaError_t cudaFreeHost(void* p);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void* dst, int value, size_t count);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
}

template <class T>
static inline cudaError_t cudaMalloc(T** p, size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(p), size);
}

#endif
