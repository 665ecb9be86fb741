// THC's indexing ops (indexSelect ... put) against TH's on the same inputs: every
// arithmetic type, sources and results contiguous, transposed, narrowed (sources also
// expanded), dimensions 0 and 1 (and every dimension of a 3-d tensor), strided index
// tensors, repeated indices (indexCopy keeps the last; the accumulating ops add up, exactly
// for integers and within 1e-5 for floats), empty and 0-dim tensors, heavy contention on
// one element (the compare-and-swap path of bytes and shorts), grids past 65535 blocks and
// 64-bit index math. Errors: the same kind and argument as TH, and nothing changed.
// Index inputs are written, and index outputs read, with TH_INDEX_BASE: the _base0 and
// _base1 builds each check their own convention against the TH of the same base.
#define BOOST_TEST_MODULE THC indexing ops
#include "thc_test_util.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "TH/THError.hpp"
#include "TH/THTensorIndex.h"
#include "THC/THCTensorIndex.h"

using thct::DeviceTensor;
using thct::HostTensor;
using thct::Layout;
using thct::state;

namespace {

constexpr int64_t B = TH_INDEX_BASE;

using AllTypes = std::tuple<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double>;

template <typename T>
using Host = th::TH<T>;  // TH's functions of type T, its indexing ops included
template <typename T>
using Dev = thc::THC<T>;
template <typename T>
using DevIndex = thc::IndexOps<T>;

// The element type of a tensor struct.
template <typename X>
using ElemOf = std::remove_pointer_t<decltype(std::declval<X &>().storage->data)>;

struct DeviceFree {
  template <typename X>
  void operator()(X *x) const {
    if (x) thc::THC<ElemOf<X>>::free(state(), x);
  }
};
template <typename X>
using DeviceOwned = std::unique_ptr<X, DeviceFree>;
template <typename X>
DeviceOwned<X> own(X *x) {
  return DeviceOwned<X>(x);
}

// The same values on the host (TH's input) and on the device (THC's), each in its layout.
template <typename T>
struct Pair {
  th::Owned<HostTensor<T>> h;
  DeviceOwned<DeviceTensor<T>> d;
};

template <typename T>
constexpr bool kFloating = std::is_floating_point_v<T>;

// Sums of floats in another order: within this much (relative to max(1, |x|)).
template <typename T>
constexpr double kSumTol = kFloating<T> ? 1e-5 : 0;

std::mt19937 &rng() {
  static std::mt19937 gen(20240611);
  return gen;
}
// In [lo, hi).
int64_t randInt(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi - 1)(rng()); }

// A row-major host tensor of `shape` holding f(k) at element k.
template <typename T, typename F>
HostTensor<T> *hostOf(const std::vector<int64_t> &shape, F f) {
  HostTensor<T> *h = Host<T>::newWithSize((int)shape.size(), shape.data(), nullptr);
  T *p = Host<T>::data(h);
  const int64_t n = Host<T>::nElement(h);
  for (int64_t k = 0; k < n; k++) p[k] = static_cast<T>(f(k));
  return h;
}

// Integers in [lo, hi): exact in every type.
template <typename T>
HostTensor<T> *ints(const std::vector<int64_t> &shape, int64_t lo, int64_t hi) {
  return hostOf<T>(shape, [&](int64_t) { return randInt(lo, hi); });
}

// Integers in [lo, hi) for integer types, reals in [lo, hi) for floating types.
template <typename T>
HostTensor<T> *values(const std::vector<int64_t> &shape, int64_t lo, int64_t hi) {
  if constexpr (kFloating<T>) {
    return hostOf<T>(shape, [&](int64_t) { return std::uniform_real_distribution<double>(lo, hi)(rng()); });
  } else {
    return ints<T>(shape, lo, hi);
  }
}

template <typename T>
HostTensor<T> *zeros(const std::vector<int64_t> &shape) {
  return hostOf<T>(shape, [](int64_t) { return 0; });
}

// h (owned) and a contiguous device copy.
template <typename T>
Pair<T> pairOf(HostTensor<T> *h) {
  Pair<T> p{th::own(h), nullptr};
  p.d = own(thct::toDevice<T>(h));
  return p;
}

// An empty 1-d tensor ([0]) on both sides, as THTensor_new gives.
template <typename T>
Pair<T> emptyPair() {
  return pairOf<T>(zeros<T>({0}));
}

// The values of the 2-d host tensor v (not owned) in layout l on both sides; Expanded
// repeats v's first row.
template <typename T>
Pair<T> inLayout(Layout l, HostTensor<T> *v) {
  const int64_t rows = v->size[0], cols = v->size[1];
  switch (l) {
    case Layout::Contiguous: return pairOf<T>(Host<T>::newClone(v));
    case Layout::Transposed: {
      auto base = th::own(zeros<T>({cols, rows}));
      auto h = th::own(Host<T>::newTranspose(base.get(), 0, 1));
      Host<T>::copy(h.get(), v);
      auto dbase = own(thct::toDevice<T>(base.get()));
      return Pair<T>{std::move(h), own(Dev<T>::newTranspose(state(), dbase.get(), 0, 1))};
    }
    case Layout::Narrowed: {
      auto base = th::own(hostOf<T>({rows + 3, cols + 5}, [](int64_t) { return 3; }));
      auto rowsView = th::own(Host<T>::newNarrow(base.get(), 0, 1, rows));
      auto h = th::own(Host<T>::newNarrow(rowsView.get(), 1, 2, cols));
      Host<T>::copy(h.get(), v);
      auto dbase = own(thct::toDevice<T>(base.get()));
      auto drows = own(Dev<T>::newNarrow(state(), dbase.get(), 0, 1, rows));
      return Pair<T>{std::move(h), own(Dev<T>::newNarrow(state(), drows.get(), 1, 2, cols))};
    }
    case Layout::Expanded: {
      auto row = th::own(Host<T>::newNarrow(v, 0, 0, 1));
      auto base = th::own(Host<T>::newClone(row.get()));
      int64_t size[2] = {rows, cols};
      auto dbase = own(thct::toDevice<T>(base.get()));
      return Pair<T>{th::own(Host<T>::newExpand(base.get(), 2, size)),
                     own(Dev<T>::newExpand(state(), dbase.get(), 2, size))};
    }
  }
  BOOST_FAIL("unknown layout");
  return {};
}

template <typename T>
Pair<T> inLayout(Layout l, th::Owned<HostTensor<T>> v) {
  return inLayout<T>(l, v.get());
}

// A vector index of the given 0-based positions, written in the caller's base; on the
// device a column of an n x 2 matrix (stride 2) when strided.
Pair<int64_t> indexPair(const std::vector<int64_t> &positions, bool strided) {
  const int64_t n = (int64_t)positions.size();
  auto h = th::own(hostOf<int64_t>({n}, [&](int64_t k) { return positions[k] + B; }));
  if (!strided) return pairOf<int64_t>(h.release());
  auto base = own(Dev<int64_t>::newWithSize(state(), 2, std::vector<int64_t>{n, 2}.data(), nullptr));
  auto column = own(Dev<int64_t>::newSelect(state(), base.get(), 1, 1));
  Dev<int64_t>::copyFromHost(state(), column.get(), h.get());
  return Pair<int64_t>{std::move(h), std::move(column)};
}

std::vector<int64_t> randomPositions(int64_t n, int64_t size) {
  std::vector<int64_t> p(n);
  for (auto &x : p) x = randInt(0, size);
  return p;
}

template <typename T>
void expectSame(HostTensor<T> *expected, DeviceTensor<T> *actual, double tol, const std::string &what) {
  auto got = th::own(thct::toHost<T>(actual));
  std::string why;
  BOOST_TEST(thct::sameValues<T>(expected, got.get(), tol, &why), what << ": " << why);
}
template <typename T>
void expectSame(const Pair<T> &p, double tol, const std::string &what) {
  expectSame<T>(p.h.get(), p.d.get(), tol, what);
}

const Layout kResultLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Narrowed};

}  // namespace

BOOST_AUTO_TEST_SUITE(index_ops, *thct::needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(index_select, T, AllTypes) {
  for (Layout sl : thct::kLayouts)
    for (int dim : {0, 1})
      for (int rl = -1; rl < 3; rl++)  // -1: a fresh result, else one of that size in kResultLayouts[rl]
        for (bool strided : {false, true}) {
          const std::string what = std::string("src ") + thct::layoutName(sl) + " dim " + std::to_string(dim) +
                                   " result " + (rl < 0 ? "fresh" : thct::layoutName(kResultLayouts[rl])) +
                                   (strided ? " strided index" : "");
          Pair<T> s = inLayout<T>(sl, th::own(values<T>({7, 9}, 0, 20)));
          Pair<int64_t> i = indexPair(randomPositions(6, s.h->size[dim]), strided);
          std::vector<int64_t> rShape = {7, 9};
          rShape[dim] = 6;
          Pair<T> r = rl < 0 ? emptyPair<T>() : inLayout<T>(kResultLayouts[rl], th::own(zeros<T>(rShape)));
          Host<T>::indexSelect(r.h.get(), s.h.get(), dim, i.h.get());
          DevIndex<T>::indexSelect(state(), r.d.get(), s.d.get(), dim, i.d.get());
          expectSame(r, 0, what);
          if (rl >= 0) BOOST_TEST(Dev<T>::isContiguous(state(), r.d.get()) == (rl == 0), what);
          // the result may be the source
          Host<T>::indexSelect(s.h.get(), s.h.get(), dim, i.h.get());
          DevIndex<T>::indexSelect(state(), s.d.get(), s.d.get(), dim, i.d.get());
          expectSame(s, 0, what + " in place");
        }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(index_ops_of_other_shapes, T, AllTypes) {
  // every dimension of a 3-d tensor, contiguous and permuted
  for (bool permuted : {false, true})
    for (int dim = 0; dim < 3; dim++) {
      const std::string what = "3-d dim " + std::to_string(dim) + (permuted ? " permuted" : "");
      Pair<T> s = pairOf<T>(values<T>({4, 5, 3}, 0, 20));
      Pair<T> t = pairOf<T>(values<T>({4, 5, 3}, 0, 20));
      if (permuted) {
        Host<T>::transpose(s.h.get(), nullptr, 0, 2);
        Dev<T>::transpose(state(), s.d.get(), nullptr, 0, 2);
        Host<T>::transpose(t.h.get(), nullptr, 0, 2);
        Dev<T>::transpose(state(), t.d.get(), nullptr, 0, 2);
      }
      Pair<int64_t> i = indexPair(randomPositions(7, s.h->size[dim]), dim == 1);
      Pair<T> r = emptyPair<T>();
      Host<T>::indexSelect(r.h.get(), s.h.get(), dim, i.h.get());
      DevIndex<T>::indexSelect(state(), r.d.get(), s.d.get(), dim, i.d.get());
      expectSame(r, 0, what + " indexSelect");
      // r is the source of indexCopy/indexAdd: t's sizes with 7 entries in dim
      Host<T>::indexAdd(t.h.get(), dim, i.h.get(), r.h.get());
      DevIndex<T>::indexAdd(state(), t.d.get(), dim, i.d.get(), r.d.get());
      expectSame(t, kSumTol<T>, what + " indexAdd");
      Host<T>::indexCopy(t.h.get(), dim, i.h.get(), r.h.get());
      DevIndex<T>::indexCopy(state(), t.d.get(), dim, i.d.get(), r.d.get());
      expectSame(t, 0, what + " indexCopy");
      Host<T>::indexFill(t.h.get(), dim, i.h.get(), 5);
      DevIndex<T>::indexFill(state(), t.d.get(), dim, i.d.get(), 5);
      expectSame(t, 0, what + " indexFill");
    }

  // a vector, with a 0-dim index and with an empty one
  Pair<T> v = pairOf<T>(values<T>({10}, 0, 20));
  Pair<int64_t> scalarIndex = pairOf<int64_t>(hostOf<int64_t>({}, [](int64_t) { return B + 3; }));
  Pair<int64_t> emptyIndex = emptyPair<int64_t>();
  for (Pair<int64_t> *i : {&scalarIndex, &emptyIndex}) {
    const std::string what = i == &scalarIndex ? "0-dim index" : "empty index";
    Pair<T> r = emptyPair<T>();
    Host<T>::indexSelect(r.h.get(), v.h.get(), 0, i->h.get());
    DevIndex<T>::indexSelect(state(), r.d.get(), v.d.get(), 0, i->d.get());
    expectSame(r, 0, what + " indexSelect");
    BOOST_TEST(r.d->nDimension == 1);
    Host<T>::indexAdd(v.h.get(), 0, i->h.get(), r.h.get());
    DevIndex<T>::indexAdd(state(), v.d.get(), 0, i->d.get(), r.d.get());
    expectSame(v, 0, what + " indexAdd");
    Host<T>::indexCopy(v.h.get(), 0, i->h.get(), r.h.get());
    DevIndex<T>::indexCopy(state(), v.d.get(), 0, i->d.get(), r.d.get());
    expectSame(v, 0, what + " indexCopy");
    Host<T>::indexFill(v.h.get(), 0, i->h.get(), 9);
    DevIndex<T>::indexFill(state(), v.d.get(), 0, i->d.get(), 9);
    expectSame(v, 0, what + " indexFill");
  }

  // an empty index selects nothing from a matrix; a source without rows gives no rows
  Pair<T> m = pairOf<T>(values<T>({4, 6}, 0, 20));
  for (int dim : {0, 1}) {
    Pair<T> r = emptyPair<T>();
    Host<T>::indexSelect(r.h.get(), m.h.get(), dim, emptyIndex.h.get());
    DevIndex<T>::indexSelect(state(), r.d.get(), m.d.get(), dim, emptyIndex.d.get());
    expectSame(r, 0, "empty index, dim " + std::to_string(dim));
  }
  Pair<T> noRows = pairOf<T>(zeros<T>({0, 4}));
  Pair<int64_t> i = indexPair({0, 2, 1}, false);
  Pair<T> r = emptyPair<T>();
  Host<T>::indexSelect(r.h.get(), noRows.h.get(), 1, i.h.get());
  DevIndex<T>::indexSelect(state(), r.d.get(), noRows.d.get(), 1, i.d.get());
  expectSame(r, 0, "source without rows");
}

// 70-odd million elements selected: more than 65535 blocks of the kernel.
BOOST_AUTO_TEST_CASE(index_select_large_grid) {
  for (int dim : {0, 1}) {
    std::vector<int64_t> shape = {1000, 35000};
    if (dim == 1) std::swap(shape[0], shape[1]);
    Pair<float> s = pairOf<float>(hostOf<float>(shape, [](int64_t k) { return (float)(k % 1000003); }));
    Pair<int64_t> i = indexPair(randomPositions(2100, 1000), false);
    Pair<float> r = emptyPair<float>();
    Host<float>::indexSelect(r.h.get(), s.h.get(), dim, i.h.get());
    DevIndex<float>::indexSelect(state(), r.d.get(), s.d.get(), dim, i.d.get());
    BOOST_TEST(Host<float>::nElement(r.h.get()) > 65535 * 1024);
    expectSame(r, 0, "large, dim " + std::to_string(dim));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(index_copy_add_fill, T, AllTypes) {
  for (Layout tl : kResultLayouts)
    for (Layout sl : thct::kLayouts)
      for (int dim : {0, 1}) {
        const std::string what =
            std::string("t ") + thct::layoutName(tl) + " src " + thct::layoutName(sl) + " dim " + std::to_string(dim);
        auto t0 = th::own(values<T>({5, 7}, 0, 20));
        // 8 entries into 5 or 7 slices: repeats for sure
        Pair<int64_t> i = indexPair(randomPositions(8, t0->size[dim]), sl == Layout::Narrowed);
        std::vector<int64_t> srcShape = {5, 7};
        srcShape[dim] = 8;
        Pair<T> s = inLayout<T>(sl, th::own(values<T>(srcShape, 0, 20)));

        Pair<T> t = inLayout<T>(tl, t0.get());
        Host<T>::indexCopy(t.h.get(), dim, i.h.get(), s.h.get());
        DevIndex<T>::indexCopy(state(), t.d.get(), dim, i.d.get(), s.d.get());
        expectSame(t, 0, what + " indexCopy");

        t = inLayout<T>(tl, t0.get());
        Host<T>::indexAdd(t.h.get(), dim, i.h.get(), s.h.get());
        DevIndex<T>::indexAdd(state(), t.d.get(), dim, i.d.get(), s.d.get());
        expectSame(t, kSumTol<T>, what + " indexAdd");

        t = inLayout<T>(tl, t0.get());
        Host<T>::indexFill(t.h.get(), dim, i.h.get(), 7);
        DevIndex<T>::indexFill(state(), t.d.get(), dim, i.d.get(), 7);
        expectSame(t, 0, what + " indexFill");
      }
}

// Thousands of entries into three slices: atomics on the same elements (bytes and shorts
// through compare-and-swap). Integer values, so that every type's sum is exact (and wraps
// as TH's in the narrow types).
BOOST_AUTO_TEST_CASE_TEMPLATE(index_add_contention, T, AllTypes) {
  for (int dim : {0, 1}) {
    std::vector<int64_t> shape = {3, 40}, srcShape = {2000, 40};
    if (dim == 1) {
      std::swap(shape[0], shape[1]);
      std::swap(srcShape[0], srcShape[1]);
    }
    Pair<T> t = pairOf<T>(ints<T>(shape, 0, 20));
    Pair<T> s = pairOf<T>(ints<T>(srcShape, 0, 4));
    Pair<int64_t> i = indexPair(randomPositions(2000, 3), false);
    Host<T>::indexAdd(t.h.get(), dim, i.h.get(), s.h.get());
    DevIndex<T>::indexAdd(state(), t.d.get(), dim, i.d.get(), s.d.get());
    expectSame(t, 0, "dim " + std::to_string(dim));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(gather, T, AllTypes) {
  for (Layout sl : thct::kLayouts)
    for (Layout il : {Layout::Contiguous, Layout::Transposed})
      for (int dim : {0, 1})
        for (bool freshResult : {true, false}) {
          const std::string what = std::string("src ") + thct::layoutName(sl) + " index " + thct::layoutName(il) +
                                   " dim " + std::to_string(dim) + (freshResult ? "" : " narrowed result");
          Pair<T> s = inLayout<T>(sl, th::own(values<T>({5, 6}, 0, 20)));
          std::vector<int64_t> indexShape = {4, 5};  // smaller than the source outside dim
          indexShape[dim] = 7;
          Pair<int64_t> i = inLayout<int64_t>(il, th::own(ints<int64_t>(indexShape, B, s.h->size[dim] + B)));
          Pair<T> r = freshResult ? emptyPair<T>() : inLayout<T>(Layout::Narrowed, th::own(zeros<T>(indexShape)));
          Host<T>::gather(r.h.get(), s.h.get(), dim, i.h.get());
          DevIndex<T>::gather(state(), r.d.get(), s.d.get(), dim, i.d.get());
          expectSame(r, 0, what);
        }
  // an empty index gives an empty result
  Pair<T> s = pairOf<T>(values<T>({5, 6}, 0, 20));
  Pair<int64_t> i = pairOf<int64_t>(zeros<int64_t>({0, 6}));
  Pair<T> r = emptyPair<T>();
  Host<T>::gather(r.h.get(), s.h.get(), 0, i.h.get());
  DevIndex<T>::gather(state(), r.d.get(), s.d.get(), 0, i.d.get());
  expectSame(r, 0, "empty index");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(scatter_family, T, AllTypes) {
  for (Layout tl : kResultLayouts)
    for (Layout sl : thct::kLayouts)
      for (int dim : {0, 1}) {
        const std::string what =
            std::string("t ") + thct::layoutName(tl) + " src " + thct::layoutName(sl) + " dim " + std::to_string(dim);
        auto t0 = th::own(values<T>({5, 6}, 0, 20));
        const int64_t size = t0->size[dim];
        const Layout il = sl == Layout::Transposed ? Layout::Transposed : Layout::Contiguous;
        // scatter: distinct entries within each line (TH's order decides between repeats)
        std::vector<int64_t> uniqueShape = {4, 5};
        uniqueShape[dim] = size - 1;
        const int64_t lines = uniqueShape[1 - dim];
        std::vector<std::vector<int64_t>> perms(lines);
        for (auto &p : perms) {
          p.resize(size);
          std::iota(p.begin(), p.end(), 0);
          std::shuffle(p.begin(), p.end(), rng());
        }
        auto unique = th::own(hostOf<int64_t>(uniqueShape, [&](int64_t k) {
          const int64_t row = k / uniqueShape[1], col = k % uniqueShape[1];
          return dim == 0 ? perms[col][row] + B : perms[row][col] + B;
        }));
        std::vector<int64_t> repeatedShape = {4, 5};
        repeatedShape[dim] = 8;
        Pair<int64_t> iu = inLayout<int64_t>(il, unique.get());
        Pair<int64_t> ir = inLayout<int64_t>(il, th::own(ints<int64_t>(repeatedShape, B, size + B)));
        Pair<T> s = inLayout<T>(sl, th::own(values<T>({8, 8}, 0, 20)));  // no smaller than either index

        Pair<T> t = inLayout<T>(tl, t0.get());
        Host<T>::scatter(t.h.get(), dim, iu.h.get(), s.h.get());
        DevIndex<T>::scatter(state(), t.d.get(), dim, iu.d.get(), s.d.get());
        expectSame(t, 0, what + " scatter");

        t = inLayout<T>(tl, t0.get());
        Host<T>::scatterAdd(t.h.get(), dim, ir.h.get(), s.h.get());
        DevIndex<T>::scatterAdd(state(), t.d.get(), dim, ir.d.get(), s.d.get());
        expectSame(t, kSumTol<T>, what + " scatterAdd");

        t = inLayout<T>(tl, t0.get());
        Host<T>::scatterFill(t.h.get(), dim, ir.h.get(), 7);
        DevIndex<T>::scatterFill(state(), t.d.get(), dim, ir.d.get(), 7);
        expectSame(t, 0, what + " scatterFill");
      }
  // an empty index changes nothing
  Pair<T> t = pairOf<T>(values<T>({5, 6}, 0, 20));
  Pair<T> s = pairOf<T>(values<T>({5, 6}, 0, 20));
  Pair<int64_t> i = pairOf<int64_t>(zeros<int64_t>({0, 6}));
  Host<T>::scatterAdd(t.h.get(), 0, i.h.get(), s.h.get());
  DevIndex<T>::scatterAdd(state(), t.d.get(), 0, i.d.get(), s.d.get());
  expectSame(t, 0, "empty index");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(scatter_add_contention, T, AllTypes) {
  Pair<T> t = inLayout<T>(Layout::Transposed, th::own(ints<T>({3, 50}, 0, 20)));
  Pair<T> s = pairOf<T>(ints<T>({3000, 50}, 0, 4));
  Pair<int64_t> i = pairOf<int64_t>(ints<int64_t>({3000, 50}, B, 3 + B));
  Host<T>::scatterAdd(t.h.get(), 0, i.h.get(), s.h.get());
  DevIndex<T>::scatterAdd(state(), t.d.get(), 0, i.d.get(), s.d.get());
  expectSame(t, 0, "scatterAdd into 3 rows");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(masked_ops, T, AllTypes) {
  for (Layout tl : kResultLayouts)
    for (int ml = 0; ml < 4; ml++) {  // the mask in kResultLayouts[ml], or (3) of another shape
      const std::string what = std::string("t ") + thct::layoutName(tl) + " mask " +
                               (ml < 3 ? thct::layoutName(kResultLayouts[ml]) : "7 x 6");
      auto t0 = th::own(values<T>({6, 7}, 1, 20));
      Pair<uint8_t> m = ml < 3 ? inLayout<uint8_t>(kResultLayouts[ml], th::own(ints<uint8_t>({6, 7}, 0, 2)))
                               : pairOf<uint8_t>(ints<uint8_t>({7, 6}, 0, 2));
      int64_t ones = 0;
      {
        auto mc = th::own(Host<uint8_t>::newContiguous(m.h.get()));
        for (int64_t k = 0; k < 42; k++) ones += Host<uint8_t>::data(mc.get())[k];
      }
      Pair<T> s = inLayout<T>(tl == Layout::Contiguous ? Layout::Contiguous : Layout::Narrowed,
                              th::own(values<T>({1, ones + 3}, 0, 20)));

      Pair<T> t = inLayout<T>(tl, t0.get());
      Host<T>::maskedFill(t.h.get(), m.h.get(), 7);
      DevIndex<T>::maskedFill(state(), t.d.get(), m.d.get(), 7);
      expectSame(t, 0, what + " maskedFill");

      t = inLayout<T>(tl, t0.get());
      Host<T>::maskedCopy(t.h.get(), m.h.get(), s.h.get());
      DevIndex<T>::maskedCopy(state(), t.d.get(), m.d.get(), s.d.get());
      expectSame(t, 0, what + " maskedCopy");

      t = inLayout<T>(tl, t0.get());
      Pair<T> r = emptyPair<T>();
      Host<T>::maskedSelect(r.h.get(), t.h.get(), m.h.get());
      DevIndex<T>::maskedSelect(state(), r.d.get(), t.d.get(), m.d.get());
      expectSame(r, 0, what + " maskedSelect");
      Host<T>::maskedSelect(t.h.get(), t.h.get(), m.h.get());
      DevIndex<T>::maskedSelect(state(), t.d.get(), t.d.get(), m.d.get());
      expectSame(t, 0, what + " maskedSelect in place");
    }
  // empty and 0-dim
  Pair<T> e = emptyPair<T>();
  Pair<uint8_t> em = emptyPair<uint8_t>();
  Pair<T> r = pairOf<T>(values<T>({3}, 0, 20));
  Host<T>::maskedSelect(r.h.get(), e.h.get(), em.h.get());
  DevIndex<T>::maskedSelect(state(), r.d.get(), e.d.get(), em.d.get());
  expectSame(r, 0, "empty maskedSelect");
  Pair<T> scalar = pairOf<T>(hostOf<T>({}, [](int64_t) { return 4; }));
  Pair<uint8_t> one = pairOf<uint8_t>(hostOf<uint8_t>({1}, [](int64_t) { return 1; }));
  Pair<T> src = pairOf<T>(hostOf<T>({2}, [](int64_t k) { return 10 + k; }));
  Host<T>::maskedCopy(scalar.h.get(), one.h.get(), src.h.get());
  DevIndex<T>::maskedCopy(state(), scalar.d.get(), one.d.get(), src.d.get());
  expectSame(scalar, 0, "0-dim maskedCopy");
  Host<T>::maskedFill(scalar.h.get(), one.h.get(), 2);
  DevIndex<T>::maskedFill(state(), scalar.d.get(), one.d.get(), 2);
  expectSame(scalar, 0, "0-dim maskedFill");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nonzero, T, AllTypes) {
  std::vector<Pair<T>> inputs;
  for (Layout l : thct::kLayouts) inputs.push_back(inLayout<T>(l, th::own(ints<T>({6, 7}, 0, 3))));
  inputs.push_back(pairOf<T>(ints<T>({9}, 0, 3)));
  inputs.push_back(pairOf<T>(ints<T>({3, 4, 2}, 0, 3)));
  inputs.push_back(pairOf<T>(hostOf<T>({}, [](int64_t) { return 5; })));
  inputs.push_back(pairOf<T>(hostOf<T>({}, [](int64_t) { return 0; })));
  inputs.push_back(pairOf<T>(zeros<T>({3, 0})));
  for (size_t k = 0; k < inputs.size(); k++) {
    const std::string what = "input " + std::to_string(k);
    Pair<int64_t> r = emptyPair<int64_t>();
    Host<T>::nonzero(r.h.get(), inputs[k].h.get());
    DevIndex<T>::nonzero(state(), r.d.get(), inputs[k].d.get());
    expectSame(r, 0, what);
    // into a result of the right size, transposed: written through its strides
    if (r.h->size[0] > 1 && r.h->size[1] > 1) {
      Pair<int64_t> rt = inLayout<int64_t>(Layout::Transposed, th::own(zeros<int64_t>({r.h->size[0], r.h->size[1]})));
      DevIndex<T>::nonzero(state(), rt.d.get(), inputs[k].d.get());
      BOOST_TEST(!Dev<int64_t>::isContiguous(state(), rt.d.get()));
      expectSame<int64_t>(r.h.get(), rt.d.get(), 0, what + " transposed result");
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(take_and_put, T, AllTypes) {
  const int64_t n = 30;
  // a flat position k is written k + base or k - n (negative: from the end)
  auto encode = [&](int64_t k) { return randInt(0, 2) ? k + B : k - n; };
  for (Layout sl : thct::kLayouts)
    for (Layout il : {Layout::Contiguous, Layout::Transposed}) {
      const std::string what = std::string("src ") + thct::layoutName(sl) + " index " + thct::layoutName(il);
      Pair<T> s = inLayout<T>(sl, th::own(values<T>({5, 6}, 0, 20)));
      Pair<int64_t> i =
          inLayout<int64_t>(il, th::own(hostOf<int64_t>({2, 6}, [&](int64_t) { return encode(randInt(0, n)); })));
      Pair<T> r = emptyPair<T>();
      Host<T>::take(r.h.get(), s.h.get(), i.h.get());
      DevIndex<T>::take(state(), r.d.get(), s.d.get(), i.d.get());
      expectSame(r, 0, what + " take");
      Host<T>::take(s.h.get(), s.h.get(), i.h.get());
      DevIndex<T>::take(state(), s.d.get(), s.d.get(), i.d.get());
      expectSame(s, 0, what + " take in place");

      if (sl == Layout::Expanded) continue;  // no destination
      // put: distinct positions when overwriting, repeats when accumulating
      std::vector<int64_t> perm(n);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng());
      auto t0 = th::own(values<T>({5, 6}, 0, 20));
      Pair<T> v = inLayout<T>(il, th::own(values<T>({3, 4}, 0, 20)));
      Pair<int64_t> iu =
          inLayout<int64_t>(il, th::own(hostOf<int64_t>({3, 4}, [&](int64_t k) { return encode(perm[k]); })));
      Pair<int64_t> ir = pairOf<int64_t>(hostOf<int64_t>({12}, [&](int64_t) { return encode(randInt(0, 5)); }));
      Pair<T> t = inLayout<T>(sl, t0.get());
      Host<T>::put(t.h.get(), iu.h.get(), v.h.get(), 0);
      DevIndex<T>::put(state(), t.d.get(), iu.d.get(), v.d.get(), 0);
      expectSame(t, 0, what + " put");
      t = inLayout<T>(sl, t0.get());
      Host<T>::put(t.h.get(), ir.h.get(), v.h.get(), 1);
      DevIndex<T>::put(state(), t.d.get(), ir.d.get(), v.d.get(), 1);
      expectSame(t, kSumTol<T>, what + " put accumulate");
    }
  // 0-dim source and index, empty index
  Pair<T> scalar = pairOf<T>(hostOf<T>({}, [](int64_t) { return 6; }));
  Pair<int64_t> i = pairOf<int64_t>(hostOf<int64_t>({3}, [](int64_t k) { return k == 2 ? -1 : B; }));
  Pair<T> r = emptyPair<T>();
  Host<T>::take(r.h.get(), scalar.h.get(), i.h.get());
  DevIndex<T>::take(state(), r.d.get(), scalar.d.get(), i.d.get());
  expectSame(r, 0, "take from 0-dim");
  Pair<int64_t> scalarIndex = pairOf<int64_t>(hostOf<int64_t>({}, [](int64_t) { return B + 4; }));
  Pair<T> s = pairOf<T>(values<T>({2, 3}, 0, 20));
  Host<T>::take(r.h.get(), s.h.get(), scalarIndex.h.get());
  DevIndex<T>::take(state(), r.d.get(), s.d.get(), scalarIndex.d.get());
  expectSame(r, 0, "take with 0-dim index");
  BOOST_TEST(r.d->nDimension == 0);
  Pair<T> one = pairOf<T>(hostOf<T>({}, [](int64_t) { return 3; }));
  Host<T>::put(s.h.get(), scalarIndex.h.get(), one.h.get(), 1);
  DevIndex<T>::put(state(), s.d.get(), scalarIndex.d.get(), one.d.get(), 1);
  expectSame(s, 0, "put with 0-dim index");
  Pair<int64_t> none = emptyPair<int64_t>();
  Pair<T> nothing = emptyPair<T>();
  Host<T>::take(r.h.get(), s.h.get(), none.h.get());
  DevIndex<T>::take(state(), r.d.get(), s.d.get(), none.d.get());
  expectSame(r, 0, "take with empty index");
  Host<T>::put(s.h.get(), none.h.get(), nothing.h.get(), 0);
  DevIndex<T>::put(state(), s.d.get(), none.d.get(), nothing.d.get(), 0);
  expectSame(s, 0, "put with empty index");
}

// 100000 additions into 4 elements.
BOOST_AUTO_TEST_CASE_TEMPLATE(put_accumulate_contention, T, AllTypes) {
  Pair<T> t = pairOf<T>(ints<T>({4}, 0, 20));
  Pair<int64_t> i = pairOf<int64_t>(hostOf<int64_t>({100000}, [](int64_t) {
    const int64_t k = randInt(0, 4);
    return randInt(0, 2) ? k + B : k - 4;
  }));
  Pair<T> v = pairOf<T>(ints<T>({100000}, 0, 3));
  Host<T>::put(t.h.get(), i.h.get(), v.h.get(), 1);
  DevIndex<T>::put(state(), t.d.get(), i.d.get(), v.d.get(), 1);
  expectSame(t, 0, "put accumulate into 4 elements");
}

// Views whose offsets pass 2^31 (over a storage of 2^31 + 8 floats, 8.6 GB): the kernels
// take their 64-bit index path. The view's elements are set from a small host tensor, the
// reference is TH on that tensor.
BOOST_AUTO_TEST_CASE(offsets_past_2_31) {
  const int64_t rowStride = (int64_t(1) << 30) + 1;  // 2 * rowStride + 4 > INT32_MAX
  auto base = own(Dev<float>::newWithSize(state(), 1, std::vector<int64_t>{(int64_t(1) << 31) + 8}.data(), nullptr));
  Dev<float>::zero(state(), base.get());
  const int64_t size[2] = {3, 4}, stride[2] = {rowStride, 1};
  auto view = [&] { return own(THCudaTensor_newWithStorage(state(), base->storage, 0, 2, size, stride)); };
  Pair<float> v{th::own(values<float>({3, 4}, 0, 20)), view()};
  Dev<float>::copyFromHost(state(), v.d.get(), v.h.get());

  Pair<int64_t> rows = indexPair({2, 0, 2, 1}, false);
  Pair<float> r = emptyPair<float>();
  Host<float>::indexSelect(r.h.get(), v.h.get(), 0, rows.h.get());
  DevIndex<float>::indexSelect(state(), r.d.get(), v.d.get(), 0, rows.d.get());
  expectSame(r, 0, "indexSelect");
  Host<float>::indexAdd(v.h.get(), 0, rows.h.get(), r.h.get());
  DevIndex<float>::indexAdd(state(), v.d.get(), 0, rows.d.get(), r.d.get());
  expectSame(v, kSumTol<float>, "indexAdd");
  Host<float>::indexCopy(v.h.get(), 0, rows.h.get(), r.h.get());
  DevIndex<float>::indexCopy(state(), v.d.get(), 0, rows.d.get(), r.d.get());
  expectSame(v, 0, "indexCopy");

  Pair<int64_t> g = pairOf<int64_t>(ints<int64_t>({5, 4}, B, 3 + B));
  Host<float>::gather(r.h.get(), v.h.get(), 0, g.h.get());
  DevIndex<float>::gather(state(), r.d.get(), v.d.get(), 0, g.d.get());
  expectSame(r, 0, "gather");
  Pair<float> src = pairOf<float>(values<float>({5, 4}, 0, 20));
  Host<float>::scatterAdd(v.h.get(), 0, g.h.get(), src.h.get());
  DevIndex<float>::scatterAdd(state(), v.d.get(), 0, g.d.get(), src.d.get());
  expectSame(v, kSumTol<float>, "scatterAdd");

  Pair<int64_t> flat = pairOf<int64_t>(hostOf<int64_t>({6}, [](int64_t k) { return k == 0 ? -1 : 2 * k + B; }));
  Host<float>::take(r.h.get(), v.h.get(), flat.h.get());
  DevIndex<float>::take(state(), r.d.get(), v.d.get(), flat.d.get());
  expectSame(r, 0, "take");
  Pair<float> six = pairOf<float>(values<float>({6}, 0, 20));
  Host<float>::put(v.h.get(), flat.h.get(), six.h.get(), 1);
  DevIndex<float>::put(state(), v.d.get(), flat.d.get(), six.d.get(), 1);
  expectSame(v, kSumTol<float>, "put");

  Pair<uint8_t> m = pairOf<uint8_t>(ints<uint8_t>({3, 4}, 0, 2));
  Host<float>::maskedSelect(r.h.get(), v.h.get(), m.h.get());
  DevIndex<float>::maskedSelect(state(), r.d.get(), v.d.get(), m.d.get());
  expectSame(r, 0, "maskedSelect");
  Host<float>::maskedFill(v.h.get(), m.h.get(), 0);
  DevIndex<float>::maskedFill(state(), v.d.get(), m.d.get(), 0);
  expectSame(v, 0, "maskedFill");
  Pair<int64_t> nz = emptyPair<int64_t>();
  Host<float>::nonzero(nz.h.get(), v.h.get());
  DevIndex<float>::nonzero(state(), nz.d.get(), v.d.get());
  expectSame(nz, 0, "nonzero");
}

// Long tensors can share memory with their index: the op reads the index as it was.
BOOST_AUTO_TEST_CASE(index_sharing_memory_with_the_result) {
  auto t0 = th::own(hostOf<int64_t>({2, 3}, [](int64_t k) { return B + (k % 2 == 0); }));
  Pair<int64_t> t = pairOf<int64_t>(Host<int64_t>::newClone(t0.get()));
  Host<int64_t>::scatter(t.h.get(), 0, t.h.get(), t.h.get());
  DevIndex<int64_t>::scatter(state(), t.d.get(), 0, t.d.get(), t.d.get());
  expectSame(t, 0, "scatter(t, 0, t, t)");

  t = inLayout<int64_t>(Layout::Transposed, t0.get());
  Host<int64_t>::gather(t.h.get(), t.h.get(), 0, t.h.get());
  DevIndex<int64_t>::gather(state(), t.d.get(), t.d.get(), 0, t.d.get());
  expectSame(t, 0, "gather(t, t, 0, t)");

  t = inLayout<int64_t>(Layout::Narrowed, t0.get());
  Pair<int64_t> i = indexPair({1, 0, 1}, false);
  Host<int64_t>::indexSelect(t.h.get(), t.h.get(), 1, i.h.get());
  DevIndex<int64_t>::indexSelect(state(), t.d.get(), t.d.get(), 1, i.d.get());
  expectSame(t, 0, "indexSelect(t, t, 1, i)");

  Pair<int64_t> v = pairOf<int64_t>(hostOf<int64_t>({4}, [](int64_t k) { return B + 3 - k; }));
  Host<int64_t>::indexFill(v.h.get(), 0, v.h.get(), B + 1);
  DevIndex<int64_t>::indexFill(state(), v.d.get(), 0, v.d.get(), B + 1);
  expectSame(v, 0, "indexFill(v, 0, v, base + 1)");

  Pair<int64_t> z = inLayout<int64_t>(
      Layout::Narrowed, th::own(hostOf<int64_t>({2, 2}, [](int64_t k) { return k == 0 || k == 2 ? 0 : k; })));
  Host<int64_t>::nonzero(z.h.get(), z.h.get());
  DevIndex<int64_t>::nonzero(state(), z.d.get(), z.d.get());
  expectSame(z, 0, "nonzero(t, t)");
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// The call raises a th::Error of this kind whose message contains part; returns it.
template <typename F>
th::Error expectError(F call, th::ErrorKind kind, const std::string &part, const std::string &who) {
  try {
    call();
  } catch (const th::Error &e) {
    BOOST_TEST((e.kind() == kind), who << ": " << e.what());
    BOOST_TEST(std::string(e.what()).find(part) != std::string::npos,
               who << ": " << e.what() << " should say: " << part);
    return e;
  }
  BOOST_ERROR(who << ": no error raised, expected: " << part);
  return th::Error("", kind, 0);
}

// TH and THC raise the same kind of error, about the same argument, saying `part`.
template <typename FH, typename FD>
void expectBothRaise(FH host, FD device, th::ErrorKind kind, const std::string &part) {
  th::Error h = expectError(host, kind, part, "TH");
  th::Error d = expectError(device, kind, part, "THC");
  BOOST_TEST(h.argNumber() == d.argNumber(), part);
}

// The sizes and values of device tensors, to check that a failed call changed nothing.
struct Snapshot {
  std::vector<std::function<bool()>> unchanged;
  template <typename X>
  Snapshot &add(X *d) {
    using T = ElemOf<X>;
    std::shared_ptr<HostTensor<T>> before(thct::toHost<T>(d), [](HostTensor<T> *h) { th::TH<T>::free(h); });
    unchanged.push_back([d, before] {
      auto now = th::own(thct::toHost<T>(d));
      return thct::sameValues<T>(before.get(), now.get(), 0);
    });
    return *this;
  }
  void verify() const {
    for (size_t k = 0; k < unchanged.size(); k++) BOOST_TEST(unchanged[k](), "tensor " << k << " changed");
  }
};

std::string outOfRange(int64_t index, int dim, int64_t size) {
  return "index " + std::to_string(index) + " is out of range for dimension " + std::to_string(dim) + " of size " +
         std::to_string(size);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(errors, *thct::needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(errors_leave_tensors_unchanged, T, AllTypes) {
  const auto Index = th::ErrorKind::Index, Value = th::ErrorKind::Value, Runtime = th::ErrorKind::Runtime;
  Pair<T> t = inLayout<T>(Layout::Transposed, th::own(values<T>({5, 4}, 0, 20)));
  Pair<T> r = pairOf<T>(values<T>({2, 2}, 0, 20));
  Pair<T> src = inLayout<T>(Layout::Narrowed, th::own(values<T>({2, 4}, 0, 20)));
  const int64_t bad[] = {5 + B, B - 1, -100};  // one past the end, one before the start, far off
  for (int64_t b : bad) {
    // the bad entry comes after good ones: the one reported is the first bad one
    Pair<int64_t> i = pairOf<int64_t>(hostOf<int64_t>({2}, [&](int64_t k) { return k == 0 ? B + 1 : b; }));
    Pair<int64_t> i2 = inLayout<int64_t>(Layout::Transposed, th::own(hostOf<int64_t>({2, 4}, [&](int64_t k) {
                                           return k == 5 ? b : k == 6 ? 5 + B + 7 : B + k % 3;
                                         })));
    Snapshot snap;
    snap.add(t.d.get()).add(r.d.get()).add(src.d.get()).add(i.d.get()).add(i2.d.get());
    const std::string msg = outOfRange(b, 0, 5);
    expectBothRaise([&] { Host<T>::indexSelect(r.h.get(), t.h.get(), 0, i.h.get()); },
                    [&] { DevIndex<T>::indexSelect(state(), r.d.get(), t.d.get(), 0, i.d.get()); }, Index, msg);
    expectBothRaise([&] { Host<T>::indexCopy(t.h.get(), 0, i.h.get(), src.h.get()); },
                    [&] { DevIndex<T>::indexCopy(state(), t.d.get(), 0, i.d.get(), src.d.get()); }, Index, msg);
    expectBothRaise([&] { Host<T>::indexAdd(t.h.get(), 0, i.h.get(), src.h.get()); },
                    [&] { DevIndex<T>::indexAdd(state(), t.d.get(), 0, i.d.get(), src.d.get()); }, Index, msg);
    expectBothRaise([&] { Host<T>::indexFill(t.h.get(), 0, i.h.get(), 1); },
                    [&] { DevIndex<T>::indexFill(state(), t.d.get(), 0, i.d.get(), 1); }, Index, msg);
    expectBothRaise([&] { Host<T>::gather(r.h.get(), t.h.get(), 0, i2.h.get()); },
                    [&] { DevIndex<T>::gather(state(), r.d.get(), t.d.get(), 0, i2.d.get()); }, Index, msg);
    expectBothRaise([&] { Host<T>::scatter(t.h.get(), 0, i2.h.get(), src.h.get()); },
                    [&] { DevIndex<T>::scatter(state(), t.d.get(), 0, i2.d.get(), src.d.get()); }, Index, msg);
    expectBothRaise([&] { Host<T>::scatterAdd(t.h.get(), 0, i2.h.get(), src.h.get()); },
                    [&] { DevIndex<T>::scatterAdd(state(), t.d.get(), 0, i2.d.get(), src.d.get()); }, Index, msg);
    expectBothRaise([&] { Host<T>::scatterFill(t.h.get(), 0, i2.h.get(), 1); },
                    [&] { DevIndex<T>::scatterFill(state(), t.d.get(), 0, i2.d.get(), 1); }, Index, msg);
    snap.verify();
  }
  // flat indices of take/put: n + base and -n - 1 are the first ones out of range
  for (int64_t b : {20 + B, int64_t(-21)}) {
    Pair<int64_t> i = inLayout<int64_t>(Layout::Narrowed,
                                        th::own(hostOf<int64_t>({1, 2}, [&](int64_t k) { return k == 0 ? -20 : b; })));
    Pair<T> v = pairOf<T>(values<T>({2}, 0, 20));
    Snapshot snap;
    snap.add(t.d.get()).add(r.d.get()).add(i.d.get()).add(v.d.get());
    const std::string msg = "index " + std::to_string(b) + " is out of range for a tensor of 20 elements";
    expectBothRaise([&] { Host<T>::take(r.h.get(), t.h.get(), i.h.get()); },
                    [&] { DevIndex<T>::take(state(), r.d.get(), t.d.get(), i.d.get()); }, Index, msg);
    expectBothRaise([&] { Host<T>::put(t.h.get(), i.h.get(), v.h.get(), 0); },
                    [&] { DevIndex<T>::put(state(), t.d.get(), i.d.get(), v.d.get(), 0); }, Index, msg);
    expectBothRaise([&] { Host<T>::put(t.h.get(), i.h.get(), v.h.get(), 1); },
                    [&] { DevIndex<T>::put(state(), t.d.get(), i.d.get(), v.d.get(), 1); }, Index, msg);
    snap.verify();
  }
  // 0 in base 1 is out of range for take too
  if (B == 1) {
    Pair<int64_t> i = pairOf<int64_t>(hostOf<int64_t>({1}, [](int64_t) { return 0; }));
    Snapshot snap;
    snap.add(r.d.get());
    expectBothRaise([&] { Host<T>::take(r.h.get(), t.h.get(), i.h.get()); },
                    [&] { DevIndex<T>::take(state(), r.d.get(), t.d.get(), i.d.get()); }, Index,
                    "index 0 is out of range for a tensor of 20 elements");
    snap.verify();
  }
  // shapes, dimensions and masks
  Pair<int64_t> i = pairOf<int64_t>(hostOf<int64_t>({3}, [](int64_t) { return B; }));
  Pair<int64_t> matrixIndex = pairOf<int64_t>(hostOf<int64_t>({1, 2}, [](int64_t) { return B; }));
  Pair<int64_t> wide = pairOf<int64_t>(hostOf<int64_t>({2, 5}, [](int64_t) { return B; }));
  Pair<uint8_t> badMask = pairOf<uint8_t>(hostOf<uint8_t>({5, 4}, [](int64_t k) {
    return k == 9 ? 2 : k == 13 ? 3 : k % 2;
  }));
  Pair<uint8_t> shortMask = pairOf<uint8_t>(ints<uint8_t>({19}, 0, 2));
  Pair<uint8_t> allOnes = pairOf<uint8_t>(hostOf<uint8_t>({20}, [](int64_t) { return 1; }));
  Pair<T> scalar = pairOf<T>(hostOf<T>({}, [](int64_t) { return 1; }));
  Snapshot snap;
  snap.add(t.d.get()).add(r.d.get()).add(src.d.get()).add(i.d.get()).add(scalar.d.get());
  expectBothRaise([&] { Host<T>::indexSelect(r.h.get(), t.h.get(), 2, i.h.get()); },
                  [&] { DevIndex<T>::indexSelect(state(), r.d.get(), t.d.get(), 2, i.d.get()); }, Index,
                  "dimension 2 (argument 3) out of range");
  expectBothRaise([&] { Host<T>::indexFill(t.h.get(), -1, i.h.get(), 1); },
                  [&] { DevIndex<T>::indexFill(state(), t.d.get(), -1, i.d.get(), 1); }, Index,
                  "dimension -1 (argument 2) out of range");
  expectBothRaise([&] { Host<T>::indexFill(scalar.h.get(), 0, i.h.get(), 1); },
                  [&] { DevIndex<T>::indexFill(state(), scalar.d.get(), 0, i.d.get(), 1); }, Index,
                  "the tensor has no dimensions");
  expectBothRaise([&] { Host<T>::indexSelect(r.h.get(), t.h.get(), 0, matrixIndex.h.get()); },
                  [&] { DevIndex<T>::indexSelect(state(), r.d.get(), t.d.get(), 0, matrixIndex.d.get()); }, Runtime,
                  "index must be a vector");
  expectBothRaise([&] { Host<T>::indexCopy(t.h.get(), 0, i.h.get(), src.h.get()); },
                  [&] { DevIndex<T>::indexCopy(state(), t.d.get(), 0, i.d.get(), src.d.get()); }, Runtime,
                  "source sizes [2, 4] do not match");
  expectBothRaise([&] { Host<T>::gather(r.h.get(), t.h.get(), 0, wide.h.get()); },
                  [&] { DevIndex<T>::gather(state(), r.d.get(), t.d.get(), 0, wide.d.get()); }, Runtime,
                  "index sizes [2, 5]");
  expectBothRaise([&] { Host<T>::scatter(t.h.get(), 0, wide.h.get(), src.h.get()); },
                  [&] { DevIndex<T>::scatter(state(), t.d.get(), 0, wide.d.get(), src.d.get()); }, Runtime,
                  "index sizes [2, 5]");
  expectBothRaise([&] { Host<T>::scatter(t.h.get(), 1, i.h.get(), src.h.get()); },
                  [&] { DevIndex<T>::scatter(state(), t.d.get(), 1, i.d.get(), src.d.get()); }, Runtime,
                  "index sizes [3]");
  expectBothRaise([&] { Host<T>::maskedFill(t.h.get(), shortMask.h.get(), 1); },
                  [&] { DevIndex<T>::maskedFill(state(), t.d.get(), shortMask.d.get(), 1); }, Runtime,
                  "mask sizes [19] have 19 elements");
  expectBothRaise([&] { Host<T>::maskedFill(t.h.get(), badMask.h.get(), 1); },
                  [&] { DevIndex<T>::maskedFill(state(), t.d.get(), badMask.d.get(), 1); }, Value,
                  "a mask can hold only 0 and 1, found 2");
  expectBothRaise([&] { Host<T>::maskedSelect(r.h.get(), t.h.get(), badMask.h.get()); },
                  [&] { DevIndex<T>::maskedSelect(state(), r.d.get(), t.d.get(), badMask.d.get()); }, Value, "found 2");
  expectBothRaise([&] { Host<T>::maskedCopy(t.h.get(), badMask.h.get(), src.h.get()); },
                  [&] { DevIndex<T>::maskedCopy(state(), t.d.get(), badMask.d.get(), src.d.get()); }, Value, "found 2");
  expectBothRaise([&] { Host<T>::maskedCopy(t.h.get(), allOnes.h.get(), src.h.get()); },
                  [&] { DevIndex<T>::maskedCopy(state(), t.d.get(), allOnes.d.get(), src.d.get()); }, Runtime,
                  "source has 8 elements but the mask selects 20");
  expectBothRaise([&] { Host<T>::put(t.h.get(), i.h.get(), src.h.get(), 0); },
                  [&] { DevIndex<T>::put(state(), t.d.get(), i.d.get(), src.d.get(), 0); }, Runtime,
                  "source sizes [2, 4] have 8 elements but the index sizes [3] have 3");
  snap.verify();
}

BOOST_AUTO_TEST_SUITE_END()
