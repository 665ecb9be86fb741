// The CPU column of linear algebra: TH's BLAS and LAPACK wrappers.
#include "core/ops/LinalgKernels.h"

namespace torch::cpu {

namespace {

const char *uplo(bool upper) { return upper ? "U" : "L"; }

#define TORCH_CPU_ADD_PRODUCT(name)                                                                          \
  template <typename T>                                                                                      \
  void name(const Tensor &r, Scalar beta, const Tensor &t, Scalar alpha, const Tensor &x, const Tensor &y) { \
    TH<T>::name(r.th<T>(), beta.to<T>(), t.th<T>(), alpha.to<T>(), x.th<T>(), y.th<T>());                    \
  }
TORCH_CPU_ADD_PRODUCT(addmm)
TORCH_CPU_ADD_PRODUCT(addmv)
TORCH_CPU_ADD_PRODUCT(addr)
TORCH_CPU_ADD_PRODUCT(addbmm)
TORCH_CPU_ADD_PRODUCT(baddbmm)
#undef TORCH_CPU_ADD_PRODUCT

template <typename T>
Scalar dot(const Tensor &a, const Tensor &b) {
  auto sum = TH<T>::dot(a.th<T>(), b.th<T>());
  if constexpr (std::is_floating_point_v<decltype(sum)>) {
    return Scalar(static_cast<double>(sum));
  } else {
    return Scalar(static_cast<int64_t>(sum));
  }
}
template <typename T>
void inverse(const Tensor &r, const Tensor &a) {
  TH<T>::getri(r.th<T>(), a.th<T>());
}
template <typename T>
void luFactor(const Tensor &lu, const Tensor &pivots, const Tensor &a) {
  TH<T>::getrf(lu.th<T>(), pivots.th<int32_t>(), a.th<T>());
}
template <typename T>
void solve(const Tensor &x, const Tensor &lu, const Tensor &b, const Tensor &a) {
  TH<T>::gesv(x.th<T>(), lu.th<T>(), b.th<T>(), a.th<T>());
}
template <typename T>
void lstsq(const Tensor &x, const Tensor &qr, const Tensor &b, const Tensor &a) {
  TH<T>::gels(x.th<T>(), qr.th<T>(), b.th<T>(), a.th<T>());
}
template <typename T>
void cholesky(const Tensor &r, const Tensor &a, bool upper) {
  TH<T>::potrf(r.th<T>(), a.th<T>(), uplo(upper));
}
template <typename T>
void choleskyInverse(const Tensor &r, const Tensor &a, bool upper) {
  TH<T>::potri(r.th<T>(), a.th<T>(), uplo(upper));
}
template <typename T>
void choleskySolve(const Tensor &x, const Tensor &b, const Tensor &f, bool upper) {
  TH<T>::potrs(x.th<T>(), b.th<T>(), f.th<T>(), uplo(upper));
}
template <typename T>
void symeig(const Tensor &e, const Tensor &v, const Tensor &a, bool eigenvectors, bool upper) {
  TH<T>::syev(e.th<T>(), v.th<T>(), a.th<T>(), eigenvectors ? "V" : "N", uplo(upper));
}
template <typename T>
void eig(const Tensor &e, const Tensor &v, const Tensor &a, bool eigenvectors) {
  TH<T>::geev(e.th<T>(), v.th<T>(), a.th<T>(), eigenvectors ? "V" : "N");
}
template <typename T>
void svd(const Tensor &u, const Tensor &s, const Tensor &v, const Tensor &a, const char *job) {
  TH<T>::gesvd(u.th<T>(), s.th<T>(), v.th<T>(), a.th<T>(), job);
}
template <typename T>
void qr(const Tensor &q, const Tensor &r, const Tensor &a) {
  TH<T>::qr(q.th<T>(), r.th<T>(), a.th<T>());
}

}  // namespace

void registerLinalgKernels(LinalgKernels &k) {
  fill(k.addmm, TORCH_TEMPLATE(addmm));
  fill(k.addmv, TORCH_TEMPLATE(addmv));
  fill(k.addr, TORCH_TEMPLATE(addr));
  fill(k.addbmm, TORCH_TEMPLATE(addbmm));
  fill(k.baddbmm, TORCH_TEMPLATE(baddbmm));
  fill(k.dot, TORCH_TEMPLATE(dot));
  fill(k.inverse, TORCH_TEMPLATE(inverse));
  fill(k.luFactor, TORCH_TEMPLATE(luFactor));
  fill(k.solve, TORCH_TEMPLATE(solve));
  fill(k.lstsq, TORCH_TEMPLATE(lstsq));
  fill(k.cholesky, TORCH_TEMPLATE(cholesky));
  fill(k.choleskyInverse, TORCH_TEMPLATE(choleskyInverse));
  fill(k.choleskySolve, TORCH_TEMPLATE(choleskySolve));
  fill(k.symeig, TORCH_TEMPLATE(symeig));
  fill(k.eig, TORCH_TEMPLATE(eig));
  fill(k.svd, TORCH_TEMPLATE(svd));
  fill(k.qr, TORCH_TEMPLATE(qr));
}

}  // namespace torch::cpu
