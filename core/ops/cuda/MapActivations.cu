// The core's own activations on the GPU: one grid-stride kernel per direction, instantiated
// per activation and type from the formulas the CPU uses (core/ops/MapActivations.hpp).
#include "core/ops/MapActivations.hpp"
#include "core/ops/cuda/MapActivations.h"

namespace torch::cuda {

namespace {

constexpr int kThreads = 256;

template <typename A, typename T>
__global__ void activationKernel(const T *x, const T *g, T *out, int64_t n, double a) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
    if (!g) {
      out[i] = A::f(x[i], a);
    } else {
      const T d = A::df(x[i], a);
      out[i] = torch::activation::pick(d == T(0), T(0), g[i] * d);
    }
}

template <typename A, typename T>
void launch(const void *x, const void *g, void *out, int64_t n, double a, cudaStream_t stream) {
  if (n == 0) return;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  activationKernel<A, T><<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), kThreads, 0, stream>>>(
      static_cast<const T *>(x), static_cast<const T *>(g), static_cast<T *>(out), n, a);
}

template <typename A>
void launchTyped(bool isDouble, const void *x, const void *g, void *out, int64_t n, double a, cudaStream_t stream) {
  if (isDouble)
    launch<A, double>(x, g, out, n, a, stream);
  else
    launch<A, float>(x, g, out, n, a, stream);
}

}  // namespace

void launchActivation(Activation which, bool isDouble, const void *x, const void *g, void *out, int64_t n, double a,
                      cudaStream_t stream) {
  using namespace torch::activation;
  switch (which) {
    case Activation::Relu: return launchTyped<Relu>(isDouble, x, g, out, n, a, stream);
    case Activation::Hardshrink: return launchTyped<Hardshrink>(isDouble, x, g, out, n, a, stream);
    case Activation::Elu: return launchTyped<Elu>(isDouble, x, g, out, n, a, stream);
    case Activation::Selu: return launchTyped<Selu>(isDouble, x, g, out, n, a, stream);
    case Activation::Celu: return launchTyped<Celu>(isDouble, x, g, out, n, a, stream);
    case Activation::Gelu: return launchTyped<Gelu>(isDouble, x, g, out, n, a, stream);
    case Activation::GeluTanh: return launchTyped<GeluTanh>(isDouble, x, g, out, n, a, stream);
    case Activation::Silu: return launchTyped<Silu>(isDouble, x, g, out, n, a, stream);
    case Activation::Mish: return launchTyped<Mish>(isDouble, x, g, out, n, a, stream);
    case Activation::Hardsigmoid: return launchTyped<Hardsigmoid>(isDouble, x, g, out, n, a, stream);
    case Activation::Hardswish: return launchTyped<Hardswish>(isDouble, x, g, out, n, a, stream);
  }
}

}  // namespace torch::cuda
