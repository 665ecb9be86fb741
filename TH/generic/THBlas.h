#ifndef TH_GENERIC_FILE
#error "include TH/THBlas.h instead"
#endif

/* Fortran BLAS semantics: matrices are column-major with leading dimension ld, trans is
 * 'n' or 't' (case-insensitive). Increments must be >= 1 (ignored when n <= 1) and ld at
 * least max(1, rows of the stored matrix); a bad argument raises an error. */
TH_API void THBlas_(swap)(int64_t n, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy);
TH_API void THBlas_(scal)(int64_t n, scalar_t a, scalar_t *x, int64_t incx);
TH_API void THBlas_(copy)(int64_t n, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy);
TH_API void THBlas_(axpy)(int64_t n, scalar_t a, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy);
/* Accumulates in accreal (double for Float, int64 for integer types). */
TH_API accreal THBlas_(dot)(int64_t n, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy);
/* y = beta y + alpha op(A) x with A m x n; y is ignored when beta == 0. */
TH_API void THBlas_(gemv)(char trans, int64_t m, int64_t n, scalar_t alpha, scalar_t *a, int64_t lda, scalar_t *x,
                          int64_t incx, scalar_t beta, scalar_t *y, int64_t incy);
/* A = A + alpha x y^T with A m x n. */
TH_API void THBlas_(ger)(int64_t m, int64_t n, scalar_t alpha, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy,
                         scalar_t *a, int64_t lda);
/* C = beta C + alpha op(A) op(B) with C m x n and k the inner size; C is ignored when beta == 0. */
TH_API void THBlas_(gemm)(char transa, char transb, int64_t m, int64_t n, int64_t k, scalar_t alpha, scalar_t *a,
                          int64_t lda, scalar_t *b, int64_t ldb, scalar_t beta, scalar_t *c, int64_t ldc);
