/* cuBLAS on raw device pointers, with TH's THBlas conventions (TH/generic/THBlas.h):
 * matrices column-major with leading dimension ld, trans 'n' or 't' (case-insensitive),
 * increments >= 1 (ignored when a vector has at most one element), ld >= max(1, rows of
 * the stored matrix); a bad argument raises as in TH.
 *
 *   // c [m, n] = a [m, k] @ b [k, n], all three column-major on the current device
 *   THCudaBlas_Sgemm(state, 'n', 'n', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m);
 *
 * Work is queued on the current device's current stream through the state's cuBLAS handle,
 * which uses TF32 tensor cores for float only when THCState_setAllowTF32 asked for them.
 * beta == 0 ignores the old values of c and y (NaN included), also when k (or the length
 * of x) is 0, where the result is beta c. Sizes are int64_t as in TH, but cuBLAS takes
 * int: a size, leading dimension, increment or batch count past INT_MAX raises an error
 * (the THCTensor_ products copy or split before that). A cuBLAS failure raises with the
 * status name. */
#ifndef THC_BLAS_H
#define THC_BLAS_H

#include "THC/THCGeneral.h"

/* c = beta c + alpha op(a) op(b), c m x n, k the inner size. */
THC_API void THCudaBlas_Sgemm(THCState *state, char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                              const float *a, int64_t lda, const float *b, int64_t ldb, float beta, float *c,
                              int64_t ldc);
THC_API void THCudaBlas_Dgemm(THCState *state, char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                              const double *a, int64_t lda, const double *b, int64_t ldb, double beta, double *c,
                              int64_t ldc);
/* Half matrices, products summed in float (cublasGemmEx, CUBLAS_COMPUTE_32F). */
THC_API void THCudaBlas_Hgemm(THCState *state, char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                              const THHalf *a, int64_t lda, const THHalf *b, int64_t ldb, float beta, THHalf *c,
                              int64_t ldc);

/* c_i = beta c_i + alpha op(a_i) op(b_i) for i < batchCount, where x_i starts strideX
 * elements after x_{i-1}. */
THC_API void THCudaBlas_SgemmStridedBatched(THCState *state, char transa, char transb, int64_t m, int64_t n, int64_t k,
                                            float alpha, const float *a, int64_t lda, int64_t strideA, const float *b,
                                            int64_t ldb, int64_t strideB, float beta, float *c, int64_t ldc,
                                            int64_t strideC, int64_t batchCount);
THC_API void THCudaBlas_DgemmStridedBatched(THCState *state, char transa, char transb, int64_t m, int64_t n, int64_t k,
                                            double alpha, const double *a, int64_t lda, int64_t strideA,
                                            const double *b, int64_t ldb, int64_t strideB, double beta, double *c,
                                            int64_t ldc, int64_t strideC, int64_t batchCount);
THC_API void THCudaBlas_HgemmStridedBatched(THCState *state, char transa, char transb, int64_t m, int64_t n, int64_t k,
                                            float alpha, const THHalf *a, int64_t lda, int64_t strideA, const THHalf *b,
                                            int64_t ldb, int64_t strideB, float beta, THHalf *c, int64_t ldc,
                                            int64_t strideC, int64_t batchCount);

/* y = beta y + alpha op(a) x, a m x n. */
THC_API void THCudaBlas_Sgemv(THCState *state, char trans, int64_t m, int64_t n, float alpha, const float *a,
                              int64_t lda, const float *x, int64_t incx, float beta, float *y, int64_t incy);
THC_API void THCudaBlas_Dgemv(THCState *state, char trans, int64_t m, int64_t n, double alpha, const double *a,
                              int64_t lda, const double *x, int64_t incx, double beta, double *y, int64_t incy);

/* a = a + alpha x y^T, a m x n. */
THC_API void THCudaBlas_Sger(THCState *state, int64_t m, int64_t n, float alpha, const float *x, int64_t incx,
                             const float *y, int64_t incy, float *a, int64_t lda);
THC_API void THCudaBlas_Dger(THCState *state, int64_t m, int64_t n, double alpha, const double *x, int64_t incx,
                             const double *y, int64_t incy, double *a, int64_t lda);

/* Sum of x[i] y[i]; the value comes back to the host, so these wait for the stream. Half
 * is summed in float (cublasGemmEx of a row by a column). */
THC_API float THCudaBlas_Sdot(THCState *state, int64_t n, const float *x, int64_t incx, const float *y, int64_t incy);
THC_API double THCudaBlas_Ddot(THCState *state, int64_t n, const double *x, int64_t incx, const double *y,
                               int64_t incy);
THC_API float THCudaBlas_Hdot(THCState *state, int64_t n, const THHalf *x, int64_t incx, const THHalf *y, int64_t incy);

/* x = alpha x (Half computed in float). */
THC_API void THCudaBlas_Sscal(THCState *state, int64_t n, float alpha, float *x, int64_t incx);
THC_API void THCudaBlas_Dscal(THCState *state, int64_t n, double alpha, double *x, int64_t incx);
THC_API void THCudaBlas_Hscal(THCState *state, int64_t n, float alpha, THHalf *x, int64_t incx);

#endif
