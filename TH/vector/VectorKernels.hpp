// The kernels of Note [Vector kernels] (TH/THVector.h), written once for every instruction
// set. Each TH/vector/<set>.cpp defines, before it includes this file:
//   FloatLanes, DoubleLanes   the set's registers: T, V, kWidth, load, store, set1, add,
//                             mul, div, neg, greater (a mask), any(mask), select(mask, a, b), and for sums D (double
//                             lanes), zeroD, addD, sumD, widen (kWidth floats to two D) and loadD (one D of doubles);
//                             FloatLanes also sub, fma(a, b, c) = a * b + c, abs, min, round (to
//                             nearest), pow2 (2^k for whole k, -126 <= k <= 127) and reciprocal
//                             (1 / a within 2 ulps, faster than div)
//   TH_VECTOR_FLOAT(name, ulp), TH_VECTOR_DOUBLE(name, ulp)   SLEEF's function for the set
// Everything here is in an unnamed namespace: each set's copy stays its own.
#ifndef TH_VECTOR_KERNELS_HPP
#define TH_VECTOR_KERNELS_HPP

#include <algorithm>

#include "TH/THVector.h"

namespace th::vec {
namespace {

// out[i] = Op::apply(in[i]): whole registers, then the tail through a zero-padded register,
// so every element goes through the same instructions wherever it lies.
template <typename L, typename Op>
void unaryLoop(typename L::T *out, const typename L::T *in, int64_t n) {
  int64_t i = 0;
  // two registers a step: their dependency chains (a polynomial, a call into SLEEF) overlap
  for (; i + 2 * L::kWidth <= n; i += 2 * L::kWidth) {
    const typename L::V a = Op::apply(L::load(in + i)), b = Op::apply(L::load(in + i + L::kWidth));
    L::store(out + i, a);
    L::store(out + i + L::kWidth, b);
  }
  for (; i + L::kWidth <= n; i += L::kWidth) L::store(out + i, Op::apply(L::load(in + i)));
  if (i < n) {
    typename L::T buffer[L::kWidth] = {};
    for (int64_t j = i; j < n; j++) buffer[j - i] = in[j];
    L::store(buffer, Op::apply(L::load(buffer)));
    for (int64_t j = i; j < n; j++) out[j] = buffer[j - i];
  }
}

#define TH_VECTOR_FUNCTORS(Op, sleefName, ulp)                                                    \
  struct Op##Float {                                                                              \
    static FloatLanes::V apply(FloatLanes::V x) { return TH_VECTOR_FLOAT(sleefName, ulp)(x); }    \
  };                                                                                              \
  struct Op##Double {                                                                             \
    static DoubleLanes::V apply(DoubleLanes::V x) { return TH_VECTOR_DOUBLE(sleefName, ulp)(x); } \
  };
TH_FORALL_VECTOR_UNARY_OPS(TH_VECTOR_FUNCTORS)
#undef TH_VECTOR_FUNCTORS

// SLEEF's log1p overflows to infinity for x near the type's largest values, where
// log1p(x) is log(x) to the last bit (above 2^60 for double, 2^30 for float).
template <typename L, typename Log1p, typename Log>
struct LargeSafeLog1p {
  static typename L::V apply(typename L::V x) {
    const typename L::T large = sizeof(typename L::T) == 4 ? 0x1p30f : 0x1p60;
    const auto isLarge = L::greater(x, L::set1(large));
    const typename L::V y = Log1p::apply(x);
    return L::any(isLarge) ? L::select(isLarge, Log::apply(x), y) : y;  // log only where needed
  }
};

// 1 / (1 + exp(-x)), the op table's expression, on the vector exp
template <typename L, typename Exp>
struct Sigmoid {
  static typename L::V apply(typename L::V x) {
    const typename L::V one = L::set1(1);
    return L::div(one, L::add(one, Exp::apply(L::neg(x))));
  }
};

// Note [A fast normal CDF]: Phi(x) = erfc(-x / sqrt 2) / 2, GELU's factor. In float, SLEEF's
// erf took 60% of GELU's time, which ran 2-3x slower than PyTorch 1.13's (that approximates erf
// to 1.5e-7 absolute, and 1 + erf(x) loses every digit in GELU's negative tail). Here, with
// z = |x| / sqrt 2 and t = 2 / (2 + z), erfc(z) = t exp(-z^2 + P(t)), P the Chebyshev fit of
// Numerical Recipes (2nd ed., 6.2; relative error under 1.2e-7 for every z >= 0). The exponent
// is kept in two floats: x^2 / 2 split exactly by an fma, then a two-sum with P, so that its
// rounding does not grow with z^2 (a plain float sum was 69 ulps off at z = 9). x > 0 takes
// 1 - erfc(z) / 2. Within 8 ulps of the exact value everywhere (tests/TH/test_vector.cpp).
// exp(s) for -120 <= s <= 0, inline: SLEEF's exp is a call the loop waits on, and NormalCdf's
// spent as long in it as in all its own arithmetic. s = k ln 2 + r with whole k and |r| <=
// ln 2 / 2 (Cody and Waite's two-part ln 2, exact products with fma), exp(r) by Taylor's
// series to r^7 (truncation under 0.1 ulp), then 2^k as 2^(k + 64) 2^-64 so that results
// below the normal range round once, in the last multiply.
template <typename L>
typename L::V expNonPositive(typename L::V s) {
  using V = typename L::V;
  const V k = L::round(L::mul(s, L::set1(1.44269504f)));
  V r = L::fma(k, L::set1(-0.693145751953125f), s);
  r = L::fma(k, L::set1(-1.428606765330187e-06f), r);
  const V r2 = L::mul(r, r), r4 = L::mul(r2, r2);
  const V c01 = L::add(L::set1(1), r), c23 = L::fma(L::set1(1.0f / 6), r, L::set1(0.5f));
  const V c45 = L::fma(L::set1(1.0f / 120), r, L::set1(1.0f / 24));
  const V c67 = L::fma(L::set1(1.0f / 5040), r, L::set1(1.0f / 720));
  const V expR = L::fma(L::fma(c67, r2, c45), r4, L::fma(c23, r2, c01));
  return L::mul(L::mul(expR, L::pow2(L::add(k, L::set1(64)))), L::set1(0x1p-64f));
}

template <typename L>
struct NormalCdfFloat {
  static typename L::V apply(typename L::V x) {
    using V = typename L::V;
    // P's coefficients, of t^0 to t^9
    static constexpr float kP[] = {-1.26551223f, 1.00002368f,  0.37409196f, 0.09678418f,  -0.18628806f,
                                   0.27886807f,  -1.13520398f, 1.48851587f, -0.82215223f, 0.17087277f};
    const V one = L::set1(1), half = L::set1(0.5f), two = L::set1(2);
    // past |x| = 15 erfc is 0 in float (NaN passes: min gives its second operand)
    const V ax = L::min(L::set1(15), L::abs(x));
    const V t = L::mul(two, L::reciprocal(L::add(two, L::mul(ax, L::set1(0.70710678f)))));
    // Estrin's scheme: four multiplies deep, where Horner's nine made the loop wait on latency
    V pairs[5];
    for (int k = 0; k < 5; k++) pairs[k] = L::fma(L::set1(kP[2 * k + 1]), t, L::set1(kP[2 * k]));
    const V t2 = L::mul(t, t), t4 = L::mul(t2, t2), t8 = L::mul(t4, t4);
    const V low = L::fma(L::fma(pairs[3], t2, pairs[2]), t4, L::fma(pairs[1], t2, pairs[0]));
    const V p = L::fma(pairs[4], t8, low);
    const V square = L::mul(ax, ax);
    const V hi = L::mul(half, square), lo = L::mul(half, L::fma(ax, ax, L::neg(square)));  // z^2 = hi + lo
    // a - hi = s + error: Fast2Sum, exact where |a| <= hi (|x| >= 1.6); below, the exponent is
    // under 3 and the plain sum's rounding is already within the fit's error
    const V a = L::sub(p, lo), s = L::sub(a, hi);
    const V error = L::sub(a, L::add(s, hi));
    const V e = expNonPositive<L>(s);                // s >= -113 - 1.27
    const V erfcZ = L::mul(t, L::fma(e, error, e));  // t exp(s) (1 + error)
    const V halfErfc = L::mul(half, erfcZ);
    return L::select(L::greater(x, L::set1(0)), L::sub(one, halfErfc), halfErfc);
  }
};

// The normal density exp(-x^2 / 2) / sqrt(2 pi), GELU's derivative's other term: x^2 / 2 =
// hi + lo split as above, exp(-hi) (1 - lo).
template <typename L>
struct NormalPdfFloat {
  static typename L::V apply(typename L::V x) {
    using V = typename L::V;
    const V half = L::set1(0.5f);
    const V ax = L::min(L::set1(15), L::abs(x));  // past 15 the density is 0 in float
    const V square = L::mul(ax, ax);
    const V hi = L::mul(half, square), lo = L::mul(half, L::fma(ax, ax, L::neg(square)));
    const V e = expNonPositive<L>(L::neg(hi));
    return L::mul(L::fma(e, L::neg(lo), e), L::set1(0.39894228f));
  }
};
template <typename L, typename Exp>
struct NormalPdfDouble {
  static typename L::V apply(typename L::V x) {
    return L::mul(L::set1(0.39894228040143267794), Exp::apply(L::mul(L::set1(-0.5), L::mul(x, x))));
  }
};

// In double, SLEEF's erfc (within 1.5 ulps): erfc(-x / sqrt 2) / 2
template <typename L, typename Erfc>
struct NormalCdfDouble {
  static typename L::V apply(typename L::V x) {
    return L::mul(L::set1(0.5), Erfc::apply(L::mul(x, L::set1(-0.70710678118654752440))));
  }
};

// The arithmetic of Binary and WithValue (TH/THVector.h) on whole registers, then the tail
// through zero-padded registers as unaryLoop does.
struct AddScaledOp {
  template <typename L>
  static typename L::V apply(typename L::V a, typename L::V b, typename L::V alpha) {
    return L::add(a, L::mul(alpha, b));
  }
};
struct MulOp {
  template <typename L>
  static typename L::V apply(typename L::V a, typename L::V b, typename L::V) {
    return L::mul(a, b);
  }
};
struct DivOp {
  template <typename L>
  static typename L::V apply(typename L::V a, typename L::V b, typename L::V) {
    return L::div(a, b);
  }
};

template <typename L, typename Op>
void binaryLoop(typename L::T *r, const typename L::T *a, const typename L::T *b, typename L::T alpha, int64_t n) {
  const typename L::V alphas = L::set1(alpha);
  int64_t i = 0;
  for (; i + L::kWidth <= n; i += L::kWidth)
    L::store(r + i, Op::template apply<L>(L::load(a + i), L::load(b + i), alphas));
  if (i < n) {
    typename L::T x[L::kWidth] = {}, y[L::kWidth] = {};
    for (int64_t j = i; j < n; j++) {
      x[j - i] = a[j];
      y[j - i] = b[j];
    }
    L::store(x, Op::template apply<L>(L::load(x), L::load(y), alphas));
    for (int64_t j = i; j < n; j++) r[j] = x[j - i];
  }
}

// a op value: the binary loop's arithmetic with b a register of the value
template <typename L, typename Op>
void valueLoop(typename L::T *r, const typename L::T *a, typename L::T value, int64_t n) {
  const typename L::V values = L::set1(value), unused = L::set1(0);
  int64_t i = 0;
  for (; i + L::kWidth <= n; i += L::kWidth) L::store(r + i, Op::template apply<L>(L::load(a + i), values, unused));
  if (i < n) {
    typename L::T x[L::kWidth] = {};
    for (int64_t j = i; j < n; j++) x[j - i] = a[j];
    L::store(x, Op::template apply<L>(L::load(x), values, unused));
    for (int64_t j = i; j < n; j++) r[j] = x[j - i];
  }
}

// a + value is AddScaled's a + 1 * value: the same add
struct AddValueOp {
  template <typename L>
  static typename L::V apply(typename L::V a, typename L::V value, typename L::V) {
    return L::add(a, value);
  }
};

// Floats go four at a time into float lanes (four registers, so consecutive additions do not
// wait on each other), and the lanes into double: one float-to-double conversion per four
// loads rather than two per load, which made the loop twice as slow as PyTorch's on data in
// cache. Each float lane rounds at most three additions of four elements, so the error stays
// within 4 * 2^-24 of the magnitudes' sum (tests/TH/test_vector.cpp) while PyTorch's float
// cascade drifts with log n.
template <typename L>
double sumFloat(const float *x, int64_t n) {
  constexpr int64_t kBlock = 16 * L::kWidth;  // four loads per float lane
  typename L::D total0 = L::zeroD(), total1 = L::zeroD();
  int64_t i = 0;
  while (i + 4 * L::kWidth <= n) {
    const int64_t end = i + std::min<int64_t>(kBlock, (n - i) / (4 * L::kWidth) * (4 * L::kWidth));
    typename L::V acc0 = L::set1(0), acc1 = L::set1(0), acc2 = L::set1(0), acc3 = L::set1(0);
    for (; i < end; i += 4 * L::kWidth) {
      acc0 = L::add(acc0, L::load(x + i));
      acc1 = L::add(acc1, L::load(x + i + L::kWidth));
      acc2 = L::add(acc2, L::load(x + i + 2 * L::kWidth));
      acc3 = L::add(acc3, L::load(x + i + 3 * L::kWidth));
    }
    alignas(64) float lanes[4 * L::kWidth];
    L::store(lanes, acc0);
    L::store(lanes + L::kWidth, acc1);
    L::store(lanes + 2 * L::kWidth, acc2);
    L::store(lanes + 3 * L::kWidth, acc3);
    for (int64_t k = 0; k < 4 * L::kWidth; k += L::kWidth) {
      typename L::D low, high;
      L::widen(lanes + k, low, high);
      total0 = L::addD(total0, low);
      total1 = L::addD(total1, high);
    }
  }
  double total = L::sumD(L::addD(total0, total1));
  for (; i < n; i++) total += x[i];
  return total;
}

template <typename L>
double sumDouble(const double *x, int64_t n) {
  constexpr int64_t w = L::kWidth;
  typename L::V acc0 = L::set1(0), acc1 = L::set1(0), acc2 = L::set1(0), acc3 = L::set1(0);
  int64_t i = 0;
  for (; i + 4 * w <= n; i += 4 * w) {
    acc0 = L::add(acc0, L::load(x + i));
    acc1 = L::add(acc1, L::load(x + i + w));
    acc2 = L::add(acc2, L::load(x + i + 2 * w));
    acc3 = L::add(acc3, L::load(x + i + 3 * w));
  }
  double total = L::sumD(L::add(L::add(acc0, acc1), L::add(acc2, acc3)));
  for (; i < n; i++) total += x[i];
  return total;
}

Kernels makeKernels(const char *setName) {
  Kernels k{};
  k.name = setName;
#define TH_VECTOR_ENTRY(Op, sleefName, ulp)                        \
  k.floatUnary[int(Unary::Op)] = unaryLoop<FloatLanes, Op##Float>; \
  k.doubleUnary[int(Unary::Op)] = unaryLoop<DoubleLanes, Op##Double>;
  TH_FORALL_VECTOR_UNARY_OPS(TH_VECTOR_ENTRY)
#undef TH_VECTOR_ENTRY
  k.floatUnary[int(Unary::Log1p)] = unaryLoop<FloatLanes, LargeSafeLog1p<FloatLanes, Log1pFloat, LogFloat>>;
  k.doubleUnary[int(Unary::Log1p)] = unaryLoop<DoubleLanes, LargeSafeLog1p<DoubleLanes, Log1pDouble, LogDouble>>;
  k.floatUnary[int(Unary::Sigmoid)] = unaryLoop<FloatLanes, Sigmoid<FloatLanes, ExpFloat>>;
  k.doubleUnary[int(Unary::Sigmoid)] = unaryLoop<DoubleLanes, Sigmoid<DoubleLanes, ExpDouble>>;
  k.floatNormalCdf = unaryLoop<FloatLanes, NormalCdfFloat<FloatLanes>>;
  k.doubleNormalCdf = unaryLoop<DoubleLanes, NormalCdfDouble<DoubleLanes, ErfcDouble>>;
  k.floatNormalPdf = unaryLoop<FloatLanes, NormalPdfFloat<FloatLanes>>;
  k.doubleNormalPdf = unaryLoop<DoubleLanes, NormalPdfDouble<DoubleLanes, ExpDouble>>;
  k.floatBinary[int(Binary::AddScaled)] = binaryLoop<FloatLanes, AddScaledOp>;
  k.floatBinary[int(Binary::Mul)] = binaryLoop<FloatLanes, MulOp>;
  k.floatBinary[int(Binary::Div)] = binaryLoop<FloatLanes, DivOp>;
  k.doubleBinary[int(Binary::AddScaled)] = binaryLoop<DoubleLanes, AddScaledOp>;
  k.doubleBinary[int(Binary::Mul)] = binaryLoop<DoubleLanes, MulOp>;
  k.doubleBinary[int(Binary::Div)] = binaryLoop<DoubleLanes, DivOp>;
  k.floatWithValue[int(WithValue::Add)] = valueLoop<FloatLanes, AddValueOp>;
  k.floatWithValue[int(WithValue::Mul)] = valueLoop<FloatLanes, MulOp>;
  k.floatWithValue[int(WithValue::Div)] = valueLoop<FloatLanes, DivOp>;
  k.doubleWithValue[int(WithValue::Add)] = valueLoop<DoubleLanes, AddValueOp>;
  k.doubleWithValue[int(WithValue::Mul)] = valueLoop<DoubleLanes, MulOp>;
  k.doubleWithValue[int(WithValue::Div)] = valueLoop<DoubleLanes, DivOp>;
  k.sumFloat = sumFloat<FloatLanes>;
  k.sumDouble = sumDouble<DoubleLanes>;
  return k;
}

}  // namespace
}  // namespace th::vec

#endif
