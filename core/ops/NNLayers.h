// The non-spatial layers of torch.nn.functional: linear maps, activations, losses, batch
// normalization, embeddings and CTC, over THNN's kernels where THNN has them, with
// autograd recording. Float and Double.
//
//   Tensor x = ..., w = ..., b = ...;                 // [8, 5], [3, 5], [3] Float
//   Tensor h = nn::relu(nn::linear(x, w, b));         // [8, 3]
//   Tensor logp = nn::logSoftmax(h, 1);
//   Tensor target = ...;                              // [8] Long, classes 0..2
//   Tensor loss = nn::nllLoss(logp, target, Tensor(), nn::Reduction::Mean, -100);  // 0-dim
//
// Note [Loss reduction]: Mean and Sum reduce every loss to a 0-dim tensor; None keeps one
// loss per element (per sample for the class losses). The elementwise losses take input
// and target of one shape (the Python layer broadcasts them first, as PyTorch does).
//
// Note [In-place activations]: relu_ & co. compute the out-of-place result and write it
// into x; while recording, through inplaceWithHistory (Note [In-place ops and autograd]),
// so the backward reads a saved copy and not the overwritten x.
//
// Note [CTC gradient]: ctcLoss's backward is the gradient with respect to logProbs itself,
// -exp(log(sum of alpha beta over label c) + nll - logProbs). PyTorch's kernel returns
// exp(logProbs) plus that, which is the gradient with respect to the logits before a
// log_softmax; through log_softmax both give the same gradient, and this one also passes
// gradcheck on log-probabilities directly.
#ifndef TORCH_OPS_NN_LAYERS_H
#define TORCH_OPS_NN_LAYERS_H

#include <optional>
#include <string>

#include "core/Tensor.h"

namespace torch::nn {

enum class Reduction { None, Mean, Sum };
Reduction reductionOf(const std::string &name);  // "none" | "mean" | "sum", else ValueError

// ---- linear maps ----
// input [*, in] weight^T + bias: weight [out, in], bias [out] or undefined.
Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias);
// out[*, k] = input1[*] weight[k] input2[*]^T + bias[k]: weight [out, in1, in2].
Tensor bilinear(const Tensor &input1, const Tensor &input2, const Tensor &weight, const Tensor &bias);

// ---- activations (Note [In-place activations] for the *_ twins) ----
Tensor threshold(const Tensor &x, double threshold, double value);  // x > threshold ? x : value
void threshold_(const Tensor &x, double threshold, double value);
Tensor relu(const Tensor &x);  // integer tensors too (clamped at 0)
void relu_(const Tensor &x);
Tensor hardtanh(const Tensor &x, double minVal, double maxVal);
void hardtanh_(const Tensor &x, double minVal, double maxVal);
Tensor leakyRelu(const Tensor &x, double negativeSlope);
void leakyRelu_(const Tensor &x, double negativeSlope);
// One slope, or one per channel (dimension 1, or 0 for 1-D input).
Tensor prelu(const Tensor &x, const Tensor &weight);
// training: slopes drawn from U[lower, upper) with the default generator; else (l + u) / 2.
Tensor rrelu(const Tensor &x, double lower, double upper, bool training);
void rrelu_(const Tensor &x, double lower, double upper, bool training);
Tensor elu(const Tensor &x, double alpha);
void elu_(const Tensor &x, double alpha);
Tensor selu(const Tensor &x);
void selu_(const Tensor &x);
Tensor celu(const Tensor &x, double alpha);
void celu_(const Tensor &x, double alpha);
Tensor gelu(const Tensor &x, bool tanhApproximation);
Tensor silu(const Tensor &x);
void silu_(const Tensor &x);
Tensor mish(const Tensor &x);
void mish_(const Tensor &x);
Tensor hardsigmoid(const Tensor &x);
void hardsigmoid_(const Tensor &x);
Tensor hardswish(const Tensor &x);
void hardswish_(const Tensor &x);
Tensor softplus(const Tensor &x, double beta, double threshold);
Tensor softshrink(const Tensor &x, double lambda);
Tensor hardshrink(const Tensor &x, double lambda);
Tensor logSigmoid(const Tensor &x);
// Along dim (negative counts from the end); a 0-dim tensor is one line of one element.
Tensor softmax(const Tensor &x, int64_t dim);
Tensor logSoftmax(const Tensor &x, int64_t dim);

// ---- losses (Note [Loss reduction]) ----
Tensor l1Loss(const Tensor &input, const Tensor &target, Reduction reduction);
Tensor mseLoss(const Tensor &input, const Tensor &target, Reduction reduction);
// 0.5 d^2 / beta where |d| < beta, else |d| - 0.5 beta (beta = 0: |d|).
Tensor smoothL1Loss(const Tensor &input, const Tensor &target, Reduction reduction, double beta);
// 0.5 d^2 where |d| < delta, else delta (|d| - 0.5 delta).
Tensor huberLoss(const Tensor &input, const Tensor &target, Reduction reduction, double delta);
Tensor softMarginLoss(const Tensor &input, const Tensor &target, Reduction reduction);
// target (log target - input), 0 where target = 0 (input holds log-probabilities).
Tensor klDiv(const Tensor &input, const Tensor &target, Reduction reduction);
// weight: undefined, or input's shape. Each log is clamped at -100 (Note [BCE at 0 and 1]).
Tensor binaryCrossEntropy(const Tensor &input, const Tensor &target, const Tensor &weight, Reduction reduction);
// input [C], [N, C] or [N, C, d1, ...] log-probabilities; target [], [N] or [N, d1, ...].
Tensor nllLoss(const Tensor &input, const Tensor &target, const Tensor &weight, Reduction reduction,
               int64_t ignoreIndex);
// target: input's shape, each row's classes ended by -1.
Tensor multilabelMarginLoss(const Tensor &input, const Tensor &target, Reduction reduction);
Tensor multiMarginLoss(const Tensor &input, const Tensor &target, int p, double margin, const Tensor &weight,
                       Reduction reduction);
// logProbs [T, N, C] (or [T, C]); targets [N, S] padded or 1-D concatenated; lengths [N]
// Long. Mean divides each loss by its target length, then averages over the batch.
// zeroInfinity: an impossible alignment (infinite loss) counts 0, with zero gradient.
// See Note [CTC gradient].
Tensor ctcLoss(const Tensor &logProbs, const Tensor &targets, const Tensor &inputLengths, const Tensor &targetLengths,
               int64_t blank, Reduction reduction, bool zeroInfinity);

// ---- normalization ----
// Over dimension 1 of [N, C, ...]. training: batch statistics, and the running ones (when
// defined) move by momentum; otherwise the running statistics normalise.
Tensor batchNorm(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &runningMean,
                 const Tensor &runningVar, bool training, double momentum, double eps);

// Over the trailing dimensions given by normalizedShape: each position of the leading ones
// normalised by the mean and biased variance of its elements there, then times weight and
// plus bias (normalizedShape's sizes, or undefined).
Tensor layerNorm(const Tensor &input, const IntList &normalizedShape, const Tensor &weight, const Tensor &bias,
                 double eps);

// ---- embeddings ----
// weight[indices]: indices Long (or Int) of any shape. No gradient flows to row
// paddingIdx (-1: none); scaleGradByFreq divides each row's gradient by its count.
Tensor embedding(const Tensor &weight, const Tensor &indices, int64_t paddingIdx, bool scaleGradByFreq);
// Rows of weight listed in indices whose normType-norm exceeds maxNorm, scaled to maxNorm.
void embeddingRenorm_(const Tensor &weight, const Tensor &indices, double maxNorm, double normType);
enum class BagMode { Sum, Mean, Max };
// Bags of rows: indices 2-D [B, L] (offsets undefined) or 1-D with offsets [B] (or [B + 1]
// with includeLastOffset). perSampleWeights: indices' shape, Sum mode only. Entries equal
// to paddingIdx (-1: none) are left out; an empty bag gives zeros. scaleGradByFreq divides
// each row's gradient by the number of times it occurs in indices.
Tensor embeddingBag(const Tensor &weight, const Tensor &indices, const Tensor &offsets, BagMode mode,
                    const Tensor &perSampleWeights, bool includeLastOffset, int64_t paddingIdx, bool scaleGradByFreq);

}  // namespace torch::nn

#endif
