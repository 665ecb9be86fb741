// Indexing ops. Every index they take or return counts from TH_INDEX_BASE, so this
// translation unit is compiled once per base. Type-independent helpers live here, the
// ops themselves in generic/THTensorIndex.cpp.
#include "TH/THTensorIndex.h"

#include <cstring>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "TH/THTensor.hpp"

namespace {

template <typename TensorT>
using Elem = std::remove_pointer_t<decltype(std::declval<TensorT *>()->storage->data)>;

// "[2, 3]", owned by the caller (sizeDesc's buffer would be shared by two calls in one message).
template <typename TensorT>
std::string sizesOf(const TensorT *t) {
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

template <typename TensorT>
void checkDim(const TensorT *t, int dim, int argNumber) {
  if (dim < 0 || dim >= t->nDimension) {
    if (t->nDimension == 0)
      THIndexError("dimension %d (argument %d) out of range: the tensor has no dimensions", dim, argNumber);
    THIndexError("dimension %d (argument %d) out of range: expected 0 to %d", dim, argNumber, t->nDimension - 1);
  }
}

void checkVector(const THLongTensor *index, int argNumber) {
  THArgCheck(index->nDimension <= 1, argNumber, "index must be a vector, got sizes %s", sizesOf(index).c_str());
}

struct BadIndex {
  bool found;
  int64_t value;
};

// The first entry of index (row-major) for which valid(entry) is false, if any.
template <typename Valid>
BadIndex findBadIndex(THLongTensor *index, Valid valid) {
  return th::reduceAll(
      th::ref(index), BadIndex{false, 0},
      [valid](BadIndex acc, int64_t v) {
        return acc.found || valid(v) ? acc : BadIndex{true, v};
      },
      [](BadIndex a, BadIndex b) { return a.found ? a : b; });
}

// Raises for an entry outside [TH_INDEX_BASE, size + TH_INDEX_BASE), as the caller wrote it.
void checkIndices(THLongTensor *index, int64_t size, int dim) {
  BadIndex bad = findBadIndex(index, [size](int64_t v) { return v >= TH_INDEX_BASE && v < size + TH_INDEX_BASE; });
  if (bad.found)
    THIndexError("index %lld is out of range for dimension %d of size %lld", (long long)bad.value, dim,
                 (long long)size);
}

// The checked entries of a vector index, counted from 0 (on one thread, in order: the
// entries are appended).
std::vector<int64_t> readIndices(THLongTensor *index, int64_t size, int dim) {
  checkIndices(index, size, dim);
  std::vector<int64_t> idx;
  idx.reserve(th::numel(th::ref(index)));
  th::applyInOrder([&](int64_t &v) { idx.push_back(v - TH_INDEX_BASE); }, th::ref(index));
  return idx;
}

// take/put: a flat index counts from TH_INDEX_BASE, or from the end when negative.
inline int64_t flatIndex(int64_t v, int64_t n) { return v < 0 ? v + n : v - TH_INDEX_BASE; }

void checkFlatIndices(THLongTensor *index, int64_t n) {
  BadIndex bad = findBadIndex(index, [n](int64_t v) {
    int64_t k = flatIndex(v, n);
    return k >= 0 && k < n;
  });
  if (bad.found)
    THIndexError("index %lld is out of range for a tensor of %lld elements", (long long)bad.value, (long long)n);
}

// Element k (row-major) of a tensor, found through its strides.
template <typename T>
T &flatElement(const th::TensorRef<T> &t, bool contiguous, int64_t k) {
  if (contiguous) return t.data[k];
  int64_t offset = 0;
  for (int d = t.ndim - 1; d >= 0; d--) {
    offset += (k % t.size[d]) * t.stride[d];
    k /= t.size[d];
  }
  return t.data[offset];
}

// Number of ones in mask; raises when an entry is neither 0 nor 1 (torch7's rule).
int64_t countMask(THByteTensor *mask) {
  struct Count {
    int64_t ones;
    int bad;  // the first entry that is not 0 or 1, or -1
  };
  Count c = th::reduceAll(
      th::ref(mask), Count{0, -1},
      [](Count acc, uint8_t m) {
        if (m > 1 && acc.bad < 0) acc.bad = m;
        acc.ones += m == 1;
        return acc;
      },
      [](Count a, Count b) {
        return Count{a.ones + b.ones, a.bad >= 0 ? a.bad : b.bad};
      });
  if (c.bad >= 0) THValueError("a mask can hold only 0 and 1, found %d", c.bad);
  return c.ones;
}

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
th::Owned<X> copyIfOverlapping(X *x, const D *dst) {
  if (!overlaps(x, dst)) return nullptr;
  using T = Elem<X>;
  auto copy = th::own(th::TH<T>::newWithSize(x->nDimension, x->size, nullptr));
  th::apply([](T &d, T &s) { d = s; }, th::ref(copy.get()), th::ref(x));
  return copy;
}

// Calls op(a, b) on matching elements in row-major order on one thread: for ops whose
// result depends on that order (running counters, repeated indices). Equal element
// counts are checked by the caller.
template <typename Op, typename A, typename B>
void serialApply(Op &&op, th::TensorRef<A> a, th::TensorRef<B> b) {
  const int64_t n = th::numel(a);
  if (th::isContiguous(a) && th::isContiguous(b)) {
    for (int64_t i = 0; i < n; i++) op(a.data[i], b.data[i]);
    return;
  }
  th::detail::Cursor<A> ca(a);
  th::detail::Cursor<B> cb(b);
  for (int64_t i = 0; i < n; i++) {
    op(ca.get(), cb.get());
    ca.next();
    cb.next();
  }
}

// t without dimension dim; at(i) is the view t.select(dim, i).
template <typename T>
class Selector {
 public:
  Selector(const th::TensorRef<T> &t, int dim) : data_(t.data), step_(t.stride[dim]) {
    for (int d = 0; d < t.ndim; d++) {
      if (d == dim) continue;
      size_.push_back(t.size[d]);
      stride_.push_back(t.stride[d]);
    }
  }
  th::TensorRef<T> at(int64_t i) const { return {data_ + i * step_, (int)size_.size(), size_.data(), stride_.data()}; }

 private:
  T *data_;
  int64_t step_;
  std::vector<int64_t> size_, stride_;
};

// Slices below this many elements are walked as lines along dim (one applyDim) rather
// than one apply per slice, whose setup would cost more than the copy.
constexpr int64_t kSmallSlice = 64;

// For i in [0, idx.size()), calls op on the matching elements of dst.select(dim, p) and
// src.select(dim, q) (src is optional), where p = idx[i], q = i when indexDst, and the
// other way round otherwise. Indices run in order within each line, so repeated
// destination indices resolve in index order (indexCopy) or accumulate (indexAdd) without
// races: threads split the other dimensions, never the index list.
template <typename Op, typename T, typename... S>
void forIndexedSlices(Op &&op, int dim, const std::vector<int64_t> &idx, bool indexDst, th::TensorRef<T> dst,
                      th::TensorRef<S>... src) {
  const int64_t n = (int64_t)idx.size();
  const int64_t sliceNumel = dst.size[dim] > 0 ? th::numel(dst) / dst.size[dim] : 0;
  if (n == 0 || sliceNumel == 0) return;
  auto dstPos = [&](int64_t i) { return indexDst ? idx[i] : i; };
  auto srcPos = [&](int64_t i) { return indexDst ? i : idx[i]; };
  if (dst.stride[dim] != 1 && sliceNumel >= kSmallSlice) {
    Selector<T> dstSlices(dst, dim);
    std::tuple<Selector<S>...> srcSlices{Selector<S>(src, dim)...};
    for (int64_t i = 0; i < n; i++)
      std::apply([&](auto &...s) { th::apply(op, dstSlices.at(dstPos(i)), s.at(srcPos(i))...); }, srcSlices);
  } else {
    th::applyDim(
        [&](th::DimSlice<T> d, th::DimSlice<S>... s) {
          for (int64_t i = 0; i < n; i++) op(d[dstPos(i)], s[srcPos(i)]...);
        },
        dim, dst, src...);
  }
}

// A view of t with sizes size (no larger than t's) and t's strides.
template <typename T>
th::TensorRef<T> withSizes(th::TensorRef<T> t, const std::vector<int64_t> &size) {
  t.size = size.data();
  return t;
}

}  // namespace

#define TH_GENERIC_FILE "TH/generic/THTensorIndex.cpp"
#include "TH/THGenerateAllTypes.h"
