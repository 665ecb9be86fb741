#ifndef THC_GENERIC_FILE
#error "included by core/ops/cuda/CudaKernels.cpp through THCGenerateAllTypes.h"
#endif

// THC's kernels of element type scalar_t for core/ops/MathKernels.h, as the CPU's call TH's.
// Left to the CPU: histc (PyTorch's bin rule, not TH's, which THC follows) and the
// sequences (written into a given strided r; THC's arange and linspace size r themselves
// and space the points otherwise).
template <>
struct CudaMathKernels<scalar_t> {
#if !defined(TH_REAL_IS_HALF)
  static THCTensor *dev(const Tensor &t) { return CudaKernels<scalar_t>::dev(t); }

  static void clamp(const Tensor &r, const Tensor &t, std::optional<Scalar> min, std::optional<Scalar> max) {
    if (min && max && min->to<scalar_t>() > max->to<scalar_t>()) {
      // PyTorch's min(max(x, lo), hi): hi wins when the bounds cross (THC's clamp gives lo)
      THCTensor_(cmaxValue)(state(), dev(r), dev(t), min->to<scalar_t>());
      THCTensor_(cminValue)(state(), dev(r), dev(r), max->to<scalar_t>());
    } else if (min && max) {
      THCTensor_(clamp)(state(), dev(r), dev(t), min->to<scalar_t>(), max->to<scalar_t>());
    } else if (min) {
      THCTensor_(cmaxValue)(state(), dev(r), dev(t), min->to<scalar_t>());
    } else {
      THCTensor_(cminValue)(state(), dev(r), dev(t), max->to<scalar_t>());
    }
  }
  static void addcmul(const Tensor &r, const Tensor &self, Scalar value, const Tensor &t1, const Tensor &t2) {
    THCTensor_(addcmul)(state(), dev(r), dev(self), value.to<scalar_t>(), dev(t1), dev(t2));
  }
  static void addcdiv(const Tensor &r, const Tensor &self, Scalar value, const Tensor &t1, const Tensor &t2) {
    THCTensor_(addcdiv)(state(), dev(r), dev(self), value.to<scalar_t>(), dev(t1), dev(t2));
  }
  // THC has no select: r = b, then a's elements where cond holds, in row-major order, go to
  // the same places of r (r is new, of the common shape; a and b may be expanded).
  static void where(const Tensor &r, const Tensor &cond, const Tensor &a, const Tensor &b) {
    NoGradGuard plain;  // a kernel's temporary, not the user's
    THCTensor_(copy)(state(), dev(r), dev(b));
    Tensor picked = empty({0}, r.dtype(), Device::CUDA);
    THCTensor_(maskedSelect)(state(), dev(picked), dev(a), devByte(cond));
    THCTensor_(maskedCopy)(state(), dev(r), devByte(cond), dev(picked));
  }
  static void cross(const Tensor &r, const Tensor &a, const Tensor &b, int dim) {
    THCTensor_(cross)(state(), dev(r), dev(a), dev(b), dim);
  }
#if TH_REAL_IS_FLOATING
  static void lerp(const Tensor &r, const Tensor &a, const Tensor &b, Scalar weight) {
    THCTensor_(lerp)(state(), dev(r), dev(a), dev(b), weight.to<scalar_t>());
  }
  static void renorm(const Tensor &r, const Tensor &t, double p, int dim, double maxnorm) {
    THCTensor_(renorm)(state(), dev(r), dev(t), static_cast<scalar_t>(p), dim, static_cast<scalar_t>(maxnorm));
  }
#endif
#endif

  // Registers this type's kernels for dtype (Bool on the Byte kernels).
  static void add([[maybe_unused]] ScalarType dtype) {
#if !defined(TH_REAL_IS_HALF)
    MathKernels &k = mathKernels();
#define CORE_CUDA_ADD(name) k.name.add(Device::CUDA, dtype, &name);
    CORE_CUDA_ADD(clamp)
    CORE_CUDA_ADD(addcmul)
    CORE_CUDA_ADD(addcdiv)
    CORE_CUDA_ADD(where)
    CORE_CUDA_ADD(cross)
#if TH_REAL_IS_FLOATING
    CORE_CUDA_ADD(lerp)
    CORE_CUDA_ADD(renorm)
#endif
#undef CORE_CUDA_ADD
#endif
  }
};
