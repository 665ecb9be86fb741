#include "THC/THCBlas.h"

#include <cublas_v2.h>

#include <climits>
#include <type_traits>

#include "THC/THCCachingAllocator.h"
#include "THC/THCLazyLibrary.h"

namespace {

void checkStatus(cublasStatus_t status, const char *fn) {
  if (status != CUBLAS_STATUS_SUCCESS)
    THError("%s: cuBLAS error %s (%s)", fn, THC_LAZY(Cublas, cublasGetStatusName)(status),
            THC_LAZY(Cublas, cublasGetStatusString)(status));
}

// The state's handle for the current device and stream, scalars passed from the host.
cublasHandle_t handleOf(THCState *state, const char *fn) {
  cublasHandle_t handle = THCState_getCurrentBlasHandle(state);
  checkStatus(THC_LAZY(Cublas, cublasSetPointerMode)(handle, CUBLAS_POINTER_MODE_HOST), fn);
  return handle;
}

// The argument checks of TH's THBlas (TH/THBlas.cpp), with the same messages.
bool isTrans(const char *fn, char t, int arg) {
  if (t == 'n' || t == 'N') return false;
  if (t == 't' || t == 'T' || t == 'c' || t == 'C') return true;
  THArgCheck(false, arg, "%s: transpose flag must be 'n' or 't', got '%c'", fn, t);
  return false;
}

// cublas_api.h overloads these two for C++ (old code passing a cudaDataType compute type);
// the C functions are the ones THC calls.
using GemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
                                  const void *, cudaDataType, int, const void *, cudaDataType, int, const void *,
                                  void *, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
using GemmStridedBatchedEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                                const void *, const void *, cudaDataType, int, long long, const void *,
                                                cudaDataType, int, long long, const void *, void *, cudaDataType, int,
                                                long long, int, cublasComputeType_t, cublasGemmAlgo_t);

cublasOperation_t op(bool trans) { return trans ? CUBLAS_OP_T : CUBLAS_OP_N; }

void checkSize(const char *fn, int64_t n, int arg) {
  THArgCheck(n >= 0, arg, "%s: size must be >= 0, got %lld", fn, (long long)n);
}

int64_t checkInc(const char *fn, int64_t n, int64_t inc, int arg) {
  if (n <= 1) return 1;
  THArgCheck(inc >= 1, arg, "%s: increment must be >= 1, got %lld", fn, (long long)inc);
  return inc;
}

int64_t checkLd(const char *fn, int64_t rows, int64_t cols, int64_t ld, int arg) {
  const int64_t least = rows > 1 ? rows : 1;
  if (cols <= 1) return least;
  THArgCheck(ld >= least, arg, "%s: leading dimension %lld is smaller than max(1, %lld)", fn, (long long)ld,
             (long long)rows);
  return ld;
}

// cuBLAS's int arguments.
int toInt(const char *fn, const char *what, int64_t v) {
  if (v > INT_MAX)
    THError("%s: %s = %lld is too large for cuBLAS, which takes at most INT_MAX = %d", fn, what, (long long)v, INT_MAX);
  return (int)v;
}

// The element types: the scalar type cuBLAS computes in, and the calls by type.
template <typename T>
struct Scalar {
  using type = T;
};
template <>
struct Scalar<THHalf> {
  using type = float;
};
template <typename T>
using ScalarOf = typename Scalar<T>::type;

cublasStatus_t scalCall(cublasHandle_t h, int n, float alpha, float *x, int incx) {
  return THC_LAZY(Cublas, cublasSscal)(h, n, &alpha, x, incx);
}
cublasStatus_t scalCall(cublasHandle_t h, int n, double alpha, double *x, int incx) {
  return THC_LAZY(Cublas, cublasDscal)(h, n, &alpha, x, incx);
}
cublasStatus_t scalCall(cublasHandle_t h, int n, float alpha, THHalf *x, int incx) {
  return THC_LAZY(Cublas, cublasScalEx)(h, n, &alpha, CUDA_R_32F, x, CUDA_R_16F, incx, CUDA_R_32F);
}

cublasStatus_t gemmCall(cublasHandle_t h, bool ta, bool tb, int m, int n, int k, float alpha, const float *a, int lda,
                        const float *b, int ldb, float beta, float *c, int ldc) {
  return THC_LAZY(Cublas, cublasSgemm)(h, op(ta), op(tb), m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
cublasStatus_t gemmCall(cublasHandle_t h, bool ta, bool tb, int m, int n, int k, double alpha, const double *a, int lda,
                        const double *b, int ldb, double beta, double *c, int ldc) {
  return THC_LAZY(Cublas, cublasDgemm)(h, op(ta), op(tb), m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
cublasStatus_t gemmCall(cublasHandle_t h, bool ta, bool tb, int m, int n, int k, float alpha, const THHalf *a, int lda,
                        const THHalf *b, int ldb, float beta, THHalf *c, int ldc) {
  return THC_LAZY_AS(Cublas, cublasGemmEx, GemmEx)(h, op(ta), op(tb), m, n, k, &alpha, a, CUDA_R_16F, lda, b,
                                                   CUDA_R_16F, ldb, &beta, c, CUDA_R_16F, ldc, CUBLAS_COMPUTE_32F,
                                                   CUBLAS_GEMM_DEFAULT);
}

cublasStatus_t gemmBatchedCall(cublasHandle_t h, bool ta, bool tb, int m, int n, int k, float alpha, const float *a,
                               int lda, long long sa, const float *b, int ldb, long long sb, float beta, float *c,
                               int ldc, long long sc, int count) {
  return THC_LAZY(Cublas, cublasSgemmStridedBatched)(h, op(ta), op(tb), m, n, k, &alpha, a, lda, sa, b, ldb, sb, &beta,
                                                     c, ldc, sc, count);
}
cublasStatus_t gemmBatchedCall(cublasHandle_t h, bool ta, bool tb, int m, int n, int k, double alpha, const double *a,
                               int lda, long long sa, const double *b, int ldb, long long sb, double beta, double *c,
                               int ldc, long long sc, int count) {
  return THC_LAZY(Cublas, cublasDgemmStridedBatched)(h, op(ta), op(tb), m, n, k, &alpha, a, lda, sa, b, ldb, sb, &beta,
                                                     c, ldc, sc, count);
}
cublasStatus_t gemmBatchedCall(cublasHandle_t h, bool ta, bool tb, int m, int n, int k, float alpha, const THHalf *a,
                               int lda, long long sa, const THHalf *b, int ldb, long long sb, float beta, THHalf *c,
                               int ldc, long long sc, int count) {
  return THC_LAZY_AS(Cublas, cublasGemmStridedBatchedEx, GemmStridedBatchedEx)(
      h, op(ta), op(tb), m, n, k, &alpha, a, CUDA_R_16F, lda, sa, b, CUDA_R_16F, ldb, sb, &beta, c, CUDA_R_16F, ldc, sc,
      count, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// c = beta c for a column-major m x n matrix (m, n, ldc checked). beta == 0 writes zero
// bytes, so that old NaNs go; otherwise one scal over the matrix when it is contiguous, else
// one per row or per column, whichever is fewer.
template <typename T>
void scaleMatrix(THCState *state, cublasHandle_t h, const char *fn, int64_t m, int64_t n, ScalarOf<T> beta, T *c,
                 int64_t ldc) {
  if (m == 0 || n == 0 || beta == ScalarOf<T>(1)) return;
  if (beta == ScalarOf<T>(0)) {
    THCudaCheck(cudaMemset2DAsync(c, ldc * sizeof(T), 0, m * sizeof(T), n, THCState_getCurrentStream(state)));
    return;
  }
  if (ldc == m && m * n <= INT_MAX) {
    checkStatus(scalCall(h, (int)(m * n), beta, c, 1), fn);
  } else if (m <= n) {
    for (int64_t i = 0; i < m; i++) checkStatus(scalCall(h, toInt(fn, "n", n), beta, c + i, toInt(fn, "ldc", ldc)), fn);
  } else {
    for (int64_t j = 0; j < n; j++) checkStatus(scalCall(h, toInt(fn, "m", m), beta, c + j * ldc, 1), fn);
  }
}

template <typename T>
void gemm(THCState *state, const char *fn, char transa, char transb, int64_t m, int64_t n, int64_t k, ScalarOf<T> alpha,
          const T *a, int64_t lda, const T *b, int64_t ldb, ScalarOf<T> beta, T *c, int64_t ldc) {
  const bool ta = isTrans(fn, transa, 1), tb = isTrans(fn, transb, 2);
  checkSize(fn, m, 3);
  checkSize(fn, n, 4);
  checkSize(fn, k, 5);
  lda = checkLd(fn, ta ? k : m, ta ? m : k, lda, 8);
  ldb = checkLd(fn, tb ? n : k, tb ? k : n, ldb, 10);
  ldc = checkLd(fn, m, n, ldc, 13);
  if (m == 0 || n == 0) return;
  cublasHandle_t h = handleOf(state, fn);
  const int im = toInt(fn, "m", m), in = toInt(fn, "n", n), ildc = toInt(fn, "ldc", ldc);
  // BLAS's C = beta C when nothing is summed; cuBLAS is not asked.
  if (k == 0) return scaleMatrix(state, h, fn, m, n, beta, c, ldc);
  checkStatus(gemmCall(h, ta, tb, im, in, toInt(fn, "k", k), alpha, a, toInt(fn, "lda", lda), b, toInt(fn, "ldb", ldb),
                       beta, c, ildc),
              fn);
}

template <typename T>
void gemmStridedBatched(THCState *state, const char *fn, char transa, char transb, int64_t m, int64_t n, int64_t k,
                        ScalarOf<T> alpha, const T *a, int64_t lda, int64_t strideA, const T *b, int64_t ldb,
                        int64_t strideB, ScalarOf<T> beta, T *c, int64_t ldc, int64_t strideC, int64_t count) {
  const bool ta = isTrans(fn, transa, 1), tb = isTrans(fn, transb, 2);
  checkSize(fn, m, 3);
  checkSize(fn, n, 4);
  checkSize(fn, k, 5);
  lda = checkLd(fn, ta ? k : m, ta ? m : k, lda, 8);
  ldb = checkLd(fn, tb ? n : k, tb ? k : n, ldb, 11);
  ldc = checkLd(fn, m, n, ldc, 15);
  checkSize(fn, count, 17);
  if (m == 0 || n == 0 || count == 0) return;
  cublasHandle_t h = handleOf(state, fn);
  const int im = toInt(fn, "m", m), in = toInt(fn, "n", n), ildc = toInt(fn, "ldc", ldc);
  const int icount = toInt(fn, "batchCount", count);
  if (k == 0) {
    if (ldc == m && strideC == m * n) return scaleMatrix(state, h, fn, m, n * count, beta, c, ldc);
    for (int64_t i = 0; i < count; i++) scaleMatrix(state, h, fn, m, n, beta, c + i * strideC, ldc);
    return;
  }
  checkStatus(gemmBatchedCall(h, ta, tb, im, in, toInt(fn, "k", k), alpha, a, toInt(fn, "lda", lda), strideA, b,
                              toInt(fn, "ldb", ldb), strideB, beta, c, ildc, strideC, icount),
              fn);
}

template <typename T>
void scal(THCState *state, const char *fn, int64_t n, ScalarOf<T> alpha, T *x, int64_t incx) {
  checkSize(fn, n, 1);
  incx = checkInc(fn, n, incx, 4);
  if (n == 0) return;
  cublasHandle_t h = handleOf(state, fn);
  checkStatus(scalCall(h, toInt(fn, "n", n), alpha, x, toInt(fn, "incx", incx)), fn);
}

// y = beta y for a strided vector of n elements (checked), beta == 0 writing zero bytes.
template <typename T>
void scaleVector(THCState *state, cublasHandle_t h, const char *fn, int64_t n, T beta, T *y, int64_t incy) {
  if (n == 0 || beta == T(1)) return;
  if (beta == T(0)) {
    THCudaCheck(cudaMemset2DAsync(y, incy * sizeof(T), 0, sizeof(T), n, THCState_getCurrentStream(state)));
    return;
  }
  checkStatus(scalCall(h, toInt(fn, "n", n), beta, y, toInt(fn, "incy", incy)), fn);
}

template <typename T>
void gemv(THCState *state, const char *fn, char trans, int64_t m, int64_t n, T alpha, const T *a, int64_t lda,
          const T *x, int64_t incx, T beta, T *y, int64_t incy) {
  const bool t = isTrans(fn, trans, 1);
  checkSize(fn, m, 2);
  checkSize(fn, n, 3);
  lda = checkLd(fn, m, n, lda, 6);
  const int64_t lenX = t ? m : n, lenY = t ? n : m;
  incx = checkInc(fn, lenX, incx, 8);
  incy = checkInc(fn, lenY, incy, 11);
  if (lenY == 0) return;
  cublasHandle_t h = handleOf(state, fn);
  if (lenX == 0) return scaleVector(state, h, fn, lenY, beta, y, incy);
  const int im = toInt(fn, "m", m), in = toInt(fn, "n", n), ilda = toInt(fn, "lda", lda);
  const int ix = toInt(fn, "incx", incx), iy = toInt(fn, "incy", incy);
  if constexpr (std::is_same_v<T, float>)
    checkStatus(THC_LAZY(Cublas, cublasSgemv)(h, op(t), im, in, &alpha, a, ilda, x, ix, &beta, y, iy), fn);
  else
    checkStatus(THC_LAZY(Cublas, cublasDgemv)(h, op(t), im, in, &alpha, a, ilda, x, ix, &beta, y, iy), fn);
}

template <typename T>
void ger(THCState *state, const char *fn, int64_t m, int64_t n, T alpha, const T *x, int64_t incx, const T *y,
         int64_t incy, T *a, int64_t lda) {
  checkSize(fn, m, 1);
  checkSize(fn, n, 2);
  incx = checkInc(fn, m, incx, 5);
  incy = checkInc(fn, n, incy, 7);
  lda = checkLd(fn, m, n, lda, 9);
  if (m == 0 || n == 0) return;
  cublasHandle_t h = handleOf(state, fn);
  const int im = toInt(fn, "m", m), in = toInt(fn, "n", n), ilda = toInt(fn, "lda", lda);
  const int ix = toInt(fn, "incx", incx), iy = toInt(fn, "incy", incy);
  if constexpr (std::is_same_v<T, float>)
    checkStatus(THC_LAZY(Cublas, cublasSger)(h, im, in, &alpha, x, ix, y, iy, a, ilda), fn);
  else
    checkStatus(THC_LAZY(Cublas, cublasDger)(h, im, in, &alpha, x, ix, y, iy, a, ilda), fn);
}

template <typename T>
ScalarOf<T> dot(THCState *state, const char *fn, int64_t n, const T *x, int64_t incx, const T *y, int64_t incy) {
  checkSize(fn, n, 1);
  incx = checkInc(fn, n, incx, 3);
  incy = checkInc(fn, n, incy, 5);
  if (n == 0) return 0;
  cublasHandle_t h = handleOf(state, fn);
  const int in = toInt(fn, "n", n), ix = toInt(fn, "incx", incx), iy = toInt(fn, "incy", incy);
  ScalarOf<T> result = 0;
  if constexpr (std::is_same_v<T, float>) {
    checkStatus(THC_LAZY(Cublas, cublasSdot)(h, in, x, ix, y, iy, &result), fn);
  } else if constexpr (std::is_same_v<T, double>) {
    checkStatus(THC_LAZY(Cublas, cublasDdot)(h, in, x, ix, y, iy, &result), fn);
  } else {
    // x as a 1 x n row (ld incx) times y as an n x 1 column (y^T stored as a row, ld incy),
    // into one float on the device.
    cudaStream_t stream = THCState_getCurrentStream(state);
    float *out = static_cast<float *>(THCCachingAllocator_malloc(sizeof(float), stream));
    const float one = 1, zero = 0;
    const cublasStatus_t status = THC_LAZY_AS(Cublas, cublasGemmEx, GemmEx)(
        h, CUBLAS_OP_N, CUBLAS_OP_T, 1, 1, in, &one, x, CUDA_R_16F, ix, y, CUDA_R_16F, iy, &zero, out, CUDA_R_32F, 1,
        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cudaError_t err = cudaSuccess;
    if (status == CUBLAS_STATUS_SUCCESS) {
      err = cudaMemcpyAsync(&result, out, sizeof(float), cudaMemcpyDeviceToHost, stream);
      if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
    }
    THCCachingAllocator_free(out);
    checkStatus(status, fn);
    THCudaCheck(err);
  }
  return result;
}

}  // namespace

// clang-format off
#define THC_BLAS_TYPES(_) _(S, float, float) _(D, double, double) _(H, THHalf, float)
// clang-format on

#define THC_BLAS_DEFINE(P, T, S)                                                                                      \
  void THCudaBlas_##P##gemm(THCState *state, char transa, char transb, int64_t m, int64_t n, int64_t k, S alpha,      \
                            const T *a, int64_t lda, const T *b, int64_t ldb, S beta, T *c, int64_t ldc) {            \
    gemm<T>(state, "THCudaBlas_" #P "gemm", transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);            \
  }                                                                                                                   \
  void THCudaBlas_##P##gemmStridedBatched(THCState *state, char transa, char transb, int64_t m, int64_t n, int64_t k, \
                                          S alpha, const T *a, int64_t lda, int64_t strideA, const T *b, int64_t ldb, \
                                          int64_t strideB, S beta, T *c, int64_t ldc, int64_t strideC,                \
                                          int64_t batchCount) {                                                       \
    gemmStridedBatched<T>(state, "THCudaBlas_" #P "gemmStridedBatched", transa, transb, m, n, k, alpha, a, lda,       \
                          strideA, b, ldb, strideB, beta, c, ldc, strideC, batchCount);                               \
  }                                                                                                                   \
  S THCudaBlas_##P##dot(THCState *state, int64_t n, const T *x, int64_t incx, const T *y, int64_t incy) {             \
    return dot<T>(state, "THCudaBlas_" #P "dot", n, x, incx, y, incy);                                                \
  }                                                                                                                   \
  void THCudaBlas_##P##scal(THCState *state, int64_t n, S alpha, T *x, int64_t incx) {                                \
    scal<T>(state, "THCudaBlas_" #P "scal", n, alpha, x, incx);                                                       \
  }
THC_BLAS_TYPES(THC_BLAS_DEFINE)
#undef THC_BLAS_DEFINE
#undef THC_BLAS_TYPES

#define THC_BLAS_DEFINE_LEVEL2(P, T)                                                                             \
  void THCudaBlas_##P##gemv(THCState *state, char trans, int64_t m, int64_t n, T alpha, const T *a, int64_t lda, \
                            const T *x, int64_t incx, T beta, T *y, int64_t incy) {                              \
    gemv<T>(state, "THCudaBlas_" #P "gemv", trans, m, n, alpha, a, lda, x, incx, beta, y, incy);                 \
  }                                                                                                              \
  void THCudaBlas_##P##ger(THCState *state, int64_t m, int64_t n, T alpha, const T *x, int64_t incx, const T *y, \
                           int64_t incy, T *a, int64_t lda) {                                                    \
    ger<T>(state, "THCudaBlas_" #P "ger", m, n, alpha, x, incx, y, incy, a, lda);                                \
  }
THC_BLAS_DEFINE_LEVEL2(S, float)
THC_BLAS_DEFINE_LEVEL2(D, double)
#undef THC_BLAS_DEFINE_LEVEL2
