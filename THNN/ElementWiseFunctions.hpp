// The element-wise activations' formulas, one functor each, shared by THNN's kernels and
// THCUNN's (nvcc compiles them for the device too): forward(x) is the output of x, and
// backward(g, ...) the gradient of the input from the output's gradient g and the element of
// each tensor the kernel's backward reads (the input x, the output y, a buffer), in the order
// THNN/generic/ElementWise.cpp hands them. T is the type computed in: the element type, or
// float for Half. Parameters arrive as accreal (double) and are rounded to T once.
#ifndef THNN_ELEMENT_WISE_FUNCTIONS_HPP
#define THNN_ELEMENT_WISE_FUNCTIONS_HPP

#include <cmath>
#include <type_traits>

#include "TH/THScalarMath.hpp"  // TH_HOST_DEVICE

struct THHalf;

namespace thnn {

using th::math::pick;  // the piecewise formulas choose without branches (TH/THScalarMath.hpp)

// The type a kernel of element type S computes in.
template <typename S>
using Compute = std::conditional_t<std::is_same_v<S, THHalf>, float, S>;

template <typename T>
struct Abs {
  TH_HOST_DEVICE T forward(T x) const { return std::abs(x); }
  TH_HOST_DEVICE T backward(T g, T x) const { return pick(x >= 0, g, -g); }
};

// x > 0 ? x : alpha * (exp(x) - 1); backward from x and y, as alpha * exp(x) = y + alpha.
template <typename T>
struct ELU {
  T alpha;
  explicit ELU(double alpha) : alpha(T(alpha)) {}
  // a branch, not pick(): half the elements skip expm1, which costs more than a mispredict
  TH_HOST_DEVICE T forward(T x) const { return x > 0 ? x : alpha * std::expm1(x); }
  TH_HOST_DEVICE T backward(T g, T x, T y) const { return pick(x > 0, g, g * (y + alpha)); }
};

template <typename T>
struct HardShrink {
  T lambda;
  explicit HardShrink(double lambda) : lambda(T(lambda)) {}
  TH_HOST_DEVICE T forward(T x) const { return pick((x > lambda) | (x < -lambda), x, T(0)); }
  TH_HOST_DEVICE T backward(T g, T x) const { return pick((x > lambda) | (x < -lambda), g, T(0)); }
};

// In place, x is the clamped value: it sits on a bound exactly where the input was beyond.
template <typename T>
struct HardTanh {
  T lo, hi;
  HardTanh(double lo, double hi) : lo(T(lo)), hi(T(hi)) {}
  TH_HOST_DEVICE T forward(T x) const { return pick(x < lo, lo, pick(x > hi, hi, x)); }
  TH_HOST_DEVICE T backward(T g, T x) const { return pick((x <= lo) | (x >= hi), T(0), g); }
};

template <typename T>
struct LeakyReLU {
  T negval;
  explicit LeakyReLU(double negval) : negval(T(negval)) {}
  TH_HOST_DEVICE T forward(T x) const { return pick(x > 0, x, negval * x); }
  TH_HOST_DEVICE T backward(T g, T x) const { return pick(x > 0, g, negval * g); }
};

// log sigmoid(x) = min(x, 0) - log(1 + e) with e = exp(-|x|) <= 1, kept in a buffer: no
// overflow and no cancellation. d/dx log sigmoid(x) = sigmoid(-x), from x and e.
template <typename T>
struct LogSigmoid {
  TH_HOST_DEVICE T buffer(T x) const { return std::exp(-std::abs(x)); }
  TH_HOST_DEVICE T forward(T x, T e) const { return pick(T(0) < x, T(0), x) - std::log1p(e); }  // std::min
  TH_HOST_DEVICE T backward(T g, T x, T e) const { return g * pick(x >= 0, e, T(1)) / (1 + e); }
};

// The backward needs only the output.
template <typename T>
struct Sigmoid {
  TH_HOST_DEVICE T forward(T x) const { return T(1) / (1 + std::exp(-x)); }
  TH_HOST_DEVICE T backward(T g, T y) const { return g * (1 - y) * y; }
};

// log(1 + exp(beta x)) / beta, x where beta x > threshold. The backward is torch7's: the
// gradient passes where beta y > threshold (y the output); elsewhere it is g sigmoid(beta x),
// computed from the input as PyTorch's z / (z + 1) with z = exp(beta x) (from the output it is
// -expm1(-beta y), and SLEEF's expm1 costs four exps).
template <typename T>
struct SoftPlus {
  T beta, threshold;
  SoftPlus(double beta, double threshold) : beta(T(beta)), threshold(T(threshold)) {}
  // branches, as ELU's: the arm that is usually taken calls the transcendental function
  TH_HOST_DEVICE T forward(T x) const { return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta; }
  TH_HOST_DEVICE T backward(T g, T x, T y) const {
    if (y * beta > threshold) return g;
    const T z = std::exp(x * beta);
    return g * z / (z + 1);
  }
};

template <typename T>
struct SoftShrink {
  T lambda;
  explicit SoftShrink(double lambda) : lambda(T(lambda)) {}
  TH_HOST_DEVICE T forward(T x) const { return pick(x > lambda, x - lambda, pick(x < -lambda, x + lambda, T(0))); }
  TH_HOST_DEVICE T backward(T g, T x) const { return pick((x > lambda) | (x < -lambda), g, T(0)); }
};

// sqrt(x + eps); the backward reads the output, gradient 0 where it is 0.
template <typename T>
struct Sqrt {
  T eps;
  explicit Sqrt(double eps) : eps(T(eps)) {}
  TH_HOST_DEVICE T forward(T x) const { return std::sqrt(x + eps); }
  TH_HOST_DEVICE T backward(T g, T y) const { return y == 0 ? T(0) : T(0.5) * (g / y); }
};

template <typename T>
struct Square {
  TH_HOST_DEVICE T forward(T x) const { return x * x; }
  TH_HOST_DEVICE T backward(T g, T x) const { return 2 * x * g; }
};

// The backward needs only the output.
template <typename T>
struct Tanh {
  TH_HOST_DEVICE T forward(T x) const { return std::tanh(x); }
  TH_HOST_DEVICE T backward(T g, T y) const { return g * (1 - y * y); }
};

// RReLU in training: each element's slope drawn in the forward (1 where x > 0) is in noise.
template <typename T>
struct RReLUNoise {
  TH_HOST_DEVICE T backward(T g, T r) const { return g * r; }
};

template <typename T>
struct Threshold {
  T threshold, val;
  Threshold(double threshold, double val) : threshold(T(threshold)), val(T(val)) {}
  TH_HOST_DEVICE T forward(T x) const { return pick(x > threshold, x, val); }
  TH_HOST_DEVICE T backward(T g, T x) const { return pick(x > threshold, g, T(0)); }
};

}  // namespace thnn

#endif
