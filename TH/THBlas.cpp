#include "TH/THBlas.h"

#include <cblas.h>
#include <omp.h>

#include <climits>
#include <initializer_list>
#include <utility>

#include "TH/THTensor.hpp"
#include "TH/THThreads.hpp"

namespace {

// OpenBLAS entry points by element type, so that generic code calls one name.
namespace blas {
inline void swap(int n, float *x, int incx, float *y, int incy) { cblas_sswap(n, x, incx, y, incy); }
inline void swap(int n, double *x, int incx, double *y, int incy) { cblas_dswap(n, x, incx, y, incy); }
inline void scal(int n, float a, float *x, int incx) { cblas_sscal(n, a, x, incx); }
inline void scal(int n, double a, double *x, int incx) { cblas_dscal(n, a, x, incx); }
inline void copy(int n, float *x, int incx, float *y, int incy) { cblas_scopy(n, x, incx, y, incy); }
inline void copy(int n, double *x, int incx, double *y, int incy) { cblas_dcopy(n, x, incx, y, incy); }
inline void axpy(int n, float a, float *x, int incx, float *y, int incy) { cblas_saxpy(n, a, x, incx, y, incy); }
inline void axpy(int n, double a, double *x, int incx, double *y, int incy) { cblas_daxpy(n, a, x, incx, y, incy); }
// Float products are accumulated in double, matching accreal.
inline double dot(int n, float *x, int incx, float *y, int incy) { return cblas_dsdot(n, x, incx, y, incy); }
inline double dot(int n, double *x, int incx, double *y, int incy) { return cblas_ddot(n, x, incx, y, incy); }
inline CBLAS_TRANSPOSE op(bool trans) { return trans ? CblasTrans : CblasNoTrans; }

// Note [Small BLAS calls run on one thread]: OpenBLAS's OpenMP build splits even a small
// gemv, ger or gemm over every OpenMP thread. Such a call costs less than the fork/join, and
// where the cores are shared each join can wait a whole time slice for a descheduled thread
// (an LSTM step of pytorch/examples' word_language_model took 8 ms at one thread and 140 ms
// at two beside a busy process). Below these sizes the call runs with the thread count set to
// one, which OpenBLAS reads at each call, and is restored after it; above them, with the
// threads the machine can give (Note [Threads the machine can give] in THGeneral.cpp).
// OpenBLAS's gemm splits the rows and columns of the result over its threads, never a sum,
// so there the count the machine gives does not change the result.
constexpr double kSerialGemmWork = 1 << 20;          // multiply-adds, m * n * k
constexpr double kSerialMatrixVectorWork = 1 << 16;  // matrix elements, m * n
inline void gemv(bool trans, int m, int n, float alpha, float *a, int lda, float *x, int incx, float beta, float *y,
                 int incy) {
  th::UsableThreadsScope threads(double(m) * n, kSerialMatrixVectorWork);
  cblas_sgemv(CblasColMajor, op(trans), m, n, alpha, a, lda, x, incx, beta, y, incy);
}
inline void gemv(bool trans, int m, int n, double alpha, double *a, int lda, double *x, int incx, double beta,
                 double *y, int incy) {
  th::UsableThreadsScope threads(double(m) * n, kSerialMatrixVectorWork);
  cblas_dgemv(CblasColMajor, op(trans), m, n, alpha, a, lda, x, incx, beta, y, incy);
}
inline void ger(int m, int n, float alpha, float *x, int incx, float *y, int incy, float *a, int lda) {
  th::UsableThreadsScope threads(double(m) * n, kSerialMatrixVectorWork);
  cblas_sger(CblasColMajor, m, n, alpha, x, incx, y, incy, a, lda);
}
inline void ger(int m, int n, double alpha, double *x, int incx, double *y, int incy, double *a, int lda) {
  th::UsableThreadsScope threads(double(m) * n, kSerialMatrixVectorWork);
  cblas_dger(CblasColMajor, m, n, alpha, x, incx, y, incy, a, lda);
}
inline void gemm(bool ta, bool tb, int m, int n, int k, float alpha, float *a, int lda, float *b, int ldb, float beta,
                 float *c, int ldc) {
  th::UsableThreadsScope threads(double(m) * n * k, kSerialGemmWork);
  cblas_sgemm(CblasColMajor, op(ta), op(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
inline void gemm(bool ta, bool tb, int m, int n, int k, double alpha, double *a, int lda, double *b, int ldb,
                 double beta, double *c, int ldc) {
  th::UsableThreadsScope threads(double(m) * n * k, kSerialGemmWork);
  cblas_dgemm(CblasColMajor, op(ta), op(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
}  // namespace blas

// OpenBLAS takes int sizes; larger problems run the plain loops.
bool fitsInt(std::initializer_list<int64_t> values) {
  for (int64_t v : values)
    if (v > INT_MAX) return false;
  return true;
}

bool isTrans(const char *fn, char t, int arg) {
  if (t == 'n' || t == 'N') return false;
  if (t == 't' || t == 'T' || t == 'c' || t == 'C') return true;
  THArgCheck(false, arg, "%s: transpose flag must be 'n' or 't', got '%c'", fn, t);
  return false;
}

void checkSize(const char *fn, int64_t n, int arg) {
  THArgCheck(n >= 0, arg, "%s: size must be >= 0, got %lld", fn, (long long)n);
}

// The increment of a vector of n elements; irrelevant (made 1) when n <= 1.
int64_t checkInc(const char *fn, int64_t n, int64_t inc, int arg) {
  if (n <= 1) return 1;
  THArgCheck(inc >= 1, arg, "%s: increment must be >= 1, got %lld", fn, (long long)inc);
  return inc;
}

// The leading dimension of a stored rows x cols column-major matrix; irrelevant (made
// max(1, rows), which BLAS requires) when there is at most one column.
int64_t checkLd(const char *fn, int64_t rows, int64_t cols, int64_t ld, int arg) {
  const int64_t least = rows > 1 ? rows : 1;
  if (cols <= 1) return least;
  THArgCheck(ld >= least, arg, "%s: leading dimension %lld is smaller than max(1, %lld)", fn, (long long)ld,
             (long long)rows);
  return ld;
}

}  // namespace

#define TH_GENERIC_FILE "TH/generic/THBlas.cpp"
#include "TH/THGenerateAllTypes.h"
