// Derivative formulas, one per differentiable op, all in Derivatives.cpp so that they can be
// read side by side. Each function records the node of one op call: the op has computed
// `result` from its inputs inside a RecordScope (Note [Recording scope]) and found that it
// must record. Formulas are written with the core ops, so they record a graph of their own
// when the engine runs them with create_graph.
//
//   Tensor binary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha) {
//     RecordScope rec({&a, &b});
//     Tensor r = ...;                                     // the kernels
//     if (rec) derivatives::binary(op, a, b, alpha, r);
//     return r;
//   }
//
// Gradients are returned in the result's shape when an input was broadcast: the engine
// sums them back to the input's shape (and converts them to its type).
#ifndef TORCH_DERIVATIVES_H
#define TORCH_DERIVATIVES_H

#include "autograd/Autograd.h"
#include "core/ops/Pointwise.h"

namespace torch::derivatives {

void binary(BinaryOp op, const Tensor &a, const Tensor &b, Scalar alpha, const Tensor &result);
void binary(BinaryOp op, const Tensor &a, Scalar b, Scalar alpha, const Tensor &result);
void unary(UnaryOp op, const Tensor &t, const Tensor &result);
void clamp(const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max, const Tensor &result);
void addcop(bool divide, const Tensor &self, const Tensor &t1, const Tensor &t2, Scalar value, const Tensor &result);
void lerp(const Tensor &a, const Tensor &b, Scalar weight, const Tensor &result);
void where(const Tensor &cond, const Tensor &a, const Tensor &b, const Tensor &result);

// Reductions over dims (sorted, distinct; all of t's dims when it reduces everything).
void sum(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
void mean(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
void prod(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
void varOrStd(const Tensor &t, const std::vector<int> &dims, bool unbiased, bool keepdim, bool isStd,
              const Tensor &result);
void norm(const Tensor &t, double p, const std::vector<int> &dims, bool keepdim, const Tensor &result);
void logsumexp(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
// max/min/amax/amin without indices: the gradient is shared evenly by the tied extremes.
void extreme(const Tensor &t, const std::vector<int> &dims, bool keepdim, const Tensor &result);
// Ops returning values picked at indices along dim (max/min/median/mode/kthvalue with dim,
// sort, topk): the gradient goes back to the picked positions.
void picked(const char *name, const Tensor &t, int dim, bool keepdim, const Tensor &values, const Tensor &indices);
void cumsum(const Tensor &t, int dim, const Tensor &result);
void cumprod(const Tensor &t, int dim, const Tensor &result);
void trace(const Tensor &t, const Tensor &result);

// ---- linear algebra ----
// beta * self + alpha * product(x, y) (self undefined for plain products); kind is one of
// Linalg.h's AddProduct values as an int (Mm, Mv, R, Bmm, Bbmm).
void product(int kind, const Tensor &self, const Tensor &x, const Tensor &y, Scalar beta, Scalar alpha,
             const Tensor &result);
void dot(const Tensor &a, const Tensor &b, const Tensor &result);
void inverse(const Tensor &a, const Tensor &result);
// d log|det A| / dA = A^-T (det and logdet follow from it).
void logAbsDet(const char *name, const Tensor &a, const Tensor &result, bool timesResult);

void solve(const Tensor &b, const Tensor &a, const Tensor &solution);  // solution = a^-1 b
void cholesky(const Tensor &a, bool upper, const Tensor &factor);
// A = V diag(values) V^T for symmetric A; vectors are an output of the op or, when the user
// asked for eigenvalues only, computed for the backward alone.
void symeig(const Tensor &a, const Tensor &values, const Tensor &vectors, bool vectorsAreOutput);
// A = U diag(s) V^T; u and v are outputs, or computed for the backward alone when the user
// asked for singular values only. Full U or V (some=False) count by their first k columns:
// the others span an arbitrary basis that A does not depend on.
void svd(const Tensor &a, const Tensor &u, const Tensor &s, const Tensor &v, bool uvAreOutputs);
// A = Q R, reduced, A [m, n] with m >= n.
void qr(const Tensor &a, const Tensor &q, const Tensor &r);
// A = V diag(values) V^-1 with real eigenvalues (torch.eig's [n, 2] values: real and
// imaginary parts); vectors as for symeig. Complex eigenvalues have no real gradient.
void eig(const Tensor &a, const Tensor &values, const Tensor &vectors, bool vectorsAreOutput);
// P A = L U of a square A, packed in factors (L's unit diagonal left out).
void lu(const Tensor &a, const Tensor &factors, const Tensor &pivots);
// Results that do not depend differentiably on the input (why says why): they carry history,
// and a backward through them raises with that reason instead of giving a wrong gradient.
void notDifferentiable(const char *name, const char *why, const TensorList &inputs, const TensorList &outputs);

// ---- rearrangements ----
// An op that only moves, repeats or drops elements of t (views such as unfold, and copies
// such as flip, roll, repeat): f applied to t's element numbers says where each element of
// the result comes from; the gradients of repeated elements add up.
std::function<Tensor(const Tensor &)> rearrangementBackward(const Tensor &t, std::function<Tensor(const Tensor &)> f);
void rearranged(const char *name, const Tensor &t, const Tensor &result, std::function<Tensor(const Tensor &)> f);
// grad's elements added into a new tensor of the given sizes at positions (Long, grad's
// shape, flat element numbers; negative entries are skipped).
Tensor accumulateAt(const Tensor &grad, const Tensor &positions, const IntList &sizes);
// Note [Index writes]: an in-place op that writes source's elements (or a value, source
// undefined) into some elements of self. write(dst, src) runs the op's kernel on any type
// (src of dst's type). additiveSourceGrad: for ops that add (index_add_, scatter_add_, ...)
// the gradient of source given the result's; null for ops that overwrite, whose gradients
// are found by running write on element numbers.
void indexWrite(const char *name, const Tensor &self, const Tensor &source,
                const std::function<void(const Tensor &dst, const Tensor &src)> &write,
                const std::function<Tensor(const Tensor &grad)> &additiveSourceGrad);
// cat and stack: input i gets its slice of the gradient along dim (stack: its index).
void cat(const TensorList &inputs, int dim, const Tensor &result);
void stack(const TensorList &inputs, int dim, const Tensor &result);
void triangle(bool upper, const Tensor &t, int64_t offset, const Tensor &result);
void cross(const Tensor &a, const Tensor &b, int dim, const Tensor &result);

}  // namespace torch::derivatives

// ---- NN layers ----
// The nodes of torch.nn.functional's layers (core/ops/NNLayers.cpp): each backward runs the
// updateGradInput (and accGradParameters) kernels of its module in nnKernels(), on tensors
// the op saved. Included here, at the end, so that this section stays one block.
#include "core/ops/NNKernels.h"
#include "core/ops/NNSpatialInternal.h"

namespace torch::derivatives {

// x2: input as the 2-D [rows, in] the kernel saw.
void linear(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &x2, const Tensor &result);
void bilinear(const Tensor &input1, const Tensor &input2, const Tensor &weight, const Tensor &bias, const Tensor &x1,
              const Tensor &x2, const Tensor &result);
// x <= threshold ? value : x: the gradient passes where x > threshold or x is NaN.
void threshold(const Tensor &x, double threshold, const Tensor &result);
// Element-wise activations with the parameters a, b their kernels take.
void activation(const char *name, const NNModule<ActivationOutput, ActivationGradInput> &module, const Tensor &x,
                double a, double b, const Tensor &result);
void activation(const char *name, const NNModule<ActivationOutput, ActivationGradInputWithOutput> &module,
                const Tensor &x, double a, double b, const Tensor &result);
void activation(const char *name, const NNModule<MapOutput, MapGradInput> &module, const Tensor &x, double a,
                const Tensor &result);
// xs, w: x and weight as the kernel saw them.
void prelu(const Tensor &x, const Tensor &weight, const Tensor &xs, const Tensor &w, const Tensor &result);
void rrelu(const Tensor &x, const Tensor &noise, double lower, double upper, bool training, const Tensor &result);
void logSigmoid(const Tensor &x, const Tensor &buffer, const Tensor &result);
// shape4: x as the kernel's [outer, size(dim), inner, 1].
void softmax(const char *name, bool log, const Tensor &x, const IntList &shape4, const Tensor &result);

// How the target of an element-wise criterion gets a gradient.
enum class CriterionTargetGrad { None, Negated, KLDiv };
// x, y: input and target of one type (scaled) as the kernel saw them; the kernel's gradient
// is multiplied by gradScale.
void pointwiseCriterion(const char *name, const NNModule<CriterionOutput, CriterionGradInput> &module,
                        const Tensor &input, const Tensor &target, const Tensor &x, const Tensor &y,
                        nn::Reduction reduction, CriterionTargetGrad targetGrad, double gradScale, const Tensor &loss);
void binaryCrossEntropy(const Tensor &input, const Tensor &target, const Tensor &weight, nn::Reduction reduction,
                        const Tensor &loss);
// x, t: input and Long targets as the kernel saw them; out: the kernel's output.
void nllLoss(const Tensor &input, const Tensor &x, const Tensor &t, const Tensor &weight, nn::Reduction reduction,
             int64_t ignoreIndex, const Tensor &out, const Tensor &loss);
void multilabelMarginLoss(const Tensor &input, const Tensor &x, const Tensor &t, nn::Reduction reduction,
                          const Tensor &out, const Tensor &loss);
void multiMarginLoss(const Tensor &input, const Tensor &x, const Tensor &t, int p, double margin, const Tensor &w,
                     nn::Reduction reduction, const Tensor &out, const Tensor &loss);
// lp: logProbs as [T, N, C]; each sample's loss counts with weights[b] (0 where zeroed).
void ctcLoss(const Tensor &logProbs, const Tensor &lp, const CtcLayout &layout, int64_t blank,
             const std::vector<double> &weights, const std::vector<bool> &zeroed, bool unbatched, const Tensor &loss);
void batchNorm(const Tensor &input, const Tensor &weight, const Tensor &bias, const Tensor &runningMean,
               const Tensor &runningVar, bool training, double eps, const Tensor &saveMean, const Tensor &saveStd,
               const Tensor &result);
// mean, invstd: the forward's row statistics.
void layerNorm(const Tensor &input, const Tensor &weight, const Tensor &bias, int64_t normalized, double eps,
               const Tensor &mean, const Tensor &invstd, const Tensor &result);
// idx: the indices, flat, Long.
void embedding(const Tensor &weight, const Tensor &idx, int64_t paddingIdx, bool scaleGradByFreq, const Tensor &result);
// perSampleWeights as the user gave them; psw: flat and contiguous (or undefined).
void embeddingBag(const Tensor &weight, const Tensor &perSampleWeights, const Tensor &psw, const Tensor &idx,
                  const Tensor &argmax, const EmbeddingBags &bags, bool scaleGradByFreq, const Tensor &result);

// ---- spatial layers (core/ops/NNSpatial.cpp) ----
// Note [Spatial ranks] (core/ops/NNSpatial.h): input and result as the user sees them;
// batched says whether input has its batch dimension. The backward runs the kernels on the
// canonical views, as the forward did.
void convolution(const nn::spatial::Conv &c, const Tensor &input, const Tensor &weight, const Tensor &bias,
                 bool batched, const Tensor &result);
// p: the checked pooling; indices: the op's second result.
void maxPool(const char *node, const nn::spatial::Pool &p, const Tensor &input, const Tensor &indices, bool batched,
             const Tensor &result);
// factors: divisor_override's factors over the output (the result was multiplied by them), or undefined.
void avgPool(const char *node, const nn::spatial::Pool &p, bool countIncludePad, const Tensor &factors,
             const Tensor &input, bool batched, const Tensor &result);
// s: 1 or 2 spatial dimensions.
void adaptiveMaxPool(const Tensor &input, const Tensor &indices, int s, bool batched, const Tensor &result);
void adaptiveAvgPool(const Tensor &input, int s, bool batched, const Tensor &result);
// outputSize: the result's spatial sizes as the kernel takes them ([H, W] or [T, H, W]).
void maxUnpool(const char *node, const Tensor &input, const Tensor &indices, const IntList &outputSize, int s,
               bool batched, const Tensor &result);
// THNN's nearest upsampling by an integer factor on every axis (input batched, 2 or 3 axes).
void upsampleNearest(const char *node, const Tensor &input, int64_t factor, const Tensor &result);
// THNN's linear upsampling with corners aligned (input batched); outputSize as the kernel takes it.
void upsampleLinear(const char *node, const Tensor &input, const IntList &outputSize, int s, const Tensor &result);
// Reflection or replication padding by THNN's module; pad as the module takes it.
void padding(const char *node, const NNModule<PaddingOutput, PaddingGradInput> &module, const Tensor &input,
             const IntList &pad, int s, bool batched, const Tensor &result);
// Note [Taps]: x resampled along dim; the gradient is resampled by the adjoint taps.
void resampled(const char *name, const Tensor &x, int dim, const nn::spatial::TapsPtr &taps, const Tensor &result);
// A pooling of an empty batch: its gradient is zero.
void emptyPooled(const char *node, const Tensor &input, const Tensor &result);
// Constant padding by pad (negative pads crop): its own adjoint with the pads negated.
void constantPad(const Tensor &input, const IntList &pad, const Tensor &result);
// pixel_shuffle (up) and pixel_unshuffle by factor: each the other's adjoint.
void pixelShuffle(bool up, const Tensor &input, int64_t factor, const Tensor &result);
// im2col and col2im: each the other's adjoint. im2col's input has spatial sizes imageSize.
void im2col(const Tensor &input, const IntList &imageSize, const IntList &kernel, const IntList &dilation,
            const IntList &padding, const IntList &stride, const Tensor &result);
void col2im(const Tensor &input, const IntList &kernel, const IntList &dilation, const IntList &padding,
            const IntList &stride, const Tensor &result);
// lines: the base coordinates the forward used (x, y[, z]).
void affineGrid(const Tensor &theta, const std::vector<std::vector<double>> &lines, const Tensor &grid);
// THNN's bilinear grid sampler (corners aligned); paddingMode 0 zeros, 1 border.
void gridSampleAligned(const Tensor &input, const Tensor &grid, int paddingMode, const Tensor &result);

}  // namespace torch::derivatives

#endif
