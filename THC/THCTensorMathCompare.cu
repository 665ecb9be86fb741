// Comparisons, as a Byte mask or in the input's type.
#include "THC/THCTensorMath.cuh"

namespace thc {

#define THC_COMPARE_FN(Name, OP)                 \
  struct Name {                                  \
    template <typename T>                        \
    __device__ bool operator()(T x, T y) const { \
      return x OP y;                             \
    }                                            \
  };
THC_COMPARE_FN(LtFn, <)
THC_COMPARE_FN(LeFn, <=)
THC_COMPARE_FN(GtFn, >)
THC_COMPARE_FN(GeFn, >=)
THC_COMPARE_FN(EqFn, ==)
THC_COMPARE_FN(NeFn, !=)
#undef THC_COMPARE_FN

template <typename T, typename F>
struct CompareValue {
  T value;
  __device__ bool operator()(T x) const { return F()(x, value); }
};

}  // namespace thc

#define THC_GENERIC_FILE "THC/generic/THCTensorMathCompare.cu"
#include "THC/THCGenerateAllTypes.h"
