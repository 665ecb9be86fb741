/* Order statistics on the GPU along a dimension: max/min with their indices, sort, topk,
 * kthvalue, median, mode, and medianall, with TH's semantics (TH/generic/THTensorSort.h):
 * the same arguments with the state first, the same NaN order (Note [NaN order]: NaN above
 * every number), the same ties (sort is stable; topk, kthvalue, median and mode return
 * what a stable sort puts there), the same errors, raised before anything is written.
 * Indices are THCudaLongTensors counting from TH_INDEX_BASE; k of kthvalue counts from 1
 * whatever the base. Built once per base (indexed/THCTensorSort.cu); the library linked
 * decides the base.
 *
 *   THCudaTensor_sort(state, values, indices, t, 1, 0);   // every row of t, ascending
 *   THCudaTensor_topk(state, values, indices, t, 5, 1, 1, 1);  // 5 largest of each row
 *
 * Every type but Half. medianall waits for the stream (it returns a value); so does sort
 * of one long contiguous line of floats or doubles, once, to learn whether the line held a
 * NaN (Note [Sorting one long line] in indexed/THCTensorSort.cu). */
#ifndef THC_TENSOR_SORT_H
#define THC_TENSOR_SORT_H

#include "THC/THCTensor.h"

#ifdef __cplusplus
namespace thc {
/* SortOps<T>: the functions below of element type T as static members, for C++ code
 * written once for every type (as THC<T> in THCTypes.hpp). */
template <typename T>
struct SortOps;
}  // namespace thc

// clang-format off
#define THC_SORT_FNS(_) \
  _(max) _(min) _(sort) _(topk) _(kthvalue) _(median) _(mode) _(medianall)
// clang-format on
#endif

#define THC_GENERIC_FILE "THC/generic/THCTensorSort.h"
#include "THC/THCGenerateAllTypes.h"

#endif
