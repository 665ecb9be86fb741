// Element-wise math and comparisons: every op against a plain loop over the operands'
// values, with operands contiguous, transposed, narrowed, expanded (0 strides) or of
// another shape, and the result fresh, a strided view, or one of the operands.
#define BOOST_TEST_MODULE TH math
#include <array>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <tuple>

#include "th_test_util.hpp"

using tht::fromValues;
using tht::values;

namespace {

// The C API of one element type (TH's type table), so that one test body serves every type.
template <typename T>
using Api = th::TH<T>;

using AllTypes = std::tuple<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double>;
using SignedTypes = std::tuple<int8_t, int16_t, int32_t, int64_t, float, double>;
using IntTypes = std::tuple<uint8_t, int8_t, int16_t, int32_t, int64_t>;
using FloatTypes = std::tuple<float, double>;
using IntAndFloat = std::tuple<int32_t, float>;

template <typename T>
using TensorOf = typename Api<T>::Tensor;

// Operands are 3x4 (12 elements) in every layout but Flat.
constexpr int kRows = 3, kCols = 4, kN = kRows * kCols;
constexpr double kSentinel = 77;  // around a narrowed view, must survive every write into it

enum Layout { Contiguous, Transposed, Narrowed, Expanded, Flat };

// The values an operand made by make(layout, v) holds, in row-major order: an expanded
// operand repeats v's first row.
std::vector<double> held(Layout layout, const std::vector<double> &v) {
  if (layout != Expanded) return v;
  std::vector<double> out(kN);
  for (int i = 0; i < kRows; i++)
    for (int j = 0; j < kCols; j++) out[i * kCols + j] = v[j];
  return out;
}

template <typename T>
TensorOf<T> *make(Layout layout, const std::vector<double> &v) {
  using A = Api<T>;
  switch (layout) {
    case Contiguous: return fromValues<T>({kRows, kCols}, v);
    case Flat: return fromValues<T>({kN}, v);
    case Transposed: {
      std::vector<double> w(kN);
      for (int i = 0; i < kRows; i++)
        for (int j = 0; j < kCols; j++) w[j * kRows + i] = v[i * kCols + j];
      auto *base = fromValues<T>({kCols, kRows}, w);
      auto *t = A::newTranspose(base, 0, 1);
      A::free(base);
      return t;
    }
    case Narrowed: {
      std::vector<double> w(kRows * (kCols + 2), kSentinel);
      for (int i = 0; i < kRows; i++)
        for (int j = 0; j < kCols; j++) w[i * (kCols + 2) + j + 1] = v[i * kCols + j];
      auto *base = fromValues<T>({kRows, kCols + 2}, w);
      auto *t = A::newNarrow(base, 1, 1, kCols);
      A::free(base);
      return t;
    }
    case Expanded: {
      auto *row = fromValues<T>({1, kCols}, std::vector<double>(v.begin(), v.begin() + kCols));
      int64_t size[2] = {kRows, kCols};
      auto *t = A::newExpand(row, 2, size);
      A::free(row);
      return t;
    }
  }
  return nullptr;
}

// The columns left and right of a Narrowed tensor's view.
template <typename TensorT>
bool sentinelsIntact(TensorT *t) {
  for (int i = 0; i < kRows; i++)
    if (t->storage->data[i * (kCols + 2)] != kSentinel || t->storage->data[i * (kCols + 2) + kCols + 1] != kSentinel)
      return false;
  return true;
}

bool close(double got, double want, double tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (got == want) return true;
  return std::abs(got - want) <= tol * std::max(1.0, std::abs(want));
}

// Reports the first element that differs.
void expectValues(const std::vector<double> &got, const std::vector<double> &want, double tol,
                  const std::string &where) {
  BOOST_TEST_REQUIRE(got.size() == want.size(), where << ": " << got.size() << " elements, expected " << want.size());
  for (size_t i = 0; i < got.size(); i++)
    if (!close(got[i], want[i], tol)) {
      BOOST_ERROR(where << ", element " << i << ": got " << got[i] << ", expected " << want[i]);
      return;
    }
}

// n values that T holds exactly: integers for integer types (non-negative for Byte).
template <typename T>
std::vector<double> sample(unsigned seed, double lo = -10, double hi = 10, size_t n = kN) {
  if (std::is_unsigned_v<T> && lo < 0) {
    hi -= lo;
    lo = 0;
  }
  std::vector<double> v = tht::randomValues(n, seed, lo, hi);
  for (auto &x : v) x = std::is_integral_v<T> ? std::round(x) : (double)(T)x;
  return v;
}

std::vector<double> nonzero(std::vector<double> v) {
  for (auto &x : v)
    if (x == 0) x = 1;
  return v;
}

// Operand layouts per scenario (operand k takes column k): every layout appears as the
// first operand and as a later one, and the last row gives operands different shapes.
const Layout kScenarios[][3] = {
    {Contiguous, Contiguous, Contiguous}, {Transposed, Contiguous, Narrowed}, {Narrowed, Transposed, Contiguous},
    {Contiguous, Expanded, Transposed},   {Expanded, Narrowed, Expanded},     {Transposed, Flat, Flat},
};

template <typename T, size_t>
using Same = T;

// Signatures of an N-operand op and of its reference; Mask ops write a ByteTensor.
template <typename T, bool Mask, typename Seq>
struct Sig;
template <typename T, bool Mask, size_t... I>
struct Sig<T, Mask, std::index_sequence<I...>> {
  using R = std::conditional_t<Mask, uint8_t, T>;
  using Call = std::function<void(TensorOf<R> *, Same<TensorOf<T> *, I>...)>;
  using Ref = std::function<R(Same<T, I>...)>;
};
template <typename T, size_t N, bool Mask>
using SigOf = Sig<T, Mask, std::make_index_sequence<N>>;

// Runs call(r, operands...) for every scenario, with r fresh, a narrowed view, or each
// operand in turn (in place), and compares r with ref applied element by element to the
// values the operands hold. Operands that are not r must come back unchanged.
template <typename T, size_t N, bool Mask = false>
void checkOp(const std::string &name, typename SigOf<T, N, Mask>::Call call, typename SigOf<T, N, Mask>::Ref ref,
             const std::array<std::vector<double>, N> &in, double tol = 0) {
  using R = typename SigOf<T, N, Mask>::R;
  for (size_t s = 0; s < std::size(kScenarios); s++) {
    const Layout *layout = kScenarios[s];
    std::array<std::vector<double>, N> operandValues;
    for (size_t k = 0; k < N; k++) operandValues[k] = held(layout[k], in[k]);
    std::vector<double> want(kN);
    for (int i = 0; i < kN; i++) {
      std::array<T, N> x;
      for (size_t k = 0; k < N; k++) x[k] = (T)operandValues[k][i];
      want[i] = (double)std::apply(ref, x);
    }
    for (int kind = -2; kind < (int)N; kind++) {  // -2 fresh, -1 view, k in place on operand k
      if (kind >= 0 && (!std::is_same_v<R, T> || layout[kind] == Expanded)) continue;
      std::array<TensorOf<T> *, N> ops;
      for (size_t k = 0; k < N; k++) ops[k] = make<T>(layout[k], in[k]);
      TensorOf<R> *r = nullptr;
      if (kind == -2) r = Api<R>::newEmpty();
      if (kind == -1) r = make<R>(Narrowed, std::vector<double>(kN, 5));
      if constexpr (std::is_same_v<R, T>)
        if (kind >= 0) r = ops[kind];
      std::apply([&](auto *...t) { call(r, t...); }, ops);
      std::string where = name + ", scenario " + std::to_string(s) +
                          (kind == -2   ? ", fresh result"
                           : kind == -1 ? ", result a view"
                                        : ", in place on operand ") +
                          (kind >= 0 ? std::to_string(kind) : "");
      expectValues(values(r), want, tol, where);
      if (kind == -1) BOOST_TEST(sentinelsIntact(r), where << ": wrote outside the view");
      for (size_t k = 0; k < N; k++)
        if ((int)k != kind) expectValues(values(ops[k]), operandValues[k], 0, where + ", operand " + std::to_string(k));
      if (kind < 0) Api<R>::free(r);
      for (auto *t : ops) Api<T>::free(t);
    }
  }
}

template <typename T>
constexpr double eps() {
  return std::is_integral_v<T> ? 0 : 8 * std::numeric_limits<T>::epsilon();
}

// Python's %, computed the schoolbook way.
double pyRemainder(double x, double y) { return x - y * std::floor(x / y); }

// Integer power by repeated multiplication.
int64_t intPow(int64_t base, int64_t exp) {
  int64_t r = 1;
  for (int64_t k = 0; k < exp; k++) r *= base;
  return r;
}

// Runs f, which must raise th::Error, and returns the message.
template <typename F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const th::Error &e) {
    return e.what();
  }
  BOOST_ERROR("no th::Error raised");
  return "";
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(fill_and_zero, T, AllTypes) {
  using A = Api<T>;
  for (Layout layout : {Contiguous, Transposed, Narrowed}) {
    auto *t = make<T>(layout, sample<T>(1));
    A::fill(t, T(7));
    expectValues(values(t), std::vector<double>(kN, 7), 0, "fill, layout " + std::to_string(layout));
    A::zero(t);
    expectValues(values(t), std::vector<double>(kN, 0), 0, "zero, layout " + std::to_string(layout));
    if (layout == Narrowed) BOOST_TEST(sentinelsIntact(t));
    A::free(t);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(ops_with_a_value, T, AllTypes) {
  using A = Api<T>;
  using Tn = TensorOf<T>;
  const auto x = sample<T>(2);
  // Byte has no negative values; the others also divide by a negative one.
  std::vector<T> divisors = {T(3)};
  if (std::is_signed_v<T>) divisors.push_back(T(-4));
  for (T v : divisors) {
    const std::string sv = " " + std::to_string((double)v);
    checkOp<T, 1>(
        "add" + sv, [&](Tn *r, Tn *t) { A::add(r, t, v); }, [&](T a) { return T(a + v); }, {x});
    checkOp<T, 1>(
        "sub" + sv, [&](Tn *r, Tn *t) { A::sub(r, t, v); }, [&](T a) { return T(a - v); }, {x});
    checkOp<T, 1>(
        "mul" + sv, [&](Tn *r, Tn *t) { A::mul(r, t, v); }, [&](T a) { return T(a * v); }, {x});
    checkOp<T, 1>(
        "div" + sv, [&](Tn *r, Tn *t) { A::div(r, t, v); }, [&](T a) { return T(a / v); }, {x});
    checkOp<T, 1>(
        "fmod" + sv, [&](Tn *r, Tn *t) { A::fmod(r, t, v); }, [&](T a) { return T(std::fmod((double)a, (double)v)); },
        {x});
    checkOp<T, 1>(
        "remainder" + sv, [&](Tn *r, Tn *t) { A::remainder(r, t, v); }, [&](T a) { return T(pyRemainder(a, v)); }, {x},
        eps<T>());
    checkOp<T, 1>(
        "cmaxValue" + sv, [&](Tn *r, Tn *t) { A::cmaxValue(r, t, v); }, [&](T a) { return std::max(a, v); }, {x});
    checkOp<T, 1>(
        "cminValue" + sv, [&](Tn *r, Tn *t) { A::cminValue(r, t, v); }, [&](T a) { return std::min(a, v); }, {x});
  }
  checkOp<T, 1>(
      "clamp", [&](Tn *r, Tn *t) { A::clamp(r, t, T(2), T(6)); },
      [&](T a) { return std::min(std::max(a, T(2)), T(6)); }, {x});
  if constexpr (std::is_integral_v<T>) {
    checkOp<T, 1>(
        "pow 3", [&](Tn *r, Tn *t) { A::pow(r, t, T(3)); }, [&](T a) { return T(intPow(a, 3)); }, {x});
    checkOp<T, 1>(
        "pow 0", [&](Tn *r, Tn *t) { A::pow(r, t, T(0)); }, [&](T) { return T(1); }, {x});
    checkOp<T, 1>(
        "tpow 3", [&](Tn *r, Tn *t) { A::tpow(r, T(3), t); }, [&](T a) { return T(intPow(3, a)); },
        {sample<T>(3, 0, 9)});
  } else {
    const auto positive = sample<T>(4, 0.1, 4);
    checkOp<T, 1>(
        "pow 2.5", [&](Tn *r, Tn *t) { A::pow(r, t, T(2.5)); }, [&](T a) { return T(std::pow((double)a, 2.5)); },
        {positive}, eps<T>());
    checkOp<T, 1>(
        "pow -1", [&](Tn *r, Tn *t) { A::pow(r, t, T(-1)); }, [&](T a) { return T(1 / (double)a); }, {positive},
        eps<T>());
    checkOp<T, 1>(
        "tpow 1.5", [&](Tn *r, Tn *t) { A::tpow(r, T(1.5), t); }, [&](T a) { return T(std::pow(1.5, (double)a)); }, {x},
        eps<T>());
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(ops_with_a_tensor, T, AllTypes) {
  using A = Api<T>;
  using Tn = TensorOf<T>;
  const auto a = sample<T>(5), b = sample<T>(6), c = sample<T>(7), divisor = nonzero(sample<T>(8));
  const T v = 3;
  checkOp<T, 2>(
      "cadd", [&](Tn *r, Tn *t, Tn *s) { A::cadd(r, t, v, s); }, [&](T x, T y) { return T(x + v * y); }, {a, b});
  checkOp<T, 2>(
      "csub", [&](Tn *r, Tn *t, Tn *s) { A::csub(r, t, v, s); }, [&](T x, T y) { return T(x - v * y); }, {a, b});
  checkOp<T, 2>("cmul", A::cmul, [](T x, T y) { return T(x * y); }, {a, b});
  checkOp<T, 2>("cdiv", A::cdiv, [](T x, T y) { return T(x / y); }, {a, divisor});
  checkOp<T, 2>("cfmod", A::cfmod, [](T x, T y) { return T(std::fmod((double)x, (double)y)); }, {a, divisor});
  checkOp<T, 2>(
      "cremainder", A::cremainder, [](T x, T y) { return T(pyRemainder(x, y)); }, {a, divisor}, eps<T>());
  checkOp<T, 2>("cmax", A::cmax, [](T x, T y) { return x < y ? y : x; }, {a, b});
  checkOp<T, 2>("cmin", A::cmin, [](T x, T y) { return y < x ? y : x; }, {a, b});
  checkOp<T, 3>(
      "addcmul", [&](Tn *r, Tn *t, Tn *s1, Tn *s2) { A::addcmul(r, t, v, s1, s2); },
      [&](T x, T y, T z) { return T(x + v * y * z); }, {a, b, c});
  // integers divide value * src1 by src2, truncating
  checkOp<T, 3>(
      "addcdiv", [&](Tn *r, Tn *t, Tn *s1, Tn *s2) { A::addcdiv(r, t, v, s1, s2); },
      [&](T x, T y, T z) { return T(x + T(v * y) / z); }, {a, b, divisor}, eps<T>());
  if constexpr (std::is_integral_v<T>) {
    checkOp<T, 2>("cpow", A::cpow, [](T x, T y) { return T(intPow(x, y)); },
                  {sample<T>(9, -5, 5), sample<T>(10, 0, 4)});
  } else {
    checkOp<T, 2>(
        "cpow", A::cpow, [](T x, T y) { return T(std::pow((double)x, (double)y)); },
        {sample<T>(9, 0.1, 3), sample<T>(10, -2, 2)}, eps<T>());
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(sign_neg_abs, T, SignedTypes) {
  using A = Api<T>;
  auto x = sample<T>(11, -3, 3);
  x[0] = 0;
  checkOp<T, 1>("sign", A::sign, [](T a) { return T(a > 0 ? 1 : a < 0 ? -1 : 0); }, {x});
  checkOp<T, 1>("neg", A::neg, [](T a) { return T(-a); }, {x});
  checkOp<T, 1>("abs", A::abs, [](T a) { return T(a < 0 ? -a : a); }, {x});
}

BOOST_AUTO_TEST_CASE(byte_sign) {
  const std::vector<double> x = {0, 1, 2, 0, 200, 255, 3, 0, 0, 9, 1, 0};
  checkOp<uint8_t, 1>("sign", Api<uint8_t>::sign, [](uint8_t a) { return uint8_t(a != 0); }, {x});
}

BOOST_AUTO_TEST_CASE_TEMPLATE(comparisons, T, AllTypes) {
  using A = Api<T>;
  using Tn = TensorOf<T>;
  // few distinct values, so that equal pairs are frequent
  const auto a = sample<T>(12, -2, 2), b = sample<T>(13, -2, 2);
  const T v = 1;
  auto check = [&](const std::string &name, void (*value)(THByteTensor *, Tn *, T), void (*valueT)(Tn *, Tn *, T),
                   void (*tensor)(THByteTensor *, Tn *, Tn *), void (*tensorT)(Tn *, Tn *, Tn *),
                   bool (*op)(double, double)) {
    checkOp<T, 1, true>(
        name + "Value", [&](THByteTensor *r, Tn *t) { value(r, t, v); }, [&](T x) { return uint8_t(op(x, v)); }, {a});
    checkOp<T, 1>(
        name + "ValueT", [&](Tn *r, Tn *t) { valueT(r, t, v); }, [&](T x) { return T(op(x, v)); }, {a});
    checkOp<T, 2, true>(name + "Tensor", tensor, [&](T x, T y) { return uint8_t(op(x, y)); }, {a, b});
    checkOp<T, 2>(name + "TensorT", tensorT, [&](T x, T y) { return T(op(x, y)); }, {a, b});
  };
  check("lt", A::ltValue, A::ltValueT, A::ltTensor, A::ltTensorT, [](double x, double y) { return x < y; });
  check("le", A::leValue, A::leValueT, A::leTensor, A::leTensorT, [](double x, double y) { return x <= y; });
  check("gt", A::gtValue, A::gtValueT, A::gtTensor, A::gtTensorT, [](double x, double y) { return x > y; });
  check("ge", A::geValue, A::geValueT, A::geTensor, A::geTensorT, [](double x, double y) { return x >= y; });
  check("eq", A::eqValue, A::eqValueT, A::eqTensor, A::eqTensorT, [](double x, double y) { return x == y; });
  check("ne", A::neValue, A::neValueT, A::neTensor, A::neTensorT, [](double x, double y) { return x != y; });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(float_functions, T, FloatTypes) {
  using A = Api<T>;
  struct Unary {
    const char *name;
    void (*fn)(TensorOf<T> *, TensorOf<T> *);
    double (*ref)(double);
    double lo, hi;
  };
  const Unary unary[] = {
      {"exp", A::exp, [](double x) { return std::exp(x); }, -10, 10},
      {"log", A::log, [](double x) { return std::log(x); }, 0.01, 100},
      {"log1p", A::log1p, [](double x) { return std::log1p(x); }, -0.99, 10},
      {"sqrt", A::sqrt, [](double x) { return std::sqrt(x); }, 0, 100},
      {"rsqrt", A::rsqrt, [](double x) { return 1 / std::sqrt(x); }, 0.01, 100},
      {"sigmoid", A::sigmoid, [](double x) { return 1 / (1 + std::exp(-x)); }, -10, 10},
      {"tanh", A::tanh, [](double x) { return std::tanh(x); }, -5, 5},
      {"sin", A::sin, [](double x) { return std::sin(x); }, -10, 10},
      {"cos", A::cos, [](double x) { return std::cos(x); }, -10, 10},
      {"tan", A::tan, [](double x) { return std::tan(x); }, -1.5, 1.5},
      {"asin", A::asin, [](double x) { return std::asin(x); }, -1, 1},
      {"acos", A::acos, [](double x) { return std::acos(x); }, -1, 1},
      {"atan", A::atan, [](double x) { return std::atan(x); }, -10, 10},
      {"sinh", A::sinh, [](double x) { return std::sinh(x); }, -5, 5},
      {"cosh", A::cosh, [](double x) { return std::cosh(x); }, -5, 5},
      {"floor", A::floor, [](double x) { return std::floor(x); }, -10, 10},
      {"ceil", A::ceil, [](double x) { return std::ceil(x); }, -10, 10},
      {"trunc", A::trunc, [](double x) { return std::trunc(x); }, -10, 10},
      {"frac", A::frac, [](double x) { return x - std::trunc(x); }, -10, 10},
      {"cinv", A::cinv, [](double x) { return 1 / x; }, 0.5, 10},
      {"neg", A::neg, [](double x) { return -x; }, -10, 10},
      {"abs", A::abs, [](double x) { return std::fabs(x); }, -10, 10},
  };
  for (const auto &u : unary) {
    auto ref = u.ref;
    checkOp<T, 1>(
        u.name, u.fn, [ref](T x) { return T(ref(x)); }, {sample<T>(14, u.lo, u.hi)}, eps<T>());
  }
  // round: halves go away from zero
  const std::vector<double> halves = {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, -0.375, 0.625, 3.25, -3.75, 0, 7};
  const std::vector<double> rounded = {-3, -2, -1, 1, 2, 3, -0, 1, 3, -4, 0, 7};
  checkOp<T, 1>("round", A::round,
                [&](T x) {
                  for (size_t i = 0; i < halves.size(); i++)
                    if ((T)halves[i] == x) return T(rounded[i]);
                  return T(NAN);
                },
                {halves});
  const auto a = sample<T>(15), b = sample<T>(16);
  checkOp<T, 2>(
      "lerp", [](TensorOf<T> *r, TensorOf<T> *x, TensorOf<T> *y) { Api<T>::lerp(r, x, y, T(0.25)); },
      [](T x, T y) { return T(x + 0.25 * (y - x)); }, {a, b}, eps<T>());
  checkOp<T, 2>(
      "atan2", A::atan2, [](T y, T x) { return T(std::atan2((double)y, (double)x)); }, {a, b}, eps<T>());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nan_propagates, T, FloatTypes) {
  using A = Api<T>;
  const double nan = NAN;
  auto *a = fromValues<T>({4}, {nan, 1, nan, -2});
  auto *b = fromValues<T>({4}, {0, nan, nan, 3});
  auto *r = A::newEmpty();
  auto *mask = THByteTensor_new();
  A::cmax(r, a, b);
  expectValues(values(r), {nan, nan, nan, 3}, 0, "cmax");
  A::cmin(r, a, b);
  expectValues(values(r), {nan, nan, nan, -2}, 0, "cmin");
  A::cmaxValue(r, a, T(0));
  expectValues(values(r), {nan, 1, nan, 0}, 0, "cmaxValue");
  A::clamp(r, a, T(-1), T(0.5));
  expectValues(values(r), {nan, 0.5, nan, -1}, 0, "clamp");
  A::eqTensor(mask, a, b);
  expectValues(values(mask), {0, 0, 0, 0}, 0, "eqTensor");
  A::neTensor(mask, a, b);
  expectValues(values(mask), {1, 1, 1, 1}, 0, "neTensor");
  A::ltValue(mask, a, T(5));
  expectValues(values(mask), {0, 1, 0, 1}, 0, "ltValue");
  A::sign(r, a);
  expectValues(values(r), {0, 1, 0, -1}, 0, "sign");
  for (auto *t : {a, b, r}) A::free(t);
  THByteTensor_free(mask);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(float_division_by_zero, T, FloatTypes) {
  using A = Api<T>;
  const double inf = INFINITY, nan = NAN;
  auto *a = fromValues<T>({3}, {1, -1, 0});
  auto *zeros = fromValues<T>({3}, {0, 0, 0});
  auto *r = A::newEmpty();
  A::div(r, a, T(0));
  expectValues(values(r), {inf, -inf, nan}, 0, "div");
  A::cdiv(r, a, zeros);
  expectValues(values(r), {inf, -inf, nan}, 0, "cdiv");
  A::remainder(r, a, T(0));
  expectValues(values(r), {nan, nan, nan}, 0, "remainder");
  A::cfmod(r, a, zeros);
  expectValues(values(r), {nan, nan, nan}, 0, "cfmod");
  for (auto *t : {a, zeros, r}) A::free(t);
}

BOOST_AUTO_TEST_CASE(integer_wrap_around) {
  const int32_t imin = std::numeric_limits<int32_t>::min();
  const int64_t lmin = std::numeric_limits<int64_t>::min();
  auto *i = fromValues<int32_t>({3}, {(double)imin, 7, -7});
  auto *ir = THIntTensor_new();
  THIntTensor_div(ir, i, -1);  // MIN / -1 traps in hardware
  expectValues(values(ir), {(double)imin, -7, 7}, 0, "Int div by -1");
  THIntTensor_fmod(ir, i, -1);
  expectValues(values(ir), {0, 0, 0}, 0, "Int fmod by -1");
  THIntTensor_remainder(ir, i, -1);
  expectValues(values(ir), {0, 0, 0}, 0, "Int remainder by -1");
  THIntTensor_abs(ir, i);
  expectValues(values(ir), {(double)imin, 7, 7}, 0, "Int abs");
  auto *minus1 = fromValues<int32_t>({3}, {-1, -1, -1});
  THIntTensor_cdiv(ir, i, minus1);
  expectValues(values(ir), {(double)imin, -7, 7}, 0, "Int cdiv by -1");
  THIntTensor_add(ir, i, -1);
  expectValues(values(ir), {(double)std::numeric_limits<int32_t>::max(), 6, -8}, 0, "Int add wraps");

  auto *l = THLongTensor_newWithSize1d(1);
  THLongTensor_fill(l, lmin);
  auto *lr = THLongTensor_new();
  THLongTensor_neg(lr, l);
  BOOST_TEST(lr->storage->data[lr->storageOffset] == lmin);
  THLongTensor_div(lr, l, -1);
  BOOST_TEST(lr->storage->data[lr->storageOffset] == lmin);

  auto *c = fromValues<int8_t>({3}, {100, -100, 16});
  auto *cr = THCharTensor_new();
  THCharTensor_add(cr, c, 100);
  expectValues(values(cr), {-56, 0, 116}, 0, "Char add wraps");
  THCharTensor_pow(cr, c, 2);
  expectValues(values(cr), {16, 16, 0}, 0, "Char pow wraps");  // 10000 = 39 * 256 + 16; 16 * 16 = 256

  THIntTensor_free(i);
  THIntTensor_free(ir);
  THIntTensor_free(minus1);
  THLongTensor_free(l);
  THLongTensor_free(lr);
  THCharTensor_free(c);
  THCharTensor_free(cr);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(integer_division_by_zero_raises, T, IntTypes) {
  using A = Api<T>;
  using Tn = TensorOf<T>;
  const auto x = sample<T>(17);
  auto divisor = nonzero(sample<T>(18));
  divisor[7] = 0;
  const auto withZero = divisor;
  // each call runs in place on t, which must come back as it was
  auto expectRaise = [&](const std::string &name, std::function<void(Tn *, Tn *)> call) {
    auto *t = make<T>(Transposed, x);
    auto *d = make<T>(Narrowed, withZero);
    std::string msg = errorOf([&] { call(t, d); });
    BOOST_TEST(contains(msg, "division by zero"), name << ": " << msg);
    expectValues(values(t), x, 0, name + ": t changed");
    expectValues(values(d), withZero, 0, name + ": divisor changed");
    A::free(t);
    A::free(d);
  };
  expectRaise("div", [](Tn *t, Tn *) { A::div(t, t, 0); });
  expectRaise("fmod", [](Tn *t, Tn *) { A::fmod(t, t, 0); });
  expectRaise("remainder", [](Tn *t, Tn *) { A::remainder(t, t, 0); });
  expectRaise("cdiv", [](Tn *t, Tn *d) { A::cdiv(t, t, d); });
  expectRaise("cfmod", [](Tn *t, Tn *d) { A::cfmod(t, t, d); });
  expectRaise("cremainder", [](Tn *t, Tn *d) { A::cremainder(t, t, d); });
  expectRaise("addcdiv", [](Tn *t, Tn *d) { A::addcdiv(t, t, 2, t, d); });
  expectRaise("cdiv in place on the divisor", [](Tn *, Tn *d) { A::cdiv(d, d, d); });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(integer_negative_powers_raise, T, SignedTypes) {
  if constexpr (std::is_integral_v<T>) {
    using A = Api<T>;
    auto x = sample<T>(19, 0, 5);
    auto *t = fromValues<T>({kN}, x);
    auto exps = sample<T>(20, 0, 3);
    exps[3] = -1;
    auto *e = fromValues<T>({kN}, exps);
    BOOST_TEST(contains(errorOf([&] { A::pow(t, t, -2); }), "negative"));
    BOOST_TEST(contains(errorOf([&] { A::cpow(t, t, e); }), "negative"));
    BOOST_TEST(contains(errorOf([&] { A::tpow(e, 2, e); }), "negative"));
    expectValues(values(t), x, 0, "t unchanged");
    expectValues(values(e), exps, 0, "exponents unchanged");
    A::free(t);
    A::free(e);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(element_count_mismatch_raises, T, IntAndFloat) {
  using A = Api<T>;
  auto *t = fromValues<T>({3, 4}, sample<T>(21));
  auto *shortOne = fromValues<T>({10}, sample<T>(22, -10, 10, 10));
  const auto before = sample<T>(23, -10, 10, 4);
  auto *r = fromValues<T>({2, 2}, before);
  auto *mask = fromValues<uint8_t>({2, 2}, {1, 0, 1, 0});
  const std::string messages[] = {
      errorOf([&] { A::cadd(r, t, 1, shortOne); }),       errorOf([&] { A::csub(r, t, 1, shortOne); }),
      errorOf([&] { A::cmul(r, t, shortOne); }),          errorOf([&] { A::cdiv(r, t, shortOne); }),
      errorOf([&] { A::cpow(r, t, shortOne); }),          errorOf([&] { A::cmax(r, t, shortOne); }),
      errorOf([&] { A::cremainder(r, t, shortOne); }),    errorOf([&] { A::addcmul(r, t, 1, t, shortOne); }),
      errorOf([&] { A::addcdiv(r, t, 1, shortOne, t); }), errorOf([&] { A::ltTensorT(r, t, shortOne); }),
      errorOf([&] { A::eqTensor(mask, t, shortOne); }),
  };
  for (const auto &msg : messages) {
    BOOST_TEST(contains(msg, "[3, 4]"), msg);
    BOOST_TEST(contains(msg, "[10]"), msg);
  }
  BOOST_TEST((r->nDimension == 2 && r->size[0] == 2 && r->size[1] == 2));
  expectValues(values(r), before, 0, "result unchanged");
  expectValues(values(mask), {1, 0, 1, 0}, 0, "mask unchanged");
  A::free(t);
  A::free(shortOne);
  A::free(r);
  THByteTensor_free(mask);
}

BOOST_AUTO_TEST_CASE(empty_and_scalar_tensors) {
  auto *empty = THFloatTensor_new();
  auto *r = THFloatTensor_newWithSize1d(3);
  THFloatTensor_add(r, empty, 1);
  BOOST_TEST(THFloatTensor_nElement(r) == 0);
  THFloatTensor_cmul(r, empty, empty);
  BOOST_TEST(THFloatTensor_nElement(r) == 0);

  auto *s = THFloatTensor_newWithSize0d();
  THFloatTensor_fill(s, 4);
  THFloatTensor_sqrt(r, s);
  BOOST_TEST(r->nDimension == 0);
  BOOST_TEST(THFloatTensor_get0d(r) == 2.f);
  auto *mask = THByteTensor_new();
  THFloatTensor_gtTensor(mask, s, r);
  BOOST_TEST(mask->nDimension == 0);
  BOOST_TEST(THByteTensor_get0d(mask) == 1);
  THFloatTensor_free(empty);
  THFloatTensor_free(r);
  THFloatTensor_free(s);
  THByteTensor_free(mask);
}

// Above TH_OMP_THRESHOLD the loops run on several threads: contiguous (flat loop) and
// transposed (strided loop) operands, and a zero divisor found by the parallel scan.
BOOST_AUTO_TEST_CASE(large_tensors_run_in_parallel) {
  THSetNumThreads(2);
  const int64_t rows = 400, cols = 300, n = rows * cols;
  const auto av = tht::randomValues(n, 24), bv = tht::randomValues(n, 25);
  auto *a = fromValues<float>({rows, cols}, av);
  auto *bBase = fromValues<float>({cols, rows}, bv);
  auto *b = THFloatTensor_newTranspose(bBase, 0, 1);  // b[i][j] = bv[j * rows + i]
  auto bAt = [&](int64_t i, int64_t j) { return (float)bv[j * rows + i]; };
  auto *r = THFloatTensor_new();

  THFloatTensor_cadd(r, a, 2.f, a);
  std::vector<double> want(n);
  for (int64_t k = 0; k < n; k++) want[k] = (float)av[k] + 2.f * (float)av[k];
  expectValues(values(r), want, 0, "cadd, contiguous");

  THFloatTensor_cmul(r, a, b);
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) want[i * cols + j] = (float)av[i * cols + j] * bAt(i, j);
  expectValues(values(r), want, 0, "cmul, transposed");

  THFloatTensor_exp(b, b);  // in place on a transposed view
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) want[i * cols + j] = std::exp((double)bAt(i, j));
  expectValues(values(b), want, 8 * std::numeric_limits<float>::epsilon(), "exp, in place, transposed");

  auto *mask = THByteTensor_new();
  THFloatTensor_ltValue(mask, a, 0.5f);
  for (int64_t k = 0; k < n; k++) want[k] = (float)av[k] < 0.5f;
  expectValues(values(mask), want, 0, "ltValue, contiguous");

  std::vector<double> iv(n), dv(n);
  for (int64_t k = 0; k < n; k++) {
    iv[k] = (double)(k % 1000) - 500;
    dv[k] = (double)(k % 7) + 1;
  }
  auto *i = fromValues<int64_t>({rows, cols}, iv);
  auto *d = fromValues<int64_t>({rows, cols}, dv);
  auto *ir = THLongTensor_new();
  THLongTensor_cremainder(ir, i, d);
  for (int64_t k = 0; k < n; k++) want[k] = pyRemainder(iv[k], dv[k]);
  expectValues(values(ir), want, 0, "Long cremainder");
  THLongTensor_set2d(d, rows - 1, cols - 1, 0);
  BOOST_TEST(contains(errorOf([&] { THLongTensor_cdiv(i, i, d); }), "division by zero"));
  expectValues(values(i), iv, 0, "Long cdiv left its operand unchanged");

  for (auto *t : {a, bBase, b, r}) THFloatTensor_free(t);
  THByteTensor_free(mask);
  for (auto *t : {i, d, ir}) THLongTensor_free(t);
}
