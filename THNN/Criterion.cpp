// Element-wise criterions (no indices): the kernels are in generic/Criterion.cpp,
// compiled for Float and Double.
#include "THNN/Criterion.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "TH/THTensorMath.h"
#include "THNN/generic/CriterionHelpers.h"

namespace thnn::criterion {

// sum over i of f(a_i, b_i, ...) in double, elements paired in row-major order, over
// contiguous copies (the tensors themselves when contiguous), threaded when large.
template <typename F, typename... TensorT>
double sumOf(F f, TensorT *...ts) {
  auto owned = std::make_tuple(th::own(th::TH<Elem<TensorT>>::newContiguous(ts))...);
  const int64_t n = count(std::get<0>(owned).get());
  const auto data = std::apply([](auto &...o) { return std::make_tuple(th::ref(o.get()).data...); }, owned);
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) if (n > TH_OMP_THRESHOLD)
  for (int64_t i = 0; i < n; i++) sum += std::apply([&](auto *...p) { return (double)f(p[i]...); }, data);
  return sum;
}

// Per-element losses l(x, y) and derivatives d l / d x of the element-wise criterions.
// Lambdas, so that each driver instantiation inlines its formula.
inline constexpr auto absLoss = [](double x, double y) { return std::fabs(x - y); };
inline constexpr auto absGrad = [](double x, double y) { return x - y >= 0 ? 1.0 : -1.0; };

// torch7 adds eps inside both logarithms: x = 0 or 1 gives a large finite loss.
constexpr double kBCEEps = 1e-12;
inline constexpr auto bceLoss = [](double x, double y) {
  return -(y * std::log(x + kBCEEps) + (1 - y) * std::log(1 - x + kBCEEps));
};
// torch7's form of the derivative.
inline constexpr auto bceGrad = [](double x, double y) { return (x - y) / ((x + kBCEEps) * (1 - x + kBCEEps)); };

inline constexpr auto klLoss = [](double x, double y) { return y > 0 ? y * (std::log(y) - x) : 0.0; };
inline constexpr auto klGrad = [](double, double y) { return y > 0 ? -y : 0.0; };

inline constexpr auto mseLoss = [](double x, double y) { return (x - y) * (x - y); };
inline constexpr auto mseGrad = [](double x, double y) { return 2 * (x - y); };

inline constexpr auto smoothL1Loss = [](double x, double y) {
  const double z = std::fabs(x - y);
  return z < 1 ? 0.5 * z * z : z - 0.5;
};
inline constexpr auto smoothL1Grad = [](double x, double y) { return std::min(1.0, std::max(-1.0, x - y)); };

// log(1 + exp(z)) for z = -x y, in a form where neither branch overflows.
inline constexpr auto softMarginLoss = [](double x, double y) {
  const double z = -x * y;
  return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
};
inline constexpr auto softMarginGrad = [](double x, double y) { return -y / (1 + std::exp(x * y)); };

}  // namespace thnn::criterion

namespace criterion = thnn::criterion;

#define TH_GENERIC_FILE "THNN/generic/Criterion.cpp"
#include "TH/THGenerateFloatTypes.h"
