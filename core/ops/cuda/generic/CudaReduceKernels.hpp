#ifndef THC_GENERIC_FILE
#error "included by core/ops/cuda/CudaKernels.cpp through THCGenerateAllTypes.h"
#endif

// THC's reductions, scans and order statistics of element type scalar_t (THCTensorReduce.h,
// THCTensorSort.h) with the signatures of core/ops/ReduceKernels.h: TH's semantics, as the
// CPU's kernels call them. Indices count from 0: the sort group is linked in its base-0
// build. THC has no reduction on Half.
template <>
struct CudaReduceKernels<scalar_t> {
#if !defined(TH_REAL_IS_HALF)
  static THCTensor *dev(const Tensor &t) { return CudaKernels<scalar_t>::dev(t); }

  static Scalar sumAll(const Tensor &t) { return scalarOf(THCTensor_(sumall)(state(), dev(t))); }
  static Scalar prodAll(const Tensor &t) { return scalarOf(THCTensor_(prodall)(state(), dev(t))); }
  static Scalar maxAll(const Tensor &t) { return scalarOf(THCTensor_(maxall)(state(), dev(t))); }
  static Scalar minAll(const Tensor &t) { return scalarOf(THCTensor_(minall)(state(), dev(t))); }
  static Scalar medianAll(const Tensor &t) { return scalarOf(THCTensor_(medianall)(state(), dev(t))); }
  static Scalar trace(const Tensor &t) { return scalarOf(THCTensor_(trace)(state(), dev(t))); }
  static void sum(const Tensor &r, const Tensor &t, int dim, bool keepdim) {
    THCTensor_(sum)(state(), dev(r), dev(t), dim, keepdim);
  }
  static void prod(const Tensor &r, const Tensor &t, int dim, bool keepdim) {
    THCTensor_(prod)(state(), dev(r), dev(t), dim, keepdim);
  }
  static void cumsum(const Tensor &r, const Tensor &t, int dim) { THCTensor_(cumsum)(state(), dev(r), dev(t), dim); }
  static void cumprod(const Tensor &r, const Tensor &t, int dim) { THCTensor_(cumprod)(state(), dev(r), dev(t), dim); }
  static bool equal(const Tensor &a, const Tensor &b) { return THCTensor_(equal)(state(), dev(a), dev(b)) != 0; }

  static void max(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool keepdim) {
    THCTensor_(max)(state(), dev(values), devLong(indices), dev(t), dim, keepdim);
  }
  static void min(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool keepdim) {
    THCTensor_(min)(state(), dev(values), devLong(indices), dev(t), dim, keepdim);
  }
  static void median(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool keepdim) {
    THCTensor_(median)(state(), dev(values), devLong(indices), dev(t), dim, keepdim);
  }
  static void mode(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool keepdim) {
    THCTensor_(mode)(state(), dev(values), devLong(indices), dev(t), dim, keepdim);
  }
  static void kthvalue(const Tensor &values, const Tensor &indices, const Tensor &t, int64_t k, int dim, bool keepdim) {
    THCTensor_(kthvalue)(state(), dev(values), devLong(indices), dev(t), k, dim, keepdim);
  }
  static void sort(const Tensor &values, const Tensor &indices, const Tensor &t, int dim, bool descending) {
    THCTensor_(sort)(state(), dev(values), devLong(indices), dev(t), dim, descending);
  }
  static void topk(const Tensor &values, const Tensor &indices, const Tensor &t, int64_t k, int dim, bool largest,
                   bool sorted) {
    THCTensor_(topk)(state(), dev(values), devLong(indices), dev(t), k, dim, largest, sorted);
  }

#if TH_REAL_IS_FLOATING
  static Scalar meanAll(const Tensor &t) { return scalarOf(THCTensor_(meanall)(state(), dev(t))); }
  static void mean(const Tensor &r, const Tensor &t, int dim, bool keepdim) {
    THCTensor_(mean)(state(), dev(r), dev(t), dim, keepdim);
  }
  static Scalar varAll(const Tensor &t, bool biased) { return scalarOf(THCTensor_(varall)(state(), dev(t), biased)); }
  static Scalar stdDevAll(const Tensor &t, bool biased) {
    return scalarOf(THCTensor_(stdall)(state(), dev(t), biased));
  }
  static void var(const Tensor &r, const Tensor &t, int dim, bool biased, bool keepdim) {
    THCTensor_(var)(state(), dev(r), dev(t), dim, biased, keepdim);
  }
  static void stdDev(const Tensor &r, const Tensor &t, int dim, bool biased, bool keepdim) {
    THCTensor_(std)(state(), dev(r), dev(t), dim, biased, keepdim);
  }
  // p in the element type, as the CPU's kernels pass it to TH
  static Scalar normAll(const Tensor &t, double p) {
    return scalarOf(THCTensor_(normall)(state(), dev(t), static_cast<scalar_t>(p)));
  }
  static void norm(const Tensor &r, const Tensor &t, double p, int dim, bool keepdim) {
    THCTensor_(norm)(state(), dev(r), dev(t), static_cast<scalar_t>(p), dim, keepdim);
  }
  static Scalar dist(const Tensor &a, const Tensor &b, double p) {
    return scalarOf(THCTensor_(dist)(state(), dev(a), dev(b), static_cast<scalar_t>(p)));
  }
  // THC has no such kernel; its masks do it: |x| < inf is false for infinities and NaNs alike.
  static void zeroNonFinite(const Tensor &t) {
    NoGradGuard plain;  // a kernel's temporaries, not the user's
    Tensor magnitude = empty(t.sizes(), t.dtype(), Device::CUDA);
    Tensor finite = empty(t.sizes(), ScalarType::Byte, Device::CUDA);
    Tensor nonFinite = empty(t.sizes(), ScalarType::Byte, Device::CUDA);
    THCTensor_(abs)(state(), dev(magnitude), dev(t));
    THCTensor_(ltValue)(state(), devByte(finite), dev(magnitude), static_cast<scalar_t>(INFINITY));
    THCudaByteTensor_eqValue(state(), devByte(nonFinite), devByte(finite), 0);
    THCTensor_(maskedFill)(state(), dev(t), devByte(nonFinite), scalar_t(0));
  }
#endif

#if defined(TH_REAL_IS_BYTE)
  // Over Bool or Byte masks, as on the CPU.
  static Scalar allAll(const Tensor &mask) { return Scalar(int64_t(THCTensor_(logicalall)(state(), dev(mask)))); }
  static Scalar anyAll(const Tensor &mask) { return Scalar(int64_t(THCTensor_(logicalany)(state(), dev(mask)))); }
  static void all(const Tensor &r, const Tensor &mask, int dim, bool keepdim) {
    THCTensor_(logicalAll)(state(), dev(r), dev(mask), dim, keepdim);
  }
  static void any(const Tensor &r, const Tensor &mask, int dim, bool keepdim) {
    THCTensor_(logicalAny)(state(), dev(r), dev(mask), dim, keepdim);
  }
#endif
#endif

  // Registers this type's kernels for dtype (Bool on the Byte kernels).
  static void add([[maybe_unused]] ScalarType dtype) {
#if !defined(TH_REAL_IS_HALF)
    ReduceKernels &k = reduceKernels();
#define CORE_CUDA_ADD(name) k.name.add(Device::CUDA, dtype, &name);
    CORE_CUDA_ADD(sumAll)
    CORE_CUDA_ADD(prodAll)
    CORE_CUDA_ADD(maxAll)
    CORE_CUDA_ADD(minAll)
    CORE_CUDA_ADD(medianAll)
    CORE_CUDA_ADD(trace)
    CORE_CUDA_ADD(sum)
    CORE_CUDA_ADD(prod)
    CORE_CUDA_ADD(cumsum)
    CORE_CUDA_ADD(cumprod)
    CORE_CUDA_ADD(equal)
    CORE_CUDA_ADD(max)
    CORE_CUDA_ADD(min)
    CORE_CUDA_ADD(median)
    CORE_CUDA_ADD(mode)
    CORE_CUDA_ADD(kthvalue)
    CORE_CUDA_ADD(sort)
    CORE_CUDA_ADD(topk)
#if TH_REAL_IS_FLOATING
    CORE_CUDA_ADD(meanAll)
    CORE_CUDA_ADD(mean)
    CORE_CUDA_ADD(varAll)
    CORE_CUDA_ADD(stdDevAll)
    CORE_CUDA_ADD(var)
    CORE_CUDA_ADD(stdDev)
    CORE_CUDA_ADD(normAll)
    CORE_CUDA_ADD(norm)
    CORE_CUDA_ADD(dist)
    CORE_CUDA_ADD(zeroNonFinite)
#endif
#if defined(TH_REAL_IS_BYTE)
    CORE_CUDA_ADD(allAll)
    CORE_CUDA_ADD(anyAll)
    CORE_CUDA_ADD(all)
    CORE_CUDA_ADD(any)
#endif
#undef CORE_CUDA_ADD
#endif
  }
};
