// Sorting and order statistics on the GPU: max/min with their indices (a reduction), sort,
// topk, kthvalue, median, mode and medianall (CUB's radix sorts, then a pick in every
// sorted line). Indices count from TH_INDEX_BASE, so this translation unit is compiled
// once per base; the C API is in generic/THCTensorSort.cu.
//
// Note [Sort keys]: every line is sorted as unsigned integer keys paired with the
// positions of the elements in their line (from TH_INDEX_BASE), by CUB's stable radix sort,
// ascending only: four key types (8, 16, 32, 64 bits) serve the seven element types. The
// key of an element orders as TH's Note [NaN order] and is equal exactly where TH sees
// equal values:
//  - unsigned integers: the value; signed integers: the value with its sign bit flipped;
//  - floats: the bits with the sign bit flipped for a number >= 0 and every bit flipped for
//    a negative one (IEEE order), once -0.0 has become +0.0 (TH: -0.0 == 0.0), and every NaN
//    the largest key, all bits set (NaNs above every number and equal among themselves);
//  - descending: every key complemented, so that NaNs come first, as in TH.
// Equal keys keep index order (the sort is stable), which is TH's tie rule, so sort, topk,
// kthvalue and median take what TH takes. A sorted key turns back into its value, except
// where different values share one key (the zeros, the NaNs): those are read again from
// the input at the position carried beside the key, so that -0.0 and NaN payloads come
// out as they went in.
//
// Note [Sorting one long line]: a line is sorted with DeviceRadixSort when it is long for
// the number of lines (one line, or at most n / kLongLine of them: CUB's segmented sort
// gives a line one thread block), otherwise all lines at once with
// DeviceSegmentedRadixSort. The single long contiguous line of floats or doubles (at
// least kOneLineMin; sort's benchmark) skips the keys: CUB's own float order is IEEE order
// with -0.0 == +0.0, stable, which is TH's order when there is no NaN. CUB sorts the input
// straight into the results, with the positions written by one pass. It orders NaNs by
// their bits, which puts every NaN before -inf or after +inf: the host reads the first and
// the last result, and when either is a NaN the line is sorted again the keys' way (the
// input is untouched).
#include "THC/THCTensorSort.h"

#include <cub/cub.cuh>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "TH/THError.hpp"
#include "THC/THCApply.cuh"
#include "THC/THCCachingAllocator.h"

namespace thc {
namespace {

constexpr int64_t kBase = TH_INDEX_BASE;
// Note [Sorting one long line]
constexpr int64_t kLongLine = 10000;
constexpr int64_t kOneLineMin = 1 << 16;

template <typename T>
using TensorOf = typename THC<T>::Tensor;
using LongTensor = THCudaLongTensor;

// Which element of every sorted line goes to the result.
enum class Pick {
  First,   // the first k (sort, topk)
  Fixed,   // the one at a given place (kthvalue)
  Median,  // the lower median, or the first NaN
  Chosen,  // the one at a place computed per line (mode)
};

/* ---- host helpers ---- */

// Device memory for the length of a scope, on the stream it is used on.
class DeviceBuffer {
 public:
  DeviceBuffer(size_t bytes, cudaStream_t stream) : ptr_(bytes ? THCCachingAllocator_malloc(bytes, stream) : nullptr) {}
  ~DeviceBuffer() { THCCachingAllocator_free(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  void *get() const { return ptr_; }
  template <typename T>
  T *as() const {
    return static_cast<T *>(ptr_);
  }

 private:
  void *ptr_;
};

// A THC tensor released at the end of the scope.
template <typename T>
class Owned {
 public:
  Owned(THCState *state, TensorOf<T> *t) : state_(state), t_(t) {}
  ~Owned() { THC<T>::free(state_, t_); }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  TensorOf<T> *get() const { return t_; }

 private:
  THCState *state_;
  TensorOf<T> *t_;
};

// A tensor's elements as rows x n for the kernels (thc::info of a view): the lines along
// dim, moved last, in row-major order of the other dimensions (along); or every element
// in row-major order (all, also a reduction's result: one element per line). A 0-dim
// tensor is one line of one element.
template <typename T>
class Lines {
 public:
  template <typename TensorT>
  static Lines along(const TensorT *t, int dim) {
    return Lines(t->storage->data + t->storageOffset, t->nDimension, t->size, t->stride, dim);
  }
  template <typename TensorT>
  static Lines all(const TensorT *t) {
    return Lines(t->storage->data + t->storageOffset, t->nDimension, t->size, t->stride, -1);
  }
  // one element at data
  static Lines one(T *data) { return Lines(data, 0, nullptr, nullptr, -1); }

  template <typename Index>
  TensorInfo<T, Index> info() const {
    Storage storage{data_};
    const View view{&storage, 0, (int)size_.size(), size_.data(), stride_.data()};
    return thc::info<Index>(&view);
  }
  bool fits32() const {
    Storage storage{data_};
    const View view{&storage, 0, (int)size_.size(), size_.data(), stride_.data()};
    return thc::fits32(&view);
  }

 private:
  // what thc::info and thc::fits32 read of a tensor
  struct Storage {
    T *data;
  };
  struct View {
    Storage *storage;
    ptrdiff_t storageOffset;
    int nDimension;
    const int64_t *size;
    const int64_t *stride;
  };

  Lines(T *data, int nd, const int64_t *size, const int64_t *stride, int dim) : data_(data) {
    for (int d = 0; d < nd; d++) {
      if (d == dim) continue;
      size_.push_back(size[d]);
      stride_.push_back(stride[d]);
    }
    if (dim >= 0 && nd > 0) {
      size_.push_back(size[dim]);
      stride_.push_back(stride[dim]);
    }
  }

  T *data_;
  std::vector<int64_t> size_, stride_;
};

unsigned blocksFor(int64_t threads) {
  return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>((threads + kBlock - 1) / kBlock, 1 << 20)));
}

/* ---- keys (Note [Sort keys]) ---- */

template <typename T>
struct KeyOf {
  using type = std::make_unsigned_t<T>;
};
template <>
struct KeyOf<float> {
  using type = uint32_t;
};
template <>
struct KeyOf<double> {
  using type = uint64_t;
};
template <typename T>
using Key = typename KeyOf<T>::type;

template <typename K>
__host__ __device__ constexpr K topBit() {
  return static_cast<K>(K(1) << (sizeof(K) * 8 - 1));
}
template <typename K>
__host__ __device__ constexpr K allBits() {
  return static_cast<K>(~K(0));
}

template <typename T>
__device__ __forceinline__ bool isNan(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return x != x;
  } else {
    return false;
  }
}

template <typename T>
__device__ __forceinline__ Key<T> toKey(T x) {
  using K = Key<T>;
  if constexpr (std::is_floating_point_v<T>) {
    if (x != x) return allBits<K>();
    K bits;
    memcpy(&bits, &x, sizeof bits);
    if (static_cast<K>(bits << 1) == 0) bits = 0;  // -0.0 is +0.0
    return (bits & topBit<K>()) ? static_cast<K>(~bits) : static_cast<K>(bits | topBit<K>());
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<K>(static_cast<K>(x) ^ topBit<K>());
  } else {
    return x;
  }
}

template <typename T>
__device__ __forceinline__ T fromKey(Key<T> key) {
  using K = Key<T>;
  if constexpr (std::is_floating_point_v<T>) {
    const K bits = (key & topBit<K>()) ? static_cast<K>(key ^ topBit<K>()) : static_cast<K>(~key);
    T x;
    memcpy(&x, &bits, sizeof x);
    return x;
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(static_cast<K>(key ^ topBit<K>()));
  } else {
    return key;
  }
}

// Whether x's key is shared with other values, so that x must be read from the input.
template <typename T>
__device__ __forceinline__ bool sharedKey(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    return x == 0 || x != x;
  } else {
    return false;
  }
}

/* ---- kernels ---- */

// keys[i], positions[i] of element i of src seen as lines of n.
template <typename T, typename Index>
__global__ void __launch_bounds__(kBlock)
    loadKeys(TensorInfo<T, Index> src, Index n, Index count, Key<T> flip, Key<T> *keys, int64_t *positions) {
  const Index step = static_cast<Index>(gridDim.x) * kBlock;
  for (Index i = static_cast<Index>(blockIdx.x) * kBlock + threadIdx.x; i < count; i += step) {
    keys[i] = static_cast<Key<T>>(toKey(src.data[src.offset(i)]) ^ flip);
    positions[i] = static_cast<int64_t>(i % n) + kBase;
  }
}

// Segment i of CUB's segmented sort starts at i * n.
__global__ void __launch_bounds__(kBlock) lineStarts(int *starts, int n, int count) {
  for (int i = blockIdx.x * kBlock + threadIdx.x; i < count; i += gridDim.x * kBlock) starts[i] = i * n;
}

// The place of the lower median in an ascending sorted line of keys, or of the first NaN
// when there is one (NaNs come last, in index order).
template <typename T, typename Index>
__device__ __forceinline__ Index medianPlace(const Key<T> *line, Index n) {
  if constexpr (std::is_floating_point_v<T>) {
    const Key<T> nan = allBits<Key<T>>();
    if (line[n - 1] == nan) {
      Index lo = 0, hi = n - 1;
      while (lo < hi) {
        const Index mid = lo + (hi - lo) / 2;
        if (line[mid] == nan) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }
  }
  return (n - 1) / 2;
}

// Output element i (line i / k, place i % k of the result) from the sorted lines of n keys:
// the value, read again from src where the key is shared, and its position.
template <typename T, typename Index>
__global__ void __launch_bounds__(kBlock)
    storeLines(const Key<T> *keys, const int64_t *positions, Index n, Index k, Index count, Key<T> flip, Pick pick,
               Index fixed, const int64_t *chosen, TensorInfo<T, Index> src, TensorInfo<T, Index> values,
               TensorInfo<int64_t, Index> indices) {
  const Index step = static_cast<Index>(gridDim.x) * kBlock;
  for (Index i = static_cast<Index>(blockIdx.x) * kBlock + threadIdx.x; i < count; i += step) {
    const Index row = i / k;
    Index place = i - row * k;
    if (pick == Pick::Fixed) {
      place = fixed;
    } else if (pick == Pick::Median) {
      place = medianPlace<T>(keys + row * n, n);
    } else if (pick == Pick::Chosen) {
      place = static_cast<Index>(chosen[row]);
    }
    const Index at = row * n + place;
    const int64_t position = positions[at];
    T value = fromKey<T>(static_cast<Key<T>>(keys[at] ^ flip));
    if (sharedKey(value)) value = src.data[src.offset(row * n + static_cast<Index>(position - kBase))];
    values.data[values.offset(i)] = value;
    indices.data[indices.offset(i)] = position;
  }
}

// A run of equal keys in a sorted line: its length and the place of its last element.
struct Run {
  int64_t length, end;
};
// The longer run; on a tie the first, whose value is smaller (TH's mode).
struct LongerRun {
  __device__ __forceinline__ Run operator()(const Run &a, const Run &b) const {
    if (a.length != b.length) return a.length > b.length ? a : b;
    return a.end < b.end ? a : b;
  }
};

constexpr int kModeBlock = 128;

// chosen[row] = the last place of the longest run of equal keys in every ascending sorted
// line of n keys, a block per line: a thread that holds the end of a run finds its start
// by binary search.
template <typename K>
__global__ void __launch_bounds__(kModeBlock) modeOfLines(const K *keys, int64_t rows, int64_t n, int64_t *chosen) {
  using Reduce = cub::BlockReduce<Run, kModeBlock>;
  __shared__ typename Reduce::TempStorage temp;
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const K *line = keys + row * n;
    Run best{0, -1};
    for (int64_t p = threadIdx.x; p < n; p += kModeBlock) {
      const K key = line[p];
      if (p + 1 < n && line[p + 1] == key) continue;
      int64_t lo = 0, hi = p;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (line[mid] < key) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      best = LongerRun()(best, Run{p - lo + 1, p});
    }
    const Run run = Reduce(temp).Reduce(best, LongerRun());
    if (threadIdx.x == 0) chosen[row] = run.end;
    __syncthreads();  // temp serves the next line
  }
}

// An element and its place in its line; index < 0: none yet.
template <typename T>
struct Best {
  T value;
  int64_t index;
};

// TH's extreme: the first NaN, else the largest (Max) or smallest value, the first of
// equal ones. Commutative and associative, so any reduction order gives TH's answer.
template <bool Max, typename T>
__device__ __forceinline__ Best<T> better(const Best<T> &a, const Best<T> &b) {
  if (a.index < 0) return b;
  if (b.index < 0) return a;
  const bool aNan = isNan(a.value), bNan = isNan(b.value);
  if (aNan || bNan) {
    if (aNan && bNan) return a.index < b.index ? a : b;
    return aNan ? a : b;
  }
  if (a.value != b.value) return (Max ? a.value > b.value : a.value < b.value) ? a : b;
  return a.index < b.index ? a : b;
}

template <typename T>
__device__ __forceinline__ T shuffleDown(T v, int delta) {
  if constexpr (sizeof(T) < 4) {
    return static_cast<T>(__shfl_down_sync(0xffffffffu, static_cast<int>(v), delta));
  } else {
    return __shfl_down_sync(0xffffffffu, v, delta);
  }
}

template <bool Max, typename T>
__device__ __forceinline__ Best<T> warpBest(Best<T> best) {
  for (int delta = 16; delta > 0; delta /= 2) {
    const Best<T> other{shuffleDown(best.value, delta), shuffleDown(best.index, delta)};
    best = better<Max>(best, other);
  }
  return best;
}

// Unit u = (piece c, line row), u = c * rows + row, is reduced by a group of `lanes`
// threads (32: a warp walks the piece, for lines whose elements are adjacent; 1: a thread
// does, adjacent threads taking adjacent lines). With one piece per line the result goes
// to values/indices, else to the partial arrays at row * pieces + c.
template <bool Max, typename T, typename Index>
__global__ void __launch_bounds__(kBlock)
    extremeOfLines(TensorInfo<T, Index> src, Index rows, Index n, Index pieces, Index piece, int lanes, T *partValues,
                   int64_t *partIndices, TensorInfo<T, Index> values, TensorInfo<int64_t, Index> indices) {
  const Index thread = static_cast<Index>(blockIdx.x) * kBlock + threadIdx.x;
  const Index lane = thread % static_cast<Index>(lanes);
  const Index step = static_cast<Index>(gridDim.x) * kBlock / static_cast<Index>(lanes);
  const Index units = rows * pieces;
  for (Index u = thread / static_cast<Index>(lanes); u < units; u += step) {
    const Index row = u % rows, c = u / rows;
    const Index begin = c * piece, end = n - begin < piece ? n : begin + piece;
    Best<T> best{T(0), -1};
    for (Index j = begin + lane; j < end; j += static_cast<Index>(lanes))
      best = better<Max>(best, Best<T>{src.data[src.offset(row * n + j)], static_cast<int64_t>(j)});
    if (lanes == 32) best = warpBest<Max>(best);
    if (lane == 0) {
      if (pieces == 1) {
        values.data[values.offset(row)] = best.value;
        indices.data[indices.offset(row)] = best.index + kBase;
      } else {
        partValues[row * pieces + c] = best.value;
        partIndices[row * pieces + c] = best.index;
      }
    }
  }
}

// The pieces' partial results of every line, a warp per line.
template <bool Max, typename T, typename Index>
__global__ void __launch_bounds__(kBlock)
    finishExtreme(const T *partValues, const int64_t *partIndices, Index rows, Index pieces,
                  TensorInfo<T, Index> values, TensorInfo<int64_t, Index> indices) {
  const Index thread = static_cast<Index>(blockIdx.x) * kBlock + threadIdx.x;
  const Index lane = thread % 32;
  const Index step = static_cast<Index>(gridDim.x) * kBlock / 32;
  for (Index row = thread / 32; row < rows; row += step) {
    Best<T> best{T(0), -1};
    for (Index c = lane; c < pieces; c += 32)
      best = better<Max>(best, Best<T>{partValues[row * pieces + c], partIndices[row * pieces + c]});
    best = warpBest<Max>(best);
    if (lane == 0) {
      values.data[values.offset(row)] = best.value;
      indices.data[indices.offset(row)] = best.index + kBase;
    }
  }
}

// Note [Sorting one long line]: the positions of a line of n.
__global__ void __launch_bounds__(kBlock) positionsOf(int64_t n, int64_t *positions) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * kBlock;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * kBlock + threadIdx.x; i < n; i += step) positions[i] = i + kBase;
}

/* ---- sorting lines ---- */

// Keys and positions of rows x n elements, twice (CUB's double buffers); `current` names
// the pair that holds the sorted lines.
template <typename K>
struct SortBuffers {
  SortBuffers(int64_t count, cudaStream_t stream)
      : keys0(count * sizeof(K), stream),
        keys1(count * sizeof(K), stream),
        positions0(count * sizeof(int64_t), stream),
        positions1(count * sizeof(int64_t), stream) {}
  K *keys(int i) const { return i ? keys1.as<K>() : keys0.as<K>(); }
  int64_t *positions(int i) const { return i ? positions1.as<int64_t>() : positions0.as<int64_t>(); }
  const K *sortedKeys() const { return keys(current); }
  const int64_t *sortedPositions() const { return positions(current); }

  DeviceBuffer keys0, keys1, positions0, positions1;
  int current = 0;
};

// Sorts each of the rows lines of n keys of buffers 0 (Note [Sorting one long line]).
template <typename K>
void sortKeys(cudaStream_t stream, SortBuffers<K> &buf, int64_t rows, int64_t n) {
  constexpr int bits = sizeof(K) * 8;
  buf.current = 0;
  if (n <= 1) return;
  // CUB leaves every part's result in either buffer; they all go where the first one's went.
  auto settle = [&](int64_t first, int64_t count, int selector) {
    if (first == 0) {
      buf.current = selector;
    } else if (selector != buf.current) {
      THCudaCheck(cudaMemcpyAsync(buf.keys(buf.current) + first, buf.keys(selector) + first, count * sizeof(K),
                                  cudaMemcpyDeviceToDevice, stream));
      THCudaCheck(cudaMemcpyAsync(buf.positions(buf.current) + first, buf.positions(selector) + first,
                                  count * sizeof(int64_t), cudaMemcpyDeviceToDevice, stream));
    }
  };
  if (rows <= n / kLongLine || n > INT_MAX) {
    size_t bytes = 0;
    {
      cub::DoubleBuffer<K> keys(buf.keys(0), buf.keys(1));
      cub::DoubleBuffer<int64_t> positions(buf.positions(0), buf.positions(1));
      THCudaCheck(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, positions, n, 0, bits, stream));
    }
    DeviceBuffer temp(std::max<size_t>(bytes, 1), stream);  // null would be a size query
    for (int64_t row = 0; row < rows; row++) {
      const int64_t first = row * n;
      cub::DoubleBuffer<K> keys(buf.keys(0) + first, buf.keys(1) + first);
      cub::DoubleBuffer<int64_t> positions(buf.positions(0) + first, buf.positions(1) + first);
      THCudaCheck(cub::DeviceRadixSort::SortPairs(temp.get(), bytes, keys, positions, n, 0, bits, stream));
      settle(first, n, keys.selector);
    }
    return;
  }
  // CUB's segmented sort counts items in int: as many lines at a time as that allows.
  const int64_t chunk = std::min<int64_t>(rows, INT_MAX / n);
  DeviceBuffer starts((chunk + 1) * sizeof(int), stream);
  lineStarts<<<blocksFor(chunk + 1), kBlock, 0, stream>>>(starts.as<int>(), static_cast<int>(n),
                                                          static_cast<int>(chunk + 1));
  THCudaCheckLaunch();
  const int *begin = starts.as<int>();
  for (int64_t row = 0; row < rows; row += chunk) {
    const int64_t lines = std::min(chunk, rows - row), first = row * n;
    cub::DoubleBuffer<K> keys(buf.keys(0) + first, buf.keys(1) + first);
    cub::DoubleBuffer<int64_t> positions(buf.positions(0) + first, buf.positions(1) + first);
    const int items = static_cast<int>(lines * n), segments = static_cast<int>(lines);
    size_t bytes = 0;
    THCudaCheck(cub::DeviceSegmentedRadixSort::SortPairs(nullptr, bytes, keys, positions, items, segments, begin,
                                                         begin + 1, 0, bits, stream));
    DeviceBuffer temp(std::max<size_t>(bytes, 1), stream);  // null would be a size query
    THCudaCheck(cub::DeviceSegmentedRadixSort::SortPairs(temp.get(), bytes, keys, positions, items, segments, begin,
                                                         begin + 1, 0, bits, stream));
    settle(first, lines * n, keys.selector);
  }
}

// The keys of src's rows lines of n, sorted ascending (flip = 0) or descending (all bits).
template <typename T>
void loadAndSort(cudaStream_t stream, const Lines<T> &src, int64_t rows, int64_t n, Key<T> flip,
                 SortBuffers<Key<T>> &buf) {
  const int64_t count = rows * n;
  if (src.fits32() && count <= INT32_MAX) {
    loadKeys<T, uint32_t><<<gridFor(count), kBlock, 0, stream>>>(src.template info<uint32_t>(),
                                                                 static_cast<uint32_t>(n), static_cast<uint32_t>(count),
                                                                 flip, buf.keys(0), buf.positions(0));
  } else {
    loadKeys<T, uint64_t><<<gridFor(count), kBlock, 0, stream>>>(src.template info<uint64_t>(),
                                                                 static_cast<uint64_t>(n), static_cast<uint64_t>(count),
                                                                 flip, buf.keys(0), buf.positions(0));
  }
  THCudaCheckLaunch();
  sortKeys(stream, buf, rows, n);
}

// values/indices (k per line, or one: a reduction) from the sorted lines of src.
template <typename T>
void store(cudaStream_t stream, const SortBuffers<Key<T>> &buf, const Lines<T> &src, int64_t rows, int64_t n, int64_t k,
           Key<T> flip, Pick pick, int64_t fixed, const int64_t *chosen, const Lines<T> &values,
           const Lines<int64_t> &indices) {
  const int64_t count = rows * k;
  if (src.fits32() && values.fits32() && indices.fits32() && rows * n <= INT32_MAX) {
    using Index = uint32_t;
    storeLines<T, Index><<<gridFor(count), kBlock, 0, stream>>>(
        buf.sortedKeys(), buf.sortedPositions(), static_cast<Index>(n), static_cast<Index>(k),
        static_cast<Index>(count), flip, pick, static_cast<Index>(fixed), chosen, src.template info<Index>(),
        values.template info<Index>(), indices.template info<Index>());
  } else {
    using Index = uint64_t;
    storeLines<T, Index><<<gridFor(count), kBlock, 0, stream>>>(
        buf.sortedKeys(), buf.sortedPositions(), static_cast<Index>(n), static_cast<Index>(k),
        static_cast<Index>(count), flip, pick, static_cast<Index>(fixed), chosen, src.template info<Index>(),
        values.template info<Index>(), indices.template info<Index>());
  }
  THCudaCheckLaunch();
}

/* ---- TH's frame: checks, sources, result shapes ---- */

// Checks dim (argument dimArg) and returns the length of t's lines along it; a 0-dim
// tensor has one line of one element, along dim 0.
template <typename T>
int64_t lineSize(const char *name, const TensorOf<T> *t, int dim, int dimArg) {
  if (t->nDimension == 0) {
    if (dim != 0)
      THIndexError("%s: dimension %d (argument %d) out of range: a 0-dim tensor has only dimension 0", name, dim,
                   dimArg);
    return 1;
  }
  if (dim < 0 || dim >= t->nDimension)
    THIndexError("%s: dimension %d (argument %d) out of range: expected 0 to %d", name, dim, dimArg, t->nDimension - 1);
  return t->size[dim];
}

// The tensor to read: t, or a copy of it when an output shares its storage (the output
// would be resized or written while t is still read). Values and indices must not share
// a storage (possible only for Long).
template <typename T>
TensorOf<T> *newSource(THCState *state, const char *name, TensorOf<T> *out, LongTensor *indices, TensorOf<T> *t) {
  if ((void *)out->storage == (void *)indices->storage)
    THArgCheck(false, 2, "%s: the values and indices outputs must not share a storage", name);
  if ((void *)out->storage == (void *)t->storage || (void *)indices->storage == (void *)t->storage)
    return THC<T>::newClone(state, t);
  THC<T>::retain(state, t);
  return t;
}

// The checks of a reduction along dim (argument dimArg), then the tensor to read.
template <typename T>
TensorOf<T> *reductionSource(THCState *state, const char *name, TensorOf<T> *values, LongTensor *indices,
                             TensorOf<T> *t, int dim, int dimArg) {
  const int64_t n = lineSize<T>(name, t, dim, dimArg);
  if (n == 0) THValueError("%s: cannot reduce dimension %d of size 0 (tensor sizes %s)", name, dim, shapeOf(t).c_str());
  return newSource<T>(state, name, values, indices, t);
}

// A reduction's results resized (src's sizes, dim dropped unless keepdim); returns the
// number of lines.
template <typename T>
int64_t resizeReduction(THCState *state, TensorOf<T> *values, LongTensor *indices, const TensorOf<T> *src, int dim,
                        int keepdim) {
  std::vector<int64_t> size(src->size, src->size + src->nDimension);
  if (!keepdim && !size.empty()) {
    size.erase(size.begin() + dim);
  } else if (!size.empty()) {
    size[dim] = 1;
  }
  THC<T>::resizeNd(state, values, (int)size.size(), size.data(), nullptr);
  THC<int64_t>::resizeNd(state, indices, (int)size.size(), size.data(), nullptr);
  return numel(src) / (src->nDimension == 0 ? 1 : src->size[dim]);
}

/* ---- the ops ---- */

template <bool Max, typename T, typename Index>
void launchExtreme(cudaStream_t stream, const Lines<T> &src, const Lines<T> &values, const Lines<int64_t> &indices,
                   int64_t rows, int64_t n, int lanes) {
  // Long lines are cut into pieces so that about kThreads threads work.
  constexpr int64_t kThreads = 1 << 19;
  const int64_t units = kThreads / lanes, minPiece = lanes == 32 ? 1024 : 64;
  int64_t pieces = 1;
  if (rows < units) pieces = std::max<int64_t>(1, std::min(units / rows, (n + minPiece - 1) / minPiece));
  const int64_t piece = (n + pieces - 1) / pieces;
  pieces = (n + piece - 1) / piece;
  DeviceBuffer partValues(pieces > 1 ? rows * pieces * sizeof(T) : 0, stream);
  DeviceBuffer partIndices(pieces > 1 ? rows * pieces * sizeof(int64_t) : 0, stream);
  extremeOfLines<Max, T, Index><<<blocksFor(rows * pieces * lanes), kBlock, 0, stream>>>(
      src.template info<Index>(), static_cast<Index>(rows), static_cast<Index>(n), static_cast<Index>(pieces),
      static_cast<Index>(piece), lanes, partValues.as<T>(), partIndices.as<int64_t>(), values.template info<Index>(),
      indices.template info<Index>());
  THCudaCheckLaunch();
  if (pieces > 1) {
    finishExtreme<Max, T, Index><<<blocksFor(rows * 32), kBlock, 0, stream>>>(
        partValues.as<T>(), partIndices.as<int64_t>(), static_cast<Index>(rows), static_cast<Index>(pieces),
        values.template info<Index>(), indices.template info<Index>());
    THCudaCheckLaunch();
  }
}

template <bool Max, typename T>
void extreme(THCState *state, const char *name, TensorOf<T> *values, LongTensor *indices, TensorOf<T> *t, int dim,
             int keepdim) {
  DeviceGuard guard(commonDevice(name, values, indices, t));
  Owned<T> src(state, reductionSource<T>(state, name, values, indices, t, dim, 4));
  TensorOf<T> *source = src.get();
  const int64_t rows = resizeReduction<T>(state, values, indices, source, dim, keepdim);
  if (rows == 0) return;
  const int64_t n = source->nDimension == 0 ? 1 : source->size[dim];
  const int64_t lineStride = source->nDimension == 0 ? 1 : source->stride[dim];
  // a warp per line where its elements are adjacent (or the lines too few), else a thread
  const int lanes = lineStride == 1 || n == 1 || rows < 1024 ? 32 : 1;
  const Lines<T> lines = Lines<T>::along(source, dim), out = Lines<T>::all(values);
  const Lines<int64_t> outIndices = Lines<int64_t>::all(indices);
  cudaStream_t stream = THCState_getCurrentStream(state);
  if (lines.fits32() && out.fits32() && outIndices.fits32() && rows * n <= INT32_MAX)
    launchExtreme<Max, T, uint32_t>(stream, lines, out, outIndices, rows, n, lanes);
  else
    launchExtreme<Max, T, uint64_t>(stream, lines, out, outIndices, rows, n, lanes);
}

// Note [Sorting one long line]: true when done (a single contiguous line of floats with
// contiguous results and no NaN); false leaves the results to the keys' way.
template <typename T>
bool sortOneLine(cudaStream_t stream, TensorOf<T> *src, TensorOf<T> *rt, LongTensor *ri, int dim, int64_t n,
                 bool descending) {
  if constexpr (!std::is_floating_point_v<T>) {
    return false;
  } else {
    const auto lineStride = [dim](auto *x) { return x->nDimension == 0 ? int64_t(1) : x->stride[dim]; };
    if (n < kOneLineMin || numel(src) != n || lineStride(src) != 1 || lineStride(rt) != 1 || lineStride(ri) != 1)
      return false;
    const T *in = src->storage->data + src->storageOffset;
    T *out = rt->storage->data + rt->storageOffset;
    int64_t *outIndices = ri->storage->data + ri->storageOffset;
    DeviceBuffer positions(n * sizeof(int64_t), stream);
    positionsOf<<<gridFor(n), kBlock, 0, stream>>>(n, positions.as<int64_t>());
    THCudaCheckLaunch();
    size_t bytes = 0;
    const auto run = [&](void *temp) {
      return descending ? cub::DeviceRadixSort::SortPairsDescending(temp, bytes, in, out, positions.as<int64_t>(),
                                                                    outIndices, n, 0, int(sizeof(T) * 8), stream)
                        : cub::DeviceRadixSort::SortPairs(temp, bytes, in, out, positions.as<int64_t>(), outIndices, n,
                                                          0, int(sizeof(T) * 8), stream);
    };
    THCudaCheck(run(nullptr));
    DeviceBuffer temp(std::max<size_t>(bytes, 1), stream);  // null would be a size query
    THCudaCheck(run(temp.get()));
    T ends[2];
    THCudaCheck(cudaMemcpyAsync(&ends[0], out, sizeof(T), cudaMemcpyDeviceToHost, stream));
    THCudaCheck(cudaMemcpyAsync(&ends[1], out + n - 1, sizeof(T), cudaMemcpyDeviceToHost, stream));
    THCudaCheck(cudaStreamSynchronize(stream));
    return !std::isnan(ends[0]) && !std::isnan(ends[1]);
  }
}

// rt, ri = the first k elements of every line of t sorted along dim (lines of n), after
// the caller's checks.
template <typename T>
void sortAlong(THCState *state, const char *name, TensorOf<T> *rt, LongTensor *ri, TensorOf<T> *t, int dim, int64_t n,
               int64_t k, bool descending) {
  Owned<T> src(state, newSource<T>(state, name, rt, ri, t));
  TensorOf<T> *source = src.get();
  std::vector<int64_t> size(source->size, source->size + source->nDimension);
  if (!size.empty()) size[dim] = k;
  THC<T>::resizeNd(state, rt, (int)size.size(), size.data(), nullptr);
  THC<int64_t>::resizeNd(state, ri, (int)size.size(), size.data(), nullptr);
  const int64_t rows = n == 0 ? 0 : numel(source) / n;
  if (rows == 0 || k == 0) return;
  cudaStream_t stream = THCState_getCurrentStream(state);
  if (k == n && sortOneLine<T>(stream, source, rt, ri, dim, n, descending)) return;
  const Key<T> flip = descending ? allBits<Key<T>>() : Key<T>(0);
  const Lines<T> lines = Lines<T>::along(source, dim);
  SortBuffers<Key<T>> buf(rows * n, stream);
  loadAndSort(stream, lines, rows, n, flip, buf);
  store(stream, buf, lines, rows, n, k, flip, Pick::First, 0, nullptr, Lines<T>::along(rt, dim),
        Lines<int64_t>::along(ri, dim));
}

template <typename T>
void sort(THCState *state, TensorOf<T> *rt, LongTensor *ri, TensorOf<T> *t, int dim, bool descending) {
  DeviceGuard guard(commonDevice("sort", rt, ri, t));
  const int64_t n = lineSize<T>("sort", t, dim, 4);
  sortAlong<T>(state, "sort", rt, ri, t, dim, n, n, descending);
}

template <typename T>
void topk(THCState *state, TensorOf<T> *rt, LongTensor *ri, TensorOf<T> *t, int64_t k, int dim, bool largest) {
  DeviceGuard guard(commonDevice("topk", rt, ri, t));
  const int64_t n = lineSize<T>("topk", t, dim, 5);
  if (t->nDimension == 0) THArgCheck(k == 1, 4, "topk: k = %lld for a 0-dim tensor: expected 1", (long long)k);
  THArgCheck(k >= 0 && k <= n, 4, "topk: k = %lld is out of range 0 to %lld (dimension %d)", (long long)k, (long long)n,
             dim);
  sortAlong<T>(state, "topk", rt, ri, t, dim, n, k, largest);
}

// kthvalue (Fixed: place `fixed`), median and mode: one element of every line sorted
// ascending.
template <typename T>
void pickAlong(THCState *state, const char *name, Pick pick, int64_t fixed, int dimArg, TensorOf<T> *values,
               LongTensor *indices, TensorOf<T> *t, int dim, int keepdim) {
  DeviceGuard guard(commonDevice(name, values, indices, t));
  Owned<T> src(state, reductionSource<T>(state, name, values, indices, t, dim, dimArg));
  TensorOf<T> *source = src.get();
  const int64_t rows = resizeReduction<T>(state, values, indices, source, dim, keepdim);
  if (rows == 0) return;
  const int64_t n = source->nDimension == 0 ? 1 : source->size[dim];
  cudaStream_t stream = THCState_getCurrentStream(state);
  const Lines<T> lines = Lines<T>::along(source, dim);
  SortBuffers<Key<T>> buf(rows * n, stream);
  loadAndSort(stream, lines, rows, n, Key<T>(0), buf);
  DeviceBuffer chosen(pick == Pick::Chosen ? rows * sizeof(int64_t) : 0, stream);
  if (pick == Pick::Chosen) {
    modeOfLines<<<static_cast<unsigned>(std::min<int64_t>(rows, 1 << 20)), kModeBlock, 0, stream>>>(
        buf.sortedKeys(), rows, n, chosen.as<int64_t>());
    THCudaCheckLaunch();
  }
  store(stream, buf, lines, rows, n, 1, Key<T>(0), pick, fixed, chosen.as<int64_t>(), Lines<T>::all(values),
        Lines<int64_t>::all(indices));
}

template <typename T>
void kthvalue(THCState *state, TensorOf<T> *values, LongTensor *indices, TensorOf<T> *t, int64_t k, int dim,
              int keepdim) {
  const int64_t n = lineSize<T>("kthvalue", t, dim, 5);
  /* an empty dimension is reported by the reduction's frame */
  THArgCheck(n == 0 || (k >= 1 && k <= n), 4, "kthvalue: k = %lld is out of range 1 to %lld (dimension %d)",
             (long long)k, (long long)n, dim);
  pickAlong<T>(state, "kthvalue", Pick::Fixed, k - 1, 5, values, indices, t, dim, keepdim);
}

template <typename T>
T medianall(THCState *state, TensorOf<T> *t) {
  DeviceGuard guard(device(t));
  const int64_t n = numel(t);
  if (n == 0) THValueError("medianall: the tensor is empty (sizes %s)", shapeOf(t).c_str());
  cudaStream_t stream = THCState_getCurrentStream(state);
  const Lines<T> lines = Lines<T>::all(t);
  SortBuffers<Key<T>> buf(n, stream);
  loadAndSort(stream, lines, 1, n, Key<T>(0), buf);
  DeviceBuffer value(sizeof(T), stream), index(sizeof(int64_t), stream);
  store(stream, buf, lines, 1, n, 1, Key<T>(0), Pick::Median, 0, nullptr, Lines<T>::one(value.as<T>()),
        Lines<int64_t>::one(index.as<int64_t>()));
  T result;
  THCudaCheck(cudaMemcpyAsync(&result, value.get(), sizeof(T), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
  return result;
}

}  // namespace
}  // namespace thc

#define THC_GENERIC_FILE "THC/generic/THCTensorSort.cu"
#include "THC/THCGenerateAllTypes.h"
