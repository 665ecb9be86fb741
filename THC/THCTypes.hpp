// thc::THC<T>: THC's entry points of element type T as static members (THC<float>::copy is
// THCudaTensor_copy), generated from the type table like TH's th::TH<T> (TH/THTypes.hpp),
// for C++ code written once for every element type.
#ifndef THC_TYPES_HPP
#define THC_TYPES_HPP

#include "TH/THTypes.hpp"
#include "THC/THCTensor.h"

namespace thc {

template <typename T>
struct THC;

// clang-format off
#define THC_TYPES_FNS(_) \
  _(newWithSize) _(newWithTensor) _(newContiguous) _(newClone) _(newSelect) _(newNarrow) _(newTranspose) \
  _(newExpand) _(free) _(retain) _(resizeNd) _(resizeAs) _(set) _(narrow) _(select) _(transpose) \
  _(expand) _(view) _(nElement) _(isContiguous) _(isSameSizeAs) _(getDevice) _(copy) _(fill) _(zero)
// clang-format on

#define THC_GENERIC_FILE "THC/generic/THCTypes.hpp"
#include "THC/THCGenerateAllTypes.h"

}  // namespace thc

#endif
