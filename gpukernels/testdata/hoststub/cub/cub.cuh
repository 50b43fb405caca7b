// cub/cub.cuh: a test-only stand-in declaring the parts of CUB that
// harness.cu uses, with CUB's signatures, for clang-14's syntax check of
// the harness's host code. Nothing here is ever linked or run.
#ifndef PREFIXGEN_TEST_CUB_CUH
#define PREFIXGEN_TEST_CUB_CUH

// CUB_VERSION is major * 100000 + minor * 100 + patch, as cub/version.cuh
// defines it; a test may set another (3.0 and later take
// cuda/functional's maximum and minimum).
#ifndef CUB_VERSION
#define CUB_VERSION 200200
#endif

namespace cub {

// Sum, Max and Min are CUB's functors before CCCL 3.0.
struct Sum {
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const;
};
struct Max {
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const;
};
struct Min {
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const;
};

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

struct DeviceSelect {
  template <typename In, typename Flags, typename Out, typename NumSelected, typename NumItems>
  static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Flags d_flags, Out d_out,
                             NumSelected d_num_selected_out, NumItems num_items, cudaStream_t stream = 0);
};

struct DeviceRadixSort {
  template <typename Key, typename NumItems>
  static cudaError_t SortKeys(void* d_temp_storage, size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                              NumItems num_items, int begin_bit = 0, int end_bit = sizeof(Key) * 8,
                              cudaStream_t stream = 0);
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
