#ifndef THC_GENERIC_FILE
#error "included by core/ops/cuda/CudaKernels.cpp through THCGenerateAllTypes.h"
#endif

// THC's cuBLAS products and cuSOLVER factorizations (THCTensorMathBlas.h, THCTensorLapack.h)
// for core/ops/LinalgKernels.h, Float and Double. Not here: integer products (cuBLAS has
// none), Half products (THC takes alpha and beta in Half, the CPU in float), lstsq and eig
// (THC has no gels or geev), and the kernels that read a factorization on the host
// (luDeterminant, pinverseFactor, luUnpack). Eigenvectors and singular vectors may differ
// from the CPU's by sign, as the header says of cuSOLVER.
template <>
struct CudaLinalgKernels<scalar_t> {
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
  static THCTensor *dev(const Tensor &t) { return CudaKernels<scalar_t>::dev(t); }
  static const char *uplo(bool upper) { return upper ? "U" : "L"; }

#define CORE_CUDA_ADD_PRODUCT(name)                                                                                 \
  static void name(const Tensor &r, Scalar beta, const Tensor &t, Scalar alpha, const Tensor &x, const Tensor &y) { \
    THCTensor_(name)(state(), dev(r), beta.to<scalar_t>(), dev(t), alpha.to<scalar_t>(), dev(x), dev(y));           \
  }
  CORE_CUDA_ADD_PRODUCT(addmm)
  CORE_CUDA_ADD_PRODUCT(addmv)
  CORE_CUDA_ADD_PRODUCT(addr)
  CORE_CUDA_ADD_PRODUCT(addbmm)
  CORE_CUDA_ADD_PRODUCT(baddbmm)
#undef CORE_CUDA_ADD_PRODUCT

  static Scalar dot(const Tensor &a, const Tensor &b) { return scalarOf(THCTensor_(dot)(state(), dev(a), dev(b))); }
  static void inverse(const Tensor &r, const Tensor &a) { THCTensor_(getri)(state(), dev(r), dev(a)); }
  // pivots 1-based whatever the base, as LAPACK's and the CPU's
  static void luFactor(const Tensor &lu, const Tensor &pivots, const Tensor &a) {
    THCTensor_(getrf)(state(), dev(lu), reinterpret_cast<THCudaIntTensor *>(pivots.raw()), dev(a));
  }
  static void solve(const Tensor &x, const Tensor &lu, const Tensor &b, const Tensor &a) {
    THCTensor_(gesv)(state(), dev(x), dev(lu), dev(b), dev(a));
  }
  static void cholesky(const Tensor &r, const Tensor &a, bool upper) {
    THCTensor_(potrf)(state(), dev(r), dev(a), uplo(upper));
  }
  static void choleskyInverse(const Tensor &r, const Tensor &a, bool upper) {
    THCTensor_(potri)(state(), dev(r), dev(a), uplo(upper));
  }
  static void choleskySolve(const Tensor &x, const Tensor &b, const Tensor &f, bool upper) {
    THCTensor_(potrs)(state(), dev(x), dev(b), dev(f), uplo(upper));
  }
  static void symeig(const Tensor &e, const Tensor &v, const Tensor &a, bool eigenvectors, bool upper) {
    THCTensor_(syev)(state(), dev(e), dev(v), dev(a), eigenvectors ? "V" : "N", uplo(upper));
  }
  static void svd(const Tensor &u, const Tensor &s, const Tensor &v, const Tensor &a, const char *job) {
    THCTensor_(gesvd)(state(), dev(u), dev(s), dev(v), dev(a), job);
  }
  static void qr(const Tensor &q, const Tensor &r, const Tensor &a) { THCTensor_(qr)(state(), dev(q), dev(r), dev(a)); }
#endif

  static void add([[maybe_unused]] ScalarType dtype) {
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
    LinalgKernels &k = linalgKernels();
#define CORE_CUDA_ADD(name) k.name.add(Device::CUDA, dtype, &name);
    CORE_CUDA_ADD(addmm)
    CORE_CUDA_ADD(addmv)
    CORE_CUDA_ADD(addr)
    CORE_CUDA_ADD(addbmm)
    CORE_CUDA_ADD(baddbmm)
    CORE_CUDA_ADD(dot)
    CORE_CUDA_ADD(inverse)
    CORE_CUDA_ADD(luFactor)
    CORE_CUDA_ADD(solve)
    CORE_CUDA_ADD(cholesky)
    CORE_CUDA_ADD(choleskyInverse)
    CORE_CUDA_ADD(choleskySolve)
    CORE_CUDA_ADD(symeig)
    CORE_CUDA_ADD(svd)
    CORE_CUDA_ADD(qr)
#undef CORE_CUDA_ADD
#endif
  }
};
