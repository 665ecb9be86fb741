// TH<T>: the TH entry points of element type T as static members, so that code written
// once as a template calls THFloatTensor_add for T = float and THLongTensor_add for
// T = int64_t. Members exist only where TH defines the function for that type (no math on
// Half, no exp on integers): templates test with `if constexpr` before calling.
#ifndef TORCH_TH_FUNCTIONS_HPP
#define TORCH_TH_FUNCTIONS_HPP

#include "TH/TH.h"
#include "TH/THTensor.hpp"

namespace torch {

template <typename T>
struct TH;

// Every type, Half included.
#define TORCH_TH_BASIC_FNS(_)                                                                  \
  _(storage) _(storageOffset) _(nDimension) _(size) _(stride) _(data) _(nElement)              \
  _(newWithTensor) _(newWithStorage) _(newWithSize) _(newClone) _(newContiguous)             \
  _(newSelect) _(newNarrow) _(newTranspose) _(newUnfold) _(newView) _(newExpand) _(resizeNd) \
  _(resizeAs) _(set) _(setStorageNd) _(narrow) _(select) _(transpose) _(permute) _(unfold)   \
  _(squeeze) _(squeeze1d) _(unsqueeze1d) _(view) _(reshape) _(expand) _(isContiguous)        \
  _(isSameSizeAs) _(isSetTo) _(retain) _(free) _(copy) _(copyByte) _(copyChar) _(copyShort)  \
  _(copyInt) _(copyLong) _(copyFloat) _(copyDouble) _(copyHalf)

// Every type but Half.
#define TORCH_TH_ARITH_FNS(_)                                                                  \
  _(fill) _(zero) _(add) _(sub) _(mul) _(div) _(fmod) _(remainder) _(pow) _(tpow) _(clamp)     \
  _(cmaxValue) _(cminValue) _(cadd) _(csub) _(cmul) _(cdiv) _(cpow) _(cfmod) _(cremainder)     \
  _(cmax) _(cmin) _(addcmul) _(addcdiv) _(sign) _(ltValue) _(leValue) _(gtValue) _(geValue)   \
  _(eqValue) _(neValue) _(ltTensor) _(leTensor) _(gtTensor) _(geTensor) _(eqTensor)           \
  _(neTensor) _(ltValueT) _(leValueT) _(gtValueT) _(geValueT) _(eqValueT) _(neValueT) _(ltTensorT) \
  _(leTensorT) _(gtTensorT) _(geTensorT) _(eqTensorT) _(neTensorT) _(sumall) _(prodall) _(maxall) _(minall) _(trace) _(equal) _(sum) _(prod)       \
  _(cumsum) _(cumprod) _(eye) _(arange) _(diag) _(tril) _(triu) _(catArray) _(cross) _(dot)   \
  _(addmv) _(addr) _(addmm) _(addbmm) _(baddbmm) _(random) _(clampedRandom) _(cappedRandom)   \
  _(geometric) _(bernoulli) _(bernoulli_FloatTensor) _(bernoulli_DoubleTensor) _(randperm)     \
  _(indexSelect) _(indexCopy) _(indexAdd) _(indexFill) _(gather) _(scatter) _(scatterAdd)     \
  _(scatterFill) _(maskedFill) _(maskedCopy) _(maskedSelect) _(nonzero) _(take) _(put) _(max) \
  _(min) _(sort) _(topk) _(kthvalue) _(median) _(mode) _(medianall)

// Signed types (every arithmetic type but Byte).
#define TORCH_TH_SIGNED_FNS(_) _(neg) _(abs)

// Float and Double.
#define TORCH_TH_FLOATING_FNS(_)                                                                \
  _(cinv) _(lerp) _(exp) _(log) _(log1p) _(sqrt) _(rsqrt) _(sigmoid) _(tanh) _(sin) _(cos)      \
  _(tan) _(asin) _(acos) _(atan) _(atan2) _(sinh) _(cosh) _(floor) _(ceil) _(round) _(trunc)   \
  _(frac) _(meanall) _(varall) _(stdall) _(normall) _(dist) _(mean) _(var) _(std) _(norm)      \
  _(linspace) _(logspace) _(histc) _(renorm) _(gesv) _(gels) _(getri) _(potrf) _(potrs)        \
  _(potri) _(syev) _(geev) _(gesvd) _(qr) _(getrf) _(bernoulli_Tensor) _(uniform) _(normal)    \
  _(normal_means) _(normal_stddevs) _(normal_means_stddevs) _(exponential) _(cauchy)           \
  _(logNormal) _(multinomial)

// Byte only (boolean reductions).
#define TORCH_TH_BYTE_FNS(_) _(logicalall) _(logicalany) _(logicalAll) _(logicalAny)

#define TORCH_TH_STORAGE_FNS(_)                                                           \
  _(data) _(size) _(elementSize) _(newWithSize) _(newWithAllocator) _(newWithMapping)     \
  _(newWithDataAndAllocator) _(retain) _(free) _(resize) _(fill) _(copy) _(copyByte)     \
  _(copyChar) _(copyShort) _(copyInt) _(copyLong) _(copyFloat) _(copyDouble) _(copyHalf) \
  _(setFlag) _(clearFlag)

#define TH_GENERIC_FILE "core/generic/THFunctions.hpp"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "core/generic/THFunctions.hpp"
#include "TH/THGenerateHalfType.h"

}  // namespace torch

#endif
