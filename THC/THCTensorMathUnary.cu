// The unary ops of Note [Pointwise op tables], from the element expressions TH's kernels
// are generated from: one table, two devices.
#include "THC/THCTensorMath.cuh"

namespace thc {

#define THC_UNARY_FN(Op, torch, th, Types, ...)        \
  struct Op##Fn {                                      \
    template <typename scalar_t>                       \
    __device__ scalar_t operator()(scalar_t x) const { \
      return __VA_ARGS__;                              \
    }                                                  \
  };
TH_FORALL_UNARY_OPS(THC_UNARY_FN)
#undef THC_UNARY_FN

}  // namespace thc

#define THC_GENERIC_FILE "THC/generic/THCTensorMathUnary.cu"
#include "THC/THCGenerateAllTypes.h"
