// What THCUNN's kernel families share: scoped THC tensors and device memory, contiguous
// views of inputs and outputs, block reductions and Note [Deterministic sums].
#ifndef THCUNN_COMMON_CUH
#define THCUNN_COMMON_CUH

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "THC/THCApply.cuh"
#include "THC/THCCachingAllocator.h"
#include "THNN/ElementWiseFunctions.hpp"

namespace thcunn {

using thnn::Compute;  // the type element-wise math runs in: float for Half

// The type sums run in: THNN's accreal (double for Float and Double, float for Half).
template <typename S>
using Acc = std::conditional_t<std::is_same_v<S, THHalf>, float, double>;

template <typename C, typename S>
__device__ __forceinline__ C load(const S &x) {
  return thc::convert<C>(x);
}

// A THC tensor owned for the length of a scope, also when an error unwinds; may be null.
template <typename TensorT>
class Owned {
 public:
  Owned(THCState *state, TensorT *t) : state_(state), t_(t) {}
  ~Owned() {
    if (t_) thc::THC<thc::Elem<TensorT>>::free(state_, t_);
  }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  TensorT *get() const { return t_; }

 private:
  THCState *state_;
  TensorT *t_;
};

// t itself when contiguous (retained), else a contiguous copy; null for null.
template <typename TensorT>
Owned<TensorT> contiguous(THCState *state, TensorT *t) {
  return Owned<TensorT>(state, t ? thc::THC<thc::Elem<TensorT>>::newContiguous(state, t) : nullptr);
}

template <typename TensorT>
thc::Elem<TensorT> *dataOf(const TensorT *t) {
  return t ? t->storage->data + t->storageOffset : nullptr;
}

// Where a kernel writes a result that the caller has resized: the result itself when
// contiguous, else a contiguous tensor of its sizes that finish() copies into it.
template <typename TensorT>
class ContiguousResult {
 public:
  ContiguousResult(THCState *state, TensorT *result)
      : state_(state),
        result_(result),
        temp_(state,
              thc::THC<thc::Elem<TensorT>>::isContiguous(state, result)
                  ? nullptr
                  : thc::THC<thc::Elem<TensorT>>::newWithSize(state, result->nDimension, result->size, nullptr)) {}
  thc::Elem<TensorT> *data() const { return dataOf(temp_.get() ? temp_.get() : result_); }
  void finish() {
    if (temp_.get()) thc::THC<thc::Elem<TensorT>>::copy(state_, result_, temp_.get());
  }

 private:
  THCState *state_;
  TensorT *result_;
  Owned<TensorT> temp_;
};

// Device memory from the caching allocator for the length of a scope.
class DeviceBuffer {
 public:
  DeviceBuffer(size_t bytes, cudaStream_t stream) : ptr_(THCCachingAllocator_malloc(bytes, stream)) {}
  ~DeviceBuffer() { THCCachingAllocator_free(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  template <typename T>
  T *as() const {
    return static_cast<T *>(ptr_);
  }

 private:
  void *ptr_;
};

// A value in device memory, on the host (waits for the stream).
template <typename T>
T readBack(cudaStream_t stream, const T *devicePtr) {
  T value;
  THCudaCheck(cudaMemcpyAsync(&value, devicePtr, sizeof(T), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
  return value;
}

inline unsigned blocksFor(int64_t threads, int perBlock) {
  return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>((threads + perBlock - 1) / perBlock, 1 << 20)));
}

// Note [First bad element]: a check that must raise before a kernel writes (a target out of
// range, a probability outside [0, 1]) runs on the device first: every bad element offers
// its position to a flag with atomicMin, and the host reads the flag back and raises THNN's
// message for the first bad element in row-major order, the one THNN names. No device
// assert: the call fails cleanly and the inputs are unchanged.
constexpr unsigned long long kNoBadElement = ~0ull;

class FirstBad {
 public:
  explicit FirstBad(cudaStream_t stream) : stream_(stream), flag_(sizeof(unsigned long long), stream) {
    THCudaCheck(cudaMemsetAsync(flag_.as<void>(), 0xff, sizeof(unsigned long long), stream));
  }
  unsigned long long *flag() const { return flag_.as<unsigned long long>(); }
  // The position of the first bad element, or kNoBadElement (waits for the stream).
  unsigned long long position() const { return readBack(stream_, flag()); }

 private:
  cudaStream_t stream_;
  DeviceBuffer flag_;
};

__device__ __forceinline__ void offerBad(unsigned long long *flag, int64_t position) {
  atomicMin(flag, static_cast<unsigned long long>(position));
}

// ---- block reductions ----

// Two sums at once (a loss and a weight).
template <typename A>
struct Pair {
  A first, second;
};

template <typename V>
__device__ __forceinline__ V shuffleDown(V v, int delta) {
  return __shfl_down_sync(0xffffffffu, v, delta);
}
template <typename A>
__device__ __forceinline__ Pair<A> shuffleDown(Pair<A> v, int delta) {
  return {shuffleDown(v.first, delta), shuffleDown(v.second, delta)};
}

struct Add {
  template <typename V>
  __device__ V operator()(V a, V b) const {
    return a + b;
  }
  template <typename A>
  __device__ Pair<A> operator()(Pair<A> a, Pair<A> b) const {
    return {a.first + b.first, a.second + b.second};
  }
};

// std::max's rule: a NaN b is not taken (THNN's max of a line).
struct Max {
  template <typename V>
  __device__ V operator()(V a, V b) const {
    return a < b ? b : a;
  }
};

// op over v of every thread of the block, in a fixed order (so the same inputs give the same
// bits), returned to every thread. blockDim.x is a multiple of 32, at most 1024; identity
// fills the lanes past the last warp.
template <typename V, typename Op>
__device__ V blockReduce(V v, Op op, V identity) {
  __shared__ V warps[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int d = 16; d > 0; d /= 2) v = op(v, shuffleDown(v, d));
  if (lane == 0) warps[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x / 32) ? warps[lane] : identity;
    for (int d = 16; d > 0; d /= 2) v = op(v, shuffleDown(v, d));
    if (lane == 0) warps[0] = v;
  }
  __syncthreads();
  const V result = warps[0];
  __syncthreads();  // before a next call rewrites warps
  return result;
}

// Note [Deterministic sums]: a loss sums n terms in two passes, without atomics: a grid whose
// size depends on n alone sums a fixed set of terms per block, and one block then adds the
// blocks' partial sums in block order. The same inputs give the same bits on every run and
// every GPU. item(i) gives term i; finish(total) writes the results, on one thread.
constexpr int kSumThreads = 256;
constexpr int kSumBlocksMax = 1024;  // the second pass's block: one partial sum a thread

inline int sumBlocks(int64_t n) {
  return static_cast<int>(std::clamp<int64_t>((n + kSumThreads * 8 - 1) / (kSumThreads * 8), 1, kSumBlocksMax));
}

template <typename V, typename Item>
__global__ void __launch_bounds__(kSumThreads) partialSumsKernel(Item item, int64_t n, V *partial) {
  V acc{};
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * kSumThreads + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * kSumThreads)
    acc = Add()(acc, item(i));
  acc = blockReduce(acc, Add(), V{});
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

template <typename V, typename Finish>
__global__ void __launch_bounds__(kSumBlocksMax) finishSumsKernel(Finish finish, const V *partial, int blocks) {
  V acc = static_cast<int>(threadIdx.x) < blocks ? partial[threadIdx.x] : V{};
  acc = blockReduce(acc, Add(), V{});
  if (threadIdx.x == 0) finish(acc);
}

template <typename V, typename Item, typename Finish>
void deterministicSum(cudaStream_t stream, int64_t n, Item item, Finish finish) {
  const int blocks = sumBlocks(n);
  DeviceBuffer partial(sizeof(V) * blocks, stream);
  partialSumsKernel<V><<<blocks, kSumThreads, 0, stream>>>(item, n, partial.as<V>());
  THCudaCheckLaunch();
  finishSumsKernel<V><<<1, kSumBlocksMax, 0, stream>>>(finish, partial.as<V>(), blocks);
  THCudaCheckLaunch();
}

}  // namespace thcunn

#endif
