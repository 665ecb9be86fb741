#ifndef THC_GENERIC_FILE
#error "compile THC/THCTensorLapack.cpp instead"
#endif

#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)

/* An uninitialised column-major rows x cols matrix with ld >= rows rows of storage, as a
 * tensor [ld, cols] with strides [1, ld]. */
static THCTensor *THCTensor_(newWork)(THCState *state, int64_t ld, int64_t cols) {
  const int64_t size[2] = {ld, cols}, stride[2] = {1, ld};
  return THCTensor_(newWithSize)(state, 2, size, stride);
}

/* A column-major copy of src, viewed as a rows x cols matrix in src's row-major element
 * order (so an [n] vector is an [n, 1] matrix), with ld >= rows rows of storage: the layout
 * cuSOLVER reads and overwrites. */
static THCTensor *THCTensor_(newColumnMajor)(THCState *state, THCTensor *src, int64_t rows, int64_t cols, int64_t ld) {
  auto work = own(state, THCTensor_(newWork)(state, ld, cols));
  auto view = own(state, THCTensor_(newNarrow)(state, work.get(), 0, 0, rows));
  THCTensor_(copy)(state, view.get(), src);
  return work.release();
}

/* The n x n identity, column-major with ld = max(1, n). */
static THCTensor *THCTensor_(newIdentity)(THCState *state, int64_t n) {
  auto eye = own(state, THCTensor_(newWork)(state, lda(n), n));
  THCTensor_(zero)(state, eye.get());
  if (n > 0) {
    auto diagonal = own(state, THCTensor_(newWithStorage1d)(state, eye->storage, eye->storageOffset, n, lda(n) + 1));
    THCTensor_(fill)(state, diagonal.get(), 1);
  }
  return eye.release();
}

/* r = the top-left rows x cols block of work. */
static void THCTensor_(setResult)(THCState *state, THCTensor *r, THCTensor *work, int64_t rows, int64_t cols) {
  auto view = own(state, THCTensor_(newNarrow)(state, work, 0, 0, rows));
  THCTensor_(narrow)(state, view.get(), nullptr, 1, 0, cols);
  THCTensor_(resize2d)(state, r, rows, cols);
  THCTensor_(copy)(state, r, view.get());
}

/* r = the first n elements of the vector v. */
static void THCTensor_(setResult1d)(THCState *state, THCTensor *r, THCTensor *v, int64_t n) {
  auto view = own(state, THCTensor_(newNarrow)(state, v, 0, 0, n));
  THCTensor_(resize1d)(state, r, n);
  THCTensor_(copy)(state, r, view.get());
}

/* Writes the uplo triangle of the column-major n x n matrix at a (leading dimension lda)
 * into the n x n matrix at c (ldc), leaving c's other triangle as it is: through cuBLAS's
 * packed format (trttp, then tpttr). */
static void THCTensor_(copyTriangle)(const Solver &s, char uplo, int64_t n, const scalar_t *a, int ldA, scalar_t *c,
                                     int ldC) {
  if (n == 0) return;
  DeviceBuffer packed(sizeof(scalar_t) * (size_t)(n * (n + 1) / 2), s.stream);
  s.check(solver::trttp(s.blas, fillMode(uplo), (int)n, a, ldA, packed.as<scalar_t>()));
  s.check(solver::tpttr(s.blas, fillMode(uplo), (int)n, packed.as<scalar_t>(), c, ldC));
}

/* LU factorization of the column-major m x n work matrix A in place, row interchanges into
 * ipiv; a singular a raises, as TH's does. */
static void THCTensor_(luFactor)(const Solver &s, THCTensor *A, int64_t m, int64_t n, THCudaIntTensor *ipiv) {
  scalar_t *data = dataOf(A);
  int lwork = 0;
  s.check(solver::getrfBufferSize(s.handle, (int)m, (int)n, data, lda(m), &lwork));
  auto work = s.workspace<scalar_t>(lwork);
  s.check(solver::getrf(s.handle, (int)m, (int)n, data, lda(m), work->as<scalar_t>(), dataOf(ipiv), s.devInfo()));
  const int info = s.readInfo();
  if (info > 0)
    THError("%s: a is singular (U[%d][%d] of its LU factorization is exactly zero)", s.fn, info - 1, info - 1);
}

void THCTensor_(gesv)(THCState *state, THCTensor *rb, THCTensor *ra, THCTensor *b, THCTensor *a) {
  if (!a) a = ra;
  if (!b) b = rb;
  checkSquare("gesv", "a", a, 4);
  const int64_t k = checkRhs("gesv", b, 3, a), n = a->size[0];
  thc::DeviceGuard guard(thc::commonDevice("gesv", rb, ra, b, a));
  Solver s(state, "gesv");
  auto A = own(state, THCTensor_(newColumnMajor)(state, a, n, n, lda(n)));
  auto B = own(state, THCTensor_(newColumnMajor)(state, b, n, k, lda(n)));
  auto ipiv = own(state, THCudaIntTensor_newWithSize1d(state, std::max<int64_t>(n, 1)));
  if (n > 0) {
    THCTensor_(luFactor)(s, A.get(), n, n, ipiv.get());
    if (k > 0) {
      s.check(solver::getrs(s.handle, (int)n, (int)k, dataOf(A.get()), lda(n), dataOf(ipiv.get()), dataOf(B.get()),
                            lda(n), s.devInfo()));
      s.readInfo();
    }
  }
  THCTensor_(setResult)(state, rb, B.get(), n, k);
  THCTensor_(setResult)(state, ra, A.get(), n, n);
}

void THCTensor_(getri)(THCState *state, THCTensor *ra, THCTensor *a) {
  if (!a) a = ra;
  checkSquare("getri", "a", a, 2);
  const int64_t n = a->size[0];
  thc::DeviceGuard guard(thc::commonDevice("getri", ra, a));
  Solver s(state, "getri");
  auto A = own(state, THCTensor_(newColumnMajor)(state, a, n, n, lda(n)));
  auto ipiv = own(state, THCudaIntTensor_newWithSize1d(state, std::max<int64_t>(n, 1)));
  auto inverse = own(state, THCTensor_(newIdentity)(state, n));
  if (n > 0) {
    THCTensor_(luFactor)(s, A.get(), n, n, ipiv.get());
    s.check(solver::getrs(s.handle, (int)n, (int)n, dataOf(A.get()), lda(n), dataOf(ipiv.get()), dataOf(inverse.get()),
                          lda(n), s.devInfo()));
    s.readInfo();
  }
  THCTensor_(setResult)(state, ra, inverse.get(), n, n);
}

void THCTensor_(potrf)(THCState *state, THCTensor *ra, THCTensor *a, const char *uplo) {
  if (!a) a = ra;
  checkSquare("potrf", "a", a, 2);
  const char ul = option("potrf", "uplo", uplo, "UL", 3);
  const int64_t n = a->size[0];
  thc::DeviceGuard guard(thc::commonDevice("potrf", ra, a));
  Solver s(state, "potrf");
  auto A = own(state, THCTensor_(newColumnMajor)(state, a, n, n, lda(n)));
  scalar_t *data = dataOf(A.get());
  if (n > 0) {
    int lwork = 0;
    s.check(solver::potrfBufferSize(s.handle, fillMode(ul), (int)n, data, lda(n), &lwork));
    auto work = s.workspace<scalar_t>(lwork);
    s.check(solver::potrf(s.handle, fillMode(ul), (int)n, data, lda(n), work->as<scalar_t>(), lwork, s.devInfo()));
    const int info = s.readInfo();
    if (info > 0) THError("potrf: a is not positive definite (its leading minor of order %d is not)", info);
  }
  // cuSOLVER leaves the other triangle as it was in a: the factor alone, on zeros.
  auto factor = own(state, THCTensor_(newWork)(state, lda(n), n));
  THCTensor_(zero)(state, factor.get());
  THCTensor_(copyTriangle)(s, ul, n, data, lda(n), dataOf(factor.get()), lda(n));
  THCTensor_(setResult)(state, ra, factor.get(), n, n);
}

void THCTensor_(potrs)(THCState *state, THCTensor *rb, THCTensor *b, THCTensor *a, const char *uplo) {
  if (!b) b = rb;
  checkSquare("potrs", "a", a, 3);
  const int64_t k = checkRhs("potrs", b, 2, a), n = a->size[0];
  const char ul = option("potrs", "uplo", uplo, "UL", 4);
  thc::DeviceGuard guard(thc::commonDevice("potrs", rb, b, a));
  Solver s(state, "potrs");
  auto A = own(state, THCTensor_(newColumnMajor)(state, a, n, n, lda(n)));
  auto B = own(state, THCTensor_(newColumnMajor)(state, b, n, k, lda(n)));
  if (n > 0 && k > 0) {
    s.check(solver::potrs(s.handle, fillMode(ul), (int)n, (int)k, dataOf(A.get()), lda(n), dataOf(B.get()), lda(n),
                          s.devInfo()));
    s.readInfo();
  }
  THCTensor_(setResult)(state, rb, B.get(), n, k);
}

void THCTensor_(potri)(THCState *state, THCTensor *ra, THCTensor *a, const char *uplo) {
  if (!a) a = ra;
  checkSquare("potri", "a", a, 2);
  const char ul = option("potri", "uplo", uplo, "UL", 3);
  const int64_t n = a->size[0];
  thc::DeviceGuard guard(thc::commonDevice("potri", ra, a));
  Solver s(state, "potri");
  auto A = own(state, THCTensor_(newColumnMajor)(state, a, n, n, lda(n)));
  scalar_t *data = dataOf(A.get());
  auto inverse = own(state, THCTensor_(newWork)(state, lda(n), n));
  if (n > 0) {
    int lwork = 0;
    s.check(solver::potriBufferSize(s.handle, fillMode(ul), (int)n, data, lda(n), &lwork));
    auto work = s.workspace<scalar_t>(lwork);
    s.check(solver::potri(s.handle, fillMode(ul), (int)n, data, lda(n), work->as<scalar_t>(), lwork, s.devInfo()));
    const int info = s.readInfo();
    if (info > 0)
      THError("potri: the factor a has a zero on its diagonal at [%d][%d]: A is singular", info - 1, info - 1);
    // cuSOLVER computes one triangle T of the symmetric inverse: the inverse is T + T^T with
    // T's own diagonal.
    auto triangle = own(state, THCTensor_(newWork)(state, lda(n), n));
    THCTensor_(zero)(state, triangle.get());
    THCTensor_(copyTriangle)(s, ul, n, data, lda(n), dataOf(triangle.get()), lda(n));
    s.check(solver::addTranspose(s.blas, (int)n, dataOf(triangle.get()), lda(n), dataOf(inverse.get()), lda(n)));
    auto from = own(state, THCTensor_(newWithStorage1d)(state, triangle->storage, triangle->storageOffset, n, n + 1));
    auto to = own(state, THCTensor_(newWithStorage1d)(state, inverse->storage, inverse->storageOffset, n, n + 1));
    THCTensor_(copy)(state, to.get(), from.get());
  }
  THCTensor_(setResult)(state, ra, inverse.get(), n, n);
}

void THCTensor_(syev)(THCState *state, THCTensor *re, THCTensor *rv, THCTensor *a, const char *jobz, const char *uplo) {
  if (!a) a = rv;
  checkSquare("syev", "a", a, 3);
  const char jz = option("syev", "jobz", jobz, "NV", 4);
  const char ul = option("syev", "uplo", uplo, "UL", 5);
  const int64_t n = a->size[0];
  thc::DeviceGuard guard(thc::commonDevice("syev", re, rv, a));
  Solver s(state, "syev");
  auto A = own(state, THCTensor_(newColumnMajor)(state, a, n, n, lda(n)));
  auto w = own(state, THCTensor_(newWithSize1d)(state, n));
  if (n > 0) {
    const cusolverEigMode_t mode = jz == 'V' ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    scalar_t *data = dataOf(A.get());
    int lwork = 0;
    s.check(solver::syevdBufferSize(s.handle, mode, fillMode(ul), (int)n, data, lda(n), dataOf(w.get()), &lwork));
    auto work = s.workspace<scalar_t>(lwork);
    s.check(solver::syevd(s.handle, mode, fillMode(ul), (int)n, data, lda(n), dataOf(w.get()), work->as<scalar_t>(),
                          lwork, s.devInfo()));
    const int info = s.readInfo();
    if (info > 0) THError("syev: no convergence (%d off-diagonal elements did not converge to zero)", info);
  }
  THCTensor_(setResult1d)(state, re, w.get(), n);
  if (jz == 'V') THCTensor_(setResult)(state, rv, A.get(), n, n);
}

/* cuSOLVER's gesvd takes rows >= cols only: a wide a [m, n] (m < n) is decomposed as
 * a^T = U S V^T, and then a = V S U^T. */
void THCTensor_(gesvd)(THCState *state, THCTensor *ru, THCTensor *rs, THCTensor *rv, THCTensor *a, const char *jobu) {
  checkMatrix("gesvd", "a", a, 4);
  const char job = option("gesvd", "jobu", jobu, "ASN", 5);
  const int64_t m = a->size[0], n = a->size[1], k = std::min(m, n);
  thc::DeviceGuard guard(thc::commonDevice("gesvd", ru, rs, rv, a));
  Solver s(state, "gesvd");
  const bool wide = m < n;
  const int64_t rows = wide ? n : m, cols = wide ? m : n;  // of the matrix decomposed, rows >= cols = k
  auto source = own(state, THCTensor_(newTranspose)(state, a, 0, 1));
  auto A = own(state, THCTensor_(newColumnMajor)(state, wide ? source.get() : a, rows, cols, lda(rows)));
  // U is rows x uCols, V^T is vtRows x cols (k = cols rows for "A" and "S" alike, as
  // rows >= cols); with "N" neither is referenced.
  const int64_t uCols = job == 'A' ? rows : job == 'S' ? k : 0, vtRows = job == 'N' ? 0 : cols;
  auto U = own(state, THCTensor_(newWork)(state, lda(rows), uCols));
  auto VT = own(state, THCTensor_(newWork)(state, lda(cols), vtRows == 0 ? 0 : cols));
  auto S = own(state, THCTensor_(newWithSize1d)(state, k));
  if (k > 0) {
    int lwork = 0;
    s.check(solver::gesvdBufferSize(s.handle, (int)rows, (int)cols, dataOf(A.get()), &lwork));
    auto work = s.workspace<scalar_t>(lwork);
    auto rwork = s.workspace<scalar_t>((int)k);
    s.check(solver::gesvd(s.handle, job, (int)rows, (int)cols, dataOf(A.get()), lda(rows), dataOf(S.get()),
                          dataOf(U.get()), lda(rows), dataOf(VT.get()), lda(cols), work->as<scalar_t>(), lwork,
                          rwork->as<scalar_t>(), s.devInfo()));
    const int info = s.readInfo();
    if (info > 0) THError("gesvd: no convergence (%d superdiagonals of the bidiagonal form did not converge)", info);
  } else if (job == 'A') {
    U.reset(THCTensor_(newIdentity)(state, rows));  // any orthogonal matrix completes an empty decomposition
  }
  THCTensor_(setResult1d)(state, rs, S.get(), k);
  if (job == 'N') return;
  // left = U [rows, uCols], right = V [cols, vtRows]; a = left S right^T, or right S left^T when wide.
  auto left = own(state, THCTensor_(newNarrow)(state, U.get(), 0, 0, rows));
  auto right = own(state, THCTensor_(newNarrow)(state, VT.get(), 0, 0, vtRows));
  THCTensor_(transpose)(state, right.get(), nullptr, 0, 1);
  THCTensor *uOf = wide ? right.get() : left.get(), *vOf = wide ? left.get() : right.get();
  THCTensor_(resize2d)(state, ru, uOf->size[0], uOf->size[1]);
  THCTensor_(copy)(state, ru, uOf);
  THCTensor_(resize2d)(state, rv, vOf->size[0], vOf->size[1]);
  THCTensor_(copy)(state, rv, vOf);
}

void THCTensor_(qr)(THCState *state, THCTensor *rq, THCTensor *rr, THCTensor *a) {
  checkMatrix("qr", "a", a, 3);
  const int64_t m = a->size[0], n = a->size[1], k = std::min(m, n);
  thc::DeviceGuard guard(thc::commonDevice("qr", rq, rr, a));
  Solver s(state, "qr");
  auto A = own(state, THCTensor_(newColumnMajor)(state, a, m, n, lda(m)));
  scalar_t *data = dataOf(A.get());
  auto tau = own(state, THCTensor_(newWithSize1d)(state, std::max<int64_t>(k, 1)));
  auto R = own(state, THCTensor_(newWork)(state, lda(k), n));
  THCTensor_(zero)(state, R.get());
  if (k > 0) {
    int lwork = 0;
    s.check(solver::geqrfBufferSize(s.handle, (int)m, (int)n, data, lda(m), &lwork));
    auto work = s.workspace<scalar_t>(lwork);
    s.check(solver::geqrf(s.handle, (int)m, (int)n, data, lda(m), dataOf(tau.get()), work->as<scalar_t>(), lwork,
                          s.devInfo()));
    s.readInfo();
    // R is the upper triangle of geqrf's first k columns and, when n > k, the k rows of the
    // columns after them; orgqr then overwrites A with Q.
    THCTensor_(copyTriangle)(s, 'U', k, data, lda(m), dataOf(R.get()), lda(k));
    if (n > k) {
      auto from = own(state, THCTensor_(newNarrow)(state, A.get(), 0, 0, k));
      THCTensor_(narrow)(state, from.get(), nullptr, 1, k, n - k);
      auto to = own(state, THCTensor_(newNarrow)(state, R.get(), 1, k, n - k));
      THCTensor_(copy)(state, to.get(), from.get());
    }
    s.check(solver::orgqrBufferSize(s.handle, (int)m, (int)k, (int)k, data, lda(m), dataOf(tau.get()), &lwork));
    auto work2 = s.workspace<scalar_t>(lwork);
    s.check(solver::orgqr(s.handle, (int)m, (int)k, (int)k, data, lda(m), dataOf(tau.get()), work2->as<scalar_t>(),
                          lwork, s.devInfo()));
    s.readInfo();
  }
  THCTensor_(setResult)(state, rq, A.get(), m, k);
  THCTensor_(setResult)(state, rr, R.get(), k, n);
}

void THCTensor_(getrf)(THCState *state, THCTensor *ra, THCudaIntTensor *rpivots, THCTensor *a) {
  checkMatrix("getrf", "a", a, 3);
  const int64_t m = a->size[0], n = a->size[1], k = std::min(m, n);
  thc::DeviceGuard guard(thc::commonDevice("getrf", ra, rpivots, a));
  Solver s(state, "getrf");
  auto A = own(state, THCTensor_(newColumnMajor)(state, a, m, n, lda(m)));
  auto ipiv = own(state, THCudaIntTensor_newWithSize1d(state, std::max<int64_t>(k, 1)));
  if (k > 0) THCTensor_(luFactor)(s, A.get(), m, n, ipiv.get());
  THCTensor_(setResult)(state, ra, A.get(), m, n);
  auto pivots = own(state, THCudaIntTensor_newNarrow(state, ipiv.get(), 0, 0, k));
  THCudaIntTensor_resize1d(state, rpivots, k);
  THCudaIntTensor_copy(state, rpivots, pivots.get());
}

#endif
