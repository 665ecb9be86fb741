// Note [Special functions from Boost.Math] in core/ops/Special.h.
#include "core/ops/Special.h"

#include <boost/math/special_functions/airy.hpp>
#include <boost/math/special_functions/bessel.hpp>
#include <cmath>
#include <limits>
#include <string>

namespace torch {
namespace {

// Boost's errors become IEEE values (NaN outside the domain, infinities at poles and on
// overflow), as in PyTorch's kernels, instead of exceptions.
using namespace boost::math::policies;
using Quiet = policy<domain_error<ignore_error>, pole_error<ignore_error>, overflow_error<ignore_error>,
                     underflow_error<ignore_error>, evaluation_error<ignore_error>, rounding_error<ignore_error>>;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// exp(x) K_order(x) for x so large that K underflows: the asymptotic series
// sqrt(pi / 2x) sum_k a_k(order) / x^k, a_k = a_(k-1) (4 order^2 - (2k - 1)^2) / (8k), which at
// x >= kScaledSeriesFrom has converged to a double's precision long before it diverges.
constexpr double kScaledSeriesFrom = 600.0;
double scaledKAsymptotic(int order, double x) {
  const double mu = 4.0 * order * order;
  double term = 1, sum = 1;
  for (int k = 1; k < 30; k++) {
    term *= (mu - (2.0 * k - 1) * (2.0 * k - 1)) / (8.0 * k * x);
    sum += term;
  }
  return std::sqrt(M_PI / (2 * x)) * sum;
}

// Ai(x) for |x| < kAirySeriesBelow by its Maclaurin series Ai(0) f(x) + Ai'(0) g(x), with
// f = sum x^3k / ((2 3)(5 6) ... ((3k - 1) 3k)) and g = sum x^(3k + 1) / ((3 4)(6 7) ... (3k (3k + 1))):
// there its terms grow no larger than e^2 times the result, and Boost's form through Bessel
// functions of order 1/3 loses Ai's slope near 0.
constexpr double kAirySeriesBelow = 2.09;
double airySeries(double x) {
  const double ai0 = 1 / (std::cbrt(9.0) * std::tgamma(2.0 / 3)), slope0 = -1 / (std::cbrt(3.0) * std::tgamma(1.0 / 3));
  const double cube = x * x * x;
  double f = 1, g = x, fTerm = 1, gTerm = x;
  for (int k = 1; k < 40; k++) {
    fTerm *= cube / ((3.0 * k - 1) * (3.0 * k));
    gTerm *= cube / ((3.0 * k) * (3.0 * k + 1));
    f += fTerm;
    g += gTerm;
  }
  return ai0 * f + slope0 * g;
}

// The functions with PyTorch 1.13's values at the edges: the Bessel functions of the first and
// second kinds are NaN at the infinities (its asymptotic forms take their cosine), those of
// the second kind -inf at 0 and NaN below; K is +inf at 0 and NaN below.
double secondKindEdges(double x, bool &done) {
  done = true;
  if (x == 0) return -kInf;
  if (x < 0 || std::isinf(x)) return kNaN;
  done = false;
  return 0;
}

double modifiedEdges(double x, bool &done) {
  done = true;
  if (x == 0) return kInf;
  if (x < 0) return kNaN;
  if (std::isinf(x)) return 0;
  done = false;
  return 0;
}

double evaluate(SpecialFunction f, double x) {
  if (std::isnan(x)) return x;
  bool done = false;
  double edge = 0;
  switch (f) {
    case SpecialFunction::BesselJ0: return std::isinf(x) ? kNaN : boost::math::cyl_bessel_j(0, std::fabs(x), Quiet());
    case SpecialFunction::BesselJ1: {
      if (std::isinf(x)) return kNaN;
      double value = boost::math::cyl_bessel_j(1, std::fabs(x), Quiet());
      return x < 0 ? -value : value;  // J1 is odd
    }
    case SpecialFunction::BesselY0:
      edge = secondKindEdges(x, done);
      return done ? edge : boost::math::cyl_neumann(0, x, Quiet());
    case SpecialFunction::BesselY1:
      edge = secondKindEdges(x, done);
      return done ? edge : boost::math::cyl_neumann(1, x, Quiet());
    case SpecialFunction::ModifiedBesselK0:
      edge = modifiedEdges(x, done);
      return done ? edge : boost::math::cyl_bessel_k(0, x, Quiet());
    case SpecialFunction::ModifiedBesselK1:
      edge = modifiedEdges(x, done);
      return done ? edge : boost::math::cyl_bessel_k(1, x, Quiet());
    case SpecialFunction::ScaledModifiedBesselK0:
      edge = modifiedEdges(x, done);
      if (done) return edge;
      return x < kScaledSeriesFrom ? std::exp(x) * boost::math::cyl_bessel_k(0, x, Quiet()) : scaledKAsymptotic(0, x);
    case SpecialFunction::ScaledModifiedBesselK1:
      edge = modifiedEdges(x, done);
      if (done) return edge;
      return x < kScaledSeriesFrom ? std::exp(x) * boost::math::cyl_bessel_k(1, x, Quiet()) : scaledKAsymptotic(1, x);
    case SpecialFunction::AiryAi:
      // PyTorch 1.13: NaN at both infinities; Ai underflows to 0 beyond 103.892
      if (std::isinf(x)) return kNaN;
      if (x > 103.892) return 0.0;
      return std::fabs(x) < kAirySeriesBelow ? airySeries(x) : boost::math::airy_ai(x, Quiet());
  }
  return kNaN;
}

template <typename T>
void fill(SpecialFunction f, const Tensor &r, const Tensor &x) {
  const T *in = reinterpret_cast<const T *>(x.dataPtr());
  T *out = reinterpret_cast<T *>(r.dataPtr());
  const int64_t n = x.numel();
  for (int64_t i = 0; i < n; i++) out[i] = static_cast<T>(evaluate(f, static_cast<double>(in[i])));
}

}  // namespace

const char *specialFunctionName(SpecialFunction f) {
  switch (f) {
#define TORCH_SPECIAL_NAME(Name, name) \
  case SpecialFunction::Name: return name;
    TORCH_FORALL_SPECIAL_FUNCTIONS(TORCH_SPECIAL_NAME)
#undef TORCH_SPECIAL_NAME
  }
  return "?";
}

SpecialFunction specialFunctionNamed(const std::string &name) {
#define TORCH_SPECIAL_LOOKUP(Name, fname) \
  if (name == fname) return SpecialFunction::Name;
  TORCH_FORALL_SPECIAL_FUNCTIONS(TORCH_SPECIAL_LOOKUP)
#undef TORCH_SPECIAL_LOOKUP
  fail(th::ErrorKind::Value, "unknown special function '%s'", name.c_str());
}

Tensor specialFunction(SpecialFunction f, const Tensor &x) {
  const char *name = specialFunctionName(f);
  // the host computes for every device (a device's copy there and back)
  Tensor host = contiguous(to(x, x.dtype(), Device::CPU));
  Tensor r = emptyLike(host, x.dtype());
  dispatchFloating(x.dtype(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill<T>(f, r, host);
  });
  return x.device() == Device::CPU ? r : to(r, x.dtype(), x.device());
}

}  // namespace torch
