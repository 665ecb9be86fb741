// Note [Reductions on the GPU]: the kernels behind THC's reductions and scans.
//
// - Whole tensor: cub::DeviceReduce::TransformReduce. A contiguous tensor is read straight
//   from its data pointer; any other layout goes through a counting iterator whose 64-bit
//   index is mapped to the element by TensorInfo::offset, so nothing is copied first (an
//   expanded tensor of 2^31 elements costs no memory).
// - Along a dimension: the tensor is seen as lines (the output elements, in row-major
//   order) of `length` elements each, and reduceLines launches one kernel template for
//   both shapes of that problem. Blocks are 32 x 8 threads. When the line's own elements
//   are nearest in memory (the reduced dimension innermost) and the line is not short, a
//   warp walks each line ("inner"); otherwise each of 32 neighbouring lines gets a column
//   of 8 threads that walk it side by side ("outer"), so that a warp reads 32 neighbours
//   at once. When there are too few lines to fill the GPU, each line is also cut into
//   chunks (blockIdx.y) whose partial results a second kernel folds in chunk order.
// - Scans along a dimension: one thread per line walking it in order, as TH does (the
//   same rounding); lines too few to fill the GPU are cut into chunks (scanLines).
//
// An operation is a struct with Acc (its accumulator), init(), step(acc, x),
// combine(acc, acc) and finish(acc, length); where its result goes is a functor
// out(line, value). Fold (below) is the one for sums, products, extrema, norms and the
// logical reductions, chosen at run time so that each element type compiles one kernel.
#ifndef THC_REDUCE_CUH
#define THC_REDUCE_CUH

#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cub/cub.cuh>
#include <type_traits>

#include "THC/THCApply.cuh"

// Everything is in thc::reduce, apart from the rest of THC's helpers.
namespace thc {
namespace reduce {

// Device memory from the caching allocator for the length of a scope, on `stream`.
class DeviceBuffer {
 public:
  DeviceBuffer(size_t bytes, cudaStream_t stream) : ptr_(THCCachingAllocator_malloc(bytes, stream)) {}
  ~DeviceBuffer() { THCCachingAllocator_free(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  template <typename T>
  T *as(size_t byteOffset = 0) const {
    return reinterpret_cast<T *>(static_cast<char *>(ptr_) + byteOffset);
  }

 private:
  void *ptr_;
};

// A strided view of part of a tensor (some of its dimensions, or its diagonal), shaped
// like a tensor so that info() and fits32() read it.
template <typename T>
struct StridedView {
  struct Storage {
    T *data;
  };
  int64_t size[64];
  int64_t stride[64];
  int nDimension = 0;
  Storage store;
  Storage *storage = &store;
  ptrdiff_t storageOffset = 0;

  explicit StridedView(T *data) : store{data} {}
  StridedView(const StridedView &) = delete;
  StridedView &operator=(const StridedView &) = delete;
  void add(int64_t s, int64_t st) {
    if (nDimension == 64) THError("a tensor of more than 64 dimensions cannot be reduced on the GPU");
    size[nDimension] = s;
    stride[nDimension] = st;
    nDimension++;
  }
};

// The dimensions of t but `skip` (-1: all of them), over t's data.
template <typename TensorT>
void viewWithout(StridedView<Elem<TensorT>> &v, const TensorT *t, int skip) {
  for (int d = 0; d < t->nDimension; d++)
    if (d != skip) v.add(t->size[d], t->stride[d]);
}

template <typename TensorT>
Elem<TensorT> *dataOf(const TensorT *t) {
  return t->storage->data + t->storageOffset;
}

// ---- Fold: the element-wise part and the combining part of a reduction ----

// What each element contributes (or the difference of two elements, for dist) and how
// contributions are combined.
enum class MapKind : int { Value, NonZero, Abs, Square, Pow, SquaredDeviation };
enum class CombineKind : int { Add, Mul, Max, Min };
// What the total becomes: itself, itself / length, its square root, its 1/p-th power.
enum class FinishKind : int { Value, Mean, Sqrt, Root };

// Acc is accreal: double for the floating types, int64_t for the integer types, which wrap
// as TH's do (Note [Integer wrap-around], TH/THScalarMath.hpp). Max and Min let NaN win.
template <typename Acc>
struct Fold {
  MapKind map = MapKind::Value;
  CombineKind combine = CombineKind::Add;
  FinishKind finish = FinishKind::Value;
  Acc init = Acc(0);
  double p = 0;     // Pow's exponent
  double invP = 0;  // Root's exponent: 1/p, computed once on the host as TH does
  Acc mean = 0;     // SquaredDeviation's centre

  template <typename T>
  __host__ __device__ Acc apply(T v) const {
    const Acc x = static_cast<Acc>(v);
    switch (map) {
      case MapKind::NonZero: return v != T(0) ? Acc(1) : Acc(0);
      case MapKind::Abs: return th::math::abs(x);
      case MapKind::Square: return th::math::mul(x, x);
      case MapKind::SquaredDeviation: {
        const Acc d = th::math::sub(x, mean);
        return th::math::mul(d, d);
      }
      case MapKind::Pow:
        if constexpr (std::is_floating_point_v<Acc>) return std::pow(std::fabs(x), static_cast<Acc>(p));
        return x;
      default: return x;
    }
  }
  // What the difference of two elements contributes (dist), computed in Acc.
  template <typename T>
  __host__ __device__ Acc applyDifference(T a, T b) const {
    return apply(th::math::sub(static_cast<Acc>(a), static_cast<Acc>(b)));
  }
  __host__ __device__ Acc merge(Acc a, Acc b) const {
    switch (combine) {
      case CombineKind::Mul: return th::math::mul(a, b);
      case CombineKind::Max: return th::math::max(a, b);
      case CombineKind::Min: return th::math::min(a, b);
      default: return th::math::add(a, b);
    }
  }
  __host__ __device__ Acc done(Acc acc, int64_t length) const {
    if constexpr (std::is_floating_point_v<Acc>) {
      switch (finish) {
        case FinishKind::Mean: return acc / static_cast<Acc>(length);
        case FinishKind::Sqrt: return std::sqrt(acc);
        case FinishKind::Root: return std::pow(acc, static_cast<Acc>(invP));
        default: return acc;
      }
    }
    return acc;
  }
};

// TH's p-norm as a Fold (TH/THTensorReduce.cpp withNorm): p = 0 counts the non-zeros,
// 1 sums |x|, 2 is the square root of the sum of squares, +inf the largest |x|, any
// other p (sum |x|^p)^(1/p).
inline Fold<double> normFold(double p) {
  Fold<double> f;
  if (p == 0) {
    f.map = MapKind::NonZero;
  } else if (p == 1) {
    f.map = MapKind::Abs;
  } else if (p == 2) {
    f.map = MapKind::Square;
    f.finish = FinishKind::Sqrt;
  } else if (std::isinf(p) && p > 0) {
    f.map = MapKind::Abs;
    f.combine = CombineKind::Max;
  } else {
    f.map = MapKind::Pow;
    f.finish = FinishKind::Root;
  }
  f.p = p;
  f.invP = 1 / p;
  return f;
}

template <typename T, typename Acc>
struct FoldMap {
  Fold<Acc> f;
  __device__ Acc operator()(T x) const { return f.apply(x); }
};

template <typename Acc>
struct FoldMerge {
  Fold<Acc> f;
  __device__ Acc operator()(Acc a, Acc b) const { return f.merge(a, b); }
};

// Element i (row-major) of a strided tensor, mapped. Not inlined: CUB unrolls its loads,
// and a copy of the offset arithmetic (a 64-bit division per dimension) per unrolled load
// made these kernels most of the library's compile time.
template <typename T, typename Acc, typename Index>
struct FoldMapAt {
  Fold<Acc> f;
  TensorInfo<T, Index> in;
  __device__ __noinline__ Acc operator()(Index i) const { return f.apply(in.data[in.offset(i)]); }
};

// The difference of elements i of two strided tensors of as many elements, each in its own
// row-major order.
template <typename T, typename Acc, typename Index>
struct FoldMapDifferenceAt {
  Fold<Acc> f;
  TensorInfo<T, Index> a, b;
  __device__ __noinline__ Acc operator()(Index i) const {
    return f.applyDifference(a.data[a.offset(i)], b.data[b.offset(i)]);
  }
};

// ---- Whole-tensor reductions ----

// cub::DeviceReduce::TransformReduce of n items of `in` into the host: temporary storage
// from the caching allocator, the result copied back and the stream waited for.
template <typename Acc, typename In, typename N, typename Map, typename Combine>
Acc cubReduce(cudaStream_t stream, In in, N n, Map map, Combine combine, Acc init) {
  size_t tempBytes = 0;
  THCudaCheck(cub::DeviceReduce::TransformReduce(nullptr, tempBytes, in, static_cast<Acc *>(nullptr), n, combine, map,
                                                 init, stream));
  constexpr size_t kResultBytes = 256;  // keeps the temporary storage aligned
  DeviceBuffer buffer(kResultBytes + tempBytes, stream);
  Acc *result = buffer.as<Acc>();
  THCudaCheck(cub::DeviceReduce::TransformReduce(buffer.as<void>(kResultBytes), tempBytes, in, result, n, combine, map,
                                                 init, stream));
  Acc host;
  THCudaCheck(cudaMemcpyAsync(&host, result, sizeof(Acc), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
  return host;
}

// The fold of every element of t (a tensor or a StridedView) from f.init, on the current
// device's `stream`. Contiguous data of fewer than 2^31 elements is reduced from its
// pointer; any other layout through 64-bit element offsets (a layout that is not
// contiguous costs a division per dimension and element either way, and one path per
// type keeps the compile short).
template <typename Acc, typename TensorT>
Acc reduceAll(cudaStream_t stream, const TensorT *t, const Fold<Acc> &f) {
  using T = Elem<TensorT>;
  const int64_t n = numel(t);
  if (n == 0) return f.init;
  if (fits32(t)) {
    const auto in = info<uint32_t>(t);
    if (isContiguousInfo(in))
      return cubReduce(stream, static_cast<const T *>(in.data), static_cast<int>(n), FoldMap<T, Acc>{f},
                       FoldMerge<Acc>{f}, f.init);
  }
  return cubReduce(stream, thrust::counting_iterator<uint64_t>(0), static_cast<uint64_t>(n),
                   FoldMapAt<T, Acc, uint64_t>{f, info<uint64_t>(t)}, FoldMerge<Acc>{f}, f.init);
}

// The fold of f.applyDifference(a[i], b[i]) over the elements of a and b (as many, each in
// its own row-major order: the shapes may differ).
template <typename Acc, typename TensorT>
Acc reduceAllDifferences(cudaStream_t stream, const TensorT *a, const TensorT *b, const Fold<Acc> &f) {
  using T = Elem<TensorT>;
  const int64_t n = numel(a);
  if (n == 0) return f.init;
  return cubReduce(stream, thrust::counting_iterator<uint64_t>(0), static_cast<uint64_t>(n),
                   FoldMapDifferenceAt<T, Acc, uint64_t>{f, info<uint64_t>(a), info<uint64_t>(b)}, FoldMerge<Acc>{f},
                   f.init);
}

// ---- Reductions of lines ----

// A Fold as a line operation.
template <typename T, typename AccT>
struct FoldOp {
  using Acc = AccT;
  Fold<Acc> f;
  __device__ Acc init() const { return f.init; }
  __device__ Acc step(Acc acc, T x) const { return f.merge(acc, f.apply(x)); }
  __device__ Acc combine(Acc a, Acc b) const { return f.merge(a, b); }
  __device__ Acc finish(Acc acc, int64_t length) const { return f.done(acc, length); }
};

// Mean and sum of squared deviations of a line, one value at a time (Welford, as TH's
// var and std along a dimension), and merged by Chan's formula where a line is split.
struct Moments {
  double mean, m2;
  int64_t n;
};

template <typename T>
struct MomentsOp {
  using Acc = Moments;
  bool biased, root;
  __device__ Acc init() const { return Moments{0, 0, 0}; }
  __device__ Acc step(Acc m, T v) const {
    const double x = static_cast<double>(v);
    m.n++;
    const double d = x - m.mean;
    m.mean += d / static_cast<double>(m.n);
    m.m2 += d * (x - m.mean);
    return m;
  }
  __device__ Acc combine(Acc a, Acc b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    const double na = static_cast<double>(a.n), nb = static_cast<double>(b.n), n = na + nb;
    const double d = b.mean - a.mean;
    return Moments{a.mean + d * (nb / n), a.m2 + b.m2 + d * d * (na * nb / n), a.n + b.n};
  }
  __device__ double finish(Acc m, int64_t) const {
    const double var = m.n == 0 ? NAN : m.m2 / static_cast<double>(m.n - (biased ? 0 : 1));
    return root ? std::sqrt(var) : var;
  }
};

// out(line, value): line's element of a strided tensor gets value converted.
template <typename T, typename Index>
struct WriteTo {
  TensorInfo<T, Index> out;
  template <typename V>
  __device__ void operator()(Index line, V value) const {
    out.data[out.offset(line)] = static_cast<T>(value);
  }
};

constexpr int kLanes = 32;  // block width: a warp
constexpr int kRows = 8;    // block height
constexpr int kLinesBlock = kLanes * kRows;

template <typename Op, typename Out, typename T, typename Index>
__global__ void __launch_bounds__(kLinesBlock)
    reduceLinesKernel(Op op, Out out, const T *base, TensorInfo<T, Index> lines, TensorInfo<T, Index> elems,
                      Index nLines, Index length, Index chunkLength, bool inner, typename Op::Acc *partial) {
  using Acc = typename Op::Acc;
  __shared__ alignas(16) unsigned char raw[kLinesBlock * sizeof(Acc)];
  Acc *shared = reinterpret_cast<Acc *>(raw);
  const int tx = threadIdx.x, ty = threadIdx.y, me = ty * kLanes + tx;
  const Index linesPerBlock = inner ? kRows : kLanes;
  const Index walker = inner ? tx : ty, walkers = inner ? kLanes : kRows;
  const Index begin = static_cast<Index>(blockIdx.y) * chunkLength;
  const Index end = length - begin < chunkLength ? length : begin + chunkLength;
  for (Index first = static_cast<Index>(blockIdx.x) * linesPerBlock; first < nLines;
       first += static_cast<Index>(gridDim.x) * linesPerBlock) {
    const Index line = first + (inner ? ty : tx);
    Acc acc = op.init();
    if (line < nLines) {
      const T *p = base + lines.offset(line);
      for (Index k = begin + walker; k < end; k += walkers) acc = op.step(acc, p[elems.offset(k)]);
    }
    shared[me] = acc;
    __syncthreads();
    if (inner) {
      for (int w = kLanes / 2; w > 0; w /= 2) {
        if (tx < w) shared[me] = op.combine(shared[me], shared[me + w]);
        __syncthreads();
      }
    } else {
      for (int w = kRows / 2; w > 0; w /= 2) {
        if (ty < w) shared[me] = op.combine(shared[me], shared[me + w * kLanes]);
        __syncthreads();
      }
    }
    if (walker == 0 && line < nLines) {
      if (gridDim.y == 1)
        out(line, op.finish(shared[me], static_cast<int64_t>(length)));
      else
        partial[static_cast<size_t>(blockIdx.y) * nLines + line] = shared[me];
    }
    __syncthreads();
  }
}

// The chunks' partial results of each line, folded in chunk order.
template <typename Op, typename Out, typename Index>
__global__ void finishChunksKernel(Op op, Out out, const typename Op::Acc *partial, Index nLines, int chunks,
                                   Index length) {
  for (Index line = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; line < nLines;
       line += static_cast<Index>(gridDim.x) * blockDim.x) {
    typename Op::Acc acc = partial[line];
    for (int c = 1; c < chunks; c++) acc = op.combine(acc, partial[static_cast<size_t>(c) * nLines + line]);
    out(line, op.finish(acc, static_cast<int64_t>(length)));
  }
}

// The smallest stride of a collapsed shape's dimensions (INT64_MAX when it has none).
template <typename T, typename Index>
int64_t smallestStride(const TensorInfo<T, Index> &i) {
  int64_t s = INT64_MAX;
  for (int d = 0; d < i.dims; d++) s = std::min<int64_t>(s, static_cast<int64_t>(i.strides[d]));
  return s;
}

inline int multiprocessors() {
  int device = 0, count = 0;
  THCudaCheck(cudaGetDevice(&device));
  THCudaCheck(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

// out(line, op.finish(fold of line)) for every line: line i starts at base + lines.offset(i)
// (row-major over the lines' shape) and holds elements elems.offset(k), k < length.
template <typename Op, typename Out, typename T, typename Index>
void reduceLines(cudaStream_t stream, Op op, Out out, const T *base, const TensorInfo<T, Index> &lines,
                 const TensorInfo<T, Index> &elems, int64_t nLines, int64_t length) {
  if (nLines == 0) return;
  // A warp per line when the line's elements are nearest in memory (and the line is long
  // enough to keep a warp's lanes busy), or when lines are too few to give a warp 32 of them.
  const bool nearest = smallestStride(elems) < smallestStride(lines);
  const bool inner = length > 1 && ((nearest && length >= 16) || nLines < 16);
  const int64_t linesPerBlock = inner ? kRows : kLanes, walkers = inner ? kLanes : kRows;
  const int64_t lineBlocks = (nLines + linesPerBlock - 1) / linesPerBlock;
  const int64_t wanted = int64_t(multiprocessors()) * 8;  // blocks that fill the GPU
  int64_t chunks = 1;
  if (lineBlocks < wanted && length > 0) {
    const int64_t byWork = (length + walkers * 32 - 1) / (walkers * 32);  // at least 32 elements a thread
    chunks = std::max<int64_t>(1, std::min<int64_t>({(wanted + lineBlocks - 1) / lineBlocks, byWork, 65535}));
  }
  const int64_t chunkLength = chunks > 1 ? (length + chunks - 1) / chunks : std::max<int64_t>(length, 1);
  if (chunks > 1) chunks = (length + chunkLength - 1) / chunkLength;
  const dim3 grid(static_cast<unsigned>(std::min<int64_t>(lineBlocks, 1 << 20)), static_cast<unsigned>(chunks));
  const dim3 block(kLanes, kRows);
  using Acc = typename Op::Acc;
  if (chunks == 1) {
    reduceLinesKernel<<<grid, block, 0, stream>>>(op, out, base, lines, elems, static_cast<Index>(nLines),
                                                  static_cast<Index>(length), static_cast<Index>(chunkLength), inner,
                                                  static_cast<Acc *>(nullptr));
    THCudaCheckLaunch();
    return;
  }
  DeviceBuffer partial(sizeof(Acc) * static_cast<size_t>(chunks * nLines), stream);
  reduceLinesKernel<<<grid, block, 0, stream>>>(op, out, base, lines, elems, static_cast<Index>(nLines),
                                                static_cast<Index>(length), static_cast<Index>(chunkLength), inner,
                                                partial.as<Acc>());
  THCudaCheckLaunch();
  finishChunksKernel<<<gridFor(nLines), kBlock, 0, stream>>>(op, out, partial.as<Acc>(), static_cast<Index>(nLines),
                                                             static_cast<int>(chunks), static_cast<Index>(length));
  THCudaCheckLaunch();
}

// ---- Scans of lines ----
//
// Each line is walked in order by one thread, as TH does. When there are too few lines to
// fill the GPU, each line is cut into chunks: a first pass folds each chunk, a second
// scans each line's chunk totals (exclusive), and the last pass walks each chunk again
// from the fold of the chunks before it.

// Thread (line, chunk), line fastest so that neighbouring threads read neighbouring lines.
// Totals: carry[id] = the fold of the chunk. Otherwise the chunk is scanned into out,
// starting from carry[id] (from op.init() when there is one chunk per line).
template <bool Totals, typename Op, typename T, typename Index>
__global__ void scanChunksKernel(Op op, const T *in, T *out, TensorInfo<T, Index> inLines,
                                 TensorInfo<T, Index> outLines, Index nLines, Index length, Index chunkLength,
                                 Index chunks, Index inStride, Index outStride, typename Op::Acc *carry) {
  const Index n = nLines * chunks;
  for (Index id = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; id < n;
       id += static_cast<Index>(gridDim.x) * blockDim.x) {
    const Index line = id % nLines, begin = id / nLines * chunkLength;
    const Index end = length - begin < chunkLength ? length : begin + chunkLength;
    const T *x = in + inLines.offset(line);
    typename Op::Acc acc = Totals || chunks == 1 ? op.init() : carry[id];
    if constexpr (Totals) {
      for (Index k = begin; k < end; k++) acc = op.step(acc, x[k * inStride]);
      carry[id] = acc;
    } else {
      T *y = out + outLines.offset(line);
      for (Index k = begin; k < end; k++) {
        acc = op.step(acc, x[k * inStride]);
        y[k * outStride] = static_cast<T>(acc);
      }
    }
  }
}

// carry[c * nLines + line] <- the fold of the chunks before c of line (exclusive scan).
template <typename Op, typename Index>
__global__ void scanCarryKernel(Op op, typename Op::Acc *carry, Index nLines, Index chunks) {
  for (Index line = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; line < nLines;
       line += static_cast<Index>(gridDim.x) * blockDim.x) {
    typename Op::Acc running = op.init();
    for (Index c = 0; c < chunks; c++) {
      const typename Op::Acc total = carry[c * nLines + line];
      carry[c * nLines + line] = running;
      running = op.combine(running, total);
    }
  }
}

inline unsigned blocksFor(int64_t threads) {
  return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>((threads + kBlock - 1) / kBlock, 1 << 20)));
}

// out's lines (outLines.offset(i), elements k * outStride) <- the running fold by op of in's
// lines (inLines.offset(i), elements k * inStride), k < length.
template <typename Op, typename T, typename Index>
void scanLines(cudaStream_t stream, Op op, const T *in, T *out, const TensorInfo<T, Index> &inLines,
               const TensorInfo<T, Index> &outLines, int64_t nLines, int64_t length, int64_t inStride,
               int64_t outStride) {
  if (nLines == 0 || length == 0) return;
  using Acc = typename Op::Acc;
  const int64_t wanted = int64_t(multiprocessors()) * 2048;  // threads that fill the GPU
  const int64_t chunks = std::max<int64_t>(1, std::min<int64_t>((wanted + nLines - 1) / nLines, (length + 255) / 256));
  const int64_t chunkLength = (length + chunks - 1) / chunks;
  const int64_t used = (length + chunkLength - 1) / chunkLength;
  const Index nl = static_cast<Index>(nLines), len = static_cast<Index>(length), cl = static_cast<Index>(chunkLength),
              ch = static_cast<Index>(used), is = static_cast<Index>(inStride), os = static_cast<Index>(outStride);
  if (used == 1) {
    scanChunksKernel<false><<<blocksFor(nLines), kBlock, 0, stream>>>(op, in, out, inLines, outLines, nl, len, cl, ch,
                                                                      is, os, static_cast<Acc *>(nullptr));
    THCudaCheckLaunch();
    return;
  }
  DeviceBuffer carry(sizeof(Acc) * static_cast<size_t>(nLines * used), stream);
  scanChunksKernel<true><<<blocksFor(nLines * used), kBlock, 0, stream>>>(op, in, out, inLines, outLines, nl, len, cl,
                                                                          ch, is, os, carry.as<Acc>());
  THCudaCheckLaunch();
  scanCarryKernel<<<blocksFor(nLines), kBlock, 0, stream>>>(op, carry.as<Acc>(), nl, ch);
  THCudaCheckLaunch();
  scanChunksKernel<false><<<blocksFor(nLines * used), kBlock, 0, stream>>>(op, in, out, inLines, outLines, nl, len, cl,
                                                                           ch, is, os, carry.as<Acc>());
  THCudaCheckLaunch();
}

}  // namespace reduce
}  // namespace thc

#endif
