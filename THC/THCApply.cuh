// Note [One pointwise kernel]: every element-wise op on the GPU, over any strides, is one
// kernel template: op(out, in...) called on the elements of up to four tensors at the same
// linear index. Before the launch each tensor's shape is collapsed (dimensions of size 1
// dropped, dimensions that are contiguous with each other merged), so a transposed matrix
// costs two divisions per element and a contiguous tensor none. Index math is 32-bit; larger
// tensors are launched in pieces that fit (Note [32-bit pieces], THC/THCPieces.hpp).
//
// Note [Tiled pointwise]: when the tensors have one shape but an input runs fastest along
// another dimension than the first tensor (out = a.t() + b.t() into a contiguous out), the
// linear order reads that input with a stride and runs at a quarter of the memory's speed.
// Then the kernel works on 32 x 32 tiles of those two dimensions: each input's tile is
// loaded into shared memory along its own fastest dimension, and op runs in the first
// tensor's order, so every global access is coalesced. Only the first tensor may be written
// by op (the inputs are read from their tiles).
#ifndef THC_APPLY_CUH
#define THC_APPLY_CUH

#include <cuda_fp16.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "TH/THScalarMath.hpp"
#include "THC/THCPieces.hpp"
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
  return fitsIndex(t, INT32_MAX);
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

constexpr int kTile = 32;     // a tile is kTile x kTile elements
constexpr int kTileRows = 8;  // threads of a block: kTile x kTileRows, each kTile / kTileRows rows

// One tensor in a tiled launch: its strides along the tile's two dimensions (a: the first
// tensor's fastest, b: the other) and the offsets of the dimensions outside the tile.
template <typename T, typename Index>
struct TileInfo {
  TensorInfo<T, Index> rest;  // the other dimensions; rest.data is the tensor's first element
  Index strideA, strideB;
  bool alongB;  // loaded with consecutive threads along b: its smaller stride
};

// The kTile x (kTile + 1) shared tile of input K (the padding column keeps the transposed
// accesses free of bank conflicts).
template <int K, typename T>
__device__ __forceinline__ T (*sharedTile())[kTile + 1] {
  __shared__ T tile[kTile][kTile + 1];
  return tile;
}

// Loads input K's part of the tile at (a0, b0) of batch z into tile[b - b0][a - a0].
template <int K, typename T, typename Index>
__device__ __forceinline__ void loadTile(const TileInfo<T, Index> &in, Index z, Index a0, Index b0, Index sizeA,
                                         Index sizeB) {
  T(*tile)[kTile + 1] = sharedTile<K, T>();
  const T *base = in.rest.data + in.rest.offset(z);
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    // consecutive threads (threadIdx.x) walk the input's fastest dimension
    const Index a = a0 + (in.alongB ? r : threadIdx.x), b = b0 + (in.alongB ? threadIdx.x : r);
    if (a < sizeA && b < sizeB) tile[b - b0][a - a0] = base[a * in.strideA + b * in.strideB];
  }
}

template <typename Op, typename Index, int... K, typename Out, typename... In>
__device__ __forceinline__ void tiledStep(Op &op, Index tile, Index tilesA, Index tilesB, Index sizeA, Index sizeB,
                                          std::integer_sequence<int, K...>, const TileInfo<Out, Index> &out,
                                          const TileInfo<In, Index> &...in) {
  const Index a0 = (tile % tilesA) * kTile, b0 = (tile / tilesA % tilesB) * kTile, z = tile / tilesA / tilesB;
  (loadTile<K>(in, z, a0, b0, sizeA, sizeB), ...);
  __syncthreads();
  Out *base = out.rest.data + out.rest.offset(z);
  for (int r = threadIdx.y; r < kTile; r += kTileRows) {
    const Index a = a0 + threadIdx.x, b = b0 + r;
    if (a < sizeA && b < sizeB) op(base[a * out.strideA + b * out.strideB], sharedTile<K, In>()[r][threadIdx.x]...);
  }
  __syncthreads();  // before the next tile overwrites the shared ones
}

template <typename Op, typename Index, typename Out, typename... In>
__global__ void __launch_bounds__(kTile *kTileRows)
    tiledKernel(Op op, Index tiles, Index tilesA, Index tilesB, Index sizeA, Index sizeB, TileInfo<Out, Index> out,
                TileInfo<In, Index>... in) {
  for (Index tile = blockIdx.x; tile < tiles; tile += gridDim.x)
    tiledStep(op, tile, tilesA, tilesB, sizeA, sizeB, std::make_integer_sequence<int, sizeof...(In)>{}, out, in...);
}

// The dimension of size > 1 along which t's stride is smallest and not 0 (the last such on
// ties), or -1: an expanded dimension moves no memory, whatever the order.
template <typename TensorT>
int fastestDim(const TensorT *t) {
  int best = -1;
  for (int d = 0; d < t->nDimension; d++)
    if (t->size[d] > 1 && t->stride[d] > 0 && (best < 0 || t->stride[d] <= t->stride[best])) best = d;
  return best;
}

template <typename Index, typename TensorT>
TileInfo<Elem<TensorT>, Index> tileInfo(const TensorT *t, int dimA, int dimB) {
  TileInfo<Elem<TensorT>, Index> r;
  r.rest.data = t->storage->data + t->storageOffset;
  r.rest.dims = 0;
  for (int d = 0; d < t->nDimension; d++) {
    if (d == dimA || d == dimB || t->size[d] == 1) continue;
    r.rest.sizes[r.rest.dims] = static_cast<Index>(t->size[d]);
    r.rest.strides[r.rest.dims] = static_cast<Index>(t->stride[d]);
    r.rest.dims++;
  }
  r.strideA = static_cast<Index>(t->stride[dimA]);
  r.strideB = static_cast<Index>(t->stride[dimB]);
  r.alongB = t->stride[dimB] < t->stride[dimA];
  return r;
}

// The tile's dimensions (Note [Tiled pointwise]) when the launch should be tiled: all the
// tensors have out's shape, at most kMaxDims + 2 dimensions of size > 1, and an input runs
// fastest along another dimension than out.
template <typename OutT, typename... InT>
bool tileDims(int *dimA, int *dimB, const OutT *out, const InT *...in) {
  auto sameShape = [out](const auto *t) {
    if (t->nDimension != out->nDimension) return false;
    for (int d = 0; d < out->nDimension; d++)
      if (t->size[d] != out->size[d]) return false;
    return true;
  };
  if (!(sameShape(in) && ...)) return false;
  int big = 0;
  for (int d = 0; d < out->nDimension; d++) big += out->size[d] > 1;
  if (big > kMaxDims + 2) return false;
  *dimA = fastestDim(out);
  *dimB = -1;
  if (*dimA < 0) return false;
  auto other = [&](const auto *t) {
    const int d = fastestDim(t);
    if (*dimB < 0 && d >= 0 && d != *dimA && t->stride[d] < t->stride[*dimA]) *dimB = d;
  };
  (other(in), ...);
  return *dimB >= 0;
}

template <typename Index, typename Op, typename OutT, typename... InT>
void launchTiled(cudaStream_t stream, Op op, int dimA, int dimB, const OutT *out, const InT *...in) {
  const int64_t sizeA = out->size[dimA], sizeB = out->size[dimB];
  const int64_t tilesA = (sizeA + kTile - 1) / kTile, tilesB = (sizeB + kTile - 1) / kTile;
  const int64_t tiles = tilesA * tilesB * (numel(out) / (sizeA * sizeB));
  const unsigned blocks = static_cast<unsigned>(std::min<int64_t>(tiles, INT32_MAX));
  tiledKernel<<<blocks, dim3(kTile, kTileRows), 0, stream>>>(
      op, static_cast<Index>(tiles), static_cast<Index>(tilesA), static_cast<Index>(tilesB), static_cast<Index>(sizeA),
      static_cast<Index>(sizeB), tileInfo<Index>(out, dimA, dimB), tileInfo<Index>(in, dimA, dimB)...);
  THCudaCheckLaunch();
}

// The launch of tensors whose offsets all fit 32 bits: tiled when an input's order differs
// from the first tensor's (Note [Tiled pointwise]), else linear.
template <typename Op, typename... TensorT>
void launch32(cudaStream_t stream, Op op, const TensorT *...t) {
  if constexpr (sizeof...(TensorT) > 1) {
    int dimA, dimB;
    if (tileDims(&dimA, &dimB, t...)) {
      launchTiled<uint32_t>(stream, op, dimA, dimB, t...);
      return;
    }
  }
  launchPointwise<uint32_t>(stream, numel(std::get<0>(std::forward_as_tuple(t...))), op, t...);
}

// An input as a tensor of the first one's shape: itself, or a contiguous copy when it has
// another shape and is not contiguous (Note [32-bit pieces]); the copy lives as long as this.
template <typename TensorT>
class Shaped {
 public:
  template <typename ShapeT>
  Shaped(THCState *state, const TensorT *t, const ShapeT &shape) : state_(state), t_(t) {
    Piece<TensorT> p;
    if (!pieceOf(&p, t, shape)) t_ = copy_ = THC<Elem<TensorT>>::newContiguous(state, const_cast<TensorT *>(t));
  }
  ~Shaped() {
    if (copy_) THC<Elem<TensorT>>::free(state_, copy_);
  }
  Shaped(const Shaped &) = delete;
  Shaped &operator=(const Shaped &) = delete;
  const TensorT *get() const { return t_; }

 private:
  THCState *state_;
  const TensorT *t_;
  TensorT *copy_ = nullptr;
};

// The launch of pieces that fit 32 bits: tiled when an input runs fastest along another
// dimension than the first (Note [Tiled pointwise]), linear otherwise.
template <typename Op, typename... P>
void launchPiece(cudaStream_t stream, Op op, const P &...p) {
  if constexpr (sizeof...(P) > 1) {
    int dimA, dimB;
    if (tileDims(&dimA, &dimB, &p...)) {
      launchTiled<uint32_t>(stream, op, dimA, dimB, &p...);
      return;
    }
  }
  launchPointwise<uint32_t>(stream, numel(&std::get<0>(std::forward_as_tuple(p...))), op, &p...);
}

// op(elements of t...) for every linear index of the first tensor, on the current stream of
// the tensors' device. The tensors have as many elements as the first (the caller checked);
// only the first is written.
template <typename Op, typename... TensorT>
void pointwise(THCState *state, Op op, const TensorT *...t) {
  const auto *first = std::get<0>(std::forward_as_tuple(t...));
  if (numel(first) == 0) return;
  DeviceGuard guard(commonDevice("pointwise", t...));
  cudaStream_t stream = THCState_getCurrentStream(state);
  Piece<std::remove_const_t<std::remove_pointer_t<decltype(first)>>> shape;
  pieceOf(&shape, first);
  std::tuple<Piece<TensorT>...> pieces;
  if (std::apply([&](auto &...p) { return (pieceOf(&p, t, shape) && ...); }, pieces)) {
    auto launch = [&](const auto &...p) { launchPiece(stream, op, p...); };
    std::apply([&](const auto &...p) { forEachPiece(INT32_MAX, launch, p...); }, pieces);
    return;
  }
  // an input of another shape that is not contiguous: a contiguous copy takes its place
  // (the copies live until the end of the statement)
  if constexpr (sizeof...(TensorT) > 1) pointwise(state, op, Shaped<TensorT>(state, t, shape).get()...);
}

}  // namespace thc

#endif
