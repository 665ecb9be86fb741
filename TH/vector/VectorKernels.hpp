// The kernels of Note [Vector kernels] (TH/THVector.h), written once for every instruction
// set. Each TH/vector/<set>.cpp defines, before it includes this file:
//   FloatLanes, DoubleLanes   the set's registers: T, V, kWidth, load, store, set1, add,
//                             mul, div, neg, greater (a mask), any(mask), select(mask, a, b), and for sums D (double
//                             lanes), zeroD, addD, sumD, widen (kWidth floats to two D) and loadD (one D of doubles);
//                             FloatLanes also sub, fma(a, b, c) = a * b + c, abs, min, max, round
//                             (to nearest), scale(a, k) = a 2^k (whole k, -190 <= k <= 128, a
//                             near 1, rounded once) and reciprocalEstimate (1 / a to 12 bits or
//                             more, for reciprocal())
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

// 1 / a within 2 ulps, faster than div: the set's estimate and a Newton step, r + r (1 - a r)
template <typename L>
typename L::V reciprocal(typename L::V a) {
  const typename L::V r = L::reciprocalEstimate(a);
  return L::fma(r, L::fma(L::neg(a), r, L::set1(1)), r);
}

// Note [GELU in one pass]: x Phi(x) and its derivative Phi(x) + x phi(x), Phi the standard
// normal CDF and phi its density. In float, SLEEF's erf took 60% of GELU's time, 2-3x
// PyTorch 1.13's (which approximates erf to 1.5e-7 absolute, and whose 1 + erf(x) loses every
// digit of the negative tail); a first kernel of our own (erfc as t exp(-z^2 + P(t)), Numerical
// Recipes' fit) still cost two exponentials and two passes in the backward. Here one
// exponential serves both terms:
//   Phi(-|x|) = t Q(t) exp(-x^2 / 2),   t = 1 / (1 + a |x|),   phi(x) = exp(-x^2 / 2) / sqrt(2 pi)
// Q a degree-8 polynomial fitted (Lawson's iteration to minimax) to Phi(-|x|) exp(x^2 / 2) / t
// on 0 <= |x| <= 15, relative error 2e-8; a = 0.3 / sqrt 2 gave the smallest error. x^2 / 2 =
// hi + lo exactly (an fma), exp(-hi) (1 - lo), so that the exponent's rounding does not grow
// with x^2. x > 0 takes 1 - Phi(-x). Past |x| = 15, Phi(-|x|) is 0 in float. Float results are
// within 8 ulps (the derivative: of |Phi| + |x phi|, since the two cancel near x = -0.75);
// tests/TH/test_vector.cpp. NaN passes (min gives its second operand), as do PyTorch's
// infinities: gelu(inf) = inf, gelu(-inf) and both derivatives NaN.
//
// exp(s) for -120 <= s <= 0 (NonPositiveExp), inline: SLEEF's exp is a call the loop waits
// on. s = k ln 2 + r with whole k and |r| <= ln 2 / 2 (Cody and Waite's two-part ln 2, exact
// products with fma), exp(r) = 1 + r + r^2 c(r), c of degree 4 fitted as Q was (relative
// error 3e-9), then scale(m, k) = m 2^k, left to the caller so that a subnormal result
// rounds once.
template <typename L>
struct NonPositiveExp {
  typename L::V m, k;
  explicit NonPositiveExp(typename L::V s) {
    using V = typename L::V;
    k = L::round(L::mul(s, L::set1(1.44269504f)));
    V r = L::fma(k, L::set1(-0.693145751953125f), s);
    r = L::fma(k, L::set1(-1.428606765330187e-06f), r);
    m = L::fma(L::set1(0.00138145988f), r, L::set1(0.00836871658f));
    m = L::fma(m, r, L::set1(0.041668389f));
    m = L::fma(m, r, L::set1(0.166665211f));
    m = L::fma(m, r, L::set1(0.49999994f));
    m = L::fma(m, r, L::set1(1));
    m = L::fma(m, r, L::set1(1));
  }
};

// Phi(-|x|) = t Q(t) exp(-x^2 / 2), kept as tq and the exponential's parts, the factor 1 - lo
// folded into its mantissa: a result below the normal range (Phi and the derivative near
// x = -14) is then rounded once, by times()
template <typename L>
struct NormalTailFloat {
  typename L::V ax, tq;  // |x| clamped to 15, past which the tail is 0 in float
  NonPositiveExp<L> gauss;
  NormalTailFloat(typename L::V clampedAx, typename L::V hi, typename L::V lo)
      : ax(clampedAx), tq(q(clampedAx)), gauss(L::neg(hi)) {
    gauss.m = L::fma(gauss.m, L::neg(lo), gauss.m);
  }
  static NormalTailFloat of(typename L::V x) {
    using V = typename L::V;
    const V ax = L::min(L::set1(15), L::abs(x));
    const V h = L::mul(ax, L::set1(0.5f));
    const V hi = L::mul(h, ax);  // x^2 / 2 = hi + lo
    return NormalTailFloat(ax, hi, L::fma(h, ax, L::neg(hi)));
  }
  static typename L::V q(typename L::V ax) {  // t Q(t)
    using V = typename L::V;
    // Q's coefficients, of t^0 to t^8 (Horner's rule: the loop's registers overlap its latency)
    static constexpr float kQ[] = {0.0845937058f, 0.085361883f, 0.0741432533f, 0.107553236f,  -0.0475134254f,
                                   0.274104744f,  -0.2563335f,  0.242867976f,  -0.0647779033f};
    const V t = reciprocal<L>(L::fma(ax, L::set1(0.212132037f), L::set1(1)));
    V p = L::set1(kQ[8]);
    for (int k = 7; k >= 0; k--) p = L::fma(p, t, L::set1(kQ[k]));
    return L::mul(t, p);
  }
  typename L::V times(typename L::V v) const { return L::scale(L::mul(v, gauss.m), gauss.k); }  // v exp(-x^2 / 2)
};

// x 0: a zero for finite x, NaN at the infinities, where PyTorch's formula gives inf 0 (the
// clamped tail would give a number)
template <typename L>
typename L::V atInfinity(typename L::V x) {
  return L::mul(x, L::set1(0));
}

template <typename L>
struct GeluFloat {
  static typename L::V apply(typename L::V x) {
    const auto tail = NormalTailFloat<L>::of(x);
    // x < 0: x Phi(x), x clamped as the tail's |x| (past it the result is 0); x > 0: x (1 - Phi(-x))
    const auto positive = L::greater(x, L::set1(0));
    const typename L::V product = tail.times(L::select(positive, tail.tq, L::neg(L::mul(tail.ax, tail.tq))));
    return L::select(positive, L::mul(x, L::sub(L::set1(1), product)), L::add(product, atInfinity<L>(x)));
  }
};

template <typename L>
struct GeluDerivativeFloat {
  static typename L::V apply(typename L::V x) {
    const auto tail = NormalTailFloat<L>::of(x);
    const typename L::V xDensity = L::mul(tail.ax, L::set1(0.398942280f));  // |x| phi(x) / exp(-x^2 / 2)
    // x < 0: (t Q - |x| / sqrt(2 pi)) exp(..); x > 0: 1 + (|x| / sqrt(2 pi) - t Q) exp(..)
    const auto positive = L::greater(x, L::set1(0));
    const typename L::V sum =
        L::add(tail.times(L::select(positive, L::sub(xDensity, tail.tq), L::sub(tail.tq, xDensity))), atInfinity<L>(x));
    return L::select(positive, L::add(L::set1(1), sum), sum);
  }
};

// In double, SLEEF's erfc (within 1.5 ulps) and exp: Phi(x) = erfc(-x / sqrt 2) / 2
template <typename L, typename Erfc>
typename L::V normalCdfDouble(typename L::V x) {
  return L::mul(L::set1(0.5), Erfc::apply(L::mul(x, L::set1(-0.70710678118654752440))));
}
template <typename L, typename Erfc>
struct GeluDouble {
  static typename L::V apply(typename L::V x) { return L::mul(x, normalCdfDouble<L, Erfc>(x)); }
};
template <typename L, typename Erfc, typename Exp>
struct GeluDerivativeDouble {
  static typename L::V apply(typename L::V x) {
    const typename L::V density =
        L::mul(L::set1(0.39894228040143267794), Exp::apply(L::mul(L::set1(-0.5), L::mul(x, x))));
    return L::add(normalCdfDouble<L, Erfc>(x), L::mul(x, density));
  }
};

// Note [A fast expm1]: SLEEF's float expm1 cost four times its exp, and ELU, SELU and CELU
// spent their forward in it (1.5x PyTorch 1.13's, which uses exp(x) - 1 and loses the digits
// of small results). Here, for x in [-18, 89] (past them, -1 and infinity): x = k ln 2 + r as
// in NonPositiveExp, expm1(r) = r + r^2 c(r) with c of degree 5 fitted to relative error 1e-8,
// then expm1(x) = 2^k (expm1(r) + 1 - 2^-k): 1 - 2^-k is exact for |k| <= 24, rounds to 1 above
// (where the - 1 no longer shows), and only below k = -24 (x < -16.6, results within an ulp of
// -1) does the sum lose expm1(r). |x| under 2^-26 returns x (keeping -0). Within an ulp of
// libm's expm1f on the test's inputs, which allow two (tests/TH/test_vector.cpp).
template <typename L>
struct FastExpm1 {
  static typename L::V apply(typename L::V x) {
    using V = typename L::V;
    const V clamped = L::min(L::set1(89), L::max(L::set1(-18), x));  // NaN passes both
    const V k = L::round(L::mul(clamped, L::set1(1.44269504f)));
    V r = L::fma(k, L::set1(-0.693145751953125f), clamped);
    r = L::fma(k, L::set1(-1.428606765330187e-06f), r);
    V c = L::fma(L::set1(0.000198578316f), r, L::set1(0.0013933687f));
    c = L::fma(c, r, L::set1(0.00833336078f));
    c = L::fma(c, r, L::set1(0.041666463f));
    c = L::fma(c, r, L::set1(0.166666672f));
    c = L::fma(c, r, L::set1(0.5f));
    const V expm1R = L::fma(L::mul(r, r), c, r);
    const V oneLess = L::sub(L::set1(1), L::scale(L::set1(1), L::neg(k)));  // 1 - 2^-k
    const V y = L::scale(L::add(expm1R, oneLess), k);
    return L::select(L::greater(L::abs(x), L::set1(0x1p-26f)), y, x);
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
  k.floatUnary[int(Unary::Expm1)] = unaryLoop<FloatLanes, FastExpm1<FloatLanes>>;
  k.doubleUnary[int(Unary::Sigmoid)] = unaryLoop<DoubleLanes, Sigmoid<DoubleLanes, ExpDouble>>;
  k.floatGelu = unaryLoop<FloatLanes, GeluFloat<FloatLanes>>;
  k.doubleGelu = unaryLoop<DoubleLanes, GeluDouble<DoubleLanes, ErfcDouble>>;
  k.floatGeluDerivative = unaryLoop<FloatLanes, GeluDerivativeFloat<FloatLanes>>;
  k.doubleGeluDerivative = unaryLoop<DoubleLanes, GeluDerivativeDouble<DoubleLanes, ErfcDouble, ExpDouble>>;
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
