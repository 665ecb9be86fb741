// The element-wise criterions' formulas, one functor each, shared by THNN's kernels and
// THCUNN's (nvcc compiles them for the device too): loss(x, y) is the loss of input x against
// target y, grad(x, y) its derivative d loss / d x. T is the type computed in: double on the
// CPU (THNN sums every type in double), accreal on the GPU (double, float for Half).
#ifndef THNN_CRITERION_FUNCTIONS_HPP
#define THNN_CRITERION_FUNCTIONS_HPP

#include <cmath>

#include "TH/THScalarMath.hpp"  // TH_HOST_DEVICE

namespace thnn::criterion {

template <typename T>
struct AbsLoss {
  TH_HOST_DEVICE T loss(T x, T y) const { return std::fabs(x - y); }
  TH_HOST_DEVICE T grad(T x, T y) const { return x - y >= 0 ? T(1) : T(-1); }
};

// torch7 adds eps inside both logarithms: x = 0 or 1 gives a large finite loss; the
// derivative is torch7's form.
template <typename T>
struct BCELoss {
  static constexpr double kEps = 1e-12;
  TH_HOST_DEVICE T loss(T x, T y) const { return -(y * std::log(x + T(kEps)) + (1 - y) * std::log(1 - x + T(kEps))); }
  TH_HOST_DEVICE T grad(T x, T y) const { return (x - y) / ((x + T(kEps)) * (1 - x + T(kEps))); }
};

template <typename T>
struct DistKLDivLoss {
  TH_HOST_DEVICE T loss(T x, T y) const { return y > 0 ? y * (std::log(y) - x) : T(0); }
  TH_HOST_DEVICE T grad(T, T y) const { return y > 0 ? -y : T(0); }
};

// sum |x| (L1Cost has no target: y is unused)
template <typename T>
struct L1Cost {
  TH_HOST_DEVICE T loss(T x, T) const { return std::fabs(x); }
  TH_HOST_DEVICE T grad(T x, T) const { return x > 0 ? T(1) : x < 0 ? T(-1) : T(0); }
};

template <typename T>
struct MarginLoss {
  T margin;
  TH_HOST_DEVICE T loss(T x, T y) const { return margin - x * y > 0 ? margin - x * y : T(0); }
  TH_HOST_DEVICE T grad(T x, T y) const { return x * y < margin ? -y : T(0); }
};

template <typename T>
struct MSELoss {
  TH_HOST_DEVICE T loss(T x, T y) const { return (x - y) * (x - y); }
  TH_HOST_DEVICE T grad(T x, T y) const { return 2 * (x - y); }
};

template <typename T>
struct SmoothL1Loss {
  TH_HOST_DEVICE T loss(T x, T y) const {
    const T z = std::fabs(x - y);
    return z < 1 ? T(0.5) * z * z : z - T(0.5);
  }
  // x - y clamped to [-1, 1] (std::min(1, std::max(-1, x - y)): NaN gives -1)
  TH_HOST_DEVICE T grad(T x, T y) const {
    const T low = T(-1) < x - y ? x - y : T(-1);
    return low < T(1) ? low : T(1);
  }
};

// log(1 + exp(z)) for z = -x y, in a form where neither branch overflows.
template <typename T>
struct SoftMarginLoss {
  TH_HOST_DEVICE T loss(T x, T y) const {
    const T z = -x * y;
    return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
  }
  TH_HOST_DEVICE T grad(T x, T y) const { return -y / (1 + std::exp(x * y)); }
};

}  // namespace thnn::criterion

#endif
