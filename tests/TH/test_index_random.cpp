// randperm and multinomial, which return indices counted from TH_INDEX_BASE: the torch7
// permutation for seed 123 (fixtures/t7/rng.txt, 1-based), multinomial draws against a
// linear scan of the cumulative distribution fed by the same uniform stream, and
// frequencies within 5 standard errors.
#define BOOST_TEST_MODULE TH random indices
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>

#include "rng_fixture.hpp"
#include "th_test_util.hpp"

using tht::fromValues;
using tht::values;

namespace {

void checkFrequency(double count, double n, double p) {
  BOOST_TEST(std::fabs(count / n - p) <= 5 * std::sqrt(p * (1 - p) / n),
             "frequency " << count / n << " expected " << p);
}

// The reference draw: first category whose normalised cumulative probability reaches u.
int64_t linearDraw(const std::vector<double> &p, double u) {
  double total = 0;
  for (double x : p) total += x;
  double acc = 0;
  for (size_t k = 0; k < p.size(); k++) {
    acc += p[k];
    if (p[k] > 0 && acc / total >= u) return (int64_t)k;
  }
  return (int64_t)p.size() - 1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(randperm_matches_torch7) {
  auto want = fixture("randperm");  // 1-based, as Lua prints it
  for (auto &x : want) x += TH_INDEX_BASE - 1;
  Gen g(123);
  THLongTensor *r = THLongTensor_new();
  THLongTensor_randperm(r, g, 10);
  BOOST_TEST(r->nDimension == 1);
  BOOST_TEST(values(r) == want);

  // torch.randperm returns a DoubleTensor in Lua: same values
  THDoubleTensor *d = THDoubleTensor_new();
  THRandom_manualSeed(g, 123);
  THDoubleTensor_randperm(d, g, 10);
  BOOST_TEST(values(d) == want);

  // a strided result of the right size keeps its strides
  THLongTensor *wide = THLongTensor_newWithSize1d(20);
  THLongTensor *strided = THLongTensor_newWithStorage1d(wide->storage, 1, 10, 2);
  THRandom_manualSeed(g, 123);
  THLongTensor_randperm(strided, g, 10);
  BOOST_TEST(strided->stride[0] == 2);
  BOOST_TEST(values(strided) == want);
  for (auto *x : {r, wide, strided}) THLongTensor_free(x);
  THDoubleTensor_free(d);
}

BOOST_AUTO_TEST_CASE(randperm_is_a_uniform_permutation) {
  Gen g(5);
  THIntTensor *r = THIntTensor_new();
  THIntTensor_randperm(r, g, 1000);
  auto v = values(r);
  std::sort(v.begin(), v.end());
  for (int k = 0; k < 1000; k++) BOOST_TEST_REQUIRE(v[k] == k + TH_INDEX_BASE);

  // every value is equally likely in every position
  const int trials = 20000, n = 5;
  std::vector<std::vector<double>> counts(n, std::vector<double>(n, 0));
  for (int t = 0; t < trials; t++) {
    THIntTensor_randperm(r, g, n);
    for (int pos = 0; pos < n; pos++) counts[pos][THIntTensor_get1d(r, pos) - TH_INDEX_BASE]++;
  }
  for (int pos = 0; pos < n; pos++)
    for (int val = 0; val < n; val++) checkFrequency(counts[pos][val], trials, 1.0 / n);

  THIntTensor_randperm(r, g, 0);
  BOOST_TEST(THIntTensor_nElement(r) == 0);
  THIntTensor_free(r);
}

BOOST_AUTO_TEST_CASE(randperm_errors) {
  Gen g(6);
  THByteTensor *b = fromValues<uint8_t>({2}, {4, 5});
  BOOST_CHECK_THROW(THByteTensor_randperm(b, g, 300), th::Error);  // 299 does not fit a byte
  BOOST_CHECK_THROW(THByteTensor_randperm(b, g, -1), th::Error);
  BOOST_TEST(values(b) == std::vector<double>({4, 5}));
  THByteTensor_randperm(b, g, 256 - TH_INDEX_BASE);  // the largest that fits
  BOOST_TEST(THByteTensor_nElement(b) == 256 - TH_INDEX_BASE);
  THByteTensor_free(b);
}

BOOST_AUTO_TEST_CASE(multinomial_with_replacement_1d) {
  const std::vector<double> p = {0.2, 0, 0.8, 0.4, 0.6};  // sums to 2: normalised inside
  auto *dist = fromValues<double>({5}, p);
  const int n = 100000;
  Gen g(31), ref(31);
  THLongTensor *r = THLongTensor_new();
  THDoubleTensor_multinomial(r, g, dist, n, 1);
  BOOST_REQUIRE(r->nDimension == 1);
  BOOST_REQUIRE(r->size[0] == n);
  const auto v = values(r);
  // one uniform per sample, against a linear scan of the cumulative distribution
  for (int s = 0; s < n; s++) BOOST_TEST_REQUIRE(v[s] == linearDraw(p, THRandom_uniform(ref, 0, 1)) + TH_INDEX_BASE);
  for (int k = 0; k < 5; k++)
    checkFrequency((double)std::count(v.begin(), v.end(), (double)(k + TH_INDEX_BASE)), n, p[k] / 2);
  THLongTensor_free(r);
  THDoubleTensor_free(dist);
}

BOOST_AUTO_TEST_CASE(multinomial_2d_non_contiguous) {
  // rows of the transposed 3x2 tensor: {1, 3, 0}, {2, 2, 6} (as float)
  auto *cols = fromValues<float>({3, 2}, {1, 2, 3, 2, 0, 6});
  THFloatTensor *dist = THFloatTensor_newTranspose(cols, 0, 1);
  const std::vector<std::vector<double>> rows = {{1, 3, 0}, {2, 2, 6}};
  const int n = 4000;
  Gen g(32), ref(32);
  THLongTensor *r = THLongTensor_new();
  THFloatTensor_multinomial(r, g, dist, n, 1);
  BOOST_REQUIRE(r->nDimension == 2);
  BOOST_REQUIRE(r->size[0] == 2);
  BOOST_REQUIRE(r->size[1] == n);
  for (int row = 0; row < 2; row++)
    for (int s = 0; s < n; s++)
      BOOST_TEST_REQUIRE(THLongTensor_get2d(r, row, s) ==
                         linearDraw(rows[row], THRandom_uniform(ref, 0, 1)) + TH_INDEX_BASE);
  THLongTensor_free(r);
  THFloatTensor_free(dist);
  THFloatTensor_free(cols);
}

BOOST_AUTO_TEST_CASE(multinomial_without_replacement) {
  Gen g(33), ref(33);
  const std::vector<double> p = {0.5, 0.3, 0.2};
  auto *dist = fromValues<double>({3}, p);
  THLongTensor *r = THLongTensor_new();

  // Each draw removes the drawn category and renormalises the rest.
  THDoubleTensor_multinomial(r, g, dist, 3, 0);
  std::vector<double> remaining = p;
  for (int s = 0; s < 3; s++) {
    int64_t k = linearDraw(remaining, THRandom_uniform(ref, 0, 1));
    BOOST_TEST(THLongTensor_get1d(r, s) == k + TH_INDEX_BASE);
    remaining[k] = 0;
  }

  const int trials = 20000;
  std::vector<double> first(3, 0), second(3, 0);
  for (int t = 0; t < trials; t++) {
    THDoubleTensor_multinomial(r, g, dist, 2, 0);
    int64_t a = THLongTensor_get1d(r, 0) - TH_INDEX_BASE, b = THLongTensor_get1d(r, 1) - TH_INDEX_BASE;
    BOOST_TEST_REQUIRE(a != b);
    first[a]++;
    second[b]++;
  }
  for (int k = 0; k < 3; k++) {
    double pSecond = 0;  // P(second = k) = sum over j != k of p_j * p_k / (1 - p_j)
    for (int j = 0; j < 3; j++)
      if (j != k) pSecond += p[j] * p[k] / (1 - p[j]);
    checkFrequency(first[k], trials, p[k]);
    checkFrequency(second[k], trials, pSecond);
  }

  // all categories of nonzero probability, each once; zero ones never
  auto *sparse = fromValues<double>({2, 6}, {0, 1, 0, 5, 2, 0, 3, 3, 3, 3, 0, 3});
  for (int t = 0; t < 200; t++) {
    THDoubleTensor_multinomial(r, g, sparse, 3, 0);
    std::set<double> row0 = {THLongTensor_get2d(r, 0, 0) * 1.0, THLongTensor_get2d(r, 0, 1) * 1.0,
                             THLongTensor_get2d(r, 0, 2) * 1.0};
    BOOST_TEST_REQUIRE((row0 == std::set<double>{1. + TH_INDEX_BASE, 3. + TH_INDEX_BASE, 4. + TH_INDEX_BASE}));
    std::set<int64_t> row1;
    for (int s = 0; s < 3; s++) row1.insert(THLongTensor_get2d(r, 1, s) - TH_INDEX_BASE);
    BOOST_TEST_REQUIRE(row1.size() == 3u);
    BOOST_TEST_REQUIRE(!row1.count(4));
  }
  THLongTensor_free(r);
  THDoubleTensor_free(dist);
  THDoubleTensor_free(sparse);
}

BOOST_AUTO_TEST_CASE(multinomial_errors) {
  Gen g(34);
  THLongTensor *r = fromValues<int64_t>({2}, {42, 43});
  const auto before = values(r);
  auto expectError = [&](THDoubleTensor *dist, int n_sample, int with_replacement, const char *what) {
    Gen ref(34);
    BOOST_CHECK_THROW(THDoubleTensor_multinomial(r, g, dist, n_sample, with_replacement), th::Error);
    BOOST_TEST(values(r) == before, what);
    BOOST_TEST(THRandom_random(g) == THRandom_random(ref), what);  // nothing drawn
    THRandom_manualSeed(g, 34);
    THDoubleTensor_free(dist);
  };
  expectError(fromValues<double>({3}, {0.5, -0.1, 0.6}), 1, 1, "negative probability");
  expectError(fromValues<double>({3}, {0.5, NAN, 0.6}), 1, 1, "NaN probability");
  expectError(fromValues<double>({3}, {0.5, INFINITY, 0.6}), 1, 1, "infinite probability");
  expectError(fromValues<double>({2, 2}, {0.5, 0.5, 0, 0}), 1, 1, "a row of zeros");
  expectError(fromValues<double>({3}, {0.2, 0.3, 0.5}), 0, 1, "n_sample 0");
  expectError(fromValues<double>({3}, {0.2, 0.3, 0.5}), 4, 0, "more samples than categories");
  expectError(fromValues<double>({3}, {0.2, 0, 0.5}), 3, 0, "more samples than nonzero categories");
  expectError(fromValues<double>({2, 1, 2}, {0.2, 0.3, 0.5, 0.1}), 1, 1, "3-D distribution");
  expectError(fromValues<double>({0}, {}), 1, 1, "no categories");
  auto *dist = fromValues<double>({3}, {0.2, 0.3, 0.5});
  try {
    THDoubleTensor_multinomial(r, g, dist, 4, 0);
  } catch (const th::Error &e) {
    BOOST_TEST(std::string(e.what()).find("n_sample = 4 > 3 categories without replacement") != std::string::npos);
  }
  THDoubleTensor_free(dist);
  THLongTensor_free(r);
}
