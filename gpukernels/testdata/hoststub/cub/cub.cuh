// cub/cub.cuh: a test-only stand-in declaring the parts of CUB that
// harness.cu uses, with CUB's signatures, for clang-14's syntax check of
// the harness's host code. Nothing here is ever linked or run.
#ifndef PREFIXGEN_TEST_CUB_CUH
#define PREFIXGEN_TEST_CUB_CUH

namespace cub {

struct DeviceScan {
  template <typename In, typename Out, typename NumItems>
  static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                                  NumItems num_items, cudaStream_t stream = 0);
  template <typename In, typename Out, typename NumItems>
  static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                                  NumItems num_items, cudaStream_t stream = 0);
  template <typename In, typename Out, typename Op, typename NumItems>
  static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, Op scan_op,
                                   NumItems num_items, cudaStream_t stream = 0);
  template <typename In, typename Out, typename Op, typename Init, typename NumItems>
  static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, Op scan_op,
                                   Init init_value, NumItems num_items, cudaStream_t stream = 0);
};

template <typename T, int kLogicalWarpThreads = 32>
class WarpScan {
 public:
  struct TempStorage {
    T data[kLogicalWarpThreads];
  };
  __device__ WarpScan(TempStorage& temp_storage);
  template <typename Op>
  __device__ void InclusiveScan(T input, T& inclusive_output, Op scan_op);
};

template <typename T, int kBlockDimX>
class BlockScan {
 public:
  struct TempStorage {
    T data[kBlockDimX];
  };
  __device__ BlockScan(TempStorage& temp_storage);
  template <int kItems, typename Op>
  __device__ void InclusiveScan(T (&input)[kItems], T (&output)[kItems], Op scan_op);
};

}  // namespace cub

#endif
