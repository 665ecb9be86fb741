// Spatial operations of torch.nn.functional over THNN's kernels, with autograd: convolutions,
// pooling, resampling, padding, pixel shuffles, grid sampling and im2col.
//
//   Tensor x = ...;                                   // [N, C, H, W] Float
//   Tensor w = ...;                                   // [O, C / groups, kH, kW]
//   Tensor y = nn::convolution(x, w, Tensor(), {1, 1}, {1, 1}, {1, 1}, 1);   // [N, O, H, W]
//   auto [m, idx] = nn::maxPool(y, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false);  // idx: Long, per plane
//   Tensor up = nn::interpolate(m, "bilinear", {H, W}, {}, false);
//
// Note [Spatial ranks]: an op over s spatial dimensions (s = the length of its kernel or size
// lists: 1, 2 or 3) takes [N, C, *spatial] or the unbatched [C, *spatial], as PyTorch does,
// and gives a result of the same rank. Inside, every input is seen batched, and 1-d ops run
// the 2-d kernels on a unit height, so one THNN call serves each rank. Views do that, so a
// contiguous input reaches the kernel without a copy.
//
// Note [Spatial kernels]: where THNN has a kernel, forward and backward are THNN's
// (updateOutput, updateGradInput, accGradParameters). Where it has none, a small kernel
// here does the work: resampling one axis at a time by lists of taps (nearest and linear
// with any sizes and align_corners=False, bicubic, area / adaptive average over 3 axes,
// reflect and circular padding), constant padding, pixel shuffles, affine grids and
// im2col / col2im. Each records its own backward.
//
// Every op checks its arguments first (RuntimeError naming the op and the sizes) and records
// one node (or one per resampled axis) when an input requires a gradient.
#ifndef TORCH_OPS_NNSPATIAL_H
#define TORCH_OPS_NNSPATIAL_H

#include <optional>
#include <string>
#include <utility>

#include "core/Tensor.h"

namespace torch::nn {

// ---- convolutions (Note [Spatial ranks]: s = stride.size()) ----
// weight [O, C / groups, *kernel]; bias [O] or undefined.
Tensor convolution(const Tensor &input, const Tensor &weight, const Tensor &bias, const IntList &stride,
                   const IntList &padding, const IntList &dilation, int64_t groups);
// padding='same' (stride 1: output size = input size; an odd total padding puts the extra
// element after, as PyTorch does) or 'valid' (no padding).
Tensor convolution(const Tensor &input, const Tensor &weight, const Tensor &bias, const IntList &stride,
                   const std::string &padding, const IntList &dilation, int64_t groups);
// weight [C, O / groups, *kernel]; output size (in - 1) stride - 2 pad + dilation (k - 1) + 1 + outputPadding.
Tensor convTranspose(const Tensor &input, const Tensor &weight, const Tensor &bias, const IntList &stride,
                     const IntList &padding, const IntList &outputPadding, int64_t groups, const IntList &dilation);

// ---- pooling ----
// Max over windows (padding reads -inf); indices: the flat offset of each maximum in its
// input plane (t H W + h W + w), as PyTorch returns them.
std::pair<Tensor, Tensor> maxPool(const Tensor &input, const IntList &kernel, const IntList &stride,
                                  const IntList &padding, const IntList &dilation, bool ceilMode);
Tensor avgPool(const Tensor &input, const IntList &kernel, const IntList &stride, const IntList &padding, bool ceilMode,
               bool countIncludePad, std::optional<int64_t> divisorOverride);
// Output size fixed; window i along an axis covers [floor(i in / out), ceil((i + 1) in / out)).
std::pair<Tensor, Tensor> adaptiveMaxPool(const Tensor &input, const IntList &outputSize);
Tensor adaptiveAvgPool(const Tensor &input, const IntList &outputSize);
// The inverse of maxPool: zeros but where indices (flat in the output plane) put input's
// values. outputSize: the spatial sizes of the result.
Tensor maxUnpool(const Tensor &input, const Tensor &indices, const IntList &outputSize);

// ---- resampling ----
// input [N, C, *spatial] (1 to 3 spatial dims). mode: nearest, nearest-exact, linear,
// bilinear, trilinear, bicubic or area. scales: the scale factors the user gave (used for
// the source coordinates instead of in / out, as PyTorch does), or empty.
Tensor interpolate(const Tensor &input, const std::string &mode, const IntList &outputSize,
                   const std::vector<double> &scales, bool alignCorners);
// pad: (before, after) pairs from the last dimension backwards; negative values crop.
// mode: constant (any dims), reflect, replicate or circular (the last 1 to 3 dims of a
// batched or unbatched input).
Tensor pad(const Tensor &input, const IntList &pad, const std::string &mode, double value);
Tensor pixelShuffle(const Tensor &input, int64_t upscale);
Tensor pixelUnshuffle(const Tensor &input, int64_t downscale);
// input [N, C, H, W] sampled bilinearly at grid [N, Ho, Wo, 2] (x, y in [-1, 1]).
// paddingMode: zeros or border.
Tensor gridSample(const Tensor &input, const Tensor &grid, const std::string &mode, const std::string &paddingMode,
                  bool alignCorners);
// theta [N, 2, 3] and size [N, C, H, W] give [N, H, W, 2]; theta [N, 3, 4] and size
// [N, C, D, H, W] give [N, D, H, W, 3].
Tensor affineGrid(const Tensor &theta, const IntList &size, bool alignCorners);
// im2col: [N, C, H, W] -> [N, C kH kW, L] (L: the number of kernel positions); col2im is its
// adjoint, summing overlapping entries into [N, C, *outputSize]. Unbatched inputs too.
Tensor im2col(const Tensor &input, const IntList &kernel, const IntList &dilation, const IntList &padding,
              const IntList &stride);
Tensor col2im(const Tensor &input, const IntList &outputSize, const IntList &kernel, const IntList &dilation,
              const IntList &padding, const IntList &stride);

}  // namespace torch::nn

#endif
