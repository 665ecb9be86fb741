#ifndef TH_GENERIC_FILE
#error "include TH/THTensorLapack.h instead"
#endif

/* Solves a x = b for square a [n, n] and b [n, k] or [n]: rb = x [n, k], ra = the LU
 * factors of a (unit lower L below the diagonal, U on and above it). */
TH_API void THTensor_(gesv)(THTensor *rb, THTensor *ra, THTensor *b, THTensor *a);
/* Least squares for a [m, n] of full rank and b [m, k] or [m]: rb = x [n, k] minimising
 * |a x - b| (m >= n) or the minimum-norm solution of a x = b (m < n); ra = the QR (LQ)
 * factors of a as LAPACK's gels leaves them. */
TH_API void THTensor_(gels)(THTensor *rb, THTensor *ra, THTensor *b, THTensor *a);
/* ra = the inverse of square a (LU factorization, then getri); torch.inverse. */
TH_API void THTensor_(getri)(THTensor *ra, THTensor *a);
/* Cholesky factor of symmetric positive definite a: uplo "U" gives upper U with
 * a = U^T U, "L" lower L with a = L L^T; the other triangle of ra is zero. */
TH_API void THTensor_(potrf)(THTensor *ra, THTensor *a, const char *uplo);
/* Cholesky factorisation with complete pivoting of a positive semidefinite a: P' A P = U'U
 * (uplo "U") or L L' ("L"); piv (1-D, n) gets P's columns as 0-based indices. tol <= 0 takes
 * LAPACK's default; a of lower rank than n raises an error. */
TH_API void THTensor_(pstrf)(THTensor *ra, struct THIntTensor *piv, THTensor *a, const char *uplo, scalar_t tol);
/* Solves A x = b given the Cholesky factor a of A (as potrf returns it for uplo). */
TH_API void THTensor_(potrs)(THTensor *rb, THTensor *b, THTensor *a, const char *uplo);
/* ra = the inverse of A (full, symmetric) given the Cholesky factor a of A. */
TH_API void THTensor_(potri)(THTensor *ra, THTensor *a, const char *uplo);
/* Eigen-decomposition of symmetric a [n, n], reading the uplo triangle: re = eigenvalues [n]
 * in ascending order; with jobz "V", rv = eigenvectors as columns [n, n] (with "N" rv is
 * left as it is). */
TH_API void THTensor_(syev)(THTensor *re, THTensor *rv, THTensor *a, const char *jobz, const char *uplo);
/* Eigenvalues of square a: re [n, 2] holds real and imaginary parts; with jobvr "V", rv
 * [n, n] holds right eigenvectors as columns, a complex pair as LAPACK packs it (real
 * part in column j, imaginary part in column j+1). */
TH_API void THTensor_(geev)(THTensor *re, THTensor *rv, THTensor *a, const char *jobvr);
/* a [m, n] = ru diag(rs) rv^T with k = min(m, n) and rs [k] descending. jobu "S":
 * ru [m, k], rv [n, k]; "A": ru [m, m], rv [n, n]; "N": only rs (ru, rv left as they are). */
TH_API void THTensor_(gesvd)(THTensor *ru, THTensor *rs, THTensor *rv, THTensor *a, const char *jobu);
/* a [m, n] = rq rr with k = min(m, n): rq [m, k] has orthonormal columns, rr [k, n] is
 * upper triangular (geqrf, then orgqr). */
TH_API void THTensor_(qr)(THTensor *rq, THTensor *rr, THTensor *a);
/* The two halves of qr, as torch7 exposes them: geqrf's ra [m, n] holds R on and above the
 * diagonal and the Householder reflectors below it, rtau [k] their scales; orgqr turns the
 * first k = tau's size columns of a copy of a (geqrf's ra) into Q, rq [m, n]; ormqr gives
 * rc = Q c (side "L") or c Q ("R"), with Q^T for trans "T", c [m, n], without forming Q. */
TH_API void THTensor_(geqrf)(THTensor *ra, THTensor *rtau, THTensor *a);
TH_API void THTensor_(orgqr)(THTensor *rq, THTensor *a, THTensor *tau);
TH_API void THTensor_(ormqr)(THTensor *rc, THTensor *a, THTensor *tau, THTensor *c, const char *side,
                             const char *trans);
/* LU factorization with partial pivoting of a [m, n]: ra = L and U as in gesv, rpivots =
 * min(m, n) row interchanges, 1-based as LAPACK gives them whatever TH_INDEX_BASE (row i
 * was swapped with row rpivots[i]). */
TH_API void THTensor_(getrf)(THTensor *ra, struct THIntTensor *rpivots, THTensor *a);
/* Bunch-Kaufman factorization A = L D L^T of the symmetric a [n, n] (only its lower triangle
 * is read): ra = L (unit diagonal not stored) and D (1x1 and 2x2 blocks) packed in the lower
 * triangle, its upper triangle zero; rpivots = LAPACK's ipiv (1-based; a negative pair marks
 * a 2x2 block). Returns LAPACK's info: i > 0 when D[i-1][i-1] is exactly zero (the
 * factorization is complete but D is singular). */
TH_API int THTensor_(sytrf)(THTensor *ra, struct THIntTensor *rpivots, THTensor *a);
/* rb = A^-1 b for b [n, k] or [n], with A's factors (ld, pivots) from sytrf. */
TH_API void THTensor_(sytrs)(THTensor *rb, THTensor *b, THTensor *ld, struct THIntTensor *pivots);
