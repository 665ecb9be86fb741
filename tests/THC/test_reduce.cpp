// THC's reductions (THCTensorReduce.h) against TH's on the same inputs: every arithmetic
// type, inputs contiguous, transposed, narrowed and expanded, dimensions 0 and 1 with
// keepdim 0 and 1, the middle dimension of 3-d tensors, empty and 0-dim tensors, results
// that alias their input, more than 65535 output rows, few long lines (split across
// blocks) and one sum past 2^31 elements (64-bit index math). Inputs are integers, or
// multiples of 1/8 for the floating types, so that sums are exact in any order and THC
// must equal TH exactly; statistics and norms, whose rounding depends on the order, agree
// within kTol. Errors: the same kind and argument as TH, and the result left unchanged.
#define BOOST_TEST_MODULE THC reductions
#include "thc_test_util.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "TH/THError.hpp"
#include "TH/THTensorReduce.h"
#include "THC/THCTensorReduce.h"

using thct::DeviceTensor;
using thct::HostTensor;
using thct::Layout;
using thct::state;

namespace {

using AllTypes = std::tuple<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double>;
using FloatTypes = std::tuple<float, double>;

template <typename T>
using Host = th::TH<T>;
template <typename T>
using Dev = thc::THC<T>;
template <typename T>
using Red = thc::ReduceOps<T>;  // THC's reductions of type T

// TH's functions of the reduce group that th::TH<T> does not list.
template <typename T>
struct HostMore;
#define THCT_HOST_MORE(Name, T, dtype)                     \
  template <>                                              \
  struct HostMore<T> {                                     \
    static constexpr auto range = &TH##Name##Tensor_range; \
    static constexpr auto zeros = &TH##Name##Tensor_zeros; \
    static constexpr auto ones = &TH##Name##Tensor_ones;   \
    static constexpr auto cat = &TH##Name##Tensor_cat;     \
  };
TH_FORALL_ARITH_TYPES(THCT_HOST_MORE)
#undef THCT_HOST_MORE

template <typename T>
constexpr bool kFloating = std::is_floating_point_v<T>;

// Where the order of operations changes the rounding (var, std, norms, renorm).
template <typename T>
constexpr double kTol = std::is_same_v<T, float> ? 1e-5 : 1e-11;

struct DeviceFree {
  template <typename X>
  void operator()(X *x) const {
    if (x) thc::THC<std::remove_pointer_t<decltype(x->storage->data)>>::free(state(), x);
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

std::mt19937 &rng() {
  static std::mt19937 gen(20240612);
  return gen;
}

// What the inputs hold: Mixed, integers (of |x| <= 4, or 0..8 unsigned) or multiples of
// 1/8 in [-4, 4]; Powers, +-1 and +-2 (floats also +-1/2, +-1/4), whose products are
// exact in any order.
enum class Values { Mixed, Powers };

template <typename T>
T valueOf(Values kind) {
  if (kind == Values::Powers) {
    const double sign = std::is_unsigned_v<T> || rng()() % 2 ? 1 : -1;
    const int lowest = kFloating<T> ? -2 : 0;
    return static_cast<T>(sign * std::ldexp(1.0, std::uniform_int_distribution<int>(lowest, 1)(rng())));
  }
  if constexpr (kFloating<T>) return static_cast<T>(std::uniform_int_distribution<int>(-32, 32)(rng()) / 8.0);
  if constexpr (std::is_unsigned_v<T>) return static_cast<T>(std::uniform_int_distribution<int>(0, 8)(rng()));
  return static_cast<T>(std::uniform_int_distribution<int>(-4, 4)(rng()));
}

// A row-major host tensor of `shape` holding f(k) at element k.
template <typename T, typename F>
HostTensor<T> *hostOf(const std::vector<int64_t> &shape, F f) {
  HostTensor<T> *h = Host<T>::newWithSize((int)shape.size(), shape.data(), nullptr);
  T *p = Host<T>::data(h);
  const int64_t n = Host<T>::nElement(h);
  for (int64_t k = 0; k < n; k++) p[k] = static_cast<T>(f(k));
  return h;
}

template <typename T>
HostTensor<T> *values(const std::vector<int64_t> &shape, Values kind = Values::Mixed) {
  return hostOf<T>(shape, [&](int64_t) { return valueOf<T>(kind); });
}

// h (owned) and a contiguous device copy.
template <typename T>
Pair<T> pairOf(HostTensor<T> *h) {
  Pair<T> p{th::own(h), nullptr};
  p.d = own(thct::toDevice<T>(h));
  return p;
}

// A rows x cols matrix of new values in layout l on both sides (thct::kLayouts): a
// contiguous one, the transpose of a cols x rows one, a window of a larger one, one row
// expanded.
template <typename T>
Pair<T> inLayout(Layout l, int64_t rows, int64_t cols, Values kind = Values::Mixed) {
  switch (l) {
    case Layout::Contiguous: return pairOf<T>(values<T>({rows, cols}, kind));
    case Layout::Transposed: {
      auto base = pairOf<T>(values<T>({cols, rows}, kind));
      return Pair<T>{th::own(Host<T>::newTranspose(base.h.get(), 0, 1)),
                     own(Dev<T>::newTranspose(state(), base.d.get(), 0, 1))};
    }
    case Layout::Narrowed: {
      auto base = pairOf<T>(values<T>({rows + 3, cols + 5}, kind));
      auto hrows = th::own(Host<T>::newNarrow(base.h.get(), 0, 1, rows));
      auto drows = own(Dev<T>::newNarrow(state(), base.d.get(), 0, 1, rows));
      return Pair<T>{th::own(Host<T>::newNarrow(hrows.get(), 1, 2, cols)),
                     own(Dev<T>::newNarrow(state(), drows.get(), 1, 2, cols))};
    }
    case Layout::Expanded: {
      auto base = pairOf<T>(values<T>({1, cols}, kind));
      int64_t size[2] = {rows, cols};
      return Pair<T>{th::own(Host<T>::newExpand(base.h.get(), 2, size)),
                     own(Dev<T>::newExpand(state(), base.d.get(), 2, size))};
    }
  }
  BOOST_FAIL("unknown layout");
  return {};
}

// 3-d inputs of sizes a x b x c: contiguous, and the transpose (0, 2) of a c x b x a one.
template <typename T>
Pair<T> cube(bool permuted, int64_t a, int64_t b, int64_t c, Values kind = Values::Mixed) {
  if (!permuted) return pairOf<T>(values<T>({a, b, c}, kind));
  auto base = pairOf<T>(values<T>({c, b, a}, kind));
  return Pair<T>{th::own(Host<T>::newTranspose(base.h.get(), 0, 2)),
                 own(Dev<T>::newTranspose(state(), base.d.get(), 0, 2))};
}

// Element (i, j) of a host matrix view.
template <typename T>
T &at(HostTensor<T> *h, int64_t i, int64_t j) {
  return h->storage->data[h->storageOffset + i * h->stride[0] + j * h->stride[1]];
}

template <typename T>
Pair<T> emptyPair(const std::vector<int64_t> &shape) {
  return pairOf<T>(Host<T>::newWithSize((int)shape.size(), shape.data(), nullptr));
}

template <typename T>
Pair<T> scalarPair() {
  return pairOf<T>(hostOf<T>({}, [](int64_t) { return valueOf<T>(Values::Mixed); }));
}

// Empty results to be resized by the op.
template <typename T>
Pair<T> resultPair() {
  return emptyPair<T>({0});
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

// Numbers: equal, NaN equal to NaN, within tol relative to max(1, |expected|).
void expectClose(double expected, double actual, double tol, const std::string &what) {
  const bool same = (std::isnan(expected) && std::isnan(actual)) || expected == actual ||
                    std::abs(expected - actual) <= tol * std::max(1.0, std::abs(expected));
  BOOST_TEST(same, what << ": expected " << expected << ", got " << actual);
}

// hostOp(r, t) on TH and deviceOp(r, t) on THC from fresh results; the results compared.
template <typename T, typename FH, typename FD>
void compareOp(const Pair<T> &in, FH hostOp, FD deviceOp, double tol, const std::string &what) {
  auto r = resultPair<T>();
  hostOp(r.h.get(), in.h.get());
  deviceOp(r.d.get(), in.d.get());
  expectSame(r, tol, what);
}

std::string where(Layout l, int dim, int keepdim) {
  return std::string(thct::layoutName(l)) + " dim " + std::to_string(dim) + " keepdim " + std::to_string(keepdim);
}

// The call raises a th::Error of this kind; returns it.
template <typename F>
th::Error expectError(F call, th::ErrorKind kind, const std::string &who) {
  try {
    call();
  } catch (const th::Error &e) {
    BOOST_TEST((e.kind() == kind), who << " raised the wrong kind of error: " << e.what());
    return e;
  }
  BOOST_ERROR(who << " did not raise");
  return th::Error("", kind, 0);
}

// TH and THC raise the same kind of error about the same argument.
template <typename FH, typename FD>
void expectBothRaise(FH host, FD device, th::ErrorKind kind, const std::string &what) {
  th::Error h = expectError(host, kind, "TH " + what);
  th::Error d = expectError(device, kind, "THC " + what);
  BOOST_TEST(h.argNumber() == d.argNumber(), what << ": argument " << h.argNumber() << " vs " << d.argNumber());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(whole_tensor, *thct::needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(sum_prod_max_min_trace_equal, T, AllTypes) {
  for (Layout l : thct::kLayouts) {
    const std::string name = thct::layoutName(l);
    auto t = inLayout<T>(l, 37, 53);
    BOOST_TEST(Red<T>::sumall(state(), t.d.get()) == Host<T>::sumall(t.h.get()), name);
    BOOST_TEST(Red<T>::maxall(state(), t.d.get()) == Host<T>::maxall(t.h.get()), name);
    BOOST_TEST(Red<T>::minall(state(), t.d.get()) == Host<T>::minall(t.h.get()), name);
    BOOST_TEST(Red<T>::trace(state(), t.d.get()) == Host<T>::trace(t.h.get()), name);
    auto small = inLayout<T>(l, 5, 7, Values::Powers);
    BOOST_TEST(Red<T>::prodall(state(), small.d.get()) == Host<T>::prodall(small.h.get()), name);
    // equal: the same values in another layout; one element changed; other sizes
    auto copy = pairOf<T>(Host<T>::newClone(t.h.get()));
    BOOST_TEST(Red<T>::equal(state(), t.d.get(), copy.d.get()) == 1, name);
    at<T>(copy.h.get(), 36, 52) = static_cast<T>(at<T>(copy.h.get(), 36, 52) + 1);
    copy.d = own(thct::toDevice<T>(copy.h.get()));
    BOOST_TEST(Red<T>::equal(state(), t.d.get(), copy.d.get()) == Host<T>::equal(t.h.get(), copy.h.get()), name);
    BOOST_TEST(Red<T>::equal(state(), t.d.get(), copy.d.get()) == 0, name);
    auto other = inLayout<T>(l, 53, 37);
    BOOST_TEST(Red<T>::equal(state(), t.d.get(), other.d.get()) == 0, name);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(empty_and_zero_dim, T, AllTypes) {
  for (auto shape : {std::vector<int64_t>{0}, std::vector<int64_t>{3, 0}}) {
    auto e = emptyPair<T>(shape);
    BOOST_TEST(Red<T>::sumall(state(), e.d.get()) == Host<T>::sumall(e.h.get()));
    BOOST_TEST(Red<T>::prodall(state(), e.d.get()) == Host<T>::prodall(e.h.get()));
    expectBothRaise([&] { Host<T>::maxall(e.h.get()); }, [&] { Red<T>::maxall(state(), e.d.get()); },
                    th::ErrorKind::Runtime, "maxall of an empty tensor");
    expectBothRaise([&] { Host<T>::minall(e.h.get()); }, [&] { Red<T>::minall(state(), e.d.get()); },
                    th::ErrorKind::Runtime, "minall of an empty tensor");
    BOOST_TEST(Red<T>::equal(state(), e.d.get(), e.d.get()) == 1);
  }
  auto z = scalarPair<T>();
  BOOST_TEST(Red<T>::sumall(state(), z.d.get()) == Host<T>::sumall(z.h.get()));
  BOOST_TEST(Red<T>::prodall(state(), z.d.get()) == Host<T>::prodall(z.h.get()));
  BOOST_TEST(Red<T>::maxall(state(), z.d.get()) == Host<T>::maxall(z.h.get()));
  BOOST_TEST(Red<T>::minall(state(), z.d.get()) == Host<T>::minall(z.h.get()));
  auto v = pairOf<T>(values<T>({4}));
  expectBothRaise([&] { Host<T>::trace(v.h.get()); }, [&] { Red<T>::trace(state(), v.d.get()); },
                  th::ErrorKind::Runtime, "trace of a vector");
}

// Integers wrap as TH's: sums in int64 (narrowed by sum along a dimension), products too.
BOOST_AUTO_TEST_CASE_TEMPLATE(integers_wrap, T, AllTypes) {
  if constexpr (!kFloating<T>) {
    auto big = pairOf<T>(hostOf<T>({300, 4}, [](int64_t k) { return std::numeric_limits<T>::max() - k % 3; }));
    BOOST_TEST(Red<T>::sumall(state(), big.d.get()) == Host<T>::sumall(big.h.get()));
    BOOST_TEST(Red<T>::prodall(state(), big.d.get()) == Host<T>::prodall(big.h.get()));
    compareOp(
        big, [](auto *r, auto *t) { Host<T>::sum(r, t, 0, 0); },
        [](auto *r, auto *t) { Red<T>::sum(state(), r, t, 0, 0); }, 0, "sum that wraps");
    compareOp(
        big, [](auto *r, auto *t) { Host<T>::cumsum(r, t, 0); },
        [](auto *r, auto *t) { Red<T>::cumsum(state(), r, t, 0); }, 0, "cumsum that wraps");
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nan_wins, T, FloatTypes) {
  for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
    auto t = inLayout<T>(l, 9, 11);
    at<T>(t.h.get(), 4, 6) = NAN;
    Dev<T>::copyFromHost(state(), t.d.get(), t.h.get());
    BOOST_TEST(std::isnan(Red<T>::maxall(state(), t.d.get())));
    BOOST_TEST(std::isnan(Red<T>::minall(state(), t.d.get())));
    BOOST_TEST(std::isnan(Red<T>::sumall(state(), t.d.get())));
    BOOST_TEST(std::isnan(Red<T>::normall(state(), t.d.get(), INFINITY)));
    BOOST_TEST(Red<T>::equal(state(), t.d.get(), t.d.get()) == 0);
    for (int dim : {0, 1})
      compareOp(
          t, [&](auto *r, auto *t) { Host<T>::norm(r, t, INFINITY, dim, 0); },
          [&](auto *r, auto *t) { Red<T>::norm(state(), r, t, INFINITY, dim, 0); }, 0, "inf-norm with a NaN");
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(statistics_and_norms, T, FloatTypes) {
  for (Layout l : thct::kLayouts) {
    const std::string name = thct::layoutName(l);
    auto t = inLayout<T>(l, 37, 53);
    expectClose(Host<T>::meanall(t.h.get()), Red<T>::meanall(state(), t.d.get()), 0, name + " meanall");
    for (int biased : {0, 1}) {
      expectClose(Host<T>::varall(t.h.get(), biased), Red<T>::varall(state(), t.d.get(), biased), 1e-12,
                  name + " varall");
      expectClose(Host<T>::stdall(t.h.get(), biased), Red<T>::stdall(state(), t.d.get(), biased), 1e-12,
                  name + " stdall");
    }
    auto other = inLayout<T>(Layout::Contiguous, 53, 37);
    for (double p : {0.0, 1.0, 2.0, 3.0, 0.5, double(INFINITY)}) {
      const std::string at = name + " p " + std::to_string(p);
      expectClose(Host<T>::normall(t.h.get(), p), Red<T>::normall(state(), t.d.get(), p), 1e-12, at + " normall");
      // dist of tensors of as many elements in other shapes
      expectClose(Host<T>::dist(t.h.get(), other.h.get(), p), Red<T>::dist(state(), t.d.get(), other.d.get(), p), 1e-12,
                  at + " dist");
    }
  }
  auto e = emptyPair<T>({0});
  BOOST_TEST(std::isnan(Red<T>::meanall(state(), e.d.get())));
  BOOST_TEST(std::isnan(Red<T>::varall(state(), e.d.get(), 0)));
  BOOST_TEST(Red<T>::normall(state(), e.d.get(), 2) == 0);
  auto one = pairOf<T>(values<T>({1}));
  BOOST_TEST(std::isnan(Red<T>::varall(state(), one.d.get(), 0)));
  BOOST_TEST(Red<T>::varall(state(), one.d.get(), 1) == 0);
  auto a = pairOf<T>(values<T>({6})), b = pairOf<T>(values<T>({7}));
  expectBothRaise([&] { Host<T>::dist(a.h.get(), b.h.get(), 2); },
                  [&] { Red<T>::dist(state(), a.d.get(), b.d.get(), 2); }, th::ErrorKind::Runtime,
                  "dist of different element counts");
}

// Past 2^31 elements the offsets are 64-bit: a float 0.5 seen 2^31 + 1000 times (stride 0,
// no memory), summed exactly in double.
BOOST_AUTO_TEST_CASE(sum_past_2_to_the_31) {
  const int64_t n = (int64_t(1) << 31) + 1000;
  auto one = own(Dev<float>::newWithSize(state(), 1, std::vector<int64_t>{1}.data(), nullptr));
  Dev<float>::fill(state(), one.get(), 0.5f);
  auto all = own(Dev<float>::newExpand(state(), one.get(), 1, &n));
  BOOST_TEST(Red<float>::sumall(state(), all.get()) == 0.5 * double(n));
  BOOST_TEST(Red<float>::maxall(state(), all.get()) == 0.5f);
  // along a dimension: two lines of n / 2
  auto matrix = own(Dev<float>::newExpand(state(), one.get(), 2, std::vector<int64_t>{2, n / 2}.data()));
  auto r = own(Dev<float>::newWithSize(state(), 1, std::vector<int64_t>{0}.data(), nullptr));
  Red<float>::sum(state(), r.get(), matrix.get(), 1, 0);
  auto h = th::own(thct::toHost<float>(r.get()));
  BOOST_TEST(Host<float>::data(h.get())[0] == float(0.5 * double(n / 2)));
  BOOST_TEST(Host<float>::data(h.get())[1] == float(0.5 * double(n / 2)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(along_a_dimension, *thct::needsGPU())

// Every reduction along dims 0 and 1 of the layouts, keepdim 0 and 1, then the three dims
// of 3-d tensors.
template <typename T>
void checkReductions(const Pair<T> &t, const Pair<T> &powers, int dim, int keepdim, const std::string &name) {
  compareOp(
      t, [&](auto *r, auto *x) { Host<T>::sum(r, x, dim, keepdim); },
      [&](auto *r, auto *x) { Red<T>::sum(state(), r, x, dim, keepdim); }, 0, name + " sum");
  compareOp(
      powers, [&](auto *r, auto *x) { Host<T>::prod(r, x, dim, keepdim); },
      [&](auto *r, auto *x) { Red<T>::prod(state(), r, x, dim, keepdim); }, 0, name + " prod");
  if constexpr (kFloating<T>) {
    compareOp(
        t, [&](auto *r, auto *x) { Host<T>::mean(r, x, dim, keepdim); },
        [&](auto *r, auto *x) { Red<T>::mean(state(), r, x, dim, keepdim); }, 0, name + " mean");
    for (int biased : {0, 1}) {
      compareOp(
          t, [&](auto *r, auto *x) { Host<T>::var(r, x, dim, biased, keepdim); },
          [&](auto *r, auto *x) { Red<T>::var(state(), r, x, dim, biased, keepdim); }, kTol<T>, name + " var");
      compareOp(
          t, [&](auto *r, auto *x) { Host<T>::std(r, x, dim, biased, keepdim); },
          [&](auto *r, auto *x) { Red<T>::std(state(), r, x, dim, biased, keepdim); }, kTol<T>, name + " std");
    }
    for (T p : {T(0), T(1), T(2), T(3), T(INFINITY)})
      compareOp(
          t, [&](auto *r, auto *x) { Host<T>::norm(r, x, p, dim, keepdim); },
          [&](auto *r, auto *x) { Red<T>::norm(state(), r, x, p, dim, keepdim); }, kTol<T>,
          name + " norm " + std::to_string(p));
  }
  if constexpr (std::is_same_v<T, uint8_t>) {
    compareOp(
        t, [&](auto *r, auto *x) { Host<T>::logicalAll(r, x, dim, keepdim); },
        [&](auto *r, auto *x) { Red<T>::logicalAll(state(), r, x, dim, keepdim); }, 0, name + " logicalAll");
    compareOp(
        t, [&](auto *r, auto *x) { Host<T>::logicalAny(r, x, dim, keepdim); },
        [&](auto *r, auto *x) { Red<T>::logicalAny(state(), r, x, dim, keepdim); }, 0, name + " logicalAny");
  }
}

template <typename T>
void checkScans(const Pair<T> &t, const Pair<T> &powers, int dim, const std::string &name) {
  compareOp(
      t, [&](auto *r, auto *x) { Host<T>::cumsum(r, x, dim); },
      [&](auto *r, auto *x) { Red<T>::cumsum(state(), r, x, dim); }, 0, name + " cumsum");
  compareOp(
      powers, [&](auto *r, auto *x) { Host<T>::cumprod(r, x, dim); },
      [&](auto *r, auto *x) { Red<T>::cumprod(state(), r, x, dim); }, 0, name + " cumprod");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(matrices, T, AllTypes) {
  for (Layout l : thct::kLayouts) {
    auto t = inLayout<T>(l, 37, 53);
    auto powers = inLayout<T>(l, 37, 21, Values::Powers);  // products of at most 37
    for (int dim : {0, 1}) {
      for (int keepdim : {0, 1}) checkReductions(t, powers, dim, keepdim, where(l, dim, keepdim));
      checkScans(t, powers, dim, where(l, dim, 0));
    }
  }
  if constexpr (std::is_same_v<T, uint8_t>) {
    auto mask = pairOf<T>(hostOf<T>({4, 5}, [](int64_t k) { return k % 5 != 0 || k == 5; }));
    BOOST_TEST(Red<T>::logicalall(state(), mask.d.get()) == Host<T>::logicalall(mask.h.get()));
    BOOST_TEST(Red<T>::logicalany(state(), mask.d.get()) == Host<T>::logicalany(mask.h.get()));
    auto ones = pairOf<T>(hostOf<T>({4, 5}, [](int64_t) { return 7; }));
    BOOST_TEST(Red<T>::logicalall(state(), ones.d.get()) == 1);
    auto zeros = pairOf<T>(hostOf<T>({4, 5}, [](int64_t) { return 0; }));
    BOOST_TEST(Red<T>::logicalany(state(), zeros.d.get()) == 0);
    checkReductions(mask, mask, 1, 0, "mask");
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cubes, T, AllTypes) {
  for (bool permuted : {false, true}) {
    auto t = cube<T>(permuted, 4, 37, 5);
    auto powers = cube<T>(permuted, 4, 30, 5, Values::Powers);
    for (int dim : {0, 1, 2}) {
      const std::string name = std::string(permuted ? "permuted" : "contiguous") + " 3-d dim " + std::to_string(dim);
      checkReductions(t, powers, dim, dim == 1, name);
      checkScans(t, powers, dim, name);
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(empty_and_zero_dim, T, AllTypes) {
  for (auto shape : {std::vector<int64_t>{0, 4}, std::vector<int64_t>{3, 0}, std::vector<int64_t>{0}}) {
    auto e = emptyPair<T>(shape);
    for (int dim = 0; dim < (int)shape.size(); dim++)
      for (int keepdim : {0, 1}) {
        const std::string name = "empty " + std::to_string(shape.size()) + "-d dim " + std::to_string(dim);
        checkReductions(e, e, dim, keepdim, name);
        checkScans(e, e, dim, name);
      }
  }
  auto z = scalarPair<T>();
  for (int keepdim : {0, 1}) checkReductions(z, z, 0, keepdim, "0-dim");
  checkScans(z, z, 0, "0-dim");
}

// More than 65535 output rows (reduced innermost and outermost), and few lines long
// enough to be split across blocks.
BOOST_AUTO_TEST_CASE_TEMPLATE(grid_shapes, T, AllTypes) {
  for (auto shape : {std::vector<int64_t>{600000, 2}, std::vector<int64_t>{3, 70000}, std::vector<int64_t>{2, 300000},
                     std::vector<int64_t>{300000, 3}}) {
    auto t = pairOf<T>(values<T>(shape));
    for (int dim : {0, 1}) {
      const std::string name =
          std::to_string(shape[0]) + " x " + std::to_string(shape[1]) + " dim " + std::to_string(dim);
      compareOp(
          t, [&](auto *r, auto *x) { Host<T>::sum(r, x, dim, 0); },
          [&](auto *r, auto *x) { Red<T>::sum(state(), r, x, dim, 0); }, 0, name + " sum");
      compareOp(
          t, [&](auto *r, auto *x) { Host<T>::cumsum(r, x, dim); },
          [&](auto *r, auto *x) { Red<T>::cumsum(state(), r, x, dim); }, 0, name + " cumsum");
      if constexpr (kFloating<T>)
        compareOp(
            t, [&](auto *r, auto *x) { Host<T>::var(r, x, dim, 0, 0); },
            [&](auto *r, auto *x) { Red<T>::var(state(), r, x, dim, 0, 0); }, kTol<T>, name + " var");
    }
  }
}

// A result that is its input (r == t) or shares its storage; cumsum in place.
BOOST_AUTO_TEST_CASE_TEMPLATE(aliased_results, T, AllTypes) {
  auto t = pairOf<T>(values<T>({6, 7}));
  auto expected = th::own(Host<T>::newWithSize(1, std::vector<int64_t>{0}.data(), nullptr));
  Host<T>::sum(expected.get(), t.h.get(), 1, 0);
  Red<T>::sum(state(), t.d.get(), t.d.get(), 1, 0);
  expectSame<T>(expected.get(), t.d.get(), 0, "sum into its input");

  auto u = pairOf<T>(values<T>({6, 7}));
  auto column = own(Dev<T>::newSelect(state(), u.d.get(), 1, 2));
  Host<T>::sum(expected.get(), u.h.get(), 1, 0);
  Red<T>::sum(state(), column.get(), u.d.get(), 1, 0);
  expectSame<T>(expected.get(), column.get(), 0, "sum into a column of its input");

  auto v = pairOf<T>(values<T>({6, 7}));
  Host<T>::cumsum(v.h.get(), v.h.get(), 1);
  Red<T>::cumsum(state(), v.d.get(), v.d.get(), 1);
  expectSame(v, 0, "cumsum in place");
}

BOOST_AUTO_TEST_CASE_TEMPLATE(bad_dimensions, T, AllTypes) {
  auto t = pairOf<T>(values<T>({3, 4}));
  auto r = pairOf<T>(values<T>({5}));
  // each side's result before the failing calls (the two may differ within the op's tolerance)
  auto hostBefore = th::own(Host<T>::newClone(r.h.get()));
  auto deviceBefore = th::own(thct::toHost<T>(r.d.get()));
  for (int dim : {-1, 2}) {
    const std::string name = "dim " + std::to_string(dim);
    expectBothRaise([&] { Host<T>::sum(r.h.get(), t.h.get(), dim, 0); },
                    [&] { Red<T>::sum(state(), r.d.get(), t.d.get(), dim, 0); }, th::ErrorKind::Index, name + " sum");
    expectBothRaise([&] { Host<T>::prod(r.h.get(), t.h.get(), dim, 1); },
                    [&] { Red<T>::prod(state(), r.d.get(), t.d.get(), dim, 1); }, th::ErrorKind::Index, name + " prod");
    expectBothRaise([&] { Host<T>::cumsum(r.h.get(), t.h.get(), dim); },
                    [&] { Red<T>::cumsum(state(), r.d.get(), t.d.get(), dim); }, th::ErrorKind::Index,
                    name + " cumsum");
    if constexpr (kFloating<T>) {
      expectBothRaise([&] { Host<T>::var(r.h.get(), t.h.get(), dim, 0, 0); },
                      [&] { Red<T>::var(state(), r.d.get(), t.d.get(), dim, 0, 0); }, th::ErrorKind::Index,
                      name + " var");
      expectBothRaise([&] { Host<T>::norm(r.h.get(), t.h.get(), 2, dim, 0); },
                      [&] { Red<T>::norm(state(), r.d.get(), t.d.get(), 2, dim, 0); }, th::ErrorKind::Index,
                      name + " norm");
    }
    expectSame<T>(deviceBefore.get(), r.d.get(), 0, name + ": THC's result is unchanged");
    std::string why;
    BOOST_TEST(thct::sameValues<T>(hostBefore.get(), r.h.get(), 0, &why),
               name << ": TH's result is unchanged: " << why);
  }
  auto z = scalarPair<T>();
  expectBothRaise([&] { Host<T>::sum(r.h.get(), z.h.get(), 1, 0); },
                  [&] { Red<T>::sum(state(), r.d.get(), z.d.get(), 1, 0); }, th::ErrorKind::Index, "0-dim dim 1");
  expectSame<T>(deviceBefore.get(), r.d.get(), 0, "0-dim: THC's result is unchanged");
  std::string why;
  BOOST_TEST(thct::sameValues<T>(hostBefore.get(), r.h.get(), 0, &why), "0-dim: TH's result is unchanged: " << why);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(construction_and_structure, *thct::needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(zeros_ones_eye_range, T, AllTypes) {
  using Acc = std::conditional_t<kFloating<T>, double, int64_t>;
  auto r = resultPair<T>();
  const int64_t size[3] = {2, 3, 4};
  HostMore<T>::ones(r.h.get(), 3, size);
  Red<T>::ones(state(), r.d.get(), 3, size);
  expectSame(r, 0, "ones");
  HostMore<T>::zeros(r.h.get(), 2, size);
  Red<T>::zeros(state(), r.d.get(), 2, size);
  expectSame(r, 0, "zeros");
  for (auto nm : std::vector<std::pair<int64_t, int64_t>>{{4, 6}, {6, 4}, {5, 0}, {0, 0}}) {
    Host<T>::eye(r.h.get(), nm.first, nm.second);
    Red<T>::eye(state(), r.d.get(), nm.first, nm.second);
    expectSame(r, 0, "eye " + std::to_string(nm.first) + " " + std::to_string(nm.second));
  }
  const std::vector<std::tuple<Acc, Acc, Acc>> ranges = {{0, 10, 1}, {2, 20, 3}, {10, -5, -2}, {3, 3, 1}};
  for (auto [from, to, step] : ranges) {
    HostMore<T>::range(r.h.get(), from, to, step);
    Red<T>::range(state(), r.d.get(), from, to, step);
    expectSame(r, 0, "range");
    Host<T>::arange(r.h.get(), from, to, step);
    Red<T>::arange(state(), r.d.get(), from, to, step);
    expectSame(r, 0, "arange");
  }
  if constexpr (kFloating<T>) {
    HostMore<T>::range(r.h.get(), -1.5, 2.2, 0.1);
    Red<T>::range(state(), r.d.get(), -1.5, 2.2, 0.1);
    expectSame(r, 0, "range by 0.1");
    for (int64_t n : {0, 1, 2, 7, 100}) {
      Host<T>::linspace(r.h.get(), -1.5, 3.25, n);
      Red<T>::linspace(state(), r.d.get(), -1.5, 3.25, n);
      expectSame(r, 0, "linspace " + std::to_string(n));
      Host<T>::logspace(r.h.get(), -2, 3, n);
      Red<T>::logspace(state(), r.d.get(), -2, 3, n);
      expectSame(r, std::is_same_v<T, float> ? 1e-6 : 1e-14, "logspace " + std::to_string(n));
    }
  }
  // each side's result before the failing calls (the two may differ within the op's tolerance)
  auto hostBefore = th::own(Host<T>::newClone(r.h.get()));
  auto deviceBefore = th::own(thct::toHost<T>(r.d.get()));
  expectBothRaise([&] { Host<T>::arange(r.h.get(), 0, 10, 0); }, [&] { Red<T>::arange(state(), r.d.get(), 0, 10, 0); },
                  th::ErrorKind::Runtime, "arange by 0");
  expectBothRaise([&] { HostMore<T>::range(r.h.get(), 5, 1, 1); }, [&] { Red<T>::range(state(), r.d.get(), 5, 1, 1); },
                  th::ErrorKind::Runtime, "range of the wrong sign");
  expectBothRaise([&] { Host<T>::eye(r.h.get(), -1, 2); }, [&] { Red<T>::eye(state(), r.d.get(), -1, 2); },
                  th::ErrorKind::Runtime, "eye of -1 rows");
  expectSame<T>(deviceBefore.get(), r.d.get(), 0, "errors leave THC's result unchanged");
  std::string why;
  BOOST_TEST(thct::sameValues<T>(hostBefore.get(), r.h.get(), 0, &why), "errors leave TH's result unchanged: " << why);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(diag_tril_triu, T, AllTypes) {
  for (Layout l : thct::kLayouts) {
    auto m = inLayout<T>(l, 5, 7);
    for (int k : {0, 2, -3, 7, -6}) {
      const std::string name = std::string(thct::layoutName(l)) + " k " + std::to_string(k);
      compareOp(
          m, [&](auto *r, auto *t) { Host<T>::diag(r, t, k); },
          [&](auto *r, auto *t) { Red<T>::diag(state(), r, t, k); }, 0, name + " diag of a matrix");
      compareOp(
          m, [&](auto *r, auto *t) { Host<T>::tril(r, t, k); },
          [&](auto *r, auto *t) { Red<T>::tril(state(), r, t, k); }, 0, name + " tril");
      compareOp(
          m, [&](auto *r, auto *t) { Host<T>::triu(r, t, k); },
          [&](auto *r, auto *t) { Red<T>::triu(state(), r, t, k); }, 0, name + " triu");
    }
    // a row of the matrix as a vector (strided when transposed)
    Pair<T> row{th::own(Host<T>::newSelect(m.h.get(), 0, 1)), own(Dev<T>::newSelect(state(), m.d.get(), 0, 1))};
    for (int k : {0, 1, -2})
      compareOp(
          row, [&](auto *r, auto *t) { Host<T>::diag(r, t, k); },
          [&](auto *r, auto *t) { Red<T>::diag(state(), r, t, k); }, 0, "diag of a vector");
  }
  // triu in place
  auto m = pairOf<T>(values<T>({6, 6}));
  Host<T>::triu(m.h.get(), m.h.get(), 1);
  Red<T>::triu(state(), m.d.get(), m.d.get(), 1);
  expectSame(m, 0, "triu in place");
  auto r = pairOf<T>(values<T>({2}));
  // each side's result before the failing calls (the two may differ within the op's tolerance)
  auto hostBefore = th::own(Host<T>::newClone(r.h.get()));
  auto deviceBefore = th::own(thct::toHost<T>(r.d.get()));
  auto c = pairOf<T>(values<T>({2, 2, 2}));
  expectBothRaise([&] { Host<T>::diag(r.h.get(), c.h.get(), 0); },
                  [&] { Red<T>::diag(state(), r.d.get(), c.d.get(), 0); }, th::ErrorKind::Runtime,
                  "diag of a 3-d tensor");
  expectBothRaise([&] { Host<T>::tril(r.h.get(), c.h.get(), 0); },
                  [&] { Red<T>::tril(state(), r.d.get(), c.d.get(), 0); }, th::ErrorKind::Runtime,
                  "tril of a 3-d tensor");
  expectSame<T>(deviceBefore.get(), r.d.get(), 0, "errors leave THC's result unchanged");
  std::string why;
  BOOST_TEST(thct::sameValues<T>(hostBefore.get(), r.h.get(), 0, &why), "errors leave TH's result unchanged: " << why);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cat_and_cross, T, AllTypes) {
  auto a = inLayout<T>(Layout::Transposed, 4, 6);
  auto b = inLayout<T>(Layout::Narrowed, 3, 6);
  auto c = inLayout<T>(Layout::Expanded, 4, 2);
  auto empty = emptyPair<T>({0});
  compareOp(
      a, [&](auto *r, auto *x) { HostMore<T>::cat(r, x, b.h.get(), 0); },
      [&](auto *r, auto *x) { Red<T>::cat(state(), r, x, b.d.get(), 0); }, 0, "cat dim 0");
  {
    HostTensor<T> *hin[4] = {a.h.get(), empty.h.get(), c.h.get(), a.h.get()};
    DeviceTensor<T> *din[4] = {a.d.get(), empty.d.get(), c.d.get(), a.d.get()};
    compareOp(
        a, [&](auto *r, auto *) { Host<T>::catArray(r, hin, 4, 1); },
        [&](auto *r, auto *) { Red<T>::catArray(state(), r, din, 4, 1); }, 0, "catArray dim 1, an empty one skipped");
    HostTensor<T> *hempty[2] = {empty.h.get(), empty.h.get()};
    DeviceTensor<T> *dempty[2] = {empty.d.get(), empty.d.get()};
    compareOp(
        a, [&](auto *r, auto *) { Host<T>::catArray(r, hempty, 2, 0); },
        [&](auto *r, auto *) { Red<T>::catArray(state(), r, dempty, 2, 0); }, 0, "catArray of empty tensors");
  }
  // into one of its inputs
  auto into = pairOf<T>(values<T>({2, 3}));
  HostMore<T>::cat(into.h.get(), into.h.get(), into.h.get(), 1);
  Red<T>::cat(state(), into.d.get(), into.d.get(), into.d.get(), 1);
  expectSame(into, 0, "cat into its input");

  auto r = pairOf<T>(values<T>({2}));
  // each side's result before the failing calls (the two may differ within the op's tolerance)
  auto hostBefore = th::own(Host<T>::newClone(r.h.get()));
  auto deviceBefore = th::own(thct::toHost<T>(r.d.get()));
  expectBothRaise([&] { HostMore<T>::cat(r.h.get(), a.h.get(), b.h.get(), 1); },
                  [&] { Red<T>::cat(state(), r.d.get(), a.d.get(), b.d.get(), 1); }, th::ErrorKind::Runtime,
                  "cat of mismatched sizes");
  expectBothRaise([&] { HostMore<T>::cat(r.h.get(), a.h.get(), a.h.get(), 2); },
                  [&] { Red<T>::cat(state(), r.d.get(), a.d.get(), a.d.get(), 2); }, th::ErrorKind::Index,
                  "cat along a missing dimension");

  for (Layout l : {Layout::Contiguous, Layout::Transposed, Layout::Narrowed}) {
    auto x = inLayout<T>(l, 3, 7), y = inLayout<T>(l, 3, 7);
    for (int dim : {0, -1})
      compareOp(
          x, [&](auto *o, auto *t) { Host<T>::cross(o, t, y.h.get(), dim); },
          [&](auto *o, auto *t) { Red<T>::cross(state(), o, t, y.d.get(), dim); }, 0,
          std::string(thct::layoutName(l)) + " cross dim " + std::to_string(dim));
    auto xt = inLayout<T>(l, 7, 3), yt = inLayout<T>(l, 7, 3);
    compareOp(
        xt, [&](auto *o, auto *t) { Host<T>::cross(o, t, yt.h.get(), 1); },
        [&](auto *o, auto *t) { Red<T>::cross(state(), o, t, yt.d.get(), 1); }, 0,
        std::string(thct::layoutName(l)) + " cross dim 1");
  }
  auto x = pairOf<T>(values<T>({3, 4})), y = pairOf<T>(values<T>({3, 4}));
  expectBothRaise([&] { Host<T>::cross(r.h.get(), x.h.get(), y.h.get(), 1); },
                  [&] { Red<T>::cross(state(), r.d.get(), x.d.get(), y.d.get(), 1); }, th::ErrorKind::Runtime,
                  "cross along a dimension of size 4");
  expectSame<T>(deviceBefore.get(), r.d.get(), 0, "errors leave THC's result unchanged");
  std::string why;
  BOOST_TEST(thct::sameValues<T>(hostBefore.get(), r.h.get(), 0, &why), "errors leave TH's result unchanged: " << why);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(histc_and_renorm, T, FloatTypes) {
  for (Layout l : thct::kLayouts) {
    const std::string name = thct::layoutName(l);
    auto t = inLayout<T>(l, 37, 53);
    for (auto range : std::vector<std::pair<T, T>>{{-2, 2}, {0, 0}, {-4, 4}})
      compareOp(
          t, [&](auto *h, auto *x) { Host<T>::histc(h, x, 10, range.first, range.second); },
          [&](auto *h, auto *x) { Red<T>::histc(state(), h, x, 10, range.first, range.second); }, 0, name + " histc");
    for (int dim : {0, 1})
      for (T p : {T(1), T(2), T(3)})
        compareOp(
            t, [&](auto *r, auto *x) { Host<T>::renorm(r, x, p, dim, 5); },
            [&](auto *r, auto *x) { Red<T>::renorm(state(), r, x, p, dim, 5); }, kTol<T>,
            name + " renorm dim " + std::to_string(dim) + " p " + std::to_string(p));
  }
  auto e = emptyPair<T>({0});
  compareOp(
      e, [&](auto *h, auto *x) { Host<T>::histc(h, x, 4, 0, 0); },
      [&](auto *h, auto *x) { Red<T>::histc(state(), h, x, 4, 0, 0); }, 0, "histc of an empty tensor");
  auto r = pairOf<T>(values<T>({2}));
  // each side's result before the failing calls (the two may differ within the op's tolerance)
  auto hostBefore = th::own(Host<T>::newClone(r.h.get()));
  auto deviceBefore = th::own(thct::toHost<T>(r.d.get()));
  auto t = pairOf<T>(values<T>({3, 4}));
  expectBothRaise([&] { Host<T>::histc(r.h.get(), t.h.get(), 0, 0, 1); },
                  [&] { Red<T>::histc(state(), r.d.get(), t.d.get(), 0, 0, 1); }, th::ErrorKind::Runtime,
                  "histc of 0 bins");
  expectBothRaise([&] { Host<T>::renorm(r.h.get(), t.h.get(), 2, 2, 1); },
                  [&] { Red<T>::renorm(state(), r.d.get(), t.d.get(), 2, 2, 1); }, th::ErrorKind::Index,
                  "renorm along a missing dimension");
  expectBothRaise([&] { Host<T>::renorm(r.h.get(), t.h.get(), 0, 1, 1); },
                  [&] { Red<T>::renorm(state(), r.d.get(), t.d.get(), 0, 1, 1); }, th::ErrorKind::Runtime,
                  "renorm with p = 0");
  expectSame<T>(deviceBefore.get(), r.d.get(), 0, "errors leave THC's result unchanged");
  std::string why;
  BOOST_TEST(thct::sameValues<T>(hostBefore.get(), r.h.get(), 0, &why), "errors leave TH's result unchanged: " << why);
}

BOOST_AUTO_TEST_SUITE_END()
