// Note [Composite kernels]: NN kernels written once with the core's own ops (matrix
// products, reductions, pointwise math, index_select, index_add), so that any device whose tables hold those ops
// gets them without kernels of its own. A device library registers them for what it lacks
// (registerComposites); the CPU keeps THNN's. The statistics and formulas are THNN's, so
// results agree with the CPU's to rounding (sums may be taken in another order).
#ifndef TORCH_OPS_COMPOSITE_H
#define TORCH_OPS_COMPOSITE_H

#include <vector>

#include "core/Tensor.h"
#include "core/ops/NNKernels.h"

namespace torch::composite {

// THNN's grammar (Note [NN kernel grammar] in core/ops/NNKernels.h), Float and Double.
void linearOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                  const Tensor &addBuffer);
void linearGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight);
void linearAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &weight, const Tensor &bias,
                   const Tensor &gradWeight, const Tensor &gradBias, const Tensor &addBuffer, double scale);
void layerNormOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                     const Tensor &saveMean, const Tensor &saveInvStd, int64_t normalized, double eps);
void layerNormBackward(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &gradWeight,
                       const Tensor &gradBias, const Tensor &weight, const Tensor &saveMean, const Tensor &saveInvStd,
                       int64_t normalized, double scale);
void lookupTable(const Tensor &input, const Tensor &output, const Tensor &weight);
void lookupTableAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight, const Tensor &count,
                        bool scaleGradByFreq, int paddingValue, double scale);

// embedding_bag: Sum and Mean as gathers and index_adds; Max as the CPU's kernel on copies.
void embeddingBag(const Tensor &indices, const Tensor &output, const Tensor &weight, const Tensor &perSampleWeights,
                  const Tensor &argmax, const EmbeddingBags &bags);
void embeddingBagBackward(const Tensor &indices, const Tensor &gradOutput, const Tensor &gradWeight,
                          const Tensor &gradPerSampleWeights, const Tensor &weight, const Tensor &perSampleWeights,
                          const Tensor &argmax, const EmbeddingBags &bags, const std::vector<int64_t> &freq);
// Note [Taps] along one axis: y [outer, taps.out(), inner] = the taps' weighted sums of x
// [outer, taps.in, inner], one gather and one multiply-add per tap.
void resample(const Tensor &x, const Tensor &y, int64_t outer, int64_t inner, const Taps &taps);

// Registers the kernels above for device, Float and Double, where its tables lack them, and
// runs a few through the host (Composite.cpp: sequence, histc, isclose, poisson, adaptive max
// pooling, grid sampling, reflection and replication padding).
void registerComposites(Device device);

}  // namespace torch::composite

#endif
