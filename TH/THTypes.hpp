// The type table of Note [The type table] (THGeneral.h) for C++ code written once for
// every element type:
//
//   th::Type                 the element types as an enum, in the table's order
//   th::typeName(t)          "Float"; th::dtypeName(t) "float32"
//   th::visit(t, f)          f(th::Tag<float>{}) for Type::Float, ...
//   th::TH<T>                TH's entry points of element type T as static members, so that
//                            TH<float>::add is THFloatTensor_add and TH<T>::S::resize is
//                            THFloatStorage_resize; TH<T>::type, ::name, ::dtypeName.
//
// Members exist only where TH defines the function for that type (no math on Half, no exp
// on integers): templates test with `if constexpr` before calling. Every user of TH in the
// project (the core, the .t7 library, both bindings, the tests) takes its per-type tables
// from here.
#ifndef TH_TYPES_HPP
#define TH_TYPES_HPP

#include <cstdint>

#include "TH/TH.h"

namespace th {

enum class Type : int8_t {
#define TH_TYPE_ENUM(Name, T, dtype) Name,
  TH_FORALL_TYPES(TH_TYPE_ENUM)
#undef TH_TYPE_ENUM
};
#define TH_TYPE_COUNT(...) +1
constexpr int kNumTypes = 0 TH_FORALL_TYPES(TH_TYPE_COUNT);
#undef TH_TYPE_COUNT

template <typename T>
struct Tag {
  using type = T;
};

// Name, dtype name and enum value of the C type T.
template <typename T>
struct TypeInfo;
#define TH_TYPE_INFO(Name, T, dtype)                 \
  template <>                                        \
  struct TypeInfo<T> {                               \
    static constexpr Type type = Type::Name;         \
    static constexpr const char *name = #Name;       \
    static constexpr const char *dtypeName = #dtype; \
  };
TH_FORALL_TYPES(TH_TYPE_INFO)
#undef TH_TYPE_INFO

inline const char *typeName(Type t) {
  switch (t) {
#define TH_TYPE_NAME(Name, T, dtype) \
  case Type::Name: return #Name;
    TH_FORALL_TYPES(TH_TYPE_NAME)
#undef TH_TYPE_NAME
  }
  return "?";
}

inline const char *dtypeName(Type t) {
  switch (t) {
#define TH_DTYPE_NAME(Name, T, dtype) \
  case Type::Name: return #dtype;
    TH_FORALL_TYPES(TH_DTYPE_NAME)
#undef TH_DTYPE_NAME
  }
  return "?";
}

// f(Tag<T>{}) for the C type T of t (a valid Type: callers check values that come from
// outside).
template <typename F>
decltype(auto) visit(Type t, F &&f) {
  switch (t) {
#define TH_TYPE_VISIT(Name, T, dtype) \
  case Type::Name: return f(Tag<T>{});
    TH_FORALL_TYPES(TH_TYPE_VISIT)
#undef TH_TYPE_VISIT
  }
  __builtin_unreachable();
}

template <typename T>
struct TH;

// clang-format does not settle on these long X-macro lists: they keep their layout.
// clang-format off
// Every type, Half included.
#define TH_TYPES_BASIC_FNS(_)                                                                                        \
  _(storage)                                                                                                         \
  _(storageOffset)                                                                                                   \
  _(nDimension) _(size) _(stride) _(data) _(nElement) _(newWithTensor) _(newWithStorage) _(newWithSize) _(newClone)  \
      _(newContiguous) _(newSelect) _(newNarrow) _(newTranspose) _(newUnfold) _(newView) _(newExpand) _(resizeNd)    \
          _(resizeAs) _(set) _(setStorageNd) _(narrow) _(select) _(transpose) _(permute) _(unfold) _(squeeze)        \
              _(squeeze1d) _(unsqueeze1d) _(view) _(reshape) _(expand) _(isContiguous) _(isSameSizeAs) _(isSetTo)    \
                  _(retain) _(free) _(copy) _(copyByte) _(copyChar) _(copyShort) _(copyInt) _(copyLong) _(copyFloat) \
                      _(copyDouble) _(copyHalf)

// The element-wise ops of the op tables (TH/THPointwiseOps.h) are members too, generated
// from their rows in generic/THTypes.hpp.

// Every type but Half.
#define TH_TYPES_ARITH_FNS(_)                                                                                         \
  _(fill)                                                                                                             \
  _(zero)                                                                                                             \
  _(tpow) _(clamp) _(addcmul) _(addcdiv) _(sumall) _(prodall) _(maxall) _(minall) _(trace) _(equal) _(sum) _(prod)    \
      _(cumsum) _(cumprod) _(eye) _(arange) _(diag) _(tril) _(triu) _(catArray) _(cross) _(dot) _(addmv) _(addr)      \
          _(addmm) _(addbmm) _(baddbmm) _(mv) _(mm) _(bmm) _(random) _(clampedRandom) _(cappedRandom) _(geometric)    \
              _(bernoulli) _(bernoulli_FloatTensor) _(bernoulli_DoubleTensor) _(randperm) _(indexSelect) _(indexCopy) \
                  _(indexAdd) _(indexFill) _(gather) _(scatter) _(scatterAdd) _(scatterFill) _(maskedFill)            \
                      _(maskedCopy) _(maskedSelect) _(nonzero) _(take) _(put) _(max) _(min) _(sort) _(topk)           \
                          _(kthvalue) _(median) _(mode) _(medianall)

// Float and Double.
#define TH_TYPES_FLOATING_FNS(_)                                                                                   \
  _(lerp)                                                                                                          \
  _(round)                                                                                                         \
  _(meanall) _(varall) _(stdall) _(normall) _(dist) _(mean) _(var) _(std) _(norm) _(linspace) _(logspace) _(histc) \
      _(renorm) _(gesv) _(gels) _(getri) _(potrf) _(potrs) _(potri) _(syev) _(geev) _(gesvd) _(qr) _(getrf) _(sytrf) _(sytrs) \
          _(bernoulli_Tensor) _(uniform) _(normal) _(normal_means) _(normal_stddevs) _(normal_means_stddevs)       \
              _(exponential) _(cauchy) _(logNormal) _(multinomial)

// Byte only (boolean reductions).
#define TH_TYPES_BYTE_FNS(_) _(logicalall) _(logicalany) _(logicalAll) _(logicalAny)

// BLAS level 1-3 on raw arrays, every type but Half (THBlas.h).
#define TH_TYPES_BLAS_FNS(_) _(swap) _(scal) _(copy) _(axpy) _(dot) _(gemv) _(ger) _(gemm)

#define TH_TYPES_STORAGE_FNS(_)                                                                                        \
  _(data)                                                                                                              \
  _(size)                                                                                                              \
  _(elementSize) _(newWithSize) _(newWithAllocator) _(newWithMapping) _(newWithDataAndAllocator) _(retain) _(free)     \
      _(resize) _(fill) _(copy) _(copyByte) _(copyChar) _(copyShort) _(copyInt) _(copyLong) _(copyFloat) _(copyDouble) \
          _(copyHalf) _(setFlag) _(clearFlag)
// clang-format on

#define TH_GENERIC_FILE "TH/generic/THTypes.hpp"
#include "TH/THGenerateAllTypes.h"
#define TH_GENERIC_FILE "TH/generic/THTypes.hpp"
#include "TH/THGenerateHalfType.h"

}  // namespace th

#endif
