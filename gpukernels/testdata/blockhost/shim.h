// shim.h lets a generated header's warp and block scans run on the CPU:
// one std::thread per CUDA thread of one block, __syncthreads() a barrier
// of the block, and each warp's shuffles an exchange through a barrier of
// its 32 threads. TestBlockScansOnCPU includes it before the header (cut
// before the look-back, which needs a GPU).
#include <condition_variable>
#include <cstdint>
#include <mutex>

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __shared__

struct dim3_ {
  unsigned x, y, z;
};

// Barrier is a reusable barrier of n threads.
class Barrier {
 public:
  explicit Barrier(int n) : n_(n) {}
  void Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    const unsigned long long gen = gen_;
    if (++count_ == n_) {
      count_ = 0;
      ++gen_;
      cv_.notify_all();
      return;
    }
    cv_.wait(lock, [&] { return gen_ != gen; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int n_, count_ = 0;
  unsigned long long gen_ = 0;
};

thread_local dim3_ threadIdx;
Barrier* block_barrier;

// Warp is one warp's exchange: each lane posts its word, all wait, each
// reads its source, all wait again.
struct Warp {
  Barrier barrier{32};
  unsigned slot[32];
};
Warp* warps;

inline void __syncthreads() { block_barrier->Wait(); }

inline unsigned Exchange(unsigned v, int src) {
  Warp& w = warps[threadIdx.x / 32];
  w.slot[threadIdx.x % 32] = v;
  w.barrier.Wait();
  const unsigned r = w.slot[src];
  w.barrier.Wait();
  return r;
}

// The shuffles as CUDA defines them within segments of width lanes.
inline unsigned __shfl_sync(unsigned, unsigned v, int src, int width) {
  const int lane = threadIdx.x % 32, base = lane & ~(width - 1);
  return Exchange(v, base + (src & (width - 1)));
}
inline unsigned __shfl_up_sync(unsigned, unsigned v, int delta, int width) {
  const int lane = threadIdx.x % 32, base = lane & ~(width - 1);
  return Exchange(v, lane - delta >= base ? lane - delta : lane);
}
inline unsigned __shfl_down_sync(unsigned, unsigned v, int delta, int width) {
  const int lane = threadIdx.x % 32, base = lane & ~(width - 1);
  return Exchange(v, lane + delta < base + width ? lane + delta : lane);
}
