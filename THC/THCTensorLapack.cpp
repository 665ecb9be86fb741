#include "THC/THCTensorLapack.h"

#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "THC/THCCachingAllocator.h"
#include "THC/THCLazyLibrary.h"
#include "THC/THCTensor.hpp"

// cuSOLVER's and cuBLAS's entry points by element type, so that generic code calls one name.
#define THC_SOLVER_FOR(P, T)                                                                                           \
  namespace solver {                                                                                                   \
  inline cusolverStatus_t getrfBufferSize(cusolverDnHandle_t h, int m, int n, T *a, int lda, int *lwork) {             \
    return THC_LAZY(Cusolver, cusolverDn##P##getrf_bufferSize)(h, m, n, a, lda, lwork);                                \
  }                                                                                                                    \
  inline cusolverStatus_t getrf(cusolverDnHandle_t h, int m, int n, T *a, int lda, T *work, int *ipiv, int *info) {    \
    return THC_LAZY(Cusolver, cusolverDn##P##getrf)(h, m, n, a, lda, work, ipiv, info);                                \
  }                                                                                                                    \
  inline cusolverStatus_t getrs(cusolverDnHandle_t h, int n, int nrhs, const T *a, int lda, const int *ipiv, T *b,     \
                                int ldb, int *info) {                                                                  \
    return THC_LAZY(Cusolver, cusolverDn##P##getrs)(h, CUBLAS_OP_N, n, nrhs, a, lda, ipiv, b, ldb, info);              \
  }                                                                                                                    \
  inline cusolverStatus_t potrfBufferSize(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *a, int lda,           \
                                          int *lwork) {                                                                \
    return THC_LAZY(Cusolver, cusolverDn##P##potrf_bufferSize)(h, uplo, n, a, lda, lwork);                             \
  }                                                                                                                    \
  inline cusolverStatus_t potrf(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *a, int lda, T *work, int lwork, \
                                int *info) {                                                                           \
    return THC_LAZY(Cusolver, cusolverDn##P##potrf)(h, uplo, n, a, lda, work, lwork, info);                            \
  }                                                                                                                    \
  inline cusolverStatus_t potrs(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, int nrhs, const T *a, int lda,     \
                                T *b, int ldb, int *info) {                                                            \
    return THC_LAZY(Cusolver, cusolverDn##P##potrs)(h, uplo, n, nrhs, a, lda, b, ldb, info);                           \
  }                                                                                                                    \
  inline cusolverStatus_t potriBufferSize(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *a, int lda,           \
                                          int *lwork) {                                                                \
    return THC_LAZY(Cusolver, cusolverDn##P##potri_bufferSize)(h, uplo, n, a, lda, lwork);                             \
  }                                                                                                                    \
  inline cusolverStatus_t potri(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T *a, int lda, T *work, int lwork, \
                                int *info) {                                                                           \
    return THC_LAZY(Cusolver, cusolverDn##P##potri)(h, uplo, n, a, lda, work, lwork, info);                            \
  }                                                                                                                    \
  inline cusolverStatus_t syevdBufferSize(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,  \
                                          const T *a, int lda, const T *w, int *lwork) {                               \
    return THC_LAZY(Cusolver, cusolverDn##P##syevd_bufferSize)(h, jobz, uplo, n, a, lda, w, lwork);                    \
  }                                                                                                                    \
  inline cusolverStatus_t syevd(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, T *a,      \
                                int lda, T *w, T *work, int lwork, int *info) {                                        \
    return THC_LAZY(Cusolver, cusolverDn##P##syevd)(h, jobz, uplo, n, a, lda, w, work, lwork, info);                   \
  }                                                                                                                    \
  inline cusolverStatus_t gesvdBufferSize(cusolverDnHandle_t h, int m, int n, const T *, int *lwork) {                 \
    return THC_LAZY(Cusolver, cusolverDn##P##gesvd_bufferSize)(h, m, n, lwork);                                        \
  }                                                                                                                    \
  inline cusolverStatus_t gesvd(cusolverDnHandle_t h, char job, int m, int n, T *a, int lda, T *s, T *u, int ldu,      \
                                T *vt, int ldvt, T *work, int lwork, T *rwork, int *info) {                            \
    return THC_LAZY(Cusolver, cusolverDn##P##gesvd)(h, job, job, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork,       \
                                                    rwork, info);                                                      \
  }                                                                                                                    \
  inline cusolverStatus_t geqrfBufferSize(cusolverDnHandle_t h, int m, int n, T *a, int lda, int *lwork) {             \
    return THC_LAZY(Cusolver, cusolverDn##P##geqrf_bufferSize)(h, m, n, a, lda, lwork);                                \
  }                                                                                                                    \
  inline cusolverStatus_t geqrf(cusolverDnHandle_t h, int m, int n, T *a, int lda, T *tau, T *work, int lwork,         \
                                int *info) {                                                                           \
    return THC_LAZY(Cusolver, cusolverDn##P##geqrf)(h, m, n, a, lda, tau, work, lwork, info);                          \
  }                                                                                                                    \
  inline cusolverStatus_t orgqrBufferSize(cusolverDnHandle_t h, int m, int n, int k, const T *a, int lda,              \
                                          const T *tau, int *lwork) {                                                  \
    return THC_LAZY(Cusolver, cusolverDn##P##orgqr_bufferSize)(h, m, n, k, a, lda, tau, lwork);                        \
  }                                                                                                                    \
  inline cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int n, int k, T *a, int lda, const T *tau, T *work,       \
                                int lwork, int *info) {                                                                \
    return THC_LAZY(Cusolver, cusolverDn##P##orgqr)(h, m, n, k, a, lda, tau, work, lwork, info);                       \
  }                                                                                                                    \
  inline cublasStatus_t trttp(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *a, int lda, T *ap) {            \
    return THC_LAZY(Cublas, cublas##P##trttp)(h, uplo, n, a, lda, ap);                                                 \
  }                                                                                                                    \
  inline cublasStatus_t tpttr(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *ap, T *a, int lda) {            \
    return THC_LAZY(Cublas, cublas##P##tpttr)(h, uplo, n, ap, a, lda);                                                 \
  }                                                                                                                    \
  /* c = a + a^T */                                                                                                    \
  inline cublasStatus_t addTranspose(cublasHandle_t h, int n, const T *a, int lda, T *c, int ldc) {                    \
    const T one = 1;                                                                                                   \
    return THC_LAZY(Cublas, cublas##P##geam)(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, &one, a, lda, &one, a, lda, c, ldc);   \
  }                                                                                                                    \
  }

THC_SOLVER_FOR(S, float)
THC_SOLVER_FOR(D, double)
#undef THC_SOLVER_FOR

namespace {

const char *solverStatusName(cusolverStatus_t status) {
  switch (status) {
#define THC_SOLVER_STATUS(name) \
  case name: return #name;
    THC_SOLVER_STATUS(CUSOLVER_STATUS_SUCCESS)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_NOT_INITIALIZED)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_ALLOC_FAILED)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_INVALID_VALUE)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_ARCH_MISMATCH)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_MAPPING_ERROR)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_EXECUTION_FAILED)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_INTERNAL_ERROR)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_NOT_SUPPORTED)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_ZERO_PIVOT)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_INVALID_LICENSE)
    THC_SOLVER_STATUS(CUSOLVER_STATUS_INVALID_WORKSPACE)
#undef THC_SOLVER_STATUS
    default: return "CUSOLVER_STATUS_(unknown)";
  }
}

void checkSolver(cusolverStatus_t status, const char *fn) {
  if (status != CUSOLVER_STATUS_SUCCESS)
    THError("%s: cuSOLVER error %s (%d)", fn, solverStatusName(status), (int)status);
}

void checkBlas(cublasStatus_t status, const char *fn) {
  if (status != CUBLAS_STATUS_SUCCESS)
    THError("%s: cuBLAS error %s (%s)", fn, THC_LAZY(Cublas, cublasGetStatusName)(status),
            THC_LAZY(Cublas, cublasGetStatusString)(status));
}

// One cuSOLVER handle per device, created on first use, bound to the current stream.
cusolverDnHandle_t solverHandle(THCState *state, const char *fn) {
  static std::mutex mutex;
  static std::vector<cusolverDnHandle_t> handles;
  const int device = THCudaGetDevice();
  cusolverDnHandle_t handle;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if ((int)handles.size() <= device) handles.resize(device + 1, nullptr);
    if (!handles[device]) {
      const cusolverStatus_t status = THC_LAZY(Cusolver, cusolverDnCreate)(&handles[device]);
      if (status != CUSOLVER_STATUS_SUCCESS) {
        handles[device] = nullptr;
        THError("%s: cuSOLVER could not be initialised on device %d (%s)", fn, device, solverStatusName(status));
      }
    }
    handle = handles[device];
  }
  checkSolver(THC_LAZY(Cusolver, cusolverDnSetStream)(handle, THCState_getCurrentStream(state)), fn);
  return handle;
}

// Device memory for the length of one call, on the current stream (the caching allocator
// hands it out again on that stream only, after the work queued there).
class DeviceBuffer {
 public:
  DeviceBuffer(size_t bytes, cudaStream_t stream) : ptr_(THCCachingAllocator_malloc(bytes, stream)) {}
  ~DeviceBuffer() { THCCachingAllocator_free(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  template <typename T>
  T *as() const {
    return static_cast<T *>(ptr_);
  }

 private:
  void *ptr_;
};

// What one LAPACK call needs: the cuSOLVER and cuBLAS handles on the current stream and a
// devInfo word.
struct Solver {
  Solver(THCState *state, const char *fn)
      : fn(fn),
        stream(THCState_getCurrentStream(state)),
        handle(solverHandle(state, fn)),
        blas(THCState_getCurrentBlasHandle(state)),
        info(sizeof(int), stream) {
    checkBlas(THC_LAZY(Cublas, cublasSetPointerMode)(blas, CUBLAS_POINTER_MODE_HOST), fn);
  }
  const char *fn;
  cudaStream_t stream;
  cusolverDnHandle_t handle;
  cublasHandle_t blas;
  DeviceBuffer info;

  int *devInfo() const { return info.as<int>(); }
  void check(cusolverStatus_t status) const { checkSolver(status, fn); }
  void check(cublasStatus_t status) const { checkBlas(status, fn); }
  // The devInfo of the last call, after waiting for the stream; a negative one (an
  // argument cuSOLVER rejected) raises.
  int readInfo() const {
    int value = 0;
    THCudaCheck(cudaMemcpyAsync(&value, devInfo(), sizeof(int), cudaMemcpyDeviceToHost, stream));
    THCudaCheck(cudaStreamSynchronize(stream));
    if (value < 0) THError("%s: cuSOLVER rejected argument %d (an internal error)", fn, -value);
    return value;
  }
  // A workspace of lwork elements of T.
  template <typename T>
  std::unique_ptr<DeviceBuffer> workspace(int lwork) const {
    return std::make_unique<DeviceBuffer>(sizeof(T) * std::max(lwork, 1), stream);
  }
};

// Owns one reference to a CUDA tensor of any type, freed when the scope ends.
template <typename TensorT>
struct Freer {
  THCState *state;
  void operator()(TensorT *t) const {
    if (t) thc::THC<std::remove_pointer_t<decltype(t->storage->data)>>::free(state, t);
  }
};
template <typename TensorT>
using Owned = std::unique_ptr<TensorT, Freer<TensorT>>;
template <typename TensorT>
Owned<TensorT> own(THCState *state, TensorT *t) {
  return Owned<TensorT>(t, Freer<TensorT>{state});
}

template <typename TensorT>
auto dataOf(TensorT *t) -> decltype(t->storage->data) {
  return t->storage && t->storage->data ? t->storage->data + t->storageOffset : nullptr;
}

cublasFillMode_t fillMode(char uplo) { return uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER; }

// TH's argument checks (TH/THTensorLapack.cpp), with the same messages.
template <typename TensorT>
void checkMatrix(const char *fn, const char *name, TensorT *a, int arg) {
  THArgCheck(a != nullptr, arg, "%s: %s is NULL and so is the result that stands for it", fn, name);
  THArgCheck(a->nDimension == 2, arg, "%s: %s must be a matrix (2-d), got sizes %s", fn, name, thc::shapeOf(a).c_str());
  THArgCheck(a->size[0] <= INT_MAX && a->size[1] <= INT_MAX, arg, "%s: %s %s is too large for LAPACK", fn, name,
             thc::shapeOf(a).c_str());
}

template <typename TensorT>
void checkSquare(const char *fn, const char *name, TensorT *a, int arg) {
  checkMatrix(fn, name, a, arg);
  THArgCheck(a->size[0] == a->size[1], arg, "%s: %s must be square, got sizes %s", fn, name, thc::shapeOf(a).c_str());
}

// A right-hand side: [n, k], or [n] taken as [n, 1]; returns k.
template <typename TensorT>
int64_t checkRhs(const char *fn, TensorT *b, int bArg, TensorT *a) {
  THArgCheck(b != nullptr, bArg, "%s: b is NULL and so is the result that stands for it", fn);
  THArgCheck(b->nDimension == 1 || b->nDimension == 2, bArg, "%s: b must be a vector or a matrix, got sizes %s", fn,
             thc::shapeOf(b).c_str());
  THArgCheck(b->size[0] == a->size[0], bArg, "%s: size mismatch, b %s has not as many rows as a %s", fn,
             thc::shapeOf(b).c_str(), thc::shapeOf(a).c_str());
  const int64_t k = b->nDimension == 2 ? b->size[1] : 1;
  THArgCheck(k <= INT_MAX, bArg, "%s: b %s is too large for LAPACK", fn, thc::shapeOf(b).c_str());
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

int lda(int64_t rows) { return rows > 1 ? (int)rows : 1; }

}  // namespace

#define THC_GENERIC_FILE "THC/generic/THCTensorLapack.cpp"
#include "THC/THCGenerateAllTypes.h"
