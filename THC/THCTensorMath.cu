// Element-wise ops with a value or a second tensor, and the ternary addcmul/addcdiv/lerp.
#include "THC/THCTensorMath.cuh"

namespace thc {

// Element functions: x is t's element, y the value or src's element.
#define THC_BINARY_FN(Name, expr)                            \
  template <typename T>                                      \
  struct Name {                                              \
    __device__ T operator()(T x, T y) const { return expr; } \
  };
THC_BINARY_FN(AddFn, thm::add(x, y))
THC_BINARY_FN(SubFn, thm::sub(x, y))
THC_BINARY_FN(MulFn, thm::mul(x, y))
THC_BINARY_FN(DivFn, thm::div(x, y))
THC_BINARY_FN(FmodFn, thm::fmod(x, y))
THC_BINARY_FN(RemainderFn, thm::remainder(x, y))
THC_BINARY_FN(PowFn, thm::pow(x, y))
THC_BINARY_FN(TpowFn, thm::pow(y, x))
THC_BINARY_FN(MaxFn, thm::max(x, y))
THC_BINARY_FN(MinFn, thm::min(x, y))
THC_BINARY_FN(FloorDivideFn, thm::floorDivide(x, y))
#undef THC_BINARY_FN

// f(x, value)
template <typename T, template <typename> class F>
struct WithValue {
  T value;
  __device__ T operator()(T x) const { return F<T>()(x, value); }
};

// x + alpha * y, x - alpha * y
template <typename T>
struct AddScaled {
  T alpha;
  __device__ T operator()(T x, T y) const { return thm::add(x, thm::mul(alpha, y)); }
};
template <typename T>
struct SubScaled {
  T alpha;
  __device__ T operator()(T x, T y) const { return thm::sub(x, thm::mul(alpha, y)); }
};

template <typename T>
struct Clamp {
  T lo, hi;
  __device__ T operator()(T x) const { return x < lo ? lo : (x > hi ? hi : x); }
};

template <typename T>
struct AddCMul {
  T value;
  __device__ T operator()(T x, T y, T z) const { return thm::add(x, thm::mul(thm::mul(value, y), z)); }
};
template <typename T>
struct AddCDiv {
  T value;
  __device__ T operator()(T x, T y, T z) const { return thm::add(x, thm::div(thm::mul(value, y), z)); }
};
template <typename T>
struct Lerp {
  T weight;
  __device__ T operator()(T x, T y) const { return x + weight * (y - x); }
};
template <typename T>
struct RoundAway {
  __device__ T operator()(T x) const { return std::round(x); }
};

// The generated binary kernels of THPointwiseOps.h.
#define THC_GENERATED_BINARY_FN(cth, th, Types, luaTensor, luaValue, ...)                \
  template <typename scalar_t>                                                           \
  struct cth##Fn {                                                                       \
    __device__ scalar_t operator()(scalar_t x, scalar_t y) const { return __VA_ARGS__; } \
  };
TH_FORALL_GENERATED_BINARY_KERNELS(THC_GENERATED_BINARY_FN)
#undef THC_GENERATED_BINARY_FN

}  // namespace thc

#define THC_GENERIC_FILE "THC/generic/THCTensorMath.cu"
#include "THC/THCGenerateAllTypes.h"
