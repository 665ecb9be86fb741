#include "TH/THTensorLapack.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "TH/THTensor.hpp"

// LAPACK's Fortran entry points in OpenBLAS, and overloads by element type so that generic
// code calls one name. Character arguments carry their hidden Fortran length (size_t).
#define TH_LAPACK_FOR(P, T)                                                                                          \
  extern "C" {                                                                                                       \
  void P##gesv_(const int *n, const int *nrhs, T *a, const int *lda, int *ipiv, T *b, const int *ldb, int *info);    \
  void P##gels_(const char *trans, const int *m, const int *n, const int *nrhs, T *a, const int *lda, T *b,          \
                const int *ldb, T *work, const int *lwork, int *info, size_t);                                       \
  void P##getrf_(const int *m, const int *n, T *a, const int *lda, int *ipiv, int *info);                            \
  void P##getri_(const int *n, T *a, const int *lda, const int *ipiv, T *work, const int *lwork, int *info);         \
  void P##sytrf_(const char *uplo, const int *n, T *a, const int *lda, int *ipiv, T *work, const int *lwork,         \
                 int *info, size_t);                                                                                 \
  void P##sytrs_(const char *uplo, const int *n, const int *nrhs, const T *a, const int *lda, const int *ipiv, T *b, \
                 const int *ldb, int *info, size_t);                                                                 \
  void P##potrf_(const char *uplo, const int *n, T *a, const int *lda, int *info, size_t);                           \
  void P##potrs_(const char *uplo, const int *n, const int *nrhs, const T *a, const int *lda, T *b, const int *ldb,  \
                 int *info, size_t);                                                                                 \
  void P##potri_(const char *uplo, const int *n, T *a, const int *lda, int *info, size_t);                           \
  void P##pstrf_(const char *uplo, const int *n, T *a, const int *lda, int *piv, int *rank, const T *tol, T *work,   \
                 int *info, size_t);                                                                                 \
  void P##syev_(const char *jobz, const char *uplo, const int *n, T *a, const int *lda, T *w, T *work,               \
                const int *lwork, int *info, size_t, size_t);                                                        \
  void P##geev_(const char *jobvl, const char *jobvr, const int *n, T *a, const int *lda, T *wr, T *wi, T *vl,       \
                const int *ldvl, T *vr, const int *ldvr, T *work, const int *lwork, int *info, size_t, size_t);      \
  void P##gesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, T *a, const int *lda, T *s, T *u,  \
                 const int *ldu, T *vt, const int *ldvt, T *work, const int *lwork, int *info, size_t, size_t);      \
  void P##geqrf_(const int *m, const int *n, T *a, const int *lda, T *tau, T *work, const int *lwork, int *info);    \
  void P##orgqr_(const int *m, const int *n, const int *k, T *a, const int *lda, const T *tau, T *work,              \
                 const int *lwork, int *info);                                                                       \
  void P##ormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k, const T *a,          \
                 const int *lda, const T *tau, T *c, const int *ldc, T *work, const int *lwork, int *info, size_t,   \
                 size_t);                                                                                            \
  }                                                                                                                  \
  namespace lapack {                                                                                                 \
  inline void gesv(int n, int nrhs, T *a, int lda, int *ipiv, T *b, int ldb, int *info) {                            \
    P##gesv_(&n, &nrhs, a, &lda, ipiv, b, &ldb, info);                                                               \
  }                                                                                                                  \
  inline void gels(int m, int n, int nrhs, T *a, int lda, T *b, int ldb, T *work, int lwork, int *info) {            \
    P##gels_("N", &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, info, 1);                                           \
  }                                                                                                                  \
  inline void getrf(int m, int n, T *a, int lda, int *ipiv, int *info) { P##getrf_(&m, &n, a, &lda, ipiv, info); }   \
  inline void getri(int n, T *a, int lda, const int *ipiv, T *work, int lwork, int *info) {                          \
    P##getri_(&n, a, &lda, ipiv, work, &lwork, info);                                                                \
  }                                                                                                                  \
  inline void sytrf(int n, T *a, int lda, int *ipiv, T *work, int lwork, int *info) {                                \
    P##sytrf_("L", &n, a, &lda, ipiv, work, &lwork, info, 1);                                                        \
  }                                                                                                                  \
  inline void sytrs(int n, int nrhs, const T *a, int lda, const int *ipiv, T *b, int ldb, int *info) {               \
    P##sytrs_("L", &n, &nrhs, a, &lda, ipiv, b, &ldb, info, 1);                                                      \
  }                                                                                                                  \
  inline void potrf(char uplo, int n, T *a, int lda, int *info) { P##potrf_(&uplo, &n, a, &lda, info, 1); }          \
  inline void potrs(char uplo, int n, int nrhs, const T *a, int lda, T *b, int ldb, int *info) {                     \
    P##potrs_(&uplo, &n, &nrhs, a, &lda, b, &ldb, info, 1);                                                          \
  }                                                                                                                  \
  inline void potri(char uplo, int n, T *a, int lda, int *info) { P##potri_(&uplo, &n, a, &lda, info, 1); }          \
  inline void pstrf(char uplo, int n, T *a, int lda, int *piv, int *rank, T tol, T *work, int *info) {               \
    P##pstrf_(&uplo, &n, a, &lda, piv, rank, &tol, work, info, 1);                                                   \
  }                                                                                                                  \
  inline void syev(char jobz, char uplo, int n, T *a, int lda, T *w, T *work, int lwork, int *info) {                \
    P##syev_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, info, 1, 1);                                                \
  }                                                                                                                  \
  inline void geev(char jobvr, int n, T *a, int lda, T *wr, T *wi, T *vr, int ldvr, T *work, int lwork, int *info) { \
    const int ldvl = 1;                                                                                              \
    P##geev_("N", &jobvr, &n, a, &lda, wr, wi, nullptr, &ldvl, vr, &ldvr, work, &lwork, info, 1, 1);                 \
  }                                                                                                                  \
  inline void gesvd(char job, int m, int n, T *a, int lda, T *s, T *u, int ldu, T *vt, int ldvt, T *work, int lwork, \
                    int *info) {                                                                                     \
    P##gesvd_(&job, &job, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, info, 1, 1);                         \
  }                                                                                                                  \
  inline void geqrf(int m, int n, T *a, int lda, T *tau, T *work, int lwork, int *info) {                            \
    P##geqrf_(&m, &n, a, &lda, tau, work, &lwork, info);                                                             \
  }                                                                                                                  \
  inline void orgqr(int m, int n, int k, T *a, int lda, const T *tau, T *work, int lwork, int *info) {               \
    P##orgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);                                                         \
  }                                                                                                                  \
  inline void ormqr(char side, char trans, int m, int n, int k, const T *a, int lda, const T *tau, T *c, int ldc,    \
                    T *work, int lwork, int *info) {                                                                 \
    P##ormqr_(&side, &trans, &m, &n, &k, a, &lda, tau, c, &ldc, work, &lwork, info, 1, 1);                           \
  }                                                                                                                  \
  }

TH_LAPACK_FOR(s, float)
TH_LAPACK_FOR(d, double)
#undef TH_LAPACK_FOR

namespace {

template <typename TensorT>
std::string shape(const TensorT *t) {
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

template <typename TensorT>
void checkMatrix(const char *fn, const char *name, TensorT *a, int arg) {
  THArgCheck(a != nullptr, arg, "%s: %s is NULL and so is the result that stands for it", fn, name);
  THArgCheck(a->nDimension == 2, arg, "%s: %s must be a matrix (2-d), got sizes %s", fn, name, shape(a).c_str());
  THArgCheck(a->size[0] <= INT_MAX && a->size[1] <= INT_MAX, arg, "%s: %s %s is too large for LAPACK", fn, name,
             shape(a).c_str());
}

template <typename TensorT>
void checkSquare(const char *fn, const char *name, TensorT *a, int arg) {
  checkMatrix(fn, name, a, arg);
  THArgCheck(a->size[0] == a->size[1], arg, "%s: %s must be square, got sizes %s", fn, name, shape(a).c_str());
}

// A right-hand side: [n, k], or [n] taken as [n, 1]; returns k.
template <typename TensorT>
int64_t checkRhs(const char *fn, TensorT *b, int bArg, TensorT *a) {
  THArgCheck(b != nullptr, bArg, "%s: b is NULL and so is the result that stands for it", fn);
  THArgCheck(b->nDimension == 1 || b->nDimension == 2, bArg, "%s: b must be a vector or a matrix, got sizes %s", fn,
             shape(b).c_str());
  THArgCheck(b->size[0] == a->size[0], bArg, "%s: size mismatch, b %s has not as many rows as a %s", fn,
             shape(b).c_str(), shape(a).c_str());
  const int64_t k = b->nDimension == 2 ? b->size[1] : 1;
  THArgCheck(k <= INT_MAX, bArg, "%s: b %s is too large for LAPACK", fn, shape(b).c_str());
  return k;
}

// One of the letters in allowed (upper or lower case) from an option string.
char option(const char *fn, const char *name, const char *value, const char *allowed, int arg) {
  const char c = value ? (char)toupper((unsigned char)value[0]) : '\0';
  if (c == '\0' || !strchr(allowed, c)) {
    std::string choices;
    for (const char *p = allowed; *p; p++) choices += std::string(p == allowed ? "" : ", ") + '"' + *p + '"';
    THArgCheck(false, arg, "%s: %s must be one of %s, got \"%s\"", fn, name, choices.c_str(), value ? value : "(null)");
  }
  return c;
}

void checkInfo(const char *fn, int info) {
  if (info < 0) THError("%s: LAPACK rejected argument %d (an internal error)", fn, -info);
}

int lda(int64_t rows) { return rows > 1 ? (int)rows : 1; }

// LAPACK's optimal workspace size from a query (lwork = -1), at least 1.
template <typename T>
int workSize(T query) {
  return std::max(1, (int)query);
}

}  // namespace

#define TH_GENERIC_FILE "TH/generic/THTensorLapack.cpp"
#include "TH/THGenerateFloatTypes.h"
