// The GPU kernels of the core's own activations (core/ops/MapActivations.hpp), launched over
// contiguous device memory on a stream; host code that includes no CUDA device headers.
#ifndef TORCH_OPS_CUDA_MAP_ACTIVATIONS_H
#define TORCH_OPS_CUDA_MAP_ACTIVATIONS_H

#include <cstdint>

#include <cuda_runtime_api.h>

namespace torch::cuda {

enum class Activation { Relu, Hardshrink, Elu, Selu, Celu, Gelu, GeluTanh, Silu, Mish, Hardsigmoid, Hardswish };

// out = f(x) over n elements, or with g (the output's gradient) out = g * df(x); Float or
// Double (isDouble); a is the activation's parameter.
void launchActivation(Activation which, bool isDouble, const void *x, const void *g, void *out, int64_t n, double a,
                      cudaStream_t stream);

}  // namespace torch::cuda

#endif
