#ifndef TH_GENERIC_FILE
#error "compile THNN/SpatialConvolution.cpp instead"
#endif

/* c [m x n] = alpha op(a) op(b) + beta c on row-major matrices with row strides lda, ldb, ldc
 * (c is not read when beta == 0). Column-major BLAS computes the transpose c^T = op(b)^T op(a)^T. */
static void THNN_(gemm)(bool transA, bool transB, int64_t m, int64_t n, int64_t k, scalar_t alpha, const scalar_t *a,
                        int64_t lda, const scalar_t *b, int64_t ldb, scalar_t beta, scalar_t *c, int64_t ldc) {
  THBlas_(gemm)(transB ? 't' : 'n', transA ? 't' : 'n', n, m, k, alpha, const_cast<scalar_t *>(b), ldb,
                const_cast<scalar_t *>(a), lda, beta, c, ldc);
}
