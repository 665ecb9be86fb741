// The kernels of torch.nn.functional's layers (core/ops/NNLayers.cpp, NNSpatial.cpp): Note
// [Dispatch by device and type] in core/Dispatch.h. Float and Double only (Types::Floating):
// outside them the error is "<op> is only implemented for floating point tensors".
//
// Note [NN kernel grammar]: the kernels keep THNN's grammar (THNN/THNN.h), so that a reader
// who knows one module knows them all and a CUDA library registers THCUNN's twins as they
// are: a module has updateOutput(input, output, <parameters>, <buffers>, <options>),
// updateGradInput(input, gradOutput, gradInput, ...) and, with parameters,
// accGradParameters(input, gradOutput, gradWeight, gradBias, ..., scale). The caller owns
// every tensor, resized by the kernel as needed; an undefined tensor is THNN's NULL (no
// bias, no weights). Spatial and volumetric twins are one module: lists of kernel sizes,
// strides, paddings, dilations have 2 entries ([H, W]) or 3 ([T, H, W]) and pick the kernel.
// Class targets and indices are Long tensors.
//
//   Tensor y = empty({0}, x.dtype());
//   nnKernels().hardtanh.updateOutput(x.device(), x.dtype(), x, y, -1.0, 1.0);
#ifndef TORCH_OPS_NN_KERNELS_H
#define TORCH_OPS_NN_KERNELS_H

#include <vector>

#include "core/Dispatch.h"
#include "core/ops/NNLayers.h"

namespace torch {

template <typename UpdateOutput, typename UpdateGradInput>
struct NNModule {
  explicit NNModule(const char *name) : updateOutput(name), updateGradInput(name) {}
  Kernels<UpdateOutput, Types::Floating> updateOutput;
  Kernels<UpdateGradInput, Types::Floating> updateGradInput;
};

template <typename UpdateOutput, typename UpdateGradInput, typename AccGradParameters>
struct NNModuleWithParameters : NNModule<UpdateOutput, UpdateGradInput> {
  explicit NNModuleWithParameters(const char *name)
      : NNModule<UpdateOutput, UpdateGradInput>(name), accGradParameters(name) {}
  Kernels<AccGradParameters, Types::Floating> accGradParameters;
};

// ---- signatures shared by several modules ----

// An element-wise activation with one or two parameters (unused ones are 0).
using ActivationOutput = void(const Tensor &input, const Tensor &output, double a, double b);
using ActivationGradInput = void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double a,
                                 double b);
// ... that also reads its output in the backward (ELU; THNN's SoftPlus takes it too).
using ActivationGradInputWithOutput = void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                                           const Tensor &output, double a, double b);
// Our own element-wise activations (no THNN kernel): output and gradInput of x's shape,
// x and gradOutput contiguous; a is the activation's parameter (celu's alpha).
using MapOutput = void(const Tensor &input, const Tensor &output, double a);
using MapGradInput = void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, double a);
// An element-wise criterion (input and target of one shape).
using CriterionOutput = void(const Tensor &input, const Tensor &target, const Tensor &output, bool sizeAverage,
                             bool reduce);
using CriterionGradInput = void(const Tensor &input, const Tensor &target, const Tensor &gradOutput,
                                const Tensor &gradInput, bool sizeAverage, bool reduce);
// Padding by pad = (left, right, top, bottom[, front, back]).
using PaddingOutput = void(const Tensor &input, const Tensor &output, const IntList &pad);
using PaddingGradInput = void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                              const IntList &pad);

// Note [Taps] (core/ops/NNSpatial.cpp): output position j along an axis reads input
// positions index[t] with weights weight[t], for t in [start[j], start[j + 1]).
struct Taps {
  int64_t in = 0;
  std::vector<int64_t> start{0}, index;
  std::vector<double> weight;
  int64_t out() const { return static_cast<int64_t>(start.size()) - 1; }
  void add(int64_t i, double w) {
    index.push_back(i);
    weight.push_back(w);
  }
  void next() { start.push_back(static_cast<int64_t>(index.size())); }
  // The adjoint: input position i collects the output positions that read it.
  Taps transposed() const;
};

// Where each sample's labels start in the CTC targets, checked against the lengths.
struct CtcLayout {
  Tensor targets;  // Long, contiguous
  std::vector<int64_t> start, inputLengths, targetLengths;
};

// The bags of embedding_bag: bag b reduces the rows indices[begin[b]..end[b]) other than
// paddingIdx, count[b] of them.
struct EmbeddingBags {
  std::vector<int64_t> begin, end, count;
  int64_t paddingIdx;
  nn::BagMode mode;
};

struct NNKernels {
  // ---- linear maps ----
  NNModuleWithParameters<void(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                              const Tensor &addBuffer),
                         void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                              const Tensor &weight),
                         void(const Tensor &input, const Tensor &gradOutput, const Tensor &weight, const Tensor &bias,
                              const Tensor &gradWeight, const Tensor &gradBias, const Tensor &addBuffer, double scale)>
      linear{"linear"};
  // gradInput1 or gradInput2 undefined: not computed.
  NNModuleWithParameters<void(const Tensor &input1, const Tensor &input2, const Tensor &output, const Tensor &weight,
                              const Tensor &bias, const Tensor &buffer),
                         void(const Tensor &input1, const Tensor &input2, const Tensor &gradOutput,
                              const Tensor &gradInput1, const Tensor &gradInput2, const Tensor &weight,
                              const Tensor &buffer),
                         void(const Tensor &input1, const Tensor &input2, const Tensor &gradOutput,
                              const Tensor &gradWeight, const Tensor &gradBias, const Tensor &buffer, double scale)>
      bilinear{"bilinear"};

  // ---- activations: a, b = minVal, maxVal | slope | beta, threshold | lambda ----
  NNModule<ActivationOutput, ActivationGradInput> hardtanh{"hardtanh"}, leakyRelu{"leaky_relu"},
      softshrink{"softshrink"};
  NNModule<ActivationOutput, ActivationGradInputWithOutput> softplus{"softplus"};
  NNModuleWithParameters<
      void(const Tensor &input, const Tensor &output, const Tensor &weight),
      void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight),
      void(const Tensor &input, const Tensor &gradOutput, const Tensor &weight, const Tensor &gradWeight, double scale)>
      prelu{"prelu"};
  // training: slopes drawn into noise from U[lower, upper) with the device's default generator.
  NNModule<void(const Tensor &input, const Tensor &output, const Tensor &noise, double lower, double upper,
                bool training),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &noise,
                double lower, double upper, bool training)>
      rrelu{"rrelu"};
  NNModule<void(const Tensor &input, const Tensor &output, const Tensor &buffer),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &buffer)>
      logSigmoid{"log_sigmoid"};
  NNModule<MapOutput, MapGradInput> relu{"relu"}, hardshrink{"hardshrink"}, elu{"elu"}, selu{"selu"}, celu{"celu"},
      gelu{"gelu"}, geluTanh{"gelu"}, silu{"silu"}, mish{"mish"}, hardsigmoid{"hardsigmoid"}, hardswish{"hardswish"};
  // Along dimension 1 of a 4-D input.
  NNModule<void(const Tensor &input, const Tensor &output),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &output)>
      softmax{"softmax"}, logSoftmax{"log_softmax"};

  // ---- losses ----
  NNModule<CriterionOutput, CriterionGradInput> absCriterion{"l1_loss"}, mseCriterion{"mse_loss"},
      smoothL1Criterion{"smooth_l1_loss"}, softMarginCriterion{"soft_margin_loss"}, distKLDivCriterion{"kl_div"};
  // Over input [C], [N, C] or the spatial [N, C, H, W] (targets [N, H, W]).
  NNModule<void(const Tensor &input, const Tensor &target, const Tensor &output, bool sizeAverage,
                const Tensor &weights, const Tensor &totalWeight, int64_t ignoreIndex, bool reduce),
           void(const Tensor &input, const Tensor &target, const Tensor &gradOutput, const Tensor &gradInput,
                bool sizeAverage, const Tensor &weights, const Tensor &totalWeight, int64_t ignoreIndex, bool reduce)>
      classNLLCriterion{"nll_loss"};
  NNModule<void(const Tensor &input, const Tensor &target, const Tensor &output, const Tensor &isTarget,
                bool sizeAverage, bool reduce),
           void(const Tensor &input, const Tensor &target, const Tensor &gradOutput, const Tensor &gradInput,
                const Tensor &isTarget, bool sizeAverage, bool reduce)>
      multiLabelMarginCriterion{"multilabel_margin_loss"};
  NNModule<void(const Tensor &input, const Tensor &target, const Tensor &output, bool sizeAverage, int p,
                const Tensor &weights, double margin, bool reduce),
           void(const Tensor &input, const Tensor &target, const Tensor &gradOutput, const Tensor &gradInput,
                bool sizeAverage, int p, const Tensor &weights, double margin, bool reduce)>
      multiMarginCriterion{"multi_margin_loss"};
  // Note [BCE at 0 and 1] (NNLayers.cpp): per-element losses, and their derivative in x.
  NNModule<void(const Tensor &input, const Tensor &target, const Tensor &output),
           void(const Tensor &input, const Tensor &target, const Tensor &gradInput)>
      binaryCrossEntropy{"binary_cross_entropy"};
  // Whether every element lies in [0, 1] (NaN does not).
  Kernels<bool(const Tensor &input), Types::Floating> allProbabilities{"binary_cross_entropy"};
  // Per-sample losses (double) of logProbs [T, N, C]; with grad ([T, N, C] doubles, zeroed),
  // the gradient of sum_b factors[b] * loss_b is added there.
  Kernels<void(const Tensor &logProbs, const CtcLayout &layout, int64_t blank, std::vector<double> &losses,
               double *grad, const std::vector<double> &factors),
          Types::Floating>
      ctcLoss{"ctc_loss"};

  // ---- normalization and embeddings ----
  // gradInput, gradWeight, gradBias undefined: not computed.
  NNModule<void(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                const Tensor &runningMean, const Tensor &runningVar, const Tensor &saveMean, const Tensor &saveStd,
                bool train, double momentum, double eps),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &gradWeight,
                const Tensor &gradBias, const Tensor &weight, const Tensor &runningMean, const Tensor &runningVar,
                const Tensor &saveMean, const Tensor &saveStd, bool train, double scale, double eps)>
      batchNormalization{"batch_norm"};
  // Over rows of `normalized` elements of a contiguous input; weight, bias undefined: 1, 0.
  NNModule<void(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                const Tensor &saveMean, const Tensor &saveInvStd, int64_t normalized, double eps),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &gradWeight,
                const Tensor &gradBias, const Tensor &weight, const Tensor &saveMean, const Tensor &saveInvStd,
                int64_t normalized, double scale)>
      layerNormalization{"layer_norm"};
  // Lookup: rows of weight at the (Long) input; count is an Int buffer.
  Kernels<void(const Tensor &input, const Tensor &output, const Tensor &weight), Types::Floating> lookupTable{
      "embedding"};
  Kernels<void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight, const Tensor &count,
               bool scaleGradByFreq, int paddingValue, double scale),
          Types::Floating>
      lookupTableAccGradParameters{"embedding"};
  Kernels<void(const Tensor &input, const Tensor &weight, double maxNorm, double normType), Types::Floating>
      lookupTableRenorm{"embedding_renorm_"};
  // output [B, D] zeroed, argmax [B, D] (Long, Max mode only); indices flat and Long,
  // perSampleWeights flat (Sum mode) or undefined, weight contiguous.
  Kernels<void(const Tensor &indices, const Tensor &output, const Tensor &weight, const Tensor &perSampleWeights,
               const Tensor &argmax, const EmbeddingBags &bags),
          Types::Floating>
      embeddingBag{"embedding_bag"};
  // gradWeight (zeroed) and gradPerSampleWeights (zeroed, flat) when defined; weight is
  // read for the latter. freq: each row's count among the indices, or empty.
  Kernels<void(const Tensor &indices, const Tensor &gradOutput, const Tensor &gradWeight,
               const Tensor &gradPerSampleWeights, const Tensor &weight, const Tensor &perSampleWeights,
               const Tensor &argmax, const EmbeddingBags &bags, const std::vector<int64_t> &freq),
          Types::Floating>
      embeddingBagBackward{"embedding_bag"};

  // ---- convolutions: kernel, stride, padding, dilation[, adj] as [T,] H, W ----
  NNModuleWithParameters<void(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                              const Tensor &columns, const IntList &kernel, const IntList &stride,
                              const IntList &padding, const IntList &dilation),
                         void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                              const Tensor &weight, const Tensor &columns, const IntList &kernel, const IntList &stride,
                              const IntList &padding, const IntList &dilation),
                         void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight,
                              const Tensor &gradBias, const Tensor &columns, const IntList &kernel,
                              const IntList &stride, const IntList &padding, const IntList &dilation, double scale)>
      dilatedConvolution{"convolution"};
  // The transposed convolution; 3-d only with unit dilation (VolumetricFullConvolution,
  // which also takes the second buffer).
  NNModuleWithParameters<
      void(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias, const Tensor &columns,
           const Tensor &columns2, const IntList &kernel, const IntList &stride, const IntList &padding,
           const IntList &dilation, const IntList &adj),
      void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight,
           const Tensor &columns, const Tensor &columns2, const IntList &kernel, const IntList &stride,
           const IntList &padding, const IntList &dilation, const IntList &adj),
      void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight, const Tensor &gradBias,
           const Tensor &columns, const Tensor &columns2, const IntList &kernel, const IntList &stride,
           const IntList &padding, const IntList &dilation, const IntList &adj, double scale)>
      fullConvolution{"conv_transpose"};

  // ---- pooling ----
  NNModule<void(const Tensor &input, const Tensor &output, const Tensor &indices, const IntList &kernel,
                const IntList &stride, const IntList &padding, const IntList &dilation, bool ceilMode),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &indices,
                const IntList &kernel, const IntList &stride, const IntList &padding, const IntList &dilation,
                bool ceilMode)>
      dilatedMaxPooling{"max_pool"};
  NNModule<void(const Tensor &input, const Tensor &output, const IntList &kernel, const IntList &stride,
                const IntList &padding, bool ceilMode, bool countIncludePad),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const IntList &kernel,
                const IntList &stride, const IntList &padding, bool ceilMode, bool countIncludePad)>
      averagePooling{"avg_pool"};
  // 2-d only; outputSize [H, W].
  NNModule<void(const Tensor &input, const Tensor &output, const Tensor &indices, const IntList &outputSize),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &indices)>
      adaptiveMaxPooling{"adaptive_max_pool2d"};
  NNModule<void(const Tensor &input, const Tensor &output, const IntList &outputSize),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput)>
      adaptiveAveragePooling{"adaptive_avg_pool2d"};
  NNModule<void(const Tensor &input, const Tensor &output, const Tensor &indices, const IntList &outputSize),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &indices,
                const IntList &outputSize)>
      maxUnpooling{"max_unpool"};

  // ---- resampling, padding, grids ----
  NNModule<void(const Tensor &input, const Tensor &output, int64_t factor),
           void(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, int64_t factor)>
      upSamplingNearest{"interpolate"};
  // Bilinear (2-d) or trilinear (3-d), corners aligned; inputSizes [N, C, *spatial].
  NNModule<void(const Tensor &input, const Tensor &output, const IntList &outputSize),
           void(const Tensor &gradOutput, const Tensor &gradInput, const IntList &inputSizes,
                const IntList &outputSize)>
      upSamplingLinear{"interpolate"};
  // Note [Taps]: x [outer, taps.in, inner] into y [outer, taps.out(), inner], both contiguous.
  Kernels<void(const Tensor &x, const Tensor &y, int64_t outer, int64_t inner, const Taps &taps), Types::Floating>
      resample{"interpolate"};
  NNModule<PaddingOutput, PaddingGradInput> reflectionPadding{"pad"};  // 2-d
  NNModule<PaddingOutput, PaddingGradInput> replicationPadding{"pad"};
  NNModule<void(const Tensor &input, const Tensor &grid, const Tensor &output, int paddingMode),
           void(const Tensor &input, const Tensor &gradInput, const Tensor &grid, const Tensor &gradGrid,
                const Tensor &gradOutput, int paddingMode)>
      gridSamplerBilinear{"grid_sample"};
  // grid [N, *spatial, dims] from theta [N, dims, dims + 1] and the base coordinates of each
  // axis (x, y[, z]); the backward gives gradTheta from gradGrid. All contiguous.
  NNModule<void(const Tensor &theta, const Tensor &grid, const std::vector<std::vector<double>> &lines),
           void(const Tensor &gradGrid, const Tensor &gradTheta, const std::vector<std::vector<double>> &lines)>
      affineGrid{"affine_grid"};
  // image [planes, H, W] unfolded into columns [planes kH kW, oH oW], both contiguous; col2im
  // adds columns into the zeroed image. kernel, dilation, padding, stride as [H, W].
  using Im2colKernel = void(const Tensor &image, const Tensor &columns, int64_t planes, const IntList &imageSize,
                            const IntList &blocks, const IntList &kernel, const IntList &dilation,
                            const IntList &padding, const IntList &stride);
  Kernels<Im2colKernel, Types::Floating> im2col{"im2col"}, col2im{"col2im"};
};

// The tables, with the CPU column registered on first use.
NNKernels &nnKernels();

namespace cpu {
void registerNNKernels(NNKernels &k);  // core/ops/cpu/NNKernels.cpp
}  // namespace cpu

}  // namespace torch

#endif
