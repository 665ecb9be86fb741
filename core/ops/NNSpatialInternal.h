// The parts of core/ops/NNSpatial.cpp that its derivative formulas (the spatial section of
// autograd/Derivatives.cpp) share with the ops: the kernels' view of an input (Note [Spatial
// ranks] in NNSpatial.h), the parameters of a convolution and of a pooling as the kernels
// take them, the convolution's backward over groups, and resampling one axis by taps.
// Nothing here checks its arguments: the ops have.
#ifndef TORCH_OPS_NNSPATIAL_INTERNAL_H
#define TORCH_OPS_NNSPATIAL_INTERNAL_H

#include <algorithm>
#include <memory>

#include "core/ops/NNKernels.h"

namespace torch::nn::spatial {

// ---- Note [Spatial ranks]: the kernels' view of inputs and results ----

// t ([C, *s] or [N, C, *s]) as [N, C, *s], a 1-d t as [N, C, 1, L].
Tensor canonical(const Tensor &t, int s, bool batched);
// The inverse of canonical (a result the user may modify in place).
Tensor uncanonical(const Tensor &t, int s, bool batched);
// A tensor of the given sizes whose memory is never read (a kernel's input that only gives
// a shape): one element seen everywhere.
Tensor shapeOnly(const IntList &sizes, ScalarType dtype, Device device);

// ---- convolutions ----

// conv1d ... conv3d, conv_transpose1d ... conv_transpose3d.
const char *convName(int s, bool transposed);

struct Conv {
  int s;            // spatial dimensions of the op: 1, 2 or 3
  bool transposed;  // conv_transpose*d
  IntList stride, padding, dilation, outputPadding;
  int64_t groups;
  // The same for the kernels (Note [Spatial ranks]): 2 or 3 entries, [T,] H, W.
  IntList k, st, pd, dl, adj;

  const char *name() const { return convName(s, transposed); }
  bool unitDilation() const {
    return std::all_of(dl.begin(), dl.end(), [](int64_t d) { return d == 1; });
  }
  // The output size along kernel axis a for input size in, without output padding.
  int64_t outSize(int a, int64_t in) const {
    if (transposed) return (in - 1) * st[a] - 2 * pd[a] + dl[a] * (k[a] - 1) + 1;
    return (in + 2 * pd[a] - dl[a] * (k[a] - 1) - 1) / st[a] + 1;
  }
};

// The gradients of input, weight and bias for grad (the result's gradient), each where its
// need flag is set, by the kernels' updateGradInput and accGradParameters group by group.
// input or weight is read only for the other's gradient (a shapeOnly tensor otherwise).
TensorList convolutionBackward(const Conv &c, const Tensor &input, const Tensor &weight, const Tensor &grad,
                               bool batched, bool needX, bool needW, bool needB);

// ---- pooling ----

struct Pool {
  const char *op;
  int s;
  IntList kernel, stride, padding, dilation;
  bool ceilMode;
  IntList k, st, pd, dl;  // for the kernels: [T,] H, W
};

// ---- Note [Taps] (NNSpatial.cpp): resampling one axis by lists of taps ----

using TapsPtr = std::shared_ptr<const Taps>;

// x resampled along dim by taps; records `name` (its backward: the adjoint taps).
Tensor resampleAxis(const Tensor &x, int dim, const TapsPtr &taps, const char *name);

}  // namespace torch::nn::spatial

#endif
