/* Indexing ops on the GPU: indexSelect/indexCopy/indexAdd/indexFill, gather/scatter,
 * masked*, nonzero, take/put, with TH's semantics (TH/generic/THTensorIndex.h): the same
 * arguments with the state first, indices in THCudaLongTensors counting from
 * TH_INDEX_BASE, masks in THCudaByteTensors, the same errors. Built once per base
 * (indexed/THCTensorIndex.cu); the library linked decides the base.
 *
 *   THCudaLongTensor *index = ...;                         // {2, 0} in base 0
 *   THCudaTensor_indexSelect(state, r, src, 0, index);     // r = rows 2 and 0 of src
 *   THCudaTensor_indexAdd(state, t, 0, index, r);          // t's rows 2 and 0 += r's rows
 *
 * Every index is checked on the device before anything is written: a bad one raises
 * TH's index error naming it in the caller's base ("index 7 is out of range for
 * dimension 0 of size 5") and leaves every tensor unchanged. Checking waits for the
 * current stream, as do the ops whose result size depends on data (maskedSelect,
 * nonzero). Where several entries write one element, indexCopy keeps the last (as TH);
 * the accumulating ops (indexAdd, scatterAdd, put with accumulate) add them all (floats
 * in an unspecified order); scatter and put without accumulate keep one of them. */
#ifndef THC_TENSOR_INDEX_H
#define THC_TENSOR_INDEX_H

#include "THC/THCTensor.h"

#ifdef __cplusplus
namespace thc {
/* IndexOps<T>: the functions below of element type T as static members, for C++ code
 * written once for every type (as THC<T> in THCTypes.hpp). */
template <typename T>
struct IndexOps;
}  // namespace thc

// clang-format off
#define THC_INDEX_FNS(_) \
  _(indexSelect) _(indexCopy) _(indexAdd) _(indexFill) _(gather) _(scatter) _(scatterAdd) _(scatterFill) \
  _(maskedFill) _(maskedCopy) _(maskedSelect) _(nonzero) _(take) _(put)
// clang-format on
#endif

#define THC_GENERIC_FILE "THC/generic/THCTensorIndex.h"
#include "THC/THCGenerateAllTypes.h"

#endif
