// C++ internals shared by TH's implementation files (not part of the C API): owning handles
// for temporaries, and the iteration templates every element-wise op and reduction goes
// through. The per-type tables TH<T> are in THTypes.hpp.
#ifndef TH_TENSOR_HPP
#define TH_TENSOR_HPP

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <tuple>
#include <type_traits>
#include <vector>

#include "TH/THError.hpp"
#include "TH/THTensor.h"
#include "TH/THTypes.hpp"  // TH<T>: the per-type function tables

namespace th {

// Scalar conversion that knows Half. A floating value becomes a narrower integer through
// int64, so it wraps modulo 2^bits (-27.0 to Byte is 229) as in PyTorch, on every path and on
// the GPU alike (Note [Floating to narrow integers] in THC/THCApply.cuh); a direct conversion
// of a value out of the target's range is undefined.
template <typename To, typename From>
inline To convert(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<From, THHalf>) {
    return convert<To>(TH_half2float(v));
  } else if constexpr (std::is_same_v<To, THHalf>) {
    return TH_float2half(static_cast<float>(v));
  } else if constexpr (std::is_integral_v<To> && !std::is_same_v<To, bool> && sizeof(To) < sizeof(int64_t) &&
                       std::is_floating_point_v<From>) {
    return static_cast<To>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

// Owns one reference to a tensor or storage and frees it when the scope ends, also when an
// error unwinds the stack.
struct Freer {
  template <typename X>
  void operator()(X *x) const {
    if (x) thFree(x);
  }
};
template <typename X>
using Owned = std::unique_ptr<X, Freer>;
template <typename X>
Owned<X> own(X *x) {
  return Owned<X>(x);
}

// A non-owning description of a tensor for iteration: element pointer, sizes, strides.
template <typename T>
struct TensorRef {
  T *data;
  int ndim;
  const int64_t *size;
  const int64_t *stride;
};

// One line of a tensor along a dimension.
template <typename T>
struct DimSlice {
  T *data;
  int64_t size;
  int64_t stride;
  T &operator[](int64_t i) const { return data[i * stride]; }
};

template <typename TensorT>
auto ref(TensorT *t) {
  using T = std::remove_pointer_t<decltype(t->storage->data)>;
  return TensorRef<T>{t->storage->data + t->storageOffset, t->nDimension, t->size, t->stride};
}

template <typename T>
int64_t numel(const TensorRef<T> &r) {
  int64_t n = 1;
  for (int d = 0; d < r.ndim; d++) n *= r.size[d];
  return n;
}

template <typename T>
bool isContiguous(const TensorRef<T> &r) {
  int64_t expected = 1;
  for (int d = r.ndim - 1; d >= 0; d--) {
    if (r.size[d] == 1) continue;
    if (r.size[d] == 0) return true;
    if (r.stride[d] != expected) return false;
    expected *= r.size[d];
  }
  return true;
}

namespace detail {

// Note [Pieces, not halves]: a parallel loop splits [0, n) into kPiecesPerThread pieces per
// thread. Each thread first takes the pieces of its own run (thread t of T: pieces [tP/T,
// (t+1)P/T)), in order, then those left in the others' runs. When another process holds a
// core, the thread that shares it runs at half speed: with one static half per thread, the
// join waited for that thread and two threads ran no faster than one; with pieces the other
// thread takes over its share. Owning a run keeps a thread on the same part of the data from
// one call to the next, in its own cache: with one queue of pieces for all, an add of 1e5
// floats on two threads took 9.6-10 us against 7.3 (7.0 for plain halves). A reduction keeps
// one partial result per piece and combines them in piece order, so its result depends on n
// and the thread count only, never on which thread ran which piece.
constexpr int kPiecesPerThread = 4;

// The number of pieces for n elements at the current thread count.
inline int64_t pieceCount(int64_t n) {
  return std::max<int64_t>(1, std::min<int64_t>(n, int64_t(omp_get_max_threads()) * kPiecesPerThread));
}

// Runs body(piece, begin, end) for every piece of [0, n) cut into `pieces` equal parts, on
// the threads the machine can give now (Note [Threads the machine can give] in THGeneral.cpp;
// the caller has decided that the work is worth them). An error raised in a piece stops the
// pieces not yet begun and is rethrown.
template <typename Body>
void parallelPieces(int64_t n, int64_t pieces, Body &&body) {
  const int threads = pieces <= 1 || omp_in_parallel() ? 1 : THUsableThreads();
  if (threads == 1) {
    for (int64_t p = 0; p < pieces; p++) body(p, p * n / pieces, (p + 1) * n / pieces);
    return;
  }
  struct alignas(64) Run {  // a thread's run of pieces: the next one to take; one cache line each
    std::atomic<int64_t> next;
  };
  Run nearby[16];
  std::unique_ptr<Run[]> more(threads > 16 ? new Run[threads] : nullptr);
  Run *runs = more ? more.get() : nearby;
  for (int t = 0; t < threads; t++) runs[t].next.store(t * pieces / threads, std::memory_order_relaxed);
  std::exception_ptr error = nullptr;
  std::atomic<bool> failed{false};
#pragma omp parallel num_threads(threads)
  {
    const int me = omp_get_thread_num();
    for (int k = 0; k < threads; k++) {
      const int t = (me + k) % threads;  // a smaller team than asked for leaves runs to take over
      const int64_t end = (t + 1) * pieces / threads;
      for (int64_t p = runs[t].next.fetch_add(1); p < end && !failed.load(std::memory_order_relaxed);
           p = runs[t].next.fetch_add(1)) {
        try {
          body(p, p * n / pieces, (p + 1) * n / pieces);
        } catch (...) {
          if (!failed.exchange(true)) error = std::current_exception();
        }
      }
    }
  }
  if (error) std::rethrow_exception(error);
}

// Runs body(begin, end) on [0, n), in pieces over the threads when n is above threshold.
template <typename Body>
void parallelFor(int64_t n, int64_t threshold, Body &&body) {
  if (n <= threshold || omp_in_parallel() || THUsableThreads() == 1) {
    body(int64_t(0), n);
    return;
  }
  parallelPieces(n, pieceCount(n), [&](int64_t, int64_t begin, int64_t end) {
    if (begin < end) body(begin, end);
  });
}

// The sum of term(i) over [0, n) in double, in pieces on the threads the machine can give
// when n is above threshold: one partial sum per piece, added in piece order (Note [Pieces,
// not halves]), so the result follows n and THGetNumThreads(), not the machine's load.
template <typename Term>
double parallelSum(int64_t n, int64_t threshold, Term &&term) {
  auto range = [&](int64_t begin, int64_t end) {
    double sum = 0;
    for (int64_t i = begin; i < end; i++) sum += term(i);
    return sum;
  };
  if (n <= threshold || omp_in_parallel() || omp_get_max_threads() == 1) return range(0, n);
  const int64_t pieces = pieceCount(n);
  std::vector<double> partial(pieces);
  parallelPieces(n, pieces, [&](int64_t p, int64_t begin, int64_t end) { partial[p] = range(begin, end); });
  double sum = 0;
  for (double part : partial) sum += part;
  return sum;
}

// Same-shape iteration over N tensors after merging dimensions that are contiguous in
// every tensor. dims are stored innermost last.
template <size_t N>
struct Layout {
  std::vector<int64_t> size;
  std::vector<int64_t> stride[N];
};

// Note [Iteration order]: th::apply may visit dimensions in any order. It walks them
// from the largest stride of the first operand (the result) to the smallest, so a result
// that is a transposed view is still written sequentially; ties go to the next operands.
// applyInOrder keeps row-major order for ops whose result depends on it (random fills).
template <size_t N>
std::vector<int> strideOrder(int ndim, const int64_t *const *strides) {
  std::vector<int> order(ndim);
  for (int d = 0; d < ndim; d++) order[d] = d;
  auto outer = [&](int a, int b) {  // true when a should be outside b
    for (size_t k = 0; k < N; k++)
      if (strides[k][a] != strides[k][b]) return strides[k][a] > strides[k][b];
    return false;
  };
  for (int i = 1; i < ndim; i++)  // insertion sort: stable, and ndim is small
    for (int j = i; j > 0 && outer(order[j], order[j - 1]); j--) std::swap(order[j], order[j - 1]);
  return order;
}

template <size_t N>
Layout<N> collapse(int ndim, const int64_t *size, const int64_t *const *strides, const int *order = nullptr) {
  Layout<N> out;
  for (int i = 0; i < ndim; i++) {
    const int d = order ? order[i] : i;
    if (size[d] == 1) continue;
    if (!out.size.empty()) {
      bool mergeable = true;
      for (size_t k = 0; k < N; k++)
        if (out.stride[k].back() != strides[k][d] * size[d]) mergeable = false;
      if (mergeable) {
        out.size.back() *= size[d];
        for (size_t k = 0; k < N; k++) out.stride[k].back() = strides[k][d];
        continue;
      }
    }
    out.size.push_back(size[d]);
    for (size_t k = 0; k < N; k++) out.stride[k].push_back(strides[k][d]);
  }
  if (out.size.empty()) {
    out.size.push_back(1);
    for (size_t k = 0; k < N; k++) out.stride[k].push_back(0);
  }
  return out;
}

template <typename Op, typename... T, size_t... I>
void stridedRange(const Layout<sizeof...(T)> &L, int64_t begin, int64_t end, Op &op, std::index_sequence<I...>,
                  T *...base) {
  const int nd = (int)L.size.size();
  std::vector<int64_t> index(nd, 0);
  int64_t rem = begin;
  for (int d = nd - 1; d >= 0; d--) {
    index[d] = rem % L.size[d];
    rem /= L.size[d];
  }
  std::tuple<T *...> ptr{base...};
  for (int d = 0; d < nd; d++) ((std::get<I>(ptr) += index[d] * L.stride[I][d]), ...);
  const int64_t inner = L.size[nd - 1];
  const int64_t innerStride[] = {L.stride[I][nd - 1]...};
  int64_t done = begin;
  while (done < end) {
    int64_t count = inner - index[nd - 1];
    if (count > end - done) count = end - done;
    for (int64_t i = 0; i < count; i++) op(std::get<I>(ptr)[i * innerStride[I]]...);
    done += count;
    ((std::get<I>(ptr) += count * innerStride[I]), ...);
    index[nd - 1] += count;
    // carry into outer dimensions
    for (int d = nd - 1; d > 0 && index[d] == L.size[d]; d--) {
      ((std::get<I>(ptr) -= L.size[d] * L.stride[I][d]), ...);
      index[d] = 0;
      index[d - 1]++;
      ((std::get<I>(ptr) += L.stride[I][d - 1]), ...);
    }
  }
}

// When an operand runs against the others in the two innermost dimensions (a transposed
// input added into a contiguous result), square tiles keep both in cache. Work items
// are blocks of rows; each walks its rows tile by tile.
constexpr int64_t kTile = 32;

template <size_t N>
bool needsTiles(const Layout<N> &L) {
  const size_t nd = L.size.size();
  if (nd < 2 || L.size[nd - 1] < kTile || L.size[nd - 2] < kTile) return false;
  for (size_t k = 0; k < N; k++)
    if (L.stride[k][nd - 2] != 0 && L.stride[k][nd - 1] > L.stride[k][nd - 2]) return true;
  return false;
}

template <size_t N>
int64_t tileItems(const Layout<N> &L) {
  const size_t nd = L.size.size();
  int64_t items = (L.size[nd - 2] + kTile - 1) / kTile;
  for (size_t d = 0; d + 2 < nd; d++) items *= L.size[d];
  return items;
}

template <typename Op, typename... T, size_t... I>
void tiledRange(const Layout<sizeof...(T)> &L, int64_t itemBegin, int64_t itemEnd, Op &op, std::index_sequence<I...>,
                T *...base) {
  const int nd = (int)L.size.size();
  const int64_t rows = L.size[nd - 2], cols = L.size[nd - 1];
  const int64_t rowBlocks = (rows + kTile - 1) / kTile;
  const int64_t rowStride[] = {L.stride[I][nd - 2]...};
  const int64_t colStride[] = {L.stride[I][nd - 1]...};
  for (int64_t item = itemBegin; item < itemEnd; item++) {
    std::tuple<T *...> ptr{base...};
    int64_t rem = item / rowBlocks;
    for (int d = nd - 3; d >= 0; d--) {
      const int64_t idx = rem % L.size[d];
      rem /= L.size[d];
      ((std::get<I>(ptr) += idx * L.stride[I][d]), ...);
    }
    const int64_t r0 = (item % rowBlocks) * kTile, r1 = std::min(rows, r0 + kTile);
    for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
      const int64_t c1 = std::min(cols, c0 + kTile);
      for (int64_t i = r0; i < r1; i++)
        for (int64_t j = c0; j < c1; j++) op(std::get<I>(ptr)[i * rowStride[I] + j * colStride[I]]...);
    }
  }
}

// Walks one tensor in its own row-major order: used when shapes differ (same numel).
template <typename T>
struct Cursor {
  T *base;
  std::vector<int64_t> size, stride, index;
  int64_t offset = 0;
  explicit Cursor(const TensorRef<T> &r)
      : base(r.data), size(r.size, r.size + r.ndim), stride(r.stride, r.stride + r.ndim), index(r.ndim, 0) {}
  T &get() { return base[offset]; }
  void next() {
    for (int d = (int)size.size() - 1; d >= 0; d--) {
      offset += stride[d];
      if (++index[d] < size[d]) return;
      offset -= stride[d] * size[d];
      index[d] = 0;
    }
  }
};

template <typename Op, size_t... I, typename... T>
void callSlices(Op &op, const int64_t *dimSize, const int64_t *dimStride, std::index_sequence<I...>, T *...p) {
  op(DimSlice<T>{p, dimSize[I], dimStride[I]}...);
}

}  // namespace detail

namespace detail {

// The one element walker behind apply, applyInOrder and applyDim. Threads are used when
// n exceeds threshold; inOrder keeps row-major order (no reordering, no tiles, no threads).
template <typename Op, typename T0, typename... T>
void walk(Op &op, int64_t threshold, bool inOrder, TensorRef<T0> r0, TensorRef<T>... rs) {
  constexpr size_t N = 1 + sizeof...(T);
  const int64_t n = numel(r0);
  const int64_t counts[] = {numel(rs)...};
  for (int64_t c : counts)
    if (c != n)
      THError("element count mismatch in an element-wise operation: %lld vs %lld", (long long)n, (long long)c);
  if (n == 0) return;
  if (inOrder) threshold = n;
  if (isContiguous(r0) && (isContiguous(rs) && ...)) {
    T0 *p0 = r0.data;
    std::tuple<T *...> ps{rs.data...};
    parallelFor(n, threshold, [&](int64_t begin, int64_t end) {
      std::apply(
          [&](auto *...p) {
            for (int64_t i = begin; i < end; i++) op(p0[i], p[i]...);
          },
          ps);
    });
    return;
  }
  [[maybe_unused]] auto sameAs0 = [&](auto &r) {
    if (r.ndim != r0.ndim) return false;
    for (int d = 0; d < r0.ndim; d++)
      if (r.size[d] != r0.size[d]) return false;
    return true;
  };
  if ((sameAs0(rs) && ...)) {
    const int64_t *strides[N] = {r0.stride, rs.stride...};
    std::vector<int> order;
    if (!inOrder) order = strideOrder<N>(r0.ndim, strides);
    auto L = collapse<N>(r0.ndim, r0.size, strides, inOrder ? nullptr : order.data());
    if (!inOrder && needsTiles(L)) {
      const int64_t items = tileItems(L);
      parallelFor(items, threshold * items / n, [&](int64_t begin, int64_t end) {
        tiledRange(L, begin, end, op, std::make_index_sequence<N>{}, r0.data, rs.data...);
      });
      return;
    }
    parallelFor(n, threshold, [&](int64_t begin, int64_t end) {
      stridedRange(L, begin, end, op, std::make_index_sequence<N>{}, r0.data, rs.data...);
    });
    return;
  }
  Cursor<T0> c0(r0);
  std::tuple<Cursor<T>...> cs{Cursor<T>(rs)...};
  for (int64_t i = 0; i < n; i++) {
    std::apply([&](auto &...c) { op(c0.get(), c.get()...); }, cs);
    c0.next();
    std::apply([&](auto &...c) { (c.next(), ...); }, cs);
  }
}

}  // namespace detail

// Calls op(a0, a1, ...) on matching elements (by reference) of tensors with the same number
// of elements. Same shapes are walked jointly with merged dimensions (see Note [Iteration
// order]), OpenMP above TH_OMP_THRESHOLD elements; all-contiguous operands run as one flat
// loop. Operands of different shapes are each walked in row-major order (torch7's rule).
// The caller checks sizes before it writes anything; apply asserts the counts once more.
template <typename Op, typename T0, typename... T>
void apply(Op &&op, TensorRef<T0> r0, TensorRef<T>... rs) {
  detail::walk(op, TH_OMP_THRESHOLD, false, r0, rs...);
}

// Like apply, on one thread and in row-major order of the first operand's shape: for ops
// whose result depends on the order of the calls (random fills, order of selection).
template <typename Op, typename T0, typename... T>
void applyInOrder(Op &&op, TensorRef<T0> r0, TensorRef<T>... rs) {
  detail::walk(op, 0, true, r0, rs...);
}

// Calls op(DimSlice a0, DimSlice a1, ...) once for every position of the other dimensions.
// The tensors must have equal sizes in every dimension but `dim`, where each keeps its
// own size (a reduction's output has size 1 there). A 0-dim tensor is one slice of size 1.
template <typename Op, typename T0, typename... T>
void applyDim(Op &&op, int dim, TensorRef<T0> r0, TensorRef<T>... rs) {
  constexpr size_t N = 1 + sizeof...(T);
  const int nd = r0.ndim;
  if (nd == 0) {
    op(DimSlice<T0>{r0.data, 1, 1}, DimSlice<T>{rs.data, 1, 1}...);
    return;
  }
  THAssertMsg(dim >= 0 && dim < nd, "dimension %d out of range for a %d-dimensional tensor", dim, nd);
  std::vector<int64_t> sizes[N];
  int64_t dimSize[N], dimStride[N];
  // An operand of size 0 along dim has no element, and maybe no memory (null data): the
  // walk binds its per-slice reference to a stand-in with zero strides instead, and op
  // gets empty slices.
  std::tuple<T0, T...> standIns{};
  const std::vector<int64_t> zeroStrides(nd, 0);
  auto prepare = [&](size_t k, auto &r, auto &standIn) {
    THAssertMsg(r.ndim == nd, "dimension count mismatch: %d vs %d", r.ndim, nd);
    sizes[k].assign(r.size, r.size + nd);
    dimSize[k] = r.size[dim];
    dimStride[k] = r.stride[dim];
    sizes[k][dim] = 1;
    r.size = sizes[k].data();
    if (dimSize[k] == 0) {
      r.data = &standIn;
      r.stride = zeroStrides.data();
    }
  };
  std::apply(
      [&](auto &s0, auto &...ss) {
        prepare(0, r0, s0);
        size_t k = 1;
        ((prepare(k++, rs, ss)), ...);
      },
      standIns);
  for (size_t j = 1; j < N; j++)
    for (int d = 0; d < nd; d++)
      if (sizes[j][d] != sizes[0][d])
        THError("size mismatch in dimension %d: %lld vs %lld", d, (long long)sizes[0][d], (long long)sizes[j][d]);
  auto call = [&](T0 &a0, T &...as) {
    detail::callSlices(op, dimSize, dimStride, std::make_index_sequence<N>{}, &a0, &as...);
  };
  // each slice does dimSize work: threads pay off once slices * dimSize is large
  detail::walk(call, TH_OMP_THRESHOLD / std::max<int64_t>(dimSize[0], 1), false, r0, rs...);
}

namespace detail {
// Eight independent accumulators: the additions of a sum no longer wait on each other,
// which is what bounds a single-accumulator loop (floating-point adds are not reordered
// by the compiler).
template <typename Acc, typename T, typename Step, typename Combine>
Acc reduceFlat(T *data, int64_t n, Acc init, Step &step, Combine &combine) {
  constexpr int kLanes = 8;
  Acc lane[kLanes];
  for (int k = 0; k < kLanes; k++) lane[k] = init;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int k = 0; k < kLanes; k++) lane[k] = step(lane[k], data[i + k]);
  for (; i < n; i++) lane[0] = step(lane[0], data[i]);
  Acc acc = lane[0];
  for (int k = 1; k < kLanes; k++) acc = combine(acc, lane[k]);
  return acc;
}
}  // namespace detail

// Whole-tensor reduction: acc = step(acc, x) over every element, partial results of
// threads merged with combine(acc, acc). Contiguous tensors run as a flat loop.
template <typename Acc, typename T, typename Step, typename Combine>
Acc reduceAll(TensorRef<T> r, Acc init, Step step, Combine combine) {
  const int64_t n = numel(r);
  if (n == 0) return init;
  const int maxThreads = omp_get_max_threads();
  if (n <= TH_OMP_THRESHOLD || maxThreads == 1 || omp_in_parallel()) {
    if (isContiguous(r)) return detail::reduceFlat(r.data, n, init, step, combine);
    Acc acc = init;
    applyInOrder([&](T &x) { acc = step(acc, x); }, r);
    return acc;
  }
  const int64_t pieces = detail::pieceCount(n);
  struct Part {  // not a vector<bool>'s packed bits, which threads cannot write apart
    Acc acc;
  };
  std::vector<Part> partial(pieces, Part{init});  // Note [Pieces, not halves]
  if (isContiguous(r)) {
    detail::parallelPieces(n, pieces, [&](int64_t p, int64_t begin, int64_t end) {
      partial[p].acc = detail::reduceFlat(r.data + begin, end - begin, init, step, combine);
    });
  } else {
    const int64_t *strides[1] = {r.stride};
    auto L = detail::collapse<1>(r.ndim, r.size, strides);
    detail::parallelPieces(n, pieces, [&](int64_t p, int64_t begin, int64_t end) {
      Acc acc = init;
      auto body = [&](T &x) { acc = step(acc, x); };
      detail::stridedRange(L, begin, end, body, std::make_index_sequence<1>{}, r.data);
      partial[p].acc = acc;
    });
  }
  Acc acc = partial[0].acc;
  for (int64_t p = 1; p < pieces; p++) acc = combine(acc, partial[p].acc);
  return acc;
}

}  // namespace th

#endif
