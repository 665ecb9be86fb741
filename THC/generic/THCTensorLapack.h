#ifndef THC_GENERIC_FILE
#error "include THC/THCTensorLapack.h instead"
#endif

#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)

/* Solves a x = b for square a [n, n] and b [n, k] or [n]: rb = x [n, k], ra = the LU
 * factors of a (unit lower L below the diagonal, U on and above it). */
THC_API void THCTensor_(gesv)(THCState *state, THCTensor *rb, THCTensor *ra, THCTensor *b, THCTensor *a);
/* ra = the inverse of square a (LU factorization, then getrs on the identity). */
THC_API void THCTensor_(getri)(THCState *state, THCTensor *ra, THCTensor *a);
/* Cholesky factor of symmetric positive definite a: uplo "U" gives upper U with
 * a = U^T U, "L" lower L with a = L L^T; the other triangle of ra is zero. */
THC_API void THCTensor_(potrf)(THCState *state, THCTensor *ra, THCTensor *a, const char *uplo);
/* Solves A x = b given the Cholesky factor a of A (as potrf returns it for uplo). */
THC_API void THCTensor_(potrs)(THCState *state, THCTensor *rb, THCTensor *b, THCTensor *a, const char *uplo);
/* ra = the inverse of A (full, symmetric) given the Cholesky factor a of A. */
THC_API void THCTensor_(potri)(THCState *state, THCTensor *ra, THCTensor *a, const char *uplo);
/* Eigen-decomposition of symmetric a [n, n], reading the uplo triangle: re = eigenvalues [n]
 * in ascending order; with jobz "V", rv = eigenvectors as columns [n, n] (with "N" rv is
 * left as it is). */
THC_API void THCTensor_(syev)(THCState *state, THCTensor *re, THCTensor *rv, THCTensor *a, const char *jobz,
                              const char *uplo);
/* a [m, n] = ru diag(rs) rv^T with k = min(m, n) and rs [k] descending. jobu "S":
 * ru [m, k], rv [n, k]; "A": ru [m, m], rv [n, n]; "N": only rs (ru, rv left as they are). */
THC_API void THCTensor_(gesvd)(THCState *state, THCTensor *ru, THCTensor *rs, THCTensor *rv, THCTensor *a,
                               const char *jobu);
/* a [m, n] = rq rr with k = min(m, n): rq [m, k] has orthonormal columns, rr [k, n] is
 * upper triangular (geqrf, then orgqr). */
THC_API void THCTensor_(qr)(THCState *state, THCTensor *rq, THCTensor *rr, THCTensor *a);
/* LU factorization with partial pivoting of a [m, n]: ra = L and U as in gesv, rpivots =
 * min(m, n) row interchanges, 1-based as LAPACK gives them whatever TH_INDEX_BASE. */
THC_API void THCTensor_(getrf)(THCState *state, THCTensor *ra, THCudaIntTensor *rpivots, THCTensor *a);

#endif
