// randperm and multinomial on the GPU, which return indices counted from TH_INDEX_BASE:
// permutations of TH_INDEX_BASE .. n - 1 + TH_INDEX_BASE, every order of a small n about
// equally often; multinomial frequencies within 5 standard errors with fixed seeds, with and
// without replacement (without: no repeats in a row, and the second draw distributed as
// TH's one-at-a-time removal draws it); the results that are determined compared with TH's,
// and TH's argument checks, which raise before self changes.
#define BOOST_TEST_MODULE THC random indices
#include "thc_test_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "TH/THError.hpp"
#include "TH/THRandom.h"
#include "TH/THTensorRandom.h"
#include "THC/THCTensorRandom.h"

using thct::DeviceTensor;
using thct::HostTensor;
using thct::state;

namespace {

template <typename T>
struct Rand;
// clang-format off
template <> struct Rand<uint8_t> { static constexpr auto randperm = &THCudaByteTensor_randperm; };
template <> struct Rand<int8_t> { static constexpr auto randperm = &THCudaCharTensor_randperm; };
template <> struct Rand<int16_t> { static constexpr auto randperm = &THCudaShortTensor_randperm; };
template <> struct Rand<int32_t> { static constexpr auto randperm = &THCudaIntTensor_randperm; };
template <> struct Rand<int64_t> { static constexpr auto randperm = &THCudaLongTensor_randperm; };
template <> struct Rand<float> {
  static constexpr auto randperm = &THCudaTensor_randperm;
  static constexpr auto multinomial = &THCudaTensor_multinomial;
};
template <> struct Rand<double> {
  static constexpr auto randperm = &THCudaDoubleTensor_randperm;
  static constexpr auto multinomial = &THCudaDoubleTensor_multinomial;
};
// clang-format on

using AllTypes = std::tuple<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double>;
using FloatingTypes = std::tuple<float, double>;

template <typename X>
using ElemOf = std::remove_pointer_t<decltype(std::declval<X &>().storage->data)>;

struct DeviceFree {
  template <typename X>
  void operator()(X *x) const {
    thc::THC<ElemOf<X>>::free(state(), x);
  }
};
template <typename X>
std::unique_ptr<X, DeviceFree> own(X *x) {
  return std::unique_ptr<X, DeviceFree>(x);
}

template <typename T>
HostTensor<T> *hostNew(std::vector<int64_t> shape) {
  return th::TH<T>::newWithSize((int)shape.size(), shape.data(), nullptr);
}
template <typename T>
DeviceTensor<T> *newDevice(std::vector<int64_t> shape) {
  return thc::THC<T>::newWithSize(state(), (int)shape.size(), shape.data(), nullptr);
}
template <typename T>
HostTensor<T> *hostOf(std::vector<int64_t> shape, const std::vector<double> &values) {
  HostTensor<T> *h = hostNew<T>(shape);
  for (size_t i = 0; i < values.size(); i++) th::TH<T>::data(h)[i] = (T)values[i];
  return h;
}

template <typename T>
std::vector<double> valuesOf(HostTensor<T> *h) {
  auto c = th::own(th::TH<T>::newContiguous(h));
  const T *p = th::TH<T>::data(c.get());
  return std::vector<double>(p, p + th::TH<T>::nElement(c.get()));
}
template <typename T>
std::vector<double> valuesOf(DeviceTensor<T> *d) {
  auto h = th::own(thct::toHost<T>(d));
  return valuesOf<T>(h.get());
}
template <typename TensorT>
std::vector<int64_t> shapeOf(TensorT *t) {
  return std::vector<int64_t>(t->size, t->size + t->nDimension);
}

struct HostGen {
  THGenerator *g;
  explicit HostGen(uint64_t seed) : g(THGenerator_new()) { THRandom_manualSeed(g, seed); }
  ~HostGen() { THGenerator_free(g); }
  operator THGenerator *() const { return g; }
};

// A per-element condition: one failure ends the case (a Boost.Test assertion per element of
// a million would cost more than the kernels).
void require(bool ok, const char *what) {
  if (!ok) BOOST_FAIL(what);
}

void checkFrequency(double count, double n, double p) {
  BOOST_TEST(std::fabs(count / n - p) <= 5 * std::sqrt(p * (1 - p) / n),
             "frequency " << count / n << " expected " << p);
}

// 0, 1, ..., n - 1 counted from TH_INDEX_BASE.
std::vector<double> indices(int64_t n) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; i++) v[i] = (double)(i + TH_INDEX_BASE);
  return v;
}

template <typename TensorT, typename F>
void checkRejected(TensorT *self, F call) {
  using T = ElemOf<TensorT>;
  const auto shape = shapeOf(self);
  const auto before = valuesOf<T>(self);
  const uint64_t offset = THCRandom_getOffset(state());
  BOOST_CHECK_THROW(call(), th::Error);
  BOOST_TEST(shapeOf(self) == shape);
  BOOST_TEST(valuesOf<T>(self) == before);
  BOOST_TEST(THCRandom_getOffset(state()) == offset);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(randperm, *thct::needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(is_a_permutation, T, AllTypes) {
  THCRandom_manualSeed(state(), 1);
  const int64_t largest = sizeof(T) <= 2 ? (int64_t)std::numeric_limits<T>::max() : 100000;
  for (int64_t n : {int64_t(0), int64_t(1), int64_t(2), int64_t(100), largest + 1 - TH_INDEX_BASE}) {
    auto self = own(newDevice<T>({3, 3}));
    const uint64_t offset = THCRandom_getOffset(state());
    Rand<T>::randperm(state(), self.get(), n);
    BOOST_TEST(shapeOf(self.get()) == std::vector<int64_t>({n}));
    BOOST_TEST(THCRandom_getOffset(state()) == offset + (n + 1) / 2);  // a 64-bit key per element
    auto v = valuesOf<T>(self.get());
    const auto first = v;
    std::sort(v.begin(), v.end());
    BOOST_TEST(v == indices(n), "n = " << n);
    if (n >= 100) BOOST_TEST((first != v), "n = " << n << " left in order");
  }
}

BOOST_AUTO_TEST_CASE(seed_determines_permutation) {
  auto a = own(newDevice<int64_t>({0})), b = own(newDevice<int64_t>({0}));
  THCRandom_manualSeed(state(), 77);
  Rand<int64_t>::randperm(state(), a.get(), 5000);
  THCRandom_manualSeed(state(), 77);
  Rand<int64_t>::randperm(state(), b.get(), 5000);
  BOOST_TEST(valuesOf<int64_t>(a.get()) == valuesOf<int64_t>(b.get()));
  THCRandom_manualSeed(state(), 78);
  Rand<int64_t>::randperm(state(), b.get(), 5000);
  BOOST_TEST((valuesOf<int64_t>(a.get()) != valuesOf<int64_t>(b.get())));
}

// A result of the right size keeps its strides (TH's resize).
BOOST_AUTO_TEST_CASE_TEMPLATE(strided_result, T, AllTypes) {
  const int64_t n = 60;
  auto base = own(newDevice<T>({n, 2}));
  thc::THC<T>::fill(state(), base.get(), (T)3);
  auto column = own(thc::THC<T>::newSelect(state(), base.get(), 1, 1));
  BOOST_TEST(column->stride[0] == 2);
  THCRandom_manualSeed(state(), 2);
  Rand<T>::randperm(state(), column.get(), n);
  BOOST_TEST(column->stride[0] == 2);
  auto v = valuesOf<T>(column.get());
  std::sort(v.begin(), v.end());
  BOOST_TEST(v == indices(n));
  auto other = own(thc::THC<T>::newSelect(state(), base.get(), 1, 0));
  BOOST_TEST(valuesOf<T>(other.get()) == std::vector<double>(n, 3.0));
}

BOOST_AUTO_TEST_CASE(large) {
  const int64_t n = 3000000;
  auto self = own(newDevice<int64_t>({0}));
  THCRandom_manualSeed(state(), 3);
  Rand<int64_t>::randperm(state(), self.get(), n);
  auto v = valuesOf<int64_t>(self.get());
  int64_t fixedPoints = 0;
  for (int64_t i = 0; i < n; i++) fixedPoints += v[i] == i + TH_INDEX_BASE;
  BOOST_TEST(fixedPoints < 20);  // Poisson(1)
  std::sort(v.begin(), v.end());
  BOOST_TEST(v == indices(n));
}

// Each of the 120 orders of 5 elements about 1/120 of the time.
BOOST_AUTO_TEST_CASE(orders_equally_likely) {
  const int runs = 12000;
  auto self = own(newDevice<int32_t>({5}));
  THCRandom_manualSeed(state(), 4);
  std::map<std::vector<double>, double> counts;
  for (int r = 0; r < runs; r++) {
    Rand<int32_t>::randperm(state(), self.get(), 5);
    counts[valuesOf<int32_t>(self.get())]++;
  }
  BOOST_TEST(counts.size() == 120u);
  for (const auto &[order, count] : counts) checkFrequency(count, runs, 1.0 / 120);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(errors, T, AllTypes) {
  auto self = own(newDevice<T>({4}));
  thc::THC<T>::fill(state(), self.get(), (T)9);
  auto ref = th::own(hostNew<T>({4}));
  HostGen g(1);
  checkRejected(self.get(), [&] { Rand<T>::randperm(state(), self.get(), -1); });
  BOOST_CHECK_THROW(th::TH<T>::randperm(ref.get(), g, -1), th::Error);
  if constexpr (sizeof(T) == 1) {
    const int64_t tooMany = (int64_t)std::numeric_limits<T>::max() + 2 - TH_INDEX_BASE;
    checkRejected(self.get(), [&] { Rand<T>::randperm(state(), self.get(), tooMany); });
    BOOST_CHECK_THROW(th::TH<T>::randperm(ref.get(), g, tooMany), th::Error);
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(multinomial, *thct::needsGPU())

// Frequencies of every category in each row, with replacement, for prob_dist in each layout.
BOOST_AUTO_TEST_CASE_TEMPLATE(with_replacement, T, FloatingTypes) {
  const int64_t rows = 3, cats = 7;
  const int samples = 100000;
  for (thct::Layout l : thct::kLayouts) {
    HostTensor<T> *hp;
    DeviceTensor<T> *dp;
    thct::makeLayout<T>(l, rows, cats, 5, 0.1, 1, &hp, &dp);
    auto hpOwned = th::own(hp);
    auto dpOwned = own(dp);
    const auto p = valuesOf<T>(hp);
    auto self = own(THCudaLongTensor_new(state()));
    THCRandom_manualSeed(state(), 6);
    Rand<T>::multinomial(state(), self.get(), dp, samples, 1);
    BOOST_TEST(shapeOf(self.get()) == std::vector<int64_t>({rows, samples}));
    const auto v = valuesOf<int64_t>(self.get());
    for (int64_t r = 0; r < rows; r++) {
      double total = 0;
      for (int64_t j = 0; j < cats; j++) total += p[r * cats + j];
      std::vector<double> counts(cats);
      for (int s = 0; s < samples; s++) {
        const int64_t c = (int64_t)v[r * samples + s] - TH_INDEX_BASE;
        require(c >= 0 && c < cats, "a category out of range");
        counts[c]++;
      }
      for (int64_t j = 0; j < cats; j++) checkFrequency(counts[j], samples, p[r * cats + j] / total);
    }
  }
}

// Zero probabilities are never drawn; a one-hot row gives TH's result; 1-D prob_dist gives a
// 1-D result; many categories (several blocks of the cumulative sum).
BOOST_AUTO_TEST_CASE_TEMPLATE(zeros_and_certainties, T, FloatingTypes) {
  auto hp = th::own(hostOf<T>({3, 5}, {1, 2, 3, 4, 0, 0, 0, 5, 0, 0, 0.1, 0, 0, 0, 0.9}));
  auto dp = own(thct::toDevice<T>(hp.get()));
  auto self = own(THCudaLongTensor_new(state()));
  THCRandom_manualSeed(state(), 7);
  const int samples = 50000;
  Rand<T>::multinomial(state(), self.get(), dp.get(), samples, 1);
  const auto v = valuesOf<int64_t>(self.get());
  double zeroDrawn = 0, ninth = 0;
  for (int s = 0; s < samples; s++) {
    zeroDrawn += v[s] == 4 + TH_INDEX_BASE;
    require(v[samples + s] == 2 + TH_INDEX_BASE, "the one-hot row gave another category");
    const double c = v[2 * samples + s] - TH_INDEX_BASE;
    require(c == 0 || c == 4, "a category of probability 0");
    ninth += c == 4;
  }
  BOOST_TEST(zeroDrawn == 0);
  checkFrequency(ninth, samples, 0.9);

  auto oneHot = th::own(hostOf<T>({4}, {0, 0, 0, 2.5}));
  auto dOneHot = own(thct::toDevice<T>(oneHot.get()));
  auto ref = th::own(THLongTensor_new());
  HostGen g(1);
  for (int replacement : {0, 1}) {
    const int n = replacement ? 9 : 1;
    Rand<T>::multinomial(state(), self.get(), dOneHot.get(), n, replacement);
    th::TH<T>::multinomial(ref.get(), g, oneHot.get(), n, replacement);
    BOOST_TEST(shapeOf(self.get()) == shapeOf(ref.get()));
    BOOST_TEST(valuesOf<int64_t>(self.get()) == valuesOf<int64_t>(ref.get()));
  }

  // 1000 categories, weights 1..7 by j % 7 and 0 where j % 10 == 3; counted by hundreds
  const int64_t cats = 1000;
  std::vector<double> weights(cats);
  for (int64_t j = 0; j < cats; j++) weights[j] = j % 10 == 3 ? 0 : (double)(j % 7 + 1);
  auto hw = th::own(hostOf<T>({cats}, weights));
  auto dw = own(thct::toDevice<T>(hw.get()));
  const int many = 500000;
  Rand<T>::multinomial(state(), self.get(), dw.get(), many, 1);
  BOOST_TEST(shapeOf(self.get()) == std::vector<int64_t>({many}));
  double total = 0;
  for (double w : weights) total += w;
  std::vector<double> hundreds(10);
  for (double x : valuesOf<int64_t>(self.get())) {
    const int64_t c = (int64_t)x - TH_INDEX_BASE;
    require(c >= 0 && c < cats && weights[c] > 0, "a category out of range or of probability 0");
    hundreds[c / 100]++;
  }
  for (int k = 0; k < 10; k++) {
    double w = 0;
    for (int j = 0; j < 100; j++) w += weights[k * 100 + j];
    checkFrequency(hundreds[k], many, w / total);
  }
}

// Without replacement: no repeats, zero probabilities last, and each position distributed
// as TH's one-at-a-time removal draws it: P(second = j) = sum over i != j of p_i p_j / (1 - p_i).
BOOST_AUTO_TEST_CASE_TEMPLATE(without_replacement, T, FloatingTypes) {
  const std::vector<double> p = {0.1, 0.2, 0.3, 0.4, 0};
  const int64_t rows = 2000;
  auto one = own(thct::toDevice<T>(th::own(hostOf<T>({1, 5}, p)).get()));
  int64_t size[2] = {rows, 5};
  auto dp = own(thc::THC<T>::newExpand(state(), one.get(), 2, size));  // one row, 2000 times
  auto self = own(THCudaLongTensor_new(state()));
  THCRandom_manualSeed(state(), 8);
  Rand<T>::multinomial(state(), self.get(), dp.get(), 3, 0);
  BOOST_TEST(shapeOf(self.get()) == std::vector<int64_t>({rows, 3}));
  const auto v = valuesOf<int64_t>(self.get());
  std::vector<double> first(5), second(5);
  for (int64_t r = 0; r < rows; r++) {
    const int64_t a = (int64_t)v[r * 3] - TH_INDEX_BASE, b = (int64_t)v[r * 3 + 1] - TH_INDEX_BASE,
                  c = (int64_t)v[r * 3 + 2] - TH_INDEX_BASE;
    require(a >= 0 && a < 4 && b >= 0 && b < 4 && c >= 0 && c < 4, "a category out of range or of probability 0");
    require(a != b && b != c && a != c, "a category drawn twice in a row");
    first[a]++;
    second[b]++;
  }
  for (int j = 0; j < 5; j++) {
    checkFrequency(first[j], rows, p[j]);
    double q = 0;
    for (int i = 0; i < 5; i++)
      if (i != j) q += p[i] * p[j] / (1 - p[i]);
    checkFrequency(second[j], rows, q);
  }

  // as many samples as nonzero categories: each row holds all of them
  auto h3 = th::own(hostOf<T>({6}, {0, 3, 0, 1, 1, 0}));
  auto d3 = own(thct::toDevice<T>(h3.get()));
  Rand<T>::multinomial(state(), self.get(), d3.get(), 3, 0);
  auto got = valuesOf<int64_t>(self.get());
  std::sort(got.begin(), got.end());
  BOOST_TEST(got == std::vector<double>({1.0 + TH_INDEX_BASE, 3.0 + TH_INDEX_BASE, 4.0 + TH_INDEX_BASE}));
  auto h2 = th::own(hostOf<T>({6}, {5, 0, 0, 0, 0, 2}));
  auto d2 = own(thct::toDevice<T>(h2.get()));
  Rand<T>::multinomial(state(), self.get(), d2.get(), 2, 0);
  got = valuesOf<int64_t>(self.get());
  std::sort(got.begin(), got.end());
  BOOST_TEST(got == std::vector<double>({0.0 + TH_INDEX_BASE, 5.0 + TH_INDEX_BASE}));
}

// Rows past one sort's worth of keys (2^26) go in several sorts: every row still has
// distinct categories.
BOOST_AUTO_TEST_CASE(without_replacement_many_rows) {
  const int64_t rows = 700, cats = 100000;
  auto dp = own(newDevice<float>({rows, cats}));
  thc::THC<float>::fill(state(), dp.get(), 1.0f);
  auto self = own(THCudaLongTensor_new(state()));
  THCRandom_manualSeed(state(), 9);
  Rand<float>::multinomial(state(), self.get(), dp.get(), 50, 0);
  const auto v = valuesOf<int64_t>(self.get());
  std::vector<double> firsts;
  for (int64_t r = 0; r < rows; r++) {
    std::set<double> seen(v.begin() + r * 50, v.begin() + (r + 1) * 50);
    require(seen.size() == 50u, "a category drawn twice in a row");
    require(*seen.begin() >= TH_INDEX_BASE && *seen.rbegin() < cats + TH_INDEX_BASE, "a category out of range");
    firsts.push_back(v[r * 50]);
  }
  // rows differ
  std::set<double> distinctFirsts(firsts.begin(), firsts.end());
  BOOST_TEST(distinctFirsts.size() > 600u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(seed_determines_samples, T, FloatingTypes) {
  auto dp = own(thct::toDevice<T>(th::own(thct::randomHost<T>({4, 30}, 0, 1)).get()));
  auto a = own(THCudaLongTensor_new(state())), b = own(THCudaLongTensor_new(state()));
  for (int replacement : {0, 1}) {
    THCRandom_manualSeed(state(), 10);
    Rand<T>::multinomial(state(), a.get(), dp.get(), 20, replacement);
    THCRandom_manualSeed(state(), 10);
    Rand<T>::multinomial(state(), b.get(), dp.get(), 20, replacement);
    BOOST_TEST(valuesOf<int64_t>(a.get()) == valuesOf<int64_t>(b.get()));
    Rand<T>::multinomial(state(), b.get(), dp.get(), 20, replacement);
    BOOST_TEST((valuesOf<int64_t>(a.get()) != valuesOf<int64_t>(b.get())));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(no_distributions, T, FloatingTypes) {
  auto dp = own(newDevice<T>({0, 4}));
  auto self = own(THCudaLongTensor_new(state()));
  auto hp = th::own(hostNew<T>({0, 4}));
  auto ref = th::own(THLongTensor_new());
  HostGen g(1);
  Rand<T>::multinomial(state(), self.get(), dp.get(), 2, 1);
  th::TH<T>::multinomial(ref.get(), g, hp.get(), 2, 1);
  BOOST_TEST(shapeOf(self.get()) == shapeOf(ref.get()));
}

// TH's checks (TH raises too), self unchanged.
BOOST_AUTO_TEST_CASE_TEMPLATE(errors, T, FloatingTypes) {
  auto self = own(thct::toDevice<int64_t>(th::own(hostOf<int64_t>({2, 2}, {5, 6, 7, 8})).get()));
  auto ref = th::own(THLongTensor_new());
  HostGen g(1);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  auto check = [&](std::vector<int64_t> shape, std::vector<double> p, int n, int replacement) {
    auto hp = th::own(hostOf<T>(shape, p));
    auto dp = own(thct::toDevice<T>(hp.get()));
    checkRejected(self.get(), [&] { Rand<T>::multinomial(state(), self.get(), dp.get(), n, replacement); });
    BOOST_CHECK_THROW(th::TH<T>::multinomial(ref.get(), g, hp.get(), n, replacement), th::Error);
  };
  for (int replacement : {0, 1}) {
    check({2, 3}, {1, 2, 3, 1, -0.5, 1}, 1, replacement);  // negative
    check({2, 3}, {1, 2, 3, 1, nan, 1}, 1, replacement);
    check({3}, {1, inf, 1}, 1, replacement);
    check({2, 3}, {1, 2, 3, 0, 0, 0}, 1, replacement);  // nothing to draw
    check({3}, {1, 2, 3}, 0, replacement);              // n_sample > 0
    check({1, 1, 3}, {1, 2, 3}, 1, replacement);        // 1-D or 2-D
    check({2, 0}, {}, 1, replacement);                  // no categories
  }
  check({2, 3}, {1, 2, 3, 1, 1, 1}, 4, 0);  // more samples than categories
  check({2, 3}, {1, 2, 3, 1, 0, 1}, 3, 0);  // more than the nonzero ones of row 1
  // a huge probability whose row sums to infinity
  if constexpr (std::is_same_v<T, double>) check({2}, {1e308, 1e308}, 1, 1);
}

BOOST_AUTO_TEST_SUITE_END()
