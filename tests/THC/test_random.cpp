// THC's random fills. The Philox generator against the Random123 known answers (on the
// host: this suite runs without a GPU too). On the GPU: what a seed and an offset determine
// (Note [Philox counters]: element i takes counter offset + i / K, whatever the launch and
// the strides), the distributions against their theoretical moments (5 standard errors) and
// Kolmogorov-Smirnov distances (below the critical value at level 1e-6) with fixed seeds,
// the cases whose result is determined compared with TH's, and TH's argument checks, which
// raise before anything is written or any counter is used.
#define BOOST_TEST_MODULE THC random
#include "thc_test_util.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <vector>

#include "TH/THError.hpp"
#include "TH/THRandom.h"
#include "TH/THTensorRandom.h"
#include "THC/THCPhilox.cuh"
#include "THC/THCTensorRandom.h"

using thct::DeviceTensor;
using thct::HostTensor;
using thct::state;

namespace {

// THC's random functions of element type T.
template <typename T>
struct Rand;
// clang-format off
#define THCT_RANDOM_ALL(P)                                                  \
  static constexpr auto random = &P##_random;                               \
  static constexpr auto clampedRandom = &P##_clampedRandom;                 \
  static constexpr auto cappedRandom = &P##_cappedRandom;                   \
  static constexpr auto geometric = &P##_geometric;                         \
  static constexpr auto bernoulli = &P##_bernoulli;                         \
  static constexpr auto bernoulli_FloatTensor = &P##_bernoulli_FloatTensor; \
  static constexpr auto bernoulli_DoubleTensor = &P##_bernoulli_DoubleTensor;
#define THCT_RANDOM_FLOATING(P)                                             \
  static constexpr auto bernoulli_Tensor = &P##_bernoulli_Tensor;           \
  static constexpr auto uniform = &P##_uniform;                             \
  static constexpr auto normal = &P##_normal;                               \
  static constexpr auto normal_means = &P##_normal_means;                   \
  static constexpr auto normal_stddevs = &P##_normal_stddevs;               \
  static constexpr auto normal_means_stddevs = &P##_normal_means_stddevs;   \
  static constexpr auto exponential = &P##_exponential;                     \
  static constexpr auto cauchy = &P##_cauchy;                               \
  static constexpr auto logNormal = &P##_logNormal;                         \
  static constexpr auto rand = &P##_rand;                                   \
  static constexpr auto randn = &P##_randn;
template <> struct Rand<uint8_t> { THCT_RANDOM_ALL(THCudaByteTensor) };
template <> struct Rand<int8_t> { THCT_RANDOM_ALL(THCudaCharTensor) };
template <> struct Rand<int16_t> { THCT_RANDOM_ALL(THCudaShortTensor) };
template <> struct Rand<int32_t> { THCT_RANDOM_ALL(THCudaIntTensor) };
template <> struct Rand<int64_t> { THCT_RANDOM_ALL(THCudaLongTensor) };
template <> struct Rand<float> { THCT_RANDOM_ALL(THCudaTensor) THCT_RANDOM_FLOATING(THCudaTensor) };
template <> struct Rand<double> { THCT_RANDOM_ALL(THCudaDoubleTensor) THCT_RANDOM_FLOATING(THCudaDoubleTensor) };
#undef THCT_RANDOM_ALL
#undef THCT_RANDOM_FLOATING
// clang-format on

using AllTypes = std::tuple<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double>;
using IntegerTypes = std::tuple<uint8_t, int8_t, int16_t, int32_t, int64_t>;
using FloatingTypes = std::tuple<float, double>;

constexpr int64_t kSamples = 1000000;

// Elements drawn per Philox block for a continuous distribution of T.
template <typename T>
constexpr uint64_t kPerCounter = std::is_same_v<T, double> ? 2 : 4;

template <typename T>
HostTensor<T> *hostNew(std::vector<int64_t> shape) {
  return th::TH<T>::newWithSize((int)shape.size(), shape.data(), nullptr);
}

template <typename T>
DeviceTensor<T> *newDevice(std::vector<int64_t> shape) {
  return thc::THC<T>::newWithSize(state(), (int)shape.size(), shape.data(), nullptr);
}

// Device tensor's elements in row-major order, as doubles.
template <typename T>
std::vector<double> valuesOf(DeviceTensor<T> *d) {
  auto h = th::own(thct::toHost<T>(d));
  auto c = th::own(th::TH<T>::newContiguous(h.get()));
  const T *p = th::TH<T>::data(c.get());
  return std::vector<double>(p, p + th::TH<T>::nElement(c.get()));
}
template <typename T>
std::vector<double> valuesOf(HostTensor<T> *h) {
  auto c = th::own(th::TH<T>::newContiguous(h));
  const T *p = th::TH<T>::data(c.get());
  return std::vector<double>(p, p + th::TH<T>::nElement(c.get()));
}

template <typename T>
std::vector<int64_t> shapeOf(DeviceTensor<T> *d) {
  return std::vector<int64_t>(d->size, d->size + d->nDimension);
}
template <typename T>
std::vector<int64_t> shapeOf(HostTensor<T> *h) {
  return std::vector<int64_t>(h->size, h->size + h->nDimension);
}

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

struct HostGen {
  THGenerator *g;
  explicit HostGen(uint64_t seed) : g(THGenerator_new()) { THRandom_manualSeed(g, seed); }
  ~HostGen() { THGenerator_free(g); }
  operator THGenerator *() const { return g; }
};

// Sample mean and variance within 5 standard errors of the theoretical ones; mu4 is the
// fourth central moment (the standard error of the sample variance needs it).
void checkMoments(const std::vector<double> &v, double mean, double var, double mu4) {
  const double n = (double)v.size();
  double m = 0;
  for (double x : v) m += x;
  m /= n;
  double s2 = 0;
  for (double x : v) s2 += (x - m) * (x - m);
  s2 /= n - 1;
  BOOST_TEST(std::fabs(m - mean) <= 5 * std::sqrt(var / n), "mean " << m << " expected " << mean);
  BOOST_TEST(std::fabs(s2 - var) <= 5 * std::sqrt((mu4 - var * var) / n), "variance " << s2 << " expected " << var);
}

// A per-element condition: one failure ends the case (a Boost.Test assertion per element of
// a million would cost more than the kernels).
void require(bool ok, const char *what) {
  if (!ok) BOOST_FAIL(what);
}

void checkFrequency(double count, double n, double p) {
  BOOST_TEST(std::fabs(count / n - p) <= 5 * std::sqrt(p * (1 - p) / n),
             "frequency " << count / n << " expected " << p);
}

// The Kolmogorov-Smirnov distance of the sample from cdf, below the critical value of level
// 1e-6: sqrt(-log(1e-6 / 2) / (2 n)).
void checkKS(std::vector<double> v, const std::function<double(double)> &cdf) {
  std::sort(v.begin(), v.end());
  const double n = (double)v.size();
  double d = 0;
  for (size_t i = 0; i < v.size(); i++) {
    const double f = cdf(v[i]);
    d = std::max({d, f - i / n, (i + 1) / n - f});
  }
  const double critical = std::sqrt(-std::log(1e-6 / 2) / (2 * n));
  BOOST_TEST(d < critical, "Kolmogorov-Smirnov distance " << d << ", critical " << critical);
}

double normalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// call() must raise th::Error, leaving self's shape and values and the generator's offset
// as they were.
template <typename T, typename F>
void checkRejected(DeviceTensor<T> *self, F call) {
  const auto shape = shapeOf<T>(self);
  const auto before = valuesOf<T>(self);
  const uint64_t offset = THCRandom_getOffset(state());
  BOOST_CHECK_THROW(call(), th::Error);
  BOOST_TEST(shapeOf<T>(self) == shape);
  BOOST_TEST(valuesOf<T>(self) == before);
  BOOST_TEST(THCRandom_getOffset(state()) == offset);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(philox)

// Random123's tests/kat_vectors, the three philox4x32 10 lines: counter, key, result.
BOOST_AUTO_TEST_CASE(known_answers) {
  struct Case {
    thc::Philox4x32 counter;
    thc::PhiloxKey key;
    thc::Philox4x32 expected;
  };
  const Case cases[] = {
      {{{0x00000000, 0x00000000, 0x00000000, 0x00000000}},
       {{0x00000000, 0x00000000}},
       {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}}},
      {{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}},
       {{0xffffffff, 0xffffffff}},
       {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}}},
      {{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}},
       {{0xa4093822, 0x299f31d0}},
       {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}},
  };
  for (const Case &c : cases) {
    const thc::Philox4x32 r = thc::philox(c.counter, c.key);
    for (int j = 0; j < 4; j++) BOOST_TEST(r.v[j] == c.expected.v[j], "word " << j);
  }
}

BOOST_AUTO_TEST_CASE(seed_and_counter_words) {
  const thc::PhiloxKey k = thc::philoxKey(0x0123456789abcdefULL);
  BOOST_TEST(k.v[0] == 0x89abcdefu);
  BOOST_TEST(k.v[1] == 0x01234567u);
  const thc::Philox4x32 c = thc::philoxCounter(0xfedcba9876543210ULL);
  BOOST_TEST(c.v[0] == 0x76543210u);
  BOOST_TEST(c.v[1] == 0xfedcba98u);
  BOOST_TEST(c.v[2] == 0u);
  BOOST_TEST(c.v[3] == 0u);
  // consecutive counters give unrelated blocks
  const thc::Philox4x32 a = thc::philox(thc::philoxCounter(0), k), b = thc::philox(thc::philoxCounter(1), k);
  int same = 0;
  for (int j = 0; j < 4; j++) same += a.v[j] == b.v[j];
  BOOST_TEST(same == 0);
}

BOOST_AUTO_TEST_CASE(uniforms_stay_below_one) {
  BOOST_TEST(thc::uniform32(0) == 0.0);
  BOOST_TEST(thc::uniform32(0xffffffffu) == 1.0 - std::ldexp(1.0, -32));
  BOOST_TEST(thc::uniform53(0) == 0.0);
  BOOST_TEST(thc::uniform53(~uint64_t(0)) == 1.0 - std::ldexp(1.0, -53));
  BOOST_TEST(thc::uniform53(uint64_t(1) << 11) == std::ldexp(1.0, -53));
  BOOST_TEST(thc::bits64(0x01234567u, 0x89abcdefu) == 0x0123456789abcdefULL);
  // rounded to float, a 32-bit uniform can reach 1: the kernels clamp (uniform_never_reaches_b)
  BOOST_TEST((float)thc::uniform32(0xffffffffu) == 1.0f);
}

BOOST_AUTO_TEST_CASE(box_muller_pairs) {
  double z0, z1;
  thc::normalPair(0.0, 0.3, &z0, &z1);  // radius sqrt(-2 log 1) = 0
  BOOST_TEST(z0 == 0.0);
  BOOST_TEST(z1 == 0.0);
  // the largest radius from a 32-bit uniform, sqrt(64 log 2), at angle pi / 2
  thc::normalPair(thc::uniform32(0xffffffffu), 0.25, &z0, &z1);
  BOOST_TEST(std::fabs(z0) < 1e-9);
  BOOST_TEST(std::fabs(z1 - std::sqrt(64 * std::log(2.0))) < 1e-9);
  thc::normalPair(0.5, 0.5, &z0, &z1);  // angle pi
  BOOST_TEST(std::fabs(z0 + std::sqrt(2 * std::log(2.0))) < 1e-12);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(generator, *thct::needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(seed_determines_values, T, FloatingTypes) {
  auto a = own(newDevice<T>({37, 11})), b = own(newDevice<T>({37, 11})), c = own(newDevice<T>({37, 11}));
  THCRandom_manualSeed(state(), 2024);
  BOOST_TEST(THCRandom_initialSeed(state()) == 2024u);
  BOOST_TEST(THCRandom_getOffset(state()) == 0u);
  Rand<T>::normal(state(), a.get(), 0, 1);
  THCRandom_manualSeed(state(), 2024);
  Rand<T>::normal(state(), b.get(), 0, 1);
  BOOST_TEST(valuesOf<T>(a.get()) == valuesOf<T>(b.get()));
  // the next call continues: other values
  Rand<T>::normal(state(), c.get(), 0, 1);
  BOOST_TEST((valuesOf<T>(c.get()) != valuesOf<T>(b.get())));
  THCRandom_manualSeed(state(), 2025);
  Rand<T>::normal(state(), c.get(), 0, 1);
  const auto va = valuesOf<T>(a.get()), vc = valuesOf<T>(c.get());
  int64_t same = 0;
  for (size_t i = 0; i < va.size(); i++) same += va[i] == vc[i];
  BOOST_TEST(same == 0);
  // seeds past 32 bits count
  THCRandom_manualSeed(state(), 2024 + (uint64_t(1) << 40));
  Rand<T>::normal(state(), c.get(), 0, 1);
  BOOST_TEST((valuesOf<T>(c.get()) != va));
}

// A launch over n elements moves the offset by ceil(n / K); empty tensors and failed checks
// by nothing.
BOOST_AUTO_TEST_CASE(offset_counts_blocks) {
  THCRandom_manualSeed(state(), 7);
  auto f = own(newDevice<float>({10})), e = own(newDevice<float>({0, 3}));
  auto d = own(newDevice<double>({10}));
  auto l = own(newDevice<int64_t>({5}));
  Rand<float>::uniform(state(), f.get(), 0, 1);
  BOOST_TEST(THCRandom_getOffset(state()) == 3u);
  Rand<double>::uniform(state(), d.get(), 0, 1);
  BOOST_TEST(THCRandom_getOffset(state()) == 8u);
  Rand<double>::bernoulli(state(), d.get(), 0.5);  // 32-bit draws for every type
  BOOST_TEST(THCRandom_getOffset(state()) == 11u);
  Rand<int64_t>::clampedRandom(state(), l.get(), 0, int64_t(1) << 40);  // 64-bit draws
  BOOST_TEST(THCRandom_getOffset(state()) == 14u);
  Rand<int64_t>::clampedRandom(state(), l.get(), 0, 100);
  BOOST_TEST(THCRandom_getOffset(state()) == 16u);
  Rand<float>::normal(state(), e.get(), 0, 1);
  BOOST_TEST(THCRandom_getOffset(state()) == 16u);
  BOOST_CHECK_THROW(Rand<float>::normal(state(), f.get(), 0, -1), th::Error);
  BOOST_TEST(THCRandom_getOffset(state()) == 16u);
}

// Element i takes counter offset + i / K: a fill started at another offset gives the
// elements of a longer fill further on.
BOOST_AUTO_TEST_CASE_TEMPLATE(counters_follow_linear_index, T, FloatingTypes) {
  constexpr uint64_t K = kPerCounter<T>;
  auto whole = own(newDevice<T>({1000})), part = own(newDevice<T>({200}));
  THCRandom_manualSeed(state(), 99);
  Rand<T>::uniform(state(), whole.get(), -1, 1);
  BOOST_TEST(THCRandom_getOffset(state()) == 1000 / K);
  THCRandom_setOffset(state(), 100);
  Rand<T>::uniform(state(), part.get(), -1, 1);
  const auto w = valuesOf<T>(whole.get()), p = valuesOf<T>(part.get());
  BOOST_TEST(std::vector<double>(w.begin() + 100 * K, w.begin() + 100 * K + 200) == p);

  THCRandom_manualSeed(state(), 99);
  Rand<T>::normal(state(), whole.get(), 0, 1);
  THCRandom_setOffset(state(), 50);
  Rand<T>::normal(state(), part.get(), 0, 1);
  const auto wn = valuesOf<T>(whole.get()), pn = valuesOf<T>(part.get());
  BOOST_TEST(std::vector<double>(wn.begin() + 50 * K, wn.begin() + 50 * K + 200) == pn);
}

// A transposed or narrowed result gets, per row-major index, a contiguous one's values.
BOOST_AUTO_TEST_CASE_TEMPLATE(layouts_do_not_change_values, T, FloatingTypes) {
  const int64_t rows = 13, cols = 29;
  const std::function<void(DeviceTensor<T> *)> fills[] = {
      [](DeviceTensor<T> *t) { Rand<T>::uniform(state(), t, -2, 5); },
      [](DeviceTensor<T> *t) { Rand<T>::normal(state(), t, 1, 3); },
      [](DeviceTensor<T> *t) { Rand<T>::exponential(state(), t, 2); },
      [](DeviceTensor<T> *t) { Rand<T>::bernoulli(state(), t, 0.4); },
      [](DeviceTensor<T> *t) { Rand<T>::clampedRandom(state(), t, -50, 50); },
  };
  for (const auto &fill : fills) {
    auto contiguous = own(newDevice<T>({rows, cols}));
    THCRandom_manualSeed(state(), 5);
    fill(contiguous.get());
    const auto want = valuesOf<T>(contiguous.get());
    for (thct::Layout l : {thct::Layout::Transposed, thct::Layout::Narrowed}) {
      HostTensor<T> *h;
      DeviceTensor<T> *d;
      thct::makeLayout<T>(l, rows, cols, 1, 0, 1, &h, &d);
      auto hOwned = th::own(h);
      auto dOwned = own(d);
      BOOST_TEST(!thc::THC<T>::isContiguous(state(), d));
      THCRandom_manualSeed(state(), 5);
      fill(d);
      BOOST_TEST(valuesOf<T>(d) == want, thct::layoutName(l));
    }
  }
}

BOOST_AUTO_TEST_CASE(integer_types_layouts) {
  const int64_t rows = 17, cols = 9;
  auto contiguous = own(newDevice<int32_t>({rows, cols}));
  THCRandom_manualSeed(state(), 8);
  Rand<int32_t>::random(state(), contiguous.get());
  HostTensor<int32_t> *h;
  DeviceTensor<int32_t> *d;
  thct::makeLayout<int32_t>(thct::Layout::Transposed, rows, cols, 1, 0, 1, &h, &d);
  auto hOwned = th::own(h);
  auto dOwned = own(d);
  THCRandom_manualSeed(state(), 8);
  Rand<int32_t>::random(state(), d);
  BOOST_TEST(valuesOf<int32_t>(d) == valuesOf<int32_t>(contiguous.get()));
}

// 2^31 + 64 bytes: 64-bit index math. The first and the last 64 elements are those of short
// fills started at their counters.
BOOST_AUTO_TEST_CASE(past_2_31_elements) {
  const int64_t n = (int64_t(1) << 31) + 64;
  auto big = own(newDevice<uint8_t>({n}));
  auto head = own(newDevice<uint8_t>({64})), tail = own(newDevice<uint8_t>({64}));
  THCRandom_manualSeed(state(), 31);
  Rand<uint8_t>::random(state(), big.get());
  BOOST_TEST(THCRandom_getOffset(state()) == uint64_t(n / 4));
  THCRandom_setOffset(state(), 0);
  Rand<uint8_t>::random(state(), head.get());
  THCRandom_setOffset(state(), uint64_t(1) << 29);
  Rand<uint8_t>::random(state(), tail.get());
  auto bigHead = own(thc::THC<uint8_t>::newNarrow(state(), big.get(), 0, 0, 64));
  auto bigTail = own(thc::THC<uint8_t>::newNarrow(state(), big.get(), 0, n - 64, 64));
  BOOST_TEST(valuesOf<uint8_t>(bigHead.get()) == valuesOf<uint8_t>(head.get()));
  BOOST_TEST(valuesOf<uint8_t>(bigTail.get()) == valuesOf<uint8_t>(tail.get()));
  const auto t = valuesOf<uint8_t>(tail.get());
  BOOST_TEST(*std::max_element(t.begin(), t.end()) != *std::min_element(t.begin(), t.end()));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(empty_and_0d, T, FloatingTypes) {
  THCRandom_manualSeed(state(), 3);
  auto empty = own(newDevice<T>({4, 0}));
  Rand<T>::uniform(state(), empty.get(), 0, 1);
  Rand<T>::normal(state(), empty.get(), 0, 1);
  BOOST_TEST(THCRandom_getOffset(state()) == 0u);
  BOOST_TEST(shapeOf<T>(empty.get()) == std::vector<int64_t>({4, 0}));
  auto scalar = own(thc::THC<T>::newWithSize(state(), 0, nullptr, nullptr));
  Rand<T>::uniform(state(), scalar.get(), 2, 3);
  BOOST_TEST(THCRandom_getOffset(state()) == 1u);
  const auto v = valuesOf<T>(scalar.get());
  BOOST_TEST(scalar->nDimension == 0);
  BOOST_TEST((v.size() == 1 && v[0] >= 2 && v[0] < 3));
  Rand<T>::bernoulli(state(), scalar.get(), 1);
  BOOST_TEST(valuesOf<T>(scalar.get()) == std::vector<double>({1.0}));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(distributions, *thct::needsGPU())

BOOST_AUTO_TEST_CASE_TEMPLATE(uniform, T, FloatingTypes) {
  auto t = own(newDevice<T>({1000, kSamples / 1000}));
  THCRandom_manualSeed(state(), 11);
  const double a = -2, b = 3;
  Rand<T>::uniform(state(), t.get(), a, b);
  const auto v = valuesOf<T>(t.get());
  BOOST_TEST(*std::min_element(v.begin(), v.end()) >= a);
  BOOST_TEST(*std::max_element(v.begin(), v.end()) < b);
  checkMoments(v, (a + b) / 2, (b - a) * (b - a) / 12, std::pow(b - a, 4) / 80);
  checkKS(v, [&](double x) { return (x - a) / (b - a); });
}

// Rounding to T would give b for about half the draws of [1, the next T after 1): the only
// value of T in that range is 1.
BOOST_AUTO_TEST_CASE_TEMPLATE(uniform_never_reaches_b, T, FloatingTypes) {
  auto t = own(newDevice<T>({10000}));
  THCRandom_manualSeed(state(), 12);
  const double next = (double)std::nextafter((T)1, (T)2);
  Rand<T>::uniform(state(), t.get(), 1, next);
  for (double x : valuesOf<T>(t.get())) require(x == 1.0, "a value other than 1");
  // a bound that T holds only rounded
  Rand<T>::uniform(state(), t.get(), 0, 1e-30);
  for (double x : valuesOf<T>(t.get())) require(x >= 0 && x < 1e-30, "a value outside [0, 1e-30)");
  // a == b gives a, as TH
  Rand<T>::uniform(state(), t.get(), 0.25, 0.25);
  auto h = th::own(th::TH<T>::newWithSize(1, t->size, nullptr));
  HostGen g(1);
  th::TH<T>::uniform(h.get(), g, 0.25, 0.25);
  BOOST_TEST(valuesOf<T>(t.get()) == valuesOf<T>(h.get()));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(normal, T, FloatingTypes) {
  auto t = own(newDevice<T>({kSamples}));
  THCRandom_manualSeed(state(), 13);
  const double mean = 1.5, stdv = 2;
  Rand<T>::normal(state(), t.get(), mean, stdv);
  const auto v = valuesOf<T>(t.get());
  checkMoments(v, mean, stdv * stdv, 3 * std::pow(stdv, 4));
  checkKS(v, [&](double x) { return normalCdf((x - mean) / stdv); });
  // the two values of a Box-Muller pair are uncorrelated
  double c = 0;
  for (size_t i = 0; i + 1 < v.size(); i += 2) c += (v[i] - mean) * (v[i + 1] - mean);
  c /= (v.size() / 2) * stdv * stdv;
  BOOST_TEST(std::fabs(c) < 5 / std::sqrt(v.size() / 2.0));
}

// Per-element means and standard deviations: self takes TH's shape, (x - mean) / stdv is
// standard normal. The means and stddevs are views of each layout.
BOOST_AUTO_TEST_CASE_TEMPLATE(normal_per_element, T, FloatingTypes) {
  const int64_t rows = 500, cols = 400;
  for (thct::Layout l : thct::kLayouts) {
    HostTensor<T> *hm, *hs;
    DeviceTensor<T> *dm, *ds;
    thct::makeLayout<T>(l, rows, cols, 1, -10, 10, &hm, &dm);
    thct::makeLayout<T>(l, rows, cols, 2, 0.5, 4, &hs, &ds);
    auto hmOwned = th::own(hm), hsOwned = th::own(hs);
    auto dmOwned = own(dm), dsOwned = own(ds);
    const auto means = valuesOf<T>(hm), stddevs = valuesOf<T>(hs);
    auto self = own(newDevice<T>({3}));
    auto ref = th::own(hostNew<T>({3}));
    HostGen g(1);
    THCRandom_manualSeed(state(), 14);

    Rand<T>::normal_means(state(), self.get(), dm, 2.0);
    th::TH<T>::normal_means(ref.get(), g, hm, 2.0);
    BOOST_TEST(shapeOf<T>(self.get()) == shapeOf<T>(ref.get()));
    auto v = valuesOf<T>(self.get());
    for (size_t i = 0; i < v.size(); i++) v[i] = (v[i] - means[i]) / 2.0;
    checkKS(v, normalCdf);

    Rand<T>::normal_stddevs(state(), self.get(), -1.0, ds);
    th::TH<T>::normal_stddevs(ref.get(), g, -1.0, hs);
    BOOST_TEST(shapeOf<T>(self.get()) == shapeOf<T>(ref.get()));
    v = valuesOf<T>(self.get());
    for (size_t i = 0; i < v.size(); i++) v[i] = (v[i] + 1.0) / stddevs[i];
    checkKS(v, normalCdf);

    Rand<T>::normal_means_stddevs(state(), self.get(), dm, ds);
    th::TH<T>::normal_means_stddevs(ref.get(), g, hm, hs);
    BOOST_TEST(shapeOf<T>(self.get()) == shapeOf<T>(ref.get()));
    v = valuesOf<T>(self.get());
    for (size_t i = 0; i < v.size(); i++) v[i] = (v[i] - means[i]) / stddevs[i];
    checkKS(v, normalCdf);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exponential, T, FloatingTypes) {
  auto t = own(newDevice<T>({kSamples}));
  THCRandom_manualSeed(state(), 15);
  const double lambda = 2.5;
  Rand<T>::exponential(state(), t.get(), lambda);
  const auto v = valuesOf<T>(t.get());
  BOOST_TEST(*std::min_element(v.begin(), v.end()) >= 0);
  checkMoments(v, 1 / lambda, 1 / (lambda * lambda), 9 / std::pow(lambda, 4));
  checkKS(v, [&](double x) { return 1 - std::exp(-lambda * x); });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(cauchy, T, FloatingTypes) {
  auto t = own(newDevice<T>({kSamples}));
  THCRandom_manualSeed(state(), 16);
  const double median = 1, sigma = 2;
  Rand<T>::cauchy(state(), t.get(), median, sigma);
  checkKS(valuesOf<T>(t.get()), [&](double x) { return 0.5 + std::atan((x - median) / sigma) / M_PI; });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(log_normal, T, FloatingTypes) {
  auto t = own(newDevice<T>({kSamples}));
  THCRandom_manualSeed(state(), 17);
  const double mean = 0.5, stdv = 0.75;
  Rand<T>::logNormal(state(), t.get(), mean, stdv);
  auto v = valuesOf<T>(t.get());
  BOOST_TEST(*std::min_element(v.begin(), v.end()) > 0);
  for (double &x : v) x = std::log(x);
  checkKS(v, [&](double x) { return normalCdf((x - mean) / stdv); });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(rand_and_randn, T, FloatingTypes) {
  auto t = own(newDevice<T>({1}));
  int64_t size[3] = {20, 50, 100};
  THCRandom_manualSeed(state(), 18);
  Rand<T>::rand(state(), t.get(), 3, size);
  BOOST_TEST(shapeOf<T>(t.get()) == std::vector<int64_t>(size, size + 3));
  auto v = valuesOf<T>(t.get());
  checkKS(v, [](double x) { return x; });
  Rand<T>::randn(state(), t.get(), 2, size);
  BOOST_TEST(shapeOf<T>(t.get()) == std::vector<int64_t>(size, size + 2));
  BOOST_TEST(valuesOf<T>(t.get()).size() == 1000u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(bernoulli, T, AllTypes) {
  auto t = own(newDevice<T>({kSamples}));
  THCRandom_manualSeed(state(), 19);
  Rand<T>::bernoulli(state(), t.get(), 0.3);
  const auto v = valuesOf<T>(t.get());
  double ones = 0;
  for (double x : v) {
    require(x == 0 || x == 1, "a value other than 0 and 1");
    ones += x;
  }
  checkFrequency(ones, v.size(), 0.3);
  // p = 0 and p = 1 are certain: TH's result
  auto small = own(newDevice<T>({7, 9}));
  auto ref = th::own(hostNew<T>({7, 9}));
  HostGen g(1);
  for (double p : {0.0, 1.0}) {
    Rand<T>::bernoulli(state(), small.get(), p);
    th::TH<T>::bernoulli(ref.get(), g, p);
    BOOST_TEST(valuesOf<T>(small.get()) == valuesOf<T>(ref.get()), "p = " << p);
  }
}

// p per element, for every layout of p: elements of p 0 or 1 give TH's values, those of
// p 0.25 are 1 a quarter of the time.
template <typename T, typename P, typename F>
void checkBernoulliTensor(F fill) {
  const int64_t rows = 1000, cols = 400;
  for (thct::Layout l : thct::kLayouts) {
    HostTensor<P> *hp;
    DeviceTensor<P> *dp;
    thct::makeLayout<P>(l, rows, cols, 3, 0, 1, &hp, &dp);
    auto hpOwned = th::own(hp);
    auto dpOwned = own(dp);
    // p: 0, 1, 0.25, 0.25 by column; an expanded p has its one row
    auto probs = th::own(hostNew<P>({hp->size[0], hp->size[1]}));
    for (int64_t i = 0; i < hp->size[0]; i++)
      for (int64_t j = 0; j < hp->size[1]; j++)
        th::TH<P>::data(probs.get())[i * hp->size[1] + j] = j % 4 == 0 ? 0 : j % 4 == 1 ? 1 : 0.25;
    th::TH<P>::copy(hp, probs.get());
    thc::THC<P>::copyFromHost(state(), dp, probs.get());

    auto self = own(newDevice<T>({cols, rows}));  // another shape, as many elements
    auto ref = th::own(hostNew<T>({cols, rows}));
    THCRandom_manualSeed(state(), 20);
    fill(self.get(), dp);
    HostGen g(1);
    if constexpr (std::is_same_v<P, float>)
      th::TH<T>::bernoulli_FloatTensor(ref.get(), g, hp);
    else
      th::TH<T>::bernoulli_DoubleTensor(ref.get(), g, hp);
    const auto got = valuesOf<T>(self.get()), want = valuesOf<T>(ref.get()), p = valuesOf<P>(hp);
    double ones = 0, quarter = 0;
    bool certainSame = true;
    for (size_t i = 0; i < p.size(); i++) {
      if (p[i] == 0.25) {
        quarter++;
        ones += got[i];
      } else {
        certainSame = certainSame && got[i] == want[i];
      }
    }
    BOOST_TEST(certainSame, thct::layoutName(l));
    checkFrequency(ones, quarter, 0.25);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(bernoulli_per_element, T, AllTypes) {
  checkBernoulliTensor<T, float>(
      [](DeviceTensor<T> *self, THCudaTensor *p) { Rand<T>::bernoulli_FloatTensor(state(), self, p); });
  checkBernoulliTensor<T, double>(
      [](DeviceTensor<T> *self, THCudaDoubleTensor *p) { Rand<T>::bernoulli_DoubleTensor(state(), self, p); });
  if constexpr (std::is_floating_point_v<T>)
    checkBernoulliTensor<T, T>(
        [](DeviceTensor<T> *self, DeviceTensor<T> *p) { Rand<T>::bernoulli_Tensor(state(), self, p); });
}

// TH's geometric: P(k) = (1 - p) p^(k-1), mean 1 / (1 - p), variance p / (1 - p)^2.
BOOST_AUTO_TEST_CASE_TEMPLATE(geometric, T, AllTypes) {
  auto t = own(newDevice<T>({kSamples}));
  THCRandom_manualSeed(state(), 21);
  const double p = 0.6;
  Rand<T>::geometric(state(), t.get(), p);
  const auto v = valuesOf<T>(t.get());
  double ones = 0;
  for (double x : v) {
    require(x >= 1, "a value below 1");
    ones += x == 1;
  }
  checkFrequency(ones, v.size(), 1 - p);
  const double var = p / ((1 - p) * (1 - p));
  // its excess kurtosis is 6 + (1 - p)^2 / p
  checkMoments(v, 1 / (1 - p), var, var * var * (9 + (1 - p) * (1 - p) / p));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(random_ranges, T, AllTypes) {
  auto t = own(newDevice<T>({kSamples}));
  THCRandom_manualSeed(state(), 22);
  Rand<T>::random(state(), t.get());
  const auto v = valuesOf<T>(t.get());
  double top;
  if constexpr (std::is_floating_point_v<T>)
    top = std::is_same_v<T, float> ? std::ldexp(1.0, 24) : 4294967295.0;
  else
    top = std::is_same_v<T, int64_t> ? 4294967295.0 : (double)std::numeric_limits<T>::max();
  BOOST_TEST(*std::min_element(v.begin(), v.end()) >= 0);
  BOOST_TEST(*std::max_element(v.begin(), v.end()) <= top);
  // uniform on [0, top] (a discrete uniform of top + 1 values)
  const double m = top + 1;
  checkMoments(v, top / 2, (m * m - 1) / 12, (m * m - 1) * (3 * m * m - 7) / 240);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(clamped_and_capped, T, AllTypes) {
  auto t = own(newDevice<T>({kSamples}));
  THCRandom_manualSeed(state(), 23);
  const int64_t lo = std::is_signed_v<T> ? -5 : 3, hi = lo + 12;
  Rand<T>::clampedRandom(state(), t.get(), lo, hi);
  std::map<double, double> counts;
  for (double x : valuesOf<T>(t.get())) counts[x]++;
  BOOST_TEST(counts.size() == 12u);
  for (auto [x, c] : counts) {
    BOOST_TEST((x >= lo && x < hi));
    checkFrequency(c, kSamples, 1.0 / 12);
  }
  Rand<T>::cappedRandom(state(), t.get(), 10);
  counts.clear();
  for (double x : valuesOf<T>(t.get())) counts[x]++;
  BOOST_TEST(counts.size() == 10u);
  for (auto [x, c] : counts) {
    BOOST_TEST((x >= 0 && x < 10));
    checkFrequency(c, kSamples, 0.1);
  }
  // a range of one value: TH's result
  auto ref = th::own(hostNew<T>({kSamples}));
  HostGen g(1);
  Rand<T>::clampedRandom(state(), t.get(), 7, 8);
  th::TH<T>::clampedRandom(ref.get(), g, 7, 8);
  BOOST_TEST(valuesOf<T>(t.get()) == valuesOf<T>(ref.get()));
}

// Ranges past 2^32 take 64-bit draws.
BOOST_AUTO_TEST_CASE(clamped_wide_range) {
  auto t = own(newDevice<int64_t>({kSamples}));
  THCRandom_manualSeed(state(), 24);
  const int64_t lo = -(int64_t(1) << 40), hi = int64_t(1) << 41;
  Rand<int64_t>::clampedRandom(state(), t.get(), lo, hi);
  const auto v = valuesOf<int64_t>(t.get());
  BOOST_TEST(*std::min_element(v.begin(), v.end()) >= (double)lo);
  BOOST_TEST(*std::max_element(v.begin(), v.end()) < (double)hi);
  const double w = (double)hi - (double)lo;
  checkMoments(v, ((double)lo + (double)hi) / 2, w * w / 12, std::pow(w, 4) / 80);
  int64_t odd = 0;  // the low bits are random too
  for (double x : v) odd += std::fmod(std::fabs(x), 2.0) == 1;
  checkFrequency(odd, v.size(), 0.5);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(errors, *thct::needsGPU())

// TH's checks, before anything is written: TH raises for the same arguments.
BOOST_AUTO_TEST_CASE_TEMPLATE(scalar_arguments, T, FloatingTypes) {
  auto self = own(thct::toDevice<T>(th::own(thct::randomHost<T>({6, 5}, 0, 1)).get()));
  auto ref = th::own(thct::randomHost<T>({6, 5}, 0, 1));
  HostGen g(1);
  const double nan = std::nan("");
  auto both = [&](auto gpu, auto cpu) {
    checkRejected<T>(self.get(), gpu);
    BOOST_CHECK_THROW(cpu(), th::Error);
  };
  both([&] { Rand<T>::uniform(state(), self.get(), 2, 1); }, [&] { th::TH<T>::uniform(ref.get(), g, 2, 1); });
  for (double s : {0.0, -1.0, nan}) {
    both([&] { Rand<T>::normal(state(), self.get(), 0, s); }, [&] { th::TH<T>::normal(ref.get(), g, 0, s); });
    both([&] { Rand<T>::logNormal(state(), self.get(), 0, s); }, [&] { th::TH<T>::logNormal(ref.get(), g, 0, s); });
    both([&] { Rand<T>::exponential(state(), self.get(), s); }, [&] { th::TH<T>::exponential(ref.get(), g, s); });
    both([&] { Rand<T>::cauchy(state(), self.get(), 0, s); }, [&] { th::TH<T>::cauchy(ref.get(), g, 0, s); });
  }
  for (double p : {0.0, 1.0, -0.5, nan})
    both([&] { Rand<T>::geometric(state(), self.get(), p); }, [&] { th::TH<T>::geometric(ref.get(), g, p); });
  for (double p : {-0.1, 1.1, nan})
    both([&] { Rand<T>::bernoulli(state(), self.get(), p); }, [&] { th::TH<T>::bernoulli(ref.get(), g, p); });
  both([&] { Rand<T>::clampedRandom(state(), self.get(), 5, 5); },
       [&] { th::TH<T>::clampedRandom(ref.get(), g, 5, 5); });
  both([&] { Rand<T>::cappedRandom(state(), self.get(), 0); }, [&] { th::TH<T>::cappedRandom(ref.get(), g, 0); });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(integer_ranges, T, IntegerTypes) {
  auto self = own(thct::toDevice<T>(th::own(thct::randomHost<T>({4, 4}, 0, 100)).get()));
  auto ref = th::own(thct::randomHost<T>({4, 4}, 0, 100));
  HostGen g(1);
  if constexpr (sizeof(T) < 8) {  // min below or max - 1 above the type's range
    const int64_t top = (int64_t)std::numeric_limits<T>::max();
    const int64_t low = (int64_t)std::numeric_limits<T>::lowest();
    checkRejected<T>(self.get(), [&] { Rand<T>::clampedRandom(state(), self.get(), 0, top + 2); });
    BOOST_CHECK_THROW(th::TH<T>::clampedRandom(ref.get(), g, 0, top + 2), th::Error);
    checkRejected<T>(self.get(), [&] { Rand<T>::clampedRandom(state(), self.get(), low - 1, 0); });
    BOOST_CHECK_THROW(th::TH<T>::clampedRandom(ref.get(), g, low - 1, 0), th::Error);
  }
  checkRejected<T>(self.get(), [&] { Rand<T>::geometric(state(), self.get(), 1.5); });
  BOOST_CHECK_THROW(th::TH<T>::geometric(ref.get(), g, 1.5), th::Error);
}

// Probabilities and standard deviations held on the device are checked before the fill.
BOOST_AUTO_TEST_CASE_TEMPLATE(tensor_arguments, T, FloatingTypes) {
  auto self = own(thct::toDevice<T>(th::own(thct::randomHost<T>({6, 5}, 0, 1)).get()));
  const double nan = std::nan("");
  for (double bad : {-0.25, 1.5, nan}) {
    auto hp = th::own(thct::randomHost<T>({5, 6}, 0, 1));
    th::TH<T>::data(hp.get())[17] = (T)bad;
    auto dp = own(thct::toDevice<T>(hp.get()));
    auto ref = th::own(thct::randomHost<T>({6, 5}, 0, 1));
    HostGen g(1);
    checkRejected<T>(self.get(), [&] { Rand<T>::bernoulli_Tensor(state(), self.get(), dp.get()); });
    BOOST_CHECK_THROW(th::TH<T>::bernoulli_Tensor(ref.get(), g, hp.get()), th::Error);
    auto hf = th::own(thct::randomHost<float>({30}, 0, 1));
    th::TH<float>::data(hf.get())[29] = (float)bad;
    auto df = own(thct::toDevice<float>(hf.get()));
    checkRejected<T>(self.get(), [&] { Rand<T>::bernoulli_FloatTensor(state(), self.get(), df.get()); });
  }
  // as many probabilities as elements
  auto few = own(thct::toDevice<double>(th::own(thct::randomHost<double>({29}, 0, 1)).get()));
  checkRejected<T>(self.get(), [&] { Rand<T>::bernoulli_DoubleTensor(state(), self.get(), few.get()); });
  checkRejected<T>(self.get(), [&] { Rand<T>::bernoulli_DoubleTensor(state(), self.get(), nullptr); });

  // standard deviations > 0; as many as means
  for (double bad : {0.0, -1.0, nan}) {
    auto hs = th::own(thct::randomHost<T>({2, 15}, 0.5, 2));
    th::TH<T>::data(hs.get())[29] = (T)bad;
    auto ds = own(thct::toDevice<T>(hs.get()));
    auto means = own(thct::toDevice<T>(th::own(thct::randomHost<T>({30}, 0, 1)).get()));
    checkRejected<T>(self.get(), [&] { Rand<T>::normal_stddevs(state(), self.get(), 0, ds.get()); });
    checkRejected<T>(self.get(), [&] { Rand<T>::normal_means_stddevs(state(), self.get(), means.get(), ds.get()); });
    auto ref = th::own(thct::randomHost<T>({6, 5}, 0, 1));
    HostGen g(1);
    BOOST_CHECK_THROW(th::TH<T>::normal_stddevs(ref.get(), g, 0, hs.get()), th::Error);
  }
  auto means = own(thct::toDevice<T>(th::own(thct::randomHost<T>({31}, 0, 1)).get()));
  auto stddevs = own(thct::toDevice<T>(th::own(thct::randomHost<T>({30}, 1, 2)).get()));
  checkRejected<T>(self.get(), [&] { Rand<T>::normal_means_stddevs(state(), self.get(), means.get(), stddevs.get()); });
  checkRejected<T>(self.get(), [&] { Rand<T>::normal_means(state(), self.get(), means.get(), 0); });
  checkRejected<T>(self.get(), [&] { Rand<T>::normal_means(state(), self.get(), nullptr, 1); });
}

BOOST_AUTO_TEST_SUITE_END()
