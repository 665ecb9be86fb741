#ifndef TH_GENERIC_FILE
#error "compile TH/THTensorLapack.cpp instead"
#endif

/* A column-major copy of src, viewed as a rows x cols matrix in src's row-major element
 * order (so an [n] vector is an [n, 1] matrix), with ld >= rows rows of storage: the layout
 * LAPACK reads and overwrites. */
static THTensor *THTensor_(newColumnMajor)(THTensor *src, int64_t rows, int64_t cols, int64_t ld) {
  const int64_t size[2] = {ld, cols}, stride[2] = {1, ld};
  auto work = th::own(THTensor_(newWithSize)(2, size, stride));
  auto view = th::own(THTensor_(newNarrow)(work.get(), 0, 0, rows));
  THTensor_(copy)(view.get(), src);
  return work.release();
}

/* r = the top-left rows x cols block of work. */
static void THTensor_(setResult)(THTensor *r, THTensor *work, int64_t rows, int64_t cols) {
  auto view = th::own(THTensor_(newNarrow)(work, 0, 0, rows));
  THTensor_(narrow)(view.get(), nullptr, 1, 0, cols);
  THTensor_(resize2d)(r, rows, cols);
  THTensor_(copy)(r, view.get());
}

static void THTensor_(setResult1d)(THTensor *r, const std::vector<scalar_t> &values) {
  THTensor_(resize1d)(r, (int64_t)values.size());
  for (size_t i = 0; i < values.size(); i++) THTensor_(set1d)(r, (int64_t)i, values[i]);
}

void THTensor_(gesv)(THTensor *rb, THTensor *ra, THTensor *b, THTensor *a) {
  if (!a) a = ra;
  if (!b) b = rb;
  checkSquare("gesv", "a", a, 4);
  const int64_t k = checkRhs("gesv", b, 3, a), n = a->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, n, n, lda(n)));
  auto B = th::own(THTensor_(newColumnMajor)(b, n, k, lda(n)));
  std::vector<int> ipiv(std::max<int64_t>(n, 1));
  int info = 0;
  lapack::gesv((int)n, (int)k, THTensor_(data)(A.get()), lda(n), ipiv.data(), THTensor_(data)(B.get()), lda(n), &info);
  checkInfo("gesv", info);
  if (info > 0) THError("gesv: a is singular (U[%d][%d] of its LU factorization is exactly zero)", info - 1, info - 1);
  THTensor_(setResult)(rb, B.get(), n, k);
  THTensor_(setResult)(ra, A.get(), n, n);
}

void THTensor_(gels)(THTensor *rb, THTensor *ra, THTensor *b, THTensor *a) {
  if (!a) a = ra;
  if (!b) b = rb;
  checkMatrix("gels", "a", a, 4);
  const int64_t k = checkRhs("gels", b, 3, a), m = a->size[0], n = a->size[1];
  // b's storage also receives the n rows of the solution when n > m.
  const int ldb = lda(std::max(m, n));
  auto A = th::own(THTensor_(newColumnMajor)(a, m, n, lda(m)));
  auto B = th::own(THTensor_(newColumnMajor)(b, m, k, ldb));
  int info = 0;
  scalar_t query = 0;
  lapack::gels((int)m, (int)n, (int)k, THTensor_(data)(A.get()), lda(m), THTensor_(data)(B.get()), ldb, &query, -1,
               &info);
  checkInfo("gels", info);
  std::vector<scalar_t> work(workSize(query));
  lapack::gels((int)m, (int)n, (int)k, THTensor_(data)(A.get()), lda(m), THTensor_(data)(B.get()), ldb, work.data(),
               (int)work.size(), &info);
  checkInfo("gels", info);
  if (info > 0)
    THError("gels: a %s does not have full rank (diagonal element %d of its triangular factor is zero)",
            shape(a).c_str(), info - 1);
  THTensor_(setResult)(rb, B.get(), n, k);
  THTensor_(setResult)(ra, A.get(), m, n);
}

void THTensor_(getri)(THTensor *ra, THTensor *a) {
  if (!a) a = ra;
  checkSquare("getri", "a", a, 2);
  const int64_t n = a->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, n, n, lda(n)));
  scalar_t *data = THTensor_(data)(A.get());
  std::vector<int> ipiv(std::max<int64_t>(n, 1));
  int info = 0;
  lapack::getrf((int)n, (int)n, data, lda(n), ipiv.data(), &info);
  checkInfo("getri", info);
  if (info > 0) THError("getri: a is singular (U[%d][%d] of its LU factorization is exactly zero)", info - 1, info - 1);
  scalar_t query = 0;
  lapack::getri((int)n, data, lda(n), ipiv.data(), &query, -1, &info);
  checkInfo("getri", info);
  std::vector<scalar_t> work(workSize(query));
  lapack::getri((int)n, data, lda(n), ipiv.data(), work.data(), (int)work.size(), &info);
  checkInfo("getri", info);
  THTensor_(setResult)(ra, A.get(), n, n);
}

void THTensor_(potrf)(THTensor *ra, THTensor *a, const char *uplo) {
  if (!a) a = ra;
  checkSquare("potrf", "a", a, 2);
  const char ul = option("potrf", "uplo", uplo, "UL", 3);
  const int64_t n = a->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, n, n, lda(n)));
  scalar_t *data = THTensor_(data)(A.get());
  int info = 0;
  lapack::potrf(ul, (int)n, data, lda(n), &info);
  checkInfo("potrf", info);
  if (info > 0) THError("potrf: a is not positive definite (its leading minor of order %d is not)", info);
  // LAPACK leaves the other triangle as it was in a: clear it.
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++)
      if (ul == 'U' ? i > j : i < j) data[i + j * lda(n)] = 0;
  THTensor_(setResult)(ra, A.get(), n, n);
}

void THTensor_(pstrf)(THTensor *ra, THIntTensor *piv, THTensor *a, const char *uplo, scalar_t tol) {
  if (!a) a = ra;
  checkSquare("pstrf", "a", a, 3);
  const char ul = option("pstrf", "uplo", uplo, "UL", 4);
  const int64_t n = a->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, n, n, lda(n)));
  scalar_t *data = THTensor_(data)(A.get());
  std::vector<int> p(std::max<int64_t>(n, 1));
  std::vector<scalar_t> work(std::max<int64_t>(2 * n, 1));
  int rank = 0, info = 0;
  lapack::pstrf(ul, (int)n, data, lda(n), p.data(), &rank, tol > 0 ? tol : (scalar_t)-1, work.data(), &info);
  checkInfo("pstrf", info);
  if (info > 0)
    THError("pstrf: a is rank deficient (rank %d of %lld) or not positive semidefinite", rank, (long long)n);
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < n; i++)
      if (ul == 'U' ? i > j : i < j) data[i + j * lda(n)] = 0;
  THIntTensor_resize1d(piv, n);
  for (int64_t i = 0; i < n; i++) THIntTensor_set1d(piv, i, p[i] - 1);
  THTensor_(setResult)(ra, A.get(), n, n);
}

void THTensor_(potrs)(THTensor *rb, THTensor *b, THTensor *a, const char *uplo) {
  if (!b) b = rb;
  checkSquare("potrs", "a", a, 3);
  const int64_t k = checkRhs("potrs", b, 2, a), n = a->size[0];
  const char ul = option("potrs", "uplo", uplo, "UL", 4);
  auto A = th::own(THTensor_(newColumnMajor)(a, n, n, lda(n)));
  auto B = th::own(THTensor_(newColumnMajor)(b, n, k, lda(n)));
  int info = 0;
  lapack::potrs(ul, (int)n, (int)k, THTensor_(data)(A.get()), lda(n), THTensor_(data)(B.get()), lda(n), &info);
  checkInfo("potrs", info);
  THTensor_(setResult)(rb, B.get(), n, k);
}

void THTensor_(potri)(THTensor *ra, THTensor *a, const char *uplo) {
  if (!a) a = ra;
  checkSquare("potri", "a", a, 2);
  const char ul = option("potri", "uplo", uplo, "UL", 3);
  const int64_t n = a->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, n, n, lda(n)));
  scalar_t *data = THTensor_(data)(A.get());
  int info = 0;
  lapack::potri(ul, (int)n, data, lda(n), &info);
  checkInfo("potri", info);
  if (info > 0)
    THError("potri: the factor a has a zero on its diagonal at [%d][%d]: A is singular", info - 1, info - 1);
  // LAPACK computes one triangle of the symmetric inverse: mirror it.
  for (int64_t j = 0; j < n; j++)
    for (int64_t i = 0; i < j; i++) {
      scalar_t &upper = data[i + j * lda(n)], &lower = data[j + i * lda(n)];
      if (ul == 'U')
        lower = upper;
      else
        upper = lower;
    }
  THTensor_(setResult)(ra, A.get(), n, n);
}

void THTensor_(syev)(THTensor *re, THTensor *rv, THTensor *a, const char *jobz, const char *uplo) {
  if (!a) a = rv;
  checkSquare("syev", "a", a, 3);
  const char jz = option("syev", "jobz", jobz, "NV", 4);
  const char ul = option("syev", "uplo", uplo, "UL", 5);
  const int64_t n = a->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, n, n, lda(n)));
  std::vector<scalar_t> w(n);
  int info = 0;
  scalar_t query = 0;
  lapack::syev(jz, ul, (int)n, THTensor_(data)(A.get()), lda(n), w.data(), &query, -1, &info);
  checkInfo("syev", info);
  std::vector<scalar_t> work(workSize(query));
  lapack::syev(jz, ul, (int)n, THTensor_(data)(A.get()), lda(n), w.data(), work.data(), (int)work.size(), &info);
  checkInfo("syev", info);
  if (info > 0) THError("syev: no convergence (%d off-diagonal elements did not converge to zero)", info);
  THTensor_(setResult1d)(re, w);
  if (jz == 'V') THTensor_(setResult)(rv, A.get(), n, n);
}

void THTensor_(geev)(THTensor *re, THTensor *rv, THTensor *a, const char *jobvr) {
  checkSquare("geev", "a", a, 3);
  const char jv = option("geev", "jobvr", jobvr, "NV", 4);
  const int64_t n = a->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, n, n, lda(n)));
  const int64_t vrSize[2] = {jv == 'V' ? n : 0, n}, vrStride[2] = {1, lda(n)};
  auto VR = th::own(THTensor_(newWithSize)(2, vrSize, vrStride));
  const int ldvr = jv == 'V' ? lda(n) : 1;
  std::vector<scalar_t> wr(n), wi(n);
  int info = 0;
  scalar_t query = 0;
  lapack::geev(jv, (int)n, THTensor_(data)(A.get()), lda(n), wr.data(), wi.data(), THTensor_(data)(VR.get()), ldvr,
               &query, -1, &info);
  checkInfo("geev", info);
  std::vector<scalar_t> work(workSize(query));
  lapack::geev(jv, (int)n, THTensor_(data)(A.get()), lda(n), wr.data(), wi.data(), THTensor_(data)(VR.get()), ldvr,
               work.data(), (int)work.size(), &info);
  checkInfo("geev", info);
  if (info > 0)
    THError("geev: the QR algorithm failed to compute all eigenvalues (only %lld converged)", (long long)(n - info));
  THTensor_(resize2d)(re, n, 2);
  for (int64_t i = 0; i < n; i++) {
    THTensor_(set2d)(re, i, 0, wr[i]);
    THTensor_(set2d)(re, i, 1, wi[i]);
  }
  if (jv == 'V') THTensor_(setResult)(rv, VR.get(), n, n);
}

void THTensor_(gesvd)(THTensor *ru, THTensor *rs, THTensor *rv, THTensor *a, const char *jobu) {
  checkMatrix("gesvd", "a", a, 4);
  const char job = option("gesvd", "jobu", jobu, "ASN", 5);
  const int64_t m = a->size[0], n = a->size[1], k = std::min(m, n);
  // U is m x uCols, V^T is vtRows x n; with "N" neither is referenced.
  const int64_t uCols = job == 'A' ? m : job == 'S' ? k : 0;
  const int64_t vtRows = job == 'A' ? n : job == 'S' ? k : 0;
  auto A = th::own(THTensor_(newColumnMajor)(a, m, n, lda(m)));
  const int64_t uSize[2] = {lda(m), uCols}, uStride[2] = {1, lda(m)};
  const int64_t vtSize[2] = {lda(vtRows), n}, vtStride[2] = {1, lda(vtRows)};
  auto U = th::own(THTensor_(newWithSize)(2, uSize, uStride));
  auto VT = th::own(THTensor_(newWithSize)(2, vtSize, vtStride));
  std::vector<scalar_t> s(k);
  int info = 0;
  scalar_t query = 0;
  auto run = [&](scalar_t *work, int lwork) {
    lapack::gesvd(job, (int)m, (int)n, THTensor_(data)(A.get()), lda(m), s.data(), THTensor_(data)(U.get()), lda(m),
                  THTensor_(data)(VT.get()), lda(vtRows), work, lwork, &info);
    checkInfo("gesvd", info);
  };
  run(&query, -1);
  std::vector<scalar_t> work(workSize(query));
  run(work.data(), (int)work.size());
  if (info > 0) THError("gesvd: no convergence (%d superdiagonals of the bidiagonal form did not converge)", info);
  // LAPACK returns at once for an empty matrix and leaves U and V^T unwritten. Any
  // orthogonal matrix then completes the (empty) singular bases; PyTorch gives the identity.
  if (k == 0) {
    THTensor_(zero)(U.get());
    THTensor_(zero)(VT.get());
    for (int64_t i = 0; i < uCols; i++) THTensor_(set2d)(U.get(), i, i, 1);
    for (int64_t i = 0; i < vtRows; i++) THTensor_(set2d)(VT.get(), i, i, 1);
  }
  THTensor_(setResult1d)(rs, s);
  if (job == 'N') return;
  THTensor_(setResult)(ru, U.get(), m, uCols);
  auto V = th::own(THTensor_(newNarrow)(VT.get(), 0, 0, vtRows));
  THTensor_(transpose)(V.get(), nullptr, 0, 1);
  THTensor_(resize2d)(rv, n, vtRows);
  THTensor_(copy)(rv, V.get());
}

void THTensor_(qr)(THTensor *rq, THTensor *rr, THTensor *a) {
  checkMatrix("qr", "a", a, 3);
  const int64_t m = a->size[0], n = a->size[1], k = std::min(m, n);
  auto A = th::own(THTensor_(newColumnMajor)(a, m, n, lda(m)));
  scalar_t *data = THTensor_(data)(A.get());
  std::vector<scalar_t> tau(std::max<int64_t>(k, 1));
  int info = 0;
  scalar_t query = 0;
  lapack::geqrf((int)m, (int)n, data, lda(m), tau.data(), &query, -1, &info);
  checkInfo("qr", info);
  std::vector<scalar_t> work(workSize(query));
  lapack::geqrf((int)m, (int)n, data, lda(m), tau.data(), work.data(), (int)work.size(), &info);
  checkInfo("qr", info);
  // R is the upper triangle of geqrf's result, which orgqr then overwrites with Q.
  auto R = th::own(THTensor_(newWithSize2d)(k, n));
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = 0; j < n; j++) THTensor_(set2d)(R.get(), i, j, j >= i ? data[i + j * lda(m)] : scalar_t(0));
  lapack::orgqr((int)m, (int)k, (int)k, data, lda(m), tau.data(), &query, -1, &info);
  checkInfo("qr", info);
  work.resize(workSize(query));
  lapack::orgqr((int)m, (int)k, (int)k, data, lda(m), tau.data(), work.data(), (int)work.size(), &info);
  checkInfo("qr", info);
  THTensor_(setResult)(rq, A.get(), m, k);
  THTensor_(resize2d)(rr, k, n);
  THTensor_(copy)(rr, R.get());
}

/* tau as a vector LAPACK reads, checked against k, the number of reflectors a can hold. */
static std::vector<scalar_t> THTensor_(reflectorScales)(const char *op, THTensor *tau, int64_t most) {
  THArgCheck(tau->nDimension == 1, 3, "%s: tau must be a vector, got %d dimensions", op, tau->nDimension);
  const int64_t k = tau->size[0];
  THArgCheck(k <= most, 3, "%s: %lld reflectors, but a holds at most %lld", op, (long long)k, (long long)most);
  std::vector<scalar_t> values(std::max<int64_t>(k, 1));
  for (int64_t i = 0; i < k; i++) values[i] = THTensor_(get1d)(tau, i);
  return values;
}

void THTensor_(geqrf)(THTensor *ra, THTensor *rtau, THTensor *a) {
  checkMatrix("geqrf", "a", a, 3);
  const int64_t m = a->size[0], n = a->size[1], k = std::min(m, n);
  auto A = th::own(THTensor_(newColumnMajor)(a, m, n, lda(m)));
  std::vector<scalar_t> tau(std::max<int64_t>(k, 1));
  int info = 0;
  scalar_t query = 0;
  lapack::geqrf((int)m, (int)n, THTensor_(data)(A.get()), lda(m), tau.data(), &query, -1, &info);
  checkInfo("geqrf", info);
  std::vector<scalar_t> work(workSize(query));
  lapack::geqrf((int)m, (int)n, THTensor_(data)(A.get()), lda(m), tau.data(), work.data(), (int)work.size(), &info);
  checkInfo("geqrf", info);
  tau.resize(k);
  THTensor_(setResult)(ra, A.get(), m, n);
  THTensor_(setResult1d)(rtau, tau);
}

void THTensor_(orgqr)(THTensor *rq, THTensor *a, THTensor *tau) {
  checkMatrix("orgqr", "a", a, 2);
  const int64_t m = a->size[0], n = a->size[1];
  std::vector<scalar_t> scales = THTensor_(reflectorScales)("orgqr", tau, std::min(m, n));
  const int64_t k = tau->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, m, n, lda(m)));
  int info = 0;
  scalar_t query = 0;
  lapack::orgqr((int)m, (int)k, (int)k, THTensor_(data)(A.get()), lda(m), scales.data(), &query, -1, &info);
  checkInfo("orgqr", info);
  std::vector<scalar_t> work(workSize(query));
  lapack::orgqr((int)m, (int)k, (int)k, THTensor_(data)(A.get()), lda(m), scales.data(), work.data(), (int)work.size(),
                &info);
  checkInfo("orgqr", info);
  THTensor_(setResult)(rq, A.get(), m, n);
}

void THTensor_(ormqr)(THTensor *rc, THTensor *a, THTensor *tau, THTensor *c, const char *side, const char *trans) {
  checkMatrix("ormqr", "a", a, 2);
  checkMatrix("ormqr", "c", c, 4);
  const char s = side && side[0] ? side[0] : 'L', t = trans && trans[0] ? trans[0] : 'N';
  THArgCheck(s == 'L' || s == 'R', 5, "ormqr: side must be 'L' or 'R', got '%s'", side ? side : "");
  THArgCheck(t == 'N' || t == 'T', 6, "ormqr: trans must be 'N' or 'T', got '%s'", trans ? trans : "");
  const int64_t m = c->size[0], n = c->size[1], order = s == 'L' ? m : n;  // Q is order x order
  THArgCheck(a->size[0] == order, 2, "ormqr: a must have %lld rows (c's %s), got %lld", (long long)order,
             s == 'L' ? "rows" : "columns", (long long)a->size[0]);
  std::vector<scalar_t> scales = THTensor_(reflectorScales)("ormqr", tau, std::min(a->size[0], a->size[1]));
  const int64_t k = tau->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, a->size[0], a->size[1], lda(order)));
  auto C = th::own(THTensor_(newColumnMajor)(c, m, n, lda(m)));
  int info = 0;
  scalar_t query = 0;
  lapack::ormqr(s, t, (int)m, (int)n, (int)k, THTensor_(data)(A.get()), lda(order), scales.data(),
                THTensor_(data)(C.get()), lda(m), &query, -1, &info);
  checkInfo("ormqr", info);
  std::vector<scalar_t> work(workSize(query));
  lapack::ormqr(s, t, (int)m, (int)n, (int)k, THTensor_(data)(A.get()), lda(order), scales.data(),
                THTensor_(data)(C.get()), lda(m), work.data(), (int)work.size(), &info);
  checkInfo("ormqr", info);
  THTensor_(setResult)(rc, C.get(), m, n);
}

int THTensor_(sytrf)(THTensor *ra, THIntTensor *rpivots, THTensor *a) {
  checkSquare("sytrf", "a", a, 3);
  const int64_t n = a->size[0];
  auto A = th::own(THTensor_(newColumnMajor)(a, n, n, lda(n)));
  std::vector<int> ipiv(std::max<int64_t>(n, 1));
  int info = 0;
  scalar_t query = 0;
  lapack::sytrf((int)n, THTensor_(data)(A.get()), lda(n), ipiv.data(), &query, -1, &info);
  checkInfo("sytrf", info);
  std::vector<scalar_t> work(workSize(query));
  lapack::sytrf((int)n, THTensor_(data)(A.get()), lda(n), ipiv.data(), work.data(), (int)work.size(), &info);
  checkInfo("sytrf", info);
  THTensor_(setResult)(ra, A.get(), n, n);
  for (int64_t i = 0; i < n; i++)  // the upper triangle still holds a's
    for (int64_t j = i + 1; j < n; j++) THTensor_(set2d)(ra, i, j, 0);
  THIntTensor_resize1d(rpivots, n);
  for (int64_t i = 0; i < n; i++) THIntTensor_set1d(rpivots, i, ipiv[i]);
  return info;
}

void THTensor_(sytrs)(THTensor *rb, THTensor *b, THTensor *ld, THIntTensor *pivots) {
  checkSquare("sytrs", "ld", ld, 3);
  const int64_t k = checkRhs("sytrs", b, 2, ld), n = ld->size[0];
  THArgCheck(pivots->nDimension == 1 && pivots->size[0] == n, 4, "sytrs: pivots must be a vector of %lld pivots",
             (long long)n);
  std::vector<int> ipiv(std::max<int64_t>(n, 1));
  for (int64_t i = 0; i < n; i++) {
    const int p = THIntTensor_get1d(pivots, i), row = p > 0 ? p : -p;
    THArgCheck(row >= 1 && row <= n, 4, "sytrs: pivot %d at %lld is out of range for %lld rows", p, (long long)i,
               (long long)n);
    ipiv[i] = p;
  }
  auto A = th::own(THTensor_(newColumnMajor)(ld, n, n, lda(n)));
  auto B = th::own(THTensor_(newColumnMajor)(b, n, k, lda(n)));
  int info = 0;
  lapack::sytrs((int)n, (int)k, THTensor_(data)(A.get()), lda(n), ipiv.data(), THTensor_(data)(B.get()), lda(n), &info);
  checkInfo("sytrs", info);
  if (b->nDimension == 1) {
    THTensor_(resize1d)(rb, n);
    auto column = th::own(THTensor_(newSelect)(B.get(), 1, 0));
    THTensor_(copy)(rb, column.get());
  } else {
    THTensor_(setResult)(rb, B.get(), n, k);
  }
}

void THTensor_(getrf)(THTensor *ra, THIntTensor *rpivots, THTensor *a) {
  checkMatrix("getrf", "a", a, 3);
  const int64_t m = a->size[0], n = a->size[1], k = std::min(m, n);
  auto A = th::own(THTensor_(newColumnMajor)(a, m, n, lda(m)));
  std::vector<int> ipiv(std::max<int64_t>(k, 1));
  int info = 0;
  lapack::getrf((int)m, (int)n, THTensor_(data)(A.get()), lda(m), ipiv.data(), &info);
  checkInfo("getrf", info);
  if (info > 0) THError("getrf: a is singular (U[%d][%d] of its LU factorization is exactly zero)", info - 1, info - 1);
  THTensor_(setResult)(ra, A.get(), m, n);
  THIntTensor_resize1d(rpivots, k);
  for (int64_t i = 0; i < k; i++) THIntTensor_set1d(rpivots, i, ipiv[i]);
}
