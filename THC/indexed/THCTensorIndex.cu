// Indexing ops on the GPU. Every index they take or return counts from TH_INDEX_BASE, so
// this translation unit is compiled once per base. The kernels and the type-independent
// helpers live here, the C API in generic/THCTensorIndex.cu.
//
// Note [Indices are checked on the device]: an op reads all of its indices (or its mask)
// on the device before its first write. One kernel records the row-major position of the
// first bad entry (atomicMin); the host waits for it and raises TH's error for that entry,
// so a failed call changes nothing and names the same entry as TH. Then the writing kernel
// runs, with no checks left in it.
//
// The writing kernels have one shape each: for every position of a tensor `a` that they
// enumerate, op(a's element, b's element) where b's element is found through an index
// (indexed slices, gather/scatter, take/put) or a running count of a mask. The ops say
// which way the value goes: Load (a = b), Store (b = a), StoreAdd (b += a, atomic),
// StoreValue (b = value).
#include "THC/THCTensorIndex.h"

#include <cub/cub.cuh>

#include <climits>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "TH/THError.hpp"
#include "THC/THCApply.cuh"
#include "THC/THCCachingAllocator.h"

namespace thc {
namespace {

constexpr int64_t kBase = TH_INDEX_BASE;
constexpr unsigned long long kNone = ~0ull;

/* ---- host helpers ---- */

// Device memory for the length of a scope (also when an error leaves it).
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

// A THC tensor freed at the end of the scope; may be null.
template <typename X>
class Temp {
 public:
  Temp(THCState *state, X *t) : state_(state), t_(t) {}
  ~Temp() {
    if (t_) THC<Elem<X>>::free(state_, t_);
  }
  Temp(Temp &&other) noexcept : state_(other.state_), t_(other.t_) { other.t_ = nullptr; }
  Temp(const Temp &) = delete;
  Temp &operator=(const Temp &) = delete;
  X *get() const { return t_; }
  explicit operator bool() const { return t_ != nullptr; }

 private:
  THCState *state_;
  X *t_;
};

template <typename A, typename B>
bool overlaps(const A *a, const B *b) {
  const char *pa = reinterpret_cast<const char *>(a->storage->data);
  const char *pb = reinterpret_cast<const char *>(b->storage->data);
  const ptrdiff_t na = a->storage->size * sizeof(Elem<A>), nb = b->storage->size * sizeof(Elem<B>);
  return na > 0 && nb > 0 && pa < pb + nb && pb < pa + na;
}

// A contiguous copy of x when it shares memory with dst, else null: an op reads its inputs
// while it writes (and resizes) dst, so an input that dst may change is read from a copy.
template <typename X, typename D>
Temp<X> copyIfOverlapping(THCState *state, X *x, const D *dst) {
  return Temp<X>(state, x && overlaps(x, dst) ? THC<Elem<X>>::newClone(state, x) : nullptr);
}

template <typename TensorT>
Elem<TensorT> *dataOf(const TensorT *t) {
  return t->storage->data + t->storageOffset;
}

// Sizes and strides of our choosing over a tensor's data, in the form thc::info and
// thc::fits32 read: the views the kernels walk (a tensor without one dimension, or with
// another tensor's sizes) without making THC tensors for them.
template <typename T>
struct StridedView {
  struct Storage {
    T *data;
  };
  StridedView(T *data, std::vector<int64_t> sizes, std::vector<int64_t> strides)
      : storageValue{data}, sizes_(std::move(sizes)), strides_(std::move(strides)) {
    nDimension = (int)sizes_.size();
    size = sizes_.data();
    stride = strides_.data();
  }
  StridedView(const StridedView &) = delete;
  StridedView &operator=(const StridedView &) = delete;

  Storage storageValue;
  Storage *storage = &storageValue;
  ptrdiff_t storageOffset = 0;
  int nDimension;
  const int64_t *size;
  const int64_t *stride;

 private:
  std::vector<int64_t> sizes_, strides_;
};

std::vector<int64_t> without(const int64_t *values, int n, int dim) {
  std::vector<int64_t> r;
  for (int d = 0; d < n; d++)
    if (d != dim) r.push_back(values[d]);
  return r;
}

// f(uint32_t{}) when every offset and count fits 32-bit index math, else f(uint64_t{}).
template <typename F>
void withIndexType(bool fits32, F &&f) {
  if (fits32)
    f(uint32_t{});
  else
    f(uint64_t{});
}

// The storage offset of t's element number k (row-major).
template <typename TensorT>
int64_t offsetOf(const TensorT *t, int64_t k) {
  int64_t offset = t->storageOffset;
  for (int d = t->nDimension - 1; d >= 0; d--) {
    offset += (k % t->size[d]) * t->stride[d];
    k /= t->size[d];
  }
  return offset;
}

// A value in device memory, on the host (waits for the stream).
template <typename T>
T readBack(cudaStream_t stream, const T *devicePtr) {
  T value;
  THCudaCheck(cudaMemcpyAsync(&value, devicePtr, sizeof(T), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
  return value;
}

template <typename TensorT>
Elem<TensorT> readElement(cudaStream_t stream, const TensorT *t, int64_t k) {
  return readBack(stream, t->storage->data + offsetOf(t, k));
}

template <typename TensorT>
void checkDim(const TensorT *t, int dim, int argNumber) {
  if (dim < 0 || dim >= t->nDimension) {
    if (t->nDimension == 0)
      THIndexError("dimension %d (argument %d) out of range: the tensor has no dimensions", dim, argNumber);
    THIndexError("dimension %d (argument %d) out of range: expected 0 to %d", dim, argNumber, t->nDimension - 1);
  }
}

void checkVector(const THCudaLongTensor *index, int argNumber) {
  THArgCheck(index->nDimension <= 1, argNumber, "index must be a vector, got sizes %s", shapeOf(index).c_str());
}

/* ---- device helpers ---- */

template <typename Index>
__device__ __forceinline__ Index firstIndex() {
  return static_cast<Index>(blockIdx.x) * kBlock + threadIdx.x;
}
template <typename Index>
__device__ __forceinline__ Index gridStep() {
  return static_cast<Index>(gridDim.x) * kBlock;
}

// Note [Sub-word atomics]: the GPU adds atomically 32- and 64-bit integers and floats;
// a byte or a short is added with compare-and-swap on the aligned 32-bit word holding it,
// its neighbours written back unchanged. Storages come from the caching allocator in
// 512-byte blocks, so that word never leaves the block. Integer sums wrap as in TH.
template <typename T>
__device__ void atomicAddValue(T *p, T v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int32_t>) {
    atomicAdd(p, v);
  } else if constexpr (sizeof(T) == 8) {
    static_assert(std::is_integral_v<T>);
    atomicAdd(reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(v));
  } else {
    static_assert(std::is_integral_v<T> && sizeof(T) < 4);
    using U = std::make_unsigned_t<T>;
    const uintptr_t address = reinterpret_cast<uintptr_t>(p);
    unsigned int *word = reinterpret_cast<unsigned int *>(address & ~uintptr_t(3));
    const unsigned int shift = static_cast<unsigned int>(address & 3) * 8;
    const unsigned int mask = ((1u << (8 * sizeof(T))) - 1) << shift;
    unsigned int old = *word, assumed;
    do {
      assumed = old;
      const T current = static_cast<T>(static_cast<U>((assumed & mask) >> shift));
      const unsigned int sum = static_cast<U>(th::math::add(current, v));
      old = atomicCAS(word, assumed, (assumed & ~mask) | (sum << shift));
    } while (old != assumed);
  }
}

struct Load {
  template <typename T>
  __device__ void operator()(T &a, T &b) const {
    a = b;
  }
};
struct Store {
  template <typename T>
  __device__ void operator()(T &a, T &b) const {
    b = a;
  }
};
struct StoreAdd {
  template <typename T>
  __device__ void operator()(T &a, T &b) const {
    atomicAddValue(&b, a);
  }
};
template <typename T>
struct StoreValue {
  T value;
  __device__ void operator()(T &, T &b) const { b = value; }
};

template <typename T>
struct MaskedFill {
  T value;
  __device__ void operator()(T &x, uint8_t &m) const {
    if (m) x = value;
  }
};

/* ---- checking kernels (Note [Indices are checked on the device]) ---- */

// Entries outside [base, size + base), and for flat indices also outside [-size, 0).
__global__ void __launch_bounds__(kBlock) findBadIndexKernel(TensorInfo<int64_t, uint64_t> index, uint64_t n,
                                                             int64_t size, bool flat, unsigned long long *first) {
  for (uint64_t i = firstIndex<uint64_t>(); i < n; i += gridStep<uint64_t>()) {
    const int64_t v = index.data[index.offset(i)];
    const bool ok = (v >= kBase && v - kBase < size) || (flat && v < 0 && v >= -size);
    if (!ok) atomicMin(first, static_cast<unsigned long long>(i));
  }
}

// The row-major position of index's first entry out of range, or -1.
int64_t firstBadIndex(cudaStream_t stream, THCudaLongTensor *index, int64_t size, bool flat) {
  const int64_t n = numel(index);
  if (n == 0) return -1;
  DeviceBuffer slot(sizeof(unsigned long long), stream);
  THCudaCheck(cudaMemsetAsync(slot.as<void>(), 0xff, sizeof(unsigned long long), stream));
  findBadIndexKernel<<<gridFor(n), kBlock, 0, stream>>>(info<uint64_t>(index), n, size, flat,
                                                        slot.as<unsigned long long>());
  THCudaCheckLaunch();
  const unsigned long long first = readBack(stream, slot.as<unsigned long long>());
  return first == kNone ? -1 : static_cast<int64_t>(first);
}

// Raises for an entry outside [TH_INDEX_BASE, size + TH_INDEX_BASE), as the caller wrote it.
void checkIndices(cudaStream_t stream, THCudaLongTensor *index, int64_t size, int dim) {
  const int64_t bad = firstBadIndex(stream, index, size, false);
  if (bad >= 0)
    THIndexError("index %lld is out of range for dimension %d of size %lld", (long long)readElement(stream, index, bad),
                 dim, (long long)size);
}

// take/put: a flat index counts from TH_INDEX_BASE, or from the end when negative.
void checkFlatIndices(cudaStream_t stream, THCudaLongTensor *index, int64_t n) {
  const int64_t bad = firstBadIndex(stream, index, n, true);
  if (bad >= 0)
    THIndexError("index %lld is out of range for a tensor of %lld elements", (long long)readElement(stream, index, bad),
                 (long long)n);
}

// flags[i] = (mask[i] == 1) in row-major order when flags is not null; first gets the
// position of the first entry that is neither 0 nor 1.
__global__ void __launch_bounds__(kBlock)
    maskFlagsKernel(TensorInfo<uint8_t, uint64_t> mask, uint64_t n, int64_t *flags, unsigned long long *first) {
  for (uint64_t i = firstIndex<uint64_t>(); i < n; i += gridStep<uint64_t>()) {
    const uint8_t m = mask.data[mask.offset(i)];
    if (m > 1) atomicMin(first, static_cast<unsigned long long>(i));
    if (flags) flags[i] = m == 1;
  }
}

// data = its inclusive prefix sum (CUB); data has n > 0 entries.
void inclusiveSum(cudaStream_t stream, int64_t *data, int64_t n) {
  size_t bytes = 0;
  THCudaCheck(cub::DeviceScan::InclusiveSum(nullptr, bytes, data, data, n, stream));
  DeviceBuffer temp(bytes > 0 ? bytes : 1, stream);
  THCudaCheck(cub::DeviceScan::InclusiveSum(temp.as<void>(), bytes, data, data, n, stream));
}

// Raises TH's error unless mask holds only 0 and 1. With scan (numel(mask) entries), also
// writes there the running count of ones in row-major order (inclusive) and returns it.
int64_t checkMask(cudaStream_t stream, THCudaByteTensor *mask, int64_t *scan) {
  const int64_t n = numel(mask);
  if (n == 0) return 0;
  DeviceBuffer slot(sizeof(unsigned long long), stream);
  THCudaCheck(cudaMemsetAsync(slot.as<void>(), 0xff, sizeof(unsigned long long), stream));
  maskFlagsKernel<<<gridFor(n), kBlock, 0, stream>>>(info<uint64_t>(mask), n, scan, slot.as<unsigned long long>());
  THCudaCheckLaunch();
  if (scan) inclusiveSum(stream, scan, n);
  const unsigned long long first = readBack(stream, slot.as<unsigned long long>());
  if (first != kNone)
    THValueError("a mask can hold only 0 and 1, found %d", (int)readElement(stream, mask, (int64_t)first));
  return scan ? readBack(stream, scan + n - 1) : 0;
}

template <typename TensorT>
void checkMaskSize(const TensorT *t, const THCudaByteTensor *mask, int maskArg) {
  THArgCheck(numel(mask) == numel(t), maskArg, "mask sizes %s have %lld elements but the tensor sizes %s have %lld",
             shapeOf(mask).c_str(), (long long)numel(mask), shapeOf(t).c_str(), (long long)numel(t));
}

/* ---- indexSelect, indexCopy, indexAdd, indexFill ---- */

// Element s of slice c of a and element s of slice index[c] of b, for every c and s; the
// slices are a and b without dimension dim (their steps are the strides of dim). When
// `last` is given, only the last c naming each slice of b acts (last[k] = that c + 1).
template <typename Op, typename T, typename Index>
__global__ void __launch_bounds__(kBlock)
    indexedSlicesKernel(Op op, TensorInfo<T, Index> a, Index aStep, TensorInfo<T, Index> b, Index bStep,
                        const int64_t *index, int64_t indexStride, Index indices, Index sliceSize, bool indexInner,
                        const unsigned long long *last) {
  const Index n = indices * sliceSize;
  for (Index i = firstIndex<Index>(); i < n; i += gridStep<Index>()) {
    Index c, s;
    if (indexInner) {
      c = i % indices;
      s = i / indices;
    } else {
      c = i / sliceSize;
      s = i % sliceSize;
    }
    const Index k = static_cast<Index>(index[c * indexStride] - kBase);
    if (last && last[k] != static_cast<unsigned long long>(c) + 1) continue;
    op(a.data[a.offset(s) + c * aStep], b.data[b.offset(s) + k * bStep]);
  }
}

__global__ void __launch_bounds__(kBlock)
    lastOccurrenceKernel(const int64_t *index, int64_t indexStride, uint64_t n, unsigned long long *last) {
  for (uint64_t c = firstIndex<uint64_t>(); c < n; c += gridStep<uint64_t>())
    atomicMax(&last[index[c * indexStride] - kBase], static_cast<unsigned long long>(c) + 1);
}

// a and b have the same sizes outside dim, a has numel(index) entries in dim. Without a
// (indexFill), the op gets b's first element in its place.
template <typename Op, typename TensorT>
void indexedSlices(cudaStream_t stream, Op op, int dim, THCudaLongTensor *index, TensorT *a, TensorT *b,
                   const unsigned long long *last) {
  using T = Elem<TensorT>;
  const int64_t indices = numel(index);
  int64_t sliceSize = 1;
  for (int d = 0; d < b->nDimension; d++)
    if (d != dim) sliceSize *= b->size[d];
  if (indices == 0 || sliceSize == 0) return;
  const std::vector<int64_t> sliceSizes = without(b->size, b->nDimension, dim);
  StridedView<T> aSlices(a ? dataOf(a) : dataOf(b), sliceSizes,
                         a ? without(a->stride, a->nDimension, dim) : std::vector<int64_t>(sliceSizes.size(), 0));
  StridedView<T> bSlices(dataOf(b), sliceSizes, without(b->stride, b->nDimension, dim));
  const int64_t *indexData = dataOf(index);
  const int64_t indexStride = index->nDimension == 1 ? index->stride[0] : 0;
  const int64_t total = indices * sliceSize;
  // Neighbouring threads take neighbouring index entries when a is contiguous along dim
  // (a row of a is then read or written in one sweep), else neighbouring slice elements.
  const bool indexInner = (a ? a : b)->stride[dim] == 1 && sliceSize > 1;
  withIndexType((!a || fits32(a)) && fits32(b) && total <= INT32_MAX, [&](auto tag) {
    using Index = decltype(tag);
    indexedSlicesKernel<<<gridFor(total), kBlock, 0, stream>>>(
        op, info<Index>(&aSlices), static_cast<Index>(a ? a->stride[dim] : 0), info<Index>(&bSlices),
        static_cast<Index>(b->stride[dim]), indexData, indexStride, static_cast<Index>(indices),
        static_cast<Index>(sliceSize), indexInner, last);
  });
  THCudaCheckLaunch();
}

template <typename TensorT>
void indexSelect(THCState *state, TensorT *r, TensorT *src, int dim, THCudaLongTensor *index) {
  DeviceGuard guard(commonDevice("indexSelect", r, src, index));
  cudaStream_t stream = THCState_getCurrentStream(state);
  checkDim(src, dim, 3);
  checkVector(index, 4);
  checkIndices(stream, index, src->size[dim], dim);
  auto srcClone = copyIfOverlapping(state, src, r);
  if (srcClone) src = srcClone.get();
  auto indexClone = copyIfOverlapping(state, index, r);
  if (indexClone) index = indexClone.get();
  std::vector<int64_t> size(src->size, src->size + src->nDimension);
  size[dim] = numel(index);
  THC<Elem<TensorT>>::resizeNd(state, r, src->nDimension, size.data(), nullptr);
  indexedSlices(stream, Load{}, dim, index, r, src, nullptr);
}

// src must have t's sizes except in dim, where it has one entry per index.
template <typename TensorT>
void checkIndexSource(const TensorT *t, int dim, const THCudaLongTensor *index, const TensorT *src) {
  bool ok = src->nDimension == t->nDimension && src->size[dim] == numel(index);
  for (int d = 0; ok && d < t->nDimension; d++) ok = d == dim || src->size[d] == t->size[d];
  THArgCheck(ok, 4,
             "source sizes %s do not match the destination sizes %s with %lld (the number of indices) in dimension %d",
             shapeOf(src).c_str(), shapeOf(t).c_str(), (long long)numel(index), dim);
}

// indexCopy (add false) and indexAdd (add true).
template <typename TensorT>
void indexStore(THCState *state, const char *name, bool add, TensorT *t, int dim, THCudaLongTensor *index,
                TensorT *src) {
  DeviceGuard guard(commonDevice(name, t, index, src));
  cudaStream_t stream = THCState_getCurrentStream(state);
  checkDim(t, dim, 2);
  checkVector(index, 3);
  checkIndexSource(t, dim, index, src);
  checkIndices(stream, index, t->size[dim], dim);
  const int64_t n = numel(index);
  if (n == 0) return;
  auto srcClone = copyIfOverlapping(state, src, t);
  if (srcClone) src = srcClone.get();
  auto indexClone = copyIfOverlapping(state, index, t);
  if (indexClone) index = indexClone.get();
  if (add) {
    indexedSlices(stream, StoreAdd{}, dim, index, src, t, nullptr);
    return;
  }
  // later entries win, as in TH: slice k of t takes the source slice of the last entry naming k
  DeviceBuffer last(t->size[dim] * sizeof(unsigned long long), stream);
  THCudaCheck(cudaMemsetAsync(last.as<void>(), 0, t->size[dim] * sizeof(unsigned long long), stream));
  lastOccurrenceKernel<<<gridFor(n), kBlock, 0, stream>>>(dataOf(index), index->nDimension == 1 ? index->stride[0] : 0,
                                                          n, last.as<unsigned long long>());
  THCudaCheckLaunch();
  indexedSlices(stream, Store{}, dim, index, src, t, last.as<unsigned long long>());
}

template <typename TensorT>
void indexFill(THCState *state, TensorT *t, int dim, THCudaLongTensor *index, Elem<TensorT> value) {
  DeviceGuard guard(commonDevice("indexFill", t, index));
  cudaStream_t stream = THCState_getCurrentStream(state);
  checkDim(t, dim, 2);
  checkVector(index, 3);
  checkIndices(stream, index, t->size[dim], dim);
  auto indexClone = copyIfOverlapping(state, index, t);
  if (indexClone) index = indexClone.get();
  indexedSlices(stream, StoreValue<Elem<TensorT>>{value}, dim, index, (TensorT *)nullptr, t, nullptr);
}

/* ---- gather, scatter, scatterAdd, scatterFill ---- */

// For every position p of index: op(a[p], b[p with p[dim] = index[p]]); a and b are at
// least index's sizes (b outside dim). Without a (scatterFill), the op gets b's first
// element in its place.
template <typename Op, typename T, typename Index>
__global__ void __launch_bounds__(kBlock) gatherScatterKernel(Op op, TensorInfo<T, Index> a, TensorInfo<T, Index> b,
                                                              Index bStep, TensorInfo<int64_t, Index> index, Index n) {
  for (Index p = firstIndex<Index>(); p < n; p += gridStep<Index>()) {
    const Index k = static_cast<Index>(index.data[index.offset(p)] - kBase);
    op(a.data[a.offset(p)], b.data[b.offset(p) + k * bStep]);
  }
}

template <typename Op, typename TensorT>
void gatherScatter(cudaStream_t stream, Op op, int dim, THCudaLongTensor *index, TensorT *a, TensorT *b) {
  using T = Elem<TensorT>;
  const int64_t n = numel(index);
  if (n == 0) return;
  const std::vector<int64_t> sizes(index->size, index->size + index->nDimension);
  StridedView<T> aView(
      a ? dataOf(a) : dataOf(b), sizes,
      a ? std::vector<int64_t>(a->stride, a->stride + a->nDimension) : std::vector<int64_t>(sizes.size(), 0));
  std::vector<int64_t> bStrides(b->stride, b->stride + b->nDimension);
  bStrides[dim] = 0;  // the kernel adds index[p] * b's stride of dim
  StridedView<T> bView(dataOf(b), sizes, bStrides);
  withIndexType((!a || fits32(a)) && fits32(b) && fits32(index), [&](auto tag) {
    using Index = decltype(tag);
    gatherScatterKernel<<<gridFor(n), kBlock, 0, stream>>>(op, info<Index>(&aView), info<Index>(&bView),
                                                           static_cast<Index>(b->stride[dim]), info<Index>(index),
                                                           static_cast<Index>(n));
  });
  THCudaCheckLaunch();
}

template <typename TensorT>
void gather(THCState *state, TensorT *r, TensorT *src, int dim, THCudaLongTensor *index) {
  DeviceGuard guard(commonDevice("gather", r, src, index));
  cudaStream_t stream = THCState_getCurrentStream(state);
  checkDim(src, dim, 3);
  bool ok = index->nDimension == src->nDimension;
  for (int d = 0; ok && d < src->nDimension; d++) ok = d == dim || index->size[d] <= src->size[d];
  THArgCheck(ok, 4,
             "index sizes %s must have as many dimensions as the source sizes %s and be no larger outside dimension %d",
             shapeOf(index).c_str(), shapeOf(src).c_str(), dim);
  checkIndices(stream, index, src->size[dim], dim);
  auto srcClone = copyIfOverlapping(state, src, r);
  if (srcClone) src = srcClone.get();
  auto indexClone = copyIfOverlapping(state, index, r);
  if (indexClone) index = indexClone.get();
  THC<Elem<TensorT>>::resizeNd(state, r, index->nDimension, index->size, nullptr);
  gatherScatter(stream, Load{}, dim, index, r, src);
}

// The scatter family: for every position p of index, op(src[p], t[p with p[dim] =
// index[p]]); src is null for scatterFill.
template <typename Op, typename TensorT>
void scatterWith(THCState *state, const char *name, Op op, TensorT *t, int dim, THCudaLongTensor *index, TensorT *src) {
  DeviceGuard guard(commonDevice(name, t, index, src));
  cudaStream_t stream = THCState_getCurrentStream(state);
  checkDim(t, dim, 2);
  bool ok = index->nDimension == t->nDimension;
  for (int d = 0; ok && d < t->nDimension; d++) ok = d == dim || index->size[d] <= t->size[d];
  THArgCheck(
      ok, 3,
      "index sizes %s must have as many dimensions as the destination sizes %s and be no larger outside dimension %d",
      shapeOf(index).c_str(), shapeOf(t).c_str(), dim);
  if (src) {
    ok = src->nDimension == index->nDimension;
    for (int d = 0; ok && d < src->nDimension; d++) ok = index->size[d] <= src->size[d];
    THArgCheck(ok, 4, "source sizes %s must have as many dimensions as the index sizes %s and be no smaller",
               shapeOf(src).c_str(), shapeOf(index).c_str());
  }
  checkIndices(stream, index, t->size[dim], dim);
  auto indexClone = copyIfOverlapping(state, index, t);
  if (indexClone) index = indexClone.get();
  auto srcClone = copyIfOverlapping(state, src, t);
  if (srcClone) src = srcClone.get();
  gatherScatter(stream, op, dim, index, src, t);
}

/* ---- maskedFill, maskedCopy, maskedSelect, nonzero ---- */

// For every position p of a where the running count of ones goes up (scan is inclusive):
// op(a[p], b.flat[count before p]).
template <typename Op, typename T, typename Index>
__global__ void __launch_bounds__(kBlock)
    maskedKernel(Op op, TensorInfo<T, Index> a, TensorInfo<T, Index> b, const int64_t *scan, Index n) {
  for (Index p = firstIndex<Index>(); p < n; p += gridStep<Index>()) {
    const int64_t before = p > 0 ? scan[p - 1] : 0;
    if (scan[p] != before) op(a.data[a.offset(p)], b.data[b.offset(static_cast<Index>(before))]);
  }
}

template <typename Op, typename TensorT>
void masked(cudaStream_t stream, Op op, const int64_t *scan, TensorT *a, TensorT *b) {
  const int64_t n = numel(a);
  if (n == 0) return;
  withIndexType(fits32(a) && fits32(b), [&](auto tag) {
    using Index = decltype(tag);
    maskedKernel<<<gridFor(n), kBlock, 0, stream>>>(op, info<Index>(a), info<Index>(b), scan, static_cast<Index>(n));
  });
  THCudaCheckLaunch();
}

template <typename TensorT>
void maskedFill(THCState *state, TensorT *t, THCudaByteTensor *mask, Elem<TensorT> value) {
  DeviceGuard guard(commonDevice("maskedFill", t, mask));
  cudaStream_t stream = THCState_getCurrentStream(state);
  checkMaskSize(t, mask, 2);
  checkMask(stream, mask, nullptr);
  auto maskClone = copyIfOverlapping(state, mask, t);
  if (maskClone) mask = maskClone.get();
  pointwise(state, MaskedFill<Elem<TensorT>>{value}, t, mask);
}

template <typename TensorT>
void maskedCopy(THCState *state, TensorT *t, THCudaByteTensor *mask, TensorT *src) {
  DeviceGuard guard(commonDevice("maskedCopy", t, mask, src));
  cudaStream_t stream = THCState_getCurrentStream(state);
  checkMaskSize(t, mask, 2);
  const int64_t n = numel(mask);
  DeviceBuffer scan(n * sizeof(int64_t), stream);
  const int64_t ones = checkMask(stream, mask, scan.as<int64_t>());
  THArgCheck(numel(src) >= ones, 3, "source has %lld elements but the mask selects %lld", (long long)numel(src),
             (long long)ones);
  auto srcClone = copyIfOverlapping(state, src, t);
  if (srcClone) src = srcClone.get();
  masked(stream, Load{}, scan.as<int64_t>(), t, src);
}

template <typename TensorT>
void maskedSelect(THCState *state, TensorT *r, TensorT *src, THCudaByteTensor *mask) {
  DeviceGuard guard(commonDevice("maskedSelect", r, src, mask));
  cudaStream_t stream = THCState_getCurrentStream(state);
  checkMaskSize(src, mask, 3);
  const int64_t n = numel(mask);
  DeviceBuffer scan(n * sizeof(int64_t), stream);
  int64_t ones = checkMask(stream, mask, scan.as<int64_t>());
  auto srcClone = copyIfOverlapping(state, src, r);
  if (srcClone) src = srcClone.get();
  THC<Elem<TensorT>>::resizeNd(state, r, 1, &ones, nullptr);
  masked(stream, Store{}, scan.as<int64_t>(), src, r);
}

template <typename T>
__global__ void __launch_bounds__(kBlock) nonzeroFlagsKernel(TensorInfo<T, uint64_t> t, uint64_t n, int64_t *flags) {
  for (uint64_t i = firstIndex<uint64_t>(); i < n; i += gridStep<uint64_t>()) flags[i] = t.data[t.offset(i)] != T(0);
}

struct Sizes {
  int64_t size[kMaxDims];
  int nd;
};

// Row count-before-i of r gets the coordinates of element i (counted from the base).
__global__ void __launch_bounds__(kBlock) nonzeroPositionsKernel(const int64_t *scan, uint64_t n, Sizes sizes,
                                                                 int64_t *r, int64_t rowStride, int64_t colStride) {
  for (uint64_t i = firstIndex<uint64_t>(); i < n; i += gridStep<uint64_t>()) {
    const int64_t before = i > 0 ? scan[i - 1] : 0;
    if (scan[i] == before) continue;
    int64_t *row = r + before * rowStride;
    uint64_t k = i;
    for (int d = sizes.nd - 1; d >= 0; d--) {
      const uint64_t size = static_cast<uint64_t>(sizes.size[d]);
      row[d * colStride] = static_cast<int64_t>(k % size) + kBase;
      k /= size;
    }
  }
}

template <typename TensorT>
void nonzero(THCState *state, THCudaLongTensor *r, TensorT *t) {
  DeviceGuard guard(commonDevice("nonzero", r, t));
  cudaStream_t stream = THCState_getCurrentStream(state);
  const int nd = t->nDimension;
  if (nd > kMaxDims)
    THError("nonzero: tensors of more than %d dimensions are not supported on the GPU (got %d)", kMaxDims, nd);
  const int64_t n = numel(t);
  Sizes sizes;  // taken now: r may be t
  sizes.nd = nd;
  for (int d = 0; d < nd; d++) sizes.size[d] = t->size[d];
  // The scan holds all that is read of t: r may share its memory.
  DeviceBuffer scan(n * sizeof(int64_t), stream);
  int64_t count = 0;
  if (n > 0) {
    nonzeroFlagsKernel<<<gridFor(n), kBlock, 0, stream>>>(info<uint64_t>(t), n, scan.as<int64_t>());
    THCudaCheckLaunch();
    inclusiveSum(stream, scan.as<int64_t>(), n);
    count = readBack(stream, scan.as<int64_t>() + n - 1);
  }
  const int64_t size[2] = {count, nd};
  THC<int64_t>::resizeNd(state, r, 2, size, nullptr);
  if (count == 0 || nd == 0) return;
  nonzeroPositionsKernel<<<gridFor(n), kBlock, 0, stream>>>(scan.as<int64_t>(), n, sizes, dataOf(r), r->stride[0],
                                                            r->stride[1]);
  THCudaCheckLaunch();
}

/* ---- take, put ---- */

// For every position p of index: op(a[p], b.flat[index[p]]) (negative entries count from
// b's end); a has as many elements as index.
template <typename Op, typename T, typename Index>
__global__ void __launch_bounds__(kBlock) flatKernel(Op op, TensorInfo<T, Index> a, TensorInfo<T, Index> b,
                                                     int64_t bNumel, TensorInfo<int64_t, Index> index, Index n) {
  for (Index p = firstIndex<Index>(); p < n; p += gridStep<Index>()) {
    const int64_t v = index.data[index.offset(p)];
    const Index k = static_cast<Index>(v < 0 ? v + bNumel : v - kBase);
    op(a.data[a.offset(p)], b.data[b.offset(k)]);
  }
}

template <typename Op, typename TensorT>
void flat(cudaStream_t stream, Op op, THCudaLongTensor *index, TensorT *a, TensorT *b) {
  const int64_t n = numel(index);
  if (n == 0) return;
  withIndexType(fits32(a) && fits32(b) && fits32(index), [&](auto tag) {
    using Index = decltype(tag);
    flatKernel<<<gridFor(n), kBlock, 0, stream>>>(op, info<Index>(a), info<Index>(b), numel(b), info<Index>(index),
                                                  static_cast<Index>(n));
  });
  THCudaCheckLaunch();
}

template <typename TensorT>
void take(THCState *state, TensorT *r, TensorT *src, THCudaLongTensor *index) {
  DeviceGuard guard(commonDevice("take", r, src, index));
  cudaStream_t stream = THCState_getCurrentStream(state);
  checkFlatIndices(stream, index, numel(src));
  auto srcClone = copyIfOverlapping(state, src, r);
  if (srcClone) src = srcClone.get();
  auto indexClone = copyIfOverlapping(state, index, r);
  if (indexClone) index = indexClone.get();
  THC<Elem<TensorT>>::resizeNd(state, r, index->nDimension, index->size, nullptr);
  flat(stream, Load{}, index, r, src);
}

template <typename TensorT>
void put(THCState *state, TensorT *t, THCudaLongTensor *index, TensorT *src, int accumulate) {
  DeviceGuard guard(commonDevice("put", t, index, src));
  cudaStream_t stream = THCState_getCurrentStream(state);
  THArgCheck(numel(index) == numel(src), 3, "source sizes %s have %lld elements but the index sizes %s have %lld",
             shapeOf(src).c_str(), (long long)numel(src), shapeOf(index).c_str(), (long long)numel(index));
  checkFlatIndices(stream, index, numel(t));
  auto indexClone = copyIfOverlapping(state, index, t);
  if (indexClone) index = indexClone.get();
  auto srcClone = copyIfOverlapping(state, src, t);
  if (srcClone) src = srcClone.get();
  if (accumulate)
    flat(stream, StoreAdd{}, index, src, t);
  else
    flat(stream, Store{}, index, src, t);
}

}  // namespace
}  // namespace thc

#define THC_GENERIC_FILE "THC/generic/THCTensorIndex.cu"
#include "THC/THCGenerateAllTypes.h"
