// Internals of the math group: r = f(inputs...) on the GPU with TH's argument rules, and
// the checks of divisors and exponents that TH makes before writing.
#ifndef THC_TENSOR_MATH_CUH
#define THC_TENSOR_MATH_CUH

#include "THC/THCApply.cuh"
#include "THC/THCTensorMath.h"

namespace thm = th::math;

namespace thc {

template <typename A, typename B>
void checkSameCount(const char *op, const A *a, const char *aName, const B *b, int bArg, const char *bName) {
  const int64_t na = numel(a), nb = numel(b);
  THArgCheck(na == nb, bArg,
             "%s: %s %s (%lld elements) and %s %s (%lld elements) must have the same number of elements", op, aName,
             shapeOf(a).c_str(), (long long)na, bName, shapeOf(b).c_str(), (long long)nb);
}

template <typename F>
struct MapOp {
  F f;
  template <typename R, typename... X>
  __device__ void operator()(R &r, const X &...x) const {
    r = static_cast<R>(f(x...));
  }
};

// r = f(a, b...) element by element; r takes a's shape. The caller has checked the operands.
template <typename F, typename R, typename A, typename... B>
void map(THCState *state, const char *op, F f, R *r, A *a, B *...b) {
  DeviceGuard guard(commonDevice(op, r, a, b...));
  THC<Elem<R>>::resizeNd(state, r, a->nDimension, a->size, nullptr);
  pointwise(state, MapOp<F>{f}, r, a, b...);
}

template <typename Pred>
struct FlagIf {
  Pred pred;
  int *flag;
  template <typename T>
  __device__ void operator()(const T &x) const {
    if (pred(x)) *flag = 1;
  }
};

// Does pred hold for any element of t? (One pass on the GPU, then a 4-byte copy back.)
template <typename Pred, typename TensorT>
bool anyOf(THCState *state, TensorT *t, Pred pred) {
  if (numel(t) == 0) return false;
  DeviceGuard guard(device(t));
  cudaStream_t stream = THCState_getCurrentStream(state);
  int *flag = static_cast<int *>(THCCachingAllocator_malloc(sizeof(int), stream));
  int found = 0;
  try {
    THCudaCheck(cudaMemsetAsync(flag, 0, sizeof(int), stream));
    pointwise(state, FlagIf<Pred>{pred, flag}, t);
    THCudaCheck(cudaMemcpyAsync(&found, flag, sizeof(int), cudaMemcpyDeviceToHost, stream));
    THCudaCheck(cudaStreamSynchronize(stream));
  } catch (...) {
    THCCachingAllocator_free(flag);
    throw;
  }
  THCCachingAllocator_free(flag);
  return found != 0;
}

struct IsZero {
  template <typename T>
  __device__ bool operator()(T x) const {
    return x == 0;
  }
};
// v < 0, without comparing an unsigned value with zero
template <typename T>
__host__ __device__ bool isNegative(T v) {
  if constexpr (std::is_signed_v<T>)
    return v < 0;
  else
    return false;
}

struct IsNegative {
  template <typename T>
  __device__ bool operator()(T x) const {
    return isNegative(x);
  }
};

// Integer division, fmod and remainder raise on a zero divisor instead of writing garbage.
template <typename TensorT>
void checkNoZero(THCState *state, const char *op, TensorT *divisor, int arg, const char *name) {
  if constexpr (std::is_integral_v<Elem<TensorT>>)
    THArgCheck(!anyOf(state, divisor, IsZero{}), arg, "%s: integer division by zero (%s holds a zero)", op, name);
}

// Integers have no negative powers (PyTorch's rule).
template <typename TensorT>
void checkNoNegative(THCState *state, const char *op, TensorT *exponent, int arg, const char *name) {
  if constexpr (std::is_integral_v<Elem<TensorT>> && std::is_signed_v<Elem<TensorT>>)
    THArgCheck(!anyOf(state, exponent, IsNegative{}), arg,
               "%s: integers to negative integer powers are not allowed (%s holds a negative value)", op, name);
}

}  // namespace thc

#endif
