// The core's own element-wise activations (relu, hardshrink, elu, selu, celu, gelu, gelu with
// tanh, silu, mish, hardsigmoid, hardswish): one struct each with the output f(x, a) and the
// derivative df(x, a) of one element (a: the activation's parameter, celu's alpha), written
// once for the CPU's kernels (core/ops/cpu/NNKernels.cpp) and the GPU's (core/ops/cuda/
// MapActivations.cu), which nvcc compiles for the device too. The gradient is
// gradOutput * df, and exactly 0 where df is 0 (whatever gradOutput holds), as PyTorch's
// piecewise backward kernels select it.
//
// The piecewise ones choose with pick() (Note [Selects without branches] in
// TH/THScalarMath.hpp), so that their loops vectorise.
//
// relu and hardshrink are here rather than THNN's Threshold and HardShrink because PyTorch
// and torch7 differ on NaN: torch7 keeps x where x > threshold, so NaN becomes the value
// (relu(NaN) = 0), while PyTorch zeroes x where x <= 0, so NaN passes and a diverging run
// shows it; relu(-0.0) is -0.0 there. THNN keeps torch7's semantics for the Lua side.
#ifndef TORCH_OPS_MAP_ACTIVATIONS_HPP
#define TORCH_OPS_MAP_ACTIVATIONS_HPP

#include <cmath>

#include "TH/THScalarMath.hpp"  // TH_HOST_DEVICE

namespace torch::activation {

constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;
constexpr double kSqrtHalf = 0.70710678118654752440, kInvSqrt2Pi = 0.39894228040143267794;
constexpr double kSqrt2OverPi = 0.79788456080286535588, kGeluCubic = 0.044715;

template <typename T>
TH_HOST_DEVICE T sigmoidOf(T v) {
  return T(1) / (T(1) + std::exp(-v));
}
// log(1 + exp(v)) without overflow.
template <typename T>
TH_HOST_DEVICE T softplusOf(T v) {
  return v > T(20) ? v : std::log1p(std::exp(v));
}

using th::math::pick;  // Note [Selects without branches] in TH/THScalarMath.hpp

// Each activation as a struct of f and df over one element, a its parameter.
struct Relu {  // PyTorch's clamp_min(x, 0) and its threshold_backward(g, relu(x), 0)
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double) {
    return pick(v < T(0), T(0), v);
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double) {
    return pick(v <= T(0), T(0), T(1));  // relu(v) <= 0 exactly where v <= 0; NaN passes
  }
};
struct Hardshrink {  // a: lambda
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double lambda) {
    return pick((v >= T(-lambda)) & (v <= T(lambda)), T(0), v);
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double lambda) {
    return pick((v >= T(-lambda)) & (v <= T(lambda)), T(0), T(1));
  }
};
struct Selu {
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double) {
    return static_cast<T>(kSeluScale * (v > 0 ? v : kSeluAlpha * std::expm1(v)));
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double) {
    return static_cast<T>(v > 0 ? kSeluScale : kSeluScale * kSeluAlpha * std::exp(v));
  }
};
struct Elu {  // a: alpha
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double alpha) {
    return v > 0 ? v : static_cast<T>(alpha * std::expm1(v));
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double alpha) {
    return v > 0 ? T(1) : static_cast<T>(alpha * std::exp(v));
  }
};
struct Celu {
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double alpha) {
    return v > 0 ? v : static_cast<T>(alpha * std::expm1(v / alpha));
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double alpha) {
    return v > 0 ? T(1) : static_cast<T>(std::exp(v / alpha));
  }
};
// x Phi(x), Phi(x) = erfc(-x / sqrt 2) / 2 the normal CDF: erfc rather than PyTorch's
// 1 + erf(x / sqrt 2), which cancels to nothing in the negative tail
struct Gelu {
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double) {
    return static_cast<T>(0.5 * v * std::erfc(v * -kSqrtHalf));
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double) {
    return static_cast<T>(0.5 * std::erfc(v * -kSqrtHalf) + v * kInvSqrt2Pi * std::exp(-0.5 * v * v));
  }
};
struct GeluTanh {
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double) {
    double u = kSqrt2OverPi * (v + kGeluCubic * v * v * v);
    return static_cast<T>(0.5 * v * (1 + std::tanh(u)));
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double) {
    double u = kSqrt2OverPi * (v + kGeluCubic * v * v * v), t = std::tanh(u);
    double du = kSqrt2OverPi * (1 + 3 * kGeluCubic * v * v);
    return static_cast<T>(0.5 * (1 + t) + 0.5 * v * (1 - t * t) * du);
  }
};
struct Silu {
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double) {
    return v * sigmoidOf(v);
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double) {
    T s = sigmoidOf(v);
    return s * (1 + v * (1 - s));
  }
};
struct Mish {
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double) {
    return v * std::tanh(softplusOf(v));
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double) {
    T t = std::tanh(softplusOf(v));
    return t + v * sigmoidOf(v) * (1 - t * t);
  }
};
struct Hardsigmoid {
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double) {
    return pick(v <= T(-3), T(0), pick(v >= T(3), T(1), v / T(6) + T(0.5)));
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double) {
    return pick((v > T(-3)) & (v < T(3)), T(1) / T(6), T(0));
  }
};
struct Hardswish {
  template <typename T>
  TH_HOST_DEVICE static T f(T v, double) {
    return pick(v <= T(-3), T(0), pick(v >= T(3), v, v * (v + T(3)) / T(6)));
  }
  template <typename T>
  TH_HOST_DEVICE static T df(T v, double) {
    return pick(v < T(-3), T(0), pick(v <= T(3), v / T(3) + T(0.5), T(1)));
  }
};

}  // namespace torch::activation

#endif
