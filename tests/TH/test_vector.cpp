// Note [Vector kernels]: every instruction set's kernels against the scalar path (libm's
// functions, plain loops), on special values, random values over each function's domain
// and every tail length; then the TH ops that use them.
#define BOOST_TEST_MODULE th_vector
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "TH/TH.h"
#include "TH/THTensor.hpp"
#include "TH/THVector.h"

namespace {

using th::vec::Isa;
using th::vec::Unary;

boost::unit_test::decorator::precondition needs(Isa isa) {
  return boost::unit_test::precondition([isa](boost::unit_test::test_unit_id) {
    boost::test_tools::assertion_result result(th::vec::supported(isa));
    if (!result) result.message() << "the processor lacks " << th::vec::name(isa);
    return result;
  });
}

// Distance in units in the last place between two finite values of the same type.
template <typename T>
double ulps(T a, T b) {
  if (a == b) return 0;
  using Bits = std::conditional_t<std::is_same_v<T, float>, int32_t, int64_t>;
  auto ordered = [](T x) {
    Bits bits;
    std::memcpy(&bits, &x, sizeof x);
    return bits < 0 ? std::numeric_limits<Bits>::min() - bits : bits;  // monotone in x
  };
  const Bits oa = ordered(a), ob = ordered(b);
  using Unsigned = std::make_unsigned_t<Bits>;  // the difference, without overflow
  return double(oa > ob ? Unsigned(oa) - Unsigned(ob) : Unsigned(ob) - Unsigned(oa));
}

struct OpCase {
  Unary op;
  const char *name;
  double (*reference)(double);  // libm in T's precision is taken through scalar<T>
  double low, high;             // the random inputs' range
  double maxUlps;
};

template <typename T>
T scalar(Unary op, T x) {
  switch (op) {
    case Unary::Exp: return std::exp(x);
    case Unary::Log: return std::log(x);
    case Unary::Log1p: return std::log1p(x);
    case Unary::Expm1: return std::expm1(x);
    case Unary::Tanh: return std::tanh(x);
    case Unary::Sin: return std::sin(x);
    case Unary::Cos: return std::cos(x);
    case Unary::Tan: return std::tan(x);
    case Unary::Asin: return std::asin(x);
    case Unary::Acos: return std::acos(x);
    case Unary::Atan: return std::atan(x);
    case Unary::Sinh: return std::sinh(x);
    case Unary::Cosh: return std::cosh(x);
    case Unary::Log2: return std::log2(x);
    case Unary::Log10: return std::log10(x);
    case Unary::Erf: return std::erf(x);
    case Unary::Erfc: return std::erfc(x);
    case Unary::Sigmoid: return 1 / (1 + std::exp(-x));
    default: throw std::logic_error("no scalar reference for this op");
  }
}

// Each vector op, with the range its random inputs come from. Both libraries are within
// one ulp of the exact result (SLEEF's u10; erfc u15), so they may be two apart; sigmoid
// composes three roundings.
const std::vector<OpCase> &opCases() {
  static const std::vector<OpCase> cases = {
      {Unary::Exp, "exp", nullptr, -100, 100, 2},   {Unary::Log, "log", nullptr, 0, 1e6, 2},
      {Unary::Log1p, "log1p", nullptr, -1, 1e3, 2}, {Unary::Expm1, "expm1", nullptr, -30, 89, 2},
      {Unary::Tanh, "tanh", nullptr, -20, 20, 2},   {Unary::Sin, "sin", nullptr, -100, 100, 2},
      {Unary::Cos, "cos", nullptr, -100, 100, 2},   {Unary::Tan, "tan", nullptr, -1.5, 1.5, 2},
      {Unary::Asin, "asin", nullptr, -1, 1, 2},     {Unary::Acos, "acos", nullptr, -1, 1, 2},
      {Unary::Atan, "atan", nullptr, -1e3, 1e3, 2}, {Unary::Sinh, "sinh", nullptr, -80, 80, 2},
      {Unary::Cosh, "cosh", nullptr, -80, 80, 2},   {Unary::Log2, "log2", nullptr, 0, 1e6, 2},
      {Unary::Log10, "log10", nullptr, 0, 1e6, 2},  {Unary::Erf, "erf", nullptr, -5, 5, 2},
      {Unary::Erfc, "erfc", nullptr, -5, 9, 3},     {Unary::Sigmoid, "sigmoid", nullptr, -80, 80, 4},
  };
  return cases;
}

template <typename T>
std::vector<T> inputsFor(const OpCase &c, size_t count) {
  const T inf = std::numeric_limits<T>::infinity();
  std::vector<T> x = {0,
                      T(-0.0),
                      1,
                      -1,
                      T(0.5),
                      T(-0.5),
                      inf,
                      -inf,
                      std::numeric_limits<T>::quiet_NaN(),
                      std::numeric_limits<T>::denorm_min(),
                      std::numeric_limits<T>::min(),
                      std::numeric_limits<T>::max(),
                      -std::numeric_limits<T>::max(),
                      T(1e-7),
                      T(-1e-7),
                      T(c.low),
                      T(c.high)};
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> uniform(c.low, c.high);
  while (x.size() < count) x.push_back(T(uniform(rng)));
  return x;
}

// True when the kernel's y is the scalar path's z: the same NaN/infinity, or finite values
// within maxUlps (values the scalar path rounds below the normal range compare absolutely:
// SLEEF may flush them).
template <typename T>
bool agrees(T y, T z, double maxUlps) {
  if (std::isnan(z)) return std::isnan(y);
  if (std::isinf(z)) return y == z;
  if (std::fabs(z) < std::numeric_limits<T>::min()) return std::fabs(y) < 2 * std::numeric_limits<T>::min();
  return std::isfinite(y) && ulps(y, z) <= maxUlps;
}

template <typename T>
void checkUnaryKernels(Isa isa) {
  const auto &k = th::vec::kernelsFor(isa);
  for (const auto &c : opCases()) {
    BOOST_TEST_CONTEXT(k.name << " " << c.name << (std::is_same_v<T, float> ? " float" : " double")) {
      const th::vec::UnaryKernel<T> kernel = th::vec::forType<T>(k.floatUnary[int(c.op)], k.doubleUnary[int(c.op)]);
      BOOST_REQUIRE(kernel != nullptr);
      const std::vector<T> x = inputsFor<T>(c, 4099);
      std::vector<T> y(x.size());
      kernel(y.data(), x.data(), (int64_t)x.size());
      int bad = 0;
      for (size_t i = 0; i < x.size(); i++)
        if (!agrees(y[i], scalar(c.op, x[i]), c.maxUlps) && bad++ < 5)
          BOOST_ERROR(c.name << "(" << x[i] << ") = " << y[i] << ", scalar " << scalar(c.op, x[i]) << ", "
                             << ulps(y[i], scalar(c.op, x[i])) << " ulps");
      BOOST_TEST(bad == 0, c.name);
      // every tail length and offset gives each element the same value as above
      for (int64_t n = 0; n <= 33; n++) {
        std::vector<T> part(n + 2, T(-7));
        kernel(part.data() + 1, x.data() + 5, n);
        bool same = part[0] == T(-7) && part[n + 1] == T(-7);  // nothing outside written
        for (int64_t i = 0; i < n; i++) same = same && (std::memcmp(&part[i + 1], &y[i + 5], sizeof(T)) == 0);
        BOOST_TEST(same, "tail of " << n);
      }
      // in place
      std::vector<T> z = x;
      kernel(z.data(), z.data(), (int64_t)z.size());
      BOOST_TEST(std::memcmp(z.data(), y.data(), z.size() * sizeof(T)) == 0);
    }
  }
}

// GELU, x Phi(x) with Phi(x) = erfc(-x / sqrt 2) / 2, and its derivative Phi(x) + x phi(x),
// against the scalar path's expressions in double. Float's kernels are our own (Note [GELU in
// one pass]): 8 ulps, of |Phi| + |x phi| for the derivative (its terms cancel near x = -0.75).
// Double's are SLEEF's erfc and exp of the same rounded arguments (within 1.5 and 1 ulps of
// libm's), so 4 apart at most after the products.
template <typename T>
void checkGelu(Isa isa) {
  const auto &k = th::vec::kernelsFor(isa);
  const th::vec::UnaryKernel<T> gelu = th::vec::forType<T>(k.floatGelu, k.doubleGelu);
  const th::vec::UnaryKernel<T> derivative = th::vec::forType<T>(k.floatGeluDerivative, k.doubleGeluDerivative);
  BOOST_REQUIRE((gelu != nullptr && derivative != nullptr));
  const double maxUlps = std::is_same_v<T, float> ? 8 : 4;
  const OpCase range{Unary::Erfc, "gelu", nullptr, -14, 9, maxUlps};
  std::vector<T> x = inputsFor<T>(range, 20000);
  for (double v = -14; v <= 9; v += 1.0 / 64) x.push_back(T(v));  // every stretch of the tails
  std::vector<T> y(x.size()), d(x.size());
  gelu(y.data(), x.data(), (int64_t)x.size());
  derivative(d.data(), x.data(), (int64_t)x.size());
  int bad = 0, badDerivative = 0;
  for (size_t i = 0; i < x.size(); i++) {
    const double v = x[i], cdf = 0.5 * std::erfc(v * -0.70710678118654752440);
    const double xDensity = v * (0.39894228040143267794 * std::exp(-0.5 * (v * v)));
    const T want = T(v * cdf);
    if (!agrees(y[i], want, maxUlps) && bad++ < 5)
      BOOST_ERROR(k.name << " gelu(" << x[i] << ") = " << y[i] << ", scalar " << want << ", " << ulps(y[i], want)
                         << " ulps");
    const double wantDerivative = cdf + xDensity;
    // in T's ulps of the terms' magnitude (subnormal spacing where that is so small)
    const T scale = T(std::fabs(cdf) + std::fabs(xDensity));
    const double bound = maxUlps * double(std::nextafter(scale, std::numeric_limits<T>::infinity()) - scale);
    const bool ok = std::isnan(wantDerivative) ? std::isnan(d[i]) : std::fabs(d[i] - wantDerivative) <= bound;
    if (!ok && badDerivative++ < 5)
      BOOST_ERROR(k.name << " gelu'(" << x[i] << ") = " << d[i] << ", scalar " << wantDerivative << ", off by "
                         << std::fabs(d[i] - wantDerivative) / bound * maxUlps << " ulps of the terms");
  }
  BOOST_TEST(bad == 0, k.name << " gelu");
  BOOST_TEST(badDerivative == 0, k.name << " gelu'");
  // in place, and the tails of every length, give the same bits (a NaN's sign follows the
  // order the compiler gave a sum's operands, which IEEE leaves open)
  auto same = [](const T *a, const T *b, int64_t n) {
    for (int64_t i = 0; i < n; i++)
      if (std::memcmp(a + i, b + i, sizeof(T)) != 0 && !(std::isnan(a[i]) && std::isnan(b[i]))) return false;
    return true;
  };
  for (auto kernel : {gelu, derivative}) {
    std::vector<T> want(x.size()), z = x;
    kernel(want.data(), x.data(), (int64_t)x.size());
    kernel(z.data(), z.data(), (int64_t)z.size());
    BOOST_TEST(same(z.data(), want.data(), (int64_t)z.size()));
    for (int64_t n = 0; n <= 33; n++) {
      std::vector<T> part(n);
      kernel(part.data(), x.data() + 3, n);
      BOOST_TEST(same(part.data(), want.data() + 3, n), "tail of " << n);
    }
  }
}

template <typename T, typename Sum>
void checkSum(Sum sum) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (int64_t n : {0, 1, 7, 15, 16, 17, 31, 33, 64, 1000, 100003}) {
    std::vector<T> x(n);
    long double reference = 0, magnitudes = 0;
    for (auto &v : x) {
      v = T(uniform(rng) * 1e3);
      reference += v;
      magnitudes += std::fabs(v);
    }
    const double got = sum(x.data(), n);
    // doubles accumulate in double: a few n * 2^-53 of the magnitudes' sum; floats add four
    // to a float lane before the lanes go to double (Note in TH/vector/VectorKernels.hpp):
    // at most 4 * 2^-24 of it
    const double bound = std::is_same_v<T, float> ? 4 * 0x1p-24 * (double)magnitudes : 1e-13 * 1e3 * (n + 1);
    BOOST_TEST(std::fabs(got - (double)reference) <= bound, "n " << n);
  }
}

// The arithmetic kernels give the scalar expressions' bits (a multiply then an add, never
// fused), for every tail length, in place on either operand, and with infinities, NaNs,
// zeros and subnormals among the operands.
template <typename T>
void checkArithmeticKernels(Isa isa) {
  const auto &k = th::vec::kernelsFor(isa);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> uniform(-1e3, 1e3);
  const int64_t n = 1031;
  std::vector<T> a(n), b(n);
  for (int64_t i = 0; i < n; i++) {
    a[i] = T(uniform(rng));
    b[i] = T(uniform(rng) / 7);
  }
  const T special[] = {T(0),
                       -T(0),
                       std::numeric_limits<T>::infinity(),
                       -std::numeric_limits<T>::infinity(),
                       std::numeric_limits<T>::quiet_NaN(),
                       std::numeric_limits<T>::denorm_min(),
                       std::numeric_limits<T>::max()};
  for (size_t i = 0; i < std::size(special); i++) {
    a[3 * i] = special[i];
    b[5 * i + 1] = special[i];
    b[3 * i] = special[(i + 2) % std::size(special)];
  }
  const T alpha = T(-0.3);
  auto same = [](T x, T y) { return (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, sizeof(T)) == 0; };
  for (int op = 0; op < int(th::vec::Binary::Count); op++) {
    const th::vec::BinaryKernel<T> kernel = th::vec::forType<T>(k.floatBinary[op], k.doubleBinary[op]);
    BOOST_REQUIRE(kernel != nullptr);
    auto scalarOf = [&](T x, T y) {
      switch (th::vec::Binary(op)) {
        case th::vec::Binary::AddScaled: return T(x + T(alpha * y));
        case th::vec::Binary::Mul: return T(x * y);
        default: return T(x / y);
      }
    };
    for (int64_t len : {int64_t(0), int64_t(1), int64_t(7), int64_t(16), int64_t(17), int64_t(33), n}) {
      std::vector<T> r(len + 2, T(-7));
      kernel(r.data() + 1, a.data(), b.data(), alpha, len);
      bool ok = r[0] == T(-7) && r[len + 1] == T(-7);
      for (int64_t i = 0; i < len; i++) ok = ok && same(r[i + 1], scalarOf(a[i], b[i]));
      BOOST_TEST(ok, k.name << " binary op " << op << " over " << len);
    }
    std::vector<T> inA = a, inB = b;
    kernel(inA.data(), inA.data(), b.data(), alpha, n);
    kernel(inB.data(), a.data(), inB.data(), alpha, n);
    bool ok = true;
    for (int64_t i = 0; i < n; i++) ok = ok && same(inA[i], scalarOf(a[i], b[i])) && same(inB[i], scalarOf(a[i], b[i]));
    BOOST_TEST(ok, k.name << " binary op " << op << " in place");
  }
  for (int op = 0; op < int(th::vec::WithValue::Count); op++) {
    const th::vec::ValueKernel<T> kernel = th::vec::forType<T>(k.floatWithValue[op], k.doubleWithValue[op]);
    BOOST_REQUIRE(kernel != nullptr);
    for (T value : {T(0.7), T(0), std::numeric_limits<T>::infinity()}) {
      std::vector<T> r(n);
      kernel(r.data(), a.data(), value, n);
      bool ok = true;
      for (int64_t i = 0; i < n; i++) {
        const T want = th::vec::WithValue(op) == th::vec::WithValue::Add   ? T(a[i] + value)
                       : th::vec::WithValue(op) == th::vec::WithValue::Mul ? T(a[i] * value)
                                                                           : T(a[i] / value);
        ok = ok && same(r[i], want);
      }
      BOOST_TEST(ok, k.name << " value op " << op << " with " << value);
    }
  }
}

void checkIsa(Isa isa) {
  checkUnaryKernels<float>(isa);
  checkUnaryKernels<double>(isa);
  checkGelu<float>(isa);
  checkGelu<double>(isa);
  checkArithmeticKernels<float>(isa);
  checkArithmeticKernels<double>(isa);
  checkSum<float>(th::vec::kernelsFor(isa).sumFloat);
  checkSum<double>(th::vec::kernelsFor(isa).sumDouble);
}

}  // namespace

BOOST_AUTO_TEST_CASE(avx2_kernels_match_the_scalar_path, *needs(Isa::Avx2)) { checkIsa(Isa::Avx2); }

BOOST_AUTO_TEST_CASE(avx512_kernels_match_the_scalar_path, *needs(Isa::Avx512)) { checkIsa(Isa::Avx512); }

BOOST_AUTO_TEST_CASE(a_set_the_processor_lacks_is_an_error) {
  for (Isa isa : {Isa::Avx2, Isa::Avx512})
    if (!th::vec::supported(isa)) BOOST_CHECK_THROW(th::vec::kernelsFor(isa), th::Error);
  BOOST_TEST(th::vec::supported(Isa::Default));
}

BOOST_AUTO_TEST_CASE(the_plain_build_has_no_kernels) {
  const auto &k = th::vec::kernelsFor(Isa::Default);
  for (int op = 0; op < int(Unary::Count); op++) BOOST_TEST((!k.floatUnary[op] && !k.doubleUnary[op]));
  for (int op = 0; op < int(th::vec::Binary::Count); op++) BOOST_TEST((!k.floatBinary[op] && !k.doubleBinary[op]));
  BOOST_TEST((!k.sumFloat && !k.floatGelu && !k.doubleGelu && !k.floatGeluDerivative && !k.doubleGeluDerivative));
  // and the chosen set is the best the processor has (TH_VECTOR unset in the test)
  const Isa best = th::vec::supported(Isa::Avx512) ? Isa::Avx512
                   : th::vec::supported(Isa::Avx2) ? Isa::Avx2
                                                   : Isa::Default;
  BOOST_TEST(std::string(th::vec::kernels().name) == th::vec::kernelsFor(best).name);
}

// The TH ops: contiguous tensors (large enough for threads) and tensors whose rows are
// contiguous go through the chosen set, other strided ones through the scalar expression;
// all agree with libm.
BOOST_AUTO_TEST_CASE(th_unary_ops_contiguous_and_strided) {
  const int64_t rows = 300, cols = 257;
  THFloatTensor *x = THFloatTensor_newWithSize2d(rows, cols);
  float *xd = THFloatTensor_data(x);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> uniform(-9, 9);
  for (int64_t i = 0; i < rows * cols; i++) xd[i] = uniform(rng);
  THFloatTensor *xt = THFloatTensor_newTranspose(x, 0, 1);
  THFloatTensor *r = THFloatTensor_new();
  THFloatTensor *rt = THFloatTensor_new();
  THFloatTensor_tanh(r, x);
  THFloatTensor_tanh(rt, xt);
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      const float ref = std::tanh(xd[i * cols + j]);
      BOOST_TEST_REQUIRE(agrees(THFloatTensor_get2d(r, i, j), ref, 2));
      BOOST_TEST_REQUIRE(agrees(THFloatTensor_get2d(rt, j, i), ref, 0));  // the scalar path is libm's
    }
  // a narrow of the columns: not contiguous, but its rows are, so the vector kernels run
  // row by row (as on an LSTM's gates); the transposed view has no contiguous rows
  THFloatTensor *xn = THFloatTensor_newNarrow(x, 1, 3, 100);
  THFloatTensor *rn = THFloatTensor_new();
  THFloatTensor_tanh(rn, xn);
  BOOST_TEST(THFloatTensor_isContiguous(rn));
  const auto rowKernel = th::vec::unary<float>(th::vec::Unary::Tanh);
  std::vector<float> row(100);
  for (int64_t i = 0; i < rows; i++) {
    // the chosen set's kernel on the row, to the bit (libm's where the plain build has none)
    if (rowKernel) rowKernel(row.data(), xd + i * cols + 3, 100);
    for (int64_t j = 0; j < 100; j++) {
      const float want = rowKernel ? row[j] : std::tanh(xd[i * cols + 3 + j]);
      BOOST_TEST_REQUIRE(THFloatTensor_get2d(rn, i, j) == want);
    }
  }
  THFloatTensor_free(rn);
  THFloatTensor_free(xn);
  // in place, on the contiguous tensor
  const std::vector<float> before(xd, xd + rows * cols);
  THFloatTensor_sigmoid(x, x);
  for (int64_t i = 0; i < rows * cols; i++) BOOST_TEST_REQUIRE(agrees(xd[i], 1 / (1 + std::exp(-before[i])), 4));
  THFloatTensor_free(rt);
  THFloatTensor_free(r);
  THFloatTensor_free(xt);
  THFloatTensor_free(x);
}

BOOST_AUTO_TEST_CASE(th_sums_contiguous_and_strided) {
  const int64_t rows = 513, cols = 129;
  THDoubleTensor *x = THDoubleTensor_newWithSize2d(rows, cols);
  double *xd = THDoubleTensor_data(x);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> uniform(-1, 1);
  long double total = 0;
  for (int64_t i = 0; i < rows * cols; i++) total += (xd[i] = uniform(rng));
  BOOST_TEST(std::fabs(THDoubleTensor_sumall(x) - (double)total) < 1e-10);
  THDoubleTensor *r = THDoubleTensor_new();
  for (int dim : {0, 1}) {  // strided lines, then contiguous ones
    THDoubleTensor_sum(r, x, dim, 0);
    BOOST_TEST_REQUIRE(THDoubleTensor_nElement(r) == (dim == 0 ? cols : rows));
    for (int64_t k = 0; k < THDoubleTensor_nElement(r); k++) {
      long double line = 0;
      for (int64_t m = 0; m < (dim == 0 ? rows : cols); m++) line += dim == 0 ? xd[m * cols + k] : xd[k * cols + m];
      BOOST_TEST_REQUIRE(std::fabs(THDoubleTensor_get1d(r, k) - (double)line) < 1e-12);
    }
  }
  THDoubleTensor_free(r);
  THDoubleTensor_free(x);
}
