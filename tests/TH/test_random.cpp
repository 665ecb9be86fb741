// The generator and random fills: streams checked against what the original Lua torch7
// produced for seed 123 (fixtures/t7/rng.txt), distributions against their theoretical
// moments with fixed seeds and bounds of 5 standard errors.
#define BOOST_TEST_MODULE TH random
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <numeric>
#include <set>
#include <sstream>
#include <string>

#include "rng_fixture.hpp"
#include "th_test_util.hpp"

using tht::fromValues;
using tht::values;

namespace {

// rng.txt: one stream a line, "name v1 v2 ...", values printed with %.17g (exact).
void checkRelClose(const std::vector<double> &got, const std::vector<double> &want, double tol) {
  BOOST_REQUIRE_EQUAL(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++)
    BOOST_TEST(std::fabs(got[i] - want[i]) <= tol * std::fabs(want[i]),
               "element " << i << ": " << got[i] << " vs " << want[i]);
}

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

void checkFrequency(double count, double n, double p) {
  BOOST_TEST(std::fabs(count / n - p) <= 5 * std::sqrt(p * (1 - p) / n),
             "frequency " << count / n << " expected " << p);
}

std::vector<uint8_t> stateBytes(THGenerator *g) {
  THByteTensor *t = THByteTensor_new();
  THGenerator_getState(g, t);
  std::vector<uint8_t> out(t->storage->data + t->storageOffset, t->storage->data + t->storageOffset + t->size[0]);
  THByteTensor_free(t);
  return out;
}

// A 4x5 tensor laid out as the transpose of a contiguous 5x4 one: its row-major order
// differs from its storage order.
template <typename T>
typename th::TH<T>::Tensor *transposed4x5() {
  int64_t size[2] = {4, 5}, stride[2] = {1, 4};
  return th::TH<T>::newWithSize(2, size, stride);
}

// Filling a non-contiguous 4x5 tensor draws the same row-major stream as a contiguous
// tensor of 20 elements after the same seed.
template <typename T>
void checkRowMajor(const std::function<void(typename th::TH<T>::Tensor *, THGenerator *)> &fill) {
  int64_t n20[1] = {20};
  auto *flat = th::TH<T>::newWithSize(1, n20, nullptr);
  auto *view = transposed4x5<T>();
  BOOST_REQUIRE(!th::isContiguous(th::ref(view)));
  Gen g1(99), g2(99);
  fill(flat, g1);
  fill(view, g2);
  BOOST_TEST(values(view) == values(flat));
  th::thFree(flat);
  th::thFree(view);
}

}  // namespace

BOOST_AUTO_TEST_CASE(fixture_uniform) {
  const auto want = fixture("uniform");
  Gen g(123);
  THDoubleTensor *t = THDoubleTensor_new();
  int64_t size[1] = {20};
  THDoubleTensor_rand(t, g, 1, size);  // torch.rand(20)
  BOOST_TEST(values(t) == want);

  THRandom_manualSeed(g, 123);
  for (double w : want) BOOST_TEST(THRandom_uniform(g, 0, 1) == w);

  // Non-contiguous: a transposed view gets the stream in its own row-major order.
  THDoubleTensor *view = transposed4x5<double>();
  THRandom_manualSeed(g, 123);
  THDoubleTensor_uniform(view, g, 0, 1);
  BOOST_TEST(values(view) == want);

  // A 0-stride expanded tensor: 20 draws, the shared element keeps the last one.
  THDoubleTensor *one = THDoubleTensor_newWithSize1d(1);
  int64_t expandTo[1] = {20};
  THDoubleTensor *expanded = THDoubleTensor_newExpand(one, 1, expandTo);
  THRandom_manualSeed(g, 123);
  THDoubleTensor_uniform(expanded, g, 0, 1);
  BOOST_TEST(THDoubleTensor_get1d(one, 0) == want[19]);
  Gen after20(123);
  for (int k = 0; k < 20; k++) THRandom_random(after20);
  BOOST_TEST(THRandom_random(g) == THRandom_random(after20));
  for (auto *x : {t, view, one, expanded}) THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(fixture_float_uniform) {
  const auto want = fixture("float_uniform");
  Gen g(123);
  THFloatTensor *t = THFloatTensor_newWithSize1d(10);
  THFloatTensor_uniform(t, g, 0, 1);  // torch.FloatTensor(10):uniform()
  BOOST_TEST(values(t) == want);
  // float values are the double uniforms rounded to float
  const auto dbl = fixture("uniform");
  for (size_t i = 0; i < want.size(); i++) BOOST_TEST(want[i] == (double)(float)dbl[i]);
  THFloatTensor_free(t);
}

BOOST_AUTO_TEST_CASE(fixture_normal) {
  const auto want = fixture("normal");
  Gen g(123);
  THDoubleTensor *t = THDoubleTensor_new();
  int64_t size[2] = {4, 5};
  THDoubleTensor_randn(t, g, 2, size);  // torch.randn(20), as a 4x5 tensor
  BOOST_TEST(t->size[0] == 4);
  checkRelClose(values(t), want, 1e-15);

  THRandom_manualSeed(g, 123);
  std::vector<double> scalar;
  for (size_t i = 0; i < want.size(); i++) scalar.push_back(THRandom_normal(g, 0, 1));
  checkRelClose(scalar, want, 1e-15);

  THDoubleTensor *view = transposed4x5<double>();
  THRandom_manualSeed(g, 123);
  THDoubleTensor_normal(view, g, 0, 1);
  checkRelClose(values(view), want, 1e-15);

  // manualSeed drops the cached second value of a pair
  THRandom_manualSeed(g, 123);
  THRandom_normal(g, 0, 1);
  THRandom_manualSeed(g, 123);
  BOOST_TEST(std::fabs(THRandom_normal(g, 0, 1) - want[0]) <= 1e-15 * std::fabs(want[0]));
  for (auto *x : {t, view}) THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(fixture_normal_2_3) {
  const auto want = fixture("normal_2_3");
  Gen g(123);
  THDoubleTensor *t = THDoubleTensor_newWithSize1d(10);
  THDoubleTensor_normal(t, g, 2, 3);  // torch.Tensor(10):normal(2, 3)
  checkRelClose(values(t), want, 1e-15);

  auto *twos = fromValues<double>({10}, std::vector<double>(10, 2.0));
  auto *threes = fromValues<double>({2, 5}, std::vector<double>(10, 3.0));
  THDoubleTensor *r = THDoubleTensor_new();
  THRandom_manualSeed(g, 123);
  THDoubleTensor_normal_means(r, g, twos, 3);
  checkRelClose(values(r), want, 1e-15);
  THRandom_manualSeed(g, 123);
  THDoubleTensor_normal_stddevs(r, g, 2, threes);
  BOOST_TEST(r->nDimension == 2);  // shape of stddevs
  checkRelClose(values(r), want, 1e-15);
  THRandom_manualSeed(g, 123);
  THDoubleTensor_normal_means_stddevs(r, g, twos, threes);
  BOOST_TEST(r->nDimension == 1);  // shape of means
  checkRelClose(values(r), want, 1e-15);
  for (auto *x : {t, twos, threes, r}) THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(fixture_random) {
  const auto want = fixture("random");
  Gen g(123);
  for (double w : want) BOOST_TEST((double)THRandom_random(g) == w);

  // Tensor random(): torch7 reduces the same 32-bit draws modulo the type's range.
  THLongTensor *l = THLongTensor_newWithSize1d(10);
  THRandom_manualSeed(g, 123);
  THLongTensor_random(l, g);
  BOOST_TEST(values(l) == want);
  THIntTensor *i = THIntTensor_newWithSize1d(10);
  THByteTensor *b = THByteTensor_newWithSize1d(10);
  THRandom_manualSeed(g, 123);
  THIntTensor_random(i, g);
  THByteTensor_random(b, g);
  auto wantI = want;
  for (auto &x : wantI) x = std::fmod(x, 2147483648.0);
  const auto ints = values(i), bytes = values(b);
  BOOST_TEST(ints == wantI);
  // the bytes continue the stream after the 10 ints: draws 11..20
  Gen h(123);
  for (int k = 0; k < 10; k++) THRandom_random(h);
  for (int k = 0; k < 10; k++) BOOST_TEST(bytes[k] == (double)(THRandom_random(h) & 0xff));

  THRandom_manualSeed(g, 123);
  uint64_t r64 = THRandom_random64(g);
  BOOST_TEST(r64 == ((uint64_t)want[0] << 32 | (uint64_t)want[1]));
  THLongTensor_free(l);
  THIntTensor_free(i);
  THByteTensor_free(b);
}

BOOST_AUTO_TEST_CASE(fixture_bernoulli) {
  const auto want = fixture("bernoulli");
  const auto uniform = fixture("uniform");
  Gen g(123);
  THDoubleTensor *d = THDoubleTensor_newWithSize1d(20);
  THDoubleTensor_bernoulli(d, g, 0.3);  // torch.Tensor(20):bernoulli(0.3)
  BOOST_TEST(values(d) == want);
  for (size_t k = 0; k < want.size(); k++) BOOST_TEST(want[k] == (uniform[k] <= 0.3 ? 1.0 : 0.0));

  THByteTensor *b = THByteTensor_newWithSize2d(4, 5);
  THRandom_manualSeed(g, 123);
  THByteTensor_bernoulli(b, g, 0.3);
  BOOST_TEST(values(b) == want);

  // Per-element probabilities, with another shape than self.
  auto *p = fromValues<double>({2, 10}, std::vector<double>(20, 0.3));
  THIntTensor *view = transposed4x5<int>();
  THRandom_manualSeed(g, 123);
  THIntTensor_bernoulli_DoubleTensor(view, g, p);
  BOOST_TEST(values(view) == want);

  THRandom_manualSeed(g, 123);
  THDoubleTensor_bernoulli_Tensor(d, g, p);
  BOOST_TEST(values(d) == want);

  auto *pf = fromValues<float>({20}, std::vector<double>(20, 0.3));
  THRandom_manualSeed(g, 123);
  THFloatTensor *f = THFloatTensor_newWithSize1d(20);
  THFloatTensor_bernoulli_FloatTensor(f, g, pf);
  const auto fv = values(f);
  for (size_t k = 0; k < want.size(); k++) BOOST_TEST(fv[k] == (uniform[k] <= (double)0.3f ? 1.0 : 0.0));

  // in place: self holds its own probabilities
  THRandom_manualSeed(g, 123);
  THDoubleTensor *q = THDoubleTensor_newClone(p);
  THDoubleTensor_bernoulli_Tensor(q, g, q);
  BOOST_TEST(values(q) == want);
  for (auto *x : {d, p, q}) THDoubleTensor_free(x);
  THByteTensor_free(b);
  THIntTensor_free(view);
  THFloatTensor_free(pf);
  THFloatTensor_free(f);
}

BOOST_AUTO_TEST_CASE(state_save_restore) {
  BOOST_TEST(THGenerator_stateSize() == 5048u);  // torch7's struct on 64-bit Linux
  Gen g(2024);
  THRandom_normal(g, 0, 1);  // an odd count leaves a cached normal in the state
  THByteTensor *state = THByteTensor_new();
  THGenerator_getState(g, state);
  BOOST_TEST(state->nDimension == 1);
  BOOST_TEST(state->size[0] == (int64_t)THGenerator_stateSize());
  auto draw = [](THGenerator *gen) {
    std::vector<double> v;
    for (int k = 0; k < 700; k++) {  // past one regeneration of the 624-word state
      v.push_back(THRandom_normal(gen, 0, 1));
      v.push_back(THRandom_random(gen));
    }
    return v;
  };
  const auto first = draw(g);
  THGenerator_setState(g, state);
  BOOST_TEST(draw(g) == first);

  // a copy continues the same stream; a state read through a strided byte view restores it
  Gen other(5);
  THGenerator_setState(g, state);
  THGenerator_copy(other, g);
  BOOST_TEST(draw(other) == first);
  THByteTensor *wide = THByteTensor_newWithSize1d(2 * (int64_t)THGenerator_stateSize());
  THByteTensor *strided = THByteTensor_newWithStorage1d(wide->storage, 1, (int64_t)THGenerator_stateSize(), 2);
  THByteTensor_copy(strided, state);
  THGenerator_setState(other, strided);
  BOOST_TEST(draw(other) == first);

  // the default generator is one more generator
  THGenerator *def = THGenerator_default();
  BOOST_REQUIRE(def != nullptr);
  BOOST_TEST(THGenerator_default() == def);
  THGenerator_setState(def, state);
  BOOST_TEST(draw(nullptr) == first);
  for (auto *x : {state, wide, strided}) THByteTensor_free(x);
}

BOOST_AUTO_TEST_CASE(bad_state_rejected) {
  Gen g(7);
  THByteTensor *good = THByteTensor_new();
  THGenerator_getState(g, good);
  auto expectRejected = [&](THByteTensor *bad) {
    Gen ref(8), victim(8);
    BOOST_CHECK_THROW(THGenerator_setState(victim, bad), th::Error);
    for (int k = 0; k < 5; k++) BOOST_TEST(THRandom_random(victim) == THRandom_random(ref));  // unchanged
  };
  THByteTensor *shortState = THByteTensor_newWithSize1d((int64_t)THGenerator_stateSize() - 1);
  expectRejected(shortState);
  try {
    THGenerator_setState(g, shortState);
  } catch (const th::Error &e) {
    BOOST_TEST(std::string(e.what()).find("5047 bytes, expected 5048") != std::string::npos);
  }
  auto corrupt = [&](size_t offset, const void *value, size_t n) {
    THByteTensor *t = THByteTensor_newClone(good);
    memcpy(THByteTensor_data(t) + offset, value, n);
    expectRejected(t);
    THByteTensor_free(t);
  };
  int zero = 0, tooMany = _MERSENNE_STATE_N + 1, two = 2;
  uint64_t wideWord = uint64_t(1) << 40, farNext = 9999;
  corrupt(offsetof(THGenerator, left), &zero, sizeof(int));
  corrupt(offsetof(THGenerator, left), &tooMany, sizeof(int));
  corrupt(offsetof(THGenerator, seeded), &zero, sizeof(int));
  corrupt(offsetof(THGenerator, next), &farNext, sizeof(uint64_t));
  corrupt(offsetof(THGenerator, state) + 17 * sizeof(uint64_t), &wideWord, sizeof(uint64_t));
  corrupt(offsetof(THGenerator, normal_is_valid), &two, sizeof(int));
  THByteTensor_free(good);
  THByteTensor_free(shortState);
}

BOOST_AUTO_TEST_CASE(seeding) {
  Gen g(1);
  THRandom_manualSeed(g, 77);
  BOOST_TEST(THRandom_initialSeed(g) == 77u);
  uint64_t s = THRandom_seed(g);
  BOOST_TEST(THRandom_initialSeed(g) == s);
  Gen h(1);
  THRandom_manualSeed(h, s);
  THRandom_seed(g);
  THRandom_manualSeed(g, s);
  for (int k = 0; k < 5; k++) BOOST_TEST(THRandom_random(g) == THRandom_random(h));
  // torch7 seeds with the low 32 bits
  THRandom_manualSeed(g, (uint64_t(5) << 32) | 123);
  BOOST_TEST((double)THRandom_random(g) == fixture("random")[0]);
  BOOST_TEST(THGenerator_isValid(g));
  // fresh generators are seeded from the system, differently
  THGenerator *a = THGenerator_new(), *b = THGenerator_new();
  BOOST_TEST(THGenerator_isValid(a));
  BOOST_TEST(THRandom_initialSeed(a) != THRandom_initialSeed(b));
  THGenerator_free(a);
  THGenerator_free(b);
}

BOOST_AUTO_TEST_CASE(random_ranges_per_type) {
  const int n = 100000;
  auto check = [&](auto *t, double top, auto randomFn) {
    Gen g(11);
    randomFn(t, (THGenerator *)g);
    auto v = values(t);
    std::set<double> seen(v.begin(), v.end());
    BOOST_TEST(*seen.begin() >= 0);
    BOOST_TEST(*seen.rbegin() <= top);
    for (double x : v) BOOST_TEST_REQUIRE(x == std::floor(x));
    const double m = top + 1;  // uniform over 0..top
    checkMoments(v, top / 2, (m * m - 1) / 12, (m * m - 1) * (3 * m * m - 7) / 240);
    return seen.size();
  };
  THByteTensor *b = THByteTensor_newWithSize1d(n);
  BOOST_TEST(check(b, 255, THByteTensor_random) == 256u);
  THCharTensor *c = THCharTensor_newWithSize1d(n);
  BOOST_TEST(check(c, 127, THCharTensor_random) == 128u);
  THShortTensor *s = THShortTensor_newWithSize1d(n);
  check(s, 32767, THShortTensor_random);
  THIntTensor *i = THIntTensor_newWithSize1d(n);
  check(i, 2147483647.0, THIntTensor_random);
  THLongTensor *l = THLongTensor_newWithSize1d(n);
  check(l, 4294967295.0, THLongTensor_random);
  THFloatTensor *f = THFloatTensor_newWithSize1d(n);
  check(f, 16777216.0, THFloatTensor_random);
  THDoubleTensor *d = THDoubleTensor_newWithSize1d(n);
  check(d, 4294967295.0, THDoubleTensor_random);
  checkRowMajor<int>([](THIntTensor *t, THGenerator *gen) { THIntTensor_random(t, gen); });
  THByteTensor_free(b);
  THCharTensor_free(c);
  THShortTensor_free(s);
  THIntTensor_free(i);
  THLongTensor_free(l);
  THFloatTensor_free(f);
  THDoubleTensor_free(d);
}

BOOST_AUTO_TEST_CASE(clamped_and_capped_random) {
  const int n = 100000;
  Gen g(12);
  THIntTensor *i = THIntTensor_newWithSize1d(n);
  THIntTensor_clampedRandom(i, g, -5, 5);
  auto v = values(i);
  std::set<double> seen(v.begin(), v.end());
  BOOST_TEST(seen.size() == 10u);
  BOOST_TEST(*seen.begin() == -5);
  BOOST_TEST(*seen.rbegin() == 4);
  checkMoments(v, -0.5, 99.0 / 12, 99.0 * 293 / 240);

  // a range wider than 32 bits
  THLongTensor *l = THLongTensor_newWithSize1d(n);
  const int64_t lo = -(int64_t(1) << 40), hi = int64_t(1) << 40;
  THLongTensor_clampedRandom(l, g, lo, hi);
  int64_t mn = hi, mx = lo;
  double mean = 0;
  for (int64_t k = 0; k < n; k++) {
    int64_t x = THLongTensor_get1d(l, k);
    mn = std::min(mn, x);
    mx = std::max(mx, x);
    mean += (double)x / n;
  }
  BOOST_TEST(mn >= lo);
  BOOST_TEST(mx < hi);
  BOOST_TEST(mx - mn > (hi - lo) / 100 * 99);  // it covers the range, high bits included
  BOOST_TEST(std::fabs(mean + 0.5) <= 5 * (double)(hi - lo) / std::sqrt(12.0 * n));

  THByteTensor *b = THByteTensor_newWithSize1d(n);
  THByteTensor_cappedRandom(b, g, 3);
  auto bv = values(b);
  for (int c = 0; c < 3; c++) checkFrequency((double)std::count(bv.begin(), bv.end(), (double)c), n, 1.0 / 3);
  BOOST_TEST(std::count(bv.begin(), bv.end(), 3.0) == 0);
  THByteTensor_clampedRandom(b, g, 250, 256);  // up to the type's maximum
  bv = values(b);
  BOOST_TEST(*std::min_element(bv.begin(), bv.end()) == 250);
  BOOST_TEST(*std::max_element(bv.begin(), bv.end()) == 255);

  checkRowMajor<double>([](THDoubleTensor *t, THGenerator *gen) { THDoubleTensor_clampedRandom(t, gen, -3, 1000); });
  THIntTensor_free(i);
  THLongTensor_free(l);
  THByteTensor_free(b);
}

BOOST_AUTO_TEST_CASE(continuous_distributions) {
  const int n = 100000;
  Gen g(13);
  THDoubleTensor *d = THDoubleTensor_newWithSize2d(n / 100, 100);
  THFloatTensor *f = THFloatTensor_newWithSize1d(n);

  THDoubleTensor_uniform(d, g, -2, 5);
  auto v = values(d);
  BOOST_TEST(*std::min_element(v.begin(), v.end()) >= -2);
  BOOST_TEST(*std::max_element(v.begin(), v.end()) < 5);
  checkMoments(v, 1.5, 49.0 / 12, 2401.0 / 80);
  THFloatTensor_uniform(f, g, 0, 1);
  checkMoments(values(f), 0.5, 1.0 / 12, 1.0 / 80);

  THDoubleTensor_normal(d, g, 1.5, 2);
  checkMoments(values(d), 1.5, 4, 3 * 16);
  THFloatTensor_normal(f, g, -1, 0.5);
  checkMoments(values(f), -1, 0.25, 3 * 0.0625);

  THDoubleTensor_exponential(d, g, 0.5);
  v = values(d);
  BOOST_TEST(*std::min_element(v.begin(), v.end()) >= 0);
  checkMoments(v, 2, 4, 9 * 16);

  const double mu = 0.2, s2 = 0.25;
  THFloatTensor_logNormal(f, g, mu, std::sqrt(s2));
  const double lnVar = (std::exp(s2) - 1) * std::exp(2 * mu + s2);
  const double lnKurt = std::exp(4 * s2) + 2 * std::exp(3 * s2) + 3 * std::exp(2 * s2) - 3;
  checkMoments(values(f), std::exp(mu + s2 / 2), lnVar, lnKurt * lnVar * lnVar);

  // Cauchy has no moments: half of the mass lies within one sigma of the median.
  THDoubleTensor_cauchy(d, g, 3, 2);
  v = values(d);
  checkFrequency((double)std::count_if(v.begin(), v.end(), [](double x) { return std::fabs(x - 3) < 2; }), n, 0.5);
  checkFrequency((double)std::count_if(v.begin(), v.end(), [](double x) { return x < 3; }), n, 0.5);

  // torch7's geometric: P(k) = (1 - p) p^(k-1)
  const double p = 0.3, q = 1 - p;
  THIntTensor *i = THIntTensor_newWithSize1d(n);
  THIntTensor_geometric(i, g, p);
  v = values(i);
  BOOST_TEST(*std::min_element(v.begin(), v.end()) == 1);
  checkMoments(v, 1 / q, p / (q * q), (9 + q * q / p) * (p / (q * q)) * (p / (q * q)));

  THDoubleTensor_bernoulli(d, g, 0.3);
  checkMoments(values(d), 0.3, 0.21, 0.21 * (1 - 0.9 + 0.27));

  auto *probs = fromValues<double>({n}, std::vector<double>(n, 0.8));
  THDoubleTensor_bernoulli_Tensor(d, g, probs);
  v = values(d);
  checkFrequency(std::accumulate(v.begin(), v.end(), 0.0), n, 0.8);

  auto *means = fromValues<float>({n}, std::vector<double>(n, 4.0));
  auto *stds = fromValues<float>({n}, std::vector<double>(n, 0.5));
  THFloatTensor_normal_means_stddevs(f, g, means, stds);
  checkMoments(values(f), 4, 0.25, 3 * 0.0625);

  checkRowMajor<float>([](THFloatTensor *t, THGenerator *gen) { THFloatTensor_normal(t, gen, 0, 1); });
  checkRowMajor<double>([](THDoubleTensor *t, THGenerator *gen) { THDoubleTensor_exponential(t, gen, 1); });
  checkRowMajor<double>([](THDoubleTensor *t, THGenerator *gen) { THDoubleTensor_cauchy(t, gen, 0, 1); });
  checkRowMajor<float>([](THFloatTensor *t, THGenerator *gen) { THFloatTensor_logNormal(t, gen, 0, 1); });
  checkRowMajor<long>([](THLongTensor *t, THGenerator *gen) { THLongTensor_geometric(t, gen, 0.5); });
  for (auto *x : {d, probs}) THDoubleTensor_free(x);
  for (auto *x : {f, means, stds}) THFloatTensor_free(x);
  THIntTensor_free(i);
}

BOOST_AUTO_TEST_CASE(rand_shapes) {
  const auto want = fixture("uniform");
  Gen g(123);
  THFloatTensor *r = THFloatTensor_newWithSize1d(3);
  int64_t size[3] = {2, 5, 2};
  THFloatTensor_rand(r, g, 3, size);
  BOOST_TEST(r->nDimension == 3);
  BOOST_TEST(r->size[1] == 5);
  auto v = values(r);
  for (size_t k = 0; k < v.size(); k++) BOOST_TEST(v[k] == (double)(float)want[k]);
  THFloatTensor_randn(r, g, 0, nullptr);  // a 0-dim tensor holds one value
  BOOST_TEST(r->nDimension == 0);
  THFloatTensor_free(r);
}

// Every failed call leaves the tensor and the generator as they were.
BOOST_AUTO_TEST_CASE(errors_leave_everything_unchanged) {
  Gen g(21);
  THDoubleTensor *d = fromValues<double>({2, 3}, {1, 2, 3, 4, 5, 6});
  THIntTensor *i = fromValues<int>({4}, {1, 2, 3, 4});
  THByteTensor *b = fromValues<uint8_t>({3}, {7, 8, 9});
  THCharTensor *c = fromValues<int8_t>({2}, {-1, 1});
  const auto dBefore = values(d), iBefore = values(i), bBefore = values(b), cBefore = values(c);
  const auto stateBefore = stateBytes(g);
  auto expectError = [&](std::function<void()> call, const char *what) {
    BOOST_CHECK_THROW(call(), th::Error);
    BOOST_TEST(values(d) == dBefore, what);
    BOOST_TEST(values(i) == iBefore, what);
    BOOST_TEST(values(b) == bBefore, what);
    BOOST_TEST(values(c) == cBefore, what);
    BOOST_TEST((stateBytes(g) == stateBefore), what);
  };
  auto *bad = fromValues<double>({6}, {0.1, 0.2, 1.2, 0.3, 0.4, 0.5});
  auto *nan = fromValues<double>({6}, {0.1, 0.2, NAN, 0.3, 0.4, 0.5});
  auto *five = fromValues<double>({5}, {0.1, 0.2, 0.3, 0.4, 0.5});
  auto *stdsWithZero = fromValues<double>({2, 3}, {1, 1, 0, 1, 1, 1});
  expectError([&] { THDoubleTensor_uniform(d, g, 2, 1); }, "uniform a > b");
  expectError([&] { THDoubleTensor_normal(d, g, 0, 0); }, "normal stdv 0");
  expectError([&] { THDoubleTensor_normal_means(d, g, five, -1); }, "normal_means stdv < 0");
  expectError([&] { THDoubleTensor_normal_stddevs(d, g, 0, stdsWithZero); }, "normal_stddevs with a 0");
  expectError([&] { THDoubleTensor_normal_means_stddevs(d, g, five, stdsWithZero); }, "normal counts differ");
  expectError([&] { THDoubleTensor_exponential(d, g, 0); }, "exponential lambda 0");
  expectError([&] { THDoubleTensor_cauchy(d, g, 0, -1); }, "cauchy sigma < 0");
  expectError([&] { THDoubleTensor_logNormal(d, g, 0, 0); }, "logNormal stdv 0");
  expectError([&] { THIntTensor_geometric(i, g, 1); }, "geometric p 1");
  expectError([&] { THIntTensor_bernoulli(i, g, 1.5); }, "bernoulli p > 1");
  expectError([&] { THDoubleTensor_bernoulli_Tensor(d, g, bad); }, "bernoulli p[2] > 1");
  expectError([&] { THDoubleTensor_bernoulli_Tensor(d, g, nan); }, "bernoulli p NaN");
  expectError([&] { THDoubleTensor_bernoulli_Tensor(d, g, five); }, "bernoulli count mismatch");
  expectError([&] { THIntTensor_clampedRandom(i, g, 3, 3); }, "clampedRandom max == min");
  expectError([&] { THIntTensor_cappedRandom(i, g, 0); }, "cappedRandom max 0");
  expectError([&] { THByteTensor_clampedRandom(b, g, 0, 257); }, "Byte range too wide");
  expectError([&] { THCharTensor_cappedRandom(c, g, 129); }, "Char range too wide");
  expectError([&] { THIntTensor_clampedRandom(i, g, -(int64_t(1) << 31) - 1, 0); }, "Int range too low");
  int64_t negative[2] = {2, -1};
  expectError([&] { THDoubleTensor_rand(d, g, 2, negative); }, "rand negative size");
  expectError([&] { THRandom_normal(g, 0, -1); }, "scalar normal");
  expectError([&] { THRandom_bernoulli(g, -0.1); }, "scalar bernoulli");
  expectError([&] { THRandom_geometric(g, 0); }, "scalar geometric");
  try {
    THDoubleTensor_bernoulli_Tensor(d, g, five);
  } catch (const th::Error &e) {
    BOOST_TEST(std::string(e.what()).find("5 probabilities given for 6 elements") != std::string::npos);
  }
  for (auto *x : {d, bad, nan, five, stdsWithZero}) THDoubleTensor_free(x);
  THIntTensor_free(i);
  THByteTensor_free(b);
  THCharTensor_free(c);
}
