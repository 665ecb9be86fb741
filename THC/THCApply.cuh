// Note [One pointwise kernel]: every element-wise op on the GPU, over any strides, is one
// kernel template: op(out, in...) called on the elements of up to four tensors at the same
// linear index. Before the launch each tensor's shape is collapsed (dimensions of size 1
// dropped, dimensions that are contiguous with each other merged), so a transposed matrix
// costs two divisions per element and a contiguous tensor none. Index math is 32-bit when
// every tensor's elements and offsets fit, 64-bit otherwise (past 2^31 elements).
#ifndef THC_APPLY_CUH
#define THC_APPLY_CUH

#include <cuda_fp16.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include "TH/THScalarMath.hpp"
#include "THC/THCTensor.hpp"

namespace thc {

template <typename TensorT>
using Elem = std::remove_pointer_t<decltype(std::declval<TensorT &>().storage->data)>;

// Half is THHalf on the host and in storages; kernels compute in float.
// Note [Floating to narrow integers]: a floating value becomes a narrower integer through
// int64, so it wraps modulo 2^bits (-27.0 to Byte is 229) as on the CPU and in PyTorch;
// the GPU's direct conversion saturates instead (-27.0 to Byte would be 0).
template <typename To, typename From>
__host__ __device__ inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, THHalf>) {
    return convert<To>(__half2float(__ushort_as_half(v.x)));
  } else if constexpr (std::is_same_v<To, THHalf>) {
    return THHalf{__half_as_ushort(__float2half_rn(static_cast<float>(v)))};
  } else if constexpr (std::is_integral_v<To> && !std::is_same_v<To, bool> && sizeof(To) < sizeof(int64_t) &&
                       std::is_floating_point_v<From>) {
    return static_cast<To>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

constexpr int kMaxDims = 25;

template <typename T, typename Index>
struct TensorInfo {
  T *data;
  Index sizes[kMaxDims];
  Index strides[kMaxDims];
  int dims;  // after collapsing; 0 for one element

  // The element offset of the linear (row-major) index i.
  __device__ __forceinline__ Index offset(Index i) const {
    Index off = 0;
    for (int d = dims - 1; d > 0; d--) {
      Index size = sizes[d];
      off += (i % size) * strides[d];
      i /= size;
    }
    return dims > 0 ? off + i * strides[0] : off;
  }
};

// Does every element offset of t fit in 31 bits?
template <typename TensorT>
bool fits32(const TensorT *t) {
  int64_t extent = 1;
  for (int d = 0; d < t->nDimension; d++) {
    if (t->size[d] == 0) return true;
    extent += (t->size[d] - 1) * t->stride[d];
  }
  return extent <= INT32_MAX && numel(t) <= INT32_MAX;
}

// Shape with size-1 dimensions dropped and contiguous neighbours merged.
template <typename Index, typename TensorT>
TensorInfo<Elem<TensorT>, Index> info(const TensorT *t) {
  TensorInfo<Elem<TensorT>, Index> r;
  r.data = t->storage->data + t->storageOffset;
  int dims = 0;
  int64_t sizes[64], strides[64];
  for (int d = 0; d < t->nDimension; d++) {
    if (t->size[d] == 1) continue;
    if (dims > 0 && strides[dims - 1] == t->size[d] * t->stride[d]) {
      sizes[dims - 1] *= t->size[d];
      strides[dims - 1] = t->stride[d];
    } else {
      if (dims == 64) THError("a tensor of more than 64 dimensions cannot be used on the GPU");
      sizes[dims] = t->size[d];
      strides[dims] = t->stride[d];
      dims++;
    }
  }
  if (dims > kMaxDims)
    THError("tensors of more than %d non-contiguous dimensions are not supported on the GPU (got %d)", kMaxDims, dims);
  for (int d = 0; d < dims; d++) {
    r.sizes[d] = static_cast<Index>(sizes[d]);
    r.strides[d] = static_cast<Index>(strides[d]);
  }
  r.dims = dims;
  return r;
}

template <typename T, typename Index>
bool isContiguousInfo(const TensorInfo<T, Index> &i) {
  return i.dims == 0 || (i.dims == 1 && i.strides[0] == 1);
}

constexpr int kBlock = 256;
constexpr int kElementsPerThread = 4;

template <bool Contiguous, typename Op, typename Index, typename... Info>
__global__ void __launch_bounds__(kBlock) pointwiseKernel(Op op, Index n, Info... infos) {
  const Index step = static_cast<Index>(gridDim.x) * kBlock;
  for (Index i = static_cast<Index>(blockIdx.x) * kBlock + threadIdx.x; i < n; i += step) {
    if constexpr (Contiguous)
      op(infos.data[i]...);
    else
      op(infos.data[infos.offset(i)]...);
  }
}

inline unsigned gridFor(int64_t n) {
  int64_t blocks = (n + int64_t(kBlock) * kElementsPerThread - 1) / (int64_t(kBlock) * kElementsPerThread);
  return static_cast<unsigned>(std::min<int64_t>(std::max<int64_t>(blocks, 1), INT32_MAX));
}

template <typename Index, typename Op, typename... TensorT>
void launchPointwise(cudaStream_t stream, int64_t n, Op op, const TensorT *...t) {
  bool contiguous = (isContiguousInfo(info<Index>(t)) && ...);
  if (contiguous)
    pointwiseKernel<true><<<gridFor(n), kBlock, 0, stream>>>(op, static_cast<Index>(n), info<Index>(t)...);
  else
    pointwiseKernel<false><<<gridFor(n), kBlock, 0, stream>>>(op, static_cast<Index>(n), info<Index>(t)...);
  THCudaCheckLaunch();
}

// op(elements of t...) for every linear index of the first tensor, on the current stream of
// the tensors' device. The tensors have as many elements as the first (the caller checked).
template <typename Op, typename... TensorT>
void pointwise(THCState *state, Op op, const TensorT *...t) {
  const int64_t n = numel(std::get<0>(std::forward_as_tuple(t...)));
  if (n == 0) return;
  DeviceGuard guard(commonDevice("pointwise", t...));
  cudaStream_t stream = THCState_getCurrentStream(state);
  if ((fits32(t) && ...))
    launchPointwise<uint32_t>(stream, n, op, t...);
  else
    launchPointwise<uint64_t>(stream, n, op, t...);
}

}  // namespace thc

#endif
