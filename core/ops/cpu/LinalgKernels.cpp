// The CPU column of linear algebra: TH's BLAS and LAPACK wrappers, and the loops that read
// a factorization's results on the host.
#include "core/ops/LinalgKernels.h"

#include "THNN/dnnl/Matmul.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

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

template <typename T>
void luDeterminant(const Tensor &sign, const Tensor &logAbs, const Tensor &value, const Tensor &lu,
                   const Tensor &pivots) {
  const int64_t n = lu.size(0);
  const T *d = reinterpret_cast<const T *>(lu.dataPtr());
  const int32_t *p = reinterpret_cast<const int32_t *>(pivots.dataPtr());
  // The product of U's diagonal, the sign flipped by each row interchange. The sign is kept
  // apart from the product, which may underflow to 0.
  double s = 1, l = 0, v = 1;
  for (int64_t i = 0; i < n; i++) {
    const double u = d[i * lu.stride(0) + i * lu.stride(1)];
    if (p[i] != i + 1) {
      s = -s;
      v = -v;
    }
    if (u < 0) s = -s;
    l += std::log(std::abs(u));
    v *= u;
  }
  *reinterpret_cast<T *>(sign.dataPtr()) = static_cast<T>(s);
  *reinterpret_cast<T *>(logAbs.dataPtr()) = static_cast<T>(l);
  *reinterpret_cast<T *>(value.dataPtr()) = static_cast<T>(v);
}
template <typename T>
void pinverseFactor(const Tensor &r, const Tensor &v, const Tensor &s, double rcond) {
  const int64_t n = r.size(0), k = r.size(1);
  const T *sv = reinterpret_cast<const T *>(s.dataPtr());
  const T *vd = reinterpret_cast<const T *>(v.dataPtr());
  T *rd = reinterpret_cast<T *>(r.dataPtr());
  const double cutoff = k > 0 ? rcond * sv[0] : 0;
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < k; j++) {
      const T x = vd[i * v.stride(0) + j * v.stride(1)];
      rd[i * r.stride(0) + j * r.stride(1)] = sv[j] > cutoff ? T(x / sv[j]) : T(0);
    }
}
template <typename T>
void luUnpack(const Tensor &p, const Tensor &l, const Tensor &u, const Tensor &lu, const Tensor &pivots) {
  const int64_t m = lu.size(0), n = lu.size(1), k = std::min(m, n);
  const T *d = reinterpret_cast<const T *>(lu.dataPtr());
  const int32_t *piv = reinterpret_cast<const int32_t *>(pivots.dataPtr());
  // Row j of P^T A is row perm[j] of A, after the interchanges in order.
  std::vector<int64_t> perm(m);
  std::iota(perm.begin(), perm.end(), 0);
  for (int64_t i = 0; i < k; i++) std::swap(perm[i], perm[piv[i] - 1]);
  T *pd = reinterpret_cast<T *>(p.dataPtr()), *ld = reinterpret_cast<T *>(l.dataPtr());
  T *ud = reinterpret_cast<T *>(u.dataPtr());
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < m; j++) pd[i * m + j] = T(perm[j] == i ? 1 : 0);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < k; j++) ld[i * k + j] = i > j ? d[i * n + j] : T(i == j ? 1 : 0);
  for (int64_t i = 0; i < k; i++)
    for (int64_t j = 0; j < n; j++) ud[i * n + j] = i <= j ? d[i * n + j] : T(0);
}

// Note [bfloat16 products on oneDNN] (THNN/dnnl/Matmul.cpp): r = beta t + alpha (x @ y) for
// BFloat16 matrices (batched when x is 3-D), the product read in bfloat16 by oneDNN, the rest
// in float, rounded once; the Float kernel through float where oneDNN declines.
template <auto FloatKernel>
void bfloat16Product(const Tensor &r, Scalar beta, const Tensor &t, Scalar alpha, const Tensor &x, const Tensor &y) {
  const bool readT = !beta.isZero();  // Note [beta zero]
  Tensor f = bfloat16ProductInFloat(x, y);
  if (!f.defined() || (readT && t.sizes() != f.sizes())) {
    ThroughFloat<FloatKernel>::call(r, beta, t, alpha, x, y);
    return;
  }
  float *out = reinterpret_cast<float *>(f.dataPtr());
  const float a = alpha.to<float>(), b = beta.to<float>();
  const int64_t n = f.numel();
  if (readT) {
    Tensor tf = widenToFloat(t);  // new and contiguous
    const float *in = reinterpret_cast<const float *>(tf.dataPtr());
    for (int64_t i = 0; i < n; i++) out[i] = a * out[i] + b * in[i];
  } else if (a != 1) {
    for (int64_t i = 0; i < n; i++) out[i] *= a;
  }
  roundInto(r, f);
}

}  // namespace

Tensor bfloat16ProductInFloat(const Tensor &x, const Tensor &y) {
  const bool batched = x.dim() == 3;
  IntList shape = batched ? IntList{x.size(0), x.size(1), y.size(2)} : IntList{x.size(0), y.size(1)};
  if (x.numel() == 0 || y.numel() == 0) return Tensor();
  auto operand = [batched](const Tensor &m) {
    thnn::dnnl_matmul::Operand o{reinterpret_cast<const uint16_t *>(m.dataPtr()), {}, {}};
    const int lead = batched ? 1 : 0;
    o.sizes = {batched ? m.size(0) : 1, m.size(lead), m.size(lead + 1)};
    o.strides = {batched ? m.stride(0) : m.size(0) * m.size(1), m.stride(lead), m.stride(lead + 1)};
    return o;
  };
  Tensor f = empty(shape, ScalarType::Float, Device::CPU);
  if (!thnn::dnnl_matmul::bfloat16Product(operand(x), operand(y), reinterpret_cast<float *>(f.dataPtr()))) {
    return Tensor();
  }
  return f;
}

void registerLinalgKernels(LinalgKernels &k) {
  fillWithHalf(k.addmm, TORCH_TEMPLATE(addmm));
  fillWithHalf(k.addmv, TORCH_TEMPLATE(addmv));
  fillWithHalf(k.addr, TORCH_TEMPLATE(addr));
  fillWithHalf(k.addbmm, TORCH_TEMPLATE(addbmm));
  fillWithHalf(k.baddbmm, TORCH_TEMPLATE(baddbmm));
  k.addmm.add(Device::CPU, ScalarType::BFloat16, &bfloat16Product<&addmm<float>>);
  k.baddbmm.add(Device::CPU, ScalarType::BFloat16, &bfloat16Product<&baddbmm<float>>);
  fillWithHalf(k.dot, TORCH_TEMPLATE(dot));
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
  fill(k.luDeterminant, TORCH_TEMPLATE(luDeterminant));
  fill(k.pinverseFactor, TORCH_TEMPLATE(pinverseFactor));
  fill(k.luUnpack, TORCH_TEMPLATE(luUnpack));
}

}  // namespace torch::cpu
