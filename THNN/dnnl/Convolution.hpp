// oneDNN's 2-D convolutions for THNN's float SpatialConvolutionMM and SpatialDilatedConvolution
// (Note [oneDNN convolution] in Convolution.cpp). Used by THNN/SpatialConvolution.cpp:
//
//   thnn::dnnl_conv::Geometry g{batch, inPlanes, inH, inW, outPlanes, outH, outW,
//                               kH, kW, dH, dW, padH, padW, dilationH, dilationW};
//   auto scratch = [&](size_t n) { return pointerToAtLeastNFloatsOfTheCallersBuffer(n); };
//   if (!thnn::dnnl_conv::enabled() || !thnn::dnnl_conv::forward(g, in, w, bias, out, scratch))
//     ... the im2col path
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace thnn::dnnl_conv {

// One call's shapes: input [batch, inPlanes, inH, inW], weight [outPlanes, inPlanes, kH, kW],
// output [batch, outPlanes, outH, outW], bias [outPlanes]; every array contiguous.
struct Geometry {
  int64_t batch, inPlanes, inH, inW, outPlanes, outH, outW;
  int kH, kW, dH, dW, padH, padW, dilationH, dilationW;
};

// Hands out at least n floats of the caller's scratch (THNN's finput, fgradInput or columns).
using Scratch = std::function<float *(size_t n)>;

// False when THNN_CONV_IM2COL is set in the environment (to anything but "" or "0"): read at
// each call, so tests and benchmarks can compare the two paths in one process.
bool enabled();

// Each returns false when oneDNN has no implementation for the call, or the im2col path is the
// faster one (1x1 kernels on one thread): the caller then takes the im2col path; the outputs are then as they were,
// except forward's and backwardData's, which the caller overwrites. Errors of the scratch function propagate.
bool forward(const Geometry &g, const float *input, const float *weight, const float *bias, float *output,
             const Scratch &scratch);
// The same for bfloat16 images and weights (as bit patterns) and a float bias: PyTorch 1.13's
// bfloat16 convolution (products summed in float, each output rounded once). Called by the
// core's BFloat16 kernel (core/ops/cpu/NNKernels.cpp), whatever the kernel size and threads.
bool forwardBfloat16(const Geometry &g, const uint16_t *input, const uint16_t *weight, const float *bias,
                     uint16_t *output, const Scratch &scratch);
bool backwardData(const Geometry &g, const float *gradOutput, const float *weight, float *gradInput,
                  const Scratch &scratch);
// gradWeight += scale * d(loss)/d(weight); gradBias (unless NULL) += scale * d(loss)/d(bias).
bool backwardWeights(const Geometry &g, const float *input, const float *gradOutput, float *gradWeight, float *gradBias,
                     float scale, const Scratch &scratch);

}  // namespace thnn::dnnl_conv
