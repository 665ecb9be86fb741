/* Reductions on the GPU, TH's (TH/THTensorReduce.h) with cutorch's signatures, the state
 * first:
 *
 *   double s = THCudaTensor_sumall(state, t);        // accreal: double for float tensors
 *   THCudaTensor_sum(state, r, t, 1, 0);             // r[i] = sum over j of t[i][j]
 *   THCudaTensor_var(state, r, t, 0, 0, 1);          // unbiased variance of each column
 *   THCudaTensor_catArray(state, r, inputs, 3, 0);   // concatenation along dim 0
 *
 * Sums, products, extrema and norms over a whole tensor or along a dimension, running sums
 * and products, and the construction and structure ops of TH's reduce group (zeros, eye,
 * range, diag, tril, cat, cross, histc, renorm). Results are TH's for the same inputs: the
 * same accumulator types (accreal), result shapes, errors (checked before anything is
 * written) and handling of NaN, empty and 0-dim tensors; floating-point sums may round
 * differently where the order of additions differs. Functions that return a number wait
 * for the stream. Element types: TH's (all but Half). See Note [Reductions on the GPU]
 * (THCReduce.cuh) for the kernels. */
#ifndef THC_TENSOR_REDUCE_H
#define THC_TENSOR_REDUCE_H

#include "THC/THCTensor.h"

#ifdef __cplusplus
namespace thc {
/* ReduceOps<T>: the functions below of element type T as static members (those that exist
 * for T), for C++ code written once for every type (as THC<T> in THCTypes.hpp). */
template <typename T>
struct ReduceOps;
}  // namespace thc

// clang-format off
#define THC_REDUCE_FNS(_) \
  _(sumall) _(prodall) _(maxall) _(minall) _(trace) _(equal) _(sum) _(prod) _(cumsum) _(cumprod) _(zeros) _(ones) \
  _(eye) _(range) _(arange) _(diag) _(tril) _(triu) _(cat) _(catArray) _(cross)
#define THC_REDUCE_FLOATING_FNS(_) \
  _(meanall) _(varall) _(stdall) _(normall) _(dist) _(mean) _(var) _(std) _(norm) _(linspace) _(logspace) _(histc) \
  _(renorm)
#define THC_REDUCE_BYTE_FNS(_) _(logicalall) _(logicalany) _(logicalAll) _(logicalAny)
// clang-format on
#endif

#define THC_GENERIC_FILE "THC/generic/THCTensorReduce.h"
#include "THC/THCGenerateAllTypes.h"

#endif
