#ifndef TH_GENERIC_FILE
#error "compile TH/THBlas.cpp instead"
#endif

void THBlas_(swap)(int64_t n, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy) {
  checkSize("swap", n, 1);
  incx = checkInc("swap", n, incx, 3);
  incy = checkInc("swap", n, incy, 5);
#if TH_REAL_IS_FLOATING
  if (fitsInt({n, incx, incy})) return blas::swap((int)n, x, (int)incx, y, (int)incy);
#endif
  for (int64_t i = 0; i < n; i++) std::swap(x[i * incx], y[i * incy]);
}

void THBlas_(scal)(int64_t n, scalar_t a, scalar_t *x, int64_t incx) {
  checkSize("scal", n, 1);
  incx = checkInc("scal", n, incx, 4);
#if TH_REAL_IS_FLOATING
  if (fitsInt({n, incx})) return blas::scal((int)n, a, x, (int)incx);
#endif
  for (int64_t i = 0; i < n; i++) x[i * incx] *= a;
}

void THBlas_(copy)(int64_t n, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy) {
  checkSize("copy", n, 1);
  incx = checkInc("copy", n, incx, 3);
  incy = checkInc("copy", n, incy, 5);
#if TH_REAL_IS_FLOATING
  if (fitsInt({n, incx, incy})) return blas::copy((int)n, x, (int)incx, y, (int)incy);
#endif
  for (int64_t i = 0; i < n; i++) y[i * incy] = x[i * incx];
}

void THBlas_(axpy)(int64_t n, scalar_t a, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy) {
  checkSize("axpy", n, 1);
  incx = checkInc("axpy", n, incx, 4);
  incy = checkInc("axpy", n, incy, 6);
#if TH_REAL_IS_FLOATING
  if (fitsInt({n, incx, incy})) return blas::axpy((int)n, a, x, (int)incx, y, (int)incy);
#endif
  for (int64_t i = 0; i < n; i++) y[i * incy] += a * x[i * incx];
}

accreal THBlas_(dot)(int64_t n, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy) {
  checkSize("dot", n, 1);
  incx = checkInc("dot", n, incx, 3);
  incy = checkInc("dot", n, incy, 5);
#if TH_REAL_IS_FLOATING
  if (fitsInt({n, incx, incy})) return blas::dot((int)n, x, (int)incx, y, (int)incy);
#endif
  accreal sum = 0;
  for (int64_t i = 0; i < n; i++) sum += (accreal)x[i * incx] * (accreal)y[i * incy];
  return sum;
}

void THBlas_(gemv)(char trans, int64_t m, int64_t n, scalar_t alpha, scalar_t *a, int64_t lda, scalar_t *x,
                   int64_t incx, scalar_t beta, scalar_t *y, int64_t incy) {
  const bool t = isTrans("gemv", trans, 1);
  checkSize("gemv", m, 2);
  checkSize("gemv", n, 3);
  lda = checkLd("gemv", m, n, lda, 6);
  const int64_t lenx = t ? m : n, leny = t ? n : m;
  incx = checkInc("gemv", lenx, incx, 8);
  incy = checkInc("gemv", leny, incy, 11);
#if TH_REAL_IS_FLOATING
  if (fitsInt({m, n, lda, incx, incy}))
    return blas::gemv(t, (int)m, (int)n, alpha, a, (int)lda, x, (int)incx, beta, y, (int)incy);
#endif
  for (int64_t i = 0; i < leny; i++) {
    scalar_t &yi = y[i * incy];
    yi = beta == 0 ? scalar_t(0) : scalar_t(beta * yi);
  }
  if (t) {
    for (int64_t j = 0; j < n; j++) {
      scalar_t sum = 0;
      for (int64_t i = 0; i < m; i++) sum += a[i + j * lda] * x[i * incx];
      y[j * incy] += alpha * sum;
    }
  } else {
    for (int64_t j = 0; j < n; j++) {
      const scalar_t xj = alpha * x[j * incx];
      for (int64_t i = 0; i < m; i++) y[i * incy] += a[i + j * lda] * xj;
    }
  }
}

void THBlas_(ger)(int64_t m, int64_t n, scalar_t alpha, scalar_t *x, int64_t incx, scalar_t *y, int64_t incy,
                  scalar_t *a, int64_t lda) {
  checkSize("ger", m, 1);
  checkSize("ger", n, 2);
  incx = checkInc("ger", m, incx, 5);
  incy = checkInc("ger", n, incy, 7);
  lda = checkLd("ger", m, n, lda, 9);
#if TH_REAL_IS_FLOATING
  if (fitsInt({m, n, lda, incx, incy}))
    return blas::ger((int)m, (int)n, alpha, x, (int)incx, y, (int)incy, a, (int)lda);
#endif
  for (int64_t j = 0; j < n; j++) {
    const scalar_t yj = alpha * y[j * incy];
    for (int64_t i = 0; i < m; i++) a[i + j * lda] += x[i * incx] * yj;
  }
}

void THBlas_(gemm)(char transa, char transb, int64_t m, int64_t n, int64_t k, scalar_t alpha, scalar_t *a, int64_t lda,
                   scalar_t *b, int64_t ldb, scalar_t beta, scalar_t *c, int64_t ldc) {
  const bool ta = isTrans("gemm", transa, 1), tb = isTrans("gemm", transb, 2);
  checkSize("gemm", m, 3);
  checkSize("gemm", n, 4);
  checkSize("gemm", k, 5);
  lda = ta ? checkLd("gemm", k, m, lda, 8) : checkLd("gemm", m, k, lda, 8);
  ldb = tb ? checkLd("gemm", n, k, ldb, 10) : checkLd("gemm", k, n, ldb, 10);
  ldc = checkLd("gemm", m, n, ldc, 13);
#if TH_REAL_IS_FLOATING
  if (fitsInt({m, n, k, lda, ldb, ldc}))
    return blas::gemm(ta, tb, (int)m, (int)n, (int)k, alpha, a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
#endif
  // Columns of C are independent: split them over threads when the work is large.
  const int64_t perColumn = m * k > 0 ? m * k : 1;
  th::detail::parallelFor(n, TH_OMP_THRESHOLD / perColumn, [&](int64_t begin, int64_t end) {
    for (int64_t j = begin; j < end; j++) {
      scalar_t *cj = c + j * ldc;
      for (int64_t i = 0; i < m; i++) cj[i] = beta == 0 ? scalar_t(0) : scalar_t(beta * cj[i]);
      auto bAt = [&](int64_t l) { return tb ? b[j + l * ldb] : b[l + j * ldb]; };
      if (ta) {
        // rows of op(A) are contiguous columns of a: inner products
        for (int64_t i = 0; i < m; i++) {
          scalar_t sum = 0;
          for (int64_t l = 0; l < k; l++) sum += a[l + i * lda] * bAt(l);
          cj[i] += alpha * sum;
        }
      } else {
        // columns of A are contiguous: accumulate scaled columns
        for (int64_t l = 0; l < k; l++) {
          const scalar_t blj = alpha * bAt(l);
          for (int64_t i = 0; i < m; i++) cj[i] += a[i + l * lda] * blj;
        }
      }
    }
  });
}
